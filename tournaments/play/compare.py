"""Regression testing of bots, played: is the candidate better than the baseline?

A compare is a stored tournament (gauntlet seating, as many boards as the sequential test's
cap) whose test and bots are kept in its settings (``TournamentSettings.compare``); the command
is :mod:`tournaments.cli.compare`, the statistics :mod:`tournaments.duplicate.sprt`.

- **Design**: a gauntlet (:func:`tournaments.duplicate.seatings.gauntlet`). Each board is
  played once with the candidate in each seat beside baseline fillers, plus once at a control
  table of baselines only: ``players + 1`` deals a board. The board's value is its **paired
  difference**: the mean over the seats of the candidate's score in that seat minus the
  baseline's score in that seat at the control table, on the very same cards. The sequential
  test is fed these differences in board order and looked at after every board.
- **Another filler** (``CompareConfig.filler``): the other seats are that bot's instead, for
  the candidate and the baseline alike (each in each seat among fillers: ``2 players`` deals a
  board), so that a pair of bots that never bid (every deal of theirs passed out) or play alike
  among themselves are compared among bots that bid and play differently.
- **Played** live by the one tournament runner
  (:class:`~tournaments.play.runner.TournamentRunner`) on the gRPC arena, or, ``--local``, by
  workers (:mod:`tournaments.work`): whole boards of bot objects on the in-process arena
  (:class:`clients.local.LocalArena`), in this process, on this machine's cores or on any
  machine that reaches the database. The test is looked at whenever a board is finished; once
  decided, the tables being played are given back unplayed (pending) and the others are never
  started.
- **Stored**: the verdict is not stored: it is recomputed from the stored boards, so a compare
  killed mid-way and run again resumes where it stopped (finished tables kept, an interrupted
  one replayed) and gives the verdict the uninterrupted run would have given.

The test only counts boards finished at all their tables, in board order (the first ``k``
boards): boards are played in that order, and the order in which results arrive never decides
which boards are counted.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import trio

from arena import games
from arena.storage.bots import BotRegistry
from arena.storage.models import TournamentStatus

from ..duplicate.scoring import Entry
from ..duplicate.settings import Seating, TournamentSettings
from ..duplicate.sprt import Sprt, SprtSettings, Status
from ..store import TournamentStore
from .arena import Arena
from .runner import LEASE, TableDone, TournamentRunner

LOCAL_OWNER = "compare --local"
"""The owner of the bots a local compare registers (under their ``module:Class`` specs)."""


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
    """Imposed boards: every table of a board plays the baseline's auction (the filler's, when
    there is one) (:mod:`tournaments.play.imposed`); local only."""
    filler: str | None = None
    """The bot of the other seats (same form as the candidate's), None: the baseline."""

    def to_json(self) -> str:
        return json.dumps({"local": self.local, "candidate": self.candidate,
                           "baseline": self.baseline, "aa": self.aa, "imposed": self.imposed,
                           "sprt": self.sprt.to_json(),
                           **({"filler": self.filler} if self.filler else {})}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CompareConfig:
        data = json.loads(text)
        return cls(bool(data["local"]), str(data["candidate"]), str(data["baseline"]),
                   SprtSettings.from_json(data["sprt"]), bool(data.get("aa", False)),
                   bool(data.get("imposed", False)), data.get("filler"))


# --------------------------------------------------------------------------- the boards
def board_difference(entries: list[Entry], candidate: str, baseline: str, players: int,
                     per_point: int = 1) -> float | None:
    """The board's paired difference in the game's points (``per_point``: its score units in
    a point, :class:`~arena.games.base.ScoreUnit`), or None while the board is not finished at
    all its tables: mean over the seats of the candidate's score minus the control table's."""
    mine = {e.seat: e.score for e in entries if e.bot_id == candidate}
    theirs = {e.seat: e.score for e in entries if e.bot_id == baseline}
    if len(mine) < players or len(theirs) < players:
        return None
    return math.fsum(mine[s] - theirs[s] for s in range(players)) / (players * per_point)


class Boards:
    """The finished tables' scored seats by board, and the test fed with the first boards that
    are complete, in order."""

    def __init__(self, settings: TournamentSettings, config: CompareConfig) -> None:
        self.candidate, self.baseline = settings.bots[:2]
        self.players = settings.players
        self.per_point = settings.rules.declaration.score.per_point
        """The test counts in points, whatever the game's score unit (Tre e Venticinque's
        thirds): bounds in points are the ones a user gives."""
        self.by_board: dict[int, list[Entry]] = {}
        self.test = Sprt(config.sprt)

    def add(self, entries: list[Entry]) -> None:
        """Keep these entries (each once: an entry already kept for its seat is replaced)."""
        for entry in entries:
            kept = self.by_board.setdefault(entry.board, [])
            kept[:] = [e for e in kept if (e.table_id, e.seat) != (entry.table_id, entry.seat)]
            kept.append(entry)

    def value(self, board: int) -> float | None:
        """The board's paired difference in points, None while it is unfinished."""
        return board_difference(self.by_board.get(board, []), self.candidate, self.baseline,
                                self.players, self.per_point)

    def advance(self, each: Callable[[Status], None] | None = None) -> bool:
        """Feed the test every newly complete board in order (``each`` hears the test after
        every one); whether it moved."""
        moved = False
        while self.test.verdict is None:
            value = self.value(self.test.n)
            if value is None:
                break
            self.test.add(value)
            moved = True
            if each is not None:
                each(self.test.status())
        return moved

    def refresh(self, store: TournamentStore, tournament_id: str,
                each: Callable[[Status], None] | None = None) -> bool:
        """Read the boards finished since (those past the ones counted: the counted ones never
        change) and :meth:`advance`; whether the test moved."""
        self.add(store.entries(tournament_id, from_board=self.test.n))
        return self.advance(each)

    def scored_nothing(self) -> bool:
        """Whether every table of the boards the test counted scored 0 at every seat (French
        Tarot: every deal passed out): nothing about the bots' play was compared."""
        return all(e.score == 0 for board in range(self.test.n)
                   for e in self.by_board.get(board, []))


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


def local_bot_ids(store: TournamentStore, candidate: str, baseline: str,
                  filler: str | None = None) -> tuple[str, ...]:
    """Registry ids for the local bots (candidate, baseline, and the filler if any),
    registered on first use under their specs (``:`` and any character a bot name may not hold
    become spaces; an A/A check registers the baseline a second time, as ``SPEC baseline``)."""
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
    return (first, second) if filler is None else (first, second, bot_id(filler))


def check_imposable(rules: games.Game, what: str = "imposed boards") -> None:
    """Imposed boards fix each board's auction: a game without one is refused them."""
    if not rules.declaration.auction_phases:
        raise CompareError(f"{what} fix each board's auction, and {rules.title} has none: its "
                           f"tables of a board already differ in card play only")


def create(
    store: TournamentStore, config: CompareConfig, bot_ids: tuple[str, ...], *, players: int,
    seed: int | None, per_decision: float, tournament_id: str | None = None,
    game: str = games.DEFAULT_GAME, game_settings: Mapping[str, Any] | None = None,
) -> str:
    """Store a compare: a gauntlet of as many boards as the test's cap (``bot_ids``:
    candidate, baseline and the filler if any), of ``game`` with its ``game_settings``."""
    rules = games.game(game)
    if config.imposed:
        check_imposable(rules)
    name = f"compare {config.candidate} vs {config.baseline}"
    if len(name) > 100:
        name = name[:97] + "..."
    settings = TournamentSettings(
        name=name, bots=bot_ids, game=rules.name, game_settings=dict(game_settings or {}),
        seating=Seating.GAUNTLET, players=players,
        boards=config.sprt.max_boards, seed=secrets.randbits(63) if seed is None else seed,
        per_decision=per_decision, compare=config.to_json(),
    )
    return store.create(settings, tournament_id or "cmp_" + secrets.token_hex(6))


def outcomes(store: TournamentStore, tournament_id: str, boards: int) -> list[str]:
    """How the finished tables of the first ``boards`` boards ended, each outcome once, in the
    game's own words (French Tarot: ``played``, ``all-passed``, ``petit-sec``)."""
    return sorted({t.outcome for t, _ in store.tables(tournament_id)
                   if t.board_number < boards and t.outcome is not None})


def finish(store: TournamentStore, tournament_id: str) -> int:
    """Mark a decided compare finished (unless it was cancelled); how many of its tables are
    left unplayed."""
    if store.tournament(tournament_id).status is not TournamentStatus.CANCELLED:
        store.set_status(tournament_id, TournamentStatus.FINISHED)
    progress = store.progress(tournament_id)
    return progress.pending + progress.running


StatusFn = Callable[[Status], None]


async def run_compare(
    store: TournamentStore, arena: Arena, tournament_id: str, *, concurrency: int = 1,
    seat_timeout: float | None = None, on_status: StatusFn | None = None,
    lease: float = LEASE, wait_elsewhere: bool = True,
) -> Status:
    """Play the compare's tables on ``arena`` until the test decides; the tables being played
    then are given back, unplayed. ``on_status`` hears the test after every board it counts
    (first where it stands, when resumed); an exception it raises stops the compare, as is.

    ``wait_elsewhere=False``: rather than wait for tables that other processes hold, stop with
    a :class:`CompareError` saying so (the test counts boards in order: it cannot skip them).
    """
    _, _, boards = await trio.to_thread.run_sync(load, store, tournament_id)
    if on_status is not None and boards.test.n:
        on_status(boards.test.status())
    if boards.test.verdict is not None:
        return await _conclude(store, tournament_id, boards)
    await _not_cancelled(store, tournament_id, boards)
    failed: list[Exception] = []
    decided = trio.CancelScope()

    async def table_done(done: TableDone) -> None:
        if done.board != boards.test.n or decided.cancel_called:
            return  # not the next board the test needs
        boards.add(await trio.to_thread.run_sync(store.entries, tournament_id))
        if boards.advance() and on_status is not None:
            try:
                on_status(boards.test.status())
            except Exception as exc:  # raised below as it is, not in an exception group
                failed.append(exc)
        if failed or boards.test.verdict is not None:
            decided.cancel()

    runner = TournamentRunner(store, arena, tournament_id, concurrency=concurrency,
                              seat_timeout=seat_timeout, after_table=table_done, lease=lease,
                              wait_elsewhere=wait_elsewhere)
    with decided:
        await runner.run()
    if failed:
        raise failed[0]
    if boards.test.verdict is None:  # the runner ended first: read everything once more
        boards.add(await trio.to_thread.run_sync(store.entries, tournament_id))
        boards.advance()
    return await _conclude(store, tournament_id, boards)


async def _not_cancelled(store: TournamentStore, tournament_id: str, boards: Boards) -> None:
    """A cancelled compare is not played any more (``tournament cancel``)."""
    await trio.to_thread.run_sync(not_cancelled, store, tournament_id, boards)


def not_cancelled(store: TournamentStore, tournament_id: str, boards: Boards) -> None:
    row = store.tournament(tournament_id)
    if boards.test.verdict is None and row.status is TournamentStatus.CANCELLED:
        raise cancelled_error(tournament_id, boards)


def cancelled_error(tournament_id: str, boards: Boards) -> CompareError:
    """What a compare cancelled (``tournament cancel``) before its test decided says."""
    return CompareError(f"{tournament_id} was cancelled after {boards.test.n} boards, before "
                        f"its test decided")


async def _conclude(store: TournamentStore, tournament_id: str, boards: Boards) -> Status:
    return await trio.to_thread.run_sync(conclude, store, tournament_id, boards)


def conclude(store: TournamentStore, tournament_id: str, boards: Boards,
             stuck: Callable[[], str | None] = lambda: None) -> Status:
    """The verdict, the compare marked finished; or why there is none once nothing is left
    to play here (``stuck``: a reason of the caller's, asked first, e.g. a board given up)."""
    if boards.test.verdict is None:
        not_cancelled(store, tournament_id, boards)
        reason = stuck()
        if reason is not None:
            raise CompareError(reason)
        progress = store.progress(tournament_id)
        if progress.running:
            raise CompareError(
                f"{progress.running} tables of {tournament_id} are claimed by another process "
                f"(still running, or crashed on another machine: its claim runs out within "
                f"seconds); run the compare again later to finish it")
        # Every table is played but the test neither decided nor reached its cap: only when
        # boards were lost (the cap is the number of boards).
        raise CompareError(f"{tournament_id} has no tables left to play but its test counts "
                           f"{boards.test.n} complete boards of {boards.test.settings.max_boards}")
    finish(store, tournament_id)
    return boards.test.status()
