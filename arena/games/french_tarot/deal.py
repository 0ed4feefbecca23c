"""Seeded, reproducible deals: the same seed gives the same deal on any machine, forever.

Nothing here uses :mod:`random`, whose algorithms may change between Python versions. The
algorithm is fixed and documented so that any implementation, in any language, can reproduce a
deal from its seed (golden vectors in ``tests/french_tarot/test_deal.py`` pin it):

1. - 3. **Stream, unbiased draws, shuffle**: the arena's shared seeded shuffle of the 78 cards
   in card-id order (0..77, see :mod:`arena.games.french_tarot.cards`), documented in
   :mod:`arena.games.dealing`.
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

from dataclasses import dataclass, field
from typing import Final

from ..dealing import MAX_SEED as MAX_SEED
from ..dealing import DealStream, shuffled_pack
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

HAND_SIZES: Final = {3: 24, 4: 18, 5: 15}
CHIEN_SIZES: Final = {3: 6, 4: 6, 5: 3}
PACKET_SIZES: Final = {3: 4, 4: 3, 5: 3}


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
