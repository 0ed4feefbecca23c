"""The rules of play, one test each: following, trumping, who wins a trick, who leads next."""

from __future__ import annotations

import pytest

from arena.games.base import IllegalActionError, WrongTurnError
from arena.games.tre_e_venticinque import DealState, Play, apply, legal_actions, parse_card
from arena.games.tre_e_venticinque.game import trick_winner_index

from .builders import cards, legal_cards, make_deal, play, position


def test_the_seat_after_the_dealer_leads_the_first_trick() -> None:
    for dealer in range(3):
        state = DealState(make_deal(dealer))
        for _ in range(3):
            apply(state, legal_actions(state)[0])
        assert state.to_act == (dealer + 1) % 3


def test_the_leader_may_lead_any_card_but_the_matto_before_winning_a_trick() -> None:
    state = position({0: "KS 2H T5 M"}, leader=0)
    assert legal_cards(state) == "KS 2H T5"


def test_follow_suit_with_no_duty_to_go_higher() -> None:
    state = position({0: "5S", 1: "2S KS T20"}, leader=0)
    play(state, "5S")
    assert legal_cards(state) == "2S KS"


def test_without_the_suit_a_trump_is_compulsory() -> None:
    state = position({0: "5S", 1: "2H KD T3 T20"}, leader=0)
    play(state, "5S")
    assert legal_cards(state) == "T3 T20"
    with pytest.raises(IllegalActionError, match="no swords in hand: must play a trump"):
        play(state, "2H")


def test_a_trump_need_not_beat_the_trumps_already_played() -> None:
    state = position({0: "5S", 1: "T20", 2: "T2 T19 4H"}, leader=0)
    play(state, "5S", "T20")
    assert legal_cards(state) == "T2 T19"


def test_without_the_suit_or_a_trump_anything_goes() -> None:
    state = position({0: "5S", 1: "2H KD"}, leader=0)
    play(state, "5S")
    assert legal_cards(state) == "2H KD"


def test_a_trump_lead_asks_for_a_trump() -> None:
    state = position({0: "T4", 1: "KS T1 T2"}, leader=0)
    play(state, "T4")
    assert legal_cards(state) == "T1 T2"
    with pytest.raises(IllegalActionError, match="a trump was led: must play a trump"):
        play(state, "KS")


def test_must_follow_is_explained() -> None:
    state = position({0: "5S", 1: "2S T20"}, leader=0)
    play(state, "5S")
    with pytest.raises(IllegalActionError, match="must follow swords"):
        play(state, "T20")


def test_the_strongest_card_of_the_suit_led_wins_without_trumps() -> None:
    state = position({0: "5S", 1: "KH", 2: "9S"}, leader=0)
    play(state, "5S", "KH", "9S")
    assert state.tricks[-1].winner == 2  # the King of cups is of another suit


def test_in_red_suits_the_ace_beats_the_10() -> None:
    state = position({0: "10H", 1: "AH", 2: "5H"}, leader=0)
    play(state, "10H", "AH", "5H")
    assert state.tricks[-1].winner == 1


def test_in_black_suits_the_10_beats_the_ace() -> None:
    state = position({0: "AC", 1: "10C", 2: "5C"}, leader=0)
    play(state, "AC", "10C", "5C")
    assert state.tricks[-1].winner == 1


def test_faces_rank_the_same_in_every_suit() -> None:
    state = position({0: "JD", 1: "CD", 2: "AD"}, leader=0)
    play(state, "JD", "CD", "AD")
    assert state.tricks[-1].winner == 1


def test_the_20_beats_the_21() -> None:
    state = position({0: "KS", 1: "T21", 2: "T20"}, leader=0)
    play(state, "KS", "T21", "T20")
    assert state.tricks[-1].winner == 2


def test_the_21_beats_the_19() -> None:
    state = position({0: "T19", 1: "T21", 2: "T2"}, leader=0)
    play(state, "T19", "T21", "T2")
    assert state.tricks[-1].winner == 1


def test_the_winner_leads_the_next_trick() -> None:
    state = position({0: "5S 2S", 1: "KS 3S", 2: "9S 4S"}, leader=0)
    play(state, "5S", "KS", "9S")
    assert state.to_act == 1 and state.trick_leader == 1
    assert state.tricks_won == [0, 1, 0]
    assert state.piles[1] == sum(1 << c for c in cards("5S KS 9S"))


def test_out_of_turn_and_cards_not_held_are_refused_and_change_nothing() -> None:
    state = position({0: "5S", 1: "KS"}, leader=0)
    with pytest.raises(WrongTurnError):
        apply(state, Play(parse_card("KS")), 1)
    with pytest.raises(IllegalActionError, match="KS is not in this hand"):
        apply(state, Play(parse_card("KS")))
    with pytest.raises(IllegalActionError, match="not a card"):
        apply(state, Play(99))
    assert state.trick == [] and state.history == []


def test_no_action_once_the_deal_is_over() -> None:
    state = DealState(make_deal(0))
    while state.to_act is not None:
        apply(state, legal_actions(state)[0])
    assert legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="the deal is over"):
        apply(state, Play(0))


@pytest.mark.parametrize(
    ("played", "index"),
    [("5S KH 9S", 2), ("10H AH 5H", 1), ("KS T21 T20", 2), ("M 2S 3H", 1), ("M T2 T3", 2),
     ("4D M 6C", 0), ("T1 M KS", 0)],
)
def test_trick_winner_index_is_the_engines_helper_for_bots(played: str, index: int) -> None:
    assert trick_winner_index(cards(played)) == index
