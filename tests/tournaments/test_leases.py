"""Leases hold whatever the loop is doing: a bot that hogs the CPU in the arena's process keeps
its table, a lone arena never loses a claim to itself, and a real takeover (another arena, once
the lease ran out) is still replayed exactly and stored once.

The arena is the fake of ``test_waiting`` (the server's seating rule, deals played for real by
the table runner); the hogging bot blocks the trio loop synchronously, as a CPU-heavy bot of
``compare --local`` does.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.table import DecisionRequest, PlayerInfo, TableOutcome, TableRunner
from tests.tournaments.test_store import QuietSeat
from tests.tournaments.test_waiting import FakeArena, make_store, names
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.arena import TableToPlay
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

LEASE = 0.3
HOG_LEASE = 0.6
"""The lease of the hogging test: renewals wait for SQLite's write lock, which takes a few
tenths of a second on a loaded machine."""
HOG = 1.5
"""Seconds a hogging decision holds the loop: well past the lease."""


class HoggingSeat(QuietSeat):
    """Its first ``hogs`` decisions each hold the loop (and the CPU) for :data:`HOG` s."""

    def __init__(self, rng: random.Random, hogs: int) -> None:
        super().__init__(rng)
        self.hogs = hogs

    async def ask(self, request: DecisionRequest) -> object:
        if self.hogs:
            self.hogs -= 1
            end = time.perf_counter() + HOG
            while time.perf_counter() < end:  # no checkpoint: nothing else runs in trio
                pass
        return await super().ask(request)


class RecordingArena(FakeArena):
    """The fake arena, keeping each table's outcome; seat 0 of each table hogs ``hogs``
    times."""

    def __init__(self, bots: list[str], hogs: int = 0, table_seconds: float = 0.0) -> None:
        super().__init__({b: 8 for b in bots}, table_seconds)
        self.hogs = hogs
        self.outcomes: dict[str, TableOutcome] = {}

    async def play(self, table: TableToPlay) -> TableOutcome:
        if not self.hogs:
            outcome = await super().play(table)
        else:
            rng = random.Random(table.table_id)
            seats = [HoggingSeat(rng, self.hogs if seat == 0 else 0)
                     for seat in range(len(table.bots))]
            players = [PlayerInfo(s, b, b) for s, b in enumerate(table.bots)]
            outcome = await TableRunner(table.table_id, table.state, seats,  # type: ignore[arg-type]
                                        players, table.time_control).run()
            self.played.append(table.table_id)
        self.outcomes[table.table_id] = outcome
        return outcome


def lease_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("tournaments.play")
            and r.levelno >= logging.WARNING]


async def test_a_bot_that_hogs_the_loop_past_the_lease_keeps_its_claim(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Each table's first decisions hold the loop for longer than the lease: renewed from
    the loop, the lease ran out, the runner claimed its own tables again and played them
    twice, and told that the first results would not be stored."""
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    arena = RecordingArena(bots, hogs=1)
    runner = TournamentRunner(store, arena, tid, concurrency=8, lease=HOG_LEASE,
                              seat_timeout=5.0, recheck=0.02)
    with caplog.at_level(logging.INFO), trio.fail_after(60):
        await runner.run()
    tables = store.tables(tid)
    assert Counter(arena.played) == Counter({t.id: 1 for t, _ in tables})  # each played once
    assert all(t.attempts == 1 and t.status.value == "done" for t, _ in tables)
    assert lease_lines(caplog) == []
    assert not [r for r in caplog.records if "claimed again" in r.getMessage()]


async def test_a_lone_arena_whose_lease_ran_out_keeps_the_table_it_plays(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The database refuses renewals for longer than the lease (until the dispatcher has
    claimed every table again): the tables playing here go on under the new claims, played
    once and stored once."""
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    renew, claim_next = store.renew, store.claim_next
    claims: list[str] = []

    def counted_claim(*args: Any) -> Any:
        claim = claim_next(*args)
        if claim is not None:
            claims.append(claim.table_id)
        return claim

    def flaky_renew(*args: Any) -> list[str]:
        times = Counter(claims)
        if len(times) < 4 or min(times.values()) < 2:  # each table claimed, then again
            raise OSError("could not connect to server")
        return renew(*args)

    monkeypatch.setattr(store, "renew", flaky_renew)
    monkeypatch.setattr(store, "claim_next", counted_claim)
    arena = RecordingArena(bots, table_seconds=8 * LEASE)
    runner = TournamentRunner(store, arena, tid, concurrency=8, lease=LEASE,
                              seat_timeout=5.0, recheck=0.02)
    with caplog.at_level(logging.INFO), trio.fail_after(60):
        await runner.run()
    tables = store.tables(tid)
    assert Counter(arena.played) == Counter({t.id: 1 for t, _ in tables})
    assert all(t.status.value == "done" for t, _ in tables)
    assert all(t.attempts >= 2 for t, _ in tables)  # claimed again while played here
    assert [r.getMessage() for r in caplog.records if "claimed again" in r.getMessage()]
    lines = lease_lines(caplog)
    assert re.fullmatch(r"the leases of \d tables? could not be renewed \(could not connect to "
                        r"server\): trying again every 0.075 s", lines[0])
    assert lines[1:] == ["the leases are renewed again"]


async def test_a_real_takeover_is_replayed_exactly_and_stored_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """An arena whose renewals stop (its database link is gone) loses its table to another
    arena once the lease ran out: the other replays it from its start and stores it; the
    first one's result is not stored, and it says so once."""
    store = make_store(tmp_path)
    bots = names(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    cut_off = TournamentStore(store.engine)

    def no_link(*_args: Any) -> list[str]:
        raise OSError("no route to host")

    cut_off.renew = no_link  # type: ignore[method-assign]
    claim_once = cut_off.claim_next

    def claim_nothing_more(*args: Any) -> Any:  # the link went down after its first claim
        cut_off.claim_next = lambda *_args: None  # type: ignore[method-assign]
        return claim_once(*args)

    cut_off.claim_next = claim_nothing_more  # type: ignore[method-assign]
    slow = RecordingArena(bots, table_seconds=10 * LEASE)
    healthy = RecordingArena(bots)
    first = TournamentRunner(cut_off, slow, tid, concurrency=1, lease=LEASE, seat_timeout=5.0,
                             recheck=0.02)
    with caplog.at_level(logging.INFO), trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(first.run)
            while not first.running:
                await trio.sleep(0.01)
            (lost_table,) = first.running
            await trio.sleep(2 * LEASE)
            nursery.start_soon(TournamentRunner(store, healthy, tid, seat_timeout=5.0,
                                                recheck=0.02).run)
    tables = {t.id: (t, seats) for t, seats in store.tables(tid)}
    assert slow.played == [lost_table]
    assert sorted(healthy.played) == sorted(tables)  # the lost table too, from its start
    row, seats = tables[lost_table]
    assert row.status.value == "done" and row.attempts == 2
    assert row.record_json == healthy.outcomes[lost_table].record.dumps()
    assert [s.score for s in seats] == list(healthy.outcomes[lost_table].result.scores)
    assert store.progress(tid).done == len(tables)
    told = [line for line in lease_lines(caplog) if lost_table in line]
    assert told == [f"table {lost_table} was taken over by another arena: this result is not "
                    "stored"]
