"""The runner never stalls or dies on one table: it claims only tables it can seat, names the
bots it waits for, gives up cleanly after the seat timeout, and shares a database with other
runners (each claim its own worker id, leases renewed while a table plays).

The arena is a fake with the server's seating rule (a bot can sit at a table when one of its
connections has a table free); the deals are played for real by the table runner.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio

from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.table import PlayerInfo, TableOutcome, TableRunner
from tests.tournaments.test_store import QuietSeat, register
from tournaments.duplicate.settings import Seating, TournamentSettings
from tournaments.play.arena import BotAwayError, TableToPlay
from tournaments.play.runner import BotsMissingError, TournamentRunner
from tournaments.store import TournamentStore


class FakeArena:
    def __init__(self, tables_per_bot: dict[str, int], table_seconds: float = 0.0) -> None:
        self.capacity = dict(tables_per_bot)
        self.busy: Counter[str] = Counter()
        self.table_seconds = table_seconds
        self.played: list[str] = []
        self._changed = trio.Event()

    def connected_bots(self) -> dict[str, int]:
        return {bot: 1 for bot in self.capacity}

    def awaiting(self, bot_ids: Sequence[str], game: str = "french-tarot") -> list[str]:
        return [b for b in dict.fromkeys(bot_ids) if self.capacity.get(b, 0) <= self.busy[b]]

    async def wait_change(self) -> None:
        await self._changed.wait()

    def connect(self, bot_id: str, tables: int = 8) -> None:
        self.capacity[bot_id] = tables
        self._signal()

    def _signal(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    async def play(self, table: TableToPlay) -> TableOutcome:
        table_id, bot_ids = table.table_id, table.bots
        if self.awaiting(bot_ids):  # the real server would wait, then raise this
            raise BotAwayError(f"bots {self.awaiting(bot_ids)} cannot be seated")
        bots = set(bot_ids)
        self.busy.update(bots)
        try:
            await trio.sleep(self.table_seconds)
            rng = random.Random(table_id)
            seats = [QuietSeat(rng) for _ in bot_ids]
            players = [PlayerInfo(s, b, b) for s, b in enumerate(bot_ids)]
            runner = TableRunner(table_id, table.state, seats,  # type: ignore[arg-type]
                                 players, table.time_control)
            outcome = await runner.run()
            self.played.append(table_id)
            return outcome
        finally:
            self.busy.subtract(bots)
            self._signal()


def make_store(tmp_path: Path) -> TournamentStore:
    return TournamentStore(make_engine(f"sqlite:///{tmp_path}/arena.db"))


def names(store: TournamentStore, count: int) -> list[str]:
    """Bots registered as alice, bob, ...: progress must show these, not ids."""
    ids = register(store, count)
    from sqlmodel import Session

    from arena.storage.models import Bot

    with Session(store.engine) as session:
        for bot_id, name in zip(ids, ["alice", "bob", "carol", "dave", "erin", "frank"],
                                strict=False):
            row = session.get(Bot, bot_id)
            assert row is not None
            row.name = name
            session.add(row)
        session.commit()
    return ids


async def test_missing_bot_is_named_from_the_start_and_the_runner_gives_up_cleanly(
    tmp_path: Path,
) -> None:
    store = make_store(tmp_path)
    bots = names(store, 5)  # field: every table lacks one of the five
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), seating=Seating.FIELD,
                                          boards=4, seed=2))
    seated_without_erin = sum(bots[4] not in {s.bot_id for s in seats}
                              for _, seats in store.tables(tid))
    arena = FakeArena({b: 8 for b in bots[:4]})  # erin never connects
    seen: list[tuple[str, ...]] = []
    runner = TournamentRunner(store, arena, tid, concurrency=4, seat_timeout=0.3,
                              on_waiting=seen.append, recheck=0.05)
    with trio.fail_after(30), pytest.raises(BotsMissingError) as caught:
        await runner.run()
    # every table that erin is not at was played; the others wait for her, by name
    assert len(arena.played) == seated_without_erin > 0
    assert seen[0] == ("erin",)
    message = str(caught.value)
    assert "1 bot not connected (erin)" in message
    assert "more" not in message and bots[4] not in message
    assert "run the tournament again to resume" in message
    progress = store.progress(tid)
    assert (progress.done, progress.running) == (seated_without_erin, 0)
    assert store.tournament(tid).status is TournamentStatus.CREATED  # not "running"
    # erin connects: running it again plays only what is left
    arena.connect(bots[4])
    with trio.fail_after(30):
        standings = await TournamentRunner(store, arena, tid, seat_timeout=0.3).run()
    assert Counter(arena.played).most_common(1)[0][1] == 1
    assert store.progress(tid).done == progress.total
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert {r.bot_id for r in standings.rows} == set(bots)


async def test_several_missing_bots_are_all_named_and_counted(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=2))
    arena = FakeArena({bots[1]: 8})
    runner = TournamentRunner(store, arena, tid, seat_timeout=0.2, recheck=0.05)
    with trio.fail_after(30), pytest.raises(BotsMissingError,
                                            match=r"8 tables of .* wait for 3 bots not "
                                                  r"connected \(alice, carol, dave\)"):
        await runner.run()
    assert runner.waiting_for == ("alice", "carol", "dave")
    assert store.tournament(tid).status is TournamentStatus.CREATED


async def test_without_a_seat_timeout_the_runner_waits_for_late_bots(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=2))
    arena = FakeArena({})
    seen: list[tuple[str, ...]] = []
    runner = TournamentRunner(store, arena, tid, seat_timeout=None, on_waiting=seen.append)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        with trio.fail_after(10):
            while not seen:
                await trio.sleep(0.01)
        assert seen == [("alice", "bob", "carol", "dave")]
        assert not arena.played
        for bot in bots[::-1]:  # they come one by one; the list shrinks
            arena.connect(bot, tables=1)
            await trio.sleep(0.05)
        with trio.fail_after(30):
            while store.tournament(tid).status is not TournamentStatus.FINISHED:
                await trio.sleep(0.02)
    assert seen[-1] == ()
    assert all(set(later) < set(earlier) for earlier, later in itertools.pairwise(seen))
    assert sorted(arena.played) == sorted(t.id for t, _ in store.tables(tid))


async def test_a_table_is_never_claimed_for_a_bot_with_no_table_free(tmp_path: Path) -> None:
    # gauntlet: the reference sits at every table but plays one at a time
    store = make_store(tmp_path)
    bots = names(store, 2)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=2,
                                          seating=Seating.GAUNTLET))
    arena = FakeArena({bots[0]: 8, bots[1]: 1})
    with trio.fail_after(30):
        await TournamentRunner(store, arena, tid, concurrency=8, seat_timeout=1.0).run()
    assert len(arena.played) == 10 and len(set(arena.played)) == 10


async def test_two_arenas_on_one_database_each_play_the_tables_they_can_seat(
    tmp_path: Path,
) -> None:
    # the reference is connected to both arenas, the candidate only to the second: the first
    # can play only the control tables, and waits (without giving up) while the second plays
    store = make_store(tmp_path)
    candidate, reference = names(store, 2)
    tid = store.create(TournamentSettings(name="t", bots=(candidate, reference), boards=4,
                                          seating=Seating.GAUNTLET))
    first = FakeArena({reference: 8}, table_seconds=0.05)
    second = FakeArena({candidate: 8, reference: 8}, table_seconds=0.05)
    waits: list[tuple[str, ...]] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(TournamentRunner(store, first, tid, seat_timeout=0.2,
                                                on_waiting=waits.append, recheck=0.05).run)
            await trio.sleep(0.1)
            nursery.start_soon(TournamentRunner(store, second, tid, seat_timeout=0.2,
                                                recheck=0.05).run)
    played = Counter(first.played + second.played)
    assert set(played) == {t.id for t, _ in store.tables(tid)}
    assert set(played.values()) == {1}  # every table exactly once
    control = {t.id for t, seats in store.tables(tid) if {s.bot_id for s in seats} == {reference}}
    assert first.played and set(first.played) <= control
    assert ("alice",) in waits
    assert store.tournament(tid).status is TournamentStatus.FINISHED


async def test_leases_renewed_while_playing_keep_other_runners_off(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=2))
    # tables last several leases; without renewals the other runner would take them over
    # (a lease of 1.2 s renewed every 0.3 s leaves room for a loaded machine, where a
    # renewal can wait half a second for SQLite's write lock)
    arenas = [FakeArena({b: 8 for b in bots}, table_seconds=3.0) for _ in range(2)]
    runners = [TournamentRunner(store, a, tid, concurrency=4, lease=1.2, seat_timeout=5.0,
                                recheck=0.05) for a in arenas]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for runner in runners:
                nursery.start_soon(runner.run)
    played = Counter(arenas[0].played + arenas[1].played)
    assert len(played) == 8 and set(played.values()) == {1}
    # every claim had its own worker id, so no loop could touch a sibling's table
    workers = [t.claimed_by for t, _ in store.tables(tid)]
    assert len(set(workers)) == 8


async def test_a_crashed_runners_tables_are_taken_over_once_its_lease_runs_out(
    tmp_path: Path,
) -> None:
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    stuck = FakeArena({b: 8 for b in bots}, table_seconds=3600)
    # The lease outlasts the four claims however loaded the machine (a lease that ran out
    # before the last claim would let the crashed runner take its own table again).
    crashed = TournamentRunner(store, stuck, tid, concurrency=4, lease=2.0, seat_timeout=5.0)
    # a crash: no renewal and no release after this point (unlike a cancellation)
    crashed._renew_leases = trio.sleep_forever  # type: ignore[method-assign]
    crashed.store = TournamentStore(store.engine)
    crashed.store.release = lambda table_id, worker: None  # type: ignore[method-assign]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(crashed.run)
        with trio.fail_after(30):
            while store.progress(tid).running < 4:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()  # the crash, once its four tables are claimed
    assert store.progress(tid).running == 4
    healthy = FakeArena({b: 8 for b in bots})
    with trio.fail_after(30):
        await TournamentRunner(store, healthy, tid, seat_timeout=5.0, recheck=0.05).run()
    assert len(healthy.played) == 4
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert all(t.attempts == 2 for t, _ in store.tables(tid))


async def test_a_runner_waiting_for_bots_stops_when_its_tournament_is_cancelled(
    tmp_path: Path,
) -> None:
    from tournaments.play.manage import cancel_tournament

    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    seen: list[tuple[str, ...]] = []
    runner = TournamentRunner(store, FakeArena({}), tid, seat_timeout=None, recheck=0.05,
                              on_waiting=seen.append)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        with trio.fail_after(10):
            while not seen:
                await trio.sleep(0.01)
        await trio.to_thread.run_sync(cancel_tournament, store, tid)
        with trio.fail_after(10):
            while runner.waiting_for:  # it stops waiting, and returns
                await trio.sleep(0.01)
    assert store.tournament(tid).status is TournamentStatus.CANCELLED
    assert store.progress(tid).pending == 4
