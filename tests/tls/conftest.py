"""Certificates made in the test (``trustme``): an organiser's CA and the arena's certificate
as PEM files, as an organiser would hand them to ``--tls-cert``/``--tls-key``/``--tls-ca``."""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme

HOSTS = ("localhost", "127.0.0.1")


@dataclass
class Pki:
    """One CA and the files of the arena's certificate it signed, in ``folder``."""

    folder: Path
    ca: trustme.CA
    cert: Path
    key: Path
    ca_file: Path

    def issue(self, name: str, *hosts: str, ca: trustme.CA | None = None,
              not_before: datetime.datetime | None = None,
              not_after: datetime.datetime | None = None) -> tuple[Path, Path]:
        """A certificate of ``ca`` (this one by default) for ``hosts``, as files NAME.pem
        and NAME.key."""
        issued = (ca or self.ca).issue_cert(*(hosts or HOSTS), not_before=not_before,
                                            not_after=not_after)
        cert, key = self.folder / f"{name}.pem", self.folder / f"{name}.key"
        issued.private_key_pem.write_to_path(str(key))
        cert.write_bytes(b"".join(blob.bytes() for blob in issued.cert_chain_pems))
        return cert, key

    def ca_file_of(self, name: str, ca: trustme.CA) -> Path:
        path = self.folder / f"{name}-ca.pem"
        ca.cert_pem.write_to_path(str(path))
        return path

    def replace(self, cert: Path, key: Path) -> None:
        """Install ``cert`` and ``key`` as the arena's files, each by an atomic rename, the
        way renewal tools do (the key first: for a moment the pair does not match)."""
        for source, target in ((key, self.key), (cert, self.cert)):
            staging = target.with_suffix(".new")
            staging.write_bytes(source.read_bytes())
            os.replace(staging, target)


@pytest.fixture
def pki(tmp_path: Path) -> Pki:
    folder = tmp_path / "pki"
    folder.mkdir()
    ca = trustme.CA(organization_name="Tarot Arena test CA")
    made = Pki(folder, ca, folder / "arena.pem", folder / "arena.key", folder / "ca.pem")
    issued_cert, issued_key = made.issue("first")
    made.replace(issued_cert, issued_key)
    ca.cert_pem.write_to_path(str(made.ca_file))
    return made
