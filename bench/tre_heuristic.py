"""Tre e Venticinque: the heuristic against the random policy, and the search bot against the
heuristic; duplicate, in-process.

Each board (a seeded deal, the dealer rotating) is played three times, the heuristic in seat 0,
1 and 2 in turn and the random policy in the two other seats, so every hand of the board is
held once by the heuristic: the luck of the cards cancels. A board's value is the heuristic's
mean score over its three seats minus the random players' mean over theirs, in points; the
figure is the mean over boards with its 95 % t interval (the board is the unit), and the
heuristic is significantly stronger when the interval's low end is above 0. As a scale: a fair
share of a deal is 77 2/3 / 3 = 25 8/9 points. The last line printed is a JSON object of the
figures.

    python -m bench.tre_heuristic [--boards N]

With ``--search``, the search bot (:class:`clients.tre_bots.TreSearchBot`) against the heuristic
(:class:`clients.tre_bots.TreHeuristicBot`) in a pure duplicate gauntlet, as ``bench.bots``
plays French Tarot's: on each board the search bot plays once in every seat among two heuristic
fillers, and the board is also played by three heuristics (deterministic: one deal gives the
heuristic's result in every seat). A board's value is the mean over seats of (the search bot's
points - the heuristic's points in that seat, same cards, same fillers); the 95 % t interval is
over boards. The tables are played through the table runner in-process
(:class:`clients.local.LocalArena`), so a late answer is a timeout infraction, as on the arena.
Boards are dealt as a stored tournament of seed ``--seed`` deals them. ``--levels`` gives the
search bot that many milliseconds per decision; ``--samples`` a fixed number of draws instead
(reproducible, so the machine's load does not change the result).

    python -m bench.tre_heuristic --search [--samples 20] [--levels 100] [--boards 200]
        [--first-board K]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import trio

from arena.games.tre_e_venticinque import (
    TRE_E_VENTICINQUE,
    Action,
    DealState,
    Observation,
    TableOptions,
    apply,
    observe,
)
from arena.table import TimeControl
from bench.bots import DecisionTimer, interval_figures, lateness, search_rates
from clients.local import LocalArena
from clients.tre_bots import TreHeuristicBot, TreSearchBot
from clients.tre_heuristic import heuristic_choice, random_choice
from tournaments.duplicate.seatings import board_seed
from tournaments.duplicate.stats import mean_interval
from tournaments.play.arena import TableToPlay

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


async def search_gauntlet(
    bot: TreSearchBot, boards: int, seed: int, time_control: TimeControl,
    late: list[dict[str, Any]], first_board: int = 0,
) -> tuple[list[float], dict[str, int]]:
    """Each board's value (see the module docstring) and the infractions, by bot and kind;
    each board's value is printed as it is known (a long run shared between processes can be
    pooled, or read when cut short). The search bot's decisions past the limit by its own
    timing go to ``late``, each with where its time went (:func:`bench.bots.lateness`)."""
    arena = LocalArena({"search": bot, "heuristic": TreHeuristicBot()}, strict=False)
    options = TableOptions()
    values: list[float] = []
    kinds: dict[str, int] = {}
    timer = DecisionTimer(bot)  # type: ignore[arg-type]
    for board in range(first_board, first_board + boards):
        dealer = board % 3
        deal_seed = board_seed(seed, board)
        points: dict[str, tuple[int, ...]] = {}
        for seat in (*range(3), None):
            ids = tuple("search" if s == seat else "heuristic" for s in range(3))
            outcome = await arena.play(TableToPlay(
                f"tre/b{board}/t{3 if seat is None else seat}", board,
                TRE_E_VENTICINQUE.new_deal(deal_seed, options, dealer), ids, time_control))
            points[str(seat)] = outcome.result.points
            for infraction in outcome.infractions:
                key = f"{ids[infraction.seat]}:{infraction.kind.value}"
                kinds[key] = kinds.get(key, 0) + 1
            for (wall, cpu), _, _, stolen, schedule in timer.take():
                if wall > time_control.per_decision:
                    why = lateness(wall, cpu, stolen, schedule, time_control.per_decision)
                    late.append(why)
                    print(f"board {board}: past the limit by the bot's own timing: {why}",
                          file=sys.stderr, flush=True)
        reference = points["None"]
        values.append(sum(points[str(s)][s] - reference[s] for s in range(3)) / 3 / 3)
        print(f"board {board}: {values[-1]:+.3f}", file=sys.stderr, flush=True)
    timer.close()
    return values, kinds


def run_search_level(
    label: str, bot: TreSearchBot, boards: int, seed: int, time_control: TimeControl,
    first_board: int = 0,
) -> dict[str, object]:
    start = time.perf_counter()
    late: list[dict[str, Any]] = []
    values, kinds = trio.run(search_gauntlet, bot, boards, seed, time_control, late, first_board)
    wall = time.perf_counter() - start
    interval = mean_interval(values)
    low, high = interval.mean - interval.half_width, interval.mean + interval.half_width
    figures: dict[str, object] = {
        "level": label,
        **interval_figures(values),
        **search_rates(bot),
        "infractions": kinds,
        "late": late,
        "late_of_its_own": sum(why["its_own"] for why in late),
        "seconds": round(wall, 1),
        "board_values": [round(v, 3) for v in values],
    }
    print(f"{label:>12}: {interval.mean:+7.2f} points per board, 95% [{low:+.2f}, {high:+.2f}] "
          f"over {len(values)} boards; {figures['draws_per_second']} draws/s, "
          f"{figures['rollouts_per_second']} rollouts/s; infractions {kinds or 'none'} "
          f"({len(late)} decisions past the limit by the bot's own timing, "
          f"{figures['late_of_its_own']} of its own); "
          f"{wall:.0f} s", file=sys.stderr, flush=True)
    return figures


def search_main(args: argparse.Namespace) -> None:
    levels: list[dict[str, object]] = []
    if args.samples:
        for samples in (int(s) for s in args.samples.split(",")):
            levels.append(run_search_level(
                f"{samples} draws", TreSearchBot(samples=samples, seed=args.seed), args.boards,
                args.seed, TimeControl(per_decision=600.0), args.first_board))
    for ms in (int(m) for m in (args.levels or "").split(",") if m):
        levels.append(run_search_level(
            f"{ms} ms", TreSearchBot(seed=args.seed), args.boards, args.seed,
            TimeControl(per_decision=ms / 1000), args.first_board))
    print(json.dumps({
        "python": platform.python_version(), "game": "tre-e-venticinque", "seed": args.seed,
        "first_board": args.first_board,
        "design": "pure duplicate gauntlet: search bot in each seat among heuristic fillers, "
                  "against the all-heuristic table on the same board; t interval over boards; "
                  "points of the seed's count per deal",
        "levels": levels,
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=None,
                        help="boards (default: 300, or 200 with --search)")
    parser.add_argument("--search", action="store_true",
                        help="the search bot against the heuristic (module docstring)")
    parser.add_argument("--samples", default=None,
                        help="--search: fixed draws per decision, comma-separated")
    parser.add_argument("--levels", default=None,
                        help="--search: milliseconds per decision, comma-separated "
                             "(default 100 unless --samples is given)")
    parser.add_argument("--seed", type=int, default=2026, help="--search: the boards' seed")
    parser.add_argument("--first-board", type=int, default=0,
                        help="--search: the first board played (to share a run between "
                             "processes)")
    args = parser.parse_args()
    if args.search:
        args.boards = args.boards or 200
        if not args.samples and not args.levels:
            args.levels = "100"
        search_main(args)
        return
    args.boards = args.boards or 300
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
