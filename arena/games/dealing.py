"""The seeded shuffle every game of the arena deals from: one documented stream, any language.

A deal seed must give the same cards on any machine, forever, and a bot author must be able to
re-deal a board in another language to check it. So nothing here uses :mod:`random` (whose
algorithms may change between Python versions); the three steps below are the whole algorithm,
pinned by golden vectors in every game's tests. Each game then documents how it deals its
shuffled pack to the seats (French Tarot: :mod:`arena.games.french_tarot.deal`; Tre e
Venticinque: :mod:`arena.games.tre_e_venticinque.deal`).

1. **Stream.** The seed is an int in ``0 .. 2**64 - 1``. Block ``k`` (k = 0, 1, 2, ...) of the
   stream is ``SHA-256(b"tarot-arena/deal/v1" + seed as 8 bytes little-endian + k as 4 bytes
   little-endian)``; the stream is the blocks' bytes in order, read as 32-bit little-endian words.
2. **Unbiased draw** of an integer in ``0 .. n-1``: take the next word ``x``; while
   ``x >= 2**32 - 2**32 mod n``, take the next word instead; the answer is ``x mod n``.
3. **Shuffle.** Start from the pack in card-id order (``0 .. size - 1``, the game's own card
   ids); Fisher-Yates from the top: for ``i`` from ``size - 1`` down to 1, swap positions ``i``
   and ``draw(i + 1)``. Position 0 is the top of the pack. A game that must shuffle again (French
   Tarot's petit sec) starts again from card-id order, continuing the same stream.

The domain string is the same for every game: the stream is the arena's, not a game's, so one
reference implementation checks them all.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Sequence
from typing import Final

from .cardsets import Card, Hand
from .dealing_core import PackCut, plain_shuffle

MAX_SEED: Final = (1 << 64) - 1
DOMAIN: Final = b"tarot-arena/deal/v1"
TAROT_PACK: Final = 78
"""The size of the tarot pack, which both games shuffle."""


class DealStream:
    """Steps 1 and 2 of the module docstring: SHA-256 in counter mode, unbiased draws."""

    __slots__ = ("_block", "_pos", "_prefix", "_words")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed {seed!r} is not an integer in 0 .. 2**64 - 1")
        self._prefix = DOMAIN + seed.to_bytes(8, "little")
        self._block = 0
        self._words: list[int] = []
        self._pos = 0

    def _ensure(self, count: int) -> None:
        """Make at least ``count`` unread words available."""
        words = self._words
        if self._pos:
            del words[: self._pos]
            self._pos = 0
        missing = count - len(words)
        if missing > 0:  # every block needed at once: one join and one unpack for a shuffle
            first = self._block
            blocks = (missing + 7) // 8
            # The prefix absorbed once, each block's hash a copy of it given its counter: a
            # copy costs less than a new hash (OpenSSL's look-up of SHA-256 and its set-up).
            prefixed = hashlib.sha256(self._prefix)
            parts = []
            for block in range(first, first + blocks):
                hashed = prefixed.copy()
                hashed.update(block.to_bytes(4, "little"))
                parts.append(hashed.digest())
            data = b"".join(parts)
            self._block = first + blocks
            words.extend(struct.unpack(f"<{8 * blocks}I", data))

    def below(self, n: int) -> int:
        """An unbiased integer in ``0 .. n-1``, for ``n`` in ``1 .. 2**32``."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"cannot draw below {n}: n must be in 1 .. 2**32")
        limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 32) - (1 << 32) % n
        while True:
            self._ensure(1)
            x = self._words[self._pos]
            self._pos += 1
            if x < limit:
                return x % n


_LIMITS: Final = tuple((1 << 32) - (1 << 32) % n if n else 0 for n in range(TAROT_PACK + 1))
_NO_REJECTION: Final = min(_LIMITS[2:])
"""Below this, no draw of a tarot-pack shuffle is rejected (step 2), so the whole shuffle's
draws are its words mod n: a word that high comes in about one shuffle in a million, which
draws one by one."""


def shuffled_pack(stream: DealStream, size: int = TAROT_PACK) -> list[int]:
    """Step 3: Fisher-Yates over the ordered pack of ``size`` cards; index 0 is the top card.

    Equivalent to calling :meth:`DealStream.below` ``size - 1`` times, with the draws inlined
    (compiled: :func:`arena.games.dealing_core.plain_shuffle`): shuffling would otherwise be a
    fifth of a random French Tarot deal's cost.
    """
    if size > TAROT_PACK:  # the inlined limits cover the tarot pack; larger packs draw plainly
        pack = list(range(size))
        for i in range(size - 1, 0, -1):
            j = stream.below(i + 1)
            pack[i], pack[j] = pack[j], pack[i]
        return pack
    if size < 1:
        raise ValueError(f"cannot shuffle a pack of {size} cards")
    stream._ensure(size - 1)
    words = stream._words
    pos = stream._pos
    plain = plain_shuffle(words, pos, size, _NO_REJECTION)
    if plain is not None:  # no word rejected: every draw is a plain x mod n
        stream._pos = pos + size - 1
        return plain
    pack = list(range(size))
    for i in range(size - 1, 0, -1):
        n = i + 1
        x = words[pos]
        pos += 1
        if x >= _LIMITS[n]:  # about once in 50 million draws
            stream._pos = pos
            j = stream.below(n)
            words = stream._words
            stream._ensure(i - 1)
            pos = stream._pos
        else:
            j = x % n
        pack[i], pack[j] = pack[j], pack[i]
    stream._pos = pos
    return pack


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
