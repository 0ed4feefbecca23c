"""Duplicate against plain scoring: how many deals until a strong bot is told from a weak one.

The strong bot is ``HeuristicBot``; the weak one ``RandomBot`` (the pair the issue asks for) and,
as a second, close and deterministic opponent, ``Timid`` (the heuristic bot that never bids).
Every table is a 4-player table where the bot under test holds one seat and three ``HeuristicBot``
fillers (deterministic) hold the others; both methods use exactly these tables.

- **Duplicate** (the headline design, "pure duplicate", as
  ``tournaments.duplicate.seatings.gauntlet`` seats it): on each board the weak bot plays once in
  every seat among the three fillers (4 deals), and the strong bot plays the same board in the same
  seats among the same fillers. With the strong bot in a seat the table is four ``HeuristicBot``s
  whatever the seat, the same deterministic deal, so it is played once and its four seats are the
  strong bot's four results: **5 deals per board, every deal played counted** (replaying that table
  for each seat would give the same deal four times; counting it so, 8 deals, would divide
  duplicate's figures by 1.6). Each (board, seat) group holds the strong and the weak result on
  identical cards against identical opponents, scored by
  ``tournaments.duplicate.scoring.compute_standings``; the unit is the board and its value the
  strong bot's mean datum minus the weak bot's (= mean over the four seats of strong score minus
  weak score). The interval is the tournament's: a t interval over boards.
- **Plain**: the strong and the weak bot each play their own independent random deals (the
  strong bot at a table of four heuristics, the weak bot among three; both in seat ``k mod 4`` of
  their ``k``-th deal). A step is one deal for each (2 deals, every deal counted); the interval
  is Welch's, unpaired, on the difference of the two mean raw scores.

A method "needs" the deals played when its 95 % interval first lies wholly above zero (at least
3 boards, or 3 deals a side, so that a t interval on 1 or 2 degrees of freedom does not decide
alone; a run reaching ``--max-deals`` first counts at the cap and is reported as censored; an
interval wholly below zero on the way is counted as a false alarm). Every repetition
(``--seeds``) uses new boards, new plain deals and a new random-bot seed; the figures are the
medians of the deals each method needed and their ratio, plain / duplicate (target: 4), with a
bootstrap interval over the seeds.

Those stopping times are noisy and, against the random bot, floored (both methods stop within a
few units), so the main robust figure comes from fixed samples (the first ``--boards`` boards and
``--pairs`` plain steps of every seed, chosen before any result is seen): the **variance per deal
ratio**, plain / duplicate, i.e. how many times more deals plain scoring needs for the same
interval width, with a bootstrap 95 % interval; and, at the two methods' pooled mean (they
estimate the same difference), the deals a t interval clear of zero would take.

Additional figures, not the headline:

- **rank-based**: duplicate matchpoints (the FFT's topage per (board, seat) group: strong minus
  weak is +100, 0 or -100, t interval over boards) against the equally robust rank statistic on
  plain deals, the Mann-Whitney difference ``100 (P(S > W) - P(S < W))`` over all pairs of a
  strong and a weak raw score (DeLong variance). They estimate different quantities, so the ratio
  given is that of the deals each needs at its own effect (bootstrap interval). Fixed samples.
- **why**, from the fixed samples: each bot's score variance per deal; the correlation of the
  strong and the weak score in one (board, seat) group; how often the weak table's bidding
  (taker, contract) diverged from the strong table's, and the share of the duplicate variance
  those tables carry. The ratio splits exactly into three factors: the strong bot's luck removed
  (its four seats of a board sum to zero, scores being zero-sum, so the strong side of a board
  has no variance at all: ``V_plain / (2 var_weak)``), the allocation (a weak result for every
  2 deals in plain, 4 for every 5 in duplicate: 1.6; plain with an equal number of deals per
  bot, as plain scoring plays) and the weak bot's luck across the seats of one board (its four
  results on one board against four independent deals; below 1 when they go together). For the
  random bot, the share of its variance that is its own coin flips: the weak tables of
  ``--replays`` boards per seed are replayed with another random seed, ``E (W - W')^2 / 2``. No
  seating cancels that, so no design with the weak bot in one seat per deal can beat plain by
  more than ``V_plain / own`` (the 5-deal board by ``V_plain / (1.25 own)``).
- **rotation** (the arena's own tournaments; default run only): boards in rotation of strong,
  strong, weak, weak (4 deals a board, value the strong bot's mean datum minus the weak bot's)
  against independent deals at tables of two strong and two weak bots (value the strong bots'
  mean raw score minus the weak bots'). Here plain scoring is already a paired comparison at one
  table, so duplicate gains nothing: shown for reference, fixed samples only.
- the heuristic's margin over the random bot on ``--margin-boards`` rotation boards and the speed
  of the in-process harness (measured in this process, alone).

What a default run finds (2 cores, about 2 minutes): against the random bot plain scoring
needs about 1.7 times the deals of duplicate (95 % about 1.5-1.9), far from the target of 4, and
the median stopping times are 15 deals duplicate, 12 plain: the difference is so large (about
+720 points a deal) that both stop after a handful of units, where the 5-deal board and the t
quantile on 2 degrees of freedom weigh more than any variance (4 times fewer than plain's 12
deals would be 3 deals, less than one board). The variance ratio is at its ceiling: nearly all
the random bot's variance (98 % in the default run) is its own random choices (a replay of the
same cards against the same opponents with another seed correlates at under 0.1), which no
seating cancels, so even a perfect duplicate could not pass about 2.2 (1.75 for the 5-deal
board); three quarters of its tables diverge from the strong table in the bidding already.
Against the close, deterministic Timid the ratio is about 2.9 (the strong bot's card luck
cancels exactly, but Timid's results on the four seats of a board go together, and the 15 % of
tables where the bidding diverged carry almost all the duplicate variance). Only the rank-based
line against Timid passes 4 (about 37, bootstrap interval from about 4 to unbounded): plain's
Mann-Whitney difference is near zero there (Timid's raw scores are distributed almost like the
heuristic's), while the paired matchpoints see it; a different quantity, not the headline.

The work is split by (weak bot, seed) across ``--jobs`` processes; results do not depend on it.
Human-readable lines go to stderr; the last line on stdout is one JSON object of the figures.
The default run takes about 2 minutes of wall time on 2 cores, ``--quick`` about 25 s.

    python -m bench.duplicate [--quick] [--seeds N] [--timid-seeds N] [--max-deals N]
                              [--boards N] [--pairs N] [--replays N] [--margin-boards N]
                              [--jobs N] [--verbose]
"""

from __future__ import annotations

import argparse
import bisect
import concurrent.futures
import dataclasses
import functools
import json
import math
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.games.french_tarot import PASS, Action, DealResult, TableOptions
from clients.heuristic_bot import HeuristicBot
from clients.local import board_deal, play_local, play_match, play_plans_async
from clients.random_bot import RandomBot
from clients.sdk import Bot, DecisionRequest, TableView
from tournaments.duplicate.scoring import Entry, compute_standings
from tournaments.duplicate.seatings import TablePlan, gauntlet, rotation
from tournaments.duplicate.stats import (
    Interval,
    mean_interval,
    t_quantile,
    variance,
    welch_interval,
)

PLAYERS = 4
OPTIONS = TableOptions(PLAYERS)
MIN_UNITS = 3
TARGET_RATIO = 4.0
STRONG, WEAK = "strong", "weak"
BOARD_DEALS = PLAYERS + 1
"""Deals per duplicate board: the weak bot in each seat, plus the one all-strong table."""
PAIR_DEALS = 2
"""Deals per plain step: one for the strong bot, one for the weak bot."""
BOOTSTRAP = 1000

_DUP = 0xD0B1_E5EED
_PLAIN = 0x5EED_0F_D1A1
_ROTATION = 0x5EED_707A
_MIXED = 0x5EED_313D
_REPLAY = 1_000_003
"""Added to a job's seed for the random bot that replays the weak tables."""


class Timid(HeuristicBot):
    """The heuristic bot, except that it never bids: a weak bot close to the strong one."""

    name = "timid"

    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        return PASS


WEAK_BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "timid": lambda seed: Timid(),
}
RANDOMISED = {"random"}
"""Weak bots with choices of their own to replay (the others are deterministic)."""


@functools.cache
def _t(df: int) -> float:
    return t_quantile(0.975, max(1, df))


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


# ------------------------------------------------------------------------------ play
@dataclass(frozen=True, slots=True)
class Board:
    """One duplicate board: the weak bot in each seat, the all-strong table once."""

    datum: float
    """The strong bot's mean datum on the board minus the weak bot's."""
    matchpoints: float
    """The same with matchpoints: mean over the seats of +100, 0 or -100."""
    strong: tuple[int, ...]
    """The strong bot's raw score by seat (the all-strong table)."""
    weak: tuple[int, ...]
    """The weak bot's raw score in each seat (its own table)."""
    diverged: tuple[bool, ...]
    """Whether the weak table's taker or contract differed from the strong table's."""


@dataclass(frozen=True, slots=True)
class Pair:
    """One plain step: each bot's raw score on its own deal."""

    strong: int
    weak: int


def _bidding(result: DealResult) -> tuple[object, object]:
    return result.taker, result.contract


async def play_board(weak: Bot, strong: Bot, seed: int, board: int) -> Board:
    plans = [dataclasses.replace(p, board=board) for p in gauntlet(WEAK, STRONG, PLAYERS, 1)]
    results: dict[int, DealResult] = {}

    def keep(plan: TablePlan, outcome: object) -> None:
        results[plan.number] = outcome.result  # type: ignore[attr-defined]

    entries = await play_plans_async(plans, {STRONG: strong, WEAK: weak}, seed=seed,
                                     options=OPTIONS, match_id=f"dup{seed}", on_table=keep)
    datum: dict[str, list[float]] = {STRONG: [], WEAK: []}
    points: dict[str, list[float]] = {STRONG: [], WEAK: []}
    for scored in compute_standings(entries).scored:
        datum[scored.entry.bot_id].append(scored.datum)
        points[scored.entry.bot_id].append(scored.matchpoints)
    control = results[PLAYERS]
    return Board(
        datum=statistics.fmean(datum[STRONG]) - statistics.fmean(datum[WEAK]),
        matchpoints=statistics.fmean(points[STRONG]) - statistics.fmean(points[WEAK]),
        strong=control.scores,
        weak=tuple(results[s].scores[s] for s in range(PLAYERS)),
        diverged=tuple(_bidding(results[s]) != _bidding(control) for s in range(PLAYERS)),
    )


async def replay_weak(weak: Bot, strong: Bot, seed: int, board: int) -> list[int]:
    """The weak tables of a board again (another random seed): the weak bot's score by seat."""
    deal = board_deal(seed, board, OPTIONS)
    scores = []
    for seat in range(PLAYERS):
        bots = [weak if s == seat else strong for s in range(PLAYERS)]
        outcome = await play_local(deal, OPTIONS, bots, f"replay{seed}/{board}/{seat}")
        scores.append(outcome.result.scores[seat])
    return scores


async def play_pair(weak: Bot, strong: Bot, seed: int, k: int) -> Pair:
    seat = k % PLAYERS
    first = board_deal(seed, 2 * k, OPTIONS)
    second = board_deal(seed, 2 * k + 1, OPTIONS)
    seats = [weak if s == seat else strong for s in range(PLAYERS)]
    strong_table = await play_local(first, OPTIONS, [strong] * PLAYERS, f"plain{seed}/{k}s")
    weak_table = await play_local(second, OPTIONS, seats, f"plain{seed}/{k}w")
    return Pair(strong_table.result.scores[seat], weak_table.result.scores[seat])


T = TypeVar("T")


class Stream(Generic[T]):
    """Units played on demand and kept: several rules and the fixed sample read one stream."""

    def __init__(self, play: Callable[[int], Awaitable[T]]) -> None:
        self._play = play
        self.items: list[T] = []

    async def get(self, index: int) -> T:
        while len(self.items) <= index:
            self.items.append(await self._play(len(self.items)))
        return self.items[index]


# ------------------------------------------------------------------------ stopping rules
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


async def sequential_duplicate(boards: Stream[Board], max_deals: int) -> Run:
    """Boards until the t interval of the mean datum difference (the standings' interval)
    lies above zero, or the cap."""
    values: list[float] = []
    interval = mean_interval(values)
    alarm = False
    while (len(values) + 1) * BOARD_DEALS <= max_deals:
        values.append((await boards.get(len(values))).datum)
        interval = mean_interval(values)
        if interval.n >= MIN_UNITS:
            if interval.low > 0:
                return Run(interval.n * BOARD_DEALS, interval.n, interval.mean,
                           interval.half_width, False, alarm)
            alarm = alarm or interval.high < 0
    return Run(interval.n * BOARD_DEALS, interval.n, interval.mean, interval.half_width, True,
               alarm)


async def sequential_plain(pairs: Stream[Pair], max_deals: int) -> Run:
    """Steps until the Welch interval of mean strong minus mean weak lies above zero, or the
    cap."""
    strong: list[float] = []
    weak: list[float] = []
    interval = welch_interval(strong, weak)
    alarm = False
    while (len(strong) + 1) * PAIR_DEALS <= max_deals:
        pair = await pairs.get(len(strong))
        strong.append(pair.strong)
        weak.append(pair.weak)
        interval = welch_interval(strong, weak)
        if interval.n >= MIN_UNITS:
            if interval.low > 0:
                return Run(interval.n * PAIR_DEALS, interval.n, interval.mean,
                           interval.half_width, False, alarm)
            alarm = alarm or interval.high < 0
    return Run(interval.n * PAIR_DEALS, interval.n, interval.mean, interval.half_width, True,
               alarm)


# --------------------------------------------------------------------------------- jobs
@dataclass(frozen=True, slots=True)
class Job:
    weak: str
    seed: int
    boards: int
    """Duplicate boards in the fixed sample (the first ones of the stream)."""
    pairs: int
    """Plain steps in the fixed sample."""
    replays: int
    """Boards whose weak tables are replayed with another random seed (randomised bots)."""
    max_deals: int


@dataclass(frozen=True, slots=True)
class JobResult:
    job: Job
    duplicate: Run
    plain: Run
    boards: list[Board]
    pairs: list[Pair]
    replays: list[tuple[int, int]]
    """(weak score, replayed weak score) by weak table."""
    deals: int
    seconds: float


async def _run_job(job: Job) -> JobResult:
    started = time.perf_counter()
    make = WEAK_BOTS[job.weak]
    weak, strong = make(job.seed), HeuristicBot()
    dup_seed, plain_seed = job.seed ^ _DUP, job.seed ^ _PLAIN
    boards = Stream(lambda b: play_board(weak, strong, dup_seed, b))
    pairs = Stream(lambda k: play_pair(weak, strong, plain_seed, k))
    duplicate = await sequential_duplicate(boards, job.max_deals)
    plain = await sequential_plain(pairs, job.max_deals)
    await boards.get(job.boards - 1)
    await pairs.get(job.pairs - 1)
    replays: list[tuple[int, int]] = []
    replayed = 0
    if job.weak in RANDOMISED:
        other = make(job.seed + _REPLAY)
        for b in range(job.replays):
            board = await boards.get(b)
            again = await replay_weak(other, strong, dup_seed, b)
            replays.extend(zip(board.weak, again, strict=True))
            replayed += PLAYERS
    return JobResult(
        job, duplicate, plain, boards.items[:job.boards], pairs.items[:job.pairs], replays,
        len(boards.items) * BOARD_DEALS + len(pairs.items) * PAIR_DEALS + replayed,
        time.perf_counter() - started,
    )


def run_job(job: Job) -> JobResult:
    return trio.run(_run_job, job)


@dataclass(frozen=True, slots=True)
class RotationJob:
    weak: str
    seed: int
    boards: int
    deals: int


def board_difference(entries: list[Entry]) -> float:
    """The strong bot's mean datum on the board minus the weak bot's."""
    data: dict[str, list[float]] = {STRONG: [], WEAK: []}
    for scored in compute_standings(entries).scored:
        data[scored.entry.bot_id].append(scored.datum)
    return statistics.fmean(data[STRONG]) - statistics.fmean(data[WEAK])


async def _run_rotation(job: RotationJob) -> tuple[RotationJob, list[float], list[float]]:
    strong, weak = HeuristicBot(), WEAK_BOTS[job.weak](job.seed)
    keys = ["s0", "s1", "w0", "w1"]
    bots = {"s0": strong, "s1": strong, "w0": weak, "w1": weak}
    ids = {"s0": STRONG, "s1": STRONG, "w0": WEAK, "w1": WEAK}
    entries = await play_plans_async(rotation(keys, job.boards), bots, seed=job.seed ^ _ROTATION,
                                     options=OPTIONS, entry_ids=ids, match_id="rotation")
    by_board: dict[int, list[Entry]] = {}
    for entry in entries:
        by_board.setdefault(entry.board, []).append(entry)
    duplicate = [board_difference(by_board[b]) for b in sorted(by_board)]
    plain = []
    for k in range(job.deals):
        deal = board_deal(job.seed ^ _MIXED, k, OPTIONS)
        seats = [strong, weak, strong, weak] if k % 2 == 0 else [weak, strong, weak, strong]
        scores = (await play_local(deal, OPTIONS, seats, f"mixed/{k}")).result.scores
        mine = [scores[s] for s in range(PLAYERS) if seats[s] is strong]
        theirs = [scores[s] for s in range(PLAYERS) if seats[s] is not strong]
        plain.append(statistics.fmean(mine) - statistics.fmean(theirs))
    return job, duplicate, plain


def run_rotation(job: RotationJob) -> tuple[RotationJob, list[float], list[float]]:
    return trio.run(_run_rotation, job)


# ---------------------------------------------------------------------------- figures
def quantiles(values: Sequence[float], q: Sequence[float]) -> list[float]:
    ordered = sorted(values)
    out = []
    for p in q:
        pos = p * (len(ordered) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(ordered) - 1)
        out.append(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo))
    return out


def bootstrap(statistic: Callable[..., float], samples: Sequence[Sequence[object]],
              seed: int, resamples: int = BOOTSTRAP) -> list[float]:
    """95 % percentile interval (nearest rank) of ``statistic(*samples)``, each sample resampled
    on its own. A statistic may be infinite (a ratio over an estimate at or below zero)."""
    rng = random.Random(seed)
    values = sorted(statistic(*(rng.choices(s, k=len(s)) for s in samples))
                    for _ in range(resamples))
    return [values[int(0.025 * (resamples - 1))], values[math.ceil(0.975 * (resamples - 1))]]


def predicted_deals(mean: float, sd: float, deals_per_unit: int) -> float:
    """Deals until a 95 % t interval of ``sd / sqrt(n)`` per unit lies above zero at ``mean``:
    the least ``n >= MIN_UNITS`` with ``t(n - 1) sd / sqrt(n) < mean``."""
    if mean <= 0 or not math.isfinite(sd):
        return math.inf

    def clear(n: int) -> bool:
        return _t(n - 1) * sd / math.sqrt(n) < mean

    hi = MIN_UNITS
    while not clear(hi):
        hi *= 2
        if hi > 10**9:
            return math.inf
    lo = max(MIN_UNITS, hi // 2)
    if clear(lo):
        return lo * deals_per_unit
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if clear(mid) else (mid, hi)
    return hi * deals_per_unit


def mann_whitney(strong: Sequence[float], weak: Sequence[float]) -> tuple[float, float, float]:
    """``100 (P(S > W) - P(S < W))`` over all pairs, and the variances (DeLong placements) of
    the strong and the weak placements: the estimate's variance is ``vs / n + vw / m``."""
    sorted_strong, sorted_weak = sorted(strong), sorted(weak)
    n, m = len(strong), len(weak)

    def sign_share(x: float, others: list[float], size: int) -> float:
        below = bisect.bisect_left(others, x)
        above = size - bisect.bisect_right(others, x)
        return 100.0 * (below - above) / size

    v_strong = [sign_share(s, sorted_weak, m) for s in strong]
    v_weak = [-sign_share(w, sorted_strong, n) for w in weak]
    return statistics.fmean(v_strong), variance(v_strong), variance(v_weak)


def _rounded(x: float, digits: int = 2) -> float | None:
    return round(x, digits) if math.isfinite(x) else None


def summarize(name: str, results: list[JobResult], verbose: bool) -> dict[str, object]:
    results = sorted(results, key=lambda r: r.job.seed)
    if verbose:
        for r in results:
            print(f"vs {name}, seed {r.job.seed}: duplicate {_describe(r.duplicate)}; "
                  f"plain {_describe(r.plain)}", file=sys.stderr)
    out: dict[str, object] = {"seeds": len(results)}

    # Sequential runs.
    dup_deals = [r.duplicate.deals for r in results]
    plain_deals = [r.plain.deals for r in results]
    dup_median, plain_median = statistics.median(dup_deals), statistics.median(plain_deals)

    def median_ratio(plain: Sequence[float], dup: Sequence[float]) -> float:
        return statistics.median(plain) / statistics.median(dup)

    ratio = plain_median / dup_median
    ratio_ci = bootstrap(median_ratio, [plain_deals, dup_deals], seed=1)
    censored = (sum(r.duplicate.censored for r in results), sum(r.plain.censored for r in results))
    alarms = (sum(r.duplicate.false_alarm for r in results),
              sum(r.plain.false_alarm for r in results))
    print(f"vs {name}, {len(results)} seeds: deals until the interval excludes zero, median "
          f"(quartiles): duplicate {dup_median:g} ({_quartiles(dup_deals)}), plain "
          f"{plain_median:g} ({_quartiles(plain_deals)}); plain / duplicate = {ratio:.2f} "
          f"[{ratio_ci[0]:.2f}, {ratio_ci[1]:.2f}] (target >= {TARGET_RATIO:g}); censored "
          f"{censored[0]}/{censored[1]}, false alarms {alarms[0]}/{alarms[1]}", file=sys.stderr)
    out.update({
        "duplicate_deals_median": dup_median,
        "plain_deals_median": plain_median,
        "ratio_median": round(ratio, 2),
        "ratio_median_ci95": [round(x, 2) for x in ratio_ci],
        "duplicate_deals_quartiles": quantiles(dup_deals, [0.25, 0.75]),
        "plain_deals_quartiles": quantiles(plain_deals, [0.25, 0.75]),
        "censored_duplicate_plain": list(censored),
        "false_alarms_duplicate_plain": list(alarms),
    })

    # Fixed samples, datum: the headline.
    boards = [b for r in results for b in r.boards]
    pairs = [p for r in results for p in r.pairs]
    dup_values = [b.datum for b in boards]
    strong = [float(p.strong) for p in pairs]
    weak = [float(p.weak) for p in pairs]

    def per_deal_duplicate(values: Sequence[float]) -> float:
        return BOARD_DEALS * variance(values)

    def per_deal_plain(s: Sequence[float], w: Sequence[float]) -> float:
        return PAIR_DEALS * (variance(s) + variance(w))

    def variance_ratio(values: Sequence[float], s: Sequence[float], w: Sequence[float]) -> float:
        return per_deal_plain(s, w) / per_deal_duplicate(values)

    v_dup, v_plain = per_deal_duplicate(dup_values), per_deal_plain(strong, weak)
    efficiency = v_plain / v_dup
    efficiency_ci = bootstrap(variance_ratio, [dup_values, strong, weak], seed=2)
    dup_mean = statistics.fmean(dup_values)
    plain_mean = statistics.fmean(strong) - statistics.fmean(weak)
    # Both estimate the same difference (strong minus weak, same bots, same fillers): pool the
    # two means (inverse-variance weights), so that the noise of one mean does not pass for a
    # difference between methods.
    w_dup = len(dup_values) / variance(dup_values)
    w_plain = 1 / (variance(strong) / len(strong) + variance(weak) / len(weak))
    pooled = (w_dup * dup_mean + w_plain * plain_mean) / (w_dup + w_plain)
    dup_pred = predicted_deals(pooled, math.sqrt(variance(dup_values)), BOARD_DEALS)
    plain_pred = predicted_deals(pooled, math.sqrt(variance(strong) + variance(weak)),
                                 PAIR_DEALS)
    print(f"vs {name}, fixed samples ({len(boards)} boards = {len(boards) * BOARD_DEALS} deals, "
          f"{len(pairs)} plain steps = {len(pairs) * PAIR_DEALS} deals): duplicate "
          f"{dup_mean:+.1f}, plain {plain_mean:+.1f}; variance per deal duplicate {v_dup:.0f}, "
          f"plain {v_plain:.0f}: plain / duplicate = {efficiency:.2f} [{efficiency_ci[0]:.2f}, "
          f"{efficiency_ci[1]:.2f}] (target >= {TARGET_RATIO:g}); at the pooled mean "
          f"{pooled:+.1f} a t interval clears zero after duplicate {dup_pred:g} deals, plain "
          f"{plain_pred:g}", file=sys.stderr)
    out.update({
        "fixed_boards": len(boards),
        "fixed_plain_steps": len(pairs),
        "duplicate_mean": round(dup_mean, 1),
        "plain_mean": round(plain_mean, 1),
        "pooled_mean": round(pooled, 1),
        "duplicate_variance_per_deal": round(v_dup),
        "plain_variance_per_deal": round(v_plain),
        "variance_ratio": round(efficiency, 2),
        "variance_ratio_ci95": [round(x, 2) for x in efficiency_ci],
        "duplicate_deals_predicted": dup_pred if math.isfinite(dup_pred) else None,
        "plain_deals_predicted": plain_pred if math.isfinite(plain_pred) else None,
        "ratio_predicted": _rounded(plain_pred / dup_pred),
        "meets_target": efficiency >= TARGET_RATIO,
        "meets_target_median": ratio >= TARGET_RATIO,
    })

    # Rank-based, fixed samples.
    mp_values = [b.matchpoints for b in boards]

    def rank_figures(mp: Sequence[float], s: Sequence[float], w: Sequence[float]
                     ) -> tuple[float, float, float, float, float]:
        """Duplicate mean and variance per deal, plain estimate and variance per deal, and
        the ratio of the deals each needs at its own effect."""
        mp_mean, v_mp = statistics.fmean(mp), per_deal_duplicate(mp)
        theta, v_s, v_w = mann_whitney(s, w)
        v_mw = (v_s / len(s) + v_w / len(w)) * (len(s) + len(w))
        ratio = (v_mw / theta**2) / (v_mp / mp_mean**2) if theta > 0 and mp_mean > 0 else math.inf
        return mp_mean, v_mp, theta, v_mw, ratio

    mp_mean, v_mp, theta, v_mw, rank_ratio = rank_figures(mp_values, strong, weak)
    rank_ci = bootstrap(lambda *xs: rank_figures(*xs)[4], [mp_values, strong, weak], seed=3,
                        resamples=BOOTSTRAP // 4)
    mp_half = 1.96 * math.sqrt(v_mp / BOARD_DEALS / len(mp_values))
    mw_half = 1.96 * math.sqrt(v_mw / (len(strong) + len(weak)))
    mp_pred = predicted_deals(mp_mean, math.sqrt(variance(mp_values)), BOARD_DEALS)
    mw_pred = predicted_deals(theta, math.sqrt(v_mw / PAIR_DEALS), PAIR_DEALS)
    print(f"vs {name}, rank-based (not the headline): duplicate matchpoints {mp_mean:+.1f} ± "
          f"{mp_half:.1f} (variance per deal {v_mp:.0f}, {mp_pred:g} deals), plain Mann-Whitney "
          f"{theta:+.1f} ± {mw_half:.1f} (variance per deal {v_mw:.0f}, {mw_pred:g} deals): plain "
          f"needs {rank_ratio:.2f} times the deals [{rank_ci[0]:.2f}, {rank_ci[1]:.2f}]",
          file=sys.stderr)
    out["rank_based"] = {
        "duplicate_matchpoints": [round(mp_mean, 1), round(mp_half, 1)],
        "duplicate_variance_per_deal": round(v_mp),
        "plain_mann_whitney": [round(theta, 1), round(mw_half, 1)],
        "plain_variance_per_deal": round(v_mw),
        "duplicate_deals_predicted": mp_pred if math.isfinite(mp_pred) else None,
        "plain_deals_predicted": mw_pred if math.isfinite(mw_pred) else None,
        "deals_ratio": _rounded(rank_ratio),
        "deals_ratio_ci95": [_rounded(x) for x in rank_ci],
    }

    # Why: where the variance comes from.
    strong_seats = [float(s) for b in boards for s in b.strong]
    weak_seats = [float(w) for b in boards for w in b.weak]
    var_strong, var_weak = variance(strong), variance(weak_seats)
    differences = [s - w for s, w in zip(strong_seats, weak_seats, strict=True)]
    diverged = [d for b in boards for d in b.diverged]
    centre = statistics.fmean(differences)
    squares = [(d - centre) ** 2 for d in differences]
    diverged_share = math.fsum(q for q, d in zip(squares, diverged, strict=True) if d) / math.fsum(
        squares)
    # V_plain / V_dup = strong * allocation * seats, where
    #   strong = V_plain / (2 var_weak): plain without the strong bot's noise (the strong table's
    #            four seats are the strong bot's results on a board and sum to zero: its card
    #            luck cancels exactly);
    #   allocation = 2 / (5/4) = 1.6: a weak result per 2 deals in plain, 4 per 5 in duplicate;
    #   seats = (5/4) var_weak / V_dup: the weak bot's results on the four seats of one board
    #           against four independent deals (> 1: its card luck cancels across the seats).
    independent = BOARD_DEALS / PLAYERS * var_weak
    why: dict[str, object] = {
        "strong_variance_per_deal": round(var_strong),
        "weak_variance_per_deal": round(var_weak),
        "same_seat_correlation": round(correlation(strong_seats, weak_seats), 3),
        "bidding_diverged": round(statistics.fmean(diverged), 3),
        "duplicate_variance_share_of_diverged_tables": round(diverged_share, 3),
        "gain_strong_luck_removed": round(v_plain / (PAIR_DEALS * var_weak), 2),
        "gain_allocation": round(PAIR_DEALS / (BOARD_DEALS / PLAYERS), 2),
        "gain_weak_luck_across_seats": round(independent / v_dup, 2),
    }
    line = (f"vs {name}, why: variance per deal strong {var_strong:.0f}, weak {var_weak:.0f}; "
            f"same-seat correlation {why['same_seat_correlation']}; bidding diverged at "
            f"{100 * statistics.fmean(diverged):.0f} % of the weak tables, which carry "
            f"{100 * diverged_share:.0f} % of the duplicate variance; the ratio "
            f"{efficiency:.2f} = {why['gain_strong_luck_removed']} (strong bot's luck removed) "
            f"x {why['gain_allocation']} (4 weak results per 5 deals, not 1 per 2) x "
            f"{why['gain_weak_luck_across_seats']} (weak bot's luck across the seats of a "
            f"board)")
    replays = [pair for r in results for pair in r.replays]
    if replays:
        own = math.fsum((a - b) ** 2 for a, b in replays) / len(replays) / 2
        why.update({
            "replayed_tables": len(replays),
            "own_randomness_variance": round(own),
            "own_randomness_share": round(own / var_weak, 3),
            "replay_correlation": round(correlation([float(a) for a, _ in replays],
                                                    [float(b) for _, b in replays]), 3),
            "ceiling_one_weak_seat_per_deal": round(v_plain / own, 2),
            "ceiling_five_deal_board": round(v_plain / (BOARD_DEALS / PLAYERS * own), 2),
        })
        line += (f"; own randomness {own:.0f} = {100 * own / var_weak:.0f} % of the weak "
                 f"variance ({len(replays)} tables replayed with another seed, correlation "
                 f"{why['replay_correlation']}), so no design with the weak bot in "
                 f"one seat per deal gains more than {v_plain / own:.2f}, the 5-deal board "
                 f"{v_plain / (BOARD_DEALS / PLAYERS * own):.2f}")
    else:
        why["own_randomness_variance"] = 0
    print(line, file=sys.stderr)
    out["why"] = why
    return out


def _quartiles(values: Sequence[float]) -> str:
    lo, hi = quantiles(values, [0.25, 0.75])
    return f"{lo:g}-{hi:g}"


def _describe(run: Run) -> str:
    flags = ", capped" if run.censored else ""
    flags += ", false alarm on the way" if run.false_alarm else ""
    return (f"{run.deals:4d} deals ({run.units} units, {run.mean:+.1f} ± {run.half_width:.1f}"
            f"{flags})")


def summarize_rotation(job: RotationJob, duplicate: list[float], plain: list[float]
                       ) -> dict[str, object]:
    v_dup, v_plain = PLAYERS * variance(duplicate), variance(plain)
    print(f"vs {job.weak}, rotation (reference, plain is paired at one table): {job.boards} "
          f"boards duplicate {statistics.fmean(duplicate):+.1f}, {job.deals} deals plain "
          f"{statistics.fmean(plain):+.1f}; variance per deal duplicate {v_dup:.0f}, plain "
          f"{v_plain:.0f}: plain / duplicate = {v_plain / v_dup:.2f}", file=sys.stderr)
    return {
        "duplicate_boards": job.boards, "plain_deals": job.deals,
        "duplicate_mean": round(statistics.fmean(duplicate), 1),
        "plain_mean": round(statistics.fmean(plain), 1),
        "variance_ratio": round(v_plain / v_dup, 2),
    }


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds, smaller samples")
    parser.add_argument("--seeds", type=int, default=None,
                        help="repetitions against the random bot (default 101, quick 31)")
    parser.add_argument("--timid-seeds", type=int, default=None,
                        help="repetitions against the timid bot (default 21, quick 5)")
    parser.add_argument("--max-deals", type=int, default=None,
                        help="cap per run and method (default 1000, quick 400)")
    parser.add_argument("--boards", type=int, default=None,
                        help="fixed-sample duplicate boards per seed (default 6 against the "
                             "random bot, 20 against the timid one, 12 in a quick run)")
    parser.add_argument("--pairs", type=int, default=None,
                        help="fixed-sample plain steps per seed (default 15 against the random "
                             "bot, 50 against the timid one, 30 in a quick run)")
    parser.add_argument("--replays", type=int, default=None,
                        help="boards per seed replayed with another random seed (default 2)")
    parser.add_argument("--margin-boards", type=int, default=None,
                        help="boards for the heuristic-vs-random margin (default 100, quick 24)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes (default: the CPUs available)")
    parser.add_argument("--verbose", action="store_true", help="one line per seed")
    args = parser.parse_args()
    quick = args.quick
    seeds = {"random": args.seeds or (31 if quick else 101),
             "timid": args.timid_seeds or (5 if quick else 21)}
    cap = args.max_deals or (400 if quick else 1000)
    boards = {"random": args.boards or 6,
              "timid": args.boards or (12 if quick else 20)}
    pairs = {"random": args.pairs or 15,
             "timid": args.pairs or (30 if quick else 50)}
    replays = args.replays if args.replays is not None else 2
    margin_boards = args.margin_boards or (24 if quick else 100)
    workers = args.jobs or len(os.sched_getaffinity(0))
    figures: dict[str, object] = {
        "players": PLAYERS, "max_deals": cap, "min_units": MIN_UNITS,
        "target_ratio": TARGET_RATIO,
        "design": "duplicate: each board played by the weak bot in every seat among 3 heuristic "
                  "fillers plus once by the strong bot (4 heuristics), 5 deals a board, t "
                  "interval over boards of the mean datum difference; plain: independent deals "
                  "for each bot with the same fillers, 2 deals a step, Welch interval",
    }
    wall0 = time.perf_counter()
    jobs = [Job(name, seed, boards[name], pairs[name], replays, cap)
            for name in WEAK_BOTS for seed in range(1, seeds[name] + 1)]
    # The longest jobs first, so that the workers finish together.
    jobs.sort(key=lambda j: j.weak != "timid")
    rotation_jobs = [] if quick else [RotationJob(name, 7, 60, 240) for name in WEAK_BOTS]
    results: dict[str, list[JobResult]] = {name: [] for name in WEAK_BOTS}
    rotations: list[tuple[RotationJob, list[float], list[float]]] = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_job, job) for job in jobs]
        rotation_futures = [pool.submit(run_rotation, job) for job in rotation_jobs]
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            results[result.job.weak].append(result)
        rotations = [f.result() for f in rotation_futures]
    total_deals = sum(r.deals for rs in results.values() for r in rs)
    total_deals += sum(job.boards * PLAYERS + job.deals for job, _, _ in rotations)
    for name in WEAK_BOTS:
        figures[f"vs_{name}"] = summarize(name, results[name], args.verbose)
    if rotations:
        figures["rotation"] = {f"vs_{job.weak}": summarize_rotation(job, dup, plain)
                               for job, dup, plain in rotations}
    work_seconds = time.perf_counter() - wall0
    interval, deals, wall, cpu = margin(margin_boards, seed=2024)
    total_deals += deals
    print(f"heuristic - random over {margin_boards} rotation boards ({deals} deals): "
          f"{interval.mean:+.1f} per board, 95 % interval [{interval.low:+.1f}, "
          f"{interval.high:+.1f}]", file=sys.stderr)
    print(f"in-process harness: {deals / wall:.0f} deals/s wall, {deals / cpu:.0f} deals/s CPU "
          f"(2 heuristic + 2 random bots, one process)", file=sys.stderr)
    headline = figures["vs_random"]
    assert isinstance(headline, dict)
    print(f"headline (vs random): plain needs {headline['variance_ratio']} times the deals of "
          f"duplicate at equal precision (95 % {headline['variance_ratio_ci95']}); median deals "
          f"{headline['plain_deals_median']:g} / {headline['duplicate_deals_median']:g}; target "
          f"{TARGET_RATIO:g} {'met' if headline['meets_target'] else 'NOT met'}", file=sys.stderr)
    figures["margin"] = {
        "boards": margin_boards, "mean": round(interval.mean, 1),
        "low": round(interval.low, 1), "high": round(interval.high, 1),
    }
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures["deals_per_second_wall"] = round(deals / wall, 1)
    figures["deals_per_second_cpu"] = round(deals / cpu, 1)
    figures["total_deals"] = total_deals
    figures["workers"] = workers
    figures["seconds"] = round(time.perf_counter() - wall0, 1)
    figures["work_seconds"] = round(work_seconds, 1)
    figures["cpu_seconds"] = round(time.process_time() + children.ru_utime + children.ru_stime, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
