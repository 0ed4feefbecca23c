"""The ladder's rating, fitted to duplicate results only (docs/ladder.md says it in prose).

What is compared: two entries that held the same seat of the same board held the same cards,
so their scores there are one comparison: the higher score wins it, equal scores tie. Nothing
else is compared (a score against the other seats of one table says more about the cards than
about the bot).

The model is Bradley-Terry: entry ``i`` beats ``j`` with probability
``1 / (1 + exp(θj - θi))``. A tie counts as half a win for each. A group of ``k`` entries on
one board and seat makes ``k (k - 1) / 2`` comparisons that share the cards, so each weighs
``1 / (k - 1)``: an entry's comparisons in a group weigh one result in all, however many held
that seat. Each strength has a normal prior, mean 0 and :data:`PRIOR_SD`, which keeps an entry
that won (or lost) everything finite and pulls a new entry towards the field until it has
played.

The fit is the posterior's maximum, by Newton's method from zero; its uncertainty the inverse
of the posterior's curvature there (Laplace's approximation). Ratings are relative: they are
centred on the field's mean, and an entry's interval is its strength less that mean ± 1.96
standard deviations, about 95 % of the posterior's mass (the level all strengths share is no
uncertainty of the ranking). Ratings are shown on the Elo scale (:data:`ELO`): 1500 for the
field's mean, plus 400 for every tenfold in the odds of winning a comparison. The fit reads
nothing but the results and is deterministic: refitting the stored results gives the same
numbers.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PRIOR_SD = 2.0
"""The prior's standard deviation of a strength (in log-odds: about 350 Elo points)."""
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds."""
BASE = 1500.0
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Play:
    """One entry's result at one seat of one board."""

    board: int
    seat: int
    entry: int
    score: float


@dataclass(frozen=True, slots=True)
class Rating:
    entry: int
    rating: float
    """Elo scale."""
    low: float
    high: float
    """The 95 % interval, Elo scale."""
    comparisons: float
    """The weight of the comparisons it took part in (one per group it shared)."""

    @property
    def sd(self) -> float:
        return (self.high - self.low) / (2 * Z95)

    def separated_from(self, other: Rating) -> bool:
        """Whether the two intervals do not overlap."""
        return self.low > other.high or other.low > self.high


def comparisons(plays: Iterable[Play]) -> dict[tuple[int, int], tuple[float, float]]:
    """(i, j) with i < j -> (weight of their comparisons, weight of i's wins, ties half)."""
    groups: dict[tuple[int, int], list[Play]] = defaultdict(list)
    for play in plays:
        groups[(play.board, play.seat)].append(play)
    out: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for key in sorted(groups):
        group = groups[key]
        if len(group) < 2:
            continue
        weight = 1.0 / (len(group) - 1)
        for x in range(len(group)):
            for y in range(x + 1, len(group)):
                a, b = group[x], group[y]
                if a.entry == b.entry:
                    continue  # never seated so; nothing to learn from it
                i, j, si, sj = ((a.entry, b.entry, a.score, b.score) if a.entry < b.entry
                                else (b.entry, a.entry, b.score, a.score))
                won = 1.0 if si > sj else 0.5 if si == sj else 0.0
                pair = out[(i, j)]
                pair[0] += weight
                pair[1] += weight * won
    return {pair: (w, s) for pair, (w, s) in out.items()}


def fit(plays: Iterable[Play], entries: Iterable[int] = ()) -> dict[int, Rating]:
    """Every entry's rating from ``plays`` (and ``entries`` with no play: the prior's)."""
    plays = list(plays)
    pairs = comparisons(plays)
    ids = sorted({p.entry for p in plays} | set(entries))
    index = {entry: k for k, entry in enumerate(ids)}
    n = len(ids)
    theta = [0.0] * n
    precision = 1.0 / PRIOR_SD**2
    hessian: list[list[float]] = []
    for _ in range(100):
        gradient = [-precision * t for t in theta]
        hessian = [[precision if r == c else 0.0 for c in range(n)] for r in range(n)]
        for (i, j), (weight, won) in pairs.items():
            a, b = index[i], index[j]
            p = 1.0 / (1.0 + math.exp(theta[b] - theta[a]))
            gradient[a] += won - weight * p
            gradient[b] -= won - weight * p
            curve = weight * p * (1.0 - p)
            hessian[a][a] += curve
            hessian[b][b] += curve
            hessian[a][b] -= curve
            hessian[b][a] -= curve
        step = _solve(hessian, gradient)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    covariance = _centred(_inverse(hessian)) if n else []
    mean = math.fsum(theta) / n if n else 0.0
    theta = [t - mean for t in theta]
    weights: dict[int, float] = defaultdict(float)
    for (i, j), (weight, _) in pairs.items():
        weights[i] += weight
        weights[j] += weight
    out = {}
    for entry, k in index.items():
        sd = math.sqrt(max(covariance[k][k], 0.0))
        out[entry] = Rating(entry, BASE + ELO * theta[k], BASE + ELO * (theta[k] - Z95 * sd),
                            BASE + ELO * (theta[k] + Z95 * sd), weights[entry])
    return out


def _centred(covariance: list[list[float]]) -> list[list[float]]:
    """The covariance of each strength less the field's mean: the ratings are relative, and
    the level they share (which only the prior pins down) is no uncertainty of a ranking."""
    n = len(covariance)
    rows = [math.fsum(row) / n for row in covariance]
    total = math.fsum(rows) / n
    return [[covariance[r][c] - rows[r] - rows[c] + total for c in range(n)] for r in range(n)]


def _solve(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    """``matrix⁻¹ · vector`` for a symmetric positive definite matrix (Cholesky)."""
    lower = _cholesky(matrix)
    n = len(vector)
    y = [0.0] * n
    for r in range(n):
        y[r] = (vector[r] - math.fsum(lower[r][c] * y[c] for c in range(r))) / lower[r][r]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (y[r] - math.fsum(lower[c][r] * x[c] for c in range(r + 1, n))) / lower[r][r]
    return x


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]


def _cholesky(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    n = len(matrix)
    lower = [[0.0] * n for _ in range(n)]
    for r in range(n):
        for c in range(r + 1):
            total = matrix[r][c] - math.fsum(lower[r][k] * lower[c][k] for k in range(c))
            lower[r][c] = math.sqrt(total) if r == c else total / lower[c][c]
    return lower


def history(timed: Sequence[tuple[float, Play]], points: int = 24
            ) -> list[tuple[float, dict[int, Rating]]]:
    """The ratings as they stood at up to ``points`` moments, the last one the latest result
    (``timed``: each play with the time its table ended, in any order): at each, the fit of
    the plays known then, so that every point is refitted alike. The moments are the ends of
    tables, evenly spread over the results."""
    ordered = sorted(timed, key=lambda tp: (tp[0], tp[1].board, tp[1].seat, tp[1].entry))
    ends = [k + 1 for k in range(len(ordered))
            if k + 1 == len(ordered) or ordered[k + 1][0] != ordered[k][0]]
    if not ends:
        return []
    chosen = sorted({ends[min(len(ends) - 1, len(ends) * (k + 1) // points)]
                     for k in range(points)} | {ends[-1]})
    return [(ordered[mark - 1][0], fit(p for _, p in ordered[:mark])) for mark in chosen]
