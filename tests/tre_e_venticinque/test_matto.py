"""The Matto, rule by rule (RULES.md section 2; the seed's "Resta da considerare la funzione del
Matto")."""

from __future__ import annotations

import pytest

from arena.games.base import IllegalActionError
from arena.games.tre_e_venticinque import MATTO, MattoDebt, MattoExchange, parse_card, settle
from arena.games.tre_e_venticinque.cards import mask_thirds

from .builders import legal_cards, mask, play, position


def test_the_matto_may_not_be_led_before_its_holder_has_won_a_trick() -> None:
    state = position({0: "2S M"}, leader=0)
    assert legal_cards(state) == "2S"
    with pytest.raises(IllegalActionError, match="only once its holder has won a trick"):
        play(state, "M")


def test_the_matto_may_not_replace_a_card_before_its_holder_has_won_a_trick() -> None:
    state = position({0: "5S", 1: "2S T3 M"}, leader=0)
    play(state, "5S")
    assert legal_cards(state) == "2S"
    with pytest.raises(IllegalActionError, match="only once its holder has won a trick"):
        play(state, "M")


def test_after_winning_a_trick_the_matto_may_be_played_instead_of_following_suit() -> None:
    state = position({0: "5S", 1: "2S M"}, leader=0, tricks_won=(0, 1, 0))
    play(state, "5S")
    assert legal_cards(state) == "2S M"


def test_after_winning_a_trick_the_matto_may_be_played_instead_of_trumping() -> None:
    state = position({0: "5S", 1: "T3 M"}, leader=0, tricks_won=(0, 1, 0))
    play(state, "5S")
    assert legal_cards(state) == "T3 M"


def test_after_winning_a_trick_the_matto_may_be_led() -> None:
    state = position({0: "5S M"}, leader=0, tricks_won=(1, 0, 0), piles={0: "2S 3S 4S"})
    assert legal_cards(state) == "5S M"


def test_a_led_matto_asks_the_others_for_a_trump() -> None:
    state = position(
        {0: "M", 1: "2S T3", 2: "KS T1"}, leader=0, tricks_won=(1, 0, 0), piles={0: "2H 3H 4H"}
    )
    play(state, "M")
    assert legal_cards(state) == "T3"
    with pytest.raises(IllegalActionError, match="the Matto was led: must play a trump"):
        play(state, "2S")
    play(state, "T3")
    assert legal_cards(state) == "T1"  # not obliged to beat the 3
    play(state, "T1")
    assert state.tricks[-1].winner == 1


def test_after_a_led_matto_without_trumps_the_next_card_sets_the_suit() -> None:
    """The seed is silent; the engine lets the next card set the suit, as French Tarot's Excuse
    does, but the third seat still owes only a trump, not that suit."""
    state = position(
        {0: "M", 1: "5S", 2: "KS 2H"}, leader=0, tricks_won=(1, 0, 0), piles={0: "2H 3H 4H"}
    )
    play(state, "M", "5S")
    assert legal_cards(state) == "KS 2H"
    play(state, "KS")
    assert state.tricks[-1].winner == 2


def test_the_matto_never_wins_a_trick() -> None:
    state = position(
        {0: "M", 1: "2S", 2: "2H"}, leader=0, tricks_won=(1, 0, 0), piles={0: "3H 4H 5H"}
    )
    play(state, "M", "2S", "2H")
    assert state.tricks[-1].winner == 1  # the first card after the Matto, nobody beat it


def test_the_holder_keeps_the_matto_and_gives_the_winner_a_small_card_from_its_tricks() -> None:
    state = position(
        {0: "5S", 1: "M", 2: "9S"}, leader=0, tricks_won=(0, 1, 0), piles={1: "KH 3D T7"}
    )
    play(state, "5S", "M", "9S")
    assert state.tricks[-1].winner == 2
    assert state.piles[1] == mask("KH T7 M")
    assert state.piles[2] == mask("5S 9S 3D")
    assert state.exchange == MattoExchange(1, holder=1, winner=2, card=parse_card("3D"))
    assert state.debt is None


def test_the_exchanged_card_is_a_scartina_whenever_the_holder_has_one() -> None:
    """The lowest-id 1/3-point card: small suit cards have lower ids than the plain trumps."""
    state = position(
        {0: "5S", 1: "M", 2: "9S"}, leader=0, tricks_won=(0, 1, 0), piles={1: "T2 10C KS"}
    )
    play(state, "5S", "M", "9S")
    assert state.exchange is not None and state.exchange.card == parse_card("10C")


def test_a_plain_trump_is_given_when_the_holder_has_no_scartina() -> None:
    state = position(
        {0: "5S", 1: "M", 2: "9S"}, leader=0, tricks_won=(0, 1, 0), piles={1: "KS T2 T21"}
    )
    play(state, "5S", "M", "9S")
    assert state.exchange is not None and state.exchange.card == parse_card("T2")


def test_without_a_small_card_the_holder_owes_one_and_pays_after_its_next_won_trick() -> None:
    state = position(
        {0: "5S 2H", 1: "M KH", 2: "9S 3H"}, leader=0, tricks_won=(0, 1, 0),
        piles={1: "KS QS CS"},
    )
    play(state, "5S", "M", "9S")
    assert state.debt == MattoDebt(holder=1, winner=2)
    assert state.exchange is None
    assert state.piles[1] == mask("KS QS CS M")
    play(state, "3H", "2H", "KH")  # seat 2 leads; the holder wins with the King
    assert state.tricks[-1].winner == 1
    assert state.debt is None
    assert state.exchange == MattoExchange(2, holder=1, winner=2, card=parse_card("2H"))
    assert state.piles[2] == mask("5S 9S 2H")
    assert state.piles[1] == mask("KS QS CS M 3H KH")


def test_a_debt_never_paid_is_reported_and_the_holder_keeps_the_matto() -> None:
    state = position(
        {0: "5S", 1: "M", 2: "9S"}, leader=0, tricks_won=(0, 1, 0), piles={1: "KS QS CS"},
        trick_index=24,
    )
    play(state, "5S", "M", "9S")
    result = state.result
    assert result is not None and result.matto_debt_unpaid and not result.matto_lost
    assert state.piles[1] >> MATTO & 1


def test_a_holder_who_won_no_trick_must_play_the_matto_to_the_last_trick_and_loses_it() -> None:
    state = position({0: "5S", 1: "M", 2: "9S"}, leader=0, trick_index=24)
    play(state, "5S")
    assert legal_cards(state) == "M"  # forced, although it has won nothing
    play(state, "M", "9S")
    result = state.result
    assert result is not None and result.matto_lost and not result.matto_debt_unpaid
    assert state.piles[2] == mask("5S 9S M")
    assert state.piles[1] == 0
    assert state.exchange is None


def test_the_matto_is_worth_4_points_to_whoever_ends_with_it() -> None:
    state = position({0: "5S", 1: "M", 2: "9S"}, leader=0, trick_index=24)
    play(state, "5S", "M", "9S")
    assert state.result is not None
    assert mask_thirds(state.piles[2]) == 1 + 1 + 12
    assert state.result.scores == settle([0, 0, 14])  # a position: only this trick counts
