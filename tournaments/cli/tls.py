"""The TLS options of ``serve``, ``tournament run`` and ``web``, and what they print at start.

The files may come from the environment (``TAROT_ARENA_TLS_CERT``, ``TAROT_ARENA_TLS_KEY``,
``TAROT_ARENA_TLS_CLIENT_CA``), like the database and the admin token, so that a service
file or a container sets them once. They are read and checked before anything listens: a
wrong path, a key of another certificate or an expired certificate is one line and exit 1.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:  # imported by the functions: grpc reads its log settings when first imported
    from arena.transport.tls import ServerTls

CERT_ENV = "TAROT_ARENA_TLS_CERT"
KEY_ENV = "TAROT_ARENA_TLS_KEY"
CLIENT_CA_ENV = "TAROT_ARENA_TLS_CLIENT_CA"

TlsCert = Annotated[Path | None, typer.Option(
    envvar=CERT_ENV, show_envvar=False,
    help=f"Serve TLS only, with this certificate (PEM, the chain after it; or {CERT_ENV}). "
         "A renewed file is taken up by new connections, no restart.")]
TlsKey = Annotated[Path | None, typer.Option(
    envvar=KEY_ENV, show_envvar=False,
    help=f"The certificate's private key (PEM, unencrypted; or {KEY_ENV}).")]
TlsClientCa = Annotated[Path | None, typer.Option(
    envvar=CLIENT_CA_ENV, show_envvar=False,
    help="Mutual TLS: bots must show a certificate this CA (PEM) signed "
         f"(or {CLIENT_CA_ENV}). The web page asks for none.")]
Insecure = Annotated[bool, typer.Option(
    "--insecure", help="Serve plaintext on an address other machines reach without the "
                       "warning that tokens travel in clear (a network of your own).")]


class TlsOptionError(ValueError):
    """TLS options that do not go together."""


def server_tls(cert: Path | None, key: Path | None, client_ca: Path | None = None,
               insecure: bool = False) -> ServerTls | None:
    """The arena's TLS from its options, its files checked now (None: plaintext)."""
    if cert is None and key is None:
        if client_ca is not None:
            raise TlsOptionError("--tls-client-ca needs --tls-cert and --tls-key: mutual TLS "
                                 "is TLS first")
        return None
    if cert is None or key is None:
        given, missing = ("--tls-cert", "--tls-key") if key is None else ("--tls-key",
                                                                        "--tls-cert")
        raise TlsOptionError(f"{given} needs {missing} too (from the option or "
                             f"{KEY_ENV if key is None else CERT_ENV})")
    if insecure:
        raise TlsOptionError("--insecure is for plaintext: leave it out with --tls-cert")
    from arena.transport.tls import ServerTls

    tls = ServerTls(cert, key, client_ca)
    tls.load()
    return tls


def announce(console: Console, errors: Console, tls: ServerTls | None, host: str, port: int,
             insecure: bool, what: str = "bot and admin tokens") -> None:
    """The certificate served, or the one-line warning for plaintext that other machines can
    reach (nothing on loopback, or with ``--insecure``)."""
    if tls is not None:
        console.print(escape(tls.describe()), highlight=False)
        return
    from arena.transport.tls import plaintext_warning

    warning = None if insecure else plaintext_warning(host, port, what)
    if warning is not None:
        errors.print(f"[yellow]{escape(warning)}[/yellow]", highlight=False, soft_wrap=True)


def quiet_grpc_core() -> None:
    """gRPC's C core logs every failed handshake (a plaintext client on the TLS port, a bot
    that does not trust the certificate) at INFO on stderr, over the progress display; the
    bot is told why in one line already. Errors still show. Only before grpc is imported."""
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
