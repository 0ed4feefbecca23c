"""Student's t distribution and the interval/test helpers the standings need.

Written out (regularized incomplete beta by Lentz's continued fraction) rather than pulling in
SciPy for two functions; tests check it against published t tables.

A sample with zero variance (every board gave the same value) has no t statistic: its standard
error is an artefact of too few boards, not evidence of certainty. There the exact sign test
and its order-statistic interval for the median take over, which assume nothing about the
spread: n boards that all agree give p = 2 * 0.5**n, significant at 5 % only from
:data:`ZERO_VARIANCE_MIN_BOARDS` (6) boards on, and the 95 % interval is unbounded below that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
        + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    x = df / (df + t * t)
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t value with P(T <= t) = p (bisection on :func:`t_cdf`)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be in (0, 1)")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its two-sided confidence interval (``half_width`` is inf for n < 2)."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def sign_test_p_value(differences: Sequence[float]) -> float:
    """Exact two-sided sign test that positive and negative differences are equally likely
    (zero differences are left out, as usual)."""
    above = sum(1 for d in differences if d > 0)
    below = sum(1 for d in differences if d < 0)
    n = above + below
    if n == 0:
        return 1.0
    tail = math.fsum(math.comb(n, i) for i in range(min(above, below) + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def sign_test_min_boards(confidence: float = 0.95) -> int:
    """The fewest boards on which unanimous ones can reach ``confidence``: n with
    2 * 0.5**n <= 1 - confidence (6 at 95 %)."""
    return max(1, math.ceil(math.log2(2.0 / (1.0 - confidence)) - 1e-12))


ZERO_VARIANCE_MIN_BOARDS = sign_test_min_boards(0.95)
"""Boards needed before a sample with zero variance can be called significant at 5 %."""


def variance(values: Sequence[float]) -> float:
    """The sample variance (``n - 1`` in the denominator); inf below 2 values."""
    n = len(values)
    if n < 2:
        return math.inf
    mean = math.fsum(values) / n
    return math.fsum((v - mean) ** 2 for v in values) / (n - 1)


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``values`` and its t interval, each value an independent unit (a board).

    With zero variance the t interval would have zero width on any number of boards; the
    order-statistic interval for the median is used instead: the value itself once there are
    enough boards for the sign test (:func:`sign_test_min_boards`), unbounded before.
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, math.inf, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, math.inf, n)
    spread = variance(values)
    if spread == 0.0:
        return Interval(mean, 0.0 if n >= sign_test_min_boards(confidence) else math.inf, n)
    t = t_quantile(0.5 + confidence / 2.0, n - 1)
    return Interval(mean, t * math.sqrt(spread / n), n)


def welch_interval(xs: Sequence[float], ys: Sequence[float], confidence: float = 0.95
                   ) -> Interval:
    """The difference of the means of two independent samples, ``mean(xs) - mean(ys)``, and
    its Welch interval: unequal variances, Welch-Satterthwaite degrees of freedom rounded down
    (as a t table is read). Unbounded below 2 values a side, or when both spreads are zero
    (a t interval has nothing to stand on). ``n`` is the smaller sample's size."""
    n = min(len(xs), len(ys))
    if n == 0:
        return Interval(0.0, math.inf, 0)
    difference = math.fsum(xs) / len(xs) - math.fsum(ys) / len(ys)
    if n < 2:
        return Interval(difference, math.inf, n)
    vx, vy = variance(xs) / len(xs), variance(ys) / len(ys)
    se2 = vx + vy
    if se2 == 0.0:
        return Interval(difference, math.inf, n)
    df = se2**2 / (vx**2 / (len(xs) - 1) + vy**2 / (len(ys) - 1))
    t = t_quantile(0.5 + confidence / 2.0, max(1, int(df)))
    return Interval(difference, t * math.sqrt(se2), n)


def paired_t_p_value(differences: Sequence[float]) -> float:
    """Two-sided p-value of a paired t-test that the mean difference is zero; the exact sign
    test's when every difference is the same (zero variance: no t statistic)."""
    n = len(differences)
    if n < 2:
        return 1.0
    mean = math.fsum(differences) / n
    spread = variance(differences)
    if spread == 0.0:
        return sign_test_p_value(differences)
    t = mean / math.sqrt(spread / n)
    return 2.0 * (1.0 - t_cdf(abs(t), n - 1))
