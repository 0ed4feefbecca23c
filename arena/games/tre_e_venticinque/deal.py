"""Seeded, reproducible deals of Tre e Venticinque: the same seed gives the same deal, forever.

Steps 1-3 are the arena's shared seeded shuffle (:mod:`arena.games.dealing`): the seed's
SHA-256 stream, unbiased draws, Fisher-Yates over the 78 cards in card-id order (ids as in
:mod:`arena.games.tre_e_venticinque.cards`, the same as French Tarot's, so one seed shuffles the
same pack in both games). Then:

4. **Packets.** The seed document (``seeds/002_f54b53a154123bc4.txt``) has the dealer deal five
   cards at a time, clockwise, while play goes the other way ("il gioco si svolge in senso
   contrario alla distribuzione delle carte"). Seats are numbered in the order of play, so the
   deal goes against it: 15 packets of 5 cards from the top of the pack, to seat
   ``dealer + 2``, then ``dealer + 1``, then the dealer (seats mod 3), five rounds. The seed does
   not say who receives the first packet; the engine gives it to the dealer's neighbour in the
   direction of the deal, as card players do.
5. **The talon.** The three cards left (positions 75, 76, 77 of the pack) go to the dealer, who
   then discards three face down. A deal is never shuffled again.

The arithmetic of a different packet pattern would change nothing statistically; it is fixed so
that a seed always gives the same hands (golden vectors in
``tests/tre_e_venticinque/test_deal.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..cardsets import partition_masks
from ..dealing import DealStream, pack_parts, shuffled_pack
from .cards import DECK_SIZE, Card, Hand, format_cards

PLAYERS: Final = 3
HAND_SIZE: Final = 25
PACKET: Final = 5
TALON_SIZE: Final = 3


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds what before the dealer's discard: ``hands[seat]`` as dealt (25 cards each) and
    the ``talon``, the three cards the dealer takes up, as sorted card tuples."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]
    hand_masks: tuple[Hand, ...] = field(init=False, repr=False, compare=False)
    talon_mask: Hand = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if _not_a_seat(self.dealer):
            raise ValueError(f"dealer seat {self.dealer!r} is not a seat of a 3-player table")
        if len(self.hands) != PLAYERS:
            raise ValueError(f"{len(self.hands)} hands: Tre e Venticinque is played by 3")
        for seat, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZE:
                raise ValueError(f"seat {seat} holds {len(hand)} cards, a hand has {HAND_SIZE}")
        if len(self.talon) != TALON_SIZE:
            raise ValueError(f"the talon has {len(self.talon)} cards, it must have {TALON_SIZE}")
        masks = partition_masks((*self.hands, self.talon), DECK_SIZE, format_cards)
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in self.hands))
        object.__setattr__(self, "talon", tuple(sorted(self.talon)))
        object.__setattr__(self, "hand_masks", masks[:-1])
        object.__setattr__(self, "talon_mask", masks[-1])

    def describe(self) -> str:
        lines = [f"seat {s}: {format_cards(h)}" for s, h in enumerate(self.hands)]
        return "\n".join([*lines, f"talon (to the dealer, seat {self.dealer}): "
                          f"{format_cards(self.talon)}"])


def _not_a_seat(dealer: object) -> bool:
    return isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < PLAYERS


_ORDER: Final = tuple(tuple((dealer + k) % PLAYERS for k in (2, 1, 0)) for dealer in range(3))


def deal_pack(pack: list[Card], dealer: int) -> Deal:
    """Steps 4 and 5: distribute a pack (top card first) in packets of five, the talon last."""
    if _not_a_seat(dealer):
        raise ValueError(f"dealer seat {dealer!r} is not a seat of a 3-player table")
    if sorted(pack) != list(range(DECK_SIZE)):
        raise ValueError("a pack must hold each of the 78 cards once")
    return _dealt(list(pack), dealer)  # a tuple too: the cut reads a list


def _positions(dealer: int) -> tuple[list[int], ...]:
    """Steps 4 and 5's places in the pack of each seat's cards, then the talon's."""
    parts: tuple[list[int], ...] = tuple([] for _ in range(PLAYERS + 1))
    pos = 0
    for _ in range(HAND_SIZE // PACKET):
        for seat in _ORDER[dealer]:
            parts[seat].extend(range(pos, pos + PACKET))
            pos += PACKET
    parts[PLAYERS].extend(range(pos, DECK_SIZE))
    return parts


_CUTS: Final = tuple(pack_parts(_positions(dealer), DECK_SIZE) for dealer in range(PLAYERS))


def _dealt(pack: list[Card], dealer: int) -> Deal:
    """:func:`deal_pack` of a pack known to hold every card once, for a dealer known to be a
    seat: a :class:`Deal` whose checks would find nothing, built without them."""
    parts, masks = _CUTS[dealer](pack)
    deal = object.__new__(Deal)
    setattr_ = object.__setattr__
    setattr_(deal, "dealer", dealer)
    setattr_(deal, "hands", parts[:PLAYERS])
    setattr_(deal, "talon", parts[PLAYERS])
    setattr_(deal, "hand_masks", masks[:PLAYERS])
    setattr_(deal, "talon_mask", masks[PLAYERS])
    return deal


def seeded_deal(seed: int, dealer: int = 0) -> Deal:
    """The deal for ``seed`` (steps 1-5 of the module docstring)."""
    if _not_a_seat(dealer):
        raise ValueError(f"dealer seat {dealer!r} is not a seat of a 3-player table")
    return _dealt(shuffled_pack(DealStream(seed)), dealer)
