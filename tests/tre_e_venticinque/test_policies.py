"""The random and heuristic policies of ``clients/tre_heuristic.py``: legal, sensible, and the
heuristic significantly stronger than random on duplicate boards."""

from __future__ import annotations

import random

import pytest

from arena.games.tre_e_venticinque import (
    DealState,
    Discard,
    Play,
    apply,
    legal_actions,
    observe,
)
from arena.games.tre_e_venticinque.cards import MATTO, THIRDS, parse_card
from bench.tre_heuristic import board_margin, play
from clients.tre_heuristic import heuristic_choice, random_choice
from tournaments.duplicate.stats import mean_interval

from .builders import make_deal, position
from .builders import play as play_cards


def test_both_policies_always_choose_a_legal_action() -> None:
    rng = random.Random(4)
    for number in range(30):
        state = DealState.from_seed(number, number % 3)
        while state.to_act is not None:
            seat = state.to_act
            view = observe(state, seat)
            assert random_choice(view, rng) in legal_actions(state)
            action = heuristic_choice(view)
            assert action in legal_actions(state)
            apply(state, action, seat)


def test_a_seat_with_nothing_to_decide_is_refused() -> None:
    state = DealState(make_deal(0))
    with pytest.raises(ValueError, match="nothing to decide"):
        heuristic_choice(observe(state, 1))


def test_the_dealer_banks_its_richest_discardable_cards() -> None:
    state = DealState(make_deal(0, hands={0: "QS QH CD JS"}))
    action = heuristic_choice(observe(state, 0))
    assert isinstance(action, Discard) and THIRDS[action.card] == 12  # a Queen


def test_the_20_is_led_first() -> None:
    state = position({0: "2S T20 T5", 1: "3S", 2: "4S"}, leader=0)
    assert heuristic_choice(observe(state, 0)) == Play(parse_card("T20"))


def test_last_to_an_untrumped_trick_it_takes_it_with_the_1() -> None:
    state = position({0: "QS", 1: "2S", 2: "T1 T9 2H"}, leader=0)
    play_cards(state, "QS", "2S")
    assert heuristic_choice(observe(state, 2)) == Play(parse_card("T1"))


def test_it_saves_a_queen_with_the_matto_once_it_may() -> None:
    state = position({0: "KS", 1: "T3", 2: "QS M"}, leader=0, tricks_won=(0, 0, 1),
                     piles={2: "2H 3H 4H"})
    play_cards(state, "KS", "T3")
    assert heuristic_choice(observe(state, 2)) == Play(MATTO)


def test_it_gives_the_cheapest_card_to_a_trick_it_cannot_win() -> None:
    state = position({0: "KS", 1: "T3", 2: "QH 2H CD"}, leader=0)
    play_cards(state, "KS", "T3")
    assert heuristic_choice(observe(state, 2)) == Play(parse_card("2H"))


def test_holding_only_the_1_and_the_21_under_the_20_it_gives_the_1() -> None:
    """Both lose and both are worth five points: it keeps the stronger (it raised
    ValueError when the 1 and the 21 were all it could play)."""
    state = position({0: "T20", 1: "T1 T21 2H", 2: "T4"}, leader=0)
    play_cards(state, "T20")
    assert heuristic_choice(observe(state, 1)) == Play(parse_card("T1"))


def test_the_heuristic_beats_the_random_policy_significantly_on_duplicate_boards() -> None:
    interval = mean_interval([board_margin(board) for board in range(40)])
    assert interval.low > 0, interval
    assert interval.mean > 4  # points per deal, out of a fair share of 25 8/9


def test_a_deal_played_by_policies_scores_the_whole_pack() -> None:
    rng = random.Random(1)
    scores = play(5, 1, [heuristic_choice, lambda v: random_choice(v, rng), heuristic_choice])
    assert sum(scores) == 233  # points
