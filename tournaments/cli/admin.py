"""``tarot-arena admin``: a running arena's admin service, from the command line.

``bots revoke`` writes the database, which a running arena reads only when a bot connects
next; ``admin revoke`` asks the arena itself, which also drops the bot's connections at once.
Over the internet the arena serves TLS, so these commands take the bots' TLS options
(``--tls``, ``--tls-ca``, ``--tls-cert``/``--tls-key``), and the admin token as ``serve`` does
(``TAROT_ARENA_ADMIN_TOKEN``, ``--admin-token-file``). Every failure is one line.

grpc and the SDK are imported by the commands only: every other command of ``tarot-arena``
starts without them (and gRPC reads its log settings when first imported).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from .report import id_column, new_table, print_fitting, text_column

if TYPE_CHECKING:
    import grpc

    from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
    from clients.sdk import ClientTls

ADMIN_TOKEN_ENV = "TAROT_ARENA_ADMIN_TOKEN"
CALL_TIMEOUT = 15.0
"""Seconds an admin call may take (connecting included)."""
T = TypeVar("T")

admin_app = typer.Typer(help="Call a running arena's admin service: its connections, its bots, "
                             "revoke a bot at once.", no_args_is_help=True)
console = Console(width=None if sys.stdout.isatty() else 160)
errors = Console(stderr=True, soft_wrap=True)


class AdminCallError(ValueError):
    """An admin call that failed: one line saying why."""


Server = Annotated[str, typer.Option(help="The arena, HOST:PORT.")]
Tls = Annotated[bool, typer.Option(
    "--tls", help="Over TLS, trusting the public certificate authorities.")]
TlsCa = Annotated[Path | None, typer.Option(
    help="Over TLS, trusting this CA certificate (PEM; the arena's own CA).")]
TlsCert = Annotated[Path | None, typer.Option(
    help="A client certificate (PEM), for an arena that asks for one (with --tls-key).")]
TlsKey = Annotated[Path | None, typer.Option(help="The key of --tls-cert (PEM).")]
TokenFile = Annotated[Path | None, typer.Option(
    help=f"Read the admin token from this file (default: {ADMIN_TOKEN_ENV}).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def client_tls(tls: bool, ca: Path | None, cert: Path | None,
               key: Path | None) -> ClientTls | None:
    from clients.sdk import ClientTls

    if (cert is None) != (key is None):
        raise AdminCallError("--tls-cert and --tls-key go together: the certificate and its key")
    if not (tls or ca or cert):
        return None
    chosen = ClientTls(ca=ca, cert=cert, key=key)
    chosen.credentials()  # a missing or non-PEM file: one line now
    return chosen


def admin_token(file: Path | None) -> str:
    from clients.run import UsageError, read_secret

    try:
        token = read_secret(flag=None, flag_name="--admin-token",
                            file=str(file) if file else None, file_flag="--admin-token-file",
                            env=ADMIN_TOKEN_ENV)
    except UsageError as exc:
        raise AdminCallError(str(exc)) from None
    if not token:
        raise AdminCallError(f"no admin token: set {ADMIN_TOKEN_ENV} or pass "
                             "--admin-token-file FILE (the one the arena was started with)")
    return token


def call(server: str, tls: ClientTls | None, token: str,
         method: Callable[[pb_grpc.AdminServiceStub], Callable[..., T]], request: object) -> T:
    """One admin call; its failure as :class:`AdminCallError`."""
    import grpc

    from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc

    channel = (grpc.insecure_channel(server) if tls is None
               else grpc.secure_channel(server, tls.credentials()))
    with channel:
        try:
            return method(pb_grpc.AdminServiceStub(channel))(
                request, metadata=[("authorization", f"Bearer {token}")],
                timeout=CALL_TIMEOUT)
        except grpc.RpcError as exc:
            raise AdminCallError(_why(server, tls, exc)) from None


def _why(server: str, tls: ClientTls | None, exc: grpc.RpcError) -> str:
    import grpc

    from clients.sdk.tls import diagnose

    code: grpc.StatusCode = exc.code()  # type: ignore[attr-defined]
    details: str = exc.details() or ""  # type: ignore[attr-defined]
    if code is grpc.StatusCode.UNAUTHENTICATED:
        return (f"the arena at {server} refused the admin token: give the one it was started "
                f"with ({ADMIN_TOKEN_ENV} or --admin-token-file)")
    if code is grpc.StatusCode.UNAVAILABLE:
        line = diagnose(server, details, tls)
        return line or f"cannot reach the arena at {server}: {details.splitlines()[0]}"
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        return f"the arena at {server} did not answer within {CALL_TIMEOUT:g} s"
    return f"{details or code.name}"


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@admin_app.command("connections")
def connections_cmd(
    server: Server = "127.0.0.1:50051", tls: Tls = False, tls_ca: TlsCa = None,
    tls_cert: TlsCert = None, tls_key: TlsKey = None, admin_token_file: TokenFile = None,
    as_json: AsJson = False,
) -> None:
    """The bots' open connections: name and version sent in their Hello, tables open."""
    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

    answer = call(server, client_tls(tls, tls_ca, tls_cert, tls_key),
                  admin_token(admin_token_file), lambda stub: stub.ListConnections,
                  pb.ListConnectionsRequest())
    rows = list(answer.connections)
    if as_json:
        _print_json([{"bot_id": c.bot_id, "bot_name": c.bot_name, "bot_version": c.bot_version,
                      "tables": c.tables, "max_tables": c.max_tables} for c in rows])
        return
    if not rows:
        console.print(f"no bot is connected to {escape(server)}", highlight=False)
        return

    def layout() -> Any:
        table = new_table()
        id_column(table, "bot id", [c.bot_id for c in rows])
        text_column(table, "name")
        text_column(table, "version")
        id_column(table, "tables", [f"{c.tables}/{c.max_tables}" for c in rows])
        for c in rows:
            table.add_row(c.bot_id, escape(c.bot_name), escape(c.bot_version),
                          f"{c.tables}/{c.max_tables}")
        return table

    print_fitting(console, layout)


@admin_app.command("bots")
def bots_cmd(
    server: Server = "127.0.0.1:50051", tls: Tls = False, tls_ca: TlsCa = None,
    tls_cert: TlsCert = None, tls_key: TlsKey = None, admin_token_file: TokenFile = None,
    as_json: AsJson = False,
) -> None:
    """The bots the arena knows, with their open connections now."""
    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

    answer = call(server, client_tls(tls, tls_ca, tls_cert, tls_key),
                  admin_token(admin_token_file), lambda stub: stub.ListBots,
                  pb.ListBotsRequest())
    rows = list(answer.bots)
    if as_json:
        _print_json([{"id": b.bot_id, "name": b.name, "owner": b.owner, "revoked": b.revoked,
                      "connections": b.connections} for b in rows])
        return

    def layout() -> Any:
        table = new_table()
        id_column(table, "id", [b.bot_id for b in rows])
        text_column(table, "name")
        id_column(table, "connections", [str(b.connections) for b in rows])
        table.add_column("status", no_wrap=True, min_width=len("revoked"))
        for b in rows:
            table.add_row(b.bot_id, escape(b.name), str(b.connections),
                          "[red]revoked[/red]" if b.revoked else "active")
        return table

    print_fitting(console, layout)


@admin_app.command("revoke")
def revoke_cmd(
    bot_id: str,
    server: Server = "127.0.0.1:50051", tls: Tls = False, tls_ca: TlsCa = None,
    tls_cert: TlsCert = None, tls_key: TlsKey = None, admin_token_file: TokenFile = None,
) -> None:
    """Revoke a bot's token on the running arena: its connections are dropped at once and it
    can no longer connect (``bots revoke`` only writes the database)."""
    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

    answer = call(server, client_tls(tls, tls_ca, tls_cert, tls_key),
                  admin_token(admin_token_file), lambda stub: stub.RevokeBot,
                  pb.RevokeBotRequest(bot_id=bot_id))
    console.print(f"{escape(bot_id)}: " + ("revoked, its connections dropped" if answer.revoked
                                           else "was already revoked"), highlight=False)
