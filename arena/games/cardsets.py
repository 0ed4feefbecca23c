"""Sets of cards as bit masks, the representation every game of the arena uses for hands: a
card is its index in the game's deck, a set is one Python int with bit ``c`` set for card
``c``, so following suit or trumping is a handful of bit operations."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int
"""A card: its index in its game's deck."""

Hand = int
"""A set of cards as a bit mask: bit ``c`` is set when card ``c`` is in the set."""


def mask_of(cards: Iterable[Card]) -> Hand:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: Hand) -> list[Card]:
    """The cards of a bit set, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: Hand) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
