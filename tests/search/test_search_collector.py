"""The search bots' hold on the garbage collector (clients/search_collector.py)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from clients.search_collector import Collector


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """Each test leaves the process's collector as it found it (switch and thresholds)."""
    enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.enable()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        (gc.enable if enabled else gc.disable)()


class Collections:
    """The generations the collector collects while it is listened to."""

    def __init__(self) -> None:
        self.generations: list[int] = []

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.generations.append(info["generation"])

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self)


def test_off_during_a_search_and_on_after() -> None:
    collector = Collector()
    with collector.held():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_no_collection_pending_when_a_search_ends() -> None:
    """The bug it fixes: objects made during a search left the youngest generation over its
    threshold, so the first allocations after the search (the answer) ran a collection."""
    collector = Collector()
    with Collections() as seen:
        with collector.held():
            kept = [[i] for i in range(5 * gc.get_threshold()[0])]
        assert seen.generations == [0]  # the youngest, while still off
        after = [[i] for i in range(gc.get_threshold()[0] // 2)]
    assert seen.generations == [0]
    assert len(kept) > len(after)


def test_plain_disable_and_enable_leaves_one_pending() -> None:
    """The same search with the collector merely switched off and on: a collection comes
    with the answer's first allocations (why the module exists; if CPython changes this, the
    module's reason goes with it)."""
    with Collections() as seen:
        gc.disable()
        kept = [[i] for i in range(5 * gc.get_threshold()[0])]
        gc.enable()
        after = [[i] for i in range(10)]
    assert seen.generations != []
    assert len(kept) > len(after)


def test_a_collector_switched_off_by_its_user_stays_off() -> None:
    gc.disable()
    with Collector().held():
        pass
    assert not gc.isenabled()


def test_off_until_the_last_of_several_threads_searching_ends() -> None:
    collector = Collector()
    inside, leave = threading.Event(), threading.Event()

    def search() -> None:
        with collector.held():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=search)
    with collector.held():
        thread.start()
        assert inside.wait(5)
    assert not gc.isenabled()  # the other search still runs
    leave.set()
    thread.join(5)
    assert gc.isenabled()


def make_due() -> None:
    """The oldest generation's count over its (lowered) threshold."""
    gc.set_threshold(gc.get_threshold()[0], gc.get_threshold()[1], 1)
    gc.collect()
    gc.collect(1)
    gc.collect(1)
    assert gc.get_count()[2] == 2


def test_a_forced_card_takes_the_full_collection_when_one_is_near() -> None:
    collector = Collector()
    gc.collect()
    assert not collector.due()
    collector.spare(deadline=None)
    assert collector.full_collections == 0
    make_due()
    with Collections() as seen:
        collector.spare(deadline=None)
    assert seen.generations == [2]
    assert collector.full_collections == 1
    assert gc.get_count()[2] == 0


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_full_collection_waits_for_a_decision_with_time_for_it() -> None:
    clock = FakeClock()
    collector = Collector(clock)
    collector.full_cost, collector.full_collections = 0.08, 1  # as measured before
    make_due()
    collector.spare(deadline=clock.now + 0.1)  # 80 ms is more than half of 100
    assert collector.full_collections == 1
    assert collector.full_cost == pytest.approx(0.072)  # it fades each time it keeps one out
    collector.spare(deadline=clock.now + 0.2)
    assert collector.full_collections == 2


def test_a_cost_a_loaded_machine_inflated_fades_until_one_runs_again() -> None:
    clock = FakeClock()
    collector = Collector(clock)
    collector.full_cost, collector.full_collections = 0.16, 1
    make_due()
    calls = 0
    while collector.full_collections == 1 and calls < 100:
        collector.spare(deadline=clock.now + 0.1)
        calls += 1
    # Kept out while 0.16 * 0.9 ** k is over half the 100 ms: k = 0 to 11; the 13th call runs.
    assert calls == 13


def test_the_first_full_collection_is_made_and_timed_as_a_bot_starts() -> None:
    clock = FakeClock()
    collector = Collector(clock)
    collector.measure()
    assert collector.full_collections == 1
    collector.measure()
    assert collector.full_collections == 1


def test_a_search_collects_first_only_when_long_overdue_and_the_cost_is_known() -> None:
    clock = FakeClock()
    collector = Collector(clock)
    make_due()  # count 2, threshold 1: overdue (twice the threshold is not passed yet)
    with collector.held(clock.now + 1.0):
        pass
    assert collector.full_collections == 0
    gc.collect(1)  # count 3
    with collector.held(clock.now + 1.0):
        pass
    assert collector.full_collections == 0  # the first cost is not known: wait for a forced card
    collector.full_cost, collector.full_collections = 0.01, 1
    with collector.held(clock.now + 1.0):
        assert not gc.isenabled()
    assert collector.full_collections == 2
