"""Duplicate scoring on hand-computed cases, penalties, intervals on simulated data."""

from __future__ import annotations

import math
import random

import pytest

from tournaments.duplicate.scoring import (
    Entry,
    apply_penalties,
    compute_standings,
    datum_scores,
    matchpoint_scores,
)
from tournaments.duplicate.settings import Penalties, PenaltyKind, ScoringMethod
from tournaments.duplicate.stats import (
    ZERO_VARIANCE_MIN_BOARDS,
    mean_interval,
    paired_t_p_value,
    sign_test_p_value,
    t_cdf,
    t_quantile,
    variance,
    welch_interval,
)


def test_datum_is_score_minus_group_mean() -> None:
    assert datum_scores([100, 40, -20]) == [60.0, 0.0, -60.0]


def test_matchpoints_topage_best_100_worst_0_equal_steps_ties_share() -> None:
    assert matchpoint_scores([30, 10, 20]) == [100.0, 0.0, 50.0]
    assert matchpoint_scores([10, 10, 40, -5]) == pytest.approx([50.0, 50.0, 100.0, 0.0])
    assert matchpoint_scores([7, 7]) == [50.0, 50.0]
    assert matchpoint_scores([1, 2, 3, 4, 5]) == [0.0, 25.0, 50.0, 75.0, 100.0]


def test_penalties_points_and_forfeit() -> None:
    group = [Entry(0, 0, "t0", "a", 100, 2), Entry(0, 0, "t1", "b", -50, 0),
             Entry(0, 0, "t2", "c", 20, 0)]
    assert apply_penalties(group, Penalties()) == [100, -50, 20]
    assert apply_penalties(group, Penalties(PenaltyKind.POINTS, 30)) == [40, -50, 20]
    # forfeit: the offender takes the group's worst result
    assert apply_penalties(group, Penalties(PenaltyKind.FORFEIT)) == [-50, -50, 20]


def _board(board: int, seat_scores: dict[str, int], seat: int = 0) -> list[Entry]:
    return [Entry(board, seat, f"t{board}-{i}", bot, score)
            for i, (bot, score) in enumerate(seat_scores.items())]


def test_standings_hand_computed() -> None:
    entries = [
        *_board(0, {"a": 100, "b": 40, "c": -20}),   # datum a +60, b 0, c -60
        *_board(1, {"a": 10, "b": 30, "c": 20}),     # datum a -10, b +10, c 0
        *_board(2, {"a": 0}),                          # single entry: ignored
    ]
    standings = compute_standings(entries)
    rows = {r.bot_id: r for r in standings.rows}
    assert [r.bot_id for r in standings.rows] == ["a", "b", "c"]
    assert rows["a"].per_board.mean == pytest.approx(25.0)
    assert rows["b"].per_board.mean == pytest.approx(5.0)
    assert rows["c"].per_board.mean == pytest.approx(-30.0)
    assert rows["a"].total == pytest.approx(50.0)
    assert rows["a"].boards == 2 and rows["a"].entries == 2
    # matchpoints: board 0: a 100, b 50, c 0; board 1: a 0, b 100, c 50
    assert rows["a"].matchpoint_pct == pytest.approx(50.0)
    assert rows["b"].matchpoint_pct == pytest.approx(75.0)
    assert rows["c"].matchpoint_pct == pytest.approx(25.0)
    # interval of a: values 60, -10 -> mean 25, sd 49.497, t(0.975, 1) = 12.706
    assert rows["a"].per_board.half_width == pytest.approx(12.7062 * 49.4975 / math.sqrt(2),
                                                            rel=1e-4)
    by_mp = compute_standings(entries, method=ScoringMethod.MATCHPOINTS)
    assert [r.bot_id for r in by_mp.rows] == ["b", "a", "c"]
    # head to head on the same cards: a vs b: (100-40) and (10-30) -> mean 20 over 2
    assert standings.crosstable[("a", "b")] == (pytest.approx(20.0), 2)
    assert standings.crosstable[("b", "a")] == (pytest.approx(-20.0), 2)


def test_rotation_entries_per_board_are_averaged_per_board() -> None:
    # a bot holding several seats of one board: one value per board, the mean of its datums
    entries = [
        Entry(0, 0, "t0", "a", 50), Entry(0, 0, "t1", "b", -50),
        Entry(0, 1, "t0", "b", 30), Entry(0, 1, "t1", "a", 10),
    ]
    rows = {r.bot_id: r for r in compute_standings(entries).rows}
    assert rows["a"].per_board.mean == pytest.approx((50 + -10) / 2)
    assert rows["a"].boards == 1 and rows["a"].entries == 2


def test_disqualification_removes_the_bot_from_the_groups() -> None:
    entries = [
        Entry(0, 0, "t0", "a", 100, 3, ("timeout",) * 3),
        Entry(0, 0, "t1", "b", 40), Entry(0, 0, "t2", "c", -20),
    ]
    standings = compute_standings(entries, Penalties(disqualify_after=3))
    assert standings.rows[-1].bot_id == "a" and standings.rows[-1].disqualified
    assert standings.rows[-1].infractions == {"timeout": 3}
    rows = {r.bot_id: r for r in standings.rows}
    assert rows["b"].per_board.mean == pytest.approx(30.0)  # group mean of b, c only


def test_t_distribution_against_published_tables() -> None:
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 5) == pytest.approx(2.5706, abs=1e-4)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(0.995, 10) == pytest.approx(3.1693, abs=1e-4)
    assert t_quantile(0.025, 12) == pytest.approx(-2.1788, abs=1e-4)
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
    assert t_cdf(1.812, 10) == pytest.approx(0.95, abs=1e-4)


def test_interval_covers_the_true_mean_95_percent_of_the_time() -> None:
    rng = random.Random(12)
    covered = 0
    runs = 2000
    for _ in range(runs):
        values = [rng.gauss(3.0, 10.0) for _ in range(8)]
        interval = mean_interval(values)
        covered += interval.low <= 3.0 <= interval.high
    assert 0.93 <= covered / runs <= 0.97


def test_sample_variance() -> None:
    assert variance([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == pytest.approx(32 / 7)
    assert variance([5.0]) == math.inf
    assert variance([]) == math.inf


def test_welch_interval_hand_computed() -> None:
    """xs: mean 3, variance 2.5 (n 5); ys: mean 1, variance 1 (n 3). se^2 = 0.5 + 1/3,
    df = se^4 / (0.5^2 / 4 + (1/3)^2 / 2) = 5.88, read as 5: t(0.975, 5) = 2.5706."""
    interval = welch_interval([1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 2.0])
    assert interval.mean == pytest.approx(2.0)
    assert interval.half_width == pytest.approx(2.5706 * math.sqrt(0.5 + 1 / 3), abs=1e-3)
    assert interval.n == 3
    assert welch_interval([1.0], [1.0, 2.0]).half_width == math.inf
    assert welch_interval([3.0, 3.0], [1.0, 1.0]).half_width == math.inf  # no spread at all


def test_welch_interval_covers_the_true_difference_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    covered = 0
    runs = 2000
    for _ in range(runs):
        xs = [rng.gauss(3.0, 10.0) for _ in range(8)]
        ys = [rng.gauss(1.0, 2.0) for _ in range(12)]
        interval = welch_interval(xs, ys)
        covered += interval.low <= 2.0 <= interval.high
    assert 0.93 <= covered / runs <= 0.975


def test_significance_between_neighbours_on_simulated_skill() -> None:
    rng = random.Random(5)
    entries = []
    for board in range(60):
        luck = rng.gauss(0, 300)  # the cards: shared by the whole group
        for i, (bot, skill) in enumerate((("strong", 40), ("weak", -40), ("same", -40))):
            entries.append(Entry(board, 0, f"t{board}-{i}", bot, round(luck + skill +
                                                                       rng.gauss(0, 30))))
    rows = compute_standings(entries).rows
    assert rows[0].bot_id == "strong"
    assert rows[0].separated_from_next is True
    assert rows[1].separated_from_next is False  # weak and same have the same skill
    assert rows[0].per_board.excludes_zero


def test_paired_t_p_value() -> None:
    assert paired_t_p_value([1.0]) == 1.0
    assert paired_t_p_value([0.0, 0.0, 0.0]) == 1.0
    assert paired_t_p_value([1.0, -1.0, 2.0, -2.0]) == pytest.approx(1.0)


def test_identical_differences_are_not_significant_on_few_boards() -> None:
    # zero variance: no t statistic; the exact sign test decides, 2 * 0.5**n
    assert ZERO_VARIANCE_MIN_BOARDS == 6
    assert paired_t_p_value([5.0, 5.0]) == pytest.approx(0.5)
    assert paired_t_p_value([-5.0] * 5) == pytest.approx(0.0625)
    assert paired_t_p_value([5.0] * 6) == pytest.approx(0.03125)
    for n in range(2, ZERO_VARIANCE_MIN_BOARDS):
        assert paired_t_p_value([7.0] * n) >= 0.05
        assert not mean_interval([7.0] * n).excludes_zero
        assert mean_interval([7.0] * n).half_width == math.inf
    assert paired_t_p_value([7.0] * ZERO_VARIANCE_MIN_BOARDS) < 0.05
    # enough boards: the order-statistic interval for the median is the value itself
    assert (mean_interval([7.0] * 6).low, mean_interval([7.0] * 6).high) == (7.0, 7.0)


def test_sign_test_exact_values() -> None:
    assert sign_test_p_value([]) == 1.0
    assert sign_test_p_value([0.0, 0.0]) == 1.0
    assert sign_test_p_value([1.0, -1.0]) == 1.0
    # 7 of 8 positive: 2 * (1 + 8) / 256
    assert sign_test_p_value([1.0] * 7 + [-3.0]) == pytest.approx(18 / 256)
    assert sign_test_p_value([2.0, 0.0, 2.0]) == pytest.approx(0.5)  # the zero is left out


def test_two_boards_with_identical_differences_are_not_marked_significant() -> None:
    # a beats b by exactly 40 on both boards: the old test said p=0, a zero-width interval
    entries = [*_board(0, {"a": 60, "b": 20}), *_board(1, {"a": 10, "b": -30})]
    rows = compute_standings(entries).rows
    assert [r.bot_id for r in rows] == ["a", "b"]
    assert rows[0].p_value_next == pytest.approx(0.5)
    assert rows[0].separated_from_next is False
    assert rows[0].per_board.half_width == math.inf


@pytest.mark.parametrize("method", [ScoringMethod.DATUM, ScoringMethod.MATCHPOINTS])
def test_mean_per_board_and_matchpoints_weight_boards_alike(method: ScoringMethod) -> None:
    # field seating: "a" holds two hands of board 0 and one of board 1
    entries = [
        *_board(0, {"a": 50, "b": 10}, seat=0),    # a: datum +20, 100 %
        *_board(0, {"a": 30, "c": -10}, seat=1),   # a: datum +20, 100 %
        *_board(1, {"a": -40, "b": 0}, seat=0),    # a: datum -20, 0 %
    ]
    standings = compute_standings(entries, method=method)
    a = next(r for r in standings.rows if r.bot_id == "a")
    assert a.entries == 3 and a.boards == 2
    assert a.per_board.mean == pytest.approx(0.0)   # (+20 + -20) / 2 boards
    assert a.matchpoint_pct == pytest.approx(50.0)  # (100 + 0) / 2 boards, not 200 / 3 entries
