"""The time keeping of the search bots: :class:`clients.search_bot.SearchBot` (mixed in) and the
Tre e Venticinque search (:mod:`clients.tre_search`, alone or inside ``SearchBot``) keep time by it.

A search decision draws deals and plays each candidate out on them until its budget is spent.
The budget ends at the request's deadline less a margin. The deadline is the view's
(:attr:`~clients.sdk.TableView.deadline`: when the SDK received the request plus its time limit,
less what the SDK measured the transport to take, so that a decision which waited for its turn
knows the time it lost), or for a view that has none, the time the decision began plus the
limit. The margin is a share of the limit (it grows by a quarter with each timeout the arena
reports, since the arena's clock sees what the bot's does not, and decays back over the next
decisions), plus how far recent decisions overran the time they planned (a decaying maximum),
plus the longest the machine lately held the search's thread off its CPU in the middle of a
draw (its wall time less its CPU time, a decaying maximum: on a loaded machine the same wait
after the last draw would make the answer late, and the waits are seen in every draw long
before one lands at the end; at most half the limit). Within it, no draw starts once the slowest
draw of the decision so far would end past it, and a draw the clock overtakes is dropped.

With a fixed number of draws (``samples``) the same deadline holds: the decision makes its
draws, or fewer when the deadline comes first (answering with the draws done, the heuristic's
choice with none). It is reproducible whenever the machine is fast enough to make them all in
time, which at the arena's limits is by far the rule: the deadline is what keeps a slow or
loaded machine from answering late, not part of the search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from arena.table.messages import DecisionRequest, InfractionKind
from clients.sdk import Notice, TableView
from clients.sdk.sampler import EXACT_LIMIT
from clients.search_collector import COLLECTOR
from clients.search_turns import SearchTurns

OVERRUN_DECAY = 0.8
"""How much of the overrun kept is still held against the next decision."""
MARGIN_GROWTH = 1.25
"""How much the margin's share of the limit grows with each timeout the arena reports."""
MARGIN_DECAY = 0.99
"""How much of the growth is kept after each decision: a timeout's growth halves in about 70
decisions. The SDK measures the transport itself now (``TableView.deadline``), so a margin
grown for good by each rare timeout would only cost a long tournament its searches' time."""
MAX_MARGIN_SHARE = 0.5
STALL_DECAY = 0.98
"""How much of the longest stall kept is still held after each decision: halved in about 35
decisions, so a load that has gone costs the search little for long, while a machine still
loaded shows its waits again in the next draws."""
MIN_MARGIN = 0.002
"""Seconds of each time limit always left unused, however short the limit."""
EXACT_STEPS_PER_SECOND = 10_000
"""In time mode, the sampler's exact count may take this many steps per second left (a step
takes 2 to 20 us: a fifth of the time at most); with fixed draws, always its full limit."""

Draw = Callable[[float | None], list[int] | None]
"""One draw: each candidate's score on it, or None when the deadline (if any) cut it short."""


class TimedSearch:
    """The search bots' knobs and clocks (see the module docstring): mixed into a bot."""

    def __init__(
        self,
        samples: int | None = None,
        *,
        seed: int = 0,
        max_samples: int = 2000,
        margin_share: float = 0.15,
        clock: Callable[[], float] = time.perf_counter,
        cpu_clock: Callable[[], float] | None = None,
        turns: SearchTurns | None = None,
    ) -> None:
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        if not 0 <= margin_share < 1:
            raise ValueError(f"margin_share must be in [0, 1), got {margin_share}")
        self.samples = samples
        self.seed = seed
        self.max_samples = max_samples
        self.margin_share = margin_share
        self.base_margin_share = margin_share
        """The margin's share as set: what a grown one decays back to."""
        self.clock = clock
        if cpu_clock is None and clock is time.perf_counter:
            cpu_clock = time.thread_time
        self.cpu_clock = cpu_clock
        """The searching thread's CPU clock: a draw's time on ``clock`` less its time on this
        one is how long the machine held the thread off its CPU meanwhile (by default the
        thread's CPU time beside the wall clock; None beside any other clock, a test's fake
        one say: no stall is measured)."""
        COLLECTOR.measure()
        self.turns = turns if turns is not None else SearchTurns()
        """The bot's queue of searches (:mod:`clients.search_turns`), one table at a time."""
        self.longest_draw = 0.0
        """The longest time one draw (all candidate cards played out) has taken, in seconds."""
        self.overrun = 0.0
        """How far decisions went past the time they planned, in seconds: the latest overrun,
        or a decaying share of an earlier, larger one."""
        self.stall = 0.0
        """The longest the machine held the search's thread off its CPU within one draw, in
        seconds: the latest such wait, or a decaying share (:data:`STALL_DECAY`) of an earlier,
        longer one. Kept in hand before the deadline."""
        self.timeouts = 0
        """Timeouts (and late answers) the arena has reported to this bot."""
        self.per_card = 0.0
        """A moving average of the time one draw takes per candidate card, in seconds."""
        self.draws = 0
        self.rollouts = 0
        self.search_time = 0.0
        """Totals over the bot's life, for the bench (draws, rollouts, seconds searching)."""

    @property
    def timed(self) -> bool:
        """Whether the search fills its time (no fixed number of samples)."""
        return self.samples is None

    @contextmanager
    def searching(self, deadline: float | None) -> Iterator[float | None]:
        """A search of this bot: its turn (:class:`~clients.search_turns.SearchTurns`, one
        table at a time) and the garbage collector held off meanwhile
        (:meth:`~clients.search_collector.Collector.held`); the deadline the search must keep,
        shared with the decisions waiting (and later shortened for those that start waiting:
        :meth:`~clients.search_turns.SearchTurns.until`)."""
        with (self.turns.turn(deadline, clock=self.clock) as kept,
              COLLECTOR.held(kept)):
            yield kept

    def deadline(self, table: TableView, request: DecisionRequest, start: float) -> float:
        """When this decision must stop searching (see the module docstring): the view's
        deadline, else ``start`` plus the limit, less the margin, the overrun and the stall kept
        (at most half the limit); with fixed samples too."""
        limit = request.time_limit
        due = table.deadline if table.deadline is not None else start + limit
        margin = max(self.margin_share * limit, MIN_MARGIN)
        return due - margin - self.overrun - min(self.stall, MAX_MARGIN_SHARE * limit)

    def exact_limit(self, deadline: float | None) -> int:
        """The steps the sampler's exact count may take for a search ending at ``deadline``:
        its full limit with fixed samples (the draws must not depend on the machine's speed;
        the sampler stops counting at the deadline all the same), else a share of the time."""
        if not self.timed or deadline is None:
            return EXACT_LIMIT
        return max(0, min(EXACT_LIMIT, int((deadline - self.clock()) * EXACT_STEPS_PER_SECOND)))

    def answered(self, deadline: float | None) -> None:
        """After a decision: keep its overrun, a decaying maximum (a stall of the machine
        shortens the next few decisions, not every decision after it); a grown margin decays
        back (:data:`MARGIN_DECAY`), and so does the stall kept (:data:`STALL_DECAY`)."""
        if deadline is not None:
            self.overrun = max(self.clock() - deadline, self.overrun * OVERRUN_DECAY, 0.0)
        self.stall *= STALL_DECAY
        base = self.base_margin_share
        self.margin_share = base + (self.margin_share - base) * MARGIN_DECAY

    def on_notice(self, table: TableView | None, notice: Notice) -> None:
        """The arena timed an answer out: what it measured includes the transport and the
        machine, which the bot's own clock does not see, so the margin grows (up to half)."""
        if notice.kind in (InfractionKind.TIMEOUT, InfractionKind.LATE_ANSWER):
            self.timeouts += 1
            self.margin_share = min(MAX_MARGIN_SHARE, self.margin_share * MARGIN_GROWTH)

    def run_draws(
        self, candidates: int, draw: Draw, deadline: float | None, wanted: int | None = None,
    ) -> list[list[int]]:
        """``draw`` repeated ``wanted`` times (default ``samples``, else up to ``max_samples``)
        while the deadline allows; ``candidates``: the rollouts one draw plays. Each complete
        draw's scores, in order; empty when the deadline passed before a draw."""
        clock, cpu_clock = self.clock, self.cpu_clock
        draws: list[list[int]] = []
        if wanted is None:
            wanted = self.samples if self.samples is not None else self.max_samples
        began = clock()
        done = 0
        # The reserve kept before the deadline: this decision's slowest draw, or before the
        # first one, what draws of as many cards have taken on average so far.
        slowest = self.per_card * candidates
        until = self.turns.until
        while done < wanted:
            if deadline is not None and clock() + slowest > until(deadline):  # type: ignore[operator]
                if not done:
                    # No draw fits the reserve: the per-card estimate (raised by a stall of the
                    # machine, say) fades, or it would starve every later decision, none of
                    # which could draw again to correct it.
                    self.per_card *= OVERRUN_DECAY
                break
            tick = clock()
            spent = cpu_clock() if cpu_clock is not None else 0.0
            scores = draw(deadline)
            took = clock() - tick
            if cpu_clock is not None:
                self.stall = max(self.stall, took - (cpu_clock() - spent))
            if scores is None:
                break  # a stalled machine: drop this draw rather than answer late
            draws.append(scores)
            slowest = max(slowest, took) if done else took
            self.per_card += 0.1 * (took / candidates - self.per_card)
            self.longest_draw = max(self.longest_draw, took)
            done += 1
        self.draws += done
        self.rollouts += done * candidates
        self.search_time += clock() - began
        return draws
