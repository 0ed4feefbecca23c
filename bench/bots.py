"""The search bot against the heuristic: a duplicate gauntlet played in-process on one core.

Design (pure duplicate, as ``bench.duplicate`` plays it): on each board the search bot plays
once in every seat among ``players - 1`` heuristic fillers (``players`` deals), and the board is
also played once by ``players`` heuristics (deterministic, so that one deal gives the
heuristic's result in every seat). A board's value is the mean over seats of (the search bot's
score - the heuristic's score in that seat, on the same cards against the same fillers); the
interval is a 95 % t interval over boards (``tournaments.duplicate.stats.mean_interval``). Positive:
the search bot scores more than the heuristic would in its place. With two players (the dummy),
the search bot holds each player's seat in turn (the non-dealer, the dealer) against one
heuristic, and plays the dummy when it defends, as the heuristic does in the reference deal.

Each time level gives the search bot that many milliseconds per decision (the runner's time
control, so a late answer is a timeout infraction, as on the arena); ``--samples`` instead
plays a fixed number of draws per decision. The figures: mean per board and its interval, draws
(sampled deals) and rollouts (deals played out) per second of search, infractions of every kind.

Where a timeout's time went: each decision of the search bot is timed on the wall clock and on
the process's CPU clock. A timeout whose decision used less CPU than the limit (the rest of the
wall time spent waiting for a CPU: the machine busy elsewhere) counts in ``timeouts_off_cpu``.
Where Linux keeps the thread's scheduler statistics, a decision's time off its CPU is split in
two: ``waited_ms``, in this machine's queue for a CPU, and ``held_by_host_ms``, the hypervisor
pausing the virtual CPU while the thread ran on it. A paused virtual CPU also holds up the
threads queued on it, so a timeout's ``host_ms`` is its hold plus at most the machine's steal
time meanwhile (``stolen_ms``) of its wait: what the host may have cost it (no program inside a
virtual machine answers in time through a pause longer than its margin). A timeout still late
without it, with no wait in this machine's queue as long as half the limit (the most the bot
keeps in hand for waits), counts in ``timeouts_of_its_own``;
``stall_ms_max`` is the longest such wait in any decision, timed out or not. A timeout the bot
would cause itself (its own work past the limit) shows as a timeout not off CPU; whatever the
load, ``decisions_over_limit_on_cpu`` counts the decisions whose CPU time alone passed the limit
(``cpu_ms_max``: the longest), and ``decisions_with_a_full_collection`` those in which a full
garbage collection ran (``clients/search_collector.py`` moves them to forced cards). Each
decision past the limit on the CPU is also caught where it spends that time: from the limit on,
a CPU timer samples the bot's stack every millisecond, and the run prints the stacks (the JSON's
``overruns``), so that a rare overrun is found in the run where it happened.

The machine's steal time during each decision (``/proc/stat``: the hypervisor running something
else on this virtual machine's CPUs) is printed with every overrun and timeout: a guest that
does not take it out of its tasks' time counts it as the bot's own CPU time.

``--cpu-clock`` keeps the search bot's time on the process's CPU clock instead (the view's
deadline the limit's CPU seconds after the decision begins): on a loaded machine the waits for a
CPU no longer eat the bot's time. A CPU second there still does less work than on an idle
machine (the cores' caches and pipelines shared), so compare ``draws_per_second``: such a figure
is not an idle machine's. The runner then times out only a hung decision; a decision past the
limit on the CPU is what would have been late. Figures so taken say so (``cpu_clock``).

    python -m bench.bots [--quick] [--levels 20,100,500] [--boards N] [--players 2|3|4|5]
                         [--first-board B] [--cpu-clock]
    (make bench-bots; the issue's full run: --boards 200 at 20, 100 and 500 ms; it takes hours)

Comparing versions of the search bot, PAIRED on the same boards (the heuristic's reference and
most of the luck of the cards cancel): ``--bot-options solver_cards=0 solver_cards=3`` plays
each set of SearchBot options at every level and prints each one's per-board difference from
the first (a value that is not a number is passed as a word: ``rollout=rules``); ``--paired
A.json B.json`` does the same for two runs already made (two versions of the code at the same
seed, or two variants run in their own processes, one core each). ``--speed`` times a rollout
of the quick policy and an exact solve of the last tricks from the same positions, the merging
of equivalent cards, and the taker's draws; ``--taker-speed [PASSES]`` only the last: a taker's
card decisions (``--boards`` random positions, default 40, at the first ``--samples`` value,
default 20; each ``--bot-options`` variant, e.g. ``default replies=0``), in draws per CPU
second, the best of PASSES passes (default 3). Under ``valgrind --tool=callgrind``,
``--taker-speed 1`` and ``--taker-speed 2`` differ by one pass: its instructions over its
draws are a draw's, whatever the machine's load.

Variants of the search bot's decisions before the card play, compared PAIRED on the same boards:
``--decision-variants rules,bid,bid+discard``
plays each variant (the decisions before the card play it takes by simulation, ``+``-joined;
``rules`` for none; ``:T`` after it sets its decision trust, e.g. ``bid:0``) at the first
``--samples`` or ``--levels`` value, and prints for each the per-board difference from the first
variant (mean and 95 % interval over boards; with fixed samples the card play is the same, so the
difference is the decisions'), and on how many boards they differed at all.

``--profile`` plays the search bot's tables of ``--boards`` boards (default 6) at the first
``--levels`` or ``--samples`` value and prints where its time and its draws go: the decisions
per second of each phase, the draws and candidate cards per card decision, how far one card's
score spreads between draws and the paired spread of (best - second best), and how often a
bootstrap of the decision's draws would pick another card (a search that picks the same card
on most resamples is limited by its rollout policy, not by its number of draws).

``--rollout-bias DEALS`` measures instead how far the search bot's quick rollout falls short of
the heuristic's play for the taker's side (the figures behind
:data:`clients.search_bidding.TAKER_SHIFT`): DEALS deals of seed ``--seed`` per player count, bid,
called and discarded by the rules, then played once by the rollout and once by the heuristic.

The last line printed is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import os
import platform
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from types import FrameType
from typing import Any

from arena.games.french_tarot import Bid, GameState, Phase, TableOptions, apply, legal_actions
from arena.games.french_tarot.cards import Card
from arena.games.french_tarot.deal import HAND_SIZES
from arena.games.french_tarot.simulate import copy_state
from arena.table import TableOutcome, TimeControl
from arena.table.messages import DecisionRequest, InfractionKind
from clients.heuristic_bot import HeuristicBot
from clients.local import play_plans
from clients.sdk import TableView, solve
from clients.sdk.solver import cards_left
from clients.search_bidding import DECISIONS
from clients.search_bot import (
    BID_WINDOW,
    DECISION_TRUST,
    ROLLOUTS,
    SIMULATED,
    SIMULATED_BY_PLAYERS,
    SearchBot,
    finish,
    rollout_card,
)
from clients.search_collector import COLLECTOR
from clients.search_timing import MAX_MARGIN_SHARE, TimedSearch
from tournaments.duplicate.scoring import Entry
from tournaments.duplicate.seatings import TablePlan
from tournaments.duplicate.stats import mean_interval

OVERRUN_SAMPLE = 0.001
"""CPU seconds between two samples of a decision's stack once it is past its limit."""
STACK_DEPTH = 12
"""Frames kept per sample, the innermost first."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""``/proc/stat``'s unit of time, per second."""
CPU_CLOCK_RUNNER_LIMIT = 60.0
"""With ``--cpu-clock``, the runner's own limit per decision, seconds: the bot keeps its time
on the CPU clock, and only a decision that hangs is timed out."""


def gauntlet_plans(boards: int, players: int, first_board: int = 0) -> list[TablePlan]:
    """Per board: the search bot in each seat among heuristics, then the heuristics alone."""
    plans = []
    for board in range(first_board, first_board + boards):
        for seat in range(players):
            bots = tuple("search" if s == seat else "heuristic" for s in range(players))
            plans.append(TablePlan(board, seat, bots, (True,) * players))
        plans.append(TablePlan(board, players, ("heuristic",) * players, (True,) * players))
    return plans


def board_values(entries: list[Entry], players: int) -> list[float]:
    """Each board's mean over seats of (search score - heuristic score in that seat)."""
    search: dict[tuple[int, int], int] = {}
    reference: dict[tuple[int, int], int] = {}
    for e in entries:
        table_number = int(e.table_id.rsplit("/t", 1)[1])
        if table_number == players:
            reference[(e.board, e.seat)] = e.score
        elif e.bot_id == "search":
            search[(e.board, e.seat)] = e.score
    boards = sorted({board for board, _ in search})
    return [
        sum(search[(b, s)] - reference[(b, s)] for s in range(players)) / players
        for b in boards
    ]


def deal_summary(plan: TablePlan, outcome: TableOutcome) -> dict[str, Any]:
    """What ``--breakdown`` needs of a table: its board, the search bot's seat (None at the
    heuristics' table), the taker, the partner (5 players), the contract, each seat's bids and
    score."""
    state = outcome.state
    bids: list[list[str]] = [[] for _ in plan.bots]
    for seat, action in state.bids:
        bids[seat].append(action.contract.name if isinstance(action, Bid) else "PASS")
    return {
        "board": plan.board,
        "seat": plan.bots.index("search") if "search" in plan.bots else None,
        "taker": state.taker, "partner": state.partner,
        "contract": state.contract.name if state.contract is not None else None,
        "bids": ["/".join(b) for b in bids],
        "scores": list(outcome.result.scores),
    }


def role_of(deal: dict[str, Any], seat: int) -> str:
    """The seat's role in a deal: taker, (called) partner, defender, or passed (no taker)."""
    if deal["taker"] is None:
        return "passed"
    if deal["taker"] == seat:
        return "taker"
    return "partner" if deal["partner"] == seat else "defender"


def breakdown(deals: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The per-board difference (search - heuristic in the same seat) split by where it arose:
    the search bot's role at its table, whether its bids were the heuristic's in that seat (when
    they were, the whole auction was: the fillers are deterministic), and the contract. Each
    part's contribution is a mean over boards of that part's share of the board's value, so the
    parts add up to the run's mean per board (with a t interval over boards each)."""
    reference = {d["board"]: d for d in deals if d["seat"] is None}
    boards = sorted(reference)
    parts: dict[tuple[str, str], dict[int, float]] = {}
    counts: dict[tuple[str, str], int] = {}
    for deal in deals:
        seat = deal["seat"]
        if seat is None or deal["board"] not in reference:
            continue
        ref = reference[deal["board"]]
        diff = (deal["scores"][seat] - ref["scores"][seat]) / players
        role = role_of(deal, seat)
        same = deal["bids"][seat] == ref["bids"][seat]
        keys = [
            ("role", role),
            ("role, bids", f"{role}, {'same bids' if same else 'other bids'}"),
            ("contract", f"{deal['contract'] or 'none'}, {role}"),
            ("bids", "same bids" if same else
             f"{role_of(ref, seat)} {ref['contract'] or ''} -> {role} {deal['contract'] or ''}"),
        ]
        for key in keys:
            parts.setdefault(key, {})
            parts[key][deal["board"]] = parts[key].get(deal["board"], 0.0) + diff
            counts[key] = counts.get(key, 0) + 1
    rows = []
    for (kind, name), by_board in sorted(parts.items()):
        values = [by_board.get(b, 0.0) for b in boards]
        interval = mean_interval(values)
        rows.append({"by": kind, "part": name, "seat_deals": counts[(kind, name)],
                     "per_board": round(interval.mean, 2),
                     "low_95": round(interval.mean - interval.half_width, 2),
                     "high_95": round(interval.mean + interval.half_width, 2),
                     "per_seat_deal": round(interval.mean * len(boards) * players
                                            / counts[(kind, name)], 2)})
    return {"boards": len(boards), "players": players, "rows": rows}


def print_breakdown(table: dict[str, Any]) -> None:
    """The breakdown as text (stderr), one block per way of splitting."""
    print(f"{table['boards']} boards, {table['players']} players: contribution per board "
          "(95 % over boards), seat-deals, mean per seat-deal", file=sys.stderr)
    kind = None
    for row in table["rows"]:
        if row["by"] != kind:
            kind = row["by"]
            print(f"by {kind}:", file=sys.stderr)
        print(f"  {row['part']:<32} {row['per_board']:+7.2f} [{row['low_95']:+.2f}, "
              f"{row['high_95']:+.2f}]  {row['seat_deals']:>5}  {row['per_seat_deal']:+8.2f}",
              file=sys.stderr)


class DecisionTimer:
    """Times each decision of one bot on the wall and CPU clocks (``method_for`` wrapped on the
    instance: the runner's seat asks it for every request, in order), so that a timeout can be
    told apart from a stall, and the garbage collector's time inside it (``gc.callbacks``): a
    decision that overran on the CPU says whether a collection took the margin.

    With ``limit`` (seconds), a decision whose CPU time passes it is also caught where it is:
    from then on a CPU timer (``ITIMER_PROF``) samples the bot's Python stack every
    :data:`OVERRUN_SAMPLE` seconds (:attr:`stacks`), so a rare overrun that no replay of random
    positions reproduces is found in the run where it happened. Decisions within the limit never
    take a sample; a compiled function in the engine shows as the Python frame that called it,
    sampled when it returns."""

    def __init__(self, bot: SearchBot, limit: float | None = None) -> None:
        self.times: list[tuple[float, float]] = []
        """(wall seconds, CPU seconds) per decision since the last :meth:`take`."""
        self.details: list[tuple[str, float, int]] = []
        """(the method's name, seconds in the garbage collector, its oldest generation
        collected, -1 for none) per decision, beside :attr:`times`."""
        self.stacks: list[list[tuple[float, tuple[str, ...]]]] = []
        """Per decision, beside :attr:`times`: (CPU seconds into the decision, the stack's
        innermost frames first) for each sample taken past the limit; empty within it."""
        self.stolen: list[float] = []
        """Per decision, beside :attr:`times`: the machine's steal time meanwhile
        (:func:`stolen_seconds`)."""
        self.schedule: list[tuple[float, float] | None] = []
        """Per decision, beside :attr:`times`: (seconds the deciding thread waited for a CPU of
        this machine, seconds the host held it off while it ran), from the thread's own
        scheduler statistics (:func:`thread_schedule`); None where the system keeps none."""
        self._collecting = 0.0
        self._gc_seconds = 0.0
        self._oldest = -1
        self._began_cpu = 0.0
        self._samples: list[tuple[float, tuple[str, ...]]] = []
        self.limit = limit if limit is not None and hasattr(signal, "setitimer") else None
        if self.limit is not None:
            self._previous_handler = signal.signal(signal.SIGPROF, self._on_sample)
        method_for = bot.method_for
        bot.method_for = lambda request: self._timed(method_for(request))  # type: ignore[method-assign]
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
        else:
            self._gc_seconds += time.perf_counter() - self._collecting
            self._oldest = max(self._oldest, info["generation"])

    def _on_sample(self, signum: int, frame: FrameType | None) -> None:
        at = time.process_time() - self._began_cpu
        if self.limit is None or at < self.limit:
            return  # the kernel's CPU timer runs ahead of the process's clock under load
        where: list[str] = []
        while frame is not None and len(where) < STACK_DEPTH:
            code = frame.f_code
            where.append(f"{Path(code.co_filename).stem}:{frame.f_lineno} {code.co_name}")
            frame = frame.f_back
        self._samples.append((at, tuple(where)))

    def _timed(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any) -> Any:
            self._gc_seconds, self._oldest = 0.0, -1
            self._samples = []
            stolen = stolen_seconds()
            schedule = thread_schedule()
            wall, cpu = time.perf_counter(), time.process_time()
            self._began_cpu = cpu
            if self.limit is not None:
                signal.setitimer(signal.ITIMER_PROF, self.limit, OVERRUN_SAMPLE)
            try:
                return method(*args)
            finally:
                if self.limit is not None:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                took = time.perf_counter() - wall
                self.times.append((took, time.process_time() - cpu))
                after = thread_schedule()
                if schedule is None or after is None:
                    self.schedule.append(None)
                else:
                    ran, waited = after[0] - schedule[0], after[1] - schedule[1]
                    self.schedule.append((waited, max(0.0, took - ran - waited)))
                self.details.append(
                    (getattr(method, "__name__", "decide"), self._gc_seconds, self._oldest))
                self.stacks.append(self._samples)
                self.stolen.append(stolen_seconds() - stolen)
        return timed

    def take(self) -> list[tuple[tuple[float, float], tuple[str, float, int],
                                 list[tuple[float, tuple[str, ...]]], float,
                                 tuple[float, float] | None]]:
        taken = list(zip(self.times, self.details, self.stacks, self.stolen, self.schedule,
                         strict=True))
        self.times, self.details, self.stacks, self.stolen, self.schedule = [], [], [], [], []
        return taken

    def close(self) -> None:
        gc.callbacks.remove(self._on_gc)
        if self.limit is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self._previous_handler)


def stolen_seconds() -> float:
    """The machine's steal time so far, all CPUs, in seconds (``/proc/stat``; 0 where it is not
    kept): time the hypervisor ran something else on this virtual machine's CPUs. Where the guest
    does not take it out of its tasks' time, a decision stolen from counts it as its own CPU
    time, so an overrun on the CPU with as much stolen meanwhile was the host's, not the bot's."""
    try:
        with open("/proc/stat", "rb") as stat:
            fields = stat.readline().split()
        return int(fields[8]) / CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


def thread_schedule() -> tuple[float, float] | None:
    """The calling thread's (seconds on a CPU, seconds waiting for one) so far, from Linux's
    ``/proc/thread-self/schedstat``; None where it is not kept.

    Its time on a CPU leaves out what the host stole meanwhile (the guest's task clock does,
    where it accounts steal time), and its wait counts only this machine's queue. So over a
    decision, wall time less both is how long the host held the thread off while it ran: a
    pause of the whole virtual machine, which no program inside it can answer in time through,
    told apart from a wait behind this machine's other work, which the bot must allow for."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as stat:
            ran, waited = stat.read().split()[:2]
        return int(ran) / 1e9, int(waited) / 1e9
    except (OSError, ValueError):
        return None


def lateness(wall: float, cpu: float, stolen: float, schedule: tuple[float, float] | None,
             limit: float) -> dict[str, Any]:
    """Where a late decision's time went (seconds in, milliseconds out), and whether it was the
    bot's own lateness (``its_own``): still late without the host's share, and no wait in this
    machine's queue as long as half the limit, the most a search keeps in hand for waits
    (:data:`clients.search_timing.MAX_MARGIN_SHARE`). The host's share is its hold while the
    thread ran, plus at most the machine's steal time meanwhile of its wait: a paused virtual
    CPU holds up the threads queued on it. Without the thread's statistics (``schedule``
    None), all its time off the CPU counts as waiting."""
    waited, held = schedule if schedule is not None else (wall - cpu, 0.0)
    host = min(held + waited, max(held, stolen))
    queued = waited - (host - held)
    own = wall - host > limit and queued < MAX_MARGIN_SHARE * limit
    return {"wall_ms": round(wall * 1000, 1), "cpu_ms": round(cpu * 1000, 1),
            "stolen_ms": round(stolen * 1000), "waited_ms": round(waited * 1000, 1),
            "held_by_host_ms": round(held * 1000, 1), "host_ms": round(host * 1000, 1),
            "its_own": own}


def overrun_summary(
    samples: list[tuple[float, tuple[str, ...]]],
) -> list[dict[str, object]]:
    """A decision's samples past the limit, one entry per distinct stack in the order first
    seen: how many samples, from when to when (CPU ms into the decision), the stack."""
    seen: dict[tuple[str, ...], dict[str, Any]] = {}
    for at, stack in samples:
        entry = seen.setdefault(stack, {"samples": 0, "from_ms": round(at * 1000, 1),
                                        "stack": list(stack)})
        entry["samples"] += 1
        entry["to_ms"] = round(at * 1000, 1)
    return list(seen.values())


def interval_figures(values: list[float]) -> dict[str, object]:
    """A level's figures over its boards' values (search - heuristic): the mean per board, its
    95 % interval, and whether the interval excludes zero in the search bot's favour."""
    interval = mean_interval(values)
    low, high = interval.mean - interval.half_width, interval.mean + interval.half_width
    return {
        "boards": len(values),
        "mean_per_board": round(interval.mean, 2),
        "half_width_95": round(interval.half_width, 2),
        "low_95": round(low, 2),
        "high_95": round(high, 2),
        "excludes_zero_for_search": low > 0,
    }


def search_rates(bot: TimedSearch) -> dict[str, object]:
    """Draws (sampled deals) and rollouts per second of search, over the bot's life."""
    searching = bot.search_time or 1e-9
    return {
        "draws_per_second": round(bot.draws / searching),
        "rollouts_per_second": round(bot.rollouts / searching),
        "draws": bot.draws,
        "rollouts": bot.rollouts,
    }


def on_cpu_clock(bot: SearchBot, limit: float) -> None:
    """The bot's time kept on the process's CPU clock (``--cpu-clock``): each request's view has
    its deadline ``limit`` CPU seconds after the decision begins, and the bot's clocks, its
    collector's included, read :func:`time.process_time`. A search then makes as many draws as
    its CPU gives it in ``limit``, whatever waits for a CPU the machine's other work adds (the
    runner's own limit must then be generous: a stall is no longer the bot's to absorb)."""
    bot.clock = bot.tre.clock = COLLECTOR.clock = time.process_time
    bot.cpu_clock = bot.tre.cpu_clock = None  # the clock is a CPU clock: no stall to measure
    method_for = bot.method_for

    def on_cpu(request: DecisionRequest) -> Callable[[TableView, DecisionRequest], Any]:
        method = method_for(request)

        def decide(view: TableView, request: DecisionRequest) -> Any:
            return method(dataclasses.replace(view, deadline=time.process_time() + limit),
                          dataclasses.replace(request, time_limit=limit))
        decide.__name__ = getattr(method, "__name__", "decide")
        return decide
    bot.method_for = on_cpu  # type: ignore[method-assign]


def run_level(
    label: str, bot: SearchBot, boards: int, players: int, seed: int,
    time_control: TimeControl, first_board: int = 0, cpu_clock: bool = False,
) -> dict[str, object]:
    runner_control = time_control
    if cpu_clock and bot.timed:
        on_cpu_clock(bot, time_control.per_decision)
        runner_control = TimeControl(per_decision=CPU_CLOCK_RUNNER_LIMIT)
    timer = DecisionTimer(bot, time_control.per_decision if bot.timed else None)
    stall = {"max": 0.0, "timeouts_off_cpu": 0, "timeouts_of_its_own": 0, "held_max": 0.0,
             "waited_max": 0.0}
    cpu_use = {"max": 0.0, "over_limit": 0, "full_collections": 0, "stolen_max": 0.0}
    """The search bot's own work per decision, whatever the machine's load: its longest CPU
    time, the decisions whose CPU time alone passed the limit, and those with a full garbage
    collection inside (the bot's own, at a forced card, or the collector's)."""
    late: list[dict[str, object]] = []
    overruns: list[dict[str, object]] = []
    """The decisions past the limit on the CPU, with where their stacks were meanwhile."""

    deals: list[dict[str, Any]] = []

    def on_table(plan: TablePlan, outcome: TableOutcome) -> None:
        times = timer.take()
        deals.append(deal_summary(plan, outcome))
        if "search" not in plan.bots:
            return
        seat = plan.bots.index("search")
        # With two players the defender also decides for the dummy (seat 2).
        defender = players == 2 and seat != outcome.state.taker
        mine = [d for d in outcome.decisions if d.seat == seat or (defender and d.seat == 2)]
        for decision, ((wall, cpu), (kind, in_gc, oldest), samples, stolen, schedule) in zip(
                mine, times, strict=True):
            stall["max"] = max(stall["max"], wall - cpu)
            waited, held = schedule if schedule is not None else (wall - cpu, 0.0)
            stall["waited_max"] = max(stall["waited_max"], waited)
            stall["held_max"] = max(stall["held_max"], held)
            cpu_use["max"] = max(cpu_use["max"], cpu)
            cpu_use["over_limit"] += cpu > time_control.per_decision
            cpu_use["full_collections"] += oldest == 2
            cpu_use["stolen_max"] = max(cpu_use["stolen_max"], stolen)
            if samples or cpu > time_control.per_decision:
                overruns.append({
                    "board": plan.board, "seat": seat, "decision": kind,
                    "cpu_ms": round(cpu * 1000, 1), "wall_ms": round(wall * 1000, 1),
                    "gc_ms": round(in_gc * 1000, 1), "stolen_ms": round(stolen * 1000),
                    "stacks": overrun_summary(samples)})
            infraction = decision.infraction
            if infraction is None or infraction.kind is not InfractionKind.TIMEOUT:
                continue
            if cpu < time_control.per_decision:
                stall["timeouts_off_cpu"] += 1
            why = lateness(wall, cpu, stolen, schedule, time_control.per_decision)
            stall["timeouts_of_its_own"] += why["its_own"]
            late.append({"decision": kind, "gc_ms": round(in_gc * 1000, 1),
                         "gc_oldest_generation": oldest, **why})

    start = time.perf_counter()
    try:
        entries = play_plans(
            gauntlet_plans(boards, players, first_board),
            {"search": bot, "heuristic": HeuristicBot()},
            seed=seed, options=TableOptions(players=players), time_control=runner_control,
            strict=False, on_table=on_table,
        )
    finally:
        timer.close()
    wall = time.perf_counter() - start
    values = board_values(entries, players)
    interval = mean_interval(values)
    kinds: dict[str, int] = {}
    for e in entries:
        for kind in e.infraction_kinds:
            key = f"{e.bot_id}:{kind}"
            kinds[key] = kinds.get(key, 0) + 1
    figures: dict[str, object] = {
        "level": label,
        "cpu_clock": cpu_clock and bot.timed,
        **interval_figures(values),
        **search_rates(bot),
        "decision_draws": bot.decision_draws,
        "merged_rollouts": bot.merged_rollouts,
        "merge": bot.merge,
        "spend_saved": bot.spend_saved,
        "bid_shift": "by players" if bot.bid_shift is None else bot.bid_shift,
        "simulate": sorted(bot.simulate) if bot.simulate is not None else "by players",
        "decision_trust": bot.decision_trust,
        "decision_samples": bot.decision_samples,
        "taker_shift": bot.taker_shift,
        "bid_samples": bot.bid_samples,
        "discard_samples": bot.discard_samples,
        "bid_shift_others": bot.bid_shift_others,
        "bid_window": bot.bid_window,
        "bid_rollout": bot.bid_rollout,
        "rollout": bot.rollout,
        "replies": "by players" if bot.replies is None else bot.replies,
        "decision_rollout": bot.decision_rollout,
        "infractions": kinds,
        "timeouts_off_cpu": stall["timeouts_off_cpu"],
        "timeouts_of_its_own": stall["timeouts_of_its_own"],
        "stall_ms_max": round(stall["max"] * 1000, 1),
        "waited_ms_max": round(stall["waited_max"] * 1000, 1),
        "held_by_host_ms_max": round(stall["held_max"] * 1000, 1),
        "cpu_ms_max": round(cpu_use["max"] * 1000, 1),
        "decisions_over_limit_on_cpu": cpu_use["over_limit"],
        "decisions_with_a_full_collection": cpu_use["full_collections"],
        "stolen_ms_max": round(cpu_use["stolen_max"] * 1000),
        "timeouts": late,
        "overruns": overruns,
        "seconds": round(wall, 1),
        "first_board": first_board,
        "values": values,
        "deals": deals,
    }
    low, high = interval.mean - interval.half_width, interval.mean + interval.half_width
    print(f"{label:>12}: {interval.mean:+7.2f} per board, 95% [{low:+.2f}, {high:+.2f}] "
          f"over {len(values)} boards; "
          f"{figures['draws_per_second']} draws/s, {figures['rollouts_per_second']} rollouts/s "
          f"({bot.merged_rollouts} saved by merging equivalent cards); "
          f"infractions {kinds or 'none'} ({stall['timeouts_off_cpu']} search timeouts off "
          f"CPU, {stall['timeouts_of_its_own']} of its own (see lateness()); longest "
          f"wait for a CPU {stall['max'] * 1000:.1f} ms, of it at most "
          f"{stall['waited_max'] * 1000:.1f} ms behind this machine's work and "
          f"{stall['held_max'] * 1000:.1f} ms held by the host; longest decision on the "
          f"CPU {cpu_use['max'] * 1000:.1f} ms, {cpu_use['over_limit']} over the limit on the "
          f"CPU, {cpu_use['full_collections']} with a full collection; most stolen by the host "
          f"in a decision {cpu_use['stolen_max'] * 1000:.0f} ms); {wall:.0f} s",
          file=sys.stderr, flush=True)
    for timeout in late:
        print(f"{'':>14}search timeout: {timeout}", file=sys.stderr, flush=True)
    for overrun in overruns:
        print(f"{'':>14}past the limit on the CPU: board {overrun['board']}, seat "
              f"{overrun['seat']}, {overrun['decision']}, {overrun['cpu_ms']} ms on the CPU, "
              f"{overrun['stolen_ms']} ms stolen by the host meanwhile", file=sys.stderr)
        for stack in overrun["stacks"]:  # type: ignore[attr-defined]
            print(f"{'':>16}{stack['samples']} samples {stack['from_ms']}-{stack['to_ms']} ms: "
                  + " < ".join(stack["stack"]), file=sys.stderr)
    return figures


def parse_options(text: str) -> dict[str, int | float | str | None]:
    """``key=value,key=value`` as SearchBot keyword options (numbers, none, or else a word such
    as a rollout's name); ``default``: {}."""
    options: dict[str, int | float | str | None] = {}
    if text == "default":
        return options
    for pair in text.split(","):
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--bot-options: {pair!r} is not key=value")
        if key in ("samples", "seed", "clock"):
            raise SystemExit(f"--bot-options: {key} is set by the bench itself")
        try:
            options[key] = None if value == "none" else (
                float(value) if "." in value else int(value))
        except ValueError:
            options[key] = value
    try:
        SearchBot(**options)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise SystemExit(f"--bot-options: {text}: {error}") from None
    return options


def paired(first: dict[str, Any], other: dict[str, Any]) -> dict[str, object]:
    """The per-board difference between two variants played on the same boards: the heuristic's
    reference cancels, and so does most of the luck of the cards."""
    differences = [b - a for a, b in zip(first["values"], other["values"], strict=True)]
    interval = mean_interval(differences)
    low, high = interval.mean - interval.half_width, interval.mean + interval.half_width
    print(f"{other['level']} - {first['level']}: {interval.mean:+.2f} per board, "
          f"95% [{low:+.2f}, {high:+.2f}] over {len(differences)} boards (paired)",
          file=sys.stderr, flush=True)
    return {"variant": other["level"], "against": first["level"],
            "mean_difference": round(interval.mean, 2), "low_95": round(low, 2),
            "high_95": round(high, 2), "boards": len(differences)}


class ProfiledSearch(SearchBot):
    """The search bot, keeping every card decision's scores (one list per draw)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.decisions: list[list[list[int]]] = []

    def evaluate(self, table: Any, cards: Any, deadline: float | None) -> list[list[int]]:
        scores = super().evaluate(table, cards, deadline)
        self.decisions.append(scores)
        return scores


def profile(
    bot: ProfiledSearch, boards: int, players: int, seed: int, time_control: TimeControl,
    resamples: int = 40,
) -> dict[str, object]:
    """Where the search bot's time and draws go (see the module docstring, ``--profile``)."""
    phases: dict[str, list[float]] = {}
    method_for = bot.method_for

    def timed_method(request: Any) -> Callable[..., Any]:
        method = method_for(request)

        def timed(*args: Any) -> Any:
            start = time.process_time()
            try:
                return method(*args)
            finally:
                phases.setdefault(request.phase.value, []).append(time.process_time() - start)
        return timed

    bot.method_for = timed_method  # type: ignore[method-assign]
    plans = [plan for plan in gauntlet_plans(boards, players) if "search" in plan.bots]
    play_plans(plans, {"search": bot, "heuristic": HeuristicBot()}, seed=seed,
               options=TableOptions(players=players), time_control=time_control, strict=False)
    rng = random.Random(seed)
    spread, paired_spread, stable = [], [], []
    searched = [draws for draws in bot.decisions if len(draws) >= 2]
    for draws in searched:
        count = len(draws[0])
        totals = [sum(draw[i] for draw in draws) for i in range(count)]
        order = sorted(range(count), key=lambda i: -totals[i])
        best, second = order[0], order[1]
        spread.append(statistics.pstdev(draw[best] for draw in draws))
        paired_spread.append(statistics.pstdev(draw[best] - draw[second] for draw in draws))
        same = 0
        for _ in range(resamples):
            picked = [draws[rng.randrange(len(draws))] for _ in draws]
            again = [sum(draw[i] for draw in picked) for i in range(count)]
            same += max(range(count), key=lambda i: (again[i], -i)) == best
        stable.append(same / resamples)
    figures: dict[str, object] = {
        "players": players,
        "phases": {phase: {"decisions": len(times),
                           "per_second_cpu": round(len(times) / (sum(times) or 1e-9), 1)}
                   for phase, times in phases.items()},
        "card_decisions_searched": len(bot.decisions),
        "draws_per_decision": round(statistics.mean(len(d) for d in bot.decisions), 1)
        if bot.decisions else 0,
        "candidates_per_decision": round(statistics.mean(len(d[0]) for d in searched), 2)
        if searched else 0,
        **search_rates(bot),
        "score_spread_between_draws": round(statistics.mean(spread), 1) if spread else 0,
        "best_minus_second_spread": round(statistics.mean(paired_spread), 1)
        if paired_spread else 0,
        "bootstrap_same_card": round(statistics.mean(stable), 3) if stable else 0,
        "bootstrap_unsure_share": round(sum(s < 0.6 for s in stable) / len(stable), 3)
        if stable else 0,
    }
    for phase, shown in figures["phases"].items():  # type: ignore[attr-defined]
        print(f"{phase:>12}: {shown['decisions']} decisions, {shown['per_second_cpu']} a second "
              "of CPU", file=sys.stderr)
    print(f"card play: {figures['draws_per_decision']} draws and "
          f"{figures['candidates_per_decision']} candidate cards a decision "
          f"({figures['draws_per_second']} draws/s, {figures['rollouts_per_second']} rollouts/s); "
          f"a card's score spreads by {figures['score_spread_between_draws']} between draws, "
          f"best - second by {figures['best_minus_second_spread']}; a bootstrap of the draws "
          f"keeps the same card {figures['bootstrap_same_card']:.0%} of the time, under 60 % in "
          f"{figures['bootstrap_unsure_share']:.0%} of the decisions", file=sys.stderr)
    return figures


def endgames(players: int, cards: int, count: int, seed: int) -> list[GameState]:
    """Seeded deals played by random legal actions until no hand holds more than ``cards``."""
    rng = random.Random(seed)
    found: list[GameState] = []
    number = 0
    while len(found) < count:
        number += 1
        state = GameState.from_seed(seed + number, TableOptions(players=players),
                                    dealer=number % players)
        while state.to_act is not None and not (
            state.phase is Phase.PLAYING and not state.trick and cards_left(state) <= cards
        ):
            legal = legal_actions(state)
            apply(state, legal[rng.randrange(len(legal))])
        if state.to_act is not None:
            found.append(state)
    return found


def speed(players: int, seed: int) -> dict[str, object]:
    """Microseconds per rollout (the quick policy to the end of the deal) and per exact solve,
    from positions with each number of cards left: what the solver costs against a rollout."""
    figures: dict[str, object] = {"players": players}
    hand = HAND_SIZES[players]
    for cards in (hand, 6, 4, 3, 2):
        positions = endgames(players, cards, 40, seed)
        rollout = per_call(lambda state: finish(copy_state(state)), positions)
        line = f"{cards:>2} cards left: rollout {rollout:7.0f} us"
        figures[f"rollout_us_{cards}"] = round(rollout)
        if cards <= 4:
            exact = per_call(lambda state: solve(state, first=rollout_card), positions)
            figures[f"solve_us_{cards}"] = round(exact)
            line += f", exact solve {exact:9.0f} us ({exact / rollout:.0f}x)"
        print(line, file=sys.stderr, flush=True)
    return figures


def card_positions(players: int, count: int, seed: int) -> list[GameState]:
    """Seeded deals bid and played by random legal actions to a random card of the play, the
    seat to act holding two legal cards or more."""
    rng = random.Random(seed)
    found: list[GameState] = []
    number = 0
    while len(found) < count:
        number += 1
        state = GameState.from_seed(seed + number, TableOptions(players=players),
                                    dealer=number % players)
        stop = rng.randrange(HAND_SIZES[players] * players)
        played = 0
        while state.to_act is not None:
            legal = legal_actions(state)
            if state.phase is Phase.PLAYING:
                if played == stop:
                    break
                played += 1
            apply(state, legal[rng.randrange(len(legal))])
        if (state.to_act is not None and state.phase is Phase.PLAYING
                and len(legal_actions(state)) > 1):
            found.append(state)
    return found


def merge_speed(players: int, seed: int, samples: int = 20,
                count: int = 150) -> dict[str, object]:
    """CPU milliseconds per card decision at ``samples`` draws, with and without merging the
    equivalent cards (``SearchBot(merge=...)``), on the same random positions; the best of
    three passes. In time mode the ratio is the draws a decision gains."""
    from arena.games.french_tarot import Play, observe
    from arena.table import DecisionRequest, PlayerInfo, TableStart
    from clients.sdk import TableView

    positions = card_positions(players, count, seed)
    infos = tuple(PlayerInfo(s, f"b{s}", f"b{s}") for s in range(players))
    asked = []
    for state in positions:
        seat = state.to_act
        assert seat is not None
        view = TableView.from_start(TableStart("speed", seat, state.options, state.dealer,
                                               infos, observe(state, seat)))
        request = DecisionRequest("speed", seat, 1, state.phase, legal_actions(state), 600.0,
                                  0.0, view.hand)
        cards = [a.card for a in request.legal_actions if isinstance(a, Play)]
        asked.append((view.with_request(request), cards))
    figures: dict[str, object] = {"players": players, "positions": len(asked),
                                  "samples": samples}
    for merge in (False, True):
        bot = SearchBot(samples, seed=seed, merge=merge)
        best = math.inf
        for _ in range(3):
            start = time.process_time()
            for view, cards in asked:
                bot.evaluate(view, cards, None)
            best = min(best, time.process_time() - start)
        figures["ms_merged" if merge else "ms_every_card"] = round(best / len(asked) * 1000, 2)
    tried = SearchBot(samples, merge=True)
    figures["cards_per_decision"] = round(statistics.mean(len(c) for _, c in asked), 2)
    figures["classes_per_decision"] = round(statistics.mean(
        len(tried.card_classes(v, c)) for v, c in asked), 2)
    gain = float(figures["ms_every_card"]) / float(figures["ms_merged"])  # type: ignore[arg-type]
    figures["draws_gained"] = round(gain, 3)
    print(f"{players} players, {len(asked)} positions at {samples} draws: "
          f"{figures['cards_per_decision']} legal cards, {figures['classes_per_decision']} "
          f"classes a decision; {figures['ms_every_card']} ms of CPU a decision every card "
          f"tried, {figures['ms_merged']} ms merged: x{gain:.2f} draws in the same time",
          file=sys.stderr, flush=True)
    return figures


def taker_views(players: int, count: int, seed: int) -> list[tuple[TableView, list[Card]]]:
    """The taker's card decisions of :func:`card_positions` (a position whose seat to act is
    not the taker is skipped), each as the view and the legal cards the search bot is given."""
    from arena.games.french_tarot import Play, observe
    from arena.table import PlayerInfo, TableStart

    infos = tuple(PlayerInfo(s, f"b{s}", f"b{s}") for s in range(players))
    asked: list[tuple[TableView, list[Card]]] = []
    number = 0
    while len(asked) < count:
        for state in card_positions(players, count, seed + 1000 * number):
            seat = state.to_act
            if seat is None or seat != state.taker or len(asked) == count:
                continue
            view = TableView.from_start(TableStart("speed", seat, state.options, state.dealer,
                                                   infos, observe(state, seat)))
            request = DecisionRequest("speed", seat, 1, state.phase, legal_actions(state),
                                      600.0, 0.0, view.hand)
            cards = [a.card for a in request.legal_actions if isinstance(a, Play)]
            asked.append((view.with_request(request), cards))
        number += 1
    return asked


def taker_speed(players: int, seed: int, passes: int = 3, samples: int = 20, count: int = 40,
                variants: list[dict[str, Any]] | None = None) -> dict[str, object]:
    """The taker's card decisions of ``count`` random positions at ``samples`` draws each, in
    draws per CPU second (the best of ``passes`` passes), for each variant of SearchBot options
    (default: the bot's own, which with 4 players plays the heuristic's replies there). Why:
    the replies cost most of a taker's draw, and in time mode the draws a decision makes are
    the search's strength; CPU time, since a shared machine's wall clock says more about its
    load than about the code."""
    asked = taker_views(players, count, seed)
    figures: dict[str, object] = {"players": players, "positions": len(asked),
                                  "samples": samples, "passes": passes}
    results: list[dict[str, object]] = []
    for options in variants or [{}]:
        bot = SearchBot(samples, seed=seed, **options)
        best = math.inf
        draws = 0
        for _ in range(passes):
            start = time.process_time()
            draws = sum(len(bot.evaluate(view, cards, None)) for view, cards in asked)
            best = min(best, time.process_time() - start)
        rate = round(draws / best, 1) if best > 0 else None
        replies = bool(asked) and bot.replying(asked[0][0])
        results.append({"options": options, "replies": replies, "draws": draws,
                        "cpu_seconds": round(best, 3), "draws_per_cpu_second": rate})
        named = ",".join(f"{key}={value}" for key, value in options.items()) or "default"
        print(f"{players} players, the taker's card decisions, {named} "
              f"({'with' if replies else 'without'} the heuristic's replies; {len(asked)} "
              f"positions at {samples} draws, best of {passes} passes): {rate} draws per CPU "
              "second", file=sys.stderr, flush=True)
    figures["variants"] = results
    return figures


def per_call(work: Callable[[GameState], object], positions: list[GameState]) -> float:
    """Microseconds per call, the best of three passes over the positions (a busy machine
    only ever adds time)."""
    passes = []
    for _ in range(3):
        start = time.perf_counter()
        for state in positions:
            work(state)
        passes.append((time.perf_counter() - start) / len(positions) * 1e6)
    return min(passes)


def paired_runs(first_path: str, second_path: str) -> list[dict[str, object]]:
    """Every level of the second run against the level of the same position in the first,
    on the boards both played (the same seed: runs of two versions of the bot)."""
    runs = []
    for path in (first_path, second_path):
        lines = Path(path).read_text().strip().splitlines()
        if not lines:
            raise SystemExit(f"{path}: empty (not the JSON a run of bench.bots prints)")
        runs.append(json.loads(lines[-1]))
    first, second = runs
    if (first["seed"], first["players"]) != (second["seed"], second["players"]):
        raise SystemExit("--paired: the runs played different boards (seed or players differ)")
    comparisons = []
    for a, b in zip(first["levels"], second["levels"], strict=False):
        if "first_board" not in a or "first_board" not in b:
            raise SystemExit(f"--paired: {a['level']} or {b['level']} pools runs with boards "
                             "missing between them (--combine): pair its runs one by one")
        common = range(max(a["first_board"], b["first_board"]),
                       min(a["first_board"] + a["boards"], b["first_board"] + b["boards"]))
        if not common:
            raise SystemExit(f"--paired: {a['level']} and {b['level']} share no board")
        comparisons.append(paired(
            {**a, "values": [a["values"][i - a["first_board"]] for i in common]},
            {**b, "values": [b["values"][i - b["first_board"]] for i in common]},
        ))
    return comparisons


def combine(paths: list[str]) -> dict[str, object]:
    """One level's figures from runs of it on different boards (``--first-board``): every
    board's value pooled into one interval, the counts and infractions summed."""
    runs = []
    for path in paths:
        lines = Path(path).read_text().strip().splitlines()
        if not lines:
            raise SystemExit(f"{path}: empty (not the JSON a run of bench.bots prints)")
        runs.append(json.loads(lines[-1]))
    levels: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        for level in run["levels"]:
            levels.setdefault(level["level"], []).append(level)
    pooled = []
    for label, parts in levels.items():
        firsts = sorted(part["first_board"] for part in parts)
        if len(set(firsts)) < len(firsts):
            raise SystemExit(f"{label}: two runs start at the same board ({firsts})")
        values = [v for part in sorted(parts, key=lambda p: p["first_board"])
                  for v in part["values"]]
        interval = mean_interval(values)
        infractions: dict[str, int] = {}
        for part in parts:
            for kind, count in part["infractions"].items():
                infractions[kind] = infractions.get(kind, 0) + count
        low, high = interval.mean - interval.half_width, interval.mean + interval.half_width
        print(f"{label:>12}: {interval.mean:+7.2f} per board, 95% [{low:+.2f}, {high:+.2f}] "
              f"over {len(values)} boards from {len(parts)} runs; infractions "
              f"{infractions or 'none'}", file=sys.stderr)
        ordered = sorted(parts, key=lambda p: p["first_board"])
        # Runs of boards that follow one another pool into one run of them all: --paired can
        # then pair it board by board with another run.
        follows = all(b["first_board"] == a["first_board"] + a["boards"]
                      for a, b in pairwise(ordered))
        pooled.append({
            "level": label, **interval_figures(values), "runs": len(parts),
            **({"first_board": firsts[0]} if follows else {}),
            "first_boards": firsts, "draws": sum(part["draws"] for part in parts),
            "infractions": infractions,
            "seconds": [part["seconds"] for part in parts], "values": values,
            "deals": [d for part in parts for d in part.get("deals", [])],
        })
    return {"combined": paths, "seed": runs[0]["seed"], "players": runs[0]["players"],
            "levels": pooled}


def breakdowns(paths: list[str]) -> list[dict[str, Any]]:
    """``--breakdown``: each level of the runs (pooled by name) split by :func:`breakdown`."""
    levels: dict[str, list[dict[str, Any]]] = {}
    players = 0
    for path in paths:
        lines = Path(path).read_text().strip().splitlines()
        if not lines:
            raise SystemExit(f"{path}: empty (not the JSON a run of bench.bots prints)")
        run = json.loads(lines[-1])
        players = run["players"]
        for level in run["levels"]:
            if "deals" not in level:
                raise SystemExit(f"{path}: {level['level']} has no deals (an older run)")
            levels.setdefault(level["level"], []).extend(level["deals"])
    tables = []
    for label, deals in levels.items():
        print(label, file=sys.stderr)
        table = breakdown(deals, players)
        print_breakdown(table)
        tables.append({"level": label, **table})
    return tables


def rollout_bias(
    players: int, deals: int, seed: int, rollout: str = "quick"
) -> dict[str, object]:
    """Mean (heuristic play - rollout) of the taker side's half-points, over the deals taken
    (``rollout``: the policy's name in :data:`~clients.search_bot.ROLLOUTS`)."""
    from arena.games.french_tarot import GameState, Phase, apply, legal_actions, observe
    from arena.table import DecisionRequest, PlayerInfo, TableStart
    from clients.sdk import TableView
    from clients.search_bidding import playout

    heuristic = HeuristicBot()
    differences: list[float] = []
    for number in range(deals):
        state = GameState.from_seed(seed + number, TableOptions(players=players),
                                    dealer=number % players)
        rolled = state.copy()
        playout(rolled, ROLLOUTS[rollout])  # the rules before the card play, then the rollout
        assert rolled.result is not None
        if rolled.result.summary is None:
            continue  # everybody passed
        played = state.copy()
        for seat, action in rolled.history:
            if played.phase is Phase.PLAYING:
                break
            apply(played, action, seat)
        infos = tuple(PlayerInfo(s, f"h{s}", f"h{s}") for s in range(players))
        while played.to_act is not None:
            seat = played.to_act
            seen = observe(played, seat)
            view = TableView.from_start(
                TableStart("bias", seat, played.options, played.dealer, infos, seen))
            request = DecisionRequest("bias", seat, 1, seen.phase, legal_actions(played), 1.0,
                                      0.0, seen.hand)
            apply(played, heuristic.method_for(request)(view.with_request(request), request))
        assert played.result is not None and played.result.summary is not None
        differences.append(played.result.summary.taker_half_points
                           - rolled.result.summary.taker_half_points)
    interval = mean_interval(differences)
    print(f"{players} players: the heuristic's taker side takes {interval.mean:+.1f} half-points "
          f"more than the rollout's (95% +/-{interval.half_width:.1f}) over "
          f"{len(differences)} deals taken", file=sys.stderr, flush=True)
    return {"players": players, "rollout": rollout, "deals_taken": len(differences),
            "mean_half_points": round(interval.mean, 2),
            "half_width_95": round(interval.half_width, 2)}


def parse_decisions(text: str, separator: str) -> tuple[str, ...]:
    """Decisions named in ``text`` (``rules``: none); an unknown name stops with its list."""
    if text == "rules":
        return ()
    names = tuple(name for name in text.split(separator) if name)
    unknown = [name for name in names if name not in DECISIONS]
    if unknown:
        raise SystemExit(f"unknown decision {', '.join(unknown)}: choose among "
                         f"{', '.join(DECISIONS)} (or 'rules' for none)")
    return names


def bid_options(args: argparse.Namespace) -> dict[str, Any]:
    """The bid's knobs given on the command line, as SearchBot options."""
    return {"bid_window": None if args.bid_window < 0 else args.bid_window,
            "bid_rollout": args.bid_rollout, "decision_rollout": args.decision_rollout}


def compare_variants(args: argparse.Namespace) -> None:
    """Each variant on the same boards; the per-board difference from the first one."""
    boards = args.boards or (24 if args.quick else 200)
    samples = int(args.samples.split(",")[0]) if args.samples else None
    ms = None if samples else int((args.levels or "100").split(",")[0])
    time_control = TimeControl(per_decision=600.0 if samples else (ms or 100) / 1000)
    results: list[dict[str, object]] = []
    first: list[float] = []
    specs = args.decision_variants.split(",")
    parsed = []
    for spec in specs:  # every variant checked before any plays
        name, _, trust = spec.partition(":")
        try:
            parsed.append((parse_decisions(name, "+"),
                           float(trust) if trust else args.decision_trust))
        except ValueError:
            raise SystemExit(f"variant {spec}: the trust after ':' must be a number") from None
    for number, (spec, (simulate, decision_trust)) in enumerate(zip(specs, parsed, strict=True)):
        bot = SearchBot(samples=samples, seed=args.seed, trust=args.trust,
                        simulate=simulate, decision_trust=decision_trust,
                        decision_samples=args.decision_samples,
                        taker_shift=args.taker_shift, **bid_options(args))
        level = f"{samples} draws" if samples else f"{ms} ms"
        figures = run_level(f"{spec} {level}", bot, boards, args.players, args.seed,
                            time_control, args.first_board, args.cpu_clock)
        figures["variant"] = spec
        values = figures["values"]
        assert isinstance(values, list)
        if number == 0:
            first = values
        else:
            diffs = [v - f for v, f in zip(values, first, strict=True)]
            interval = mean_interval(diffs)
            low, high = interval.mean - interval.half_width, interval.mean + interval.half_width
            changed = sum(1 for d in diffs if d)
            figures["versus_first"] = {
                "mean_per_board": round(interval.mean, 2), "low_95": round(low, 2),
                "high_95": round(high, 2), "boards_changed": changed,
            }
            base = args.decision_variants.split(",")[0]
            print(f"{spec:>24} - {base}: {interval.mean:+.2f} per board, "
                  f"95% [{low:+.2f}, {high:+.2f}], {changed} of {len(diffs)} boards changed",
                  file=sys.stderr, flush=True)
        results.append(figures)
    print(json.dumps({"python": platform.python_version(), "players": args.players,
                      "seed": args.seed, "variants": results}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="20 and 100 ms only, 24 boards (minutes, not hours)")
    parser.add_argument("--levels", default=None,
                        help="milliseconds per decision, comma-separated (default 20,100,500)")
    parser.add_argument("--samples", default=None,
                        help="fixed draws per decision instead of time, comma-separated")
    parser.add_argument("--boards", type=int, default=None, help="boards per level (default 200)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5),
                        help="players at the table (2: with the dummy; default 4)")
    parser.add_argument("--seed", type=int, default=2026, help="the boards' seed")
    parser.add_argument("--first-board", type=int, default=0,
                        help="the first board played (to share a long run between processes, "
                             "one core each: the printed JSON holds every board's value)")
    parser.add_argument("--trust", type=float, default=None,
                        help="the search bot's trust option (default: none, the best total plays)")
    parser.add_argument("--bot-options", nargs="+", metavar="OPTIONS", default=None,
                        help="SearchBot options per variant, as key=value pairs joined by commas "
                             "(e.g. solver_cards=0 solver_cards=3; 'default' for none): every "
                             "level plays each variant on the same boards, then prints each "
                             "one's paired per-board difference against the first")
    parser.add_argument("--paired", nargs=2, metavar="JSON", default=None,
                        help="two runs' printed JSON (files; e.g. two versions of the bot at "
                             "the same seed): each level's per-board difference, second minus "
                             "first, on the boards both played, instead of playing")
    parser.add_argument("--breakdown", nargs="+", metavar="JSON", default=None,
                        help="runs' printed JSON (files, pooled): each level's per-board "
                             "difference split by the search bot's role, whether it bid as the "
                             "heuristic, and the contract, instead of playing")
    parser.add_argument("--speed", action="store_true",
                        help="time a rollout and an exact solve of the last tricks, instead of "
                             "playing")
    parser.add_argument("--taker-speed", type=int, nargs="?", const=3, default=None,
                        metavar="PASSES",
                        help="the taker's card decisions in draws per CPU second (the "
                             "heuristic's replies by default with 4 players; --boards "
                             "positions, default 40, at --samples draws, default 20, each "
                             "--bot-options variant), the best of PASSES passes (default 3), "
                             "instead of playing")
    parser.add_argument("--combine", nargs="+", metavar="JSON", default=None,
                        help="pool runs' printed JSON (files) of the same level on different "
                             "boards into one interval, instead of playing")
    parser.add_argument("--simulate", default=None,
                        help="decisions before the card play taken by simulation, comma-separated "
                             f"among {', '.join(DECISIONS)}, or 'rules' for none "
                             "(default: the bot's, by players: "
                             + "; ".join(f"{n}: {','.join(kinds)}"
                                         for n, kinds in SIMULATED_BY_PLAYERS.items())
                             + f"; else {','.join(SIMULATED)})")
    parser.add_argument("--decision-trust", type=float, default=DECISION_TRUST,
                        help="standard errors a simulated decision must beat the rules' by")
    parser.add_argument("--decision-samples", type=int, default=None,
                        help="draws per decision before the card play (default: --samples)")
    parser.add_argument("--taker-shift", action="store_true",
                        help="score the decisions' play-outs with the rollouts' bias corrected")
    parser.add_argument("--bid-window", type=float,
                        default=-1.0 if BID_WINDOW is None else BID_WINDOW,
                        help="the bids simulated: within that many points of the hand's count "
                             "(a negative number: every legal bid)")
    parser.add_argument("--bid-rollout", default="rules", choices=sorted(ROLLOUTS),
                        help="the bid's play-outs: the heuristic's habits or the quick rollout")
    parser.add_argument("--decision-rollout", default="quick", choices=sorted(ROLLOUTS),
                        help="the play-outs of the call, the discard and the poignée by "
                             "simulation: the quick rollout or the heuristic's habits")
    parser.add_argument("--decision-variants", default=None,
                        help="compare these variants paired (see the module docstring)")
    parser.add_argument("--profile", action="store_true",
                        help="where the search bot's time and draws go (see the docstring)")
    parser.add_argument("--rollout-bias", type=int, default=None, metavar="DEALS",
                        help="measure the rollout's bias for the taker (3, 4 and 5 players)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="the search bot keeps its time per decision on the process's CPU "
                             "clock: as many draws as on an idle machine, whatever the load "
                             "(a decision past the limit on the CPU is then the infraction to "
                             "count; the runner times out only a hung one)")
    parser.add_argument("--rollout", default="quick", choices=sorted(ROLLOUTS),
                        help="the policy --rollout-bias measures (default: the card search's)")
    args = parser.parse_args()
    if args.rollout_bias:
        print(json.dumps([rollout_bias(n, args.rollout_bias, args.seed, args.rollout)
                          for n in (3, 4, 5)]))
        return
    if args.profile:
        samples = int(args.samples.split(",")[0]) if args.samples else None
        ms = int((args.levels or "100").split(",")[0])
        bot = ProfiledSearch(samples, seed=args.seed)
        control = TimeControl(per_decision=600.0 if samples else ms / 1000)
        print(json.dumps(profile(bot, args.boards or 6, args.players, args.seed, control)))
        return
    if args.decision_variants:
        compare_variants(args)
        return
    simulate = None if args.simulate is None else parse_decisions(args.simulate, ",")
    if args.combine:
        print(json.dumps(combine(args.combine)))
        return
    if args.speed:
        print(json.dumps({**speed(args.players, args.seed),
                          "merging": merge_speed(args.players, args.seed),
                          "taker": taker_speed(args.players, args.seed)}))
        return
    if args.taker_speed is not None:
        samples = int(args.samples.split(",")[0]) if args.samples else 20
        variants = [parse_options(text) for text in args.bot_options or ["default"]]
        print(json.dumps(taker_speed(args.players, args.seed, args.taker_speed, samples,
                                     args.boards or 40, variants)))
        return
    if args.breakdown:
        print(json.dumps(breakdowns(args.breakdown)))
        return
    if args.paired:
        print(json.dumps(paired_runs(*args.paired)))
        return
    boards = args.boards or (24 if args.quick else 200)
    figures: dict[str, object] = {
        "python": platform.python_version(), "players": args.players, "seed": args.seed,
        "trust": args.trust,
        "design": "pure duplicate gauntlet: search bot in each seat among heuristic fillers, "
                  "against the all-heuristic table on the same board; t interval over boards",
        "levels": [],
    }
    variants = [parse_options(text) for text in args.bot_options or ["default"]]
    levels: list[dict[str, object]] = []
    comparisons: list[dict[str, object]] = []
    if args.samples:
        runs = [(f"{n} draws", {"samples": n}, 600.0)
                for n in (int(s) for s in args.samples.split(","))]
    else:
        default = "20,100" if args.quick else "20,100,500"
        runs = [(f"{ms} ms", {}, ms / 1000)
                for ms in (int(m) for m in (args.levels or default).split(","))]
    for label, fixed, seconds in runs:
        played = []
        for options in variants:
            name = label + "".join(f" {key}={value}" for key, value in options.items())
            knobs: dict[str, Any] = {**bid_options(args), **fixed, **options}
            bot = SearchBot(seed=args.seed, trust=args.trust,
                            simulate=simulate, decision_trust=args.decision_trust,
                            decision_samples=args.decision_samples,
                            taker_shift=args.taker_shift, **knobs)
            played.append(run_level(name, bot, boards, args.players, args.seed,
                                    TimeControl(per_decision=seconds), args.first_board,
                                    args.cpu_clock))
        levels.extend(played)
        for other in played[1:]:
            comparisons.append(paired(played[0], other))
    figures["levels"] = levels
    if comparisons:
        figures["paired"] = comparisons
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
