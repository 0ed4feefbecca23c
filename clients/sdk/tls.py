"""TLS on the client's side: which certificates to trust and show, and what a failed handshake
means, in one line (for the SDK's bots and ``tarot-arena admin`` alike).

grpc reports every TLS failure as UNAVAILABLE with OpenSSL's words in the details; a bot's
author needs to know which of their own settings to change, so :func:`explain` turns the
details into that. A plaintext client on a TLS port only sees "Socket closed", like a server
going away: :func:`probe` then makes one TLS handshake of its own (no certificate checked,
nothing sent) to tell the two apart, and to tell an arena that wants a client certificate.
"""

from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc


@dataclass(frozen=True, slots=True)
class ClientTls:
    """How a bot connects over TLS.

    ``ca``: a PEM file of the certificate authority to trust, for an arena whose certificate a
    private CA signed (the organiser hands it out); None: the public roots grpcio ships (or the
    file ``GRPC_DEFAULT_SSL_ROOTS_FILE_PATH`` names). ``cert`` and ``key``: the bot's own
    certificate and key, for an arena that asks for one (mutual TLS).
    """

    ca: str | Path | None = None
    cert: str | Path | None = None
    key: str | Path | None = None

    def __post_init__(self) -> None:
        if (self.cert is None) != (self.key is None):
            raise ValueError("a client certificate needs its key and the other way round: "
                             "give both --tls-cert and --tls-key")

    @property
    def shows_certificate(self) -> bool:
        return self.cert is not None

    def credentials(self) -> grpc.ChannelCredentials:
        """The channel credentials; a missing or unreadable file is a ValueError naming it."""
        return grpc.ssl_channel_credentials(
            root_certificates=_read(self.ca, "CA file (--tls-ca)"),
            private_key=_read(self.key, "key (--tls-key)"),
            certificate_chain=_read(self.cert, "certificate (--tls-cert)"),
        )


def _read(path: str | Path | None, what: str) -> bytes | None:
    if path is None:
        return None
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    if b"-----BEGIN " not in data:
        raise ValueError(f"the {what} {path} is not PEM (no -----BEGIN line)")
    return data


def as_client_tls(tls: bool | ClientTls | None) -> ClientTls | None:
    """``True``: TLS with the public roots; ``False``/None: plaintext."""
    if tls is True:
        return ClientTls()
    return tls or None


def explain(server: str, details: str, tls: ClientTls | None) -> str | None:
    """One line for a TLS failure grpc reported with ``details``, or None if it is none."""
    host = server.rsplit(":", 1)[0].strip("[]")
    if "WRONG_VERSION_NUMBER" in details or "wrong version number" in details:
        return (f"the arena at {server} does not speak TLS: connect without --tls/--tls-ca "
                "(or ask the organiser for its TLS port)")
    if "certificate has expired" in details:
        return (f"the arena's certificate at {server} has expired: the organiser must renew "
                "it (the arena takes up a renewed certificate without a restart)")
    if "Hostname Verification" in details or "No match found for server name" in details:
        return (f"the arena's certificate is not valid for {host}: connect to the host name "
                "it was issued for (the arena prints it at start)")
    if "CERTIFICATE_VERIFY_FAILED" in details:
        how = ("--tls-ca FILE names a CA that did not sign it" if tls and tls.ca is not None
               else "pass --tls-ca FILE with the organiser's CA certificate")
        return (f"this bot does not trust the arena's certificate at {server} "
                f"({_verify_reason(details)}): {how}")
    return None


def _verify_reason(details: str) -> str:
    """OpenSSL's reason after ``CERTIFICATE_VERIFY_FAILED:``, e.g. "unable to get local issuer
    certificate"."""
    reason = details.split("CERTIFICATE_VERIFY_FAILED:", 1)[-1].strip()
    reason = reason.removesuffix(": OK").strip()
    return reason or "verification failed"


def probe(server: str, tls: ClientTls | None = None, timeout: float = 3.0) -> str:
    """What the arena at ``server`` answers to a TLS handshake (showing ``tls``'s client
    certificate, if any): "tls", "tls-wants-certificate" (the arena refused the handshake for
    want of a client certificate it accepts), "plaintext" (no TLS there), or "unreachable"."""
    host, _, port = server.rpartition(":")
    host = host.strip("[]")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # a probe: what matters is whether TLS is spoken
    context.set_alpn_protocols(["h2"])
    if tls is not None and tls.cert is not None and tls.key is not None:
        try:
            context.load_cert_chain(str(tls.cert), str(tls.key))
        except (OSError, ssl.SSLError):
            return "unreachable"  # credentials() has said what is wrong with the files
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as raw:
            try:
                with context.wrap_socket(raw, server_hostname=host or None) as secure:
                    secure.settimeout(min(timeout, 0.5))
                    try:  # TLS 1.3: a refused client certificate arrives as an alert now;
                        if not secure.recv(1):  # an arena that accepts sends its settings
                            return "tls-wants-certificate"
                    except TimeoutError:
                        pass
                    except ssl.SSLError as exc:
                        if "CERTIFICATE" in str(exc).upper():
                            return "tls-wants-certificate"
                    except OSError:  # closed at once: the alert went unread
                        return "tls-wants-certificate"
                    return "tls"
            except ssl.SSLError as exc:
                if "CERTIFICATE_REQUIRED" in str(exc) or "HANDSHAKE_FAILURE" in str(exc):
                    return "tls-wants-certificate"
                return "plaintext"
            except (ConnectionError, TimeoutError):
                return "plaintext"
    except (OSError, ValueError):
        return "unreachable"


def explain_closed(server: str, tls: ClientTls | None, answer: str) -> str | None:
    """One line for a connection the arena closed at once ("Socket closed"), given what
    :func:`probe` found; None when it says nothing about TLS."""
    if tls is None and answer in ("tls", "tls-wants-certificate"):
        return (f"the arena at {server} speaks TLS: connect with --tls (a public certificate) "
                "or --tls-ca FILE (the organiser's CA)")
    if tls is not None and answer == "tls-wants-certificate":
        if not tls.shows_certificate:
            return (f"the arena at {server} asks for a client certificate: pass --tls-cert "
                    "FILE and --tls-key FILE (the organiser issues them)")
        return (f"the arena at {server} refused this bot's client certificate: it was not "
                "issued by the CA the arena trusts, or it has expired")
    return None


def diagnose(server: str, details: str, tls: ClientTls | None) -> str | None:
    """The one line for a call to ``server`` that failed as UNAVAILABLE with ``details``, if
    TLS settings are the cause (None: another cause). May make one probing handshake (blocks
    up to a few seconds: call it from a worker thread in async code)."""
    line = explain(server, details, tls)
    if line is None and "Socket closed" in details:  # TLS on one side only?
        line = explain_closed(server, tls, probe(server, tls))
    return line
