"""``tarot-arena compare CANDIDATE BASELINE``: is the candidate better than the baseline?

Regression testing of bots with a sequential test on duplicate boards (see
:mod:`tournaments.duplicate.sprt` for the statistics).

- **Design**: a gauntlet (:func:`tournaments.duplicate.seatings.gauntlet`). Each board is played
  once with the candidate in each seat beside baseline fillers, plus once at a control table of
  baselines only: ``players + 1`` deals a board. The board's value is its **paired difference**: the
  mean over the seats of the candidate's score in that seat minus the baseline's score in that seat
  at the control table, on the very same cards. The sequential test is fed these differences in
  board order and looked at after every board.
- **Stored**: every compare is a tournament in the database (gauntlet seating, as many boards as
  the cap), its test and bots kept in the settings (``TournamentSettings.compare``). The verdict
  is not stored: it is recomputed from the stored boards, so a compare killed mid-way and run
  again with the same ``--id`` resumes where it stopped (finished tables kept, an interrupted
  one replayed) and gives the verdict the uninterrupted run would have given. Once decided, the
  tournament is finished and its remaining tables are left unplayed (``tournament tables`` shows
  them pending); ``standings``, ``export`` and ``replay`` work on it as on any tournament.
- **Local** (``--local``): both bots are ``module:Class`` SDK bots played in this process by
  the table runner, without a server (:mod:`clients.local`): for a CI job. They are
  registered in the database under their spec (owner ``compare --local``) so that the stored
  tables name them; their tokens are never shown (nobody connects as them).
- **Live**: both are registered bots that connect over gRPC as in any tournament; the arena
  serves, a :class:`~tournaments.play.runner.TournamentRunner` plays the tables, and the test is
  looked at whenever a board is finished. Once decided, the tables being played are cancelled
  (back to pending, unplayed) and the others are never started.

- **Imposed boards** (``--local --imposed``): every table of a board plays the auction the
  baseline bids, so that only card play is compared (:mod:`tournaments.duplicate.imposed`).

The test only counts boards finished at all their tables, in board order (the first ``k``
boards): boards are played in that order, and the order in which results arrive never decides
which boards are counted.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import re
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import trio
import typer
from rich.console import Console
from rich.markup import escape

from arena.storage.bots import BotRegistry, UnknownBotError
from arena.storage.models import TableStatus, TournamentStatus
from clients.local import play_local
from clients.sdk import Bot

from ..duplicate.imposed import Auction, auction_of_record, free_auction, play_imposed
from ..duplicate.scoring import Entry
from ..duplicate.settings import Seating, TournamentSettings
from ..duplicate.sprt import (
    DEFAULT_MIN_BOARDS,
    Sprt,
    SprtError,
    SprtSettings,
    Status,
    Units,
    Verdict,
)
from ..play.runner import LEASE
from ..store import TournamentStore, UnknownTournamentError, new_worker_id

log = logging.getLogger(__name__)

EXIT_ACCEPTED = 0
EXIT_ERROR = 1
"""Any error: bad input, a bot that does not import, the database (one line on stderr)."""
EXIT_USAGE = 2
"""A command line the parser refuses (unknown option, missing argument)."""
EXIT_REJECTED = 3
EXIT_INCONCLUSIVE = 4
EXIT_CODES = {Verdict.ACCEPTED: EXIT_ACCEPTED, Verdict.REJECTED: EXIT_REJECTED,
              Verdict.INCONCLUSIVE: EXIT_INCONCLUSIVE}

LOCAL_OWNER = "compare --local"
DEFAULT_BOUNDS = (0.0, 0.2)
"""In per-board standard deviations: about 130 boards when the candidate is that much better."""


class CompareError(ValueError):
    """A compare that cannot run; the message says why."""


@dataclass(frozen=True, slots=True)
class CompareConfig:
    """What a compare tests, stored with its tournament."""

    local: bool
    candidate: str
    """Local: the ``module:Class`` spec. Live: the bot id."""
    baseline: str
    sprt: SprtSettings
    aa: bool = False
    """Candidate and baseline are the same bot on purpose (an A/A check)."""
    imposed: bool = False
    """Imposed boards: every table of a board plays the baseline's auction
    (:mod:`tournaments.duplicate.imposed`); local only."""

    def to_json(self) -> str:
        return json.dumps({"local": self.local, "candidate": self.candidate,
                           "baseline": self.baseline, "aa": self.aa, "imposed": self.imposed,
                           "sprt": self.sprt.to_json()}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CompareConfig:
        data = json.loads(text)
        return cls(bool(data["local"]), str(data["candidate"]), str(data["baseline"]),
                   SprtSettings.from_json(data["sprt"]), bool(data.get("aa", False)),
                   bool(data.get("imposed", False)))


def sprt_settings(
    *, bounds: str | None, units: str, non_regression: float | None, alpha: float,
    beta: float, max_boards: int, min_boards: int,
) -> SprtSettings:
    """The test the command line asks for, each mistake named."""
    try:
        unit = Units(units)
    except ValueError:
        raise CompareError(f"unknown units {units!r}: expected points or sd") from None
    if non_regression is not None:
        if bounds is not None:
            raise CompareError("--non-regression sets the bounds: give it or --bounds, not both")
        return SprtSettings.non_regression(non_regression, unit, alpha=alpha, beta=beta,
                                           max_boards=max_boards, min_boards=min_boards)
    if bounds is None:
        if unit is Units.POINTS:
            raise CompareError("bounds in points depend on the bots: give --bounds H0,H1 "
                               "(e.g. 0,20) or use --units sd")
        low, high = DEFAULT_BOUNDS
    else:
        parts = bounds.split(",")
        try:
            low, high = (float(p) for p in parts)
        except ValueError:
            raise CompareError(f"bad --bounds {bounds!r}: expected two numbers H0,H1, e.g. "
                               f"0,20") from None
    return SprtSettings(low, high, unit, alpha, beta, max_boards, min_boards)


# --------------------------------------------------------------------------- the boards
def board_difference(entries: list[Entry], candidate: str, baseline: str, players: int
                     ) -> float | None:
    """The board's paired difference, or None while the board is not finished at all its
    tables: mean over the seats of the candidate's score minus the control table's."""
    mine = {e.seat: e.score for e in entries if e.bot_id == candidate}
    theirs = {e.seat: e.score for e in entries if e.bot_id == baseline}
    if len(mine) < players or len(theirs) < players:
        return None
    return math.fsum(mine[s] - theirs[s] for s in range(players)) / players


class Boards:
    """The finished tables' scored seats by board, and the test fed with the first boards that
    are complete, in order."""

    def __init__(self, settings: TournamentSettings, config: CompareConfig) -> None:
        self.candidate, self.baseline = settings.bots
        self.players = settings.players
        self.by_board: dict[int, list[Entry]] = {}
        self.test = Sprt(config.sprt)

    def add(self, entries: list[Entry]) -> None:
        """Keep these entries (each once: an entry already kept for its seat is replaced)."""
        for entry in entries:
            kept = self.by_board.setdefault(entry.board, [])
            kept[:] = [e for e in kept if (e.table_id, e.seat) != (entry.table_id, entry.seat)]
            kept.append(entry)

    def advance(self) -> bool:
        """Feed the test every newly complete board in order; whether it moved."""
        moved = False
        while self.test.verdict is None:
            value = board_difference(self.by_board.get(self.test.n, []), self.candidate,
                                     self.baseline, self.players)
            if value is None:
                break
            self.test.add(value)
            moved = True
        return moved


def load(store: TournamentStore, tournament_id: str
         ) -> tuple[TournamentSettings, CompareConfig, Boards]:
    """A stored compare with its test fed from the boards already played."""
    settings = store.settings(tournament_id)
    if settings.compare is None:
        raise CompareError(f"{tournament_id} is a tournament, not a compare")
    config = CompareConfig.from_json(settings.compare)
    boards = Boards(settings, config)
    boards.add(store.entries(tournament_id))
    boards.advance()
    return settings, config, boards


def local_bot_ids(store: TournamentStore, candidate: str, baseline: str) -> tuple[str, str]:
    """Registry ids for two local bots, registered on first use under their specs (``:`` and
    any character a bot name may not hold become spaces; an A/A check registers the baseline a
    second time, as ``SPEC baseline``)."""
    registry = BotRegistry(store.engine)
    known = {(b.name, b.owner): b.id for b in registry.list() if not b.revoked}

    def bot_id(spec: str) -> str:
        name = re.sub(r"[^A-Za-z0-9._+-]+", " ", spec)[-64:].lstrip(" ._+-") or "bot"
        if (name, LOCAL_OWNER) not in known:
            summary, _ = registry.register(name, LOCAL_OWNER)
            known[(name, LOCAL_OWNER)] = summary.id
        return known[(name, LOCAL_OWNER)]

    first = bot_id(candidate)
    second = bot_id(baseline if baseline != candidate else f"{baseline[:50]} baseline")
    return first, second


def create(
    store: TournamentStore, config: CompareConfig, bot_ids: tuple[str, str], *, players: int,
    seed: int | None, per_decision: float, tournament_id: str | None = None,
) -> str:
    """Store a compare: a gauntlet of as many boards as the test's cap."""
    name = f"compare {config.candidate} vs {config.baseline}"
    if len(name) > 100:
        name = name[:97] + "..."
    settings = TournamentSettings(
        name=name, bots=bot_ids, seating=Seating.GAUNTLET, players=players,
        boards=config.sprt.max_boards, seed=secrets.randbits(63) if seed is None else seed,
        per_decision=per_decision, compare=config.to_json(),
    )
    return store.create(settings, tournament_id or "cmp_" + secrets.token_hex(6))


def finish(store: TournamentStore, tournament_id: str) -> int:
    """Mark a decided compare finished (unless it was cancelled); how many of its tables are
    left unplayed."""
    if store.tournament(tournament_id).status is not TournamentStatus.CANCELLED:
        store.set_status(tournament_id, TournamentStatus.FINISHED)
    progress = store.progress(tournament_id)
    return progress.pending + progress.running


# ------------------------------------------------------------------------------- local
StatusFn = Callable[[Status], None]


async def run_local(
    store: TournamentStore, tournament_id: str, bots: dict[str, Bot],
    on_status: StatusFn | None = None, *, auction_bot: Bot | None = None, lease: float = LEASE,
) -> Status:
    """Play the compare's tables in this process, in order, until the test decides.

    Imposed boards: ``auction_bot`` (a baseline of its own, default the baseline) bids each
    board's auction at a table of its copies, in memory."""
    settings, config, boards = await trio.to_thread.run_sync(load, store, tournament_id)
    worker = new_worker_id()
    auctions: dict[int, Auction] = {}
    await _not_cancelled(store, tournament_id, boards)
    if config.imposed and boards.test.verdict is None:
        auctions = await trio.to_thread.run_sync(_stored_auctions, store, tournament_id)
        auction_bot = auction_bot or bots[settings.bots[1]]
    if boards.test.verdict is None:
        await trio.to_thread.run_sync(store.set_status, tournament_id, TournamentStatus.RUNNING)
    if on_status is not None and boards.test.n:
        on_status(boards.test.status())
    options = settings.table_options
    while boards.test.verdict is None:
        claim = await trio.to_thread.run_sync(store.claim_next, tournament_id, worker, lease)
        if claim is None:
            break
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_keep_claim, store, claim.table_id, worker, lease)
                seated = [bots[b] for b in claim.bots]
                if config.imposed:
                    assert auction_bot is not None
                    auction = auctions.get(claim.board)
                    if auction is None:
                        auction = auctions[claim.board] = await free_auction(
                            claim.deal, options, auction_bot, settings.time_control)
                    outcome = await play_imposed(
                        claim.deal, options, seated, auction, claim.table_id, bot_ids=claim.bots,
                        time_control=settings.time_control)
                else:
                    outcome = await play_local(
                        claim.deal, options, seated, claim.table_id, bot_ids=claim.bots,
                        time_control=settings.time_control, strict=False,
                    )
                nursery.cancel_scope.cancel()
        except BaseException:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(store.release, claim.table_id, worker)
            raise
        if not await trio.to_thread.run_sync(store.finish, claim.table_id, worker, outcome):
            raise CompareError(f"table {claim.table_id} was taken over by another process: is "
                               f"this compare running twice?")
        control = claim.number == settings.players
        boards.add([
            Entry(claim.board, seat, claim.table_id, bot_id, outcome.result.scores[seat])
            for seat, bot_id in enumerate(claim.bots) if control or seat == claim.number
        ])
        if boards.advance() and on_status is not None:
            on_status(boards.test.status())
    return await _conclude(store, tournament_id, boards)


async def _keep_claim(store: TournamentStore, table_id: str, worker: str, lease: float) -> None:
    """Renew the claim while the table plays: a short lease, so that a compare killed mid-table
    can be resumed (by anyone) soon after, as the arena's runner does."""
    while True:
        await trio.sleep(lease / 4)
        await trio.to_thread.run_sync(store.renew, {table_id: worker}, lease)


def _stored_auctions(store: TournamentStore, tournament_id: str) -> dict[int, Auction]:
    """The auction of each board that is partly played (from one of its finished tables)."""
    tables = store.tables(tournament_id)
    unfinished = {t.board_number for t, _ in tables if t.status is not TableStatus.DONE}
    auctions: dict[int, Auction] = {}
    for table, _ in tables:
        board = table.board_number
        if table.status is TableStatus.DONE and board in unfinished and board not in auctions:
            auctions[board] = auction_of_record(store.record(table.id))
    return auctions


async def _not_cancelled(store: TournamentStore, tournament_id: str, boards: Boards) -> None:
    """A cancelled compare is not played any more (``tournament cancel``)."""
    row = await trio.to_thread.run_sync(store.tournament, tournament_id)
    if boards.test.verdict is None and row.status is TournamentStatus.CANCELLED:
        raise _cancelled(tournament_id, boards)


def _cancelled(tournament_id: str, boards: Boards) -> CompareError:
    return CompareError(f"{tournament_id} was cancelled after {boards.test.n} boards, before "
                        f"its test decided")


async def _conclude(store: TournamentStore, tournament_id: str, boards: Boards) -> Status:
    if boards.test.verdict is None:
        await _not_cancelled(store, tournament_id, boards)
        progress = await trio.to_thread.run_sync(store.progress, tournament_id)
        if progress.running:
            raise CompareError(
                f"{progress.running} tables of {tournament_id} are claimed by another process "
                f"(still running, or crashed on another machine: its claim runs out within "
                f"seconds); run the compare again later to finish it")
        # Every table is played but the test neither decided nor reached its cap: only when
        # boards were lost (the cap is the number of boards).
        raise CompareError(f"{tournament_id} has no tables left to play but its test counts "
                           f"{boards.test.n} complete boards of {boards.test.settings.max_boards}")
    await trio.to_thread.run_sync(finish, store, tournament_id)
    return boards.test.status()


# -------------------------------------------------------------------------------- live
async def run_live(
    store: TournamentStore, server: Any, tournament_id: str, *, concurrency: int,
    seat_timeout: float, on_status: StatusFn | None = None,
) -> Status:
    """Play the compare on a serving arena (bots connect over gRPC) until the test decides;
    the tables being played then are cancelled and left pending, unplayed."""
    from ..play.runner import TableDone, TournamentRunner

    _, _, boards = await trio.to_thread.run_sync(load, store, tournament_id)
    if on_status is not None and boards.test.n:
        on_status(boards.test.status())
    if boards.test.verdict is not None:
        return await _conclude(store, tournament_id, boards)
    await _not_cancelled(store, tournament_id, boards)
    send, receive = trio.open_memory_channel[int](math.inf)

    def table_done(done: TableDone) -> None:
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            send.send_nowait(done.board)  # broken: decided, the runner is being cancelled

    runner = TournamentRunner(store, server, tournament_id, concurrency=concurrency,
                              seat_timeout=seat_timeout, on_table_done=table_done)
    async with trio.open_nursery() as nursery:
        async def play() -> None:
            await runner.run()
            send.close()

        nursery.start_soon(play)
        async with receive:
            async for board in receive:
                if board != boards.test.n:
                    continue  # not the next board the test needs
                entries = await trio.to_thread.run_sync(store.entries, tournament_id)
                boards.add(entries)
                if boards.advance() and on_status is not None:
                    on_status(boards.test.status())
                if boards.test.verdict is not None:
                    nursery.cancel_scope.cancel()
                    break
    if boards.test.verdict is None:  # the runner ended first: read everything once more
        boards.add(await trio.to_thread.run_sync(store.entries, tournament_id))
        boards.advance()
    return await _conclude(store, tournament_id, boards)


# ------------------------------------------------------------------------------ output
def describe(config: CompareConfig) -> str:
    s = config.sprt
    unit = "points" if s.units is Units.POINTS else "sd"
    return (f"H0 {s.low:+g} vs H1 {s.high:+g} {unit} per board, alpha {s.alpha:g}, beta "
            f"{s.beta:g}, at most {s.max_boards} boards"
            + (", imposed boards" if config.imposed else ""))


def estimate(status: Status) -> str:
    half = f"± {status.half_width:.1f}" if math.isfinite(status.half_width) else "± ?"
    return f"{status.mean:+.1f} {half} points per board ({status.normalised:+.2f} sd)"


def status_line(status: Status, players: int) -> str:
    return (f"board {status.boards:4d} ({status.boards * (players + 1)} deals)  LLR "
            f"{status.llr:+.2f} in [{status.lower:+.2f}, {status.upper:+.2f}]  "
            f"{estimate(status)}")


def verdict_text(status: Status, config: CompareConfig) -> str:
    s = config.sprt
    unit = "points" if s.units is Units.POINTS else "sd"
    if status.verdict is Verdict.ACCEPTED:
        what = ("not worse than the baseline" if s.high == 0 and s.low < 0 else
                f"better than the baseline (H1: {s.high:+g} {unit} per board)")
        return f"accepted: the candidate is {what}"
    if status.verdict is Verdict.REJECTED:
        what = (f"worse than the baseline by {-s.low:g} {unit} per board or more"
                if s.high == 0 and s.low < 0 else
                f"no better than the baseline (H0: {s.low:+g} {unit} per board)")
        return f"rejected: the candidate is {what}"
    return (f"inconclusive: {s.max_boards} boards without a decision (the difference lies "
            f"between the bounds, or the cap is too low)")


def result_json(
    status: Status, config: CompareConfig, settings: TournamentSettings, tournament_id: str,
    unplayed: int,
) -> dict[str, object]:
    assert status.verdict is not None
    return {
        "compare": tournament_id,
        "verdict": status.verdict.value,
        "exit_code": EXIT_CODES[status.verdict],
        "mode": "local" if config.local else "live",
        "candidate": config.candidate,
        "baseline": config.baseline,
        "candidate_bot_id": settings.bots[0],
        "baseline_bot_id": settings.bots[1],
        "aa": config.aa,
        "imposed": config.imposed,
        "test": config.sprt.to_json(),
        **status.to_json(),
        "deals": status.boards * (settings.players + 1),
        "players": settings.players,
        "seed": str(settings.seed),
        "tables_unplayed": unplayed,
    }


class Reporter:
    """Progress on stderr: every board for the first ten, then at most one line a second."""

    def __init__(self, console: Console, players: int, every: float = 1.0) -> None:
        self.console = console
        self.players = players
        self.every = every
        self._last = -math.inf
        self._pending: Status | None = None

    def __call__(self, status: Status) -> None:
        now = time.monotonic()
        if status.boards <= 10 or status.verdict is not None or now - self._last >= self.every:
            self.console.print(status_line(status, self.players), highlight=False)
            self._last = now
            self._pending = None
        else:
            self._pending = status

    def flush(self) -> None:
        if self._pending is not None:
            self.console.print(status_line(self._pending, self.players), highlight=False)
            self._pending = None


# ------------------------------------------------------------------------- the command
def load_local_bot(spec: str) -> Bot:
    """The bot ``module:Class`` names, or a one-line error saying why not."""
    from clients.run import UsageError, load_bot

    try:
        return load_bot(spec, {})
    except UsageError as exc:
        raise CompareError(f"bot {spec!r}: {exc}") from None
    except Exception as exc:  # the module itself failed (syntax error, its own exception)
        raise CompareError(f"cannot import bot {spec!r}: {type(exc).__name__}: "
                           f"{str(exc).splitlines()[0] if str(exc) else ''}") from None


def _resolve(
    store: TournamentStore, compare_id: str | None, candidate: str | None,
    baseline: str | None, local: bool, aa: bool, imposed: bool,
    make_config: Callable[[], SprtSettings],
    players: int, seed: int | None, per_decision: float,
) -> str:
    """The compare to run: the stored one (``--id`` of an existing compare, whose bots must
    match any given) or a new one."""
    if compare_id is not None:
        try:
            settings = store.settings(compare_id)
        except UnknownTournamentError:
            settings = None
        if settings is not None:
            if settings.compare is None:
                raise CompareError(f"{compare_id} is a tournament, not a compare")
            stored = CompareConfig.from_json(settings.compare)
            if stored.local != local:
                raise CompareError(f"{compare_id} is a {'local' if stored.local else 'live'} "
                                   f"compare: run it {'with' if stored.local else 'without'} "
                                   f"--local")
            given = (candidate, baseline)
            if given != (None, None) and given != (stored.candidate, stored.baseline):
                raise CompareError(f"{compare_id} compares {stored.candidate} with "
                                   f"{stored.baseline}, not {candidate} with {baseline}")
            return compare_id
    if candidate is None or baseline is None:
        raise CompareError("give the CANDIDATE and the BASELINE (or --id of a stored compare)")
    if candidate == baseline and not aa:
        raise CompareError(f"the candidate and the baseline are the same bot ({candidate}): "
                           f"pass --aa for an A/A check")
    config = CompareConfig(local, candidate, baseline, make_config(), aa, imposed)
    if local:
        load_local_bot(candidate)
        load_local_bot(baseline)
        bot_ids = local_bot_ids(store, candidate, baseline)
    else:
        if candidate == baseline:
            raise CompareError("a live A/A check needs the same program registered twice: two "
                               "bot ids, one for each side")
        registry = BotRegistry(store.engine)
        for bot_id in (candidate, baseline):
            try:
                registry.get(bot_id)
            except UnknownBotError as exc:
                raise CompareError(f"{exc} (live compares take registered bot ids; --local "
                                   f"takes module:Class bots)") from None
        bot_ids = (candidate, baseline)
    return create(store, config, bot_ids, players=players, seed=seed,
                  per_decision=per_decision, tournament_id=compare_id)


def add_command(app: typer.Typer, store_factory: Callable[[], TournamentStore],
                console: Console, errors: Console) -> None:
    """Register ``compare`` on the CLI ``app``."""

    @app.command("compare", epilog=(
        "Exit status: 0 accepted, 3 rejected, 4 inconclusive (the cap was reached), "
        "1 error, 2 bad command line."))
    def compare_cmd(
        candidate: Annotated[str | None, typer.Argument(
            help="The bot under test: module:Class with --local, else a registered bot id."
        )] = None,
        baseline: Annotated[str | None, typer.Argument(
            help="The bot it is compared with (same form).")] = None,
        local: Annotated[bool, typer.Option(
            "--local", help="Play both bots in this process, without a server (for CI).")
        ] = False,
        bounds: Annotated[str | None, typer.Option(
            help="H0,H1: the mean improvement per board under each hypothesis, in --units "
                 "(default 0,0.2 sd).")] = None,
        units: Annotated[str, typer.Option(
            help="sd: per-board standard deviations (scale-free, like fishtest's normalised "
                 "Elo); points: game points per board.")] = "sd",
        non_regression: Annotated[float | None, typer.Option(
            help="Accept if not worse by more than this (H0 -D, H1 0), in --units.")] = None,
        alpha: Annotated[float, typer.Option(help="False-positive rate, in (0, 0.5).")] = 0.05,
        beta: Annotated[float, typer.Option(help="False-negative rate, in (0, 0.5).")] = 0.05,
        max_boards: Annotated[int, typer.Option(
            help="Cap: inconclusive after this many boards.")] = 1000,
        min_boards: Annotated[int, typer.Option(
            help="No verdict before this many boards (a guard against a spread measured on "
                 "too few).")] = DEFAULT_MIN_BOARDS,
        aa: Annotated[bool, typer.Option(
            "--aa", help="Allow the same bot on both sides (an A/A check).")] = False,
        imposed: Annotated[bool, typer.Option(
            "--imposed", help="Imposed boards (--local): every table of a board plays the "
                              "auction the baseline bids, so only card play is compared.")
        ] = False,
        compare_id: Annotated[str | None, typer.Option(
            "--id", help="Resume this stored compare, or create it under this id.")] = None,
        players: Annotated[int, typer.Option(help="3, 4 or 5.")] = 4,
        seed: Annotated[str | None, typer.Option(
            help="Tournament seed (default: random, shown).")] = None,
        per_decision: Annotated[float | None, typer.Option(
            help="Seconds per decision (default 60 local, 1 live).")] = None,
        json_out: Annotated[bool, typer.Option(
            "--json", help="Print the verdict and its statistics as JSON on stdout.")] = False,
        out: Annotated[Path | None, typer.Option(
            help="Write the verdict and its statistics as JSON to this file.")] = None,
        host: Annotated[str, typer.Option(help="Live: address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Live: port (0: any free port).")] = 50051,
        concurrency: Annotated[int, typer.Option(help="Live: tables played at once.")] = 8,
        seat_timeout: Annotated[float, typer.Option(
            help="Live: give up after this many seconds with no bot to play.")] = 120.0,
    ) -> None:
        """Is CANDIDATE better than BASELINE? A sequential test on duplicate boards that stops
        as soon as the answer is known, with the error rates given."""
        if out is not None and not out.parent.is_dir():
            raise CompareError(f"cannot write {out}: no folder {out.parent}")
        parsed_seed = None
        if seed is not None:
            try:
                parsed_seed = int(seed, 0)
            except ValueError:
                raise CompareError(f"bad seed {seed!r}: an integer 0..2**64-1") from None
        if not 0 <= port <= 65535:
            raise CompareError(f"bad port {port}: expected 0..65535")

        def make_config() -> SprtSettings:
            try:
                return sprt_settings(bounds=bounds, units=units, non_regression=non_regression,
                                     alpha=alpha, beta=beta, max_boards=max_boards,
                                     min_boards=min_boards)
            except SprtError as exc:
                raise CompareError(str(exc)) from None

        # Mistakes in the command line are told before any database is opened or created.
        if imposed and not local:
            raise CompareError("--imposed boards are played in-process only: add --local")
        config_now = make_config()
        if candidate is not None and baseline is not None and compare_id is None:
            if candidate == baseline and not aa:
                raise CompareError(f"the candidate and the baseline are the same bot "
                                   f"({candidate}): pass --aa for an A/A check")
            if local:
                load_local_bot(candidate)
                load_local_bot(baseline)
        store = store_factory()
        tid = _resolve(store, compare_id, candidate, baseline, local, aa, imposed,
                       lambda: config_now, players, parsed_seed,
                       per_decision or (60.0 if local else 1.0))
        settings, config, stored = load(store, tid)
        if (stored.test.verdict is None
                and store.tournament(tid).status is TournamentStatus.CANCELLED):
            raise _cancelled(tid, stored)
        errors.print(f"compare [bold]{tid}[/bold] (run again with --id {tid} to resume): "
                     f"{escape(_who(store, config.candidate, config.local))} vs "
                     f"{escape(_who(store, config.baseline, config.local))}, "
                     f"{escape(describe(config))}, seed {settings.seed}", highlight=False)
        reporter = Reporter(errors, settings.players)
        if config.local:
            bots = {settings.bots[0]: load_local_bot(config.candidate),
                    settings.bots[1]: load_local_bot(config.baseline)}
            auction_bot = load_local_bot(config.baseline) if config.imposed else None
            status = trio.run(functools.partial(run_local, store, tid, bots, reporter,
                                                auction_bot=auction_bot))
        else:
            status = _run_live(store, tid, host, port, concurrency, seat_timeout, reporter,
                               errors)
        reporter.flush()
        unplayed = store.progress(tid).pending
        assert status.verdict is not None
        data = result_json(status, config, settings, tid, unplayed)
        style = {Verdict.ACCEPTED: "green", Verdict.REJECTED: "red"}.get(status.verdict,
                                                                         "yellow")
        errors.print(f"[{style}]{escape(verdict_text(status, config))}[/{style}] after "
                     f"{status.boards} boards ({data['deals']} deals): {estimate(status)}, LLR "
                     f"{status.llr:+.2f}", highlight=False)
        if unplayed:
            errors.print(f"{unplayed} tables left unplayed (the test had decided)",
                         highlight=False)
        if out is not None:
            out.write_text(json.dumps(data, indent=2) + "\n")
        if json_out:
            sys.stdout.write(json.dumps(data) + "\n")
            sys.stdout.flush()
        raise typer.Exit(EXIT_CODES[status.verdict])


def _who(store: TournamentStore, bot: str, local: bool) -> str:
    """A live bot's name and id (a local bot's spec says it all)."""
    if local:
        return bot
    try:
        return f"{BotRegistry(store.engine).get(bot).name} ({bot})"
    except UnknownBotError:
        return bot


def _run_live(store: TournamentStore, tid: str, host: str, port: int, concurrency: int,
              seat_timeout: float, reporter: StatusFn, errors: Console) -> Status:
    from arena.transport.server import ArenaServer

    async def main() -> Status:
        server = ArenaServer(BotRegistry(store.engine), host=host, port=port)
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(server.serve)
            errors.print(f"arena listening on {host}:{bound}; waiting for the bots",
                         highlight=False)
            status = await run_live(store, server, tid, concurrency=concurrency,
                                    seat_timeout=seat_timeout, on_status=reporter)
            nursery.cancel_scope.cancel()
        return status

    return trio.run(main)
