"""The ladder's rating, fitted to duplicate results only (docs/ladder.md says it in prose).

Two models read the same comparisons: :func:`margin_fit` (a ladder's default) the score
differences, :func:`fit` who won. The margin model is the one a fixed competition's standings
agree with (the mean duplicate score difference): a win by one point is not a win by two
hundred, and reading only who won throws away most of what a board says.

What is compared: two entries that held the same seat of the same board held the same cards,
so their scores there are one comparison: the higher score wins it, equal scores tie. Nothing
else is compared (a score against the other seats of one table says more about the cards than
about the bot).

What a result measures: in these games a seat's points are won from the other seats of its
table, so a result measures the entry against its opponents there. Two tables of one board may
seat different opponents (the ladder seats near equals together), so the model reads the
comparison of ``i`` (whose opponents were ``O_i``) with ``j`` (opponents ``O_j``) as one of
``θi - mean θ(O_i)`` with ``θj - mean θ(O_j)``: Bradley-Terry over those contrasts, ``i``
winning with probability ``1 / (1 + exp(-(θi - mean θ(O_i) - θj + mean θ(O_j))))``. Against the
same field it is plain Bradley-Terry; a heuristic that beat random bots is not rated below
one that drew against heuristics. A tie counts as half a win for each.

A group of ``k`` entries on one board and seat makes ``k (k - 1) / 2`` comparisons, and an
entry's ``k - 1`` of them share its one result there: were results its strength plus a noise,
the mean of its ``k - 1`` differences would have the variance of ``2 (k - 1) / k`` independent
comparisons, not ``k - 1``. So each comparison of a group of ``k`` weighs ``2 / k`` (one for a
pair): an entry learns more from a seat held by more entries, never as much as from as many
separate boards. And a table's scores add up to a fixed sum in every game (each declares it
zero- or constant-sum), so between two tables of a board the ``n`` seats' differences add up
to zero: they say ``n - 1`` things, not ``n`` (with two players, seat 1's comparison is seat
0's, reversed). Each comparison weighs ``(n - 1) / n`` more.

Each strength has a normal prior, mean 0 and :data:`PRIOR_SD`, which keeps an entry that won
(or lost) everything finite and pulls a new entry towards the field until it has played.

The margin model: each comparison observes ``i``'s score less ``j``'s, whose expectation is the
same contrast, with a standard deviation ``σ`` shared by all (weighed as above). The fit is
weighted least squares with a ridge prior (:data:`MARGIN_PRIOR` times ``σ``), one linear
solve; ``σ`` is read from the residuals, pooled, never below a floor (a point of the game);
an interval is the strength less the field's mean ± 1.96 ``σ`` times the square root of its
variance in the inverse of the normal matrix. Ratings are the game's score units per board
against the field's mean (0).

The wins model's fit is the posterior's maximum, by Newton's method from zero; its
uncertainty the inverse of the posterior's curvature there (Laplace's approximation). Ratings
are relative: they are centred on the field's mean, and an entry's interval is its strength
less that mean ± 1.96 standard deviations, about 95 % of the posterior's mass (the level all
strengths share is no uncertainty of the ranking). Ratings are shown on the Elo scale
(:data:`ELO`): 1500 for the field's mean, plus 400 for every tenfold in the odds of winning a
comparison. Either fit reads nothing but the results and is deterministic: refitting the
stored results gives the same numbers.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

PRIOR_SD = 2.0
"""The prior's standard deviation of a strength (in log-odds: about 350 Elo points)."""
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds."""
BASE = 1500.0
Z95 = 1.959963984540054
MARGIN_PRIOR = 1.0
"""The margin model's prior standard deviation of a strength, in standard deviations of one
comparison: wide against any difference of bots' skills, yet it pins a new entry to the
field's mean."""


class RatingModel(StrEnum):
    """What a ladder's rating reads of a comparison."""

    MARGIN = "margin"
    """The score difference: a weighted Gaussian linear model, points per board."""
    WINS = "wins"
    """Who outscored whom (ties half): Bradley-Terry, on the Elo scale."""

    @property
    def centre(self) -> float:
        """The field's mean on the model's scale."""
        return BASE if self is RatingModel.WINS else 0.0

    def fit(self, plays: Iterable[Play], entries: Iterable[int] = (), players: int = 0,
            floor: float = 1.0) -> dict[int, Rating]:
        """The model's fit (``floor``: the margin model's, see :func:`margin_fit`)."""
        if self is RatingModel.WINS:
            return fit(plays, entries, players)
        return margin_fit(plays, entries, players, floor)


@dataclass(frozen=True, slots=True)
class Play:
    """One entry's result at one seat of one board, and the entries of its table's other
    seats."""

    board: int
    seat: int
    entry: int
    score: float
    opponents: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Rating:
    entry: int
    rating: float
    """On the model's scale: Elo (:func:`fit`) or score units per board relative to the
    field's mean (:func:`margin_fit`)."""
    low: float
    high: float
    """The 95 % interval, on the same scale."""
    comparisons: float
    """The weight of the comparisons it took part in."""
    spread: float = field(default=0.0, compare=False)
    """The margin model's standard deviation of one comparison in this fit, the same for
    every entry (0: the wins model, or read from storage): a new entry's prior is
    :data:`MARGIN_PRIOR` of it."""

    @property
    def sd(self) -> float:
        return (self.high - self.low) / (2 * Z95)

    def separated_from(self, other: Rating) -> bool:
        """Whether the two intervals do not overlap."""
        return self.low > other.high or other.low > self.high


Contrast = tuple[tuple[int, float], ...]
"""A comparison's contrast of strengths: (entry, coefficient), by entry."""


def comparisons(plays: Iterable[Play], players: int = 0
                ) -> dict[Contrast, tuple[float, float, frozenset[int]]]:
    """Every comparison, as contrast -> (its weight, the weight of its wins, ties half, the
    entries compared); the contrast is the first side's: ``i``'s strength against its
    opponents', less ``j``'s against theirs. Comparisons of one contrast add up. ``players``:
    seats at a table, whose scores add up to a fixed sum (0: no such correction)."""
    out: dict[Contrast, list[float]] = defaultdict(lambda: [0.0, 0.0])
    compared: dict[Contrast, set[int]] = defaultdict(set)
    for contrast, weight, a, b in _compared(plays, players):
        won = 1.0 if a.score > b.score else 0.5 if a.score == b.score else 0.0
        pair = out[contrast]
        pair[0] += weight
        pair[1] += weight * won
        compared[contrast].update((a.entry, b.entry))
    return {contrast: (w, s, frozenset(compared[contrast]))
            for contrast, (w, s) in out.items()}


def margins(plays: Iterable[Play], players: int = 0
            ) -> dict[Contrast, tuple[float, float, float, frozenset[int]]]:
    """Every comparison, as contrast -> (its weight, the weighted sum of its score
    differences, the weighted sum of their squares, the entries compared): the same
    comparisons and weights as :func:`comparisons`, each observing the first side's score
    less the second's."""
    out: dict[Contrast, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    compared: dict[Contrast, set[int]] = defaultdict(set)
    for contrast, weight, a, b in _compared(plays, players):
        difference = a.score - b.score
        sums = out[contrast]
        sums[0] += weight
        sums[1] += weight * difference
        sums[2] += weight * difference * difference
        compared[contrast].update((a.entry, b.entry))
    return {contrast: (w, d, q, frozenset(compared[contrast]))
            for contrast, (w, d, q) in out.items()}


def _compared(plays: Iterable[Play], players: int
              ) -> Iterator[tuple[Contrast, float, Play, Play]]:
    """Each comparison once, in a fixed order: (its contrast, its weight, the play of the
    contrast's first side, the other's)."""
    groups: dict[tuple[int, int], list[Play]] = defaultdict(list)
    for play in plays:
        groups[(play.board, play.seat)].append(play)
    seats = (players - 1) / players if players > 1 else 1.0
    for key in sorted(groups):
        group = sorted(groups[key], key=lambda p: (p.entry, p.score, p.opponents))
        if len(group) < 2:
            continue
        weight = 2.0 / len(group) * seats
        for x in range(len(group)):
            for y in range(x + 1, len(group)):
                a, b = group[x], group[y]
                if a.entry == b.entry:
                    continue  # never seated so; nothing to learn from it
                contrast = _contrast(a, b)
                if contrast[0][1] < 0:  # one sign for one contrast: a's side first
                    yield tuple((e, -c) for e, c in contrast), weight, b, a
                else:
                    yield contrast, weight, a, b


def _contrast(a: Play, b: Play) -> Contrast:
    coefficients: dict[int, float] = defaultdict(float)
    coefficients[a.entry] += 1.0
    coefficients[b.entry] -= 1.0
    for play, sign in ((a, -1.0), (b, 1.0)):
        for opponent in play.opponents:
            coefficients[opponent] += sign / len(play.opponents)
    return tuple(sorted((e, c) for e, c in coefficients.items() if abs(c) > 1e-12))


def fit(plays: Iterable[Play], entries: Iterable[int] = (), players: int = 0
        ) -> dict[int, Rating]:
    """Every entry's rating from ``plays`` (and ``entries`` with no play: the prior's);
    ``players`` as for :func:`comparisons`."""
    plays = list(plays)
    found = comparisons(plays, players)
    ids = sorted({p.entry for p in plays} | {o for p in plays for o in p.opponents}
                 | set(entries))
    index = {entry: k for k, entry in enumerate(ids)}
    n = len(ids)
    rows = [([(index[e], c) for e, c in contrast], weight, won)
            for contrast, (weight, won, _) in sorted(found.items())]
    theta = [0.0] * n
    precision = 1.0 / PRIOR_SD**2
    hessian: list[list[float]] = []
    for _ in range(100):
        gradient = [-precision * t for t in theta]
        hessian = [[precision if r == c else 0.0 for c in range(n)] for r in range(n)]
        for terms, weight, won in rows:
            z = math.fsum(theta[k] * c for k, c in terms)
            p = 1.0 / (1.0 + math.exp(-z))
            residual = won - weight * p
            curve = weight * p * (1.0 - p)
            for k, c in terms:
                gradient[k] += residual * c
                row = hessian[k]
                for m, d in terms:
                    row[m] += curve * c * d
        step = _solve(hessian, gradient)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    covariance = _centred(_inverse(hessian)) if n else []
    mean = math.fsum(theta) / n if n else 0.0
    theta = [t - mean for t in theta]
    weights: dict[int, float] = defaultdict(float)
    for weight, _, who in found.values():
        for entry in who:
            weights[entry] += weight
    out = {}
    for entry, k in index.items():
        sd = math.sqrt(max(covariance[k][k], 0.0))
        out[entry] = Rating(entry, BASE + ELO * theta[k], BASE + ELO * (theta[k] - Z95 * sd),
                            BASE + ELO * (theta[k] + Z95 * sd), weights[entry])
    return out


def margin_fit(plays: Iterable[Play], entries: Iterable[int] = (), players: int = 0,
               floor: float = 1.0) -> dict[int, Rating]:
    """Every entry's rating in score units per board from ``plays`` (and ``entries`` with no
    play: the prior's); ``players`` as for :func:`comparisons`; ``floor``: the least standard
    deviation of a comparison, in score units (a field of identical bots holding the same
    cards scores alike: its intervals stay wider than nothing)."""
    plays = list(plays)
    found = margins(plays, players)
    ids = sorted({p.entry for p in plays} | {o for p in plays for o in p.opponents}
                 | set(entries))
    index = {entry: k for k, entry in enumerate(ids)}
    n = len(ids)
    rows = [([(index[e], c) for e, c in contrast], weight, total, squares)
            for contrast, (weight, total, squares, _) in sorted(found.items())]
    normal = [[1.0 / MARGIN_PRIOR**2 if r == c else 0.0 for c in range(n)] for r in range(n)]
    right = [0.0] * n
    for terms, weight, total, _ in rows:
        for k, c in terms:
            right[k] += total * c
            row = normal[k]
            for m, d in terms:
                row[m] += weight * c * d
    theta = _solve(normal, right) if n else []
    residuals = 0.0
    observed = 0.0
    for terms, weight, total, squares in rows:
        expected = math.fsum(theta[k] * c for k, c in terms)
        residuals += max(squares - 2.0 * expected * total + expected * expected * weight, 0.0)
        observed += weight
    freedom = observed - max(n - 1, 0)
    if freedom > 0:
        variance = residuals / freedom
    else:  # fewer comparisons than strengths: their own spread is all there is
        variance = math.fsum(q for _, _, _, q in rows) / observed if observed else 0.0
    sigma = max(math.sqrt(variance), floor)
    covariance = _centred(_inverse(normal)) if n else []
    mean = math.fsum(theta) / n if n else 0.0
    weights: dict[int, float] = defaultdict(float)
    for weight, _, _, who in found.values():
        for entry in who:
            weights[entry] += weight
    out = {}
    for entry, k in index.items():
        centred = theta[k] - mean
        sd = sigma * math.sqrt(max(covariance[k][k], 0.0))
        out[entry] = Rating(entry, centred, centred - Z95 * sd, centred + Z95 * sd,
                            weights[entry], sigma)
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


def history(timed: Sequence[tuple[float, Play]], points: int = 24, players: int = 0,
            model: RatingModel = RatingModel.WINS, floor: float = 1.0
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
    return [(ordered[mark - 1][0],
             model.fit((p for _, p in ordered[:mark]), players=players, floor=floor))
            for mark in chosen]
