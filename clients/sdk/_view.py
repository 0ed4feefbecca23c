"""One seat's view of one table on the bot side, rebuilt from what the arena sends.

The arena sends a full :class:`~arena.games.french_tarot.Observation` only in ``TableStart`` (at the
start and after a reconnection) and then public events; this module replays those events so that a
bot always sees the table as it is now, without keeping its own bookkeeping.

A view is frozen: every event gives a new one. That makes it safe to hand to a decision running
in a worker thread while the connection keeps receiving events (after a timeout, the arena plays
on without waiting), and makes the update rules easy to test against the engine's own
:func:`~arena.games.french_tarot.observe`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from arena.games.french_tarot import (
    Action,
    Bid,
    Card,
    Contract,
    Observation,
    Phase,
    ShownPoignee,
    TableOptions,
    Trick,
)
from arena.games.french_tarot.deal import CHIEN_SIZES, HAND_SIZES
from arena.table.messages import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DecisionRequest,
    Event,
    PartnerRevealed,
    PlayerInfo,
    PoigneeShown,
    TableStart,
    TrickWon,
    TrumpDiscarded,
)


@dataclass(frozen=True, slots=True)
class TableView:
    """What one seat knows of one table now. Seats are numbered 0..players-1 in turn order."""

    table_id: str
    seat: int
    """This view's seat (a bot may hold several seats of one table: one view each)."""
    options: TableOptions
    dealer: int
    players: tuple[PlayerInfo, ...]
    """By seat: the bot id and name holding each seat."""
    phase: Phase
    """As far as this seat can tell: the others cannot see the taker's last discard, so for them
    the phase stays DISCARDING until the chelem decision or the first card. POIGNEE only for
    this seat, from the request asking it which trump to keep out of the poignée it declared."""
    to_act: int | None
    """Whose turn it is, as far as this seat can tell (see ``phase``); None once over."""
    hand: tuple[Card, ...]
    """This seat's cards now, ascending."""
    bids: tuple[tuple[int, Action], ...]
    """(seat, pass or bid) in the order spoken."""
    contract: Contract | None
    """The highest bid so far (the contract once bidding is over)."""
    taker: int | None
    called_card: Card | None
    """Five players: the card the taker called."""
    partner: int | None
    """Five players: the taker's partner, once the called card has been played (None when the
    taker called its own card)."""
    partner_known: bool
    """Five players: whether the partner is known to all (the called card was played, or it lay
    in the chien shown to all); with ``partner`` None it then means the taker plays alone."""
    chien: tuple[Card, ...] | None
    """The chien once shown to all (Petite, Garde); None otherwise."""
    discard: tuple[Card, ...]
    """This seat's own discard, ascending; empty unless it is the taker."""
    discarded_trumps: tuple[Card, ...]
    """Trumps the taker had to discard, shown to all."""
    chelem_announced: bool
    poignees: tuple[ShownPoignee, ...]
    tricks: tuple[Trick, ...]
    """Finished tricks, in order."""
    current_trick: tuple[tuple[int, Card], ...]
    """(seat, card) of the trick being played, in play order."""
    resumed: bool = False
    """True when this view came from a TableStart re-sent after a reconnection."""
    next_sequence: int = 0
    """Sequence number of the next event expected for this seat."""
    decisions: int = 0
    """Decision requests this seat has received at this table, the current one included."""

    # ------------------------------------------------------------------------ building
    @classmethod
    def from_start(cls, start: TableStart, decisions: int = 0) -> TableView:
        """The view a TableStart gives; ``decisions`` carries the count over a resumption."""
        view = start.view
        return cls(
            table_id=start.table_id,
            seat=start.seat,
            options=start.options,
            dealer=start.dealer,
            players=start.players,
            phase=view.phase,
            to_act=view.to_act,
            hand=tuple(sorted(view.hand)),
            bids=view.bids,
            contract=view.contract,
            taker=view.taker,
            called_card=view.called_card,
            partner=view.partner,
            partner_known=view.partner_known,
            chien=view.chien,
            discard=tuple(sorted(view.discard or ())),
            discarded_trumps=view.discarded_trumps,
            chelem_announced=view.chelem_announced,
            poignees=view.poignees,
            tricks=view.tricks,
            current_trick=view.current_trick,
            resumed=start.resumed,
            next_sequence=start.next_sequence,
            decisions=decisions,
        )

    def with_request(self, request: DecisionRequest) -> TableView:
        """The view as the arena asks this seat to decide: the request is authoritative."""
        return dataclasses.replace(
            self, phase=request.phase, to_act=request.seat, hand=tuple(sorted(request.hand)),
            decisions=self.decisions + 1,
        )

    def apply(self, event: Event, sequence: int | None = None) -> TableView:
        """The view after ``event`` (numbered ``sequence``, if given, which then sets
        ``next_sequence``): the rules' transitions, as far as this seat can see them."""
        changes = self._changes(event)
        if sequence is not None:
            changes["next_sequence"] = sequence + 1
        return dataclasses.replace(self, **changes)

    def _changes(self, event: Event) -> dict[str, Any]:
        n = self.options.players
        if isinstance(event, CardPlayed):
            hand = _without(self.hand, event.card) if event.seat == self.seat else self.hand
            return {"phase": Phase.PLAYING, "hand": hand, "to_act": (event.seat + 1) % n,
                    "current_trick": (*self.current_trick, (event.seat, event.card))}
        if isinstance(event, TrickWon):
            tricks = (*self.tricks, event.trick)
            over = len(tricks) == HAND_SIZES[n]
            return {"tricks": tricks, "current_trick": (),
                    "phase": Phase.FINISHED if over else Phase.PLAYING,
                    "to_act": None if over else event.trick.winner}
        if isinstance(event, BidMade):
            changes: dict[str, Any] = {"bids": (*self.bids, (event.seat, event.action))}
            contract, taker = self.contract, self.taker
            if isinstance(event.action, Bid):
                contract, taker = event.action.contract, event.seat
                changes.update(contract=contract, taker=taker)
            if len(changes["bids"]) < n:
                changes["to_act"] = (event.seat + 1) % n
            elif contract is None:
                changes.update(phase=Phase.FINISHED, to_act=None)
            elif n == 5:
                changes.update(phase=Phase.CALLING, to_act=taker)
            else:
                changes.update(self._after_call(contract, taker))
            return changes
        if isinstance(event, CardCalled):
            return {"called_card": event.card, **self._after_call(self.contract, self.taker)}
        if isinstance(event, ChienShown):
            changes: dict[str, Any] = {"chien": event.cards}
            if self.called_card in event.cards:  # the taker called a card of the chien: alone
                changes["partner_known"] = True
            if self.seat == self.taker:
                changes["hand"] = tuple(sorted((*self.hand, *event.cards)))
            return changes
        if isinstance(event, CardDiscarded):
            discard = tuple(sorted((*self.discard, event.card)))
            changes = {"hand": _without(self.hand, event.card), "discard": discard}
            if len(discard) == CHIEN_SIZES[n]:
                changes.update(self._ask_chelem(self.taker))
            return changes
        if isinstance(event, TrumpDiscarded):
            return {"discarded_trumps": (*self.discarded_trumps, event.card)}
        if isinstance(event, ChelemDecided):
            leader = self.taker if event.announce else self.first_seat
            return {"chelem_announced": event.announce, "phase": Phase.PLAYING, "to_act": leader}
        if isinstance(event, PoigneeShown):
            changes = {"poignees": (*self.poignees, event.poignee)}
            if self.phase is Phase.POIGNEE:  # this seat hid its last extra trump: it plays now
                changes["phase"] = Phase.PLAYING
            return changes
        if isinstance(event, PartnerRevealed):
            return {"partner": None if event.seat == self.taker else event.seat,
                    "partner_known": True}
        raise TypeError(f"not an event: {event!r}")  # pragma: no cover - the union is closed

    def _after_call(self, contract: Contract | None, taker: int | None) -> dict[str, Any]:
        assert contract is not None
        if contract.chien_shown:  # the chien is shown next (a ChienShown event)
            return {"phase": Phase.DISCARDING, "to_act": taker}
        return self._ask_chelem(taker)

    def _ask_chelem(self, taker: int | None) -> dict[str, Any]:
        if self.options.beginner:  # no chelem question: the seat after the dealer leads
            return {"phase": Phase.PLAYING, "to_act": self.first_seat}
        return {"phase": Phase.CHELEM, "to_act": taker}

    # ------------------------------------------------------------------------- reading
    @property
    def key(self) -> tuple[str, int]:
        """(table_id, seat): how the arena addresses this view's messages."""
        return (self.table_id, self.seat)

    @property
    def first_seat(self) -> int:
        """The seat after the dealer: bids first and, without a chelem, leads first."""
        return (self.dealer + 1) % self.options.players

    @property
    def is_taker(self) -> bool:
        return self.taker is not None and self.taker == self.seat

    def name_of(self, seat: int) -> str:
        """The bot name at ``seat`` ("" if unknown)."""
        return next((p.bot_name for p in self.players if p.seat == seat), "")

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far: finished tricks, then the current trick."""
        return (
            *(c for t in self.tricks for c in t.cards), *(c for _, c in self.current_trick)
        )

    def dealt_hand(self) -> tuple[Card, ...]:
        """This seat's hand as dealt: what it holds, played and discarded, less a taken chien.

        It identifies the board and seat whatever the table id, so a deterministic bot can key
        its choices on it and play the same way in every tournament with the same boards.
        """
        n = self.options.players
        cards = set(self.hand) | set(self.discard)
        for trick in self.tricks:
            mine = (self.seat - trick.leader) % n
            cards.add(trick.cards[mine])
        cards.update(c for s, c in self.current_trick if s == self.seat)
        if self.taker == self.seat and self.chien:
            cards.difference_update(self.chien)
        return tuple(sorted(cards))

    def as_observation(self, request: DecisionRequest | None = None) -> Observation:
        """This view as the engine's :class:`~arena.games.french_tarot.Observation`, with the legal
        actions of ``request`` if given, for bots written against the rules engine."""
        return Observation(
            seat=self.seat, options=self.options, dealer=self.dealer, phase=self.phase,
            to_act=self.to_act, hand=self.hand,
            legal_actions=request.legal_actions if request is not None else (),
            bids=self.bids, contract=self.contract, taker=self.taker,
            called_card=self.called_card, partner=self.partner,
            partner_known=self.partner_known, chien=self.chien,
            discard=self.discard if self.is_taker else None,
            discarded_trumps=self.discarded_trumps, chelem_announced=self.chelem_announced,
            poignees=self.poignees, tricks=self.tricks, current_trick=self.current_trick,
            result=None, deal=None,
        )


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c != card)
