"""The cards: the seed's values in thirds (one table), trick strength, notation."""

from __future__ import annotations

import pytest

from arena.games.tre_e_venticinque import (
    MATTO,
    THIRDS,
    TOTAL_THIRDS,
    Suit,
    card_long_name,
    card_name,
    format_thirds,
    parse_card,
    suit_card,
    trump,
)
from arena.games.tre_e_venticinque.cards import (
    ACE,
    CAVALIER,
    DECK_SIZE,
    JACK,
    KING,
    ONE_THIRD_MASK,
    QUEEN,
    STRENGTH,
    beats,
    cards_of,
    mask_thirds,
)

from .builders import cards


def test_the_seeds_values_in_thirds() -> None:
    """The seed: 1 and 21 five points, the Matto four, Queens 4, Cavaliers 3, Kings and Jacks 2,
    every other card (small suit card or trump) 1/3."""
    assert THIRDS[trump(1)] == THIRDS[trump(21)] == 15
    assert THIRDS[MATTO] == 12
    for suit in Suit:
        assert THIRDS[suit_card(suit, QUEEN)] == 12
        assert THIRDS[suit_card(suit, CAVALIER)] == 9
        assert THIRDS[suit_card(suit, KING)] == 6
        assert THIRDS[suit_card(suit, JACK)] == 6
        for rank in range(ACE, JACK):
            assert THIRDS[suit_card(suit, rank)] == 1
    for number in range(2, 21):
        assert THIRDS[trump(number)] == 1


def test_the_pack_totals_77_and_two_thirds_not_the_seeds_78() -> None:
    assert TOTAL_THIRDS == sum(THIRDS) == 233
    assert format_thirds(TOTAL_THIRDS) == "77 2/3"
    assert mask_thirds((1 << DECK_SIZE) - 1) == 233


def test_one_third_cards_are_the_40_small_suit_cards_and_19_plain_trumps() -> None:
    small = cards_of(ONE_THIRD_MASK)
    assert len(small) == 59
    assert sum(1 for c in small if c < 56) == 40
    assert {c for c in small if c >= 56} == {trump(n) for n in range(2, 21)}


def test_trump_order_is_20_21_then_19_down_to_1() -> None:
    order = sorted((trump(n) for n in range(1, 22)), key=lambda c: -STRENGTH[c])
    assert [c - 55 for c in order] == [20, 21, *range(19, 0, -1)]
    assert beats(trump(20), trump(21))
    assert not beats(trump(21), trump(20))


@pytest.mark.parametrize("suit", [Suit.SPADES, Suit.CLUBS])
def test_black_suits_rank_king_queen_cavalier_jack_10_down_to_ace(suit: Suit) -> None:
    order = sorted(range(14), key=lambda r: -STRENGTH[suit_card(suit, r)])
    assert order == [KING, QUEEN, CAVALIER, JACK, *range(9, -1, -1)]


@pytest.mark.parametrize("suit", [Suit.HEARTS, Suit.DIAMONDS])
def test_red_suits_rank_king_queen_cavalier_jack_ace_2_up_to_10(suit: Suit) -> None:
    order = sorted(range(14), key=lambda r: -STRENGTH[suit_card(suit, r)])
    assert order == [KING, QUEEN, CAVALIER, JACK, *range(0, 10)]
    assert beats(suit_card(suit, ACE), suit_card(suit, 9))  # the Ace beats the 10
    assert not beats(suit_card(suit, 9), suit_card(suit, 1))  # the 10 beats nothing


def test_any_trump_beats_any_suit_card_and_the_matto_beats_nothing() -> None:
    for card in range(56):
        assert beats(trump(1), card)
        assert not beats(card, trump(1))
        assert not beats(MATTO, card)
    assert not beats(MATTO, trump(1))


def test_a_card_of_another_suit_never_beats_the_suit_led() -> None:
    king_of_cups = parse_card("KH")
    assert not beats(king_of_cups, parse_card("2S"))


def test_notation_round_trips_every_card() -> None:
    for card in range(DECK_SIZE):
        assert parse_card(card_name(card)) == card
        assert parse_card(card_name(card).lower()) == card
    assert card_name(MATTO) == "M"
    assert parse_card("T0") == MATTO
    assert parse_card("1H") == suit_card(Suit.HEARTS, ACE)
    assert cards("KS CD 10H T20 M") == [
        suit_card(Suit.SPADES, KING), suit_card(Suit.DIAMONDS, CAVALIER),
        suit_card(Suit.HEARTS, 9), trump(20), MATTO,
    ]


def test_long_names_use_the_italian_suits_and_trump_names() -> None:
    assert card_long_name(parse_card("KS")) == "King of swords"
    assert card_long_name(parse_card("AD")) == "Ace of coins"
    assert card_long_name(parse_card("JC")) == "Jack of batons"
    assert card_long_name(parse_card("QH")) == "Queen of cups"
    assert card_long_name(trump(20)) == "trump 20 (l'Angelo)"
    assert card_long_name(MATTO) == "the Matto"


@pytest.mark.parametrize("text", ["EX", "T22", "ZS", "", "11S", "KX"])
def test_unknown_cards_are_refused_with_the_notation(text: str) -> None:
    with pytest.raises(ValueError, match="M \\(the Matto\\)"):
        parse_card(text)


@pytest.mark.parametrize("bad", [-1, 78, True, "KS"])
def test_card_name_refuses_what_is_not_a_card_id(bad: object) -> None:
    with pytest.raises(ValueError, match="not a card id"):
        card_name(bad)  # type: ignore[arg-type]


def test_trump_and_suit_card_check_their_ranges() -> None:
    assert trump(0) == MATTO
    with pytest.raises(ValueError, match=r"0 \(the Matto\) \.\. 21"):
        trump(22)
    with pytest.raises(ValueError, match="rank"):
        suit_card(Suit.SPADES, 14)


@pytest.mark.parametrize(
    ("value", "text"), [(0, "0"), (1, "1/3"), (2, "2/3"), (3, "1"), (76, "25 1/3"), (-2, "-2/3")]
)
def test_points_are_written_in_thirds_for_people(value: int, text: str) -> None:
    assert format_thirds(value) == text
