"""Duplicate against plain scoring: how many deals until a strong bot is told from a weak one.

A strong bot (``HeuristicBot``) and a weak one play 4-player deals in-process
(``clients.local``). After every unit of play the 95 % t interval of the strong-minus-weak
difference is computed; a method "needs" the deals played when the interval first lies wholly
above zero (at least 3 units, so that a t interval with 1 or 2 degrees of freedom does not decide
alone; a run that reaches ``--max-deals`` first counts at the cap and is reported as censored;
an interval wholly below zero on the way is counted as a false alarm). Two pairings of duplicate
and plain scoring, each with the same table make-up on both sides:

- **rotation** (the arena's tournaments): duplicate = boards in rotation of strong, strong, weak,
  weak (``tournaments.seatings.rotation``: each bot holds every hand of a board twice), scored by
  ``tournaments.duplicate.compute_standings``, unit a board (4 deals), value the strong bot's
  mean datum minus the weak bot's; plain = independent deals at tables of two strong and two
  weak bots (sides swapped every deal), unit a deal, value the strong bots' mean raw score minus
  the weak bots'.
- **gauntlet**: duplicate = ``tournaments.seatings.gauntlet`` with the weak bot as candidate in
  each seat among three strong ones, plus a control table of four strong bots, unit a board
  (5 deals), value the mean over seats of control score minus weak score in that seat; plain =
  each bot's raw score on its own independent deal (the weak bot in seat ``k mod 4`` among three
  strong ones, a strong bot in the same seat of an all-strong table), unit these 2 deals.

Every repetition (``--seeds``) uses new deals and new random-bot seeds; the figures are the
median deals each method needed and their ratio plain / duplicate (the target is 4). Stopping at
the first exclusion makes those medians noisy, so each method also plays a fixed sample
(``--fixed-deals``): the ratio of the variances per deal (plain / duplicate: how many times more
deals plain scoring needs for the same precision) and, at the two methods' pooled mean, the
deals a 95 % interval clear of zero would take, ``max(3, (1.96 sd / mean)^2)`` units. Two weak
bots: ``RandomBot`` (the pair asked for) and ``Timid``, the heuristic bot that never takes, a
close opponent. Then the heuristic's margin over the random bot on ``--margin-boards`` boards in
rotation (mean datum per board, strong minus weak, with its 95 % interval), and the speed of the
in-process harness.

Human-readable lines go to stderr; the last line on stdout is one JSON object of the figures.
The default run takes about a minute and a half of one core, ``--quick`` about 25 s.

    python bench/duplicate.py [--quick] [--seeds N] [--max-deals N] [--fixed-deals N]
                              [--margin-boards N]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.rules import PASS, Action, TableOptions, seeded_deal
from clients.heuristic_bot import HeuristicBot
from clients.local import play_local, play_match, play_plans_async
from clients.random_bot import RandomBot
from clients.sdk import Bot, DecisionRequest, TableView
from tournaments.duplicate import Entry, compute_standings
from tournaments.seatings import board_seed, gauntlet, rotation
from tournaments.stats import Interval, mean_interval, t_quantile

PLAYERS = 4
OPTIONS = TableOptions(PLAYERS)
MIN_UNITS = 3
TARGET_RATIO = 4.0
STRONG, WEAK = "strong", "weak"


class Timid(HeuristicBot):
    """The heuristic bot, except that it never bids: a weak bot close to the strong one."""

    name = "timid"

    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        return PASS


WEAK_BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "timid": lambda seed: Timid(),
}


@functools.cache
def _t(df: int) -> float:
    return t_quantile(0.975, df)


class Running:
    """Mean and 95 % t interval of a growing sample (Welford), without keeping it."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (value - self.mean)

    @property
    def half_width(self) -> float:
        if self.n < 2:
            return math.inf
        return _t(self.n - 1) * math.sqrt(self._m2 / (self.n - 1) / self.n)



@dataclass(frozen=True, slots=True)
class Run:
    deals: int
    units: int
    mean: float
    half_width: float
    censored: bool
    """The cap was reached before the interval lay above zero."""
    false_alarm: bool
    """On the way, the interval lay wholly below zero (the weak bot 'significantly' ahead)."""


Unit = Callable[[int], Awaitable[tuple[float, int]]]
"""Plays unit ``k``; its strong-minus-weak value and the deals it took."""


async def sequential(unit: Unit, max_deals: int, deals_per_unit: int) -> Run:
    """Units until the interval lies above zero, or the cap."""
    running = Running()
    deals = 0
    alarm = False
    while deals + deals_per_unit <= max_deals:
        value, played = await unit(running.n)
        deals += played
        running.add(value)
        if running.n >= MIN_UNITS:
            if running.mean - running.half_width > 0:
                return Run(deals, running.n, running.mean, running.half_width, False, alarm)
            alarm = alarm or running.mean + running.half_width < 0
    return Run(deals, running.n, running.mean, running.half_width, True, alarm)


async def fixed(unit: Unit, deals: int) -> tuple[float, float, int]:
    """A fixed sample of about ``deals`` deals: mean and standard deviation per unit, and the
    deals played."""
    values: list[float] = []
    played = 0
    while played < deals:
        value, n = await unit(len(values))
        values.append(value)
        played += n
    return statistics.fmean(values), statistics.stdev(values), played


def predicted_deals(mean: float, sd: float, deals_per_unit: float) -> float:
    """Deals for a 95 % interval of half-width ``|mean|``, from a fixed sample's figures."""
    if mean == 0:
        return math.inf
    units = max(float(MIN_UNITS), (1.96 * sd / mean) ** 2)
    return units * deals_per_unit


def strong_minus_weak(scores: Sequence[int], seats: Sequence[Bot], strong: Bot) -> float:
    mine = [scores[s] for s in range(PLAYERS) if seats[s] is strong]
    theirs = [scores[s] for s in range(PLAYERS) if seats[s] is not strong]
    return statistics.fmean(mine) - statistics.fmean(theirs)


def rotation_units(weak: Bot, seed: int) -> tuple[Unit, Unit]:
    strong = HeuristicBot()
    keys = ["s0", "s1", "w0", "w1"]
    bots = {"s0": strong, "s1": strong, "w0": weak, "w1": weak}
    ids = {"s0": STRONG, "s1": STRONG, "w0": WEAK, "w1": WEAK}

    async def duplicate(board: int) -> tuple[float, int]:
        plans = [p for p in rotation(keys, board + 1) if p.board == board]
        entries = await play_plans_async(plans, bots, seed=seed, options=OPTIONS, entry_ids=ids,
                                         match_id=f"rot{seed}")
        return board_difference(entries), len(plans)

    async def plain(k: int) -> tuple[float, int]:
        deal = seeded_deal(board_seed(seed ^ _PLAIN, k), PLAYERS, k % PLAYERS)
        seats = [strong, weak, strong, weak] if k % 2 == 0 else [weak, strong, weak, strong]
        outcome = await play_local(deal, OPTIONS, seats, f"mixed{seed}/{k}")
        return strong_minus_weak(outcome.result.scores, seats, strong), 1

    return duplicate, plain


def gauntlet_units(weak: Bot, seed: int) -> tuple[Unit, Unit]:
    strong = HeuristicBot()
    bots = {STRONG: strong, WEAK: weak}

    async def duplicate(board: int) -> tuple[float, int]:
        plans = [p for p in gauntlet(WEAK, STRONG, PLAYERS, board + 1) if p.board == board]
        entries = await play_plans_async(plans, bots, seed=seed, options=OPTIONS,
                                         match_id=f"gauntlet{seed}")
        control = {e.seat: e.score for e in entries if e.bot_id == STRONG}  # scored: control
        weak_scores = {e.seat: e.score for e in entries if e.bot_id == WEAK}
        return statistics.fmean(control[s] - weak_scores[s] for s in range(PLAYERS)), len(plans)

    async def plain(k: int) -> tuple[float, int]:
        seat = k % PLAYERS
        first = seeded_deal(board_seed(seed ^ _SEPARATE, 2 * k), PLAYERS, k % PLAYERS)
        second = seeded_deal(board_seed(seed ^ _SEPARATE, 2 * k + 1), PLAYERS, k % PLAYERS)
        seats = [weak if s == seat else strong for s in range(PLAYERS)]
        weak_score = (await play_local(first, OPTIONS, seats, f"sep{seed}/{k}w")).result
        strong_score = (await play_local(second, OPTIONS, [strong] * PLAYERS,
                                         f"sep{seed}/{k}s")).result
        return float(strong_score.scores[seat] - weak_score.scores[seat]), 2

    return duplicate, plain


_PLAIN = 0x5EED_0F_D1A1
FIXED_SEED = 1000
_SEPARATE = 0x5EED_5E9A


def board_difference(entries: list[Entry]) -> float:
    """The strong bot's mean datum on the board minus the weak bot's."""
    data: dict[str, list[float]] = {STRONG: [], WEAK: []}
    for scored in compute_standings(entries).scored:
        data[scored.entry.bot_id].append(scored.datum)
    return statistics.fmean(data[STRONG]) - statistics.fmean(data[WEAK])


def margin(boards: int, seed: int) -> tuple[Interval, int, float, float]:
    """The heuristic's margin over the random bot: mean datum per board, strong minus weak,
    on ``boards`` rotation boards; with the deals played, wall and CPU seconds."""
    bots = [HeuristicBot(), HeuristicBot(), RandomBot(seed), RandomBot(seed + 1)]
    wall, cpu = time.perf_counter(), time.process_time()
    entries = play_match(bots, boards, seed=seed, bot_ids=[STRONG, STRONG, WEAK, WEAK],
                         match_id="margin")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    by_board: dict[int, list[Entry]] = {}
    for entry in entries:
        by_board.setdefault(entry.board, []).append(entry)
    differences = [board_difference(by_board[b]) for b in sorted(by_board)]
    return mean_interval(differences), len(entries) // PLAYERS, wall, cpu


def _describe(run: Run) -> str:
    flags = ", capped" if run.censored else ""
    flags += ", false alarm on the way" if run.false_alarm else ""
    return (f"{run.deals:4d} deals ({run.units} units, {run.mean:+.1f} ± {run.half_width:.1f}"
            f"{flags})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 seeds, smaller caps")
    parser.add_argument("--seeds", type=int, default=None, help="repetitions (default 7)")
    parser.add_argument("--max-deals", type=int, default=None,
                        help="cap per run and method (default 1200, quick 400)")
    parser.add_argument("--margin-boards", type=int, default=None,
                        help="boards for the heuristic-vs-random margin (default 100, quick 24)")
    parser.add_argument("--fixed-deals", type=int, default=None,
                        help="deals per fixed sample and method (default 400, quick 100)")
    args = parser.parse_args()
    seeds = args.seeds or (3 if args.quick else 7)
    cap = args.max_deals or (400 if args.quick else 1200)
    margin_boards = args.margin_boards or (24 if args.quick else 100)
    fixed_deals = args.fixed_deals or (100 if args.quick else 400)
    figures: dict[str, object] = {
        "players": PLAYERS, "seeds": seeds, "max_deals": cap, "min_units": MIN_UNITS,
        "target_ratio": TARGET_RATIO,
    }
    total_deals = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    designs = {"rotation": (rotation_units, 4, 1), "gauntlet": (gauntlet_units, 5, 2)}
    for name, make_weak in WEAK_BOTS.items():
        for design, (units, dup_size, plain_size) in designs.items():
            dup_runs: list[Run] = []
            plain_runs: list[Run] = []
            for seed in range(1, seeds + 1):
                duplicate, plain = units(make_weak(seed), seed)
                dup = trio.run(sequential, duplicate, cap, dup_size)
                flat = trio.run(sequential, plain, cap, plain_size)
                dup_runs.append(dup)
                plain_runs.append(flat)
                total_deals += dup.deals + flat.deals
                print(f"vs {name}, {design}, seed {seed}: duplicate {_describe(dup)}; "
                      f"plain {_describe(flat)}", file=sys.stderr)
            duplicate, plain = units(make_weak(FIXED_SEED), FIXED_SEED)
            dup_mean, dup_sd, dup_deals = trio.run(fixed, duplicate, fixed_deals)
            flat_mean, flat_sd, flat_deals = trio.run(fixed, plain, fixed_deals)
            total_deals += dup_deals + flat_deals
            # Both methods estimate the same difference: pool the two means (inverse-variance
            # weights), so that the noise of one mean does not pass for a difference in method.
            w_dup = dup_deals / dup_size / dup_sd**2
            w_flat = flat_deals / plain_size / flat_sd**2
            common = (w_dup * dup_mean + w_flat * flat_mean) / (w_dup + w_flat)
            dup_pred = predicted_deals(common, dup_sd, dup_size)
            flat_pred = predicted_deals(common, flat_sd, plain_size)
            efficiency = (flat_sd**2 * plain_size) / (dup_sd**2 * dup_size)
            print(f"vs {name}, {design}, fixed samples of {fixed_deals} deals: duplicate "
                  f"{dup_mean:+.1f} (sd {dup_sd:.0f} per {dup_size}-deal unit), plain "
                  f"{flat_mean:+.1f} (sd {flat_sd:.0f} per {plain_size}-deal unit); variance "
                  f"per deal plain / duplicate = {efficiency:.2f}; at the pooled mean "
                  f"{common:+.1f}: duplicate {dup_pred:.0f} deals, plain {flat_pred:.0f}",
                  file=sys.stderr)
            dup_median = statistics.median(r.deals for r in dup_runs)
            plain_median = statistics.median(r.deals for r in plain_runs)
            ratio = plain_median / dup_median
            print(f"vs {name}, {design}: median deals duplicate {dup_median:g}, plain "
                  f"{plain_median:g}: plain / duplicate = {ratio:.2f} "
                  f"(target >= {TARGET_RATIO:g})", file=sys.stderr)
            figures[f"vs_{name}_{design}"] = {
                "duplicate_deals_median": dup_median,
                "plain_deals_median": plain_median,
                "ratio_plain_over_duplicate": round(ratio, 2),
                "meets_target": ratio >= TARGET_RATIO,
                "duplicate_deals": [r.deals for r in dup_runs],
                "plain_deals": [r.deals for r in plain_runs],
                "censored": sum(r.censored for r in dup_runs + plain_runs),
                "false_alarms": sum(r.false_alarm for r in dup_runs + plain_runs),
                "fixed_sample_deals": fixed_deals,
                "duplicate_mean_sd_per_unit": [round(dup_mean, 1), round(dup_sd, 1)],
                "plain_mean_sd_per_unit": [round(flat_mean, 1), round(flat_sd, 1)],
                "variance_per_deal_ratio": round(efficiency, 2),
                "pooled_mean": round(common, 1),
                "duplicate_deals_predicted": round(dup_pred),
                "plain_deals_predicted": round(flat_pred),
                "ratio_predicted": round(flat_pred / dup_pred, 2),
            }
    interval, deals, wall, cpu = margin(margin_boards, seed=2024)
    total_deals += deals
    print(f"heuristic - random over {margin_boards} boards ({deals} deals): "
          f"{interval.mean:+.1f} per board, 95 % interval [{interval.low:+.1f}, "
          f"{interval.high:+.1f}]", file=sys.stderr)
    print(f"in-process harness: {deals / wall:.0f} deals/s wall, {deals / cpu:.0f} deals/s CPU "
          f"(2 heuristic + 2 random bots)", file=sys.stderr)
    figures["margin"] = {
        "boards": margin_boards, "mean": round(interval.mean, 1),
        "low": round(interval.low, 1), "high": round(interval.high, 1),
    }
    figures["deals_per_second_wall"] = round(deals / wall, 1)
    figures["deals_per_second_cpu"] = round(deals / cpu, 1)
    figures["total_deals"] = total_deals
    figures["seconds"] = round(time.perf_counter() - wall0, 1)
    figures["cpu_seconds"] = round(time.process_time() - cpu0, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
