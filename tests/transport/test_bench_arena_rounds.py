"""``bench.arena --rounds``: the round of the median ratio is reported, its figures together,
each round's read against the echo right after it."""

from __future__ import annotations

from typing import Any

from bench.arena import Children, median_round, round_figures, run_echo


def a_round(decisions: float, round_trips: float, p50: float = 0.5,
            echo_p50: float = 0.25) -> dict[str, Any]:
    level = {"decisions_per_s": decisions, "p50_ms": p50, "server_cpu_us_per_decision": 200.0,
             "bots_cpu_s": 0.3, "decisions": 3000}
    echo = {"round_trips_per_s": round_trips, "p50_ms": echo_p50}
    return {"level": level, "echo": echo, "ratio": decisions / round_trips}


def test_the_round_of_the_median_ratio_is_kept_whole() -> None:
    slow_machine = a_round(3000, 4000)  # 0.75
    fast_machine = a_round(6000, 7500)  # 0.80
    odd = a_round(5000, 5500)  # 0.91
    assert median_round([odd, slow_machine, fast_machine]) is fast_machine
    # With an even count, the lower of the two middle rounds: the figure does not flatter.
    assert median_round([odd, fast_machine, slow_machine, a_round(1, 1)]) is fast_machine
    assert median_round([odd]) is odd


def test_a_rounds_figures_are_read_against_its_own_echo() -> None:
    figures = round_figures(a_round(4000, 5000, p50=0.6, echo_p50=0.3))
    assert figures["ratio"] == 0.8
    assert figures["p50_to_echo"] == 2.0
    assert figures["bots_cpu_us_per_decision"] == 100.0


def test_the_echo_across_the_bridge_is_read_against_the_bare_echo_and_the_arena() -> None:
    one = a_round(4000, 5000, p50=0.6, echo_p50=0.3)
    one["bridged_echo"] = {"round_trips_per_s": 4500.0, "p50_ms": 0.36,
                           "server_cpu_us_per_round_trip": 250.0}
    bridged = round_figures(one)["bridged_echo"]
    assert bridged["to_echo"] == 0.9 and bridged["p50_to_echo"] == 1.2
    assert bridged["arena_to_bridged"] == 0.889
    assert "bridged_echo" not in round_figures(a_round(4000, 5000))


def test_the_echo_across_the_bridge_plays_round_trips() -> None:
    """The floor of the stack, for real: a trio task per stream asks across the bridge, the
    bench's echo client answers (two processes, a fraction of a second)."""
    children = Children()
    try:
        figures = run_echo(children, 2, 0.3, bridged=True)
    finally:
        children.stop()
    assert figures["streams"] == 2 and figures["bridge"] in ("stepped", "thread")
    assert figures["round_trips"] > 10 and figures["p50_ms"] > 0


def test_the_sdk_bots_cpu_is_read_against_bare_bots_in_the_same_round() -> None:
    """With ``--bot-impl sdk``, the level played again by bots that only parse and answer: the
    SDK's CPU a decision beside theirs."""
    one = a_round(4000, 5000)  # the SDK's bots: 0.3 s for 3,000 decisions, 100 us each
    one["bare_bots"] = {"bots_cpu_s": 0.12, "decisions": 3000}
    figures = round_figures(one)
    assert figures["bare_bots_cpu_us_per_decision"] == 40.0
    assert figures["bots_cpu_to_bare"] == 2.5
    assert "bare_bots_cpu_us_per_decision" not in round_figures(a_round(4000, 5000))
    one["bare_bots"] = {"bots_cpu_s": 0.0, "decisions": 0}  # nothing played: no figure
    assert "bots_cpu_to_bare" not in round_figures(one)
