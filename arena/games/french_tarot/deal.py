"""Seeded, reproducible deals: the same seed gives the same deal on any machine, forever.

Nothing here uses :mod:`random`, whose algorithms may change between Python versions. The
algorithm is fixed and documented so that any implementation, in any language, can reproduce a
deal from its seed (golden vectors in ``tests/french_tarot/test_deal.py`` pin it):

1. **Stream.** The seed is an int in ``0 .. 2**64 - 1``. Block ``k`` (k = 0, 1, 2, ...) of the
   stream is ``SHA-256(b"tarot-arena/deal/v1" + seed as 8 bytes little-endian + k as 4 bytes
   little-endian)``; the stream is the blocks' bytes in order, read as 32-bit little-endian words.
2. **Unbiased draw** of an integer in ``0 .. n-1``: take the next word ``x``; while
   ``x >= 2**32 - 2**32 mod n``, take the next word instead; the answer is ``x mod n``.
3. **Shuffle.** Start from the pack in card-id order (0..77, see
:mod:`arena.games.french_tarot.cards`);
   Fisher-Yates from the top: for ``i`` from 77 down to 1, swap positions ``i`` and ``draw(i + 1)``.
   Position 0 is the top of the pack.
4. **Packets.** Cards are dealt from the top in packets (4 at a time with 3 players, 3 at a time
   with 4 or 5) to the seats in turn order starting with the seat after the dealer. The chien
   takes single cards: one right after packet number ``floor(k * P / (c + 1))`` for
   ``k = 1 .. c``, where ``P`` is the number of packets and ``c`` the chien size. So the chien
   never gets the first or the last card of the pack.
5. **Petit sec.** If a hand holds the Petit as its only trump and not the Excuse, the deal would be
   annulled: the pack is shuffled again from card-id order (step 3), continuing the same stream,
   until no hand is petit sec.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from typing import Final

from .cards import (
    DECK_SIZE,
    EXCUSE_BIT,
    FULL_DECK,
    PETIT_BIT,
    TRUMP_MASK,
    Card,
    Hand,
    format_cards,
    mask_of,
)

MAX_SEED: Final = (1 << 64) - 1
_DOMAIN: Final = b"tarot-arena/deal/v1"

HAND_SIZES: Final = {3: 24, 4: 18, 5: 15}
CHIEN_SIZES: Final = {3: 6, 4: 6, 5: 3}
PACKET_SIZES: Final = {3: 4, 4: 3, 5: 3}


class DealStream:
    """Steps 1 and 2 of the module docstring: SHA-256 in counter mode, unbiased draws."""

    __slots__ = ("_block", "_pos", "_prefix", "_words")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed {seed!r} is not an integer in 0 .. 2**64 - 1")
        self._prefix = _DOMAIN + seed.to_bytes(8, "little")
        self._block = 0
        self._words: list[int] = []
        self._pos = 0

    def _ensure(self, count: int) -> None:
        """Make at least ``count`` unread words available."""
        words = self._words
        if self._pos:
            del words[: self._pos]
            self._pos = 0
        while len(words) < count:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(4, "little")).digest()
            self._block += 1
            words.extend(struct.unpack("<8I", digest))

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


_LIMITS: Final = tuple((1 << 32) - (1 << 32) % n if n else 0 for n in range(DECK_SIZE + 1))


def shuffled_pack(stream: DealStream) -> list[Card]:
    """Step 3: Fisher-Yates over the ordered pack; index 0 is the top card.

    Equivalent to calling :meth:`DealStream.below` 77 times, with the draws inlined: shuffling
    would otherwise be a fifth of a random deal's cost.
    """
    pack = list(range(DECK_SIZE))
    stream._ensure(DECK_SIZE - 1)
    words = stream._words
    pos = stream._pos
    for i in range(DECK_SIZE - 1, 0, -1):
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


def _chien_after_packets(players: int) -> frozenset[int]:
    chien = CHIEN_SIZES[players]
    packets = HAND_SIZES[players] * players // PACKET_SIZES[players]
    return frozenset(k * packets // (chien + 1) for k in range(1, chien + 1))


_CHIEN_AFTER: Final = {n: _chien_after_packets(n) for n in HAND_SIZES}


def is_petit_sec(hand: Hand) -> bool:
    """The Petit is the hand's only trump and the hand has no Excuse."""
    return hand & TRUMP_MASK == PETIT_BIT and not hand & EXCUSE_BIT


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds what before bidding: ``hands[seat]`` and the ``chien``, as sorted card tuples."""

    players: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    chien: tuple[Card, ...]
    hand_masks: tuple[Hand, ...] = field(init=False, repr=False, compare=False)
    chien_mask: Hand = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.players
        if n not in HAND_SIZES:
            raise ValueError(f"French Tarot is played by 3, 4 or 5 players, not {n}")
        if not 0 <= self.dealer < n:
            raise ValueError(f"dealer seat {self.dealer} is not a seat of a {n}-player table")
        if len(self.hands) != n:
            raise ValueError(f"{len(self.hands)} hands for {n} players")
        for seat, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZES[n]:
                raise ValueError(
                    f"seat {seat} holds {len(hand)} cards, a {n}-player hand has {HAND_SIZES[n]}"
                )
        if len(self.chien) != CHIEN_SIZES[n]:
            raise ValueError(f"the chien has {len(self.chien)} cards, it must have "
                             f"{CHIEN_SIZES[n]} with {n} players")
        try:
            masks = tuple(mask_of(part) for part in (*self.hands, self.chien))
        except (TypeError, ValueError):  # a negative shift or a non-int: reported just below
            masks = ()
        seen = 0
        for mask in masks:
            seen |= mask
        if seen != FULL_DECK:  # 78 cards in all, so a missing card means a repeated one
            cards = [c for part in (*self.hands, self.chien) for c in part]
            for card in cards:
                if isinstance(card, bool) or not isinstance(card, int) or not (
                    0 <= card < DECK_SIZE
                ):
                    raise ValueError(f"{card!r} is not a card id")
            repeated = sorted({c for c in cards if cards.count(c) > 1})
            raise ValueError(f"dealt more than once: {format_cards(repeated)}")
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in self.hands))
        object.__setattr__(self, "chien", tuple(sorted(self.chien)))
        object.__setattr__(self, "hand_masks", masks[:-1])
        object.__setattr__(self, "chien_mask", masks[-1])

    def petit_sec_seats(self) -> list[int]:
        return [seat for seat, hand in enumerate(self.hand_masks) if is_petit_sec(hand)]

    def describe(self) -> str:
        lines = [f"seat {s}: {format_cards(h)}" for s, h in enumerate(self.hands)]
        return "\n".join([*lines, f"chien: {format_cards(self.chien)}"])


def deal_pack(pack: list[Card], players: int, dealer: int) -> Deal:
    """Step 4: distribute a pack (top card first) in packets, chien cards one at a time."""
    if players not in HAND_SIZES:
        raise ValueError(f"French Tarot is played by 3, 4 or 5 players, not {players}")
    if sorted(pack) != list(range(DECK_SIZE)):
        raise ValueError("a pack must hold each of the 78 cards once")
    size = PACKET_SIZES[players]
    chien_after = _CHIEN_AFTER[players]
    hands: list[list[Card]] = [[] for _ in range(players)]
    chien: list[Card] = []
    seat = (dealer + 1) % players
    pos = 0
    packets = HAND_SIZES[players] * players // size
    for number in range(1, packets + 1):
        hands[seat].extend(pack[pos:pos + size])
        pos += size
        seat = (seat + 1) % players
        if number in chien_after:
            chien.append(pack[pos])
            pos += 1
    return Deal(players, dealer, tuple(map(tuple, hands)), tuple(chien))


def seeded_deal(seed: int, players: int, dealer: int = 0) -> Deal:
    """The deal for ``seed`` (steps 1-5 of the module docstring); never petit sec."""
    stream = DealStream(seed)
    while True:
        deal = deal_pack(shuffled_pack(stream), players, dealer)
        if not deal.petit_sec_seats():
            return deal
