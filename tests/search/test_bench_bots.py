"""The search bot's bench: runs of a level on boards that follow one another, pooled by
``--combine``, pair board by board with a run of them all (``--paired``); a decision past its
limit on the CPU is caught where it spends its time; on the CPU clock a decision has its limit
of CPU time; ``--taker-speed`` times the taker's card decisions."""

from __future__ import annotations

import dataclasses
import json
import time
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.bots import (
    DecisionTimer,
    combine,
    lateness,
    main,
    on_cpu_clock,
    overrun_summary,
    paired_runs,
    taker_views,
    thread_schedule,
)
from clients.search_collector import COLLECTOR


def run(path: Path, level: str, first_board: int, values: list[float]) -> str:
    figures = {"level": level, "first_board": first_board, "boards": len(values),
               "values": values, "infractions": {}, "draws": 10, "seconds": 1.0}
    path.write_text(json.dumps({"seed": 1, "players": 4, "levels": [figures]}) + "\n")
    return str(path)


def test_pooled_runs_that_follow_one_another_pair_with_a_run_of_them_all(tmp_path: Path) -> None:
    whole = run(tmp_path / "whole.json", "20 draws", 0, [1.0, 2.0, 3.0, 4.0])
    parts = [run(tmp_path / "a.json", "20 draws x", 0, [2.0, 2.0]),
             run(tmp_path / "b.json", "20 draws x", 2, [5.0, 4.0])]
    pooled = tmp_path / "pooled.json"
    pooled.write_text(json.dumps(combine(parts)) + "\n")
    [comparison] = paired_runs(whole, str(pooled))
    assert comparison["boards"] == 4 and comparison["mean_difference"] == 0.75


def test_pooled_runs_with_a_gap_do_not_pair(tmp_path: Path) -> None:
    whole = run(tmp_path / "whole.json", "20 draws", 0, [1.0, 2.0, 3.0, 4.0, 5.0])
    parts = [run(tmp_path / "a.json", "20 draws x", 0, [2.0, 2.0]),
             run(tmp_path / "b.json", "20 draws x", 3, [5.0, 4.0])]
    pooled = tmp_path / "pooled.json"
    pooled.write_text(json.dumps(combine(parts)) + "\n")
    with pytest.raises(SystemExit, match="missing"):
        paired_runs(whole, str(pooled))


class Burner:
    """A stand-in for the search bot: its one decision method spends ``cpu`` seconds of CPU."""

    def __init__(self, cpu: float) -> None:
        self.cpu = cpu

    def method_for(self, request: object) -> Callable[[], str]:
        return self.spin

    def spin(self) -> str:
        until = time.process_time() + self.cpu
        while time.process_time() < until:
            pass
        return "done"


def test_a_decision_past_its_limit_on_the_cpu_is_caught_where_it_spends_it() -> None:
    bot = Burner(0.08)
    timer = DecisionTimer(bot, limit=0.02)  # type: ignore[arg-type]
    try:
        assert bot.method_for(None)() == "done"
        bot.cpu = 0.0
        bot.method_for(None)()
    finally:
        timer.close()
    [(_, _, over, stolen, schedule), (_, _, within, _, _)] = timer.take()
    assert stolen >= 0  # the host's steal time meanwhile, 0 where the machine keeps none
    if schedule is not None:  # Linux: the thread's wait for a CPU and the host's hold
        assert min(schedule) >= 0
    assert within == []
    assert over and all(at >= 0.02 for at, _ in over)
    [entry] = overrun_summary(over)
    assert entry["samples"] == len(over)
    assert str(entry["stack"][0]).endswith(" spin")  # type: ignore[index]


@dataclasses.dataclass(frozen=True)
class Asked:
    """The fields of a view and of a request that the CPU clock sets."""

    deadline: float | None = None
    time_limit: float = 60.0


class Recorder:
    """A stand-in for the search bot that keeps what its decision method was given."""

    def __init__(self) -> None:
        self.clock: Callable[[], float] = time.perf_counter
        self.tre = types.SimpleNamespace(clock=time.perf_counter)
        self.given: list[tuple[Asked, Asked, float]] = []

    def method_for(self, request: object) -> Callable[[Asked, Asked], str]:
        return self.decide

    def decide(self, view: Asked, request: Asked) -> str:
        self.given.append((view, request, time.process_time()))
        return "done"


def test_on_the_cpu_clock_a_decision_has_its_limit_of_cpu_from_when_it_begins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(COLLECTOR, "clock", COLLECTOR.clock)  # put back after the test
    bot = Recorder()
    on_cpu_clock(bot, 0.1)  # type: ignore[arg-type]
    assert bot.clock is bot.tre.clock is COLLECTOR.clock is time.process_time
    method = bot.method_for(None)
    assert method.__name__ == "decide"  # type: ignore[attr-defined]
    before = time.process_time()
    assert method(Asked(deadline=1e9), Asked(time_limit=60.0)) == "done"
    [(view, request, began)] = bot.given
    assert request.time_limit == 0.1
    assert view.deadline is not None and before + 0.1 <= view.deadline <= began + 0.1


def test_the_takers_speed_is_its_card_decisions_draws_per_cpu_second(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--taker-speed``: the taker's own card decisions only, each variant on the same ones,
    the bot's own replies (with 4 players, the heuristic's) when no option is given."""
    views = taker_views(4, 3, 2026)
    assert len(views) == 3
    for view, cards in views:
        assert view.seat == view.taker and len(cards) >= 2
    monkeypatch.setattr("sys.argv", ["bench.bots", "--taker-speed", "1", "--boards", "2",
                                     "--samples", "3", "--bot-options", "default", "replies=0"])
    main()
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["positions"] == 2 and figures["samples"] == 3 and figures["passes"] == 1
    with_replies, without = figures["variants"]
    assert with_replies["options"] == {} and with_replies["replies"] is True
    assert without["options"] == {"replies": 0} and without["replies"] is False
    for variant in (with_replies, without):
        assert variant["draws"] == 6 and variant["draws_per_cpu_second"] > 0


def test_the_threads_schedule_counts_its_time_on_a_cpu_and_not_its_sleep() -> None:
    before = thread_schedule()
    if before is None:
        pytest.skip("no scheduler statistics per thread on this system")
    wall = time.perf_counter()
    Burner(0.05).spin()
    time.sleep(0.05)  # asleep: neither on a CPU nor waiting for one
    took = time.perf_counter() - wall
    after = thread_schedule()
    assert after is not None
    ran, waited = after[0] - before[0], after[1] - before[1]
    assert 0.045 <= ran <= took - 0.045
    assert 0 <= waited <= took - ran


def test_a_late_decision_is_the_bots_own_only_when_neither_the_host_nor_a_long_wait_explains_it(
) -> None:
    limit = 0.1
    # The host paused the virtual CPU 100 ms while the thread ran on it.
    assert not lateness(0.13, 0.03, 0.1, (0.0, 0.1), limit)["its_own"]
    # It paused the virtual CPU the thread was queued on: the wait is the host's, up to the steal.
    assert not lateness(0.12, 0.005, 0.1, (0.115, 0.0), limit)["its_own"]
    # A wait in this machine's queue as long as half the limit: more than the bot keeps in hand.
    assert not lateness(0.11, 0.05, 0.0, (0.06, 0.0), limit)["its_own"]
    # Its own work past the limit, or a short wait it should have kept in hand: its own.
    assert lateness(0.104, 0.104, 0.0, (0.0, 0.0), limit)["its_own"]
    assert lateness(0.11, 0.08, 0.0, (0.03, 0.0), limit)["its_own"]
    # A wait longer than the steal: the rest of it was this machine's queue.
    why = lateness(0.28, 0.07, 0.1, (0.17, 0.04), limit)
    assert why["host_ms"] == 100.0 and not why["its_own"]  # 110 ms queued beyond the host's
    # Without the thread's statistics all its time off the CPU counts as waiting.
    assert lateness(0.11, 0.08, 0.0, None, limit)["its_own"]
