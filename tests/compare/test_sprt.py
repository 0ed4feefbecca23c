"""The sequential test: its settings, its LLR, and its error rates by simulation."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

import pytest

from tournaments.duplicate.sprt import (
    HALL_FLAT,
    Inconclusive,
    Sprt,
    SprtError,
    SprtSettings,
    Units,
    Verdict,
    cautious,
    hall_transform,
    llr,
    run,
)

Draw = Callable[[random.Random], float]


# ------------------------------------------------------------------------------ settings
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"low": 20, "high": 0}, "wrong order"),
    ({"low": 5, "high": 5}, "wrong order"),
    ({"alpha": 0.0}, "alpha must be in (0, 0.5)"),
    ({"alpha": 0.5}, "alpha must be in (0, 0.5)"),
    ({"beta": -0.1}, "beta must be in (0, 0.5)"),
    ({"beta": 0.7}, "beta must be in (0, 0.5)"),
    ({"max_boards": 5}, "the cap must be at least"),
    ({"low": math.nan}, "finite"),
])
def test_bad_settings_are_refused_with_the_reason(kwargs: dict[str, float], message: str
                                                  ) -> None:
    base: dict[str, float] = {"low": 0.0, "high": 0.2}
    with pytest.raises(SprtError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SprtSettings(**{**base, **kwargs})  # type: ignore[arg-type]


def test_non_regression_preset_tests_not_worse_by_the_margin() -> None:
    s = SprtSettings.non_regression(15, Units.POINTS, alpha=0.1)
    assert (s.low, s.high, s.units, s.alpha) == (-15, 0, Units.POINTS, 0.1)
    with pytest.raises(SprtError, match="positive"):
        SprtSettings.non_regression(0)


def test_wald_bounds() -> None:
    s = SprtSettings(0, 1, alpha=0.05, beta=0.1)
    assert s.upper_bound == pytest.approx(math.log(0.9 / 0.05))
    assert s.lower_bound == pytest.approx(math.log(0.1 / 0.95))


def test_settings_round_trip_through_json() -> None:
    s = SprtSettings(-3, 7, Units.POINTS, 0.01, 0.2, 500, 20)
    assert SprtSettings.from_json(s.to_json()) == s


# ----------------------------------------------------------------------------------- LLR
def test_llr_in_points_is_that_of_two_normals_of_the_measured_variance() -> None:
    s = SprtSettings(0, 10, Units.POINTS)
    # n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 var) = 50 * 10 * (8 - 10) / 200
    assert llr(50, 4.0, 100.0, s) == pytest.approx(-5.0)
    assert llr(50, 5.0, 100.0, s) == pytest.approx(0.0)  # halfway: no evidence either way
    assert llr(50, 8.0, 100.0, s) > 0 > llr(50, 2.0, 100.0, s)
    # far beyond H1, the evidence keeps growing with the difference
    assert llr(10, 700.0, 100.0**2, s) > llr(10, 70.0, 100.0**2, s) > 0


def test_llr_in_sd_is_the_same_whatever_the_scale() -> None:
    s = SprtSettings(0, 0.2, Units.SD)
    reference = llr(40, 0.15 * 10.0, 10.0**2, s)
    assert reference == pytest.approx(40 * 0.2 * (0.3 - 0.2) / 2)
    for scale in (3.0, 30.0, 3000.0):
        assert llr(40, 0.15 * scale, scale**2, s) == pytest.approx(reference)
    assert llr(40, 0.1 * 50, 50.0**2, s) == pytest.approx(0.0, abs=1e-9)
    assert llr(40, 0.3 * 50, 50.0**2, s) > 0 > llr(40, -0.1 * 50, 50.0**2, s)


def test_hall_transform_is_the_identity_without_skew_and_always_increasing() -> None:
    assert [hall_transform(z, 0.0, 50) for z in (-3.0, 0.0, 2.5)] == [-3.0, 0.0, 2.5]
    for g in (-4.0, -0.5, 0.7, 5.0):
        values = [hall_transform(z / 10, g, 40) for z in range(-80, 81)]
        assert values == sorted(values) and len(set(values)) == len(values)
    # right skew: a mean below the hypothesis is less surprising, one above it more
    assert -2.0 < hall_transform(-2.0, 1.5, 1000) < 0 < 2.0 < hall_transform(2.0, 1.5, 1000)


def test_the_skew_corrected_llr_is_the_normal_one_without_skew() -> None:
    s = SprtSettings(0, 10, Units.POINTS)
    assert llr(50, 4.0, 100.0, s, skewness=0.0) == llr(50, 4.0, 100.0, s)
    # right skew, mean under both bounds: less evidence against H1 than the normal model sees
    assert llr(50, -2.0, 100.0, s) < llr(50, -2.0, 100.0, s, skewness=2.0) < 0


def test_the_test_goes_by_the_cautious_llr_of_the_two_models() -> None:
    assert cautious(4.0, 3.0) == 3.0 and cautious(-4.0, -3.0) == -3.0
    assert cautious(4.0, -1.0) == 0.0 and cautious(-2.0, 5.0) == 0.0


def test_running_moments_are_those_of_the_boards() -> None:
    rng = random.Random(4)
    values = [0.0 if rng.random() < 0.5 else rng.expovariate(1 / 30) for _ in range(300)]
    test = Sprt(SprtSettings(0, 20, Units.POINTS, min_boards=300))
    for value in values:
        test.add(value)
    n, mean = len(values), math.fsum(values) / len(values)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    third = math.fsum((v - mean) ** 3 for v in values) / n
    assert test.variance == pytest.approx(variance)
    assert test.skewness == pytest.approx(third / variance**1.5) and test.skewness > 1
    status = test.status()
    assert status.llr == cautious(status.llr_normal, status.llr_skew_corrected)
    assert status.to_json()["skewness_per_board"] == round(test.skewness, 4)


def test_identical_boards_do_not_make_the_llr_infinite() -> None:
    """A few boards played alike among others: the variance floor keeps the LLR finite."""
    test = Sprt(SprtSettings(0, 20, Units.POINTS, min_boards=3))
    for value in (0.0, 0.0, 5.0):
        test.add(value)
    assert math.isfinite(test.llr)
    assert math.isfinite(run([7.0] * 40, SprtSettings(0, 20, Units.POINTS)).llr)


@pytest.mark.parametrize("settings", [
    SprtSettings(0, 20, Units.POINTS), SprtSettings(0, 0.2),
    SprtSettings.non_regression(20, Units.POINTS), SprtSettings.non_regression(0.1),
])
def test_boards_that_all_come_out_even_are_no_verdict(settings: SprtSettings) -> None:
    """Every board even (every deal passed out, or the bots played alike): nothing was
    compared, whatever the hypotheses; the test says so at the minimum instead of deciding
    later on the variance floor."""
    test = run([0.0] * 1000, settings)
    assert (test.verdict, test.n) == (Verdict.INCONCLUSIVE, settings.min_boards)
    status = test.status()
    assert status.reason is Inconclusive.NO_DIFFERENCE and status.differing == 0
    assert status.to_json()["inconclusive_reason"] == "no-difference"


def test_a_verdict_needs_the_minimum_of_boards_that_differ() -> None:
    """Boards far apart, but only one in ten differs: no verdict before 12 of them do; at the
    cap with fewer, inconclusive for that reason."""
    s = SprtSettings(0, 20, Units.POINTS, min_boards=12, max_boards=500)
    values = [0.0 if i % 10 else 400.0 for i in range(500)]
    test = run(values, s)
    assert test.verdict is Verdict.ACCEPTED
    assert test.differing == 12 and test.n == 111
    capped = run(values[:100], SprtSettings(0, 20, Units.POINTS, min_boards=12, max_boards=100))
    assert capped.verdict is Verdict.INCONCLUSIVE
    assert capped.status().reason is Inconclusive.FEW_DIFFERENCES
    assert capped.status().differing == 10


# ------------------------------------------------------------------------- the procedure
def test_nothing_is_decided_before_the_minimum() -> None:
    s = SprtSettings(0, 20, Units.POINTS, min_boards=12)
    test = Sprt(s)
    verdicts = [test.add(1000.0 + i) for i in range(12)]
    assert verdicts[:11] == [None] * 11
    assert verdicts[11] is Verdict.ACCEPTED


def test_the_cap_ends_the_test_inconclusive() -> None:
    rng = random.Random(3)
    s = SprtSettings(0, 0.05, max_boards=30)
    test = run([rng.gauss(0.025, 1) for _ in range(100)], s)
    assert (test.verdict, test.n) == (Verdict.INCONCLUSIVE, 30)
    assert test.status().reason is Inconclusive.CAP
    with pytest.raises(RuntimeError, match="already decided"):
        test.add(0.0)


def test_status_reports_the_estimate_and_its_interval() -> None:
    test = run([10.0, 20.0, 30.0], SprtSettings(0, 1, max_boards=3, min_boards=3))
    status = test.status()
    assert status.boards == 3
    assert status.mean == pytest.approx(20.0)
    assert status.sd == pytest.approx(10.0)
    assert status.half_width == pytest.approx(4.302653 * 10 / math.sqrt(3), rel=1e-5)
    data = status.to_json()
    assert data["ci95"] == [pytest.approx(20 - status.half_width, abs=1e-3),
                            pytest.approx(20 + status.half_width, abs=1e-3)]
    assert data["llr_bounds"] == [round(status.lower, 4), round(status.upper, 4)]


# -------------------------------------------------------------------------- simulations
def _normal(rng: random.Random) -> float:
    return rng.gauss(0.0, 100.0)


def _board_like(rng: random.Random) -> float:
    """Most boards played alike (0), many small differences, a few big swings either way."""
    u = rng.random()
    if u < 0.5:
        return 0.0
    if u < 0.95:
        return rng.gauss(0.0, 40.0)
    return rng.choice((-1, 1)) * rng.expovariate(1 / 300)


def _rare_swings(rng: random.Random) -> float:
    """Like a card-play fix: most boards played alike, small differences around +1 point, and
    the gain mostly in rare large swings (8 % of the boards, +25 points on average, skewed)."""
    u = rng.random()
    if u < 0.55:
        return 0.0
    if u < 0.63:
        return rng.expovariate(1 / 25)
    return rng.gauss(1.0, 4.0)


RARE_SWINGS_MEAN = 0.08 * 25 + 0.37 * 1.0


def _rates(draw: Draw, settings: SprtSettings, runs: int, seed: int, shift: float = 0.0
           ) -> tuple[float, float, float]:
    rng = random.Random(seed)
    accepted = rejected = 0
    for _ in range(runs):
        test = Sprt(settings)
        while test.add(draw(rng) + shift) is None:
            pass
        accepted += test.verdict is Verdict.ACCEPTED
        rejected += test.verdict is Verdict.REJECTED
    return accepted / runs, rejected / runs, 1 - (accepted + rejected) / runs


def _within(rate: float, target: float, runs: int) -> bool:
    """At most the target plus 3 Monte-Carlo standard errors."""
    return rate <= target + 3 * math.sqrt(target * (1 - target) / runs)


@pytest.mark.parametrize("draw", [_normal, _board_like], ids=["normal", "board-like"])
@pytest.mark.parametrize("settings", [
    SprtSettings(0, 0.2), SprtSettings(0, 0.5), SprtSettings(0, 20, Units.POINTS),
], ids=["sd-0.2", "sd-0.5", "points-20"])
def test_a_against_a_accepts_at_most_alpha(draw: Draw, settings: SprtSettings) -> None:
    """Optional stopping after every board does not inflate the false-positive rate."""
    runs = 600
    accepted, _, _ = _rates(draw, settings, runs, seed=11)
    assert _within(accepted, settings.alpha, runs), accepted


def test_a_better_candidate_is_accepted_with_power_one_minus_beta() -> None:
    runs = 400
    settings = SprtSettings(0, 0.3, beta=0.1)
    _, rejected, _ = _rates(_normal, settings, runs, seed=5, shift=0.3 * 100)
    assert _within(rejected, settings.beta, runs), rejected


def test_power_holds_in_points_when_the_gain_is_in_rare_swings() -> None:
    """Zero-inflated, skewed boards, bounds in points, H1 at the true mean: the normal model
    alone accepted 84 % of these runs (a run that has not met a swing yet sees a small mean and
    a small spread, and rejects); deciding only where the skew-corrected model agrees keeps the
    power at 1 - beta (94 % here), and alpha on the same boards shifted to H0's mean."""
    runs = 300
    settings = SprtSettings(0, RARE_SWINGS_MEAN, Units.POINTS, max_boards=600)
    accepted, _, _ = _rates(_rare_swings, settings, runs, seed=21)
    assert accepted >= 1 - settings.beta - 3 * math.sqrt(0.05 * 0.95 / runs), accepted
    false, _, _ = _rates(_rare_swings, settings, runs, seed=22, shift=-RARE_SWINGS_MEAN)
    assert _within(false, settings.alpha, runs), false


def test_a_non_regression_a_against_a_is_accepted() -> None:
    runs = 300
    settings = SprtSettings.non_regression(0.3)
    accepted, rejected, _ = _rates(_board_like, settings, runs, seed=8)
    assert _within(rejected, settings.beta, runs), rejected
    assert accepted > 0.8


def test_checking_a_fixed_sample_test_after_every_board_would_inflate_it() -> None:
    """Why a sequential test: a z-test at 5 % looked at after every board up to 300 boards
    declares A better than A far more often than 5 %; the SPRT over as many does not."""
    rng = random.Random(2)
    runs, hits = 300, 0
    for _ in range(runs):
        total = 0.0
        for n in range(1, 301):
            total += rng.gauss(0, 1)
            if n >= 10 and total / math.sqrt(n) > 1.645:
                hits += 1
                break
    assert hits / runs > 0.2
    accepted, _, _ = _rates(_normal, SprtSettings(0, 0.2, max_boards=300), runs, seed=2)
    assert _within(accepted, 0.05, runs)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_bot_far_past_both_bounds_is_decided_whatever_its_boards_skew(sign: float) -> None:
    """A heuristic against a random bot: +400 a board, a few boards lost, a skewness of about
    -2. Hall's cube flattens where 1 + g z / 3 reaches 0, and past it the corrected LLR of a
    mean far beyond both bounds stayed near 0: the test never decided."""
    values = [sign * (-300.0 if i % 9 == 4 else 400.0 + 10.0 * (i % 5)) for i in range(60)]
    test = run(values, SprtSettings(0, 0.2, Units.SD))
    assert abs(test.skewness) > 1.5 and test.llr_normal * sign > 2.94
    assert test.llr_skew_corrected * sign > 2.94
    assert test.verdict is (Verdict.ACCEPTED if sign > 0 else Verdict.REJECTED)


def _far_better(rng: random.Random) -> float:
    """A bot 2.7 sd a board better than its baseline that loses 6 % of its boards a little
    (skewness about -1.1): a mean far past both bounds, skewed the other way."""
    return rng.gauss(-20.0, 60.0) if rng.random() < 0.06 else rng.gauss(430.0, 110.0)


@pytest.mark.parametrize("settings", [SprtSettings(0, 20, Units.POINTS, max_boards=200),
                                      SprtSettings(0, 0.2, max_boards=200)],
                         ids=["points-20", "sd-0.2"])
def test_a_far_better_bot_with_skewed_losses_is_accepted_at_once(settings: SprtSettings
                                                                 ) -> None:
    """With the cube followed nearly to its flat point, 4 % of these runs reached the cap
    undecided (bounds in points) and the others took 42-49 boards on average."""
    rng = random.Random(5)
    boards = []
    for _ in range(150):
        test = Sprt(settings)
        while test.add(_far_better(rng)) is None:
            pass
        assert test.verdict is Verdict.ACCEPTED, test.status()
        boards.append(test.n)
    assert statistics.mean(boards) < settings.min_boards + 3


def test_hall_transform_goes_on_straight_where_its_cube_flattens() -> None:
    edge = 3.0 * (1.0 - math.sqrt(HALL_FLAT))  # skewness -1
    inside = [hall_transform(z, -1.0, 30) for z in (0.0, 1.0, edge - 1e-9)]
    cube = [((1.0 - z / 3.0) ** 3 - 1.0) / -1.0 - 1.0 / 180.0 for z in (0.0, 1.0, edge - 1e-9)]
    assert inside == pytest.approx(cube)  # unchanged where the expansion holds
    assert hall_transform(edge + 2.0, -1.0, 30) == pytest.approx(
        hall_transform(edge, -1.0, 30) + 2.0)
