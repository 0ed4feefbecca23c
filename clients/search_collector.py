"""The garbage collector kept out of the search bots' answers, and its full collections moved to
where a decision has time to spare.

A search runs with the collector off: a rollout makes no reference cycles, and a collection of
the older generations of a big heap takes tens of milliseconds. Turning it back on after the
search used to leave the youngest generation over its threshold, so the first allocation after
the search (choosing the card, sending it) ran a collection, once in a while a full one, after a
search that had already used its time: in ``bench.bots``' process, whose heap holds every table
played so far, 4 of the 5 search timeouts in 16,000 decisions at 100 ms took a full collection
of 72 to 84 ms there (2026-12-02). So:

* :meth:`Collector.held` (around a search): the collector is off while any search of the process
  runs (the SDK runs each table's decisions in a thread of its own; the collector's switch is the
  process's). When the last search ends, the youngest generation is collected while still off (a
  millisecond or so: what the search made was freed as it went), so no collection is pending
  when it is back on, and the answer leaves before the next one is due.
* :meth:`Collector.spare` (where a decision has time it will not use: a forced card, the last
  trick of every deal): the full collection, when the collector's own counts say one is near,
  runs there, within that decision's time limit, once its last measured cost fits the time left
  (the first one is made and timed as the bot starts: :meth:`Collector.measure`).
* Before a search (:meth:`Collector.held` with its deadline), a full collection long overdue
  (no forced card came, twice the count) runs inside the search's own time, which its deadline
  absorbs: that search draws fewer deals, none answers late. Never before a first one was
  timed.

The collector still runs full collections of its own between decisions when its rule says so;
each full collection made here resets its counts, which makes those rare.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

OVERDUE = 2
"""A search collects fully first when the oldest generation's count is this many times its
threshold (no decision with time to spare came to do it earlier)."""
COST_DECAY = 0.9
"""How much of a full collection's last cost is kept each time it keeps one out."""
MIN_SHARE = 0.5
"""A full collection runs in a search's time only if its last cost is at most this share of
the time left; the search keeps the rest."""


class Collector:
    """The process's garbage collector, held off during searches (see the module docstring).

    ``clock`` is the search bots' clock, to compare a collection's cost with a deadline."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._holding = 0
        self._was_enabled = False
        self.full_cost = 0.0
        """What the last full collection made here took, in seconds (0 before any)."""
        self.full_collections = 0
        """Full collections made here (for the bench and the tests)."""

    def due(self, times: int = 1) -> bool:
        """Whether the oldest generation's count has passed ``times`` its threshold: the
        collector would consider a full collection at its next collection of the middle one."""
        threshold = gc.get_threshold()[2]
        return gc.get_count()[2] > threshold * times if threshold else False

    def collect_fully(self, deadline: float | None, *, untried: bool = True) -> bool:
        """A full collection now, if its last cost fits half of the time left before
        ``deadline`` (always with none); before the first, whose cost is unknown, only if
        ``untried``. True if it ran."""
        if not self.full_collections and not untried:
            return False
        if deadline is not None and self.full_cost > MIN_SHARE * (deadline - self.clock()):
            # Measured on the wall clock, a cost a loaded machine inflated would keep every
            # later one out: it fades each time it does, until one runs and is measured again.
            self.full_cost *= COST_DECAY
            return False
        began = self.clock()
        gc.collect()
        self.full_cost = self.clock() - began
        self.full_collections += 1
        return True

    def measure(self) -> None:
        """A first full collection, timed, if none was made here yet: a search bot makes one
        as it starts, when no deadline runs, so that the next ones know what they cost."""
        if not self.full_collections and gc.isenabled():
            self.collect_fully(None)

    def spare(self, deadline: float | None) -> None:
        """A decision with time it will not use: the full collection, if one is near."""
        if gc.isenabled() and self.due():
            self.collect_fully(deadline)

    @contextmanager
    def held(self, deadline: float | None = None) -> Iterator[None]:
        """The collector off for a search (see the module docstring); on again, with no
        collection pending, once the process's last search ends."""
        with self._lock:
            if not self._holding:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._holding += 1
            first = self._holding == 1
        try:
            if first and self._was_enabled and self.due(OVERDUE):
                self.collect_fully(deadline, untried=False)
            yield
        finally:
            with self._lock:
                self._holding -= 1
                if not self._holding and self._was_enabled:
                    gc.collect(0)
                    gc.enable()


COLLECTOR = Collector()
"""The one collector of the process (the garbage collector's switch is the process's)."""
