"""``tarot-arena``: the command line for the arena, its bots and its tournaments.

Every command takes ``--db`` (or ``TAROT_ARENA_DB``): a SQLAlchemy URL, by default the SQLite
file ``tarot-arena.db`` in the current folder, ``postgresql+psycopg://user:pass@host/db`` for
PostgreSQL. The first line of every command that opens the database names it (password hidden),
so a command run from the wrong folder says so. A SQLite file in a folder that does not exist is
refused (a typo would otherwise show an empty database) unless ``--create-dir`` is given.

Errors are one clear line on stderr (``error: ...``): exit status 1, or 2 for a usage error;
``--debug`` (before or after the command) shows tracebacks. Secrets never need the command
line, where ``ps`` shows them: tokens come from the environment or a file.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

try:
    from click import ClickException, UsageError
except ImportError:  # typer >= 0.20 vendors click
    from typer._click.exceptions import (  # type: ignore[no-redef,assignment]
        ClickException,
        UsageError,
    )

from sqlalchemy.engine import make_url

from arena import game_plugins, games
from arena.games.display import display_of, game_form
from arena.storage.bots import BotRegistry, UnknownBotError, VersionSummary
from arena.storage.db import DEFAULT_URL, make_engine
from arena.storage.models import TournamentStatus

from ..duplicate.seatings import plan_tables
from ..duplicate.settings import (
    Penalties,
    PenaltyKind,
    ScoringMethod,
    Seating,
    SettingsError,
    TournamentSettings,
    seed_for,
)
from ..play.manage import cancel_tournament, delete_tournament
from ..store import TournamentStore, UnknownTournamentError
from . import game_options
from .admin import admin_app
from .export import bot_names, export_tournament, standings_of
from .options import global_options_first
from .report import (
    describe_deal,
    id_column,
    new_table,
    print_fitting,
    print_matches,
    print_standings,
    print_tables,
    standings_json,
    tables_json,
    text_column,
)
from .tls import Insecure, TlsCert, TlsClientCa, TlsKey, announce, quiet_grpc_core, server_tls

app = typer.Typer(
    help="Tarot Arena: duplicate French Tarot tournaments for bots, over gRPC.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
bots_app = typer.Typer(help="Register, list and revoke bots.", no_args_is_help=True)
tournament_app = typer.Typer(help="Create, run, cancel and delete duplicate tournaments.",
                             no_args_is_help=True)
app.add_typer(bots_app, name="bots")
app.add_typer(tournament_app, name="tournament")
app.add_typer(admin_app, name="admin")

# Piped or redirected output is not cut to 80 columns (rich's default without a terminal): the
# standings table would lose its bot names.
console = Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 160)
errors = Console(stderr=True, soft_wrap=True)
T = TypeVar("T")

ADMIN_TOKEN_ENV = "TAROT_ARENA_ADMIN_TOKEN"
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (or SIGTERM), as shells give it."""
LARGE = 5_000
"""Rows (boards, tables, seats) from which creating a tournament shows a progress bar."""

_state: dict[str, Any] = {}


def _reset_state(debug: bool = False, db: str = DEFAULT_URL, create_dir: bool = False) -> None:
    _state.update(debug=debug, db=db, create_dir=create_dir, engine=None, json=False)


_reset_state()


class CliError(Exception):
    """An error worth one line to the user."""


KNOWN_ERRORS: tuple[type[BaseException], ...] = (
    CliError, SettingsError, UnknownBotError, UnknownTournamentError, ValueError, LookupError,
    OSError,
)


def main() -> None:
    """Entry point: run the app, turning known errors into one red line."""
    _reset_state()
    quiet_grpc_core()
    try:
        game_plugins.load()
        code = app(args=global_options_first(sys.argv[1:]), prog_name="tarot-arena",
                   standalone_mode=False)  # without standalone mode, click returns Exit codes
        if code == INTERRUPTED:  # typer's word for a KeyboardInterrupt out of a command
            _interrupted()
        if isinstance(code, int) and code:
            sys.exit(code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        errors.print("[red]aborted[/red]")
        sys.exit(INTERRUPTED)
    except KeyboardInterrupt:
        _interrupted()
    except BaseExceptionGroup as group:  # trio wraps what its tasks raise, Ctrl-C included
        if group.split(KeyboardInterrupt)[1] is None:
            _interrupted()
        _fail(group)
    except Exception as exc:  # click usage errors and ours
        _fail(exc)


def _interrupted() -> NoReturn:
    errors.print("[yellow]interrupted[/yellow]")
    sys.exit(INTERRUPTED)


def _fail(exc: BaseException) -> None:
    """Exit with one line for a usage error or a known error; re-raise anything else."""
    if isinstance(exc, ClickException):
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare group: its help, status 0
            exc.show()
            sys.exit(0)
        where = ""
        if isinstance(exc, UsageError) and exc.ctx is not None:
            where = f" (see {exc.ctx.command_path} --help)"
        message = " ".join(exc.format_message().split())
        errors.print(f"[red]error:[/red] {escape(message)}{escape(where)}", highlight=False)
        sys.exit(exc.exit_code)
    known = _known_error(exc)
    if _state["debug"] or known is None:
        raise exc
    errors.print(f"[red]error:[/red] {escape(known)}", highlight=False)
    sys.exit(getattr(_leaves(exc)[0], "exit_code", 1))  # 2: a usage error (a bot spec)


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


def _check_port(port: int, host: str = "127.0.0.1") -> None:
    """A bad or busy port is one clear line before the server starts (gRPC would log its own
    multi-line complaint first)."""
    if not 0 <= port <= 65535:
        raise CliError(f"bad port {port}: expected 0..65535")
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise CliError(
                        f"port {port} is already in use on {host} (another arena?): stop it, "
                        "or choose another --port (0: any free port)") from None
                if exc.errno != errno.EADDRNOTAVAIL:  # e.g. no IPv6 here: gRPC skips it too
                    raise CliError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _one_line(exc: BaseException) -> str:
    text = str(exc) or exc.__class__.__name__
    if isinstance(exc, LookupError) and text.startswith(("'", '"')):
        text = text.strip("'\"")
    return text.splitlines()[0]


@app.callback()
def _root(
    db: Annotated[str, typer.Option(
        envvar="TAROT_ARENA_DB",
        help="Database URL: SQLite (default: the file tarot-arena.db in the current folder) "
             "or PostgreSQL (postgresql+psycopg://...).")] = DEFAULT_URL,
    create_dir: Annotated[bool, typer.Option(
        "--create-dir", help="Create the SQLite file's folder if it does not exist.")] = False,
    debug: Annotated[bool, typer.Option(help="Show tracebacks.")] = False,
) -> None:
    _reset_state(debug=debug, db=db, create_dir=create_dir)
    logging.basicConfig(level=logging.INFO if debug else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")


def _store() -> TournamentStore:
    return TournamentStore(_engine())


def _engine() -> Any:
    """The database engine, opened once per command; its first use prints which database."""
    if _state["engine"] is not None:
        return _state["engine"]
    url = _state["db"]
    where, new = _sqlite_file(url)
    try:
        engine = make_engine(url)
    except Exception as exc:  # bad URL, unreachable server, missing driver
        raise CliError(f"cannot open database {safe_url(url)}: {_one_line(exc)}") from exc
    _state["engine"] = engine
    shown = f"{where} (SQLite{', new' if new else ''})" if where else safe_url(url)
    (errors if _state["json"] else console).print(f"[dim]database: {escape(shown)}[/dim]",
                                                  highlight=False, soft_wrap=True)
    return engine


def _sqlite_file(url: str) -> tuple[str | None, bool]:
    """For a SQLite file URL: its absolute path and whether it is new. Its folder must exist
    unless ``--create-dir`` was given."""
    try:
        parsed = make_url(url)
    except Exception:
        return None, False  # make_engine says what is wrong with it
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None, False
    path = Path(parsed.database).expanduser().absolute()
    if not path.parent.is_dir():
        if not _state["create_dir"]:
            raise CliError(f"no folder {path.parent} for the database file {path.name}: "
                           "check the path, or pass --create-dir to create it")
        path.parent.mkdir(parents=True, exist_ok=True)
    return str(path), not path.exists()


def safe_url(url: str) -> str:
    """The URL with its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        if "@" in url and "://" in url:
            scheme, rest = url.split("://", 1)
            return f"{scheme}://***@{rest.split('@', 1)[1]}"
        return url


def _json_mode(on: bool) -> None:
    """With ``--json``, stdout holds the JSON document only (the database line goes to
    stderr)."""
    _state["json"] = on


def _count(n: int, noun: str) -> str:
    """``1 board``, ``2 boards``: a size line a user reads."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


# ---------------------------------------------------------------------------------- bots
@bots_app.command("add")
def bots_add(
    name: Annotated[str, typer.Argument(help="Bot name shown in standings.")],
    owner: Annotated[str, typer.Option(help="Who runs it.")] = "",
    token_file: Annotated[Path | None, typer.Option(
        help="Write the token into this new file (readable by you only) instead of printing "
             "it; give the bot the same --token-file.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Register a bot and print its token (shown this once, stored only hashed)."""
    _json_mode(as_json)
    if token_file is not None and token_file.exists():
        raise CliError(f"{token_file} already exists: the token file must be a new file")
    bot, token = BotRegistry(_engine()).register(name, owner)
    if token_file is not None:
        descriptor = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(token + "\n")
    if as_json:
        _print_json({"id": bot.id, "name": bot.name, "owner": bot.owner,
                     **({"token_file": str(token_file)} if token_file else {"token": token})})
        return
    console.print(f"bot id: [bold]{bot.id}[/bold]")
    if token_file is not None:
        console.print(f"token written to {escape(str(token_file))}")
        return
    console.print(f"token:  [bold yellow]{token}[/bold yellow]")
    errors.print("[dim]Keep the token: it is not stored and cannot be shown again. Give it to "
                 "the bot in TAROT_ARENA_TOKEN or a file (--token-file), not on its command "
                 "line.[/dim]")


@bots_app.command("list")
def bots_list(as_json: JsonOption = False) -> None:
    """List registered bots."""
    _json_mode(as_json)
    registry = BotRegistry(_engine())
    bots = registry.list()
    versions = registry.versions_by_bot()
    if as_json:
        _print_json([{"id": b.id, "name": b.name, "owner": b.owner,
                      "created_at": b.created_at, "revoked": b.revoked,
                      "versions": [dataclasses.asdict(v) for v in versions.get(b.id, [])]}
                     for b in bots])
        return
    last = {b.id: _last_version(versions.get(b.id, [])) for b in bots}

    def layout(narrow: bool) -> Table:
        """Wide: a column per fact. Narrow: the owner under the name, the day of registration
        without its time."""
        created = 10 if narrow else 16
        table = new_table()
        id_column(table, "id", [b.id for b in bots])
        text_column(table, "name")
        text_column(table, "version", values=[v or "-" for v in last.values()], most=12)
        if not narrow:
            text_column(table, "owner")
        id_column(table, "created", [b.created_at[:created] for b in bots])
        table.add_column("status", no_wrap=True, min_width=len("revoked"))
        for bot in bots:
            owner = [escape(bot.owner)] if not narrow else []
            name = escape(bot.name)
            if narrow and bot.owner:
                name += f"\n[dim]{escape(bot.owner)}[/dim]"
            table.add_row(bot.id, name, escape(last[bot.id]) or "[dim]-[/dim]", *owner,
                          bot.created_at[:created].replace("T", " "),
                          "[red]revoked[/red]" if bot.revoked else "active")
        return table

    print_fitting(console, lambda: layout(False), lambda: layout(True))
    if any(versions.get(b.id) for b in bots):
        console.print("[dim]version: the one the bot's latest connection sent in its Hello; "
                      "--json and the bot's web page list them all.[/dim]", highlight=False)


def _last_version(seen: list[VersionSummary]) -> str:
    """The version of the bot's latest connection ("" for a bot that never connected)."""
    if not seen:
        return ""
    return seen[0].version or "(none sent)"


@bots_app.command("revoke")
def bots_revoke(bot_id: str) -> None:
    """Revoke a bot's token: it can no longer connect.

    A running arena drops it at once only if told through its admin service
    (AdminService/RevokeBot).
    """
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
    bots: Annotated[list[str], typer.Argument(help=(
        "Bots by id or registered name (gauntlet: candidate reference [filler]); a name "
        "several bots share is refused: give the id."))],
    name: Annotated[str, typer.Option(help="Tournament name.")] = "tournament",
    game: game_options.GameOption = None,
    players: game_options.PlayersOption = None,
    boards: Annotated[int, typer.Option(help="Number of boards (deals).")] = 8,
    seed: Annotated[str | None, typer.Option(help=(
        "Tournament seed, 0..2**64-1. Default: 0, or a random secret seed for competition."
    ))] = None,
    seating: Annotated[str, typer.Option(help=SEATING_HELP)] = "rotation",
    variant: game_options.VariantOption = game_options.CLASSIC,
    direction: game_options.DirectionOption = game_options.COUNTER_CLOCKWISE,
    setting: game_options.SettingOption = None,
    per_decision: Annotated[float, typer.Option(help="Seconds per decision.")] = 1.0,
    time_bank: Annotated[float, typer.Option(help="Extra seconds per seat and deal.")] = 0.0,
    tables_per_board: Annotated[int | None, typer.Option(
        help="Field and competition seating only.")] = None,
    penalty: Annotated[str, typer.Option(help="none, points or forfeit.")] = "none",
    penalty_points: Annotated[int, typer.Option(help="Points per infraction.")] = 0,
    disqualify_after: Annotated[int | None, typer.Option(help="Infractions to DQ.")] = None,
    scoring: Annotated[str, typer.Option(help="datum or matchpoints.")] = "datum",
    as_json: JsonOption = False,
) -> None:
    """Create a tournament: its boards and every table to play are stored at once."""
    _json_mode(as_json)
    settings = build_settings(
        bots=bots, name=name, game=game, players=players, boards=boards, seed=seed,
        seating=seating,
        variant=variant, direction=direction, settings=setting or [],
        per_decision=per_decision, time_bank=time_bank,
        tables_per_board=tables_per_board, penalty=penalty, penalty_points=penalty_points,
        disqualify_after=disqualify_after, scoring=scoring,
    )
    store = _store()
    settings = dataclasses.replace(settings, bots=bot_ids(BotRegistry(store.engine), bots))
    tables = len(plan_tables(settings))
    size = (f"{_count(settings.boards, 'board')}, {_count(tables, 'table')}, "
            f"seating {settings.seating.value}")
    rows = settings.boards + tables * (1 + settings.players)
    large = rows >= LARGE
    tid = _create_with_progress(store, settings, size) if large else store.create(settings)
    if as_json:
        _print_json({"id": tid, "boards": settings.boards, "tables": tables,
                     "seating": settings.seating.value})
    else:
        console.print(f"tournament [bold]{tid}[/bold]: {size}")
        if settings.seating.safe:
            console.print("the seed stays secret until the tournament is finished")


def bot_ids(registry: BotRegistry, given: Sequence[str]) -> tuple[str, ...]:
    """The bot ids ``given`` names: each an id, or the registered name of exactly one bot (a
    revoked bot is left out of the names unless it is the only one of that name). A name
    several bots share is an error listing them, so the wrong one is never seated."""
    known = registry.list()
    ids = {bot.id for bot in known}
    chosen = []
    for token in given:
        if token in ids:
            chosen.append(token)
            continue
        named = [b for b in known if b.name == token]
        candidates = [b for b in named if not b.revoked] or named
        if not candidates:
            raise CliError(f"no bot with id or name {token!r} (tarot-arena bots list shows "
                           f"them)")
        if len(candidates) > 1:
            listed = ", ".join(f"{b.id}{f' (owner {b.owner})' if b.owner else ''}"
                               for b in candidates)
            raise CliError(f"{len(candidates)} bots are named {token!r}: {listed}; give the "
                           f"id")
        chosen.append(candidates[0].id)
    return tuple(chosen)


def _create_with_progress(store: TournamentStore, settings: TournamentSettings,
                          size: str) -> str:
    """A large tournament states its size first, then shows the rows being written."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    errors.print(f"creating a tournament of {size}...", highlight=False)
    with Progress("writing rows", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=errors, transient=True) as bar:
        task = bar.add_task("rows", total=None)
        return store.create(
            settings, on_progress=lambda done, total: bar.update(task, completed=done,
                                                                 total=total))


def _choice(enum: Callable[[str], T], value: str, what: str, allowed: str) -> T:
    try:
        return enum(value)
    except ValueError:
        raise CliError(f"unknown {what} {value!r}: expected {allowed}") from None


def build_settings(
    *, bots: list[str], name: str, game: str | None = None, players: int | None = None,
    boards: int, seed: str | None, seating: str,
    variant: str, direction: str, per_decision: float, time_bank: float,
    settings: Sequence[str] = (),
    tables_per_board: int | None, penalty: str, penalty_points: int,
    disqualify_after: int | None, scoring: str,
) -> TournamentSettings:
    chosen = _choice(Seating, seating, "seating", "rotation, field, gauntlet or competition")
    rules = games.game(game)
    if players is None:
        players = rules.declaration.usual_players
    return TournamentSettings(
        name=name,
        bots=tuple(bots),
        game=rules.name,
        seating=chosen,
        players=players,
        boards=boards,
        seed=seed_for(chosen, None if seed is None else _parse_seed(seed)),
        game_settings=game_options.table_settings(variant, direction, settings),
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
def tournament_list(as_json: JsonOption = False) -> None:
    """List tournaments: their game and form, their bots, how far they are. A ladder's own
    tournament is not one to run or export: `tarot-arena ladder list` lists ladders."""
    from ..storage.ladders import LadderStore

    _json_mode(as_json)
    store = _store()
    ladders = {row.tournament_id for row in LadderStore(store.engine).ladders()}
    rows = [(t, TournamentSettings.from_json(t.settings_json), store.progress(t.id))
            for t in store.list() if t.id not in ladders]
    names = bot_names(store, sorted({b for _, s, _ in rows for b in s.bots}))
    if as_json:
        _print_json([{"id": t.id, "name": t.name, "status": t.status.value,
                      "game": s.game, "game_title": s.rules.title, "players": s.players,
                      "form": display_of(s.rules).form(s.table_options),
                      "bots": [{"bot_id": b, "bot": names.get(b, b)} for b in s.bots],
                      "tables_done": p.done, "tables_total": p.total,
                      "created_at": t.created_at.isoformat()} for t, s, p in rows])
        return

    def bots_of(settings: TournamentSettings) -> str:
        return ", ".join(escape(names.get(b, b)) for b in settings.bots)

    def table() -> Any:
        out = new_table()
        id_column(out, "id", [t.id for t, _, _ in rows])
        text_column(out, "name", values=[t.name for t, _, _ in rows], most=16)
        text_column(out, "game", values=[game_form(s.rules, s.table_options)
                                         for _, s, _ in rows], most=14)
        text_column(out, "bots", most=14)
        text_column(out, "status")
        id_column(out, "tables", [f"{p.done}/{p.total}" for _, _, p in rows])
        id_column(out, "created", ["0000-00-00 00:00"])
        for t, s, p in rows:
            out.add_row(t.id, escape(t.name), escape(game_form(s.rules, s.table_options)),
                        bots_of(s), t.status.value, f"{p.done}/{p.total}",
                        t.created_at.isoformat(" ")[:16])
        return out

    def narrow() -> Any:
        out = new_table()
        id_column(out, "id", [t.id for t, _, _ in rows])
        text_column(out, "tournament")
        id_column(out, "tables", [f"{p.done}/{p.total}" for _, _, p in rows])
        for t, s, p in rows:
            out.add_row(t.id, "\n".join([
                f"[bold]{escape(t.name)}[/bold] ({t.status.value}, "
                f"{t.created_at.isoformat(' ')[:16]})",
                escape(game_form(s.rules, s.table_options)), bots_of(s)]),
                f"{p.done}/{p.total}")
        return out

    print_fitting(console, table, narrow)
    if ladders:
        console.print("[dim]Ladders are listed by tarot-arena ladder list.[/dim]",
                      highlight=False)


@tournament_app.command("tables")
def tournament_tables(tournament_id: str, as_json: JsonOption = False) -> None:
    """List a tournament's tables (ids for `replay`), their seats and scores."""
    _json_mode(as_json)
    store = _store()
    settings = store.settings(tournament_id)
    names = bot_names(store, list(settings.bots))
    tables = store.tables(tournament_id)
    if as_json:
        _print_json(tables_json(names, tables))
    else:
        print_tables(console, settings, names, tables)


@tournament_app.command("cancel")
def tournament_cancel(tournament_id: str) -> None:
    """Stop a tournament for good: no more of its tables are played.

    What was played is kept, and a table being played is finished; `serve` skips it. Bots and
    other tournaments are not touched.
    """
    _not_a_ladders(tournament_id)
    cancelled = cancel_tournament(_store(), tournament_id)
    if not cancelled.changed:
        console.print(f"{tournament_id} was already cancelled")
        return
    running = (f"; {cancelled.running} being played will be finished" if cancelled.running
               else "")
    console.print(f"{tournament_id} cancelled: {cancelled.pending} tables will not be "
                  f"played{running}")


@tournament_app.command("delete")
def tournament_delete(
    tournament_id: str,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete a tournament with its boards, tables and decision logs.

    Bots and other tournaments are not touched.
    """
    store = _store()
    _not_a_ladders(tournament_id)
    progress = store.progress(tournament_id)
    name = store.tournament(tournament_id).name
    if not yes:
        if not sys.stdin.isatty():
            raise CliError(f"deleting {tournament_id} ({name}) removes its {progress.total} "
                           f"tables, {progress.done} of them played: pass --yes to confirm")
        typer.confirm(f"Delete {tournament_id} ({name}) with its {progress.total} tables, "
                      f"{progress.done} of them played?", abort=True)
    deleted = delete_tournament(store, tournament_id)
    console.print(f"{tournament_id} deleted: {deleted.boards} boards, {deleted.tables} tables, "
                  f"{deleted.decisions} decisions")


def _not_a_ladders(tournament_id: str) -> None:
    """A ladder's tournament is the ladder's to play (``serve``), and its tables are the
    ladder's results: not cancelled, deleted, run or exported on its own (its boards stay open
    to bots that have not played them)."""
    from ..storage.ladders import LadderStore

    ladders = LadderStore(_engine())
    for ladder in ladders.ladders():
        if ladder.tournament_id == tournament_id:
            raise CliError(f"tournament {tournament_id} is ladder {ladder.name}'s: serve plays "
                           f"it, and tarot-arena ladder leave takes bots out of it")


def _admin_token(flag: str | None, file: Path | None) -> str | None:
    """The admin token from ``--admin-token`` (warns), ``--admin-token-file`` or the
    environment; None: the server makes a random one and prints it."""
    from clients.run import UsageError, read_secret

    try:
        token = read_secret(flag=flag, flag_name="--admin-token",
                            file=str(file) if file else None, file_flag="--admin-token-file",
                            env=ADMIN_TOKEN_ENV, warn=lambda line: errors.print(
                                f"[yellow]{escape(line)}[/yellow]", highlight=False))
    except UsageError as exc:
        raise CliError(str(exc)) from None
    return token or None


AdminTokenFile = Annotated[Path | None, typer.Option(
    help=f"Read the admin token from this file (default: {ADMIN_TOKEN_ENV}, else a random "
         "token printed at start).")]
AdminToken = Annotated[str | None, typer.Option(
    help="The admin token itself (shows in ps: prefer the file or the environment).")]


WEB_PORT_HELP = ("Also serve the read-only web page on this port (same address); off unless "
                 "given. `tarot-arena web` serves it alone.")


@tournament_app.command("run")
def tournament_run(
    tournament_id: str,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 50051,
    concurrency: Annotated[int, typer.Option(help="Tables played at once.")] = 8,
    seat_timeout: Annotated[float, typer.Option(
        help="Give up after this many seconds with no table to play because bots are missing "
             "(0: wait forever). Finished tables are kept; run it again to resume.")] = 120.0,
    admin_token_file: AdminTokenFile = None,
    admin_token: AdminToken = None,
    web_port: Annotated[int | None, typer.Option(help=WEB_PORT_HELP)] = None,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
    tls_client_ca: TlsClientCa = None,
    insecure: Insecure = False,
) -> None:
    """Serve the arena and run (or resume) a tournament.

    Bots connect to it over gRPC. The admin service (revoke a bot mid-tournament, list
    connections) is served too. With --tls-cert and --tls-key, both (and the web page) are
    served over TLS only.
    """
    from ..play.live import run_tournament_live

    token = _admin_token(admin_token, admin_token_file)
    if not seat_timeout >= 0:
        raise CliError(f"bad --seat-timeout {seat_timeout:g}: seconds, 0 or more (0: forever)")
    store = _store()
    _not_a_ladders(tournament_id)
    status = store.tournament(tournament_id).status
    if status is TournamentStatus.CANCELLED:
        raise CliError(f"tournament {tournament_id} is cancelled: it is not played any more")
    _check_port(port, host)
    _check_web_port(web_port, port, host)
    tls = server_tls(tls_cert, tls_key, tls_client_ca, insecure)
    announce(console, errors, tls, host, port, insecure)
    standings = run_tournament_live(
        store, tournament_id, host=host, port=port, concurrency=concurrency,
        seat_timeout=seat_timeout or None, console=console, admin_token=token,
        web_port=web_port, tls=tls,
    )
    print_standings(console, store, tournament_id, standings)
    print_matches(console, store, tournament_id)


@app.command("games")
def games_cmd(as_json: JsonOption = False) -> None:
    """The games this arena plays, with their table sizes (``--game`` of tournament create)."""
    _json_mode(as_json)
    known = [games.game(name) for name in games.names()]
    if as_json:
        _print_json([{"name": g.name, "title": g.title, "players": list(g.seat_counts()),
                      "default_players": g.declaration.usual_players,
                      "imposed_boards": bool(g.declaration.auction_phases),
                      "settings": [{"name": s.name, "default": s.default,
                                    "choices": list(s.choices), "meaning": s.meaning}
                                   for s in g.declaration.settings]}
                     for g in known])
        return
    for g in known:
        sizes = ", ".join(map(str, g.seat_counts()))
        usual = (f"; {g.declaration.usual_players} unless --players says otherwise"
                 if len(g.seat_counts()) > 1 else "")
        console.print(f"{g.name:<20} {g.title} ({sizes} players{usual})", highlight=False)
        for s in g.declaration.settings:
            choices = " | ".join(json.dumps(c) for c in s.choices)
            console.print(f"{'':<20}   --setting {s.name}={json.dumps(s.default)} "
                          f"({choices}): {s.meaning}", highlight=False, soft_wrap=True)


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 50051,
    admin_token_file: AdminTokenFile = None,
    admin_token: AdminToken = None,
    concurrency: Annotated[int, typer.Option(help="Tables played at once.")] = 8,
    web_port: Annotated[int | None, typer.Option(help=WEB_PORT_HELP)] = None,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
    tls_client_ca: TlsClientCa = None,
    insecure: Insecure = False,
) -> None:
    """Serve the arena and play every unfinished tournament, oldest first, and every ladder.

    Cancelled tournaments are not played. A ladder seats its bots whenever enough of them are
    connected (tarot-arena ladder --help). Bots connect over gRPC; the admin service is served.
    Tournaments play side by side within --concurrency tables; one whose bots are not connected
    waits for them (the line "waiting for: ..." names them) and never stops the others.
    With --tls-cert and --tls-key, the arena (and the web page) are served over TLS only.
    """
    from ..ladder.service import ladder_members, serving
    from ..play.live import serve_forever

    token = _admin_token(admin_token, admin_token_file)
    store = _store()
    _check_port(port, host)
    _check_web_port(web_port, port, host)
    tls = server_tls(tls_cert, tls_key, tls_client_ca, insecure)
    announce(console, errors, tls, host, port, insecure)
    serve_forever(store, host=host, port=port, admin_token=token,
                  concurrency=concurrency, console=console, web_port=web_port, tls=tls,
                  also=serving(store), also_busy=lambda: ladder_members(store))


def _check_web_port(web_port: int | None, port: int, host: str) -> None:
    if web_port is None:
        return
    if not 0 <= web_port <= 65535:
        raise CliError(f"bad --web-port {web_port}: expected 0..65535 (0: any free port)")
    if web_port == port != 0:
        raise CliError(f"--web-port {web_port} is the arena's gRPC port: pick another one")
    _check_port(web_port, host)


@app.command("web")
def web_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port of the web page.")] = 8080,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
) -> None:
    """Serve the read-only web page alone: live standings, boards, replays, bots.

    It reads the database the arenas write (--db), so it also shows tournaments played by
    several arenas sharing one PostgreSQL. Nothing on it changes a tournament. With
    --tls-cert and --tls-key, over HTTPS only.
    """
    from ..web import run_web

    _check_port(port, host)
    engine = _engine()
    tls = server_tls(tls_cert, tls_key)
    if tls is not None:
        console.print(escape(tls.describe()), highlight=False)
    run_web(engine, host, port, announce=console.print, tls=tls)


@app.command("standings")
def standings_cmd(tournament_id: str, as_json: JsonOption = False) -> None:
    """Standings with 95 % intervals, a legend, and the head-to-head crosstable."""
    _json_mode(as_json)
    store = _store()
    standings = standings_of(store, tournament_id)
    if as_json:
        _print_json(standings_json(store, tournament_id, standings))
    else:
        print_standings(console, store, tournament_id, standings)
        print_matches(console, store, tournament_id)


@app.command("export")
def export_cmd(
    tournament_id: str,
    out: Annotated[Path, typer.Option(help="Folder to write into.")] = Path("export"),
) -> None:
    """Export boards, deal logs and standings as JSON and CSV."""
    store = _store()
    store.tournament(tournament_id)  # an unknown id is an error before any folder is made
    _not_a_ladders(tournament_id)  # its open boards' deals would be in the files
    for path in export_tournament(store, tournament_id, out):
        console.print(f"wrote {escape(str(path))}", highlight=False, soft_wrap=True)


@app.command("replay")
def replay_cmd(table_id: str, as_json: JsonOption = False) -> None:
    """Replay one table's deal trick by trick, with card symbols and the bots' names.

    Table ids are listed by `tournament tables TOURNAMENT_ID` (and in the export's tables CSV):
    TOURNAMENT_ID-b0003-t1 is board 3, table 1; in a competition they are TOURNAMENT_ID- and 16
    random hex digits, which say nothing about the board.
    With --json: the deal record (the JSON of the export) and the bots by seat.
    """
    _json_mode(as_json)
    store = _store()
    record = store.record(table_id)
    names = _seat_names(store, table_id)
    if as_json:
        _print_json({"table": table_id, "bots": names, "record": json.loads(record.dumps())})
        return
    game = store.settings(store.tournament_of_table(table_id)).rules
    for line in describe_deal(record, names=names, game=game):
        console.print(line, highlight=False)


def _seat_names(store: TournamentStore, table_id: str) -> list[str]:
    ids = store.seat_bots(table_id)
    names = bot_names(store, ids)
    return [names.get(bot_id, bot_id) for bot_id in ids]


@app.command("bot", context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                                      "help_option_names": []}, add_help_option=False)
def bot_cmd(ctx: typer.Context) -> None:
    """Run an SDK bot: tarot-arena bot BOT [OPTIONS] (see --help).

    BOT is module.path:ClassName or a bundled bot's name (random, heuristic, search, ...). The
    same runner as `python -m clients.run`, with the same options and defaults; a module
    of the current folder is found (mybot:MyBot is ./mybot.py).
    """
    from clients.run import main as run_bot_main

    args = list(ctx.args)
    if _state["debug"] and not any(a.startswith("--log-level") for a in args):
        args += ["--log-level", "DEBUG"]
    raise typer.Exit(run_bot_main(args, prog="tarot-arena bot"))


@app.command("try")
def try_cmd(
    spec: Annotated[str, typer.Argument(help=(
        "Your bot: module.path:ClassName, or a bundled bot's name (random, heuristic, search, "
        "search-timed)."))],
    boards: Annotated[int, typer.Option(help="Boards to play.")] = 8,
    players: Annotated[int, typer.Option(help="2 (with the dummy), 3, 4 or 5.")] = 4,
    against: Annotated[str, typer.Option(
        help="The other seats' bot: a bundled bot's name or module.path:ClassName.")] = "random",
    seed: Annotated[str, typer.Option(help="Seed of the boards.")] = "0",
    arg: Annotated[list[str] | None, typer.Option(
        help="KEY=VALUE for your bot's class (repeatable), as for `bot`.")] = None,
) -> None:
    """Try a bot on your machine against copies of another bot, no arena needed.

    Your bot plays every seat of each board (duplicate rotation, in-process), then its mean per
    board is printed. A bug in your bot stops it with the traceback of the bot's own frames
    (--debug: the arena's too). A bot that cannot be loaded is a usage error (exit status 2).
    """
    from clients.local import play_match

    from ..duplicate.scoring import compute_standings
    from .bots import bot_failure, bot_kwargs, load_bot_spec

    if players not in (2, 3, 4, 5):
        raise CliError(f"French Tarot is played by 2, 3, 4 or 5 players, not {players}")
    if not 1 <= boards <= 10_000:
        raise CliError(f"boards must be 1..10000, got {boards}")
    bot = load_bot_spec(spec, bot_kwargs(arg or []))
    others = [load_bot_spec(against) for _ in range(players - 1)]
    mine, theirs = bot.display_name, others[0].display_name
    if mine == theirs:
        mine = f"{mine} (yours)"
    console.print(f"{bot.display_name} against {players - 1} x {theirs}: {boards} boards, "
                  f"{boards * players} deals, each board played with your bot in every seat")
    try:
        entries = play_match([bot, *others], boards, seed=_parse_seed(seed),
                             bot_ids=[mine, *[theirs] * (players - 1)])
    except Exception as exc:
        failure = None if _state["debug"] else bot_failure(exc)
        if failure is None:
            raise
        errors.print(f"[red]error:[/red] {escape(failure[0])}", highlight=False)
        for line in failure[1:]:
            errors.print(escape(line), highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    row = next(r for r in compute_standings(entries).rows if r.bot_id == mine)
    interval = row.per_board
    spread = (f", 95 % interval {interval.low:+.1f} to {interval.high:+.1f}"
              if interval.n > 1 else "")
    verdict = ("ahead of" if interval.low > 0 else "behind" if interval.high < 0
               else "not told apart from")
    console.print(f"{mine}: {interval.mean:+.1f} points per board against {theirs} on the "
                  f"same cards{spread}: {verdict} it over {row.boards} boards")


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


def _register_compare() -> None:
    from .compare import add_command

    def store() -> TournamentStore:
        _json_mode(True)  # compare's stdout is its JSON verdict only; the rest is on stderr
        return _store()

    add_command(app, store, console, errors)


_register_compare()


def _register_worker() -> None:
    from .worker import add_command

    def open_db(url: str) -> str:
        _state["db"] = url
        _engine()
        return safe_url(url)

    add_command(app, lambda: str(_state["db"]), open_db, console, errors, _store)


_register_worker()


def _register_ladder() -> None:
    from .ladder import Helpers, add_commands

    add_commands(app, Helpers(_store, bot_ids, _json_mode, _print_json,
                              CliError), console)


_register_ladder()
