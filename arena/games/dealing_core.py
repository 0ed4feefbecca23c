"""Dealing's two inner loops on native ints, compiled by mypyc (arena/native.py): the shuffle of
a pack whose draws need no rejection, and the cut of a shuffled pack into a deal's parts.

They were a third of a random French Tarot deal's instructions as Python (issue 27): one
Fisher-Yates step and one card sorted into its part are a few machine instructions compiled,
and a mask built in two halves of native ints is one big-int operation a part instead of one a
card. :mod:`arena.games.dealing` and :func:`arena.games.cardsets.pack_parts` call them after
their checks; the algorithm is theirs (the documented, golden-pinned stream and shuffle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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
    pack = list(range(size))
    k = pos
    for i in range(size - 1, 0, -1):
        j = words[k] % (i + 1)
        k += 1
        card = pack[i]
        pack[i] = pack[j]
        pack[j] = card
    return pack


class PackCut:
    """Cuts a shuffled pack into a deal's parts: ``owners[p]`` is the part of the card at place
    ``p`` of the pack (top card first). A call returns each part's cards, sorted, and its mask,
    for a pack that holds every card of the deck once (a shuffle's, or one checked so)."""

    def __init__(self, owners: Sequence[int], parts: int) -> None:
        self.owners: list[int] = list(owners)
        self.parts = parts

    def __call__(self, pack: list[int]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        owners = self.owners
        size = len(owners)
        owner_of = [0] * size
        for place in range(size):
            owner_of[pack[place]] = owners[place]
        parts: list[list[int]] = [[] for _ in range(self.parts)]
        for card in range(size):  # in card order: each part comes out sorted
            parts[owner_of[card]].append(card)
        masks: list[int] = []
        for mine in parts:
            low = 0
            high = 0
            for card in mine:
                if card < LOW_BITS:
                    low |= 1 << card
                else:
                    high |= 1 << (card - LOW_BITS)
            masks.append(low | high << LOW_BITS if high else low)
        return tuple([tuple(mine) for mine in parts]), tuple(masks)
