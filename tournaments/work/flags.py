"""Each worker's share of a tournament, and the workers worth a look (flags).

A worker is **flagged** when:

- it **keeps failing**: at least :data:`FAILING_AT` failed boards, and more failed boards than
  boards played;
- its **results stand out** on a compare: the mean paired difference of the boards it played
  differs from the other workers' on the same compare by :data:`Z_FLAG` standard errors or
  more (Welch's two-sample z: ``(m1 - m2) / sqrt(s1^2 / n1 + s2^2 / n2)``), with at least
  :data:`MIN_BOARDS` boards on each side. Boards are dealt from the seed, not by worker, so
  every worker plays the same kind of boards: a worker whose bots play differently (another
  version of a library, a machine too slow for the time limit) is what stands out;
- its **infractions stand out**: the share of its tables with an infraction differs from the
  other workers' by :data:`Z_FLAG` standard errors or more (the two-proportion z-test, pooled),
  on :data:`MIN_BOARDS` boards or more on each side: timeouts on a slow or overloaded machine.

:data:`Z_FLAG` is 4 (two-sided p about 6e-5) rather than the usual 2: a page looks at every
worker after every board, and a flag on an honest worker costs someone's time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from arena.storage.models import TableStatus

from ..play.compare import Boards, CompareConfig
from ..storage.work import WorkQueue, worker_of
from ..store import TournamentStore

Z_FLAG = 4.0
MIN_BOARDS = 5
FAILING_AT = 3


@dataclass(frozen=True, slots=True)
class Share:
    """What one worker played of one tournament."""

    worker: str
    name: str
    host: str
    tables: int
    boards: int
    infractions: int
    """Tables of its with an infraction."""
    first: datetime | None
    last: datetime | None
    last_report: str
    last_seen: datetime | None
    stopped: bool
    failures: int
    mean: float | None
    """Compares: the mean paired difference of its boards."""
    flags: tuple[str, ...]

    @property
    def boards_per_minute(self) -> float | None:
        """Boards finished per minute between its first and last (None before two)."""
        if self.first is None or self.last is None or self.boards < 2:
            return None
        span = (self.last - self.first).total_seconds()
        return (self.boards - 1) * 60 / span if span > 0 else None


def z_means(mine: Sequence[float], others: Sequence[float]) -> float | None:
    """Welch's z of two samples' means (None with fewer than two values on a side)."""
    if len(mine) < 2 or len(others) < 2:
        return None
    m1, m2 = math.fsum(mine) / len(mine), math.fsum(others) / len(others)
    v1 = math.fsum((v - m1) ** 2 for v in mine) / (len(mine) - 1)
    v2 = math.fsum((v - m2) ** 2 for v in others) / (len(others) - 1)
    se = math.sqrt(v1 / len(mine) + v2 / len(others))
    if se == 0:
        return 0.0 if m1 == m2 else math.copysign(math.inf, m1 - m2)
    return (m1 - m2) / se


def z_proportions(hits: int, n: int, other_hits: int, other_n: int) -> float | None:
    """The pooled two-proportion z (None when a side is empty or nothing varies)."""
    if n == 0 or other_n == 0:
        return None
    pooled = (hits + other_hits) / (n + other_n)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / other_n))
    if se == 0:
        return None
    return (hits / n - other_hits / other_n) / se


def shares(store: TournamentStore, tournament_id: str) -> list[Share]:
    """Every worker that played boards of the tournament, most boards first, flagged."""
    settings = store.settings(tournament_id)
    tables = [(t, seats) for t, seats in store.tables(tournament_id)
              if t.status is TableStatus.DONE]
    by_worker: dict[str, list[tuple[int, bool, datetime | None]]] = {}
    board_worker: dict[int, str] = {}
    for table, seats in tables:
        worker = worker_of(table.claimed_by) or "?"
        board_worker.setdefault(table.board_number, worker)
        by_worker.setdefault(worker, []).append(
            (table.board_number, any(s.infractions for s in seats), table.finished_at))
    for failure in WorkQueue(store).failures(tournament_id):  # a worker that only failed
        by_worker.setdefault(failure.worker, [])
    values: dict[int, float] = {}
    if settings.compare is not None:
        boards = Boards(settings, CompareConfig.from_json(settings.compare))
        boards.add(store.entries(tournament_id))
        for board in boards.by_board:
            value = boards.value(board)
            if value is not None:
                values[board] = value
    rows = {w.id: w for w in WorkQueue(store).workers(list(by_worker))}
    out = []
    for worker, played in by_worker.items():
        row = rows.get(worker)
        mine = [values[b] for b, w in board_worker.items() if w == worker and b in values]
        others = [values[b] for b, w in board_worker.items() if w != worker and b in values]
        hit = sum(1 for _, bad, _ in played if bad)
        other_tables = [(b, bad) for w, rows_ in by_worker.items() if w != worker
                        for b, bad, _ in rows_]
        flags = []
        failures = row.failures if row is not None else 0
        groups = row.groups if row is not None else 0
        if failures >= FAILING_AT and failures > groups:
            flags.append(f"keeps failing: {failures} failed boards, {groups} played")
        mine_boards = {b for b, _, _ in played}
        other_boards = {b for b, _ in other_tables}
        if len(mine) >= MIN_BOARDS and len(others) >= MIN_BOARDS:
            z = z_means(mine, others)
            if z is not None and abs(z) >= Z_FLAG:
                flags.append(f"its boards' results stand out: z {z:+.1f} against the other "
                             f"workers' ({len(mine)} and {len(others)} boards)")
        if len(mine_boards) >= MIN_BOARDS and len(other_boards) >= MIN_BOARDS:
            z = z_proportions(hit, len(played), sum(1 for _, bad in other_tables if bad),
                              len(other_tables))
            if z is not None and abs(z) >= Z_FLAG:
                flags.append(f"its infractions stand out: {hit} of {len(played)} tables, z "
                             f"{z:+.1f} against the other workers'")
        finished = [f for _, _, f in played if f is not None]
        out.append(Share(
            worker, row.name if row else worker, row.host if row else "", len(played),
            len(mine_boards), hit, min(finished) if finished else None,
            max(finished) if finished else None, row.last_report if row else "",
            row.last_seen if row else None, row.stopped if row else False, failures,
            math.fsum(mine) / len(mine) if mine else None, tuple(flags)))
    return sorted(out, key=lambda s: (-s.boards, s.name))
