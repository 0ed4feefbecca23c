"""Sets of cards as bit masks, the representation every game of the arena uses for hands: a
card is its index in the game's deck, a set is one Python int with bit ``c`` set for card
``c``, so following suit or trumping is a handful of bit operations."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from .dealing_core import PackCut

Card = int
"""A card: its index in its game's deck."""

Hand = int
"""A set of cards as a bit mask: bit ``c`` is set when card ``c`` is in the set."""


def mask_of(cards: Iterable[Card]) -> Hand:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _region_cards(first: Card) -> tuple[tuple[Card, ...], ...]:
    """``table[m]``: the cards ``first + i`` for each bit ``i`` of the 11-bit ``m``, each entry
    one card more than an earlier one (the cheapest way to build them at import)."""
    table: list[tuple[Card, ...]] = [()] * (1 << 11)
    for m in range(1, 1 << 11):
        high = m.bit_length() - 1
        table[m] = (*table[m ^ 1 << high], first + high)
    return tuple(table)


_R0, _R1, _R2, _R3, _R4, _R5, _R6, _R7 = (_region_cards(11 * r) for r in range(8))
_REGIONS_END = 88
"""The eight tables cover cards 0..87: every pack of the arena's games (78 cards at most)."""


def cards_of(mask: Hand) -> list[Card]:
    """The cards of a bit set, lowest id first.

    Eight table look-ups rather than a loop over the set's bits: simulations list the cards
    they may play at every card."""
    if mask >> _REGIONS_END:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    return [
        *_R0[mask & 0x7FF],
        *_R1[mask >> 11 & 0x7FF],
        *_R2[mask >> 22 & 0x7FF],
        *_R3[mask >> 33 & 0x7FF],
        *_R4[mask >> 44 & 0x7FF],
        *_R5[mask >> 55 & 0x7FF],
        *_R6[mask >> 66 & 0x7FF],
        *_R7[mask >> 77],
    ]


def iter_cards(mask: Hand) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def partition_masks(
    parts: Sequence[Sequence[Card]], deck_size: int, names: Callable[[Iterable[Card]], str]
) -> tuple[Hand, ...]:
    """The masks of ``parts`` (the hands of a deal and its undealt cards), which must hold
    every card of the deck exactly once; ValueError names a card that is no card, or the cards
    dealt twice (written with ``names``)."""
    try:
        masks = tuple(mask_of(part) for part in parts)
    except (TypeError, ValueError):  # a negative shift or a non-int: reported just below
        masks = ()
    seen = 0
    for mask in masks:
        seen |= mask
    if seen != (1 << deck_size) - 1:  # every card once, so a missing card means a repeated one
        cards = [c for part in parts for c in part]
        for card in cards:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < deck_size:
                raise ValueError(f"{card!r} is not a card id")
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        raise ValueError(f"dealt more than once: {names(repeated)}")
    return masks



def pack_parts(
    positions: Sequence[Sequence[int]], deck_size: int
) -> Callable[[list[Card]], tuple[tuple[tuple[Card, ...], ...], tuple[Hand, ...]]]:
    """A function cutting a shuffled pack of ``deck_size`` cards into the parts of a deal:
    ``positions[k]`` are the places in the pack (top card first) of part ``k``'s cards; it
    returns each part's cards, sorted, and its mask.

    For a pack that holds every card once, as a shuffle makes it: its parts need no check. The
    cut itself is compiled (:class:`arena.games.dealing_core.PackCut`): card by card in Python
    it was most of what dealing costs.
    """
    if any(len(part) < 2 for part in positions):
        raise ValueError("every part of a deal takes at least two cards")
    owners = [-1] * deck_size
    for part, places in enumerate(positions):
        for place in places:
            owners[place] = part
    if -1 in owners or sum(map(len, positions)) != deck_size:
        raise ValueError(f"the parts must take each of the {deck_size} places of the pack once")
    return PackCut(owners, len(positions))
