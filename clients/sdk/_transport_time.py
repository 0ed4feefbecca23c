"""How much of a decision's time limit the transport takes, as the arena measured it.

The arena counts a limit from sending a request to reading its answer; the SDK can only count
from the request's arrival to the answer's hand-over. What lies between (the network, the
arena's queue before the write, this process's receive loop, which waits for the GIL while a
bot's search thread runs, and the way back) is invisible to the bot, yet counted against it:
measured over gRPC on 2026-12-02, 15 French Tarot tables of a search bot at 100 ms a decision on
a loaded 2-core machine, the arena's send to this process's read alone took 5 ms at the median
and up to 35 ms, more than the search's own margin, and every timeout of those runs was such a
one: the bot's own clock had it in time.

Each request tells the arena's time for the same player's previous answer at its table
(``previous_request_id``, ``previous_elapsed``); less the SDK's own time between that request's
arrival and its answer, that is one measure of the transport. A timeout gives a lower bound
(the arena waited its whole limit, the bot had answered sooner). The estimate is the largest of
the last :data:`WINDOW` measures: it follows a machine that gets busier within a few decisions,
and one that calms down within :data:`WINDOW`. Before the first measure (every table's first
request, when a bot starts, come at once) a share of the limit is kept,
:data:`UNMEASURED_SHARE`; never more than :data:`MAX_SHARE`.
"""

from __future__ import annotations

from collections import deque
from typing import Final

WINDOW: Final = 64
"""The measures the estimate is the largest of."""
UNMEASURED_SHARE: Final = 0.1
"""The share of a limit kept in hand for the transport before any measure."""
MAX_SHARE: Final = 0.5
"""The largest share of a limit kept in hand: one measure that no network explains (a process
stopped for a second) leaves a bot half its time, not none."""


class TransportTime:
    """The time the transport took of the last decisions' limits, seconds (see the module)."""

    def __init__(self, window: int = WINDOW) -> None:
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        self._measures: deque[float] = deque(maxlen=window)
        self._largest = 0.0
        """The largest of ``_measures``, kept as they come and go: every request reads it,
        and taking the max of the window each time was 3 % of the SDK's receive path."""

    @property
    def estimate(self) -> float:
        """The largest of the last measures (0 before any)."""
        return self._largest

    def measured(self, arena_seconds: float, own_seconds: float) -> None:
        """One answer: the arena counted ``arena_seconds`` from its request to this answer, the
        SDK ``own_seconds`` from the request's arrival to the answer's hand-over."""
        measures = self._measures
        measure = arena_seconds - own_seconds
        if measure < 0.0:
            measure = 0.0
        leaving = measures[0] if len(measures) == measures.maxlen else None
        measures.append(measure)
        if measure >= self._largest:
            self._largest = measure
        elif leaving is not None and leaving >= self._largest:
            self._largest = max(measures)

    def kept(self, limit: float) -> float:
        """The seconds of a ``limit`` to keep in hand for the transport."""
        if not self._measures:
            return limit * UNMEASURED_SHARE
        largest = self._largest
        most = limit * MAX_SHARE
        return largest if largest < most else most

    def __repr__(self) -> str:
        return (f"TransportTime(estimate={self.estimate * 1000:.1f} ms, "
                f"{len(self._measures)} measures)")
