"""A sequential probability ratio test on per-board paired differences.

The question "is the candidate better than the baseline?" is answered board by board: after
every board the test either accepts, rejects or asks for another board, with error rates fixed
in advance. It is Wald's SPRT between two simple hypotheses on the mean improvement per board
``mu``:

- H0: ``mu = low`` (e.g. 0: no better), H1: ``mu = high`` (e.g. +20 points: better by that);
- after ``n`` boards the log-likelihood ratio ``LLR`` of H1 against H0 is compared with Wald's
  bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: below the first H0 is
  accepted (the candidate is **rejected**), above the second H1 is (the candidate is
  **accepted**), in between another board is played. Up to ``max_boards``: then the test ends
  **inconclusive**.

Why the error rates hold although the test looks after every board: Wald's bounds are built for
exactly that (the LLR is a martingale under H0, so the chance it ever climbs to ``log((1 - beta)
/ alpha)`` is at most about ``alpha``, however often it is looked at; the same for ``beta``). A
fixed-sample test checked after every board would not have that property.

The board differences are not normal (many boards are played alike and differ by nothing, a few
swing by hundreds of points), and their spread is unknown. As fishtest does for chess, the LLR is
a **generalised** one (GSPRT) under a normal approximation: the likelihood ratio of two normal
distributions centred on H1's and H0's mean whose variance is the one measured so far,
``n (Z0^2 - Z1^2) / 2`` with ``Zk = (mean - mu_k) / sd`` the studentised distance to each
hypothesis. Unlike a ratio of best fits under each hypothesis, it grows with the evidence when
the candidate is far better (or worse) than both bounds, so a large difference is decided in a
few boards.

**Skewness.** That approximation alone loses power on our boards. When a bot's gain comes from
rare large swings (a card-play fix that matters on one board in fifty, a poignée shown in time)
the differences are zero-inflated and skewed, and the mean and the spread measured so far go
together: a run that has not met a swing yet sees a small mean *and* a small spread, which the
normal model reads as strong evidence against H1 (with bounds in points it accepted such a
better bot in 84 % of the unit tests' simulated runs, where beta = 0.05 promises 95 %). The
studentised mean of a skewed sample is itself skewed the other way, so the test also computes
the LLR of the same form on **Hall's transformation** of the studentised distances (Hall 1992,
"On the removal of skewness by transformation":
``U(Z) = Z + g Z^2 / 3 + g^2 Z^3 / 27 + g / (6 n)``, ``g`` the skewness measured so far;
monotone, and ``U = Z`` when ``g = 0``), which is nearly normal again, and **decides only when
both LLRs agree**: it accepts when both are over the upper bound and rejects when both are under
the lower one, so neither model's blind side decides a run alone (the corrected one guards the
side the skew would push a run to wrongly, the normal one the other side, where the skewness
measured on a few boards is too noisy to lean on), at the cost of a few more boards: in the
bench the card-play pair with bounds in points was wrongly rejected in 3.8 % of the runs instead
of 6.0 %. :attr:`Sprt.llr` is the one the test goes by: the median of the two and 0 (the nearer
one to 0 when both lie on one side, 0 when they disagree). Measured in ``make bench-regression``
(every pair, bounds in points and in sd, 1,000 resampled runs) and in the unit tests'
simulations; fishtest's exact multinomial GSPRT was measured too (the likelihood maximised over
distributions on the values seen, as its ``LLRcalc`` does for game pairs), and refused: with
dozens of distinct board values and skewed tails it accepted A against A in 11-24 % of the runs,
and took thirty times as long.

No test can see a swing it has not met: when a bot's whole gain lies on a few boards in a
hundred, no verdict is sound before enough of them were played (the fixed-sample test's boards,
or ``--min-boards``). On simulated boards whose gain lies on 2-3 % of them the corrected test
still accepts only 67-80 % of the runs at H1 (the normal model alone 52-67 %). The simulation
tests check that the false-positive rate stays within ``alpha`` on heavy-tailed differences too,
and the power on zero-inflated, skewed ones. Two guards keep the first boards from deciding on a
spread that has barely been measured: nothing is decided before ``min_boards`` boards, and the
variance used is at least :data:`VARIANCE_FLOOR`.

A board whose difference is exactly 0 (both bots played it alike, or nothing was scored: every
deal passed out) says nothing about which bot is better. A verdict also needs ``min_boards``
boards that **differ**; a test whose first ``min_boards`` boards all came out even stops there,
inconclusive (:attr:`Inconclusive.NO_DIFFERENCE`): nothing was compared, and more boards of the
same would only lend a verdict the look of evidence. One that reaches its cap with fewer
differing boards is inconclusive too (:attr:`Inconclusive.FEW_DIFFERENCES`).

Bounds come in two **units**:

- ``points``: the mean improvement per board in game points (datum, the candidate's score in a
  seat minus the baseline's in that seat on the same cards, averaged over the seats);
- ``sd``: the mean in units of the per-board standard deviation (``mu / sigma``), as fishtest's
  normalised Elo: a test between 0 and 0.2 standard deviations takes the same number of boards
  whatever the scale of the scores, so one setting suits any pair of bots. H_k then says
  ``mu = t_k * sigma``, ``sigma`` the standard deviation measured so far.

The estimate reported with a verdict (mean per board and its 95 % t interval) is the naive one:
a sequential test that stopped early tends to overstate the difference a little.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .stats import mean_interval

VARIANCE_FLOOR = 1.0
"""Points squared. Board differences are multiples of 1/players of a point; a spread under a
point means the bots played the boards alike, and without a floor a handful of identical boards
would make the LLR infinite."""
DEFAULT_MIN_BOARDS = 30


class Units(StrEnum):
    POINTS = "points"
    """Bounds in game points per board."""
    SD = "sd"
    """Bounds in per-board standard deviations (normalised, scale-free)."""


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    """H1: the candidate is better by the upper bound (or, non-regression: not worse)."""
    REJECTED = "rejected"
    """H0: the candidate is no better than the lower bound."""
    INCONCLUSIVE = "inconclusive"
    """No verdict: the cap on boards was reached first, or the boards did not differ
    (:class:`Inconclusive` says which)."""


class Inconclusive(StrEnum):
    """Why a test ended without a verdict."""

    CAP = "cap"
    """The cap on boards was reached between the bounds."""
    NO_DIFFERENCE = "no-difference"
    """Every one of the first ``min_boards`` boards came out even: nothing was compared."""
    FEW_DIFFERENCES = "few-differences"
    """The cap was reached with fewer than ``min_boards`` boards that differ."""


class SprtError(ValueError):
    """Settings a sequential test cannot run with; the message says which and why."""


@dataclass(frozen=True, slots=True)
class SprtSettings:
    low: float
    """H0's mean improvement per board (in ``units``)."""
    high: float
    """H1's, above ``low``."""
    units: Units = Units.SD
    alpha: float = 0.05
    """The chance of accepting when H0 is true (a false positive)."""
    beta: float = 0.05
    """The chance of rejecting when H1 is true."""
    max_boards: int = 1000
    min_boards: int = DEFAULT_MIN_BOARDS

    def __post_init__(self) -> None:
        problems = []
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                problems.append(f"{name} must be in (0, 0.5), got {value:g}")
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            problems.append("the bounds must be finite numbers")
        elif not self.low < self.high:
            problems.append(f"the bounds are in the wrong order: H0 {self.low:g} must be below "
                            f"H1 {self.high:g}")
        if self.min_boards < 2:
            problems.append(f"the minimum must be at least 2 boards (a spread needs two), got "
                            f"{self.min_boards}")
        elif self.max_boards < self.min_boards:
            problems.append(f"the cap must be at least the minimum of {self.min_boards} "
                            f"boards, got {self.max_boards}")
        if problems:
            raise SprtError("; ".join(problems))

    @classmethod
    def non_regression(cls, margin: float, units: Units = Units.SD, **kwargs: float
                       ) -> SprtSettings:
        """"Not worse by more than ``margin``": H0 ``mu = -margin``, H1 ``mu = 0``. Accepted
        means the candidate is at least as good as the baseline, give or take ``margin``."""
        if not margin > 0:
            raise SprtError(f"the non-regression margin must be positive, got {margin:g}")
        return cls(-margin, 0.0, units, **kwargs)  # type: ignore[arg-type]

    @property
    def lower_bound(self) -> float:
        """The LLR under which H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """The LLR over which H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def to_json(self) -> dict[str, object]:
        return {"low": self.low, "high": self.high, "units": self.units.value,
                "alpha": self.alpha, "beta": self.beta, "max_boards": self.max_boards,
                "min_boards": self.min_boards}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SprtSettings:
        return cls(float(data["low"]), float(data["high"]), Units(data["units"]),
                   float(data["alpha"]), float(data["beta"]), int(data["max_boards"]),
                   int(data["min_boards"]))


def llr(n: int, mean: float, variance: float, settings: SprtSettings,
        skewness: float = 0.0) -> float:
    """The log-likelihood ratio of H1 against H0 after ``n`` boards with this mean and
    variance: that of two normal distributions of the measured variance centred on H1's and H0's
    mean, ``n (Z0^2 - Z1^2) / 2`` with ``Zk = (mean - mu_k) / sd``, which is
    ``n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 variance)``. In ``sd`` units the means are
    ``t * sd`` with the measured ``sd``, which makes it ``n (t1 - t0) (2 mean / sd - t0 - t1) /
    2``: a function of ``mean / sd`` alone.

    With a ``skewness``, the same on Hall's transformation of each ``Zk``
    (:func:`hall_transform`): the LLR of the skewness-corrected model."""
    if n < 2:
        return 0.0  # no spread measured yet: no evidence either way
    variance = max(variance, VARIANCE_FLOOR)
    sd = math.sqrt(variance)
    low, high = settings.low, settings.high
    if settings.units is Units.SD:
        low, high = low * sd, high * sd
    if skewness == 0.0:
        return n * (high - low) * (2.0 * mean - low - high) / (2.0 * variance)
    z0 = hall_transform((mean - low) / sd, skewness, n)
    z1 = hall_transform((mean - high) / sd, skewness, n)
    return n * (z0 * z0 - z1 * z1) / 2.0


HALL_FLAT = 0.25
"""The slope of Hall's cube, against the normal model's 1, past which it goes on straight:
where the correction ``g z / 3`` reaches half the statistic's own term. The expansion is one
for a studentised mean near its hypothesis; far from it the cube only flattens, and a mean
far past both bounds, whose boards are skewed the other way, was read as hardly any evidence.
At 0.01 (the cube followed to 90 % of the way to its flat point) a bot 2.7 sd a board better
than its baseline, with 6 % of its boards lost (skewness -1.1), reached a cap of 200 boards
undecided in 4 % of the runs with bounds in points; at 0.25 every run is accepted at the
minimum of boards. ``make bench-regression`` gave the same power on every pair and a false
positive rate no higher (0.3-4.7 %, from 0.4-4.7 %): its pairs lie near their bounds, where
the cube is unchanged."""


def hall_transform(z: float, skewness: float, n: int) -> float:
    """Hall's transformation of a studentised mean ``z`` of ``n`` values whose skewness is
    ``skewness``: ``z + g z^2 / 3 + g^2 z^3 / 27 + g / (6 n)``, written as the cube it is so
    that it stays increasing in ``z``: the studentised mean without its first-order skewness."""
    if skewness == 0.0:
        return z
    g = skewness
    # The cube flattens where 1 + g z / 3 reaches 0 (z = -3 / g), so that a mean far past both
    # bounds would tell them apart no more: a clearly better bot whose boards are skewed the
    # other way would never be accepted. Past the point where its slope is HALL_FLAT of the
    # normal model's, the expansion (meaningless there) goes on with slope 1.
    edge = -3.0 * (1.0 - math.sqrt(HALL_FLAT)) / g  # where the slope (1 + g z / 3)^2 is HALL_FLAT
    beyond = 0.0
    if (z - edge) * g < 0.0:
        z, beyond = edge, z - edge
    return ((1.0 + g * z / 3.0) ** 3 - 1.0) / g + beyond + g / (6.0 * n)


def cautious(normal: float, corrected: float) -> float:
    """The LLR the test goes by: the median of the two models' and 0. Over the upper bound only
    when both are, under the lower one only when both are."""
    return sorted((normal, corrected, 0.0))[1]


@dataclass(frozen=True, slots=True)
class Status:
    """Where a test stands after some boards."""

    boards: int
    llr: float
    lower: float
    upper: float
    verdict: Verdict | None
    """None: not decided yet (play another board)."""
    mean: float
    half_width: float
    """Of the 95 % t interval of the mean per board (inf before 2 boards)."""
    sd: float
    """Per-board standard deviation (sample, n - 1)."""
    differing: int = 0
    """Boards whose difference is not 0 (the others were played alike, or nothing scored)."""
    reason: Inconclusive | None = None
    """Why the test is inconclusive (None otherwise)."""
    skewness: float = 0.0
    """Of the per-board differences (third central moment over the cube of :attr:`sd`)."""
    llr_normal: float = 0.0
    """The normal model's LLR (:attr:`llr` is the cautious one of it and the next)."""
    llr_skew_corrected: float = 0.0
    """The skewness-corrected model's LLR."""

    @property
    def normalised(self) -> float:
        """The mean in per-board standard deviations (0 when the spread is 0)."""
        return self.mean / self.sd if self.sd > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        def num(x: float) -> float | None:
            return round(x, 4) if math.isfinite(x) else None

        return {
            "verdict": self.verdict.value if self.verdict else None,
            "boards": self.boards,
            "llr": num(self.llr),
            "llr_bounds": [num(self.lower), num(self.upper)],
            "mean_per_board": num(self.mean),
            "ci95": [num(self.mean - self.half_width), num(self.mean + self.half_width)],
            "sd_per_board": num(self.sd),
            "mean_in_sd": num(self.normalised),
            "boards_differing": self.differing,
            "inconclusive_reason": self.reason.value if self.reason else None,
            "skewness_per_board": num(self.skewness),
            "llr_normal": num(self.llr_normal),
            "llr_skew_corrected": num(self.llr_skew_corrected),
        }


class Sprt:
    """The test, fed one board difference at a time (running mean, second and third central
    moments: Welford's update, extended to the third as Terriberry's)."""

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0
        self._m3 = 0.0
        self.values: list[float] = []
        self.differing = 0
        """Boards whose difference is not 0."""
        self.verdict: Verdict | None = None
        self.reason: Inconclusive | None = None

    def add(self, difference: float) -> Verdict | None:
        """Count one more board; the verdict once decided (later boards are refused)."""
        if self.verdict is not None:
            raise RuntimeError(f"the test is already decided ({self.verdict.value})")
        self.values.append(difference)
        self.n += 1
        self.differing += difference != 0.0
        n = self.n
        delta = difference - self.mean
        step = delta / n
        grown = delta * step * (n - 1)
        self.mean += step
        self._m3 += grown * step * (n - 2) - 3.0 * step * self._m2
        self._m2 += grown
        s = self.settings
        value = self.llr
        if self.n >= s.min_boards and self.differing >= s.min_boards:
            if value >= s.upper_bound:
                self.verdict = Verdict.ACCEPTED
            elif value <= s.lower_bound:
                self.verdict = Verdict.REJECTED
        if self.verdict is None:
            if self.n >= s.min_boards and not self.differing:
                self.reason = Inconclusive.NO_DIFFERENCE
            elif self.n >= s.max_boards:
                self.reason = (Inconclusive.CAP if self.differing >= s.min_boards
                               else Inconclusive.FEW_DIFFERENCES)
            if self.reason is not None:
                self.verdict = Verdict.INCONCLUSIVE
        return self.verdict

    @property
    def variance(self) -> float:
        """Unbiased (``n - 1``): a little safer than the maximum-likelihood one."""
        return self._m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def skewness(self) -> float:
        """The third central moment over the cube of the sd the LLR uses (floored)."""
        if self.n < 3:
            return 0.0
        return self._m3 / self.n / max(self.variance, VARIANCE_FLOOR) ** 1.5

    @property
    def llr_normal(self) -> float:
        return llr(self.n, self.mean, self.variance, self.settings)

    @property
    def llr_skew_corrected(self) -> float:
        return llr(self.n, self.mean, self.variance, self.settings, self.skewness)

    @property
    def llr(self) -> float:
        """The LLR the test goes by (:func:`cautious`)."""
        variance = self.variance
        normal = llr(self.n, self.mean, variance, self.settings)
        return cautious(normal, llr(self.n, self.mean, variance, self.settings, self.skewness))

    def status(self) -> Status:
        interval = mean_interval(self.values)
        sd = math.sqrt(self.variance) if self.n >= 2 else 0.0
        return Status(self.n, self.llr, self.settings.lower_bound, self.settings.upper_bound,
                      self.verdict, self.mean, interval.half_width, sd, self.differing,
                      self.reason, self.skewness, self.llr_normal, self.llr_skew_corrected)


def run(values: list[float], settings: SprtSettings) -> Sprt:
    """The test fed ``values`` in order until it decides (or they run out)."""
    test = Sprt(settings)
    for value in values:
        if test.add(value) is not None:
            break
    return test
