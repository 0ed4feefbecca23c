"""Seeded deals: the documented algorithm, golden vectors, and invalid deals.

The golden vectors pin ``seeded_deal`` for ever: a change to any of them means every recorded
seed now deals different cards. ``reference_deal`` re-implements the docstrings of
:mod:`arena.games.dealing` (steps 1-3) and :mod:`arena.games.tre_e_venticinque.deal` (steps
4-5) in the plainest way, so these tests also check that the docstrings say what the code does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

from arena.games.dealing import DealStream, shuffled_pack
from arena.games.tre_e_venticinque import (
    Deal,
    DealState,
    Phase,
    deal_pack,
    format_cards,
    parse_cards,
    seeded_deal,
)
from arena.games.tre_e_venticinque.cards import MATTO

from .builders import make_deal


def reference_words(seed: int) -> Iterator[int]:
    block = 0
    while True:
        digest = hashlib.sha256(
            b"tarot-arena/deal/v1" + seed.to_bytes(8, "little") + block.to_bytes(4, "little")
        ).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i:i + 4], "little")
        block += 1


def reference_draw(words: Iterator[int], n: int) -> int:
    while True:
        x = next(words)
        if x < 2**32 - 2**32 % n:
            return x % n


def reference_deal(seed: int, dealer: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    words = reference_words(seed)
    pack = list(range(78))
    for i in range(77, 0, -1):
        j = reference_draw(words, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    hands: list[list[int]] = [[], [], []]
    pos = 0
    for _ in range(5):  # five rounds of packets of five, against the order of play
        for seat in ((dealer + 2) % 3, (dealer + 1) % 3, dealer):
            hands[seat] += pack[pos:pos + 5]
            pos += 5
    return tuple(tuple(sorted(h)) for h in hands), tuple(sorted(pack[75:]))


GOLDEN_DEALS = {
    (0, 0): (
        (
            "AS 2S 3S 8S CS 2H 3H 5H 7H CH QH 2D 4D 5D 10D KD AC 3C 9C CC T2 T5 T8 T19 T20",
            "5S 6S 7S 9S 10S AH 4H 8H 10H JH AD 3D 6D 8D JD CD 10C T3 T6 T7 T11 T12 T17 T21 M",
            "4S JS QS KS 6H 9H KH 7D 9D QD 2C 6C 7C 8C JC QC KC T1 T9 T10 T13 T14 T15 T16 T18",
        ),
        "4C 5C T4",
    ),
    (1, 1): (
        (
            "3S 4S 5S 8S 9S JS 4H 8H 10H CH KH 4D 5D 10D CD 6C 9C CC T4 T5 T12 T14 T15 T16 M",
            "7S 10S CS QS AH 3H 7H QH 2D 3D 8D 9D QD KD AC 2C 7C QC KC T1 T3 T10 T13 T17 T20",
            "AS 6S KS 2H 5H 6H 9H 6D 7D JD 3C 4C 5C 8C 10C JC T2 T6 T7 T8 T9 T11 T18 T19 T21",
        ),
        "2S JH AD",
    ),
    (42, 2): (
        (
            "2S 5S 7S 2H 5H CH KH 3D 8D 9D JD QD 2C 5C 6C QC T1 T2 T5 T6 T9 T14 T16 T20 T21",
            "AS 3S 4S 9S 10S JS QS KS 3H 8H 10H JH AD 4D 6D CD 8C JC CC KC T7 T8 T10 T13 T15",
            "8S CS AH 4H 7H 9H QH 2D 5D 7D 10D KD AC 4C 7C 9C 10C T3 T4 T11 T12 T17 T18 T19 M",
        ),
        "6S 6H 3C",
    ),
    (2**64 - 1, 0): (
        (
            "AS 3S 5S 6S 8S CS AH 8H 10H JH KH 2D 3C 6C 7C JC T3 T4 T5 T7 T11 T14 T17 T18 M",
            "2S KS 2H 3H 5H 6H 7H 9H AD 3D 7D 8D 10D JD QD 5C 8C 9C 10C T1 T9 T12 T16 T19 T21",
            "4S 7S 9S 10S JS QS 4H QH 4D 5D 9D CD KD AC 2C 4C CC QC KC T2 T8 T10 T13 T15 T20",
        ),
        "CH 6D T6",
    ),
}


@pytest.mark.parametrize(("seed", "dealer"), sorted(GOLDEN_DEALS))
def test_golden_deals(seed: int, dealer: int) -> None:
    hands, talon = GOLDEN_DEALS[seed, dealer]
    deal = seeded_deal(seed, dealer)
    assert [format_cards(h) for h in deal.hands] == list(hands)
    assert format_cards(deal.talon) == talon


@pytest.mark.parametrize(("seed", "dealer"), sorted(GOLDEN_DEALS))
def test_golden_deals_follow_the_documented_algorithm(seed: int, dealer: int) -> None:
    deal = seeded_deal(seed, dealer)
    assert (deal.hands, deal.talon) == reference_deal(seed, dealer)


@pytest.mark.parametrize("seed", range(60))
def test_every_deal_follows_the_documented_algorithm(seed: int) -> None:
    for dealer in range(3):
        deal = seeded_deal(seed * 7919, dealer)
        assert (deal.hands, deal.talon) == reference_deal(seed * 7919, dealer)


def test_the_same_seed_shuffles_the_same_pack_as_french_tarot() -> None:
    """One stream for every game: seed 0's pack is French Tarot's golden pack of seed 0."""
    from tests.french_tarot.test_deal import GOLDEN_PACK_SEED_0

    assert shuffled_pack(DealStream(0)) == parse_cards(GOLDEN_PACK_SEED_0.replace("EX", "M"))


def test_the_dealer_takes_the_talon_and_discards_first() -> None:
    deal = seeded_deal(5, dealer=2)
    state = DealState(deal)
    assert state.phase is Phase.DISCARDING and state.to_act == 2
    assert state.hands[2] == deal.hand_masks[2] | deal.talon_mask
    assert state.hands[2].bit_count() == 28
    assert [h.bit_count() for h in state.hands[:2]] == [25, 25]


def test_packets_of_five_go_against_the_order_of_play_and_the_talon_is_the_last_three() -> None:
    pack = list(range(78))
    deal = deal_pack(pack, dealer=0)
    # seat 2 (dealer + 2) gets the first packet, then seat 1, then the dealer
    assert deal.hands[2][:5] == (0, 1, 2, 3, 4)
    assert deal.hands[1][:5] == (5, 6, 7, 8, 9)
    assert deal.hands[0][:5] == (10, 11, 12, 13, 14)
    assert deal.talon == (75, 76, 77)
    assert deal.talon[-1] == MATTO


def test_deals_are_checked() -> None:
    deal = make_deal(0)
    with pytest.raises(ValueError, match="dealt more than once: AS"):
        Deal(0, (deal.hands[0], deal.hands[1], (0, *deal.hands[2][1:])), deal.talon)
    with pytest.raises(ValueError, match="holds 24 cards"):
        Deal(0, (deal.hands[0][1:], deal.hands[1], deal.hands[2]), deal.talon)
    with pytest.raises(ValueError, match="talon has 2 cards"):
        Deal(0, deal.hands, deal.talon[1:])
    with pytest.raises(ValueError, match="dealer seat 3"):
        Deal(3, deal.hands, deal.talon)
    with pytest.raises(ValueError, match="99 is not a card id"):
        Deal(0, (deal.hands[0], deal.hands[1], (99, *deal.hands[2][1:])), deal.talon)
    with pytest.raises(ValueError, match="each of the 78 cards once"):
        deal_pack([0] * 78, 0)
    with pytest.raises(ValueError, match="seed"):
        seeded_deal(-1)
    with pytest.raises(ValueError, match="seed"):
        seeded_deal(2**64)
