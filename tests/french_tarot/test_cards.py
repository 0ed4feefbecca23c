"""The pack: card ids, points, bouts, the ASCII notation and the display forms."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    EXCUSE,
    MONDE,
    PETIT,
    Suit,
    card_long_name,
    card_name,
    card_symbol,
    format_cards,
    parse_card,
    parse_cards,
    suit_card,
    trump,
)
from arena.games.french_tarot.cards import (
    BOUTS_MASK,
    DECK_SIZE,
    FULL_DECK,
    HALF_POINTS,
    KINGS_MASK,
    RANK_MASKS,
    SUIT_MASKS,
    TOTAL_HALF_POINTS,
    TRUMP_MASK,
    cards_of,
    count,
    half_points,
    is_bout,
    is_trump,
    iter_cards,
    mask_half_points,
    mask_of,
    rank_of,
    suit_of,
    trump_number,
)

ALL_CARDS = range(DECK_SIZE)
SUIT_CARDS = range(56)
TRUMPS = range(56, 77)


# --- ids ------------------------------------------------------------------------------------


def test_ids_follow_the_documented_layout() -> None:
    assert DECK_SIZE == 78
    assert suit_card(Suit.SPADES, 0) == 0  # Ace of spades
    assert suit_card(Suit.SPADES, 13) == 13  # King of spades
    assert suit_card(Suit.HEARTS, 0) == 14
    assert suit_card(Suit.CLUBS, 13) == 55
    assert trump(1) == PETIT == 56
    assert trump(21) == MONDE == 76
    assert EXCUSE == 77
    assert {suit_card(s, r) for s in Suit for r in range(14)} == set(SUIT_CARDS)
    assert {trump(n) for n in range(1, 22)} == set(TRUMPS)


def test_suit_rank_and_trump_number_of_every_card() -> None:
    for s in Suit:
        for r in range(14):
            card = suit_card(s, r)
            assert suit_of(card) is s
            assert rank_of(card) == r
            assert not is_trump(card)
    for n in range(1, 22):
        assert suit_of(trump(n)) is None
        assert is_trump(trump(n))
        assert trump_number(trump(n)) == n
    assert suit_of(EXCUSE) is None
    assert not is_trump(EXCUSE)  # the Excuse is not a trump


@pytest.mark.parametrize("rank", [-1, 14])
def test_suit_card_rejects_bad_ranks(rank: int) -> None:
    with pytest.raises(ValueError, match=rf"rank {rank} is not 0 \(Ace\) \.\. 13 \(King\)"):
        suit_card(Suit.HEARTS, rank)


@pytest.mark.parametrize("number", [0, 22, -1])
def test_trump_rejects_bad_numbers(number: int) -> None:
    with pytest.raises(ValueError, match=rf"trump number {number} is not 1\.\.21"):
        trump(number)


def test_rank_of_and_trump_number_reject_the_wrong_kind() -> None:
    with pytest.raises(ValueError, match="T5 has no suit rank"):
        rank_of(trump(5))
    with pytest.raises(ValueError, match="EX has no suit rank"):
        rank_of(EXCUSE)
    with pytest.raises(ValueError, match="KS is not a trump"):
        trump_number(suit_card(Suit.SPADES, 13))
    with pytest.raises(ValueError, match="EX is not a trump"):
        trump_number(EXCUSE)


def test_higher_id_is_stronger_within_a_suit_and_among_trumps() -> None:
    for s in Suit:
        ranks = [suit_card(s, r) for r in range(14)]
        assert ranks == sorted(ranks)
        assert parse_card("A" + "SHDC"[s]) < parse_card("2" + "SHDC"[s])  # the Ace is lowest
        assert parse_card("10" + "SHDC"[s]) < parse_card("J" + "SHDC"[s])
        assert parse_card("J" + "SHDC"[s]) < parse_card("C" + "SHDC"[s])
        assert parse_card("C" + "SHDC"[s]) < parse_card("Q" + "SHDC"[s])
        assert parse_card("Q" + "SHDC"[s]) < parse_card("K" + "SHDC"[s])
    assert all(trump(n) < trump(n + 1) for n in range(1, 21))
    assert max(SUIT_CARDS) < min(TRUMPS)  # any trump beats any suit card


# --- points and bouts -----------------------------------------------------------------------


def test_points_in_half_points() -> None:
    kings = [suit_card(s, 13) for s in Suit]
    queens = [suit_card(s, 12) for s in Suit]
    cavaliers = [suit_card(s, 11) for s in Suit]
    jacks = [suit_card(s, 10) for s in Suit]
    for card in ALL_CARDS:
        if card in (PETIT, MONDE, EXCUSE) or card in kings:
            expected = 9  # 4.5
        elif card in queens:
            expected = 7  # 3.5
        elif card in cavaliers:
            expected = 5  # 2.5
        elif card in jacks:
            expected = 3  # 1.5
        else:
            expected = 1  # 0.5
        assert half_points(card) == HALF_POINTS[card] == expected, card_name(card)


def test_pack_totals_91_points() -> None:
    assert sum(HALF_POINTS) == TOTAL_HALF_POINTS == 182
    assert mask_half_points(FULL_DECK) == 182
    assert mask_half_points(TRUMP_MASK) == 9 + 9 + 19  # Petit, 21 and nineteen low trumps
    assert mask_half_points(KINGS_MASK) == 36
    for s in Suit:
        assert mask_half_points(SUIT_MASKS[s]) == 9 + 7 + 5 + 3 + 10


def test_bouts() -> None:
    assert [c for c in ALL_CARDS if is_bout(c)] == [PETIT, MONDE, EXCUSE]
    assert cards_of(BOUTS_MASK) == [PETIT, MONDE, EXCUSE]
    assert [card_name(c) for c in cards_of(BOUTS_MASK)] == ["T1", "T21", "EX"]


def test_masks_partition_the_pack() -> None:
    masks = [*SUIT_MASKS, TRUMP_MASK, 1 << EXCUSE]
    union = 0
    for mask in masks:
        assert union & mask == 0
        union |= mask
    assert union == FULL_DECK
    assert sum(count(m) for m in masks) == 78
    assert count(TRUMP_MASK) == 21
    assert cards_of(KINGS_MASK) == [13, 27, 41, 55]
    assert all(count(RANK_MASKS[r]) == 4 for r in range(14))


def test_mask_helpers_round_trip() -> None:
    cards = [77, 0, 13, 56, 40]
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert list(iter_cards(mask)) == sorted(cards)
    assert count(mask) == 5
    assert mask_of([]) == 0 and cards_of(0) == []
    assert cards_of(FULL_DECK) == list(ALL_CARDS)


# --- notation -------------------------------------------------------------------------------


def test_notation_examples() -> None:
    assert card_name(suit_card(Suit.SPADES, 13)) == "KS"
    assert card_name(suit_card(Suit.HEARTS, 12)) == "QH"
    assert card_name(suit_card(Suit.DIAMONDS, 11)) == "CD"  # the Cavalier
    assert card_name(suit_card(Suit.CLUBS, 10)) == "JC"
    assert card_name(suit_card(Suit.SPADES, 9)) == "10S"
    assert card_name(suit_card(Suit.HEARTS, 0)) == "AH"
    assert card_name(suit_card(Suit.HEARTS, 1)) == "2H"
    assert card_name(PETIT) == "T1"
    assert card_name(MONDE) == "T21"
    assert card_name(EXCUSE) == "EX"


def test_notation_round_trip_for_all_78_cards() -> None:
    names = [card_name(c) for c in ALL_CARDS]
    assert len(set(names)) == 78
    for card, name in zip(ALL_CARDS, names, strict=True):
        assert name.isascii()
        assert parse_card(name) == card
        assert parse_card(name.lower()) == card
        assert parse_card(f"  {name}\t") == card
    assert parse_cards(format_cards(ALL_CARDS)) == list(ALL_CARDS)


def test_parse_accepts_1_for_the_ace() -> None:
    for letter, s in zip("SHDC", Suit, strict=True):
        assert parse_card("1" + letter) == suit_card(s, 0)
        assert parse_card("1" + letter.lower()) == suit_card(s, 0)


def test_parse_cards_separators() -> None:
    assert parse_cards("KS, qh  T21,EX") == [13, 26, 76, 77]
    assert parse_cards("") == []
    assert parse_cards(" , ") == []
    assert format_cards([]) == ""
    assert format_cards([77, 0]) == "EX AS"  # in the order given


@pytest.mark.parametrize(
    "text",
    ["", "ZZ", "KX", "T0", "T22", "T", "11S", "0S", "1", "1T", "EXC", "K S", "T 1", "01S", "♠K"],
)
def test_parse_errors_are_clear_value_errors(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_card(text)
    message = str(info.value)
    assert message.startswith(f"unknown card {text!r}")
    assert "expected e.g. KS" in message and "T1..T21" in message and "EX" in message


def test_parse_cards_reports_the_bad_card() -> None:
    with pytest.raises(ValueError, match="unknown card 'T99'"):
        parse_cards("KS T99 EX")


@pytest.mark.parametrize("card", [-1, 78, 1000])
def test_card_name_rejects_bad_ids(card: int) -> None:
    with pytest.raises(ValueError, match=rf"{card} is not a card id \(0\.\.77\)"):
        card_name(card)


# --- display --------------------------------------------------------------------------------


def test_symbols() -> None:
    assert card_symbol(parse_card("KS")) == "K♠"
    assert card_symbol(parse_card("10H")) == "10♥"
    assert card_symbol(parse_card("CD")) == "C♦"
    assert card_symbol(parse_card("AC")) == "A♣"
    assert card_symbol(PETIT) == "1"
    assert card_symbol(MONDE) == "21"
    assert card_symbol(EXCUSE) == "Excuse"
    symbols = [card_symbol(c) for c in ALL_CARDS]
    assert len(set(symbols)) == 78


def test_long_names() -> None:
    assert card_long_name(parse_card("KS")) == "King of spades"
    assert card_long_name(parse_card("CD")) == "Cavalier of diamonds"
    assert card_long_name(parse_card("AH")) == "Ace of hearts"
    assert card_long_name(parse_card("10C")) == "10 of clubs"
    assert card_long_name(PETIT) == "le Petit (trump 1)"
    assert card_long_name(trump(7)) == "trump 7"
    assert card_long_name(EXCUSE) == "the Excuse"
    assert len({card_long_name(c) for c in ALL_CARDS}) == 78


@pytest.mark.parametrize("card", [-1, 78])
def test_display_forms_reject_bad_ids(card: int) -> None:
    with pytest.raises(ValueError, match=rf"{card} is not a card id \(0\.\.77\)"):
        card_symbol(card)
    with pytest.raises(ValueError, match=rf"{card} is not a card id \(0\.\.77\)"):
        card_long_name(card)
