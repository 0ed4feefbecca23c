"""The ladder's margin model: a least-squares fit of the score differences of duplicate
comparisons, in the game's score units per board, and the ladder setting that chooses it."""

from __future__ import annotations

import json
import random

import pytest

from tournaments.duplicate.settings import SettingsError
from tournaments.ladder.matchmaking import MEETING_COST, MEETING_SHARE, Candidate, Field, matches
from tournaments.ladder.rating import (
    ELO,
    MARGIN_PRIOR,
    PRIOR_SD,
    Play,
    RatingModel,
    margin_fit,
    margins,
)
from tournaments.ladder.settings import LadderSettings


def tables(strength: dict[int, float], count: int, players: int = 3, luck: float = 100.0,
           noise: float = 10.0, seed: int = 1) -> list[Play]:
    """Results of ``count`` boards, each at two tables of ``players`` entries drawn at random:
    a seat scores its entry's strength less its opponents' mean, plus the luck of its cards
    (the same at both tables of a board, and far larger than any strength), plus a noise;
    every table adds up to zero, as a game's scores do."""
    rng = random.Random(seed)
    out = []
    for board in range(count):
        cards = [rng.gauss(0, luck) for _ in range(players)]
        cards = [c - sum(cards) / players for c in cards]
        drawn = rng.sample(sorted(strength), 2 * players)
        for seated in (drawn[:players], drawn[players:]):
            errors = [rng.gauss(0, noise) for _ in range(players)]
            for seat, entry in enumerate(seated):
                others = tuple(e for e in seated if e != entry)
                edge = strength[entry] - sum(strength[o] for o in others) / len(others)
                score = edge + cards[seat] + errors[seat] - sum(errors) / players
                out.append(Play(board, seat, entry, score, others))
    return out


def test_the_fit_recovers_planted_differences_in_points_per_board() -> None:
    strength = {1: 30.0, 2: 12.0, 3: 5.0, 4: 0.0, 5: -20.0, 6: -27.0}
    mean = sum(strength.values()) / len(strength)
    ratings = margin_fit(tables(strength, 150), players=3)
    assert sorted(ratings, key=lambda e: -ratings[e].rating) == [1, 2, 3, 4, 5, 6]
    for entry, planted in strength.items():
        r = ratings[entry]
        assert r.rating == pytest.approx(planted - mean, abs=4.0), (entry, r)
        assert abs(r.rating - (planted - mean)) < 3 * r.sd, (entry, r)
    # the luck of the cards (sd 100) is gone: the intervals read the noise (sd 10 a seat,
    # less its table's mean, twice: one comparison's sd is 10 * sqrt(2 * 2 / 3))
    assert all(r.spread == pytest.approx(10 * (4 / 3) ** 0.5, rel=0.15) for r in ratings.values())
    assert all(r.high - r.low < 12.0 for r in ratings.values()), ratings
    assert ratings[1].separated_from(ratings[2]) and ratings[5].separated_from(ratings[4])
    assert sum(r.rating for r in ratings.values()) == pytest.approx(0.0, abs=1e-9)


def test_the_intervals_hold_the_planted_strength_about_95_times_in_100() -> None:
    """Sigma read from the residuals: intervals too narrow (or too wide) would miss the
    planted strength far more (or less) often than one time in twenty."""
    strength = {1: 30.0, 2: 12.0, 3: 5.0, 4: 0.0, 5: -20.0, 6: -27.0, 7: 3.0, 8: -8.0}
    mean = sum(strength.values()) / len(strength)
    held = []
    for seed in range(20):
        ratings = margin_fit(tables(strength, 60, seed=seed), players=3)
        held += [ratings[e].low < s - mean < ratings[e].high for e, s in strength.items()]
    assert 0.88 <= sum(held) / len(held) <= 0.995, sum(held) / len(held)


def test_a_refit_of_the_same_results_in_any_order_gives_identical_numbers() -> None:
    plays = tables({1: 3.0, 2: 0.0, 3: -1.0, 4: 2.0, 5: 0.5, 6: -4.0}, 40, seed=7)
    shuffled = list(plays)
    random.Random(3).shuffle(shuffled)
    assert margin_fit(plays, players=3) == margin_fit(shuffled, players=3)
    assert margin_fit(plays, players=3) == margin_fit(plays, players=3)


@pytest.mark.parametrize("noise", [0.0, 10.0])
def test_identical_bots_get_overlapping_intervals_never_empty_ones(noise: float) -> None:
    """Identical deterministic bots holding the same cards score alike (noise 0): every
    difference is zero, and the floor keeps the intervals from shrinking to nothing."""
    same = dict.fromkeys(range(1, 7), 0.0)
    plays = tables(same, 30, noise=noise, seed=5)
    ratings = margin_fit(plays, players=3, floor=1.0)
    for a in ratings.values():
        assert a.high - a.low > 0.5, a
        assert not any(a.separated_from(b) for b in ratings.values()), ratings
    wider = margin_fit(plays, players=3, floor=2.0)
    if noise == 0:  # nothing but the floor: twice the floor, twice the interval
        assert all(r.rating == pytest.approx(0.0, abs=1e-9) for r in ratings.values())
        assert all(wider[e].high - wider[e].low == pytest.approx(2 * (r.high - r.low))
                   for e, r in ratings.items())
    else:  # the residuals' spread, far above the floor, is what counts
        assert wider == ratings


def test_a_new_entry_sits_at_the_fields_mean_with_a_wider_interval() -> None:
    ratings = margin_fit(tables({1: 10.0, 2: 0.0, 3: -5.0, 4: 5.0, 5: 0.0, 6: -10.0}, 30),
                         [9], players=3)
    assert ratings[9].rating == pytest.approx(0.0, abs=1e-9) and ratings[9].comparisons == 0
    assert ratings[9].high - ratings[9].low > 3 * (ratings[1].high - ratings[1].low)


def test_the_comparisons_weigh_as_the_wins_model_and_observe_score_differences() -> None:
    """A seat held by four entries: six comparisons of weight 2/4, each less a third (three
    seats whose scores add up to zero say two things); each observes its first side's score
    less the other's."""
    group = [Play(0, 0, e, 10.0 * e) for e in (1, 2, 3, 4)]
    found = margins(group, players=3)
    assert len(found) == 6
    for contrast, (weight, total, squares, who) in found.items():
        first, second = (e for e, c in contrast if c > 0), (e for e, c in contrast if c < 0)
        (a,), (b,) = tuple(first), tuple(second)
        assert weight == pytest.approx(0.5 * 2 / 3)
        assert total == pytest.approx(weight * 10.0 * (a - b))
        assert squares == pytest.approx(weight * (10.0 * (a - b)) ** 2)
        assert who == {a, b}
    # a pair at one seat: weight one (two players: less a half, seat 1 says seat 0's again)
    pair = [Play(0, 0, 1, 7.0, (3,)), Play(0, 0, 2, 2.0, (4,))]
    ((contrast, (weight, total, _, _)),) = margins(pair, players=2).items()
    assert dict(contrast) == {1: 1.0, 2: -1.0, 3: -1.0, 4: 1.0}
    assert (weight, total) == (0.5, 2.5)


def test_a_meeting_costs_margins_its_share_of_the_fields_spread() -> None:
    """On margins a meeting costs the share of a new entry's spread it costs on the Elo scale
    (100 of 347 points): with a comparison's spread of 300 points, about 86; a pair that met
    once is seated apart when another bot is within that, together when none is."""
    cost = MEETING_SHARE * MARGIN_PRIOR * 300.0
    assert cost == pytest.approx(MEETING_COST / (ELO * PRIOR_SD) * 300.0)
    met = {frozenset(("x", "near")): 1}
    for far, apart in ((60.0, True), (120.0, False)):
        free = [Candidate("x", 0.0, 300.0, 0), Candidate("near", 10.0, 80.0, 5),
                Candidate("far", far, 80.0, 5)]
        (table,) = matches(free, {}, Field(2, 8, 0, cost), random.Random(1), met)
        assert ("far" in table.bots) is apart, (far, table)


def test_the_ladder_rates_margins_by_default_in_the_games_unit() -> None:
    tarot = LadderSettings(name="t", players=3)
    assert tarot.model is RatingModel.MARGIN and tarot.rating_unit == "points"
    assert tarot.floor == 1.0
    tre = LadderSettings(name="t", game="tre-e-venticinque", players=3)
    assert tre.rating_unit == "thirds" and tre.floor == 3.0  # a point is three thirds
    wins = LadderSettings(name="t", players=3, model=RatingModel.WINS)
    assert wins.rating_unit == "Elo"
    for settings in (tarot, tre, wins):
        assert LadderSettings.from_json(settings.to_json()) == settings


def test_a_ladder_stored_before_the_choice_reads_as_wins() -> None:
    old = json.loads(LadderSettings(name="old", players=4).to_json())
    del old["model"]
    assert LadderSettings.from_json(json.dumps(old)).model is RatingModel.WINS


def test_an_unknown_model_is_one_clear_line() -> None:
    with pytest.raises(SettingsError) as info:
        LadderSettings(name="t", model="elo")  # type: ignore[arg-type]
    assert "model is margin or wins, got 'elo'" in str(info.value)
    assert "\n" not in str(info.value)
