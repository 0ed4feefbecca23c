"""Tre e Venticinque: the heuristic policy against the random one, duplicate, in-process.

Each board (a seeded deal, the dealer rotating) is played three times, the heuristic in seat 0,
1 and 2 in turn and the random policy in the two other seats, so every hand of the board is
held once by the heuristic: the luck of the cards cancels. A board's value is the heuristic's
mean score over its three seats minus the random players' mean over theirs, in points; the
figure is the mean over boards with its 95 % t interval (the board is the unit), and the
heuristic is significantly stronger when the interval's low end is above 0. As a scale: a fair
share of a deal is 77 2/3 / 3 = 25 8/9 points. The last line printed is a JSON object of the
figures.

    python -m bench.tre_heuristic [--boards N]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable

from arena.games.tre_e_venticinque import Action, DealState, Observation, apply, observe
from clients.tre_heuristic import heuristic_choice, random_choice
from tournaments.duplicate.stats import mean_interval

Policy = Callable[[Observation], Action]


def play(seed: int, dealer: int, policies: list[Policy]) -> tuple[int, ...]:
    """The points (thirds of a point, by seat: the seed's count) of one deal, each seat played
    by its policy from its own observation."""
    state = DealState.from_seed(seed, dealer)
    while state.to_act is not None:
        seat = state.to_act
        apply(state, policies[seat](observe(state, seat)), seat)
    assert state.result is not None
    return state.result.points


def board_margin(board: int) -> float:
    """The heuristic's mean score minus the random players' on one board, in points."""
    seed = board * 0x9E3779B97F4A7C15 % 2**64
    heuristic, others = 0, 0
    for seat in range(3):
        rng = random.Random(board * 3 + seat)

        def rand(observation: Observation, rng: random.Random = rng) -> Action:
            return random_choice(observation, rng)

        policies: list[Policy] = [rand, rand, rand]
        policies[seat] = heuristic_choice
        scores = play(seed, board % 3, policies)
        heuristic += scores[seat]
        others += sum(scores) - scores[seat]
    return (heuristic / 3 - others / 6) / 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    args = parser.parse_args()
    start = time.perf_counter()
    margins = [board_margin(board) for board in range(args.boards)]
    seconds = time.perf_counter() - start
    interval = mean_interval(margins)
    wins = sum(1 for m in margins if m > 0)
    print(
        f"heuristic minus random, {args.boards} boards x 3 seats: {interval.mean:+.2f} points "
        f"per deal, 95 % interval [{interval.low:+.2f}, {interval.mean + interval.half_width:+.2f}]"
        f"; heuristic ahead on {wins} boards; {seconds:.1f} s",
        file=sys.stderr,
    )
    print(json.dumps({
        "boards": args.boards,
        "margin_points_mean": round(interval.mean, 3),
        "margin_points_ci95_low": round(interval.low, 3),
        "margin_points_ci95_high": round(interval.mean + interval.half_width, 3),
        "boards_heuristic_ahead": wins,
        "significant": interval.low > 0,
    }))


if __name__ == "__main__":
    main()
