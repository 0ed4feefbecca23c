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

**Two players and the dummy.** The table has three hands, and seat numbers name the roles of
the deal: seat 0 is the non-dealer (speaks and leads first), seat 1 the dealer, seat 2 the
dummy (:data:`DUMMY`), so that the turn order the rules ask for (non-dealer, dealer, dummy) is
the plain seat order 0, 1, 2 and every "next seat" is ``(seat + 1) % 3`` as at any table. The
dealer is therefore always seat 1 (:data:`DUMMY_DEALER`); the two players take turns at dealing
by changing seats from one deal to the next. The pack is dealt exactly as for three players
(steps 1-5, packets of 4, a chien of 6) to seats 0, 1 and 2 in that order: the same three hands,
seat for seat, as the 3-player deal of the same seed dealt by seat 2. The dummy's hand is a hand
like any other for step 5: a petit sec there is skipped too (a Petit without a trump or the
Excuse to keep it is lost by force, whoever plays it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..cardsets import partition_masks
from ..dealing import MAX_SEED as MAX_SEED
from ..dealing import DealStream, pack_parts, shuffled_pack
from .cards import (
    DECK_SIZE,
    EXCUSE_BIT,
    PETIT_BIT,
    TRUMP_MASK,
    Card,
    Hand,
    format_cards,
)

SEATS: Final = {2: 3, 3: 3, 4: 4, 5: 5}
"""Hands at the table, by number of players: two players play with a third hand, the dummy."""
HAND_SIZES: Final = {2: 24, 3: 24, 4: 18, 5: 15}
CHIEN_SIZES: Final = {2: 6, 3: 6, 4: 6, 5: 3}
PACKET_SIZES: Final = {2: 4, 3: 4, 4: 3, 5: 3}
DUMMY: Final = 2
"""The dummy's seat at a two-player table (see the module docstring)."""
DUMMY_DEALER: Final = 1
"""The dealer's seat at a two-player table: the seat before the dummy."""


def player_count_error(players: object) -> str:
    return f"French Tarot is played by 2 (with the dummy), 3, 4 or 5 players, not {players}"


def first_seat(players: int, dealer: int) -> int:
    """The seat that receives the first packet, speaks first and leads first (without a chelem):
    the seat after the dealer, which with two players is the non-dealer, seat 0."""
    return 0 if players == 2 else (dealer + 1) % players


def dealer_seats(players: int) -> tuple[int, ...]:
    """The seats that may deal: any, except with two players, where seat 1 always deals."""
    return (DUMMY_DEALER,) if players == 2 else tuple(range(players))


def _chien_after_packets(players: int) -> frozenset[int]:
    chien = CHIEN_SIZES[players]
    packets = HAND_SIZES[players] * SEATS[players] // PACKET_SIZES[players]
    return frozenset(k * packets // (chien + 1) for k in range(1, chien + 1))


_CHIEN_AFTER: Final = {n: _chien_after_packets(n) for n in HAND_SIZES}


_PETIT_SEC_TEST: Final = TRUMP_MASK | EXCUSE_BIT


def is_petit_sec(hand: Hand) -> bool:
    """The Petit is the hand's only trump and the hand has no Excuse."""
    return hand & _PETIT_SEC_TEST == PETIT_BIT


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds what before bidding: ``hands[seat]`` and the ``chien``, as sorted card tuples.

    ``players`` is the number of players; with two, ``hands`` holds a third hand, the dummy's
    (seat :data:`DUMMY`), and the dealer is seat :data:`DUMMY_DEALER`.
    """

    players: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    chien: tuple[Card, ...]
    hand_masks: tuple[Hand, ...] = field(init=False, repr=False, compare=False)
    chien_mask: Hand = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.players
        if n not in HAND_SIZES:
            raise ValueError(player_count_error(n))
        seats = SEATS[n]
        dealer_seat_error = _dealer_error(n, self.dealer)
        if dealer_seat_error:
            raise ValueError(dealer_seat_error)
        if len(self.hands) != seats:
            if n == 2:
                raise ValueError(f"{len(self.hands)} hands for 2 players: with the dummy a deal "
                                 "has 3")
            raise ValueError(f"{len(self.hands)} hands for {n} players")
        for seat, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZES[n]:
                raise ValueError(
                    f"seat {seat} holds {len(hand)} cards, a {n}-player hand has {HAND_SIZES[n]}"
                )
        if len(self.chien) != CHIEN_SIZES[n]:
            raise ValueError(f"the chien has {len(self.chien)} cards, it must have "
                             f"{CHIEN_SIZES[n]} with {n} players")
        masks = partition_masks((*self.hands, self.chien), DECK_SIZE, format_cards)
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in self.hands))
        object.__setattr__(self, "chien", tuple(sorted(self.chien)))
        object.__setattr__(self, "hand_masks", masks[:-1])
        object.__setattr__(self, "chien_mask", masks[-1])

    @property
    def seats(self) -> int:
        """Hands at the table: the players', and with two players the dummy's."""
        return SEATS[self.players]

    def petit_sec_seats(self) -> list[int]:
        return [seat for seat, hand in enumerate(self.hand_masks) if is_petit_sec(hand)]

    def describe(self) -> str:
        lines = [
            f"{'dummy' if self.players == 2 and s == DUMMY else 'seat'} {s}: {format_cards(h)}"
            for s, h in enumerate(self.hands)
        ]
        return "\n".join([*lines, f"chien: {format_cards(self.chien)}"])


def _positions(players: int) -> tuple[list[int], ...]:
    """Step 4's places in the pack of each hand's cards, hands in the order they are dealt to
    (the first seat's first), then the chien's."""
    size = PACKET_SIZES[players]
    chien_after = _CHIEN_AFTER[players]
    seats = SEATS[players]
    parts: tuple[list[int], ...] = tuple([] for _ in range(seats + 1))
    pos = 0
    packets = HAND_SIZES[players] * seats // size
    for number in range(1, packets + 1):
        parts[(number - 1) % seats].extend(range(pos, pos + size))
        pos += size
        if number in chien_after:
            parts[seats].append(pos)
            pos += 1
    return parts


_CUTS: Final = {n: pack_parts(_positions(n), DECK_SIZE) for n in HAND_SIZES}
_DEALT_ORDER: Final = {
    (n, first): tuple((seat - first) % SEATS[n] for seat in range(SEATS[n]))
    for n in HAND_SIZES
    for first in range(SEATS[n])
}
"""By player count and first seat: for each seat, the rank of its hand in the dealing order."""


def deal_pack(pack: list[Card], players: int, dealer: int) -> Deal:
    """Step 4: distribute a pack (top card first) in packets, chien cards one at a time."""
    if players not in HAND_SIZES:
        raise ValueError(player_count_error(players))
    if sorted(pack) != list(range(DECK_SIZE)):
        raise ValueError("a pack must hold each of the 78 cards once")
    dealer_seat_error = _dealer_error(players, dealer)
    if dealer_seat_error:
        raise ValueError(dealer_seat_error)
    return _dealt(list(pack), players, dealer)  # a tuple too: the cut reads a list


def _dealer_error(players: int, dealer: int) -> str:
    """Why ``dealer`` cannot deal at a table of ``players``; empty when it can."""
    if players == 2 and dealer != DUMMY_DEALER:
        return (f"dealer seat {dealer}: with two players seat {DUMMY_DEALER} deals (seat 0 is the "
                f"non-dealer, seat {DUMMY} the dummy); the players take turns at dealing by "
                "changing seats")
    if not 0 <= dealer < players:
        return f"dealer seat {dealer} is not a seat of a {players}-player table"
    return ""


def _dealt(pack: list[Card], players: int, dealer: int) -> Deal:
    """:func:`deal_pack` of a pack known to hold every card once, for a dealer known to be
    one: a :class:`Deal` whose checks would find nothing, built without them."""
    parts, masks = _CUTS[players](pack)
    order = _DEALT_ORDER[players, first_seat(players, dealer)]
    deal = object.__new__(Deal)
    setattr_ = object.__setattr__
    setattr_(deal, "players", players)
    setattr_(deal, "dealer", dealer)
    setattr_(deal, "hands", tuple([parts[rank] for rank in order]))
    setattr_(deal, "chien", parts[-1])
    setattr_(deal, "hand_masks", tuple([masks[rank] for rank in order]))
    setattr_(deal, "chien_mask", masks[-1])
    return deal


def seeded_deal(seed: int, players: int, dealer: int | None = None) -> Deal:
    """The deal for ``seed`` (steps 1-5 of the module docstring); never petit sec.

    ``dealer`` None: the first seat that may deal (seat 0; with two players seat 1)."""
    if players not in HAND_SIZES:
        raise ValueError(player_count_error(players))
    if dealer is None:
        dealer = dealer_seats(players)[0]
    dealer_seat_error = _dealer_error(players, dealer)
    if dealer_seat_error:
        raise ValueError(dealer_seat_error)
    stream = DealStream(seed)
    while True:
        deal = _dealt(shuffled_pack(stream), players, dealer)
        for hand in deal.hand_masks:
            if hand & _PETIT_SEC_TEST == PETIT_BIT:
                break
        else:
            return deal
