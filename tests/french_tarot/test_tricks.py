"""The trick helpers bots use (:mod:`arena.games.french_tarot.tricks`): one test per rule, then
the same rules checked against the engine at every card of many random deals."""

from __future__ import annotations

import random

import pytest

from arena.games.french_tarot import (
    EXCUSE,
    GameState,
    Play,
    TableOptions,
    apply,
    legal_actions,
    parse_card,
    parse_cards,
)
from arena.games.french_tarot.cards import SUIT_MASKS, TRUMP_MASK, cards_of, mask_of
from arena.games.french_tarot.simulate import taker_side, trick_status
from arena.games.french_tarot.tricks import (
    NO_SUIT,
    TRUMPS,
    beating_mask,
    beats,
    exclusions,
    higher_cards,
    led_suit,
    trick_suit,
    trick_winner,
    winning_index,
)


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> list[int]:
    return parse_cards(text)


def test_the_suit_of_a_card_in_a_trick() -> None:
    assert [trick_suit(card) for card in cs("AS KH 10D JC T1 T21 EX")] == [
        0, 1, 2, 3, TRUMPS, TRUMPS, NO_SUIT
    ]


def test_the_excuse_led_leaves_the_lead_to_the_next_card() -> None:
    assert led_suit(cs("EX 3H KS")) == 1
    assert led_suit(cs("EX")) == NO_SUIT and led_suit([]) == NO_SUIT
    assert led_suit(cs("T5 2S")) == TRUMPS


def test_a_higher_card_of_the_suit_led_wins() -> None:
    assert beats(c("KH"), c("QH"), 1) and not beats(c("QH"), c("KH"), 1)
    assert winning_index(cs("QH 2H KH")) == 2


def test_a_card_of_another_suit_never_wins() -> None:
    assert not beats(c("KS"), c("2H"), 1)
    assert winning_index(cs("2H KS")) == 0


def test_a_trump_beats_suit_cards_and_lower_trumps() -> None:
    assert beats(c("T1"), c("KH"), 1) and beats(c("T9"), c("T8"), 1)
    assert not beats(c("T7"), c("T8"), 1) and not beats(c("KH"), c("T1"), 1)
    assert winning_index(cs("KH T3 T2 QH")) == 1


def test_the_excuse_never_wins_a_trick_in_progress() -> None:
    assert not beats(EXCUSE, -1, NO_SUIT) and not beats(EXCUSE, c("2S"), 0)
    assert winning_index(cs("EX")) == -1
    assert winning_index(cs("EX 2S 3S")) == 2
    assert trick_winner([(2, EXCUSE), (3, c("5C")), (0, c("4C"))]) == 3
    assert trick_winner([(2, EXCUSE)]) is None and trick_winner([]) is None


def test_any_card_but_the_excuse_beats_nothing() -> None:
    assert beats(c("2S"), -1, NO_SUIT) and beats(c("T1"), -1, NO_SUIT)


def test_the_cards_above_a_card() -> None:
    assert higher_cards(c("QH")) == mask_of(cs("KH"))
    assert higher_cards(c("T19")) == mask_of(cs("T20 T21"))
    assert higher_cards(c("T21")) == 0 and higher_cards(c("KS")) == 0
    assert higher_cards(EXCUSE) == 0


def test_the_cards_of_a_hand_that_would_win() -> None:
    hand = mask_of(cs("2H QH KH T3 T12 EX 5S"))
    assert beating_mask(hand, 1, c("JH")) == mask_of(cs("QH KH T3 T12"))
    assert beating_mask(hand, 1, c("T5")) == mask_of(cs("T12"))
    assert beating_mask(hand, TRUMPS, c("T12")) == 0
    assert beating_mask(hand, NO_SUIT, -1) == hand & ~(1 << EXCUSE)


def test_not_following_shows_a_void() -> None:
    assert exclusions([(0, c("3H")), (1, c("5S"))]) == [(1, SUIT_MASKS[1] | TRUMP_MASK)]
    assert exclusions([(0, c("3H")), (1, c("T4"))]) == [(1, SUIT_MASKS[1])]


def test_no_trump_on_trumps_led_shows_no_trumps() -> None:
    assert exclusions([(0, c("T4")), (1, c("5S"))]) == [(1, TRUMP_MASK)]


def test_a_trump_below_the_best_shows_none_higher() -> None:
    shown = exclusions([(0, c("T10")), (1, c("T4"))])
    assert shown == [(1, TRUMP_MASK & ~((1 << c("T10")) - 1))]
    assert exclusions([(0, c("3H")), (1, c("T10")), (2, c("T4"))]) == [
        (1, SUIT_MASKS[1]), (2, SUIT_MASKS[1] | mask_of(cs(" ".join(
            f"T{n}" for n in range(10, 22)))))
    ]


def test_following_and_the_excuse_show_nothing() -> None:
    assert exclusions([(0, c("3H")), (1, c("2H")), (2, EXCUSE), (3, c("KH"))]) == []


def test_a_first_lead_in_the_called_suit_shows_a_hand_of_that_suit() -> None:
    called = c("KH")
    assert exclusions([(4, c("3H"))], called) == [(4, ((1 << 78) - 1) & ~SUIT_MASKS[1])]
    assert exclusions([(4, called)], called) == []
    assert exclusions([(4, c("3S"))], called) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_helpers_agree_with_the_engine_at_every_card(players: int) -> None:
    """Trick winners, the card winning so far, the cards that would beat it, and what each card
    played shows (never a card its player still holds) over 300 random deals."""
    checked = 0
    for number in range(300):
        rng = random.Random(number)
        state = GameState.from_seed(number, TableOptions(players), dealer=number % players)
        while state.to_act is not None:
            seat = state.to_act
            action = rng.choice(legal_actions(state))
            if isinstance(action, Play):
                before = state.current_trick
                led, best, position = trick_status(state)
                plain = [card for _, card in before]
                if led >= 0:
                    assert led_suit(plain) == led
                    assert winning_index(plain) == position
                    hand = state.hands[seat]
                    assert beating_mask(hand, led, best) == mask_of(
                        card for card in cards_of(hand) if beats(card, best, led)
                    )
                tricks = len(state.tricks)
                apply(state, action, seat)
                plays = (*before, (seat, action.card))
                called = state.called_card if tricks == 0 else None
                for shown_seat, shown in exclusions(plays, called):
                    assert not state.hands[shown_seat] & shown, (number, plays)
                    checked += 1
                if len(state.tricks) > tricks:
                    trick = state.tricks[-1]
                    winner = trick_winner(trick.played_by())
                    last_excuse_led = len(state.tricks) == len(state.deal.hands[0]) and (
                        trick.cards[0] == EXCUSE
                    )
                    assert winner == trick.winner or (last_excuse_led and trick.winner == (
                        trick.leader
                    ))
            else:
                apply(state, action, seat)
    assert checked > 1000


def test_the_taker_s_side_in_a_simulation() -> None:
    """The taker, and with five players its partner: the holder of the called card, none when
    the taker holds it or it lies in the chien."""
    seen = set()
    for number in range(200):
        rng = random.Random(number)
        state = GameState.from_seed(number, TableOptions(5), dealer=number % 5)
        while state.taker is None or state.phase.value in ("bidding", "calling"):
            if state.to_act is None:
                break
            apply(state, rng.choice(legal_actions(state)))
        if state.taker is None:
            continue
        called = state.called_card
        assert called is not None
        holder = next((s for s in range(5) if state.deal.hand_masks[s] >> called & 1), None)
        expected = 1 << state.taker | (1 << holder if holder not in (None, state.taker) else 0)
        assert taker_side(state) == expected
        seen.add(expected.bit_count())
    assert seen == {1, 2}
