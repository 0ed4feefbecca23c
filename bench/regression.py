"""Regression testing: how many deals ``tarot-arena compare`` needs, and whether it keeps its
error rates, on real bot pairs.

Four pairs (candidate against baseline):

- **bidding**: ``Timid`` against ``HeuristicBot``, Timid being the heuristic except that it never
  bids: a patch that breaks the bidding, about 13 points a board worse (the close pair of
  ``bench.duplicate``, seated as there: Timid among heuristic fillers). Tested for
  non-regression: H0 at the true difference, H1 at 0;
- **bidding_improved**: the same two the other way round (the heuristic among Timid fillers,
  whose control table always passes), tested for improvement: H0 0, H1 the true difference;
- **card_play**: ``HeuristicBot`` against ``Careless``, the same bot except that when it follows
  a trick it plays its lowest legal card at every third trick (the bidding, calling,
  discarding and leading are the heuristic's); an improvement test;
- **poignee**: ``HeuristicBot`` against ``Shy``, the same bot except that it never shows a
  poignée: a change that matters only on the boards where a seat holds ten trumps, so the
  differences are nearly all zeros with rare large ones (and skewed); an improvement test.

For each pair ``--boards`` boards are played in-process exactly as ``compare`` plays them (the
gauntlet: the candidate in each seat among three baseline fillers, plus the baseline's control
table; ``bench.duplicate.play_board``), and their per-board paired differences are kept:
**recorded once** in ``.cache/bench-regression/`` (one file per chunk of boards, named by a
fingerprint of the code that plays them: the game, the bots, the seating), so that a second run
replays nothing and only resamples (``--fresh`` plays them again). The
pair's **true difference** is taken as their mean ``d`` (per-board spread ``s``). Then, from
those stored boards (each run draws boards at random with replacement, so runs are independent
and each sees the pair's real distribution of board differences):

- **false-positive rate**: ``--runs`` sequential tests (alpha = beta = 0.05) fed boards whose
  true mean is H0's: the share accepted, against alpha plus two Monte-Carlo standard errors
  (6.4 % at 1,000 runs), with the bounds in points and in per-board standard deviations alike.
  For an improvement test those are the board differences minus ``d`` (an A/A pair with this
  pair's spread and shape); for the non-regression test, the differences themselves, and the
  A/A false positives of an improvement test (H0 0, H1 ``|d|``) are shown as well;
- **power**: as many tests fed boards whose true mean is H1's: the share accepted, against
  1 - beta minus two Monte-Carlo standard errors (93.6 % at 1,000 runs); and, at the pair's true
  difference, the boards and deals each test needed to a verdict (``players + 1`` deals a
  board), mean and 90th percentile;
- **fixed samples with the same error rates**: a one-sided z test at alpha with power 1 - beta
  at ``d`` needs ``((z_alpha + z_beta) s / d)^2`` units. Duplicate: units are boards (5 deals).
  Plain (not duplicate): each step is the candidate's seat score on a deal of its own among
  baseline fillers and the baseline's on another, independent deal (2 deals, unpaired); its
  variance is the sum of the two seat scores' variances, taken from the same tables (a seat of
  one board against a seat of another are independent deals).

**Imposed boards** (``compare --imposed``: every table of a board plays the baseline's auction)
against free boards, on pairs played both ways: ``card_play`` and ``card_play_reversed`` (the
heuristic and Careless swapped), which bid alike, and ``bidding_and_card_play``, a candidate
that never bids and plays carelessly against the heuristic: the mean difference per board, its
variance per deal and the deals a fixed-sample duplicate test would need.

The headline ratio is the fixed-sample plain test's deals over the sequential duplicate test's
mean deals (target: at least 5 on a close pair of about +13 points per board). The same is
shown with the bounds in per-board standard deviations (H1 ``d / s``) and for one test fed the
boards in the order they were played.

Human-readable lines go to stderr, ending with a Markdown table of every pair with both kinds of
bounds (the README's); the last line on stdout is one JSON object of the figures.

    python -m bench.regression [--boards N] [--runs N] [--cap X] [--min-boards N] [--jobs N]
                               [--quick] [--fresh]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import inspect
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import arena.games.french_tarot
import bench.duplicate
import clients.heuristic_bot
import clients.local
import tournaments.duplicate.scoring
import tournaments.duplicate.seatings
import tournaments.play.imposed
from arena.games.french_tarot import PASS, Action, Play
from bench.duplicate import (
    BOARD_DEALS,
    OPTIONS,
    PAIR_DEALS,
    PLAYERS,
    Board,
    Timid,
    play_board,
    quantiles,
)
from clients.heuristic_bot import HeuristicBot, _trick_of
from clients.local import LOCAL_TIME_CONTROL, auction_seat, board_deal, play_local
from clients.sdk import Bot, DecisionRequest, TableView
from tournaments.duplicate.seatings import gauntlet
from tournaments.duplicate.sprt import DEFAULT_MIN_BOARDS, Sprt, SprtSettings, Units, Verdict
from tournaments.play.imposed import free_auction

ALPHA = BETA = 0.05
TARGET = 5.0
SEED = 0xC0_4A_9E
CHUNK = 25
"""Boards per job."""


class Careless(HeuristicBot):
    """The heuristic bot, except that when following a trick it plays its lowest legal card at
    every third trick (by the cards left in its hand, not by the decisions it was asked, which
    imposed boards change): a baseline that differs from the heuristic in card play only."""

    name = "careless"

    def play(self, table: TableView, request: DecisionRequest) -> Action:
        plays = [a.card for a in request.legal_actions if isinstance(a, Play)]
        if len(plays) > 1 and _trick_of(table).led >= 0 and len(table.hand) % 3 == 0:
            return Play(min(plays))
        return super().play(table, request)


class Shy(HeuristicBot):
    """The heuristic bot, except that it never shows a poignée: a baseline that differs from
    the heuristic only on the rare deals where a seat holds one."""

    name = "shy"

    def show_poignee(self, table: TableView) -> bool:
        return False


PAIRS: dict[str, tuple[Callable[[], Bot], Callable[[], Bot]]] = {
    "bidding": (Timid, HeuristicBot),
    "bidding_improved": (HeuristicBot, Timid),
    "card_play": (HeuristicBot, Careless),
    "poignee": (HeuristicBot, Shy),
}
"""Name -> (candidate, baseline). ``bidding`` is a patch that breaks the bidding (the close pair
of ``bench.duplicate``), tested for non-regression; the others are improvements."""


# ------------------------------------------------------------------------------- playing
class TimidCareless(Careless):
    """Careless, and it never bids either: worse than the heuristic in bidding and card play."""

    name = "timid-careless"

    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        return PASS


IMPOSED_PAIRS: dict[str, tuple[Callable[[], Bot], Callable[[], Bot]]] = {
    "card_play": (HeuristicBot, Careless),
    "card_play_reversed": (Careless, HeuristicBot),
    "bidding_and_card_play": (TimidCareless, HeuristicBot),
}
"""Pairs played on imposed boards too (and on free ones when not in :data:`PAIRS`)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    pair: str
    imposed: bool
    first: int
    count: int


async def play_imposed_board(candidate: Bot, baseline: Bot, auction_bot: Bot, seed: int,
                             board: int) -> Board:
    """A board as ``compare --imposed`` plays it: the baseline's auction at all five tables."""
    deal = board_deal(seed, board, OPTIONS)
    auction = await free_auction(deal, OPTIONS, auction_seat(auction_bot),
                                 time_control=LOCAL_TIME_CONTROL)
    scores: dict[int, tuple[int, ...]] = {}
    for plan in gauntlet("c", "b", PLAYERS, 1):
        bots = [candidate if key == "c" else baseline for key in plan.bots]
        outcome = await play_local(deal, OPTIONS, bots, f"imposed/{board}",
                                   bot_ids=list(plan.bots), strict=False, auction=auction)
        scores[plan.number] = outcome.result.scores
    control = scores[PLAYERS]
    mine = tuple(scores[seat][seat] for seat in range(PLAYERS))
    datum = math.fsum(c - m for c, m in zip(control, mine, strict=True)) / PLAYERS
    return Board(datum, 0.0, control, mine, (False,) * PLAYERS)


CACHE = Path(__file__).resolve().parent.parent / ".cache" / "bench-regression"
"""Where the boards played are recorded (one JSON file per chunk)."""


def fingerprint() -> str:
    """Of the code that decides how the bench's boards come out: the game, the bots, the
    seating, the scoring and this bench's own bots (a change to any of them plays again)."""
    digest = hashlib.sha256()
    for module in (arena.games.french_tarot, clients.heuristic_bot, clients.local, bench.duplicate,
                   tournaments.duplicate.seatings, tournaments.duplicate.scoring,
                   tournaments.play.imposed):
        folder = Path(inspect.getfile(module))
        files = sorted(folder.parent.glob("*.py")) if folder.name == "__init__.py" else [folder]
        for file in files:
            digest.update(file.read_bytes())
    for bot in (Careless, TimidCareless, Shy):
        digest.update(inspect.getsource(bot).encode())
    digest.update(str(SEED).encode())
    return digest.hexdigest()[:16]


def chunk_file(chunk: Chunk, key: str) -> Path:
    kind = "imposed" if chunk.imposed else "free"
    return CACHE / f"{chunk.pair}-{kind}-{chunk.first}-{chunk.count}-{key}.json"


def recorded(chunk: Chunk, key: str) -> list[Board] | None:
    """The chunk's boards as recorded by an earlier run of the same code, if any."""
    try:
        rows = json.loads(chunk_file(chunk, key).read_text())
    except (OSError, ValueError):
        return None
    return [Board(float(r["datum"]), float(r["matchpoints"]), tuple(r["strong"]),
                  tuple(r["weak"]), tuple(r["diverged"])) for r in rows]


def record(chunk: Chunk, key: str, boards: list[Board]) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    rows = [{"datum": b.datum, "matchpoints": b.matchpoints, "strong": list(b.strong),
             "weak": list(b.weak), "diverged": list(b.diverged)} for b in boards]
    temporary = chunk_file(chunk, key).with_suffix(".part")
    temporary.write_text(json.dumps(rows))
    temporary.replace(chunk_file(chunk, key))


def play_chunk(chunk: Chunk) -> tuple[Chunk, list[Board]]:
    """The chunk's boards, played and recorded (in a worker process)."""
    boards = play_boards(chunk)
    record(chunk, fingerprint(), boards)
    return chunk, boards


def play_boards(chunk: Chunk) -> list[Board]:
    make_candidate, make_baseline = {**PAIRS, **IMPOSED_PAIRS}[chunk.pair]

    async def play() -> list[Board]:
        candidate, baseline = make_candidate(), make_baseline()
        if chunk.imposed:
            auction_bot = make_baseline()
            return [await play_imposed_board(candidate, baseline, auction_bot, SEED, b)
                    for b in range(chunk.first, chunk.first + chunk.count)]
        # play_board's "weak" bot holds the single seats, its "strong" bot the fillers and the
        # control table: the candidate and the baseline of a compare.
        return [await play_board(candidate, baseline, SEED, b)
                for b in range(chunk.first, chunk.first + chunk.count)]

    return trio.run(play)


def variance_figures(name: str, free: list[Board], imposed: list[Board]) -> dict[str, object]:
    """Imposed boards against free boards: mean and variance per deal of the difference."""
    out: dict[str, object] = {}
    line = f"{name}, imposed against free boards:"
    for kind, boards in (("free", free), ("imposed", imposed)):
        diffs = [-b.datum for b in boards]
        d, s = statistics.fmean(diffs), statistics.stdev(diffs)
        out[kind] = {"difference": round(d, 2), "sd_per_board": round(s, 1),
                     "variance_per_deal": round(s * s * BOARD_DEALS),
                     "fixed_duplicate_deals": fixed_units(s, abs(d)) * BOARD_DEALS if d else None}
        line += (f" {kind} {d:+.2f} per board, variance per deal {s * s * BOARD_DEALS:.0f} "
                 f"(fixed duplicate {out[kind]['fixed_duplicate_deals']} deals);")  # type: ignore[index]
    v_free = out["free"]["variance_per_deal"]  # type: ignore[index]
    v_imposed = out["imposed"]["variance_per_deal"]  # type: ignore[index]
    out["variance_ratio_free_to_imposed"] = round(v_free / v_imposed, 2) if v_imposed else None
    print(f"{line} free / imposed variance = {out['variance_ratio_free_to_imposed']}",
          file=sys.stderr)
    return out


# ----------------------------------------------------------------------------- the tests
@dataclass(frozen=True, slots=True)
class Runs:
    accepted: float
    rejected: float
    inconclusive: float
    deals_mean: float
    deals_p90: float

    @property
    def boards_mean(self) -> float:
        return self.deals_mean / BOARD_DEALS

    @property
    def boards_p90(self) -> float:
        return self.deals_p90 / BOARD_DEALS


def sequential_runs(values: Sequence[float], settings: SprtSettings, runs: int, seed: int
                    ) -> Runs:
    """``runs`` tests each fed boards drawn at random with replacement from ``values``."""
    rng = random.Random(seed)
    verdicts: list[Verdict] = []
    deals: list[float] = []
    for _ in range(runs):
        test = Sprt(settings)
        while test.add(rng.choice(values)) is None:
            pass
        assert test.verdict is not None
        verdicts.append(test.verdict)
        deals.append(test.n * BOARD_DEALS)
    return Runs(
        verdicts.count(Verdict.ACCEPTED) / runs, verdicts.count(Verdict.REJECTED) / runs,
        verdicts.count(Verdict.INCONCLUSIVE) / runs, statistics.fmean(deals),
        quantiles(deals, [0.9])[0],
    )


def fixed_units(sd: float, difference: float) -> float:
    """Units a one-sided z test at ALPHA needs for power 1 - BETA at ``difference``."""
    z = statistics.NormalDist().inv_cdf(1 - ALPHA) + statistics.NormalDist().inv_cdf(1 - BETA)
    return math.ceil((z * sd / difference) ** 2)


def summarize(name: str, boards: list[Board], runs: int, cap_factor: float, min_boards: int
              ) -> dict[str, object]:
    diffs = [-b.datum for b in boards]  # datum is the baseline's minus the candidate's
    d, s = statistics.fmean(diffs), statistics.stdev(diffs)
    candidate = [float(x) for b in boards for x in b.weak]
    control = [float(x) for b in boards for x in b.strong]
    plain_var = statistics.variance(candidate) + statistics.variance(control)
    fixed_dup = fixed_units(s, abs(d)) * BOARD_DEALS
    fixed_plain = fixed_units(math.sqrt(plain_var), abs(d)) * PAIR_DEALS
    cap = max(100, math.ceil(cap_factor * fixed_dup / BOARD_DEALS))
    limit = ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / runs)
    power_limit = 1 - BETA - 2 * math.sqrt(BETA * (1 - BETA) / runs)
    improvement = d > 0
    test = ("improvement: H0 0, H1 the true difference" if improvement else
            "non-regression: H0 the true difference, H1 0")
    out: dict[str, object] = {
        "boards": len(boards), "difference": round(d, 2), "sd_per_board": round(s, 1),
        "difference_in_sd": round(d / s, 3),
        "boards_played_alike": round(sum(1 for x in diffs if x == 0) / len(diffs), 3),
        "test": test,
        "fixed_duplicate_deals": fixed_dup, "fixed_plain_deals": fixed_plain,
        "plain_variance_per_step": round(plain_var),
        "duplicate_variance_per_deal": round(s * s * BOARD_DEALS),
        "plain_variance_per_deal": round(plain_var * PAIR_DEALS),
        "cap_boards": cap, "runs": runs,
    }
    skew = math.fsum((x - d) ** 3 for x in diffs) / len(diffs) / s**3
    out["skewness_per_board"] = round(skew, 2)
    print(f"{name}: {len(boards)} boards, true difference {d:+.2f} points per board (sd "
          f"{s:.1f}, {d / s:+.3f} sd, skewness {skew:+.1f}; "
          f"{100 * out['boards_played_alike']:.0f} % of boards "  # type: ignore[operator]
          f"played alike); variance per deal duplicate {s * s * BOARD_DEALS:.0f}, plain "
          f"{plain_var * PAIR_DEALS:.0f}; fixed samples at alpha = beta = {ALPHA}: duplicate "
          f"{fixed_dup} deals, plain {fixed_plain} deals", file=sys.stderr)
    centred = [x - d for x in diffs]
    for units in (Units.POINTS, Units.SD):
        scale = 1.0 if units is Units.POINTS else s
        low, high = (0.0, d / scale) if improvement else (d / scale, 0.0)
        settings = SprtSettings(low, high, units, ALPHA, BETA, cap, min_boards)
        # Fed boards whose true mean is H0's (a false positive if accepted) and H1's.
        at_h0 = sequential_runs(centred if improvement else diffs, settings, runs, seed=1)
        at_h1 = sequential_runs(diffs if improvement else centred, settings, runs, seed=2)
        truth = at_h1 if improvement else at_h0
        # The A/A check of the improvement test (H0 0, H1 |d|) on this pair's spread.
        aa = at_h0 if improvement else sequential_runs(
            centred, SprtSettings(0.0, abs(d) / scale, units, ALPHA, BETA, cap, min_boards),
            runs, seed=3)
        in_order = Sprt(settings)
        for x in diffs:
            if in_order.add(x) is not None:
                break
        ratio = fixed_plain / truth.deals_mean
        key = units.value
        out[key] = {
            "h0": round(low, 4), "h1": round(high, 4),
            "aa_false_positive_rate": round(aa.accepted, 4),
            "false_positive_rate": round(at_h0.accepted, 4),
            "false_positive_limit": round(limit, 4),
            "false_positive_within": max(aa.accepted, at_h0.accepted) <= limit,
            "power": round(at_h1.accepted, 4),
            "power_limit": round(power_limit, 4),
            "power_within": at_h1.accepted >= power_limit,
            "rejected_at_h1": round(at_h1.rejected, 4),
            "inconclusive_at_h1": round(at_h1.inconclusive, 4),
            "right_verdict_at_true_difference": round(
                truth.accepted if improvement else truth.rejected, 4),
            "inconclusive_at_true_difference": round(truth.inconclusive, 4),
            "deals_mean": round(truth.deals_mean, 1),
            "deals_p90": truth.deals_p90,
            "boards_mean": round(truth.boards_mean, 1),
            "boards_p90": truth.boards_p90,
            "deals_mean_aa": round(aa.deals_mean, 1),
            "ratio_fixed_plain_to_sequential_mean": round(ratio, 2),
            "ratio_fixed_plain_to_sequential_p90": round(fixed_plain / truth.deals_p90, 2),
            "ratio_fixed_duplicate_to_sequential_mean": round(fixed_dup / truth.deals_mean, 2),
            "in_order": {"verdict": in_order.verdict.value if in_order.verdict else None,
                         "deals": in_order.n * BOARD_DEALS},
            "meets_target": ratio >= TARGET,
        }
        within = "ok" if out[key]["false_positive_within"] else "OVER"  # type: ignore[index]
        powered = "ok" if out[key]["power_within"] else "UNDER"  # type: ignore[index]
        print(f"  bounds in {key}: H0 {low:+.3g}, H1 {high:+.3g}, {runs} runs each: A/A "
              f"accepted as better {100 * aa.accepted:.1f} %, accepted at H0 "
              f"{100 * at_h0.accepted:.1f} % (limit {100 * limit:.1f} %: {within}), power "
              f"{100 * at_h1.accepted:.1f} % (limit {100 * power_limit:.1f} %: {powered}; rejected "
              f"{100 * at_h1.rejected:.1f} %, at the cap {100 * at_h1.inconclusive:.1f} %); at the "
              f"true difference: boards to a verdict mean {truth.boards_mean:.0f}, 90th "
              f"percentile {truth.boards_p90:.0f} ({truth.deals_mean:.0f} / "
              f"{truth.deals_p90:.0f} deals; inconclusive {100 * truth.inconclusive:.1f} %); "
              f"plain fixed / sequential = {ratio:.1f} (p90 {fixed_plain / truth.deals_p90:.1f}; "
              f"target {TARGET:g}), duplicate fixed / sequential = "
              f"{fixed_dup / truth.deals_mean:.1f}; in played order: "
              f"{in_order.verdict.value if in_order.verdict else 'undecided'} after "
              f"{in_order.n * BOARD_DEALS} deals", file=sys.stderr)
    return out


def table(figures: dict[str, object]) -> None:
    """Every pair with both kinds of bounds, as one Markdown table (for the README)."""
    print("| pair | bounds | difference per board | accepted at H0 (limit) | power (limit) | "
          "at H1: rejected, at the cap | boards to a verdict, mean / p90 | fixed duplicate "
          "boards | fixed plain deals | plain / sequential deals, mean / p90 |\n"
          "|---|---|---|---|---|---|---|---|---|---|", file=sys.stderr)
    for pair in PAIRS:
        f: dict[str, Any] = figures[pair]  # type: ignore[assignment]
        for key in (Units.POINTS.value, Units.SD.value):
            u = f[key]
            rate = max(u["aa_false_positive_rate"], u["false_positive_rate"])
            print(f"| {pair} | {key} {u['h0']:.3g},{u['h1']:.3g} | {f['difference']:+.2f} (sd "
                  f"{f['sd_per_board']}, {100 * f['boards_played_alike']:.0f} % alike) | "
                  f"{100 * rate:.1f} % ({100 * u['false_positive_limit']:.1f} %) | "
                  f"{100 * u['power']:.1f} % ({100 * u['power_limit']:.1f} %) | "
                  f"{100 * u['rejected_at_h1']:.1f} %, {100 * u['inconclusive_at_h1']:.1f} % | "
                  f"{u['boards_mean']:.0f} / {u['boards_p90']:.0f} | "
                  f"{f['fixed_duplicate_deals'] // BOARD_DEALS} | {f['fixed_plain_deals']:,} | "
                  f"{u['ratio_fixed_plain_to_sequential_mean']:.1f} / "
                  f"{u['ratio_fixed_plain_to_sequential_p90']:.1f} |", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=None,
                        help="boards played per pair (default 600, quick 200)")
    parser.add_argument("--runs", type=int, default=1000,
                        help="sequential runs per figure (default 1000)")
    parser.add_argument("--cap", type=float, default=3.0,
                        help="the tests' cap in boards, as a multiple of the fixed-sample "
                             "duplicate test's (default 3)")
    parser.add_argument("--min-boards", type=int, default=DEFAULT_MIN_BOARDS,
                        help=f"no verdict before this many boards (default {DEFAULT_MIN_BOARDS}, "
                             f"as compare's)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes (default: the CPUs available)")
    parser.add_argument("--quick", action="store_true", help="fewer boards")
    parser.add_argument("--fresh", action="store_true",
                        help="play every board again instead of reading the recorded ones")
    args = parser.parse_args()
    boards = args.boards or (200 if args.quick else 600)
    if args.runs < 1 or boards < 2 * CHUNK:
        parser.error(f"--runs must be positive and --boards at least {2 * CHUNK}")
    workers = args.jobs or len(os.sched_getaffinity(0))
    started = time.perf_counter()
    kinds = [(pair, False) for pair in PAIRS] + [(pair, True) for pair in IMPOSED_PAIRS]
    kinds += [(pair, False) for pair in IMPOSED_PAIRS if pair not in PAIRS]
    chunks = [Chunk(pair, imposed, first, min(CHUNK, boards - first))
              for pair, imposed in kinds for first in range(0, boards, CHUNK)]
    played: dict[tuple[str, bool], dict[int, list[Board]]] = {kind: {} for kind in kinds}
    key = fingerprint()
    to_play = []
    for chunk in chunks:
        kept = None if args.fresh else recorded(chunk, key)
        if kept is None:
            to_play.append(chunk)
        else:
            played[(chunk.pair, chunk.imposed)][chunk.first] = kept
    if to_play:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            for chunk, result in pool.map(play_chunk, to_play):
                played[(chunk.pair, chunk.imposed)][chunk.first] = result
    play_seconds = time.perf_counter() - started
    print(f"{len(chunks) - len(to_play)} of {len(chunks)} chunks of boards read from {CACHE.name}/"
          f", {len(to_play)} played ({play_seconds:.0f} s)", file=sys.stderr)
    figures: dict[str, object] = {
        "alpha": ALPHA, "beta": BETA, "target_ratio": TARGET, "players": 4,
        "deals_per_board": BOARD_DEALS, "deals_per_plain_step": PAIR_DEALS,
        "design": "gauntlet: the candidate in each seat among 3 baseline fillers plus the "
                  "baseline's control table, 5 deals a board; sequential runs resample the "
                  "stored boards",
    }
    def ordered(pair: str, imposed: bool) -> list[Board]:
        chunks = played[(pair, imposed)]
        return [b for first in sorted(chunks) for b in chunks[first]]

    for pair in PAIRS:
        figures[pair] = summarize(pair, ordered(pair, False), args.runs, args.cap,
                                  args.min_boards)
    table(figures)
    figures["imposed"] = {pair: variance_figures(pair, ordered(pair, False), ordered(pair, True))
                          for pair in IMPOSED_PAIRS}
    figures["deals_played"] = sum(c.count for c in to_play) * BOARD_DEALS
    figures["deals_recorded"] = boards * BOARD_DEALS * len(kinds)
    figures["play_seconds"] = round(play_seconds, 1)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    figures["workers"] = workers
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
