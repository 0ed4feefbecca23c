"""``tarot-arena``: the command line for the arena, its bots and its tournaments.

Every command takes ``--db`` (or ``TAROT_ARENA_DB``): a SQLAlchemy URL, SQLite by default,
``postgresql+psycopg://user:pass@host/db`` for PostgreSQL. Errors are one clear line on
stderr and exit status 1; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

try:
    from click import ClickException
except ImportError:  # typer >= 0.20 vendors click
    from typer._click.exceptions import ClickException  # type: ignore[no-redef]

from rich.table import Table

from arena.rules import Direction, replay
from arena.storage.bots import BotRegistry, UnknownBotError
from arena.storage.db import DEFAULT_URL, make_engine

from .export import bot_names, export_tournament, standings_of
from .report import describe_deal, print_standings
from .settings import (
    Penalties,
    PenaltyKind,
    ScoringMethod,
    Seating,
    SettingsError,
    TournamentSettings,
    seed_for,
)
from .store import TournamentStore, UnknownTournamentError

app = typer.Typer(
    help="Tarot Arena: duplicate French Tarot tournaments for bots, over gRPC.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
bots_app = typer.Typer(help="Register, list and revoke bots.", no_args_is_help=True)
tournament_app = typer.Typer(help="Create and run duplicate tournaments.", no_args_is_help=True)
app.add_typer(bots_app, name="bots")
app.add_typer(tournament_app, name="tournament")

# Piped or redirected output is not cut to 80 columns (rich's default without a terminal): the
# standings table would lose its bot names.
console = Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 160)
errors = Console(stderr=True, soft_wrap=True)
T = TypeVar("T")

_state: dict[str, Any] = {"debug": False, "db": DEFAULT_URL}


class CliError(Exception):
    """An error worth one line to the user."""


KNOWN_ERRORS: tuple[type[BaseException], ...] = (
    CliError, SettingsError, UnknownBotError, UnknownTournamentError, ValueError, LookupError,
    OSError,
)


def main() -> None:
    """Entry point: run the app, turning known errors into one red line."""
    try:
        code = app(standalone_mode=False)  # without standalone mode, click returns Exit codes
        if isinstance(code, int) and code:
            sys.exit(code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        errors.print("[red]aborted[/red]")
        sys.exit(130)
    except KeyboardInterrupt:
        errors.print("[yellow]interrupted[/yellow]")
        sys.exit(130)
    except BaseExceptionGroup as group:  # trio wraps what its tasks raise, Ctrl-C included
        if group.split(KeyboardInterrupt)[1] is None:
            errors.print("[yellow]interrupted[/yellow]")
            sys.exit(130)
        _fail(group)
    except Exception as exc:  # click usage errors and ours
        _fail(exc)


def _fail(exc: BaseException) -> None:
    """Exit with one line for a usage error or a known error; re-raise anything else."""
    if isinstance(exc, ClickException):
        exc.show()
        sys.exit(exc.exit_code)
    known = _known_error(exc)
    if _state["debug"] or known is None:
        raise exc
    errors.print(f"[red]error:[/red] {escape(known)}", highlight=False)
    sys.exit(1)


def _known_error(exc: BaseException) -> str | None:
    """The line to print for ``exc`` (unwrapping trio's exception groups), or None when it is
    not an error worth one line."""
    leaves = _leaves(exc)
    if not all(isinstance(leaf, KNOWN_ERRORS) for leaf in leaves):
        return None
    more = f" (and {len(leaves) - 1} more)" if len(leaves) > 1 else ""
    return _one_line(leaves[0]) + more


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _check_port(port: int) -> None:
    if not 0 <= port <= 65535:
        raise CliError(f"bad port {port}: expected 0..65535")


def _one_line(exc: BaseException) -> str:
    text = str(exc) or exc.__class__.__name__
    if isinstance(exc, LookupError) and text.startswith(("'", '"')):
        text = text.strip("'\"")
    return text.splitlines()[0]


@app.callback()
def _root(
    db: Annotated[str, typer.Option(envvar="TAROT_ARENA_DB",
                                    help="Database URL (SQLite file by default).")] = DEFAULT_URL,
    debug: Annotated[bool, typer.Option(help="Show tracebacks.")] = False,
) -> None:
    _state["debug"] = debug
    _state["db"] = db
    logging.basicConfig(level=logging.INFO if debug else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")


def _store() -> TournamentStore:
    return TournamentStore(_engine())


def _engine() -> Any:
    db = _state["db"]
    try:
        return make_engine(db)
    except Exception as exc:  # bad URL, unreachable server, missing driver
        raise CliError(f"cannot open database {_safe_url(db)}: {_one_line(exc)}") from exc


def _safe_url(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


# ---------------------------------------------------------------------------------- bots
@bots_app.command("add")
def bots_add(
    name: Annotated[str, typer.Argument(help="Bot name shown in standings.")],
    owner: Annotated[str, typer.Option(help="Who runs it.")] = "",
) -> None:
    """Register a bot and print its token (shown this once, stored only hashed)."""
    bot, token = BotRegistry(_engine()).register(name, owner)
    console.print(f"bot id: [bold]{bot.id}[/bold]")
    console.print(f"token:  [bold yellow]{token}[/bold yellow]")
    errors.print("[dim]Keep the token: it is not stored and cannot be shown again.[/dim]")


@bots_app.command("list")
def bots_list() -> None:
    """List registered bots."""
    table = Table("id", "name", "owner", "created", "status")
    for bot in BotRegistry(_engine()).list():
        table.add_row(bot.id, escape(bot.name), escape(bot.owner), bot.created_at[:19],
                      "[red]revoked[/red]" if bot.revoked else "active")
    console.print(table)


@bots_app.command("revoke")
def bots_revoke(bot_id: str) -> None:
    """Revoke a bot's token: it can no longer connect."""
    changed = BotRegistry(_engine()).revoke(bot_id)
    console.print(f"{escape(bot_id)}: " + ("revoked" if changed else "was already revoked"))


# ---------------------------------------------------------------------------- tournaments
def _parse_seed(text: str) -> int:
    try:
        seed = int(text, 10 if text.strip().lstrip("+-").isdigit() else 0)  # "010" is 10
    except ValueError:
        raise CliError(f"bad seed {text!r}: an integer 0..2**64-1 (decimal or 0x...)") from None
    return seed


SEATING_HELP = (
    "rotation, field, gauntlet or competition. Only competition is safe against bots that "
    "remember (no bot plays a board twice, opaque table ids, deals and seed kept secret until "
    "the end): use it between strangers. Rotation, field and gauntlet show a bot the same board "
    "at several tables: for testing your own bots."
)


@tournament_app.command("create")
def tournament_create(
    bots: Annotated[list[str], typer.Argument(help="Bot ids (gauntlet: candidate reference).")],
    name: Annotated[str, typer.Option(help="Tournament name.")] = "tournament",
    players: Annotated[int, typer.Option(help="3, 4 or 5.")] = 4,
    boards: Annotated[int, typer.Option(help="Number of boards (deals).")] = 8,
    seed: Annotated[str | None, typer.Option(help=(
        "Tournament seed, 0..2**64-1. Default: 0, or a random secret seed for competition."
    ))] = None,
    seating: Annotated[str, typer.Option(help=SEATING_HELP)] = "rotation",
    variant: Annotated[str, typer.Option(help="classic or beginner.")] = "classic",
    direction: Annotated[str, typer.Option(help="counter-clockwise or clockwise.")] = (
        "counter-clockwise"
    ),
    per_decision: Annotated[float, typer.Option(help="Seconds per decision.")] = 1.0,
    time_bank: Annotated[float, typer.Option(help="Extra seconds per seat and deal.")] = 0.0,
    tables_per_board: Annotated[int | None, typer.Option(
        help="Field and competition seating only.")] = None,
    penalty: Annotated[str, typer.Option(help="none, points or forfeit.")] = "none",
    penalty_points: Annotated[int, typer.Option(help="Points per infraction.")] = 0,
    disqualify_after: Annotated[int | None, typer.Option(help="Infractions to DQ.")] = None,
    scoring: Annotated[str, typer.Option(help="datum or matchpoints.")] = "datum",
) -> None:
    """Create a tournament: its boards and every table to play are stored at once."""
    settings = build_settings(
        bots=bots, name=name, players=players, boards=boards, seed=seed, seating=seating,
        variant=variant, direction=direction, per_decision=per_decision, time_bank=time_bank,
        tables_per_board=tables_per_board, penalty=penalty, penalty_points=penalty_points,
        disqualify_after=disqualify_after, scoring=scoring,
    )
    store = _store()
    tid = store.create(settings)
    progress = store.progress(tid)
    console.print(f"tournament [bold]{tid}[/bold]: {settings.boards} boards, "
                  f"{progress.total} tables, seating {settings.seating.value}")
    if settings.seating.safe:
        console.print("the seed stays secret until the tournament is finished")


def _choice(enum: Callable[[str], T], value: str, what: str, allowed: str) -> T:
    try:
        return enum(value)
    except ValueError:
        raise CliError(f"unknown {what} {value!r}: expected {allowed}") from None


def build_settings(
    *, bots: list[str], name: str, players: int, boards: int, seed: str | None, seating: str,
    variant: str, direction: str, per_decision: float, time_bank: float,
    tables_per_board: int | None, penalty: str, penalty_points: int,
    disqualify_after: int | None, scoring: str,
) -> TournamentSettings:
    if variant not in ("classic", "beginner"):
        raise CliError(f"unknown variant {variant!r}: expected classic or beginner")
    chosen = _choice(Seating, seating, "seating", "rotation, field, gauntlet or competition")
    return TournamentSettings(
        name=name,
        bots=tuple(bots),
        seating=chosen,
        players=players,
        boards=boards,
        seed=seed_for(chosen, None if seed is None else _parse_seed(seed)),
        beginner=variant == "beginner",
        direction=_choice(Direction, direction, "direction", "counter-clockwise or clockwise"),
        per_decision=per_decision,
        time_bank=time_bank,
        tables_per_board=tables_per_board,
        penalties=Penalties(
            _choice(PenaltyKind, penalty, "penalty", "none, points or forfeit"),
            penalty_points, disqualify_after,
        ),
        scoring=_choice(ScoringMethod, scoring, "scoring", "datum or matchpoints"),
    )


@tournament_app.command("list")
def tournament_list() -> None:
    """List tournaments and how far they are."""
    store = _store()
    table = Table("id", "name", "status", "tables done", "created")
    for t in store.list():
        p = store.progress(t.id)
        table.add_row(t.id, escape(t.name), t.status.value, f"{p.done}/{p.total}",
                      t.created_at.isoformat()[:19])
    console.print(table)


@tournament_app.command("tables")
def tournament_tables(tournament_id: str) -> None:
    """List a tournament's tables (ids for `replay`), their seats and scores."""
    store = _store()
    settings = store.settings(tournament_id)
    names = bot_names(store, list(settings.bots))
    table = Table("table id", "board", "status", *(f"seat {s}" for s in range(settings.players)))
    for row, seats in store.tables(tournament_id):
        cells = [
            escape(names.get(s.bot_id, s.bot_id))
            + ("" if s.score is None else f" {s.score:+d}")
            + ("" if s.scored else " (not compared)")
            for s in seats
        ]
        table.add_row(row.id, str(row.board_number), row.status.value, *cells)
    console.print(table)


@tournament_app.command("run")
def tournament_run(
    tournament_id: str,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 50051,
    concurrency: Annotated[int, typer.Option(help="Tables played at once.")] = 8,
    seat_timeout: Annotated[float, typer.Option(help="Seconds to wait for bots.")] = 120.0,
) -> None:
    """Serve the arena and run (or resume) a tournament; bots connect to it over gRPC."""
    from .live import run_tournament_live

    _check_port(port)
    store = _store()
    store.tournament(tournament_id)
    standings = run_tournament_live(
        store, tournament_id, host=host, port=port, concurrency=concurrency,
        seat_timeout=seat_timeout, console=console,
    )
    print_standings(console, store, tournament_id, standings)


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 50051,
    admin_token: Annotated[str | None, typer.Option(
        envvar="TAROT_ARENA_ADMIN_TOKEN", help="Token for the admin service.")] = None,
    concurrency: Annotated[int, typer.Option(help="Tables played at once.")] = 8,
) -> None:
    """Serve the arena: bots connect, and every unfinished tournament is played."""
    from .live import serve_forever

    _check_port(port)
    serve_forever(_store(), host=host, port=port, admin_token=admin_token,
                  concurrency=concurrency, console=console)


@app.command("standings")
def standings_cmd(tournament_id: str) -> None:
    """Standings with 95 % intervals and whether neighbours are significantly apart."""
    store = _store()
    print_standings(console, store, tournament_id, standings_of(store, tournament_id))


@app.command("export")
def export_cmd(
    tournament_id: str,
    out: Annotated[Path, typer.Option(help="Folder to write into.")] = Path("export"),
) -> None:
    """Export boards, deal logs and standings as JSON and CSV."""
    store = _store()
    store.tournament(tournament_id)  # an unknown id is an error before any folder is made
    for path in export_tournament(store, tournament_id, out):
        console.print(f"wrote {path}")


@app.command("replay")
def replay_cmd(table_id: str) -> None:
    """Replay one table's deal trick by trick, with card symbols.

    Table ids look like TOURNAMENT_ID-b0003-t1 (board 3, table 1); in a competition they are
    TOURNAMENT_ID- and 16 random hex digits, which say nothing about the board.

    The export's tables CSV lists them all.
    """
    store = _store()
    record = store.record(table_id)
    state = replay(record)
    for line in describe_deal(record, state):
        console.print(line, highlight=False)


@app.command("bot")
def bot_cmd(
    spec: Annotated[str, typer.Argument(help="module.path:ClassName of an SDK bot.")],
    server: Annotated[str, typer.Option(help="Arena address host:port.")] = "127.0.0.1:50051",
    token: Annotated[str | None, typer.Option(envvar="TAROT_ARENA_TOKEN",
                                              help="The bot's token.")] = None,
    max_tables: Annotated[int, typer.Option(help="Tables played at once.")] = 8,
    name: Annotated[str | None, typer.Option(help="Name sent in the handshake.")] = None,
    connect_timeout: Annotated[float, typer.Option(
        help="Give up if the arena accepts no connection within this many seconds (0: keep "
             "trying). Once connected, a lost connection is always retried.")] = 30.0,
    stay: Annotated[bool, typer.Option(
        "--stay", help="Keep waiting for the next tournament when the arena has no more work "
                       "for this bot (default: exit 0).")] = False,
) -> None:
    """Run any SDK bot from a module path."""
    module, sep, attr = spec.partition(":")
    if not (module and sep and attr):
        raise CliError(f"bad bot {spec!r}: expected module.path:ClassName")
    if not token:
        raise CliError("a bot token is needed: --token or TAROT_ARENA_TOKEN")
    if not connect_timeout >= 0:
        raise CliError(f"bad --connect-timeout {connect_timeout:g}: seconds, 0 or more")
    from clients.run import main as run_bot_main

    args = ["--server", server, "--token", token, "--bot", spec, "--max-tables", str(max_tables),
            "--connect-timeout", repr(connect_timeout)]
    if name:
        args += ["--name", name]
    if stay:
        args.append("--stay")
    # the bot's INFO log (connected, tables played) as with python -m clients.run
    logging.getLogger().setLevel(logging.DEBUG if _state["debug"] else logging.INFO)
    code = run_bot_main(args)
    # clients.run tells usage errors (2) and refusals (3) apart; here every error is status 1
    raise typer.Exit(code if code in (0, 130) else 1)


@app.command("demo")
def demo_cmd(
    boards: Annotated[int, typer.Option(help="Boards in the demo tournament.")] = 24,
    seed: Annotated[str, typer.Option(help="Tournament seed.")] = "2026",
    out: Annotated[Path, typer.Option(help="Folder for the database and export.")] = Path(
        "demo-output"
    ),
    per_decision: Annotated[float, typer.Option(help="Seconds per decision.")] = 2.0,
) -> None:
    """The main job: bundled bots play a duplicate tournament over gRPC on SQLite."""
    from .demo import run_demo

    run_demo(boards=boards, seed=_parse_seed(seed), out=out, per_decision=per_decision,
             console=console)


def _print_json(data: object) -> None:
    console.print_json(json.dumps(data))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
