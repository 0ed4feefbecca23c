"""Full random deals per second for 3, 4 and 5 players, in one process on one core.

A deal here is everything the arena does per deal: the seeded deal, every legal-action list,
every action applied and the settlement. Actions are picked uniformly at random among the legal
ones. The last line printed is a JSON object of the figures.

    python -m bench.engine [--deals N] [--repeats R]   (make bench)
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time

from arena.rules import GameState, TableOptions, apply, legal_actions


def play_random_deals(players: int, deals: int, seed: int) -> tuple[float, int]:
    """Seconds taken to play ``deals`` random deals, and the number of decisions made."""
    rnd = random.Random(seed).random
    options = TableOptions(players=players)
    decisions = 0
    start = time.perf_counter()
    for number in range(deals):
        state = GameState.from_seed(seed * 1_000_003 + number, options, dealer=number % players)
        while state.to_act is not None:
            legal = legal_actions(state)
            apply(state, legal[int(rnd() * len(legal))])
            decisions += 1
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals per run and player count")
    parser.add_argument("--repeats", type=int, default=3, help="runs per player count (best kept)")
    args = parser.parse_args()
    figures: dict[str, object] = {
        "python": platform.python_version(),
        "deals_per_run": args.deals,
        "repeats": args.repeats,
    }
    for players in (3, 4, 5):
        runs = [play_random_deals(players, args.deals, seed) for seed in range(args.repeats)]
        rates = [args.deals / seconds for seconds, _ in runs]
        decisions = runs[0][1] / args.deals
        best, median = max(rates), statistics.median(rates)
        print(
            f"{players} players: {best:8.0f} deals/s best, {median:8.0f} median "
            f"({decisions:.1f} decisions per deal, {best * decisions:,.0f} decisions/s)",
            file=sys.stderr,
        )
        figures[f"deals_per_second_{players}p"] = round(best)
        figures[f"deals_per_second_{players}p_median"] = round(median)
        figures[f"decisions_per_deal_{players}p"] = round(decisions, 1)
    figures["target_4p"] = 4000
    figures["meets_target_4p"] = figures["deals_per_second_4p"] >= 4000  # type: ignore[operator]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
