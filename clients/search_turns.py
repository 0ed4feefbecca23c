"""One search at a time per bot, whatever the game: the queue of a search bot's tables.

The SDK runs each decision of a threaded bot in a thread, and threads share one GIL: several
searches at once each get a slice of it, and the SDK's receive loop, which needs the GIL for
every message, waits behind them all, so answers leave late (measured over gRPC, 8 French
Tarot tables at once at 100 ms a decision: 123 timeouts in 152 decisions; one table: 1; and
on 2026-12-02, 16 Tre e Venticinque tables at 100 ms on a loaded machine, whose search did not
queue yet: 633 timeouts in 36 tables, against none at 32 French Tarot tables, whose did). In
turn, a decision waits for the search at most until its own deadline (then it gets that
deadline, past: no draw, the rules' card), then takes an even share of the time it has left
with the decisions still waiting, which have about as long. A decision that starts waiting
also shortens the search in turn (:attr:`SearchTurns.cutoff`) to an even share of its own time
left: when every table asks at once (a tournament's first bids), the first search would
otherwise take its whole time and the others would wait past their deadlines (measured over
gRPC, 15 tables at 100 ms: both timeouts of a run were such first bids).

With a fixed number of samples the shares hold too: on a machine fast enough the draws end
well within them, and the draws are the same; where they do not (many tables at once on a
loaded machine), a search that kept its whole time would leave the decisions waiting behind it
no draw at all (measured over gRPC, 15 tables at 100 ms, 40 draws, load average 5: three
decisions gave up at once at their deadlines, then answered late).

In a worker thread (the SDK's, not in-process play), a turn also shortens the interpreter's
switch interval to :data:`SWITCH_INTERVAL` (8 tables in turn at 100 ms: 30 timeouts with the
default 5 ms, 1 to 4 with 1 ms; 15 tables at 100 ms on a loaded machine, from the SDK stamping a
request to the worker thread starting its decision: 4.7 ms at the median with 1 ms, 0.8 to 2.4
with 0.2 ms); the setting is the process's, and kept.
"""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SWITCH_INTERVAL = 0.0002
"""The interpreter's thread switch interval while a bot searches in a worker thread, seconds
(CPython's default is 5 ms): the search holds the GIL, and the SDK's receive loop, which needs it
for every message, gets it back this often."""


class SearchTurns:
    """The queue of one bot's searches (see the module docstring); a bot that plays several
    games hands the same queue to each game's search."""

    def __init__(self) -> None:
        self.waiting = 0
        """Decisions (at other tables) waiting for their turn to search."""
        self.cutoff = math.inf
        """When the search in turn should end, on the bot's clock, to leave the decisions that
        started waiting since it began an even share of their time (inf: none did)."""
        self._searching = threading.Lock()
        self._counting = threading.Lock()

    @contextmanager
    def turn(
        self, deadline: float | None, *, clock: Callable[[], float]
    ) -> Iterator[float | None]:
        """Wait for this search's turn (lowering :attr:`cutoff` meanwhile); the deadline it must
        keep, its time left split with the decisions still waiting."""
        if (threading.current_thread() is not threading.main_thread()
                and sys.getswitchinterval() > SWITCH_INTERVAL):
            sys.setswitchinterval(SWITCH_INTERVAL)
        with self._counting:
            self.waiting += 1
            if deadline is not None:
                now = clock()
                # This decision's time left, shared by the search in turn, the decisions waiting
                # before this one, and this one.
                share = max(0.0, deadline - now) / (1 + self.waiting)
                self.cutoff = min(self.cutoff, now + share)
        got = False
        try:
            if deadline is None:
                got = self._searching.acquire()
            else:
                got = self._searching.acquire(timeout=max(0.0, deadline - clock()))
        finally:
            with self._counting:
                self.waiting -= 1
                others = self.waiting
                if got:  # a new search: the decisions still waiting are counted in ``others``
                    self.cutoff = math.inf
        if not got:
            yield deadline
            return
        try:
            if deadline is not None and others:
                now = clock()
                deadline = now + max(0.0, deadline - now) / (1 + others)
            yield deadline
        finally:
            self._searching.release()

    def until(self, deadline: float | None) -> float | None:
        """The deadline the search in turn keeps now: its own, or earlier when decisions
        started waiting meanwhile (:attr:`cutoff`)."""
        if deadline is None:
            return None
        cutoff = self.cutoff
        return cutoff if cutoff < deadline else deadline
