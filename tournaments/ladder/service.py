"""Keeps every ladder playing on an arena: seats the bots that are free, the one tournament
runner plays what is seated.

Each ladder has a tournament of its own (:mod:`tournaments.storage.ladders`); this service
seats tables on it and a :class:`~tournaments.play.runner.TournamentRunner` plays them, with
its claims, leases and replays: a table interrupted by a crash is played again from its start
once its lease has run out, and nothing seated or played is lost. A round of the service:

1. withdraw the tables not claimed yet whose bots are gone (disconnected, left, revoked): the
   other bots of such a table are free again, so an absent bot holds no one up;
2. seat every member that is connected, free (no ladder table not yet played, a table free on
   its connection) and under its hourly cap, as :mod:`.matchmaking` pairs them;
3. wait until a table ends, a bot comes or goes, or a few seconds pass (a join from the
   command line, other arenas' progress).

The runner seats the bots its tournament's settings name, read when it starts: a bot joining
the ladder ends the runner's epoch (no new table until the runner has played what it has), and
the next runner knows it.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Collection, Sequence
from typing import Any

import trio
from rich.markup import escape

from arena.storage.bots import BotRegistry
from arena.table import TableOutcome

from ..play.arena import Arena, TableToPlay
from ..play.runner import LEASE, TableDone, TournamentRunner
from ..storage.ladders import FieldState, LadderStore
from ..store import TournamentStore
from .matchmaking import MEETING_COST, MEETING_SHARE, Candidate, Field, OpenBoard, matches
from .rating import ELO, MARGIN_PRIOR, PRIOR_SD, Rating, RatingModel
from .settings import LadderSettings
from .standings import fitted

log = logging.getLogger(__name__)

RECHECK = 2.0
"""Seconds between looks at the database while nothing happens here."""
REFIT = 1.0
"""Seconds the matchmaker goes on with a fit before fitting the new results (and storing the
fit for the standings): a fit reads every result, and a table's few results move it little."""

VersionFn = Callable[[str], str]
SeatedFn = Callable[[str, int], None]
"""Told (ladder name, tables seated) after each round that seated some."""


class _Woken:
    """The arena, whose :meth:`wait_change` also returns when the service pokes it: the runner
    then looks for the tables just seated, or notices its last one is done."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self._poked = trio.Event()

    def poke(self) -> None:
        self._poked.set()

    def connected_bots(self) -> Collection[str]:
        return self.arena.connected_bots()

    def awaiting(self, bot_ids: Sequence[str], game: str) -> list[str]:
        return self.arena.awaiting(bot_ids, game)

    async def wait_change(self) -> None:
        async with trio.open_nursery() as nursery:
            async def arena_changed() -> None:
                await self.arena.wait_change()
                nursery.cancel_scope.cancel()

            nursery.start_soon(arena_changed)
            await self._poked.wait()
            self._poked = trio.Event()
            nursery.cancel_scope.cancel()

    async def play(self, table: TableToPlay) -> TableOutcome:
        return await self.arena.play(table)


class LadderService:
    def __init__(
        self, store: TournamentStore, arena: Arena, *, slots: trio.Semaphore | None = None,
        concurrency: int = 8, lease: float = LEASE, recheck: float = RECHECK,
        versions: VersionFn | None = None, on_seated: SeatedFn | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """``versions``: a bot's current version (default: the last its Hello named).
        ``rng``: the matchmaker's tie breaks (default: unpredictable)."""
        self.store = store
        self.ladders = LadderStore(store.engine, store.clock)
        self.arena = arena
        self.slots = slots or trio.Semaphore(concurrency)
        self.lease = lease
        self.recheck = recheck
        self.versions = versions or self._last_version
        self.on_seated = on_seated
        self.rng = rng or random.Random(secrets.randbits(64))
        self._fits: dict[str, tuple[float, dict[int, Rating]]] = {}
        self._entries: dict[tuple[str, str, str], int] = {}
        """(ladder, bot, version) -> entry, as the store made or found it."""
        self._lock = trio.Lock()

    def _last_version(self, bot_id: str) -> str:
        seen = BotRegistry(self.store.engine).versions(bot_id)
        return seen[0].version if seen else ""

    async def serve(self, poll: float = 5.0, retry: float = 30.0,
                    report: Callable[[str], None] | None = None) -> None:
        """Every ladder, those created meanwhile too, until cancelled. A ladder that fails
        (its rows vanished, the database refused) is reported in one line and tried again
        after ``retry`` seconds; the others go on."""
        started: set[str] = set()

        async def keep(ladder_id: str, name: str) -> None:
            while True:
                try:
                    await self.run(ladder_id)
                except Exception as exc:  # one ladder's failure is not serve's
                    log.debug("ladder %s failed", name, exc_info=True)
                    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    if report is not None:
                        report(f"ladder {name} failed: {first}; trying again in {retry:g} s")
                    await trio.sleep(retry)

        async with trio.open_nursery() as nursery:
            while True:
                for ladder in await trio.to_thread.run_sync(self.ladders.ladders):
                    if ladder.id not in started:
                        started.add(ladder.id)
                        nursery.start_soon(keep, ladder.id, ladder.name)
                await trio.sleep(poll)

    async def run(self, ladder_id: str) -> None:
        """One ladder, forever: epoch after epoch (a new one when a bot joins)."""
        while True:
            tid = await trio.to_thread.run_sync(self.ladders.sync_tournament, ladder_id)
            if tid is None:  # too few members yet
                await trio.sleep(self.recheck)
                continue
            await self._epoch(ladder_id, tid)

    async def _epoch(self, ladder_id: str, tournament_id: str) -> None:
        settings = await trio.to_thread.run_sync(self.store.settings, tournament_id)
        bots = set(settings.bots)
        arena = _Woken(self.arena)
        woken = trio.Event()
        current: TournamentRunner | None = None

        async def table_done(done: TableDone) -> None:
            # Seated before the runner's slot is given back: the runner then finds the next
            # tables instead of concluding it has none left and ending its epoch.
            await self.round(ladder_id, bots)
            woken.set()
            arena.poke()

        async def play(runner: TournamentRunner) -> None:
            nonlocal current
            try:
                await runner.run()
            finally:
                current = None
                woken.set()

        async with trio.open_nursery() as nursery:
            while True:
                woken = trio.Event()
                joined, unplayed = await self.round(ladder_id, bots)
                if joined and current is None and not unplayed:
                    return  # a new member: a new runner, which knows it
                if unplayed and current is None:
                    current = TournamentRunner(
                        self.store, arena, tournament_id, slots=self.slots, lease=self.lease,
                        seat_timeout=None, after_table=table_done, recheck=self.recheck)
                    nursery.start_soon(play, current)
                arena.poke()
                with trio.move_on_after(self.recheck):
                    async with trio.open_nursery() as waits:
                        async def changed() -> None:
                            await self.arena.wait_change()
                            waits.cancel_scope.cancel()

                        waits.start_soon(changed)
                        await woken.wait()
                        waits.cancel_scope.cancel()

    async def round(self, ladder_id: str, bots: set[str]) -> tuple[bool, int]:
        """One round (see the module): whether a member is not among ``bots`` (the runner's),
        and how many tables are left to play. One at a time per service."""
        async with self._lock:
            return await self._round(ladder_id, bots)

    async def _round(self, ladder_id: str, bots: set[str]) -> tuple[bool, int]:
        ladder = await trio.to_thread.run_sync(self.ladders.get, ladder_id)
        settings = LadderStore.settings(ladder)
        members = await trio.to_thread.run_sync(self.ladders.members, ladder_id)
        active = {m.bot_id for m in members if m.active}
        joined = bool(active - bots)
        state = await trio.to_thread.run_sync(self.ladders.field, ladder_id)
        connected = set(self.arena.connected_bots())
        away = [t for t, seated in state.pending.items()
                if any(b not in active or b not in connected for b in seated)]
        if away:
            gone = await trio.to_thread.run_sync(self.ladders.withdraw, away)
            if gone:
                log.info("ladder %s: %d table(s) withdrawn, a bot is away", ladder.name, gone)
                state = await trio.to_thread.run_sync(self.ladders.field, ladder_id)
        seated = 0
        if not joined:  # else the runner would not seat the newcomer: seat no one
            seated = await self._seat(ladder_id, settings, state, active & bots, connected)
            if seated and self.on_seated is not None:
                self.on_seated(ladder.name, seated)
        return joined, state.unplayed + seated

    async def _seat(self, ladder_id: str, settings: LadderSettings, state: FieldState,
                    members: set[str], connected: set[str]) -> int:
        free = sorted(
            b for b in members
            if b in connected and b not in state.busy
            and not self.arena.awaiting([b], settings.game)
            and (settings.boards_per_hour is None
                 or state.last_hour.get(b, 0) < settings.boards_per_hour)
        )
        if len(free) < settings.players:
            return 0

        def entries() -> dict[str, int]:
            out = {}
            for b in free:
                key = (ladder_id, b, self.versions(b))
                if key not in self._entries:
                    self._entries[key] = self.ladders.entry_for(*key, settings.versions)
                out[b] = self._entries[key]
            return out

        entry_of = await trio.to_thread.run_sync(entries)
        known = self._fits.get(ladder_id)
        if (known is None or trio.current_time() - known[0] >= REFIT
                or not set(entry_of.values()) <= set(known[1])):
            ratings = await trio.to_thread.run_sync(self.ratings, ladder_id, settings)
            self._fits[ladder_id] = (trio.current_time(), ratings)
        else:
            ratings = known[1]
        # a new entry's standard deviation: the scale a meeting's cost is a share of
        prior = (ELO * PRIOR_SD if settings.model is RatingModel.WINS
                 else MARGIN_PRIOR * max((r.spread for r in ratings.values()),
                                         default=settings.floor))
        candidates = [
            Candidate(b, ratings[entry_of[b]].rating if entry_of[b] in ratings
                      else settings.model.centre,
                      ratings[entry_of[b]].sd if entry_of[b] in ratings else prior,
                      state.entry_boards.get(entry_of[b], 0), tuple(state.seats.get(b, ())))
            for b in free
        ]
        boards = {n: OpenBoard(n, tables, set(seated))
                  for n, (tables, seated) in state.boards.items()}
        found = matches(candidates, boards,
                        Field(settings.players, settings.tables_per_board, state.next_board,
                              MEETING_COST if settings.model is RatingModel.WINS
                              else MEETING_SHARE * prior),
                        self.rng, state.meets)
        if not found:
            return 0
        tables = [(m.board, [(b, entry_of[b]) for b in m.bots]) for m in found]
        ids = await trio.to_thread.run_sync(self.ladders.seat, ladder_id, tables)
        return len(ids)

    def ratings(self, ladder_id: str, settings: LadderSettings) -> dict[int, Rating]:
        """A fit of every result, stored for the standings."""
        plays = self.ladders.plays(ladder_id)
        ratings = fitted(plays, self.ladders.entries(ladder_id), settings)
        self.ladders.store_ratings(ladder_id, ratings, len(plays))
        return ratings

def ladder_members(store: TournamentStore) -> set[str]:
    """The bots that some ladder may still seat (``serve`` never dismisses them)."""
    ladders = LadderStore(store.engine)
    return {m.bot_id for ladder in ladders.ladders() for m in ladders.members(ladder.id)
            if m.active}


def serving(store: TournamentStore) -> Callable[[Arena, trio.Semaphore, Any], Any]:
    """What ``serve`` runs beside its tournaments: every ladder, on its arena and within its
    budget of tables, saying on its console when a ladder seats its first tables."""

    async def serve(arena: Arena, slots: trio.Semaphore, console: Any) -> None:
        announced: set[str] = set()

        def seated(name: str, tables: int) -> None:
            if name not in announced:
                announced.add(name)
                console.print(f"ladder {escape(name)}: playing ({tables} tables seated)",
                              highlight=False)

        def failed(line: str) -> None:
            console.print(f"[red]{escape(line)}[/red]")

        await LadderService(store, arena, slots=slots, on_seated=seated).serve(report=failed)

    return serve
