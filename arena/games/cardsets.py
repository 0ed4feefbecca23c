"""Sets of cards as bit masks, the representation every game of the arena uses for hands: a
card is its index in the game's deck, a set is one Python int with bit ``c`` set for card
``c``, so following suit or trumping is a handful of bit operations."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, TypeVar, cast

Card = int
"""A card: its index in its game's deck."""

Hand = int
"""A set of cards as a bit mask: bit ``c`` is set when card ``c`` is in the set."""


T = TypeVar("T")


def region_tables(values: Sequence[T], first: Card, bits: int) -> list[tuple[T, ...]]:
    """``table[m]``: ``values[first + i]`` for each bit ``i`` of ``m``, lowest first: a hand cut
    into regions of ``bits`` cards gives a game its actions (its plays of each card, say) by one
    look-up a region instead of a loop over the hand's bits."""
    table: list[tuple[T, ...]] = [()] * (1 << bits)
    for m in range(1, 1 << bits):
        low = m & -m
        table[m] = (values[first + low.bit_length() - 1], *table[m ^ low])
    return table


SUITS_END: Final = 56
"""The tarot pack's first trump: cards below it are the four suits', from it up the trumps and
the Excuse (the Matto). Either part of a hand fits a native int of the compiled modules."""
_SUITS_PART: Final = (1 << SUITS_END) - 1


class Holding:
    """A seat's cards kept as two native ints, ``suits`` (bit ``c`` for card ``c`` below
    :data:`SUITS_END`) and ``trumps`` (bit ``c - SUITS_END`` for the others), rather than one
    78-bit :data:`Hand`: over 62 bits a Python int is a big-int object, and every operation on
    it allocates one. The rules read and change a hand at every card, so the engines keep
    their seats' cards so and join them into a :data:`Hand` only for a reader asking for one.
    Mutable: a state's copy copies its holdings."""

    __slots__ = ("suits", "trumps")

    suits: int
    trumps: int

    def __init__(self, suits: int = 0, trumps: int = 0) -> None:
        """Defaults: an empty holding, which unpickling builds before filling it."""
        self.suits = suits
        self.trumps = trumps

    @property
    def hand(self) -> Hand:
        return joined(self.suits, self.trumps)

    def add(self, mask: Hand) -> None:
        self.suits |= mask & _SUITS_PART
        self.trumps |= mask >> SUITS_END

    def remove(self, card: Card) -> None:
        if card < SUITS_END:
            self.suits &= ~(1 << card)
        else:
            self.trumps &= ~(1 << (card - SUITS_END))

    def copy(self) -> Holding:
        return Holding(self.suits, self.trumps)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Holding) and self.suits == other.suits
                and self.trumps == other.trumps)

    def __repr__(self) -> str:
        return f"Holding({self.hand:#x})"


_TRUMPS_LOW: Final = [m << SUITS_END for m in range(1 << 11)]
_TRUMPS_HIGH: Final = [m << SUITS_END + 11 for m in range(1 << 11)]
"""The upper half's two 11-bit regions as parts of a mask, made once: most masks a simulation
asks for (the trumps it may play, a suit and the Excuse) then cost one big-int operation or
none, where shifting the half and adding the suits cost two."""


def joined(suits: int, trumps: int) -> Hand:
    """The mask of the two halves of a :class:`Holding` (or of any part of one)."""
    if not trumps:
        return suits
    high = trumps >> 11
    if high:
        mask = _TRUMPS_HIGH[high]
        if trumps & 0x7FF:
            mask |= _TRUMPS_LOW[trumps & 0x7FF]
    else:
        mask = _TRUMPS_LOW[trumps]
    return mask | suits if suits else mask


def holding(hand: Hand) -> Holding:
    """``hand`` as a :class:`Holding`."""
    return Holding(hand & _SUITS_PART, hand >> SUITS_END)


def rejoin(held: list[Holding], joined: list[Hand], stale: int) -> None:
    """``joined[s]`` made ``held[s]``'s hand again for each seat ``s`` in ``stale`` (bit ``s``):
    a state keeps its seats' hands as last joined for its readers, and joins again only the
    seats whose cards changed since."""
    while stale:
        seat = (stale & -stale).bit_length() - 1
        stale ^= 1 << seat
        joined[seat] = held[seat].hand


def mask_of(cards: Iterable[Card]) -> Hand:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _region_cards(first: Card) -> tuple[tuple[object, ...], ...]:
    """``table[m]``: the cards ``first + i`` for each bit ``i`` of the 11-bit ``m``, each entry
    one card more than an earlier one (the cheapest way to build them at import). Typed as
    objects: the compiled :func:`cards_of` then appends each card as it is, where an int
    would be unboxed from the table and boxed again for the list."""
    table: list[tuple[object, ...]] = [()] * (1 << 11)
    for m in range(1, 1 << 11):
        high = m.bit_length() - 1
        table[m] = (*table[m ^ 1 << high], first + high)
    return tuple(table)


_R0: Final = _region_cards(0)
_R1: Final = _region_cards(11)
_R2: Final = _region_cards(22)
_R3: Final = _region_cards(33)
_R4: Final = _region_cards(44)
_R5: Final = _region_cards(55)
_R6: Final = _region_cards(66)
_R7: Final = _region_cards(77)
_REGIONS_END: Final = 88
"""The eight tables cover cards 0..87: every pack of the arena's games (78 cards at most)."""
_HALF_BITS: Final = 55
"""Five regions below, three from it up: each half of a mask fits a native int (62 bits)."""
_LOW_HALF: Final = (1 << _HALF_BITS) - 1


def cards_of(mask: Hand) -> list[Card]:
    """The cards of a bit set, lowest id first.

    Eight table look-ups rather than a loop over the set's bits: simulations list the cards
    they may play at every card. The mask is cut once into two halves that each fit a native
    int of the compiled module (cards below 55, cards from 55 up): the eight regions are then
    taken with machine operations, not big-int ones, each region's bits once. Only the
    regions holding cards are listed (a playable set is usually one or two of them), card by
    card: a list extended by a region's tuple cost more, compiled (each extension a slice
    assignment that grows the list), and so did a list pre-sized by a comprehension over the
    first region (zeroed on allocation) or tuples joined first (one allocation more)."""
    high_half = mask >> _HALF_BITS
    if high_half >> _REGIONS_END - _HALF_BITS:
        listed = []
        while mask:
            low = mask & -mask
            listed.append(low.bit_length() - 1)
            mask ^= low
        return listed
    low_half = mask & _LOW_HALF
    out: list[object] = []
    region: int
    if low_half:
        region = low_half & 0x7FF
        if region:
            for card in _R0[region]:
                out.append(card)
        region = low_half >> 11 & 0x7FF
        if region:
            for card in _R1[region]:
                out.append(card)
        region = low_half >> 22 & 0x7FF
        if region:
            for card in _R2[region]:
                out.append(card)
        region = low_half >> 33 & 0x7FF
        if region:
            for card in _R3[region]:
                out.append(card)
        region = low_half >> 44
        if region:
            for card in _R4[region]:
                out.append(card)
    if high_half:
        region = high_half & 0x7FF
        if region:
            for card in _R5[region]:
                out.append(card)
        region = high_half >> 11 & 0x7FF
        if region:
            for card in _R6[region]:
                out.append(card)
        region = high_half >> 22
        if region:
            for card in _R7[region]:
                out.append(card)
    return cast("list[Card]", out)


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
        # Objects, not cards, until checked: compiled, a list of cards would refuse a non-int.
        listed: list[object] = []
        for part in parts:
            listed.extend(part)
        for card in listed:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < deck_size:
                raise ValueError(f"{card!r} is not a card id")
        cards = [c for part in parts for c in part]
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        raise ValueError(f"dealt more than once: {names(repeated)}")
    return masks
