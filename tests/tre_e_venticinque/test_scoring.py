"""Points of a deal and of a "game" of three deals, as the seed scores them."""

from __future__ import annotations

import pytest

from arena.games.tre_e_venticinque import (
    DealOutcome,
    DealResult,
    DealState,
    apply,
    legal_actions,
    score_game,
    seeded_deal,
    settle,
)
from arena.games.tre_e_venticinque.cards import cards_of, mask_thirds


def played(seed: int, dealer: int) -> DealState:
    state = DealState(seeded_deal(seed, dealer))
    while state.to_act is not None:
        legal = legal_actions(state)
        apply(state, legal[-1])
    return state


def test_each_player_scores_the_cards_of_its_own_tricks_and_the_dealer_adds_the_discard() -> None:
    state = played(11, dealer=2)
    result = state.result
    assert result is not None and result.outcome is DealOutcome.PLAYED
    expected = [mask_thirds(pile) for pile in state.piles]
    expected[2] += mask_thirds(state.discard)
    assert list(result.points) == expected
    assert result.discard_thirds == mask_thirds(state.discard)
    assert sum(result.points) == 233
    assert len(cards_of(state.discard)) == 3


def test_the_arenas_scores_settle_the_points_between_each_pair_of_players() -> None:
    """Zero-sum: a seat's score is its points minus each other seat's, added up, in thirds."""
    scores = settle([86, 70, 77])
    assert scores == (25, -23, -2)
    assert scores[0] == (86 - 70) + (86 - 77)
    assert DealResult(DealOutcome.PLAYED, scores).points == (86, 70, 77)


def result(dealer: int, points: tuple[int, int, int]) -> DealResult:
    return DealResult(DealOutcome.PLAYED, settle(points), dealer, (8, 8, 9), 3)


def test_a_game_adds_three_deals_one_per_dealer_and_the_highest_total_wins() -> None:
    game = score_game([result(0, (80, 70, 83)), result(1, (60, 100, 73)), result(2, (90, 70, 73))])
    assert game.totals == (230, 240, 229)  # points, in thirds
    assert game.winners == (1,)
    assert game.describe() == "seat 0: 76 2/3, seat 1: 80, seat 2: 76 1/3; won by seat 1"


def test_a_tie_for_the_highest_total_shares_the_win() -> None:
    game = score_game([result(0, (80, 80, 73)), result(1, (70, 70, 93)), result(2, (83, 83, 60))])
    assert game.winners == (0, 1)


def test_a_game_is_three_deals_each_seat_dealing_once() -> None:
    with pytest.raises(ValueError, match="three deals, one per dealer, not 2"):
        score_game([result(0, (80, 70, 83)), result(1, (60, 100, 73))])
    with pytest.raises(ValueError, match="dealt by seats \\[0, 0, 2\\]"):
        score_game([result(0, (80, 70, 83)), result(0, (60, 100, 73)), result(2, (9, 9, 215))])


def test_a_game_of_three_seeded_deals() -> None:
    deals = [played(100 + dealer, dealer).result for dealer in range(3)]
    assert all(d is not None for d in deals)
    game = score_game([d for d in deals if d is not None])
    assert sum(game.totals) == 3 * 233
    with pytest.raises(ValueError, match="does not say who dealt"):
        score_game([DealResult(DealOutcome.PLAYED, d.scores) for d in deals if d is not None])
