"""The work queue in one process: whole boards claimed once, a lost claim's late commit
refused, failures backed off and given up, a worker refusing bots pinned to other code."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
import trio

from arena.storage.db import make_engine
from arena.storage.models import TableStatus, TournamentStatus
from clients.random_bot import RandomBot
from tournaments.cli.local_bots import SdkBots
from tournaments.duplicate.sprt import SprtSettings, Units
from tournaments.play.compare import CompareError, load
from tournaments.storage import lifecycle
from tournaments.storage.work import BACKOFF, BACKOFF_CAP, MAX_FAILURES, WorkQueue, backoff
from tournaments.store import TournamentStore
from tournaments.work.compares import play_here
from tournaments.work.pins import mismatch, pin_of
from tournaments.work.worker import Worker

from .helpers import HEURISTIC, NEVER_BIDS, queued_compare


class Clock:
    """The store's clock, moved by hand (and by the workers' fake sleep)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def move(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def clocked(url: str) -> tuple[TournamentStore, Clock]:
    clock = Clock()
    return TournamentStore(make_engine(url), clock=clock), clock


def test_a_board_is_claimed_whole_by_one_worker_and_committed_once(db_url: str) -> None:
    store, clock = clocked(db_url)
    tid = queued_compare(store)
    queue = WorkQueue(store)
    first = queue.claim(tid, "a:1:x/1", lease=10)
    second = queue.claim(tid, "b:2:y/1", lease=10)
    assert first is not None and second is not None
    assert (first.board, second.board) == (0, 1)  # board order
    assert len(first.tables) == len(second.tables) == 4  # 3 players: a seat each + control
    assert {t.board for t in first.tables} == {0}
    # the first worker is killed: once its lease ran out, the board is replayed from scratch
    clock.move(11)
    again = queue.claim(tid, "b:2:y/2", lease=10)
    assert again is not None and again.board == 0
    assert all(t.attempt == 2 for t in again.tables)
    outcomes = _played(store, again)
    assert not queue.commit(dataclasses.replace(again, claim="a:1:x/1"), outcomes)  # late
    assert queue.commit(again, outcomes)
    assert not queue.commit(again, outcomes)  # exactly once
    done = [t for t, _ in store.tables(tid) if t.status is TableStatus.DONE]
    assert sorted(t.board_number for t in done) == [0] * 4
    assert {t.claimed_by for t in done} == {"b:2:y/2"}


def _played(store: TournamentStore, group: object) -> dict[str, object]:
    """The group's tables played by random bots (a table's result, whoever plays it)."""
    from clients.local import LocalArena
    from tournaments.play.arena import TableToPlay

    settings = store.settings(group.tournament_id)  # type: ignore[attr-defined]
    arena = LocalArena({b: RandomBot(1) for b in settings.bots})

    async def main() -> dict[str, object]:
        return {t.table_id: await arena.play(TableToPlay(t.table_id, t.board, t.state, t.bots,
                                                         settings.time_control))
                for t in group.tables}  # type: ignore[attr-defined]

    return trio.run(main)


def test_failures_back_off_exponentially_and_a_board_is_given_up(db_url: str) -> None:
    store, clock = clocked(db_url)
    tid = queued_compare(store)
    queue = WorkQueue(store)
    waits = []
    for attempt in range(1, MAX_FAILURES + 1):
        group = queue.claim(tid, f"a:1:x/{attempt}", lease=10)
        assert group is not None and group.board == 0
        failure = queue.fail(group, "a:1:x", "RuntimeError: boom")
        assert failure.failures == attempt
        waits.append((failure.retry_at - clock.now).total_seconds())
        other = queue.claim(tid, f"b:1:x/{attempt}", lease=10)  # board 0 waits: board 1 next
        assert other is not None and other.board == 1
        queue.release(other)
        clock.move(waits[-1] - 0.5)
        assert queue.waiting(tid) is not failure.given_up  # waits, unless given up
        clock.move(1)
    assert waits == [BACKOFF * 2 ** k for k in range(MAX_FAILURES)]
    assert backoff(50) == BACKOFF_CAP
    assert failure.given_up and not queue.waiting(tid)
    clock.move(BACKOFF_CAP * 10)
    group = queue.claim(tid, "a:1:x/99", lease=10)
    assert group is not None and group.board == 1  # board 0 never again
    queue.release(group)
    # a compare queued for workers, its failures and pins, is deleted like any tournament
    assert lifecycle.delete_unless_playing(store.engine, tid) is not None
    assert queue.pins(tid) == {} and queue.failures(tid) == []


def test_a_worker_that_keeps_failing_pauses_longer_each_time_and_stops(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every board fails: each is retried after its backoff only, the worker pauses for
    bounded, growing times, and the compare stops with the board given up, in one line."""
    from clients.local import LocalArena

    async def broken(self: object, table: object) -> object:
        raise RuntimeError("the arena is broken")

    monkeypatch.setattr(LocalArena, "play", broken)
    store, clock = clocked(db_url)
    tid = queued_compare(store, settings=SprtSettings(0, 10, Units.POINTS, max_boards=2,
                                                      min_boards=2))
    pauses: list[float] = []
    lines: list[str] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        clock.move(seconds)
        await trio.lowlevel.checkpoint()

    worker = Worker(store, SdkBots(), only={tid}, exit_when_idle=True, say=lines.append,
                    sleep=sleep)
    counts = trio.run(worker.run)
    failures = WorkQueue(store).failures(tid)
    assert counts.groups == 0
    assert counts.failures == sum(f.failures for f in failures)
    assert all(f.failures <= MAX_FAILURES for f in failures)
    assert failures[0].given_up and failures[0].board == 0
    assert max(pauses) <= 60 and pauses[:3] == [2.0, 4.0, 8.0]
    assert "board 0 failed (1 of 5 tries, retried in 2 s at the earliest): RuntimeError: the " \
           "arena is broken" in lines[0]
    with pytest.raises(CompareError, match=r"board 0 of cmp_\w+ failed 5 times \(last on .*"
                                           r"RuntimeError: the arena is broken\) and was given"):
        trio.run(play_here, store, tid, {}, SdkBots())
    # the failures are the worker's too, for its flag
    (row,) = WorkQueue(store).workers([worker.id])
    assert row.failures == counts.failures and row.stopped


def test_a_worker_refuses_a_compare_pinned_to_other_code_and_plays_another(
        tmp_path: object) -> None:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    queue = WorkQueue(store)
    pinned = queued_compare(store, seed=1)
    stored = queue.pins(pinned)
    candidate = store.settings(pinned).bots[0]
    forged = {b: dataclasses.replace(p, code_hash="0" * 64) if b == candidate else p
              for b, p in stored.items()}
    other = queued_compare(store, seed=2, settings=SprtSettings(0, 10, Units.POINTS,
                                                                max_boards=2, min_boards=2))
    from sqlmodel import Session, delete

    from arena.storage.models import WorkPin

    with Session(store.engine) as session:  # the first compare was queued from other code
        session.execute(delete(WorkPin).where(
            WorkPin.tournament_id == pinned))  # type: ignore[arg-type]
        session.commit()
    queue.pin(pinned, forged)
    lines: list[str] = []
    worker = Worker(store, SdkBots(), exit_when_idle=True, say=lines.append)
    counts = trio.run(worker.run)
    assert counts.refused.keys() == {pinned}
    refusal = counts.refused[pinned]
    assert "\n" not in refusal
    assert refusal.startswith(f"bot {HEURISTIC} differs from the code pinned (sha256 "
                              f"000000000000 there, ")
    assert "over clients.heuristic_bot" in refusal
    assert lines.count(f"{worker.name}: refused {pinned}: {refusal}") == 1  # said once
    assert store.progress(pinned).done == 0
    assert store.tournament(other).status is TournamentStatus.FINISHED
    assert load(store, other)[2].test.verdict is not None


def test_a_pin_covers_the_bot_and_its_own_base_classes_not_the_sdk() -> None:
    from clients.run import load_bot

    sdk = SdkBots()
    never = pin_of(NEVER_BIDS, load_bot(NEVER_BIDS, {}), sdk.resolve(NEVER_BIDS))
    heuristic = pin_of(HEURISTIC, load_bot(HEURISTIC, {}), sdk.resolve(HEURISTIC))
    assert never.files == ("tests.compare.weaker", "clients.heuristic_bot")
    assert heuristic.files == ("clients.heuristic_bot",)
    assert pin_of(HEURISTIC, load_bot(HEURISTIC, {}), sdk.resolve(HEURISTIC)) == heuristic
    assert never.code_hash != heuristic.code_hash
    assert mismatch({"b": heuristic}, {"b": heuristic}) is None
    assert mismatch({"b": heuristic}, {}) == "bot heuristic cannot be loaded here"
