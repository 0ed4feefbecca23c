"""Seeded, reproducible deals: the same seed gives the same deal on any machine, forever.

Nothing here uses :mod:`random`, whose algorithms may change between Python versions. The
algorithm is fixed and documented so that any implementation, in any language, can reproduce a
deal from its seed (golden vectors in ``tests/rules/test_deal.py`` pin it):

1. **Generator.** SplitMix64 (Steele, Lea & Flood 2014) with the seed (an int in
   ``0 .. 2**64 - 1``) as its initial state: ``state += 0x9E3779B97F4A7C15``; then
   ``z = state``, ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``, ``z = (z ^ (z >> 27)) *
   0x94D049BB133111EB``, output ``z ^ (z >> 31)``, all modulo ``2**64``.
2. **Unbiased draw** of an integer in ``0 .. n-1``: draw ``x``; reject and draw again while
   ``x < 2**64 mod n``; the answer is ``x mod n``.
3. **Shuffle.** Start from the pack in card-id order (0..77, see :mod:`arena.rules.cards`);
   Fisher-Yates from the top: for ``i`` from 77 down to 1, swap positions ``i`` and ``draw(i + 1)``.
   Position 0 is the top of the pack.
4. **Packets.** Cards are dealt from the top in packets (4 at a time with 3 players, 3 at a time
   with 4 or 5) to the seats in turn order starting with the seat after the dealer. The chien
   takes single cards: one right after packet number ``floor(k * P / (c + 1))`` for
   ``k = 1 .. c``, where ``P`` is the number of packets and ``c`` the chien size. So the chien
   never gets the first or the last card of the pack.
5. **Petit sec.** If a hand holds the Petit as its only trump and not the Excuse, the deal would be
   annulled: the generator shuffles the ordered pack again (step 3) with the same generator,
   continuing its stream, until no hand is petit sec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import (
    DECK_SIZE,
    EXCUSE_BIT,
    FULL_DECK,
    PETIT_BIT,
    TRUMP_MASK,
    Card,
    Hand,
    card_name,
    format_cards,
    mask_of,
)

MASK64: Final = (1 << 64) - 1
MAX_SEED: Final = MASK64

HAND_SIZES: Final = {3: 24, 4: 18, 5: 15}
CHIEN_SIZES: Final = {3: 6, 4: 6, 5: 3}
PACKET_SIZES: Final = {3: 4, 4: 3, 5: 3}


class SplitMix64:
    """The deal generator (step 1 and 2 of the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed {seed} is not an integer in 0 .. 2**64 - 1")
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An unbiased integer in ``0 .. n-1``."""
        threshold = (1 << 64) % n
        x = self.next()
        while x < threshold:
            x = self.next()
        return x % n


def shuffled_pack(rng: SplitMix64) -> list[Card]:
    """Step 3: Fisher-Yates over the ordered pack; index 0 is the top card."""
    pack = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = rng.below(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
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
        seen = 0
        for card in (c for part in (*self.hands, self.chien) for c in part):
            if not 0 <= card < DECK_SIZE:
                raise ValueError(f"{card} is not a card id")
            if seen >> card & 1:
                raise ValueError(f"{card_name(card)} is dealt twice")
            seen |= 1 << card
        if seen != FULL_DECK:  # pragma: no cover - sizes and uniqueness already imply it
            raise ValueError("the deal does not hold the whole pack")

    @property
    def hand_masks(self) -> tuple[Hand, ...]:
        return tuple(mask_of(h) for h in self.hands)

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
    return Deal(players, dealer, tuple(tuple(sorted(h)) for h in hands), tuple(sorted(chien)))


def seeded_deal(seed: int, players: int, dealer: int = 0) -> Deal:
    """The deal for ``seed`` (steps 1-5 of the module docstring); never petit sec."""
    rng = SplitMix64(seed)
    while True:
        deal = deal_pack(shuffled_pack(rng), players, dealer)
        if not deal.petit_sec_seats():
            return deal
