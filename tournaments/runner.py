"""Runs a stored tournament: claim a table, play it on the arena, commit it, repeat.

Several of these loops run at once in one process (``concurrency``), and several processes may
share one PostgreSQL database: all the state, the remaining work included, is in the database.
A table interrupted by a crash is replayed from its start by whoever claims it next.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import trio

from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer

from .duplicate import Standings, compute_standings
from .settings import TournamentSettings
from .store import ClaimedTable, Progress, TournamentStore, new_worker_id

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TableDone:
    table_id: str
    board: int
    infractions: int
    progress: Progress


ProgressFn = Callable[[TableDone], None]


class TournamentRunner:
    def __init__(
        self,
        store: TournamentStore,
        server: ArenaServer,
        tournament_id: str,
        concurrency: int = 8,
        lease: float = 60.0,
        seat_timeout: float = 60.0,
        on_table_done: ProgressFn | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.store = store
        self.server = server
        self.tournament_id = tournament_id
        self.concurrency = concurrency
        self.lease = lease
        self.seat_timeout = seat_timeout
        self.on_table_done = on_table_done
        self.worker = new_worker_id()
        self.running: set[str] = set()

    async def run(self) -> Standings:
        """Play every remaining table, then the standings (complete once all are done)."""
        store, tid = self.store, self.tournament_id
        settings = await trio.to_thread.run_sync(store.settings, tid)
        freed = await trio.to_thread.run_sync(store.release_dead_claims, tid)
        if freed:
            log.info("%d interrupted tables of %s will be replayed", freed, tid)
        await trio.to_thread.run_sync(store.set_status, tid, TournamentStatus.RUNNING)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._renew_leases)
            async with trio.open_nursery() as workers:
                for _ in range(self.concurrency):
                    workers.start_soon(self._work, settings)
            nursery.cancel_scope.cancel()
        progress = await trio.to_thread.run_sync(store.progress, tid)
        if progress.pending == progress.running == 0:
            await trio.to_thread.run_sync(store.set_status, tid, TournamentStatus.FINISHED)
        return await self.standings()

    async def standings(self) -> Standings:
        settings = await trio.to_thread.run_sync(self.store.settings, self.tournament_id)
        entries = await trio.to_thread.run_sync(self.store.entries, self.tournament_id)
        return compute_standings(entries, settings.penalties, settings.scoring)

    async def _work(self, settings: TournamentSettings) -> None:
        while True:
            claim: ClaimedTable | None = await trio.to_thread.run_sync(
                self.store.claim_next, self.tournament_id, self.worker, self.lease
            )
            if claim is None:
                return
            self.running.add(claim.table_id)
            try:
                outcome = await self.server.play_table(
                    claim.table_id, claim.deal, settings.table_options, claim.bots,
                    settings.time_control, seat_timeout=self.seat_timeout,
                    reveal=settings.reveal_deals,
                )
                stored = await trio.to_thread.run_sync(
                    self.store.finish, claim.table_id, self.worker, outcome
                )
            except BaseException:
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(self.store.release, claim.table_id, self.worker)
                raise
            finally:
                self.running.discard(claim.table_id)
            if not stored:
                log.warning("table %s was taken over by another worker", claim.table_id)
                continue
            if self.on_table_done is not None:
                progress = await trio.to_thread.run_sync(self.store.progress, self.tournament_id)
                self.on_table_done(
                    TableDone(claim.table_id, claim.board, len(outcome.infractions), progress)
                )

    async def _renew_leases(self) -> None:
        while True:
            await trio.sleep(self.lease / 3)
            await trio.to_thread.run_sync(
                self.store.renew, sorted(self.running), self.worker, self.lease
            )
