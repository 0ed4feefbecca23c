"""Dealing's two inner loops on native ints, compiled by mypyc (arena/native.py): the shuffle of
a pack whose draws need no rejection, and the cut of a shuffled pack into a deal's parts.

They were a third of a random French Tarot deal's instructions as Python (issue 27): one
Fisher-Yates step and one card sorted into its part are a few machine instructions compiled,
and a mask built in two halves of native ints is one big-int operation a part instead of one a
card. :mod:`arena.games.dealing` and :func:`arena.games.dealing.pack_parts` call them after
their checks; the algorithm is theirs (the documented, golden-pinned stream and shuffle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from .cardsets import cards_of

LOW_BITS: Final = 62
"""A mask is gathered as its cards below this and its cards from it up: each half fits a
native int (mypyc's holds 62 bits and a sign), and the two are joined once."""


def plain_shuffle(words: list[int], pos: int, size: int, limit: int) -> list[int] | None:
    """Fisher-Yates over the ordered pack of ``size`` cards, draw ``k`` being
    ``words[pos + k] mod n`` (n = ``size``, ``size - 1``, ... 2), as when no word is rejected;
    None when a word is not below ``limit``, where a rejection may come (the caller then draws
    one by one)."""
    end = pos + size - 1
    for k in range(pos, end):
        if words[k] >= limit:
            return None
    # Objects, not ints: compiled, a card moved is then a pointer moved, where a list of ints
    # unboxes each card read and boxes it again to store it.
    pack: list[object] = list(range(size))
    k = pos
    for i in range(size - 1, 0, -1):
        j = words[k] % (i + 1)
        k += 1
        card = pack[i]
        pack[i] = pack[j]
        pack[j] = card
    return cast("list[int]", pack)


class PackCut:
    """Cuts a shuffled pack into a deal's parts: ``owners[p]`` is the part of the card at place
    ``p`` of the pack (top card first). A call returns each part's cards, sorted, and its mask,
    for a pack that holds every card of the deck once (a shuffle's, or one checked so).

    Each part's mask is gathered from its own places, then listed in card order by
    :func:`arena.games.cardsets.cards_of`'s tables: no card sorted into its part one by one
    (a list read, a list written and an append a card, which made the cut 82 k instructions of
    a random 4-player deal)."""

    def __init__(self, owners: Sequence[int], parts: int) -> None:
        self.places: list[list[int]] = [
            [place for place, owner in enumerate(owners) if owner == part]
            for part in range(parts)
        ]

    def __call__(self, pack: list[int]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        listed: list[tuple[int, ...]] = []
        masks: list[int] = []
        for places in self.places:
            low = 0
            high = 0
            for place in places:
                card = pack[place]
                if card < LOW_BITS:
                    low |= 1 << card
                else:
                    high |= 1 << (card - LOW_BITS)
            mask = low | high << LOW_BITS if high else low
            masks.append(mask)
            listed.append(tuple(cards_of(mask)))
        return tuple(listed), tuple(masks)
