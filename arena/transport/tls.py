"""TLS for the arena's listeners: a certificate and key from PEM files, checked before the
server binds, and picked up again when the files change, without a restart.

Why it is shaped this way:

- Every mistake an organiser can make with the files is one line before anything listens: a
  file missing or unreadable, no PEM in it, an encrypted key, a key of another certificate, a
  certificate expired or not yet valid (:class:`TlsConfigError`, a ``ValueError``).
- Renewal needs no restart and drops nothing: gRPC asks :meth:`ServerTls.fetch` before each
  new TLS handshake (``grpc.dynamic_ssl_server_credentials``) and the web page asks
  :meth:`ServerTls.refresh` the same way (see ``tournaments.web.server``). Connections already
  open keep the certificate they were made with, so a table being played never notices;
  the next connection gets the new one. The files are looked at (their size, time and inode,
  one ``stat`` each) at most once per :data:`RECHECK_SECONDS`, and read only when they changed.
- A renewal caught half-way (the new certificate written, the old key still there) is not
  served: the pair is checked as at start, the old one kept, and the reason logged once, until
  the files change again.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import grpc
from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import ExtensionOID, NameOID

log = logging.getLogger(__name__)

RECHECK_SECONDS: Final = 1.0
"""How often, at most, a handshake makes the server look at the files again."""
EXPIRY_WARNING: Final = datetime.timedelta(days=14)
"""A certificate that ends sooner than this is served with a warning at start."""


class TlsConfigError(ValueError):
    """A certificate, key or CA file that cannot be served: one line saying which and why."""


@dataclass(frozen=True, slots=True)
class CertificateInfo:
    """What the arena says of the certificate it serves."""

    names: tuple[str, ...]
    """The host names and addresses it is valid for (its subject alternative names, else its
    common name)."""
    not_after: datetime.datetime
    """When it expires (UTC)."""

    def describe(self) -> str:
        names = ", ".join(self.names) or "no host name"
        return f"certificate for {names}, valid until {self.not_after:%Y-%m-%d %H:%M} UTC"


@dataclass(frozen=True, slots=True)
class _Loaded:
    """One checked set of files, as read."""

    stamp: tuple[tuple[int, int, int], ...]
    cert_pem: bytes
    key_pem: bytes
    client_ca_pem: bytes | None
    info: CertificateInfo


def read_pem(path: Path, what: str) -> bytes:
    """The file's bytes; a missing or unreadable file is one line naming it."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TlsConfigError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None


def check_pair(
    cert_pem: bytes, key_pem: bytes, cert_path: Path, key_path: Path,
    now: datetime.datetime | None = None,
) -> CertificateInfo:
    """The certificate's names and end, once the pair is known to be servable: PEM, the key
    unencrypted and the certificate's own, the certificate valid ``now``."""
    try:
        chain = x509.load_pem_x509_certificates(cert_pem)
    except ValueError:
        raise TlsConfigError(f"{cert_path} holds no PEM certificate "
                             "(-----BEGIN CERTIFICATE-----)") from None
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except TypeError:
        raise TlsConfigError(f"the key {key_path} is encrypted: give the arena an "
                             "unencrypted key (readable by its user only)") from None
    except (ValueError, UnsupportedAlgorithm):
        raise TlsConfigError(f"{key_path} holds no PEM private key "
                             "(-----BEGIN PRIVATE KEY-----)") from None
    leaf = chain[0]
    spki = serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    if leaf.public_key().public_bytes(*spki) != key.public_key().public_bytes(*spki):
        raise TlsConfigError(f"the key {key_path} does not match the certificate {cert_path} "
                             "(the first certificate of the file must be the key's)")
    now = now or datetime.datetime.now(datetime.UTC)
    if leaf.not_valid_after_utc <= now:
        raise TlsConfigError(f"the certificate {cert_path} expired on "
                             f"{leaf.not_valid_after_utc:%Y-%m-%d %H:%M} UTC: renew it")
    if leaf.not_valid_before_utc > now:
        raise TlsConfigError(f"the certificate {cert_path} is not valid before "
                             f"{leaf.not_valid_before_utc:%Y-%m-%d %H:%M} UTC (check the clock)")
    return CertificateInfo(_names(leaf), leaf.not_valid_after_utc)


def check_ca(pem: bytes, path: Path) -> None:
    try:
        x509.load_pem_x509_certificates(pem)
    except ValueError:
        raise TlsConfigError(f"the CA file {path} holds no PEM certificate") from None


def _names(cert: x509.Certificate) -> tuple[str, ...]:
    try:
        alternatives = cert.extensions.get_extension_for_oid(
            ExtensionOID.SUBJECT_ALTERNATIVE_NAME).value
    except x509.ExtensionNotFound:
        common = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
        return tuple(str(name.value) for name in common)
    return (*alternatives.get_values_for_type(x509.DNSName),
            *(str(ip) for ip in alternatives.get_values_for_type(x509.IPAddress)))


class ServerTls:
    """The arena's certificate, key and (for mutual TLS) client CA, as files that may be
    renewed while it runs. Thread-safe: gRPC calls :meth:`fetch` from its own threads."""

    def __init__(self, cert: Path, key: Path, client_ca: Path | None = None) -> None:
        self.cert = Path(cert)
        self.key = Path(key)
        self.client_ca = Path(client_ca) if client_ca is not None else None
        self._loaded: _Loaded | None = None
        self._lock = threading.Lock()
        self._next_check = 0.0
        self._refused: tuple[tuple[int, int, int], ...] | None = None
        self.renewals = 0
        """Times a changed set of files was taken up (not counting the first load)."""

    @property
    def mutual(self) -> bool:
        """Bots must show a certificate the client CA signed."""
        return self.client_ca is not None

    def _paths(self) -> tuple[Path, ...]:
        return (self.cert, self.key, *([self.client_ca] if self.client_ca else []))

    def _stamp(self) -> tuple[tuple[int, int, int], ...]:
        stamps = []
        for path in self._paths():
            try:
                found = os.stat(path)
            except OSError:
                stamps.append((-1, -1, -1))
            else:
                stamps.append((found.st_mtime_ns, found.st_size, found.st_ino))
        return tuple(stamps)

    def _read(self) -> _Loaded:
        stamp = self._stamp()
        cert_pem = read_pem(self.cert, "certificate")
        key_pem = read_pem(self.key, "key")
        info = check_pair(cert_pem, key_pem, self.cert, self.key)
        client_ca = None
        if self.client_ca is not None:
            client_ca = read_pem(self.client_ca, "client CA")
            check_ca(client_ca, self.client_ca)
        return _Loaded(stamp, cert_pem, key_pem, client_ca, info)

    def load(self) -> CertificateInfo:
        """Read and check the files now (at start: raises :class:`TlsConfigError`)."""
        loaded = self._read()
        with self._lock:
            self._loaded = loaded
            self._next_check = time.monotonic() + RECHECK_SECONDS
        return loaded.info

    @property
    def info(self) -> CertificateInfo:
        return self._current().info

    def _current(self) -> _Loaded:
        if self._loaded is None:
            self.load()
        assert self._loaded is not None
        return self._loaded

    def refresh(self) -> bool:
        """Take up renewed files if they changed and are servable; True if it did. Never
        raises: a bad renewal is logged (once per state of the files) and the old kept."""
        now = time.monotonic()
        with self._lock:
            if now < self._next_check or self._loaded is None:
                return False
            self._next_check = now + RECHECK_SECONDS
            stamp = self._stamp()
            if stamp == self._loaded.stamp or stamp == self._refused:
                return False
            try:
                loaded = self._read()
            except TlsConfigError as exc:
                self._refused = stamp
                log.error("TLS files changed but cannot be served, still serving the previous "
                          "certificate: %s", exc)
                return False
            except Exception:  # never let a handshake fail over a renewal
                self._refused = stamp
                log.exception("TLS files changed but could not be read")
                return False
            self._loaded = loaded
            self._refused = None
            self.renewals += 1
        log.warning("TLS: renewed %s; new connections get it", loaded.info.describe())
        return True

    def certificate_configuration(self) -> grpc.ServerCertificateConfiguration:
        loaded = self._current()
        return grpc.ssl_server_certificate_configuration(
            [(loaded.key_pem, loaded.cert_pem)], root_certificates=loaded.client_ca_pem)

    def fetch(self) -> grpc.ServerCertificateConfiguration | None:
        """gRPC's certificate fetcher: a new configuration when the files were renewed, else
        None (keep the current one)."""
        try:
            return self.certificate_configuration() if self.refresh() else None
        except Exception:  # an exception here would fail the handshake
            log.exception("TLS certificate fetcher failed")
            return None

    def credentials(self) -> grpc.ServerCredentials:
        """gRPC credentials that serve the current files and follow their renewals."""
        return grpc.dynamic_ssl_server_credentials(
            self.certificate_configuration(), self.fetch,
            require_client_authentication=self.mutual)

    def describe(self) -> str:
        """The line the arena prints at start."""
        line = f"TLS: {self.info.describe()}"
        left = self.info.not_after - datetime.datetime.now(datetime.UTC)
        if left < EXPIRY_WARNING:
            line += f" (expires in {max(0, left.days)} days: renew it; no restart needed)"
        if self.client_ca is not None:
            line += f"; bots must show a certificate signed by {self.client_ca}"
        return line


def is_loopback(host: str) -> bool:
    """Whether a listener on ``host`` can be reached from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    if not host:
        return False
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


def plaintext_warning(host: str, port: int, what: str = "bot and admin tokens") -> str | None:
    """The start-up line for a plaintext listener that other machines can reach (None on
    loopback: development and the demo)."""
    if is_loopback(host):
        return None
    return (f"warning: plaintext on {host or '*'}:{port}: {what} travel in clear; give "
            "--tls-cert and --tls-key, or --insecure if this network is yours")
