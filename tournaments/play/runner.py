"""Runs a stored tournament: claim a table the arena can seat, play it, commit it, repeat.

The one runner of every tournament, whoever plays it: the arena is anything that plays a table
(:class:`~tournaments.play.arena.Arena`), bots connected over gRPC or bot objects in this
process alike.

One dispatcher per tournament claims tables (up to ``concurrency`` at once, or a budget shared
by several tournaments) and plays each in its own task. Several processes may share one
PostgreSQL database: all the state, the remaining work included, is in the database, and each
arena claims only the tables whose bots are all connected to it with room for one more table,
so a table waits for its bots instead of failing. While tables wait, the runner says which bots
it waits for (``waiting_for``) and sleeps until a connection opens or closes or a table ends
(or a few seconds pass: other arenas' progress is seen only in the database).

With ``seat_timeout`` set, the runner gives up when for that long it had nothing to play here,
nothing was being played anywhere else, and tables wait for bots not connected here: it raises
:class:`BotsMissingError` naming them, and the tournament is left as it was (finished tables
kept, the rest pending), to be resumed by running it again. A table interrupted by a crash is
replayed from its start by whoever claims it once its lease has run out.

Leases are renewed by a thread of their own (:mod:`.leases`), whatever the bots and the loop
are doing. A lone arena never loses a claim to itself: should a lease run out all the same (the
database did not answer for that long) and the dispatcher claim the table again, the table
still playing here keeps it under the new claim instead of being played twice.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from ..duplicate.scoring import Standings, compute_standings
from ..duplicate.settings import TournamentSettings
from ..store import ClaimedTable, Progress, TournamentStore, new_worker_id
from .arena import Arena, BotAwayError, TableToPlay
from .leases import LeaseKeeper

log = logging.getLogger(__name__)

LEASE = 10.0
"""Seconds a claim lives without renewal (renewed every quarter of it while the table plays,
by a thread of its own). A crashed arena's tables are replayed by another once it runs out."""
RECHECK = 2.0
"""Seconds between looks at the database while waiting (for other arenas' progress)."""


class BotsMissingError(LookupError):
    """No table could be seated for the whole seat timeout: bots are missing. Nothing is lost;
    running the tournament again resumes it."""


@dataclass(frozen=True, slots=True)
class TableDone:
    table_id: str
    board: int
    infractions: int
    progress: Progress


ProgressFn = Callable[[TableDone], None]
AfterTableFn = Callable[[TableDone], Awaitable[None]]
WaitingFn = Callable[[tuple[str, ...]], None]
"""Called with the names of the bots awaited whenever that list changes (empty: none)."""


class TournamentRunner:
    def __init__(
        self,
        store: TournamentStore,
        arena: Arena,
        tournament_id: str,
        concurrency: int = 8,
        lease: float = LEASE,
        seat_timeout: float | None = 120.0,
        on_table_done: ProgressFn | None = None,
        after_table: AfterTableFn | None = None,
        on_waiting: WaitingFn | None = None,
        slots: trio.Semaphore | None = None,
        recheck: float = RECHECK,
        wait_elsewhere: bool = True,
    ) -> None:
        """``seat_timeout``: seconds with nothing to play before giving up (None: never). ``slots``:
        a budget of tables at once shared with other runners (else ``concurrency``).
        ``after_table``: awaited once a table is stored, before its slot is given back (with
        ``concurrency`` 1, nothing else is claimed until it returns: a sequential test looks at each
        table before the next starts). ``wait_elsewhere``: whether to wait for tables that other
        processes hold, to take them over should their lease run out; False: return once nothing is
        left to claim here (a local compare then says who holds them).
        """
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if seat_timeout is not None and not seat_timeout > 0:
            raise ValueError("the seat timeout must be positive (None: wait forever)")
        self.store = store
        self.arena = arena
        self.tournament_id = tournament_id
        self.lease = lease
        self.seat_timeout = seat_timeout
        self.on_table_done = on_table_done
        self.after_table = after_table
        self.on_waiting = on_waiting
        self.slots = slots or trio.Semaphore(concurrency)
        self.recheck = recheck
        self.wait_elsewhere = wait_elsewhere
        self.worker = new_worker_id()
        self._claims = itertools.count(1)
        self.running: dict[str, str] = {}
        """Tables claimed here -> the claim's own worker id (the lease keeper's thread copies
        it; every change is made in trio)."""
        self.names: dict[str, str] = {}
        self.waiting_for: tuple[str, ...] = ()
        """Names of the bots that tables wait for, not connected to this arena."""
        self._changed = trio.Event()
        self._lost: set[tuple[str, str]] = set()
        """(table id, worker id) of the claims told lost."""
        self._settling: set[str] = set()
        """Tables being finished or given back: a renewal that finds them gone is no news."""

    async def run(self) -> Standings:
        """Play every table this arena can seat until none is left anywhere; the standings.

        Raises :class:`BotsMissingError` after ``seat_timeout`` with nothing to play.
        """
        store, tid = self.store, self.tournament_id
        settings = await trio.to_thread.run_sync(store.settings, tid)
        self.names = await trio.to_thread.run_sync(store.bot_names, settings.bots)
        gave_up: str | None = None
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._renew_leases)
                nursery.start_soon(self._watch_arena)
                async with trio.open_nursery() as tables:
                    gave_up = await self._dispatch(settings, tables)
                nursery.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(store.settle_status, tid)
        if gave_up is not None:
            raise BotsMissingError(gave_up)
        return await self.standings()

    async def standings(self) -> Standings:
        settings = await trio.to_thread.run_sync(self.store.settings, self.tournament_id)
        entries = await trio.to_thread.run_sync(self.store.entries, self.tournament_id)
        return compute_standings(entries, settings.penalties, settings.scoring)

    async def _dispatch(self, settings: TournamentSettings, tables: trio.Nursery) -> str | None:
        """Claim and start tables until none is left; why it gave up, if it did."""
        bots = tuple(dict.fromkeys(settings.bots))
        idle_since: float | None = None
        while True:
            await self.slots.acquire()
            self._changed = trio.Event()  # a change from now on is worth another look
            seated = False
            try:
                claim = await self._claim(bots, settings.game)
                if claim is not None:
                    seated = await tables.start(self._play, claim, settings)
            finally:
                if not seated:
                    self.slots.release()
            if seated:
                idle_since = None
                continue
            work = await trio.to_thread.run_sync(self.store.open_work, self.tournament_id)
            if work.finished or work.cancelled:  # cancelled: the tables playing here end
                self._waiting(())
                return None
            if not self.wait_elsewhere and not self.running and not work.claimable:
                return None  # the rest is held by other processes
            connected = self.arena.connected_bots()
            missing = [b for b in bots if b in work.bots and b not in connected]
            self._waiting(tuple(self.names.get(b, b) for b in missing))
            if self.running or work.live or not missing:
                idle_since = None  # playing here or elsewhere, or the bots are only busy
            else:
                now = trio.current_time()
                if idle_since is None:  # nothing plays anywhere: not "running" any more
                    idle_since = now
                    await trio.to_thread.run_sync(self.store.settle_status, self.tournament_id)
                if self.seat_timeout is not None and now - idle_since >= self.seat_timeout:
                    return self._gave_up(work.claimable)
            wait = self.recheck
            if idle_since is not None and self.seat_timeout is not None:
                wait = min(wait, idle_since + self.seat_timeout - trio.current_time())
            with trio.move_on_after(max(wait, 0.0)):
                await self._changed.wait()

    async def _watch_arena(self) -> None:
        """Notes every change in the arena (a connection opened or closed, a table ended), so
        that one happening while the dispatcher queries the database is not missed."""
        while True:
            await self.arena.wait_change()
            self._changed.set()

    def _gave_up(self, tables: int) -> str:
        names = self.waiting_for
        who = ", ".join(names)
        timeout = self.seat_timeout if self.seat_timeout is not None else math.inf
        return (f"gave up after {timeout:g} s with nothing to play: {tables} table"
                f"{'s' if tables != 1 else ''} of {self.tournament_id} wait for "
                f"{len(names)} bot{'s' if len(names) != 1 else ''} not connected ({who}); "
                f"nothing is lost, run the tournament again to resume it")

    def _waiting(self, names: tuple[str, ...]) -> None:
        if names != self.waiting_for:
            self.waiting_for = names
            if self.on_waiting is not None:
                self.on_waiting(names)

    async def _claim(self, bots: tuple[str, ...], game: str) -> ClaimedTable | None:
        """A table whose every bot has a connection here with room, or None."""
        busy = set(self.arena.awaiting(bots, game))
        seatable = [b for b in bots if b not in busy]
        if not seatable:
            return None
        worker = f"{self.worker}/{next(self._claims)}"
        claim: ClaimedTable | None = await trio.to_thread.run_sync(
            self.store.claim_next, self.tournament_id, worker, self.lease, seatable
        )
        if claim is not None and claim.table_id in self.running:
            # Its own lease ran out (renewals failed for that long) and this arena claimed it
            # again: the table playing here goes on under the new claim.
            log.info("table %s: its lease ran out while it played here, claimed again",
                     claim.table_id)
            self.running[claim.table_id] = worker
            return None
        if claim is not None:
            self.running[claim.table_id] = worker
            waiting = tuple(n for n in self.waiting_for
                            if n not in {self.names.get(b, b) for b in claim.bots})
            self._waiting(waiting)
        return claim

    async def _release(self, claim: ClaimedTable) -> None:
        with trio.CancelScope(shield=True):
            await self._settle(claim.table_id, self.store.release)

    async def _settle(self, table_id: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(table_id, worker, *args)`` in a thread with the claim that holds the table;
        again with the new one should the table be claimed again here meanwhile."""
        self._settling.add(table_id)
        try:
            while True:
                worker = self.running[table_id]
                result = await trio.to_thread.run_sync(fn, table_id, worker, *args)
                if result or self.running.get(table_id, worker) == worker:
                    return result
        finally:
            self._settling.discard(table_id)

    async def _play(
        self, claim: ClaimedTable, settings: TournamentSettings,
        task_status: Any = trio.TASK_STATUS_IGNORED,
    ) -> None:
        started = False
        try:
            # Checked with no checkpoint before play_table seats the bots: a bot that left, or
            # took its last free table elsewhere, while the claim was made gives the table back.
            if self.arena.awaiting(claim.bots, settings.game):
                await self._release(claim)
                task_status.started(False)
                return
            task_status.started(True)
            started = True  # the slot is this task's to give back now
            table = TableToPlay(claim.table_id, claim.board, claim.state, claim.bots,
                                settings.time_control, settings.reveal_deals)
            try:
                outcome = await self.arena.play(table)
            except BotAwayError as exc:
                log.info("table %s given back: %s", claim.table_id, exc)
                await self._release(claim)
                return
            except BaseException:
                await self._release(claim)
                raise
            worker = self.running[claim.table_id]
            stored = await self._settle(claim.table_id, self.store.finish, outcome)
            self.running.pop(claim.table_id, None)
            done: TableDone | None = None
            if stored and (self.on_table_done is not None or self.after_table is not None):
                progress = await trio.to_thread.run_sync(self.store.progress, self.tournament_id)
                done = TableDone(claim.table_id, claim.board, len(outcome.infractions), progress)
                if self.after_table is not None:
                    await self.after_table(done)
        finally:
            self.running.pop(claim.table_id, None)
            if started:
                self.slots.release()
        if not stored:
            if (claim.table_id, worker) not in self._lost:  # else told already
                log.warning("table %s was taken over by another arena: this result is not "
                            "stored", claim.table_id)
            return
        if done is not None and self.on_table_done is not None:
            self.on_table_done(done)

    async def _renew_leases(self) -> None:
        """Keep the leases of :attr:`running` alive, from a thread (see :mod:`.leases`), for
        as long as this task runs."""
        token = trio.lowlevel.current_trio_token()

        def lost(claims: dict[str, str]) -> None:  # in the keeper's thread
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(self._claims_lost, claims)

        keeper = LeaseKeeper(self.store, self.lease, self.running.copy, lost)
        keeper.start()
        try:
            await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(keeper.stop)

    def _claims_lost(self, claims: dict[str, str]) -> None:
        """The keeper found these claims gone: told once each, unless the table was finished
        or given back here meanwhile (no news), or claimed again here (still ours)."""
        for table_id, worker in claims.items():
            if (self.running.get(table_id) != worker or table_id in self._settling
                    or (table_id, worker) in self._lost):
                continue
            self._lost.add((table_id, worker))
            log.warning("lost the claim on table %s (its lease ran out): another arena "
                        "replays it, this result will not be stored", table_id)
