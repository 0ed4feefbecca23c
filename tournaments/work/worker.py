"""A worker: plays queued boards of tournaments whose bots run in this process, one board (a
group of tables) after the other, each committed whole (:mod:`.queue`).

The bots are loaded from the specs pinned with the tournament and hashed again here
(:mod:`.pins`): a worker whose copy differs refuses that tournament, says why once, and takes
other work. A compare's test is looked at after every board this worker commits; once decided,
the compare is marked finished, every worker stops its work on it at the next table, and the
boards they held are given back unplayed.

Bots are made once per tournament and worker process, and play one table at a time: a bot's
results must depend only on the table it plays (the bundled bots' do: their randomness is
seeded from the deal and the seat), else they would depend on which worker played which board
before.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from arena.storage.models import TournamentStatus
from arena.table import TableOutcome

from ..duplicate.settings import TournamentSettings
from ..play.arena import Arena, TableToPlay
from ..play.compare import Boards, CompareConfig, finish, load
from ..play.imposed import ImposedAuctions, SeatFactory, stored_auctions
from ..play.leases import LeaseKeeper
from ..play.runner import LEASE
from ..storage.work import MAX_FAILURES, Group, WorkQueue, backoff
from ..store import TournamentStore, new_worker_id
from .pins import Pin, mismatch, pin_of

log = logging.getLogger(__name__)

POLL = 2.0
"""Seconds between looks at the queue while there is nothing to claim."""
PAUSE_CAP = 60.0
"""The longest a worker pauses after failures in a row (2, 4, 8 ... seconds until then)."""

SayFn = Callable[[str], None]
GroupFn = Callable[[str], Awaitable[None]]


def say_line(line: str) -> None:
    print(line, flush=True)


class BotLoadError(ValueError):
    """A pinned bot that cannot be loaded here; the message says why."""


class LocalBots(Protocol):
    """The bot SDK as a worker needs it, handed in by the command line
    (:class:`tournaments.cli.local_bots.SdkBots`): ``tournaments`` imports the SDK only there."""

    def load(self, spec: str) -> Any: ...

    def resolve(self, spec: str) -> tuple[str, dict[str, Any]]: ...

    def arena(self, bots: Mapping[str, Any], imposed: ImposedAuctions | None) -> Arena: ...

    def auction_seat(self, bidder: Any) -> SeatFactory: ...


@dataclass
class Prepared:
    """A tournament as this worker plays it (or why it does not)."""

    settings: TournamentSettings
    compare: CompareConfig | None
    arena: Arena | None = None
    refused: str | None = None
    decided: bool = False
    boards: Boards | None = None
    """A compare's boards as this worker last read them (only newer ones are read again)."""


@dataclass
class Counts:
    groups: int = 0
    tables: int = 0
    failures: int = 0
    refused: dict[str, str] = field(default_factory=dict)


class Worker:
    """Plays queued groups until stopped (or, ``exit_when_idle``, until none is left).

    ``only``: the tournaments to play (None: any queued). ``wait_elsewhere``: when idle,
    whether to wait for boards that other workers hold (to replay them should their lease run
    out) before exiting. ``batch``: groups claimed at once (their leases are renewed while they
    wait). ``sleep``: how the worker waits (tests move a fake clock with it). ``bots``: bot
    objects by bot id to play ``only``'s tournaments with, instead of loading the pinned
    specs (``auction_bot``: an imposed compare's bidder, default the last bot's object).
    """

    def __init__(
        self, store: TournamentStore, local: LocalBots, *, name: str = "",
        only: set[str] | None = None, lease: float = LEASE, poll: float = POLL, batch: int = 1,
        exit_when_idle: bool = False, wait_elsewhere: bool = True, say: SayFn = say_line,
        after_group: GroupFn | None = None,
        sleep: Callable[[float], Awaitable[None]] = trio.sleep,
        bots: Mapping[str, Any] | None = None, auction_bot: Any = None,
    ) -> None:
        if batch < 1:
            raise ValueError("a batch holds at least one group")
        self.store = store
        self.local = local
        self.queue = WorkQueue(store)
        self.id = new_worker_id()
        self.name = name or self.id.rsplit(":", 1)[0]
        self.only = only
        self.lease = lease
        self.poll = poll
        self.batch = batch
        self.exit_when_idle = exit_when_idle
        self.wait_elsewhere = wait_elsewhere
        self.say = say
        self.after_group = after_group
        self.sleep = sleep
        self.bots = dict(bots) if bots is not None else None
        self.auction_bot = auction_bot
        self.counts = Counts()
        self._claims = itertools.count(1)
        self._prepared: dict[str, Prepared] = {}
        self._held: list[Group] = []
        self._leases: dict[str, str] = {}
        self._lost: set[str] = set()
        self._in_a_row = 0

    # --------------------------------------------------------------------------- running
    async def run(self) -> Counts:
        await trio.to_thread.run_sync(self.queue.register, self.id, self.name, os.getpid())
        failed: list[BaseException] = []
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._renew_leases)
                try:
                    await self._work()
                except (Exception, KeyboardInterrupt) as exc:  # raised below as it is, not
                    failed.append(exc)                          # in an exception group
                nursery.cancel_scope.cancel()
            if failed:
                raise failed[0]
        finally:
            with trio.CancelScope(shield=True):
                for group in self._held:
                    await trio.to_thread.run_sync(self.queue.release, group)
                self._held.clear()
                for tid in self._prepared:  # nothing plays here any more: resumable
                    await trio.to_thread.run_sync(self.store.settle_status, tid)
                await trio.to_thread.run_sync(functools.partial(
                    self.queue.report, self.id, f"stopped after {self.counts.groups} boards",
                    stopped=True))
        return self.counts

    async def _work(self) -> None:
        while True:
            if not self._held:
                await self._claim_batch()
            if not self._held:
                if self.exit_when_idle and await self._idle():
                    return
                await self.sleep(self.poll)
                continue
            group = self._held[0]
            await self._play_group(group)
            if self._held and self._held[0] is group:
                self._held.pop(0)

    async def _claim_batch(self) -> None:
        tournaments = (sorted(self.only) if self.only is not None
                       else await trio.to_thread.run_sync(self.queue.queued))
        for tid in tournaments:
            prepared = await self._prepare(tid)
            if prepared.refused is not None or prepared.decided:
                continue
            while len(self._held) < self.batch:
                claim = f"{self.id}/{next(self._claims)}"
                group = await trio.to_thread.run_sync(self.queue.claim, tid, claim, self.lease)
                if group is None:
                    break
                self._held.append(group)
                self._leases.update(group.leases)
            if self._held:
                return

    async def _idle(self) -> bool:
        """Nothing left for this worker: nothing claimable, no board waiting out a backoff,
        and (``wait_elsewhere``) nothing being played by another worker."""
        tournaments = (sorted(self.only) if self.only is not None
                       else await trio.to_thread.run_sync(self.queue.queued))
        for tid in tournaments:
            prepared = await self._prepare(tid)
            if prepared.refused is not None or prepared.decided:
                continue
            row = await trio.to_thread.run_sync(self.store.tournament, tid)
            if row.status not in (TournamentStatus.CREATED, TournamentStatus.RUNNING):
                continue
            if await trio.to_thread.run_sync(self.queue.waiting, tid):
                return False
            work = await trio.to_thread.run_sync(self.store.open_work, tid)
            if self.wait_elsewhere and work.live:
                return False
        return True

    # ------------------------------------------------------------------------- preparing
    async def _prepare(self, tid: str) -> Prepared:
        prepared = self._prepared.get(tid)
        if prepared is None:
            prepared = await trio.to_thread.run_sync(self._prepare_sync, tid)
            self._prepared[tid] = prepared
            if prepared.refused is not None:
                self.counts.refused[tid] = prepared.refused
                line = f"{self.name}: refused {tid}: {prepared.refused}"
                self.say(line)
                await trio.to_thread.run_sync(self.queue.report, self.id, line)
        return prepared

    def _prepare_sync(self, tid: str) -> Prepared:
        settings = self.store.settings(tid)
        compare = CompareConfig.from_json(settings.compare) if settings.compare else None
        prepared = Prepared(settings, compare)
        if self.bots is not None:
            bidder = self.auction_bot or self.bots.get(settings.bots[-1])
            prepared.arena = self.local.arena(self.bots, self._imposed(tid, compare, bidder))
            prepared.decided = compare is not None and self._decided(tid, prepared)
            return prepared
        stored = self.queue.pins(tid)
        missing = [b for b in settings.bots if b not in stored]
        if missing:
            prepared.refused = f"bots {', '.join(missing)} are not pinned to local code"
            return prepared
        bots: dict[str, Any] = {}
        here: dict[str, Pin] = {}
        try:
            for bot_id, pin in stored.items():
                bots[bot_id] = self.local.load(pin.spec)
                here[bot_id] = pin_of(pin.spec, bots[bot_id], self.local.resolve(pin.spec))
        except BotLoadError as exc:
            prepared.refused = str(exc)
            return prepared
        prepared.refused = mismatch(stored, here)
        if prepared.refused is not None:
            return prepared
        game = settings.rules.name
        away = [stored[b].spec for b in settings.bots if game not in bots[b].games]
        if away:
            prepared.refused = f"{', '.join(away)} do not play {game}"
            return prepared
        bidder = None
        if compare is not None and compare.imposed:
            bidder = self.local.load(stored[settings.bots[-1]].spec)  # the filler, or baseline
        prepared.arena = self.local.arena(bots, self._imposed(tid, compare, bidder))
        prepared.decided = compare is not None and self._decided(tid, prepared)
        return prepared

    def _imposed(self, tid: str, compare: CompareConfig | None, bidder: Any
                 ) -> ImposedAuctions | None:
        """Imposed boards: the auctions ``bidder`` (a bot of its own) bids, a board partly
        played keeping the auction its stored tables played."""
        if compare is None or not compare.imposed or bidder is None:
            return None
        return ImposedAuctions(self.local.auction_seat(bidder), bidder.display_name,
                               stored_auctions(self.store, tid))

    def _decided(self, tid: str, prepared: Prepared) -> bool:
        """Whether the compare's test has decided (it is then marked finished)."""
        _, _, boards = load(self.store, tid)
        prepared.boards = boards
        if boards.test.verdict is None:
            return False
        finish(self.store, tid)
        return True

    # --------------------------------------------------------------------------- playing
    async def _play_group(self, group: Group) -> None:
        tid, prepared = group.tournament_id, self._prepared[group.tournament_id]
        assert prepared.arena is not None
        started = time.monotonic()
        outcomes: dict[str, TableOutcome] = {}
        try:
            for table in group.tables:
                if await self._over(tid):
                    await self._give_back(tid)
                    return
                to_play = TableToPlay(table.table_id, table.board, table.state, table.bots,
                                      prepared.settings.time_control,
                                      prepared.settings.reveal_deals)
                outcomes[table.table_id] = await prepared.arena.play(to_play)
            stored = await trio.to_thread.run_sync(self.queue.commit, group, outcomes)
        except Exception as exc:
            await self._failed(group, exc)
            return
        finally:
            for table in group.tables:
                self._leases.pop(table.table_id, None)
        seconds = time.monotonic() - started
        if not stored:
            await trio.to_thread.run_sync(self.queue.release, group)  # what is still ours
            line = (f"{self.name}: {tid} board {group.board}: claim lost (its lease ran out): "
                    f"another worker replays it, nothing stored")
            self.say(line)
            await trio.to_thread.run_sync(self.queue.report, self.id, line)
            return
        self._in_a_row = 0
        self.counts.groups += 1
        self.counts.tables += len(group.tables)
        line = (f"{self.name}: {tid} board {group.board}: {len(group.tables)} tables in "
                f"{seconds:.1f} s")
        if prepared.boards is not None:
            boards = prepared.boards
            await trio.to_thread.run_sync(boards.refresh, self.store, tid)
            status = boards.test.status()
            line += (f", test at {status.boards} board{'s' if status.boards != 1 else ''}, "
                     f"LLR {status.llr:+.2f}")
            if status.verdict is not None:
                await trio.to_thread.run_sync(finish, self.store, tid)
                prepared.decided = True
                line += f": {status.verdict.value}"
        else:
            await trio.to_thread.run_sync(self.store.settle_status, tid)
        self.say(line)
        await trio.to_thread.run_sync(functools.partial(
            self.queue.report, self.id, line, groups=1, tables=len(group.tables),
            seconds=seconds))
        if prepared.decided:
            await self._give_back(tid)
        if self.after_group is not None:
            await self.after_group(tid)

    async def _over(self, tid: str) -> bool:
        """Whether the tournament is over (decided, finished or cancelled): its work stops."""
        row = await trio.to_thread.run_sync(self.store.tournament, tid)
        return row.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)

    async def _give_back(self, tid: str) -> None:
        """Give back every group held of a tournament that is over."""
        with trio.CancelScope(shield=True):
            for group in [g for g in self._held if g.tournament_id == tid]:
                await trio.to_thread.run_sync(self.queue.release, group)
                for table in group.tables:
                    self._leases.pop(table.table_id, None)
                self._held.remove(group)

    async def _failed(self, group: Group, exc: Exception) -> None:
        """Give the group back to be retried after its backoff, and pause this worker for a
        while that doubles with every failure in a row (a worker never retries in a loop)."""
        error = f"{type(exc).__name__}: {exc}".splitlines()[0]
        log.debug("board %s of %s failed", group.board, group.tournament_id, exc_info=exc)
        with trio.CancelScope(shield=True):
            failure = await trio.to_thread.run_sync(self.queue.fail, group, self.id, error)
        self._held.remove(group)
        self.counts.failures += 1
        self._in_a_row += 1
        pause = min(backoff(self._in_a_row), PAUSE_CAP)
        then = ("given up" if failure.given_up else
                f"retried in {backoff(failure.failures):g} s at the earliest")
        line = (f"{self.name}: {group.tournament_id} board {group.board} failed "
                f"({failure.failures} of {MAX_FAILURES} tries, {then}): {error}; pausing "
                f"{pause:g} s")
        self.say(line)
        await trio.to_thread.run_sync(functools.partial(self.queue.report, self.id, line,
                                                        failures=1))
        await self.sleep(pause)

    # ---------------------------------------------------------------------------- leases
    async def _renew_leases(self) -> None:
        """The held groups' leases, renewed by a thread (:mod:`tournaments.play.leases`)."""
        token = trio.lowlevel.current_trio_token()

        def lost(claims: dict[str, str]) -> None:  # in the keeper's thread
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(self._lost.update, claims)

        keeper = LeaseKeeper(self.store, self.lease, self._leases.copy, lost)
        keeper.start()
        try:
            await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(keeper.stop)
