"""One seat's view of one table on the bot side: the game's observation, kept up to date.

The arena sends a seat's full observation only in ``TableStart`` (at the start and after a
reconnection), then events, decision requests and the table's end. The view applies each with
the game's own update rules, the same on both sides of the wire (``observation_after`` for an
event, ``observation_asked`` for a request, ``observation_at_end`` for the end: see
:class:`arena.games.base.Game`), and keeps beside the observation only what the bot side alone
knows: the table id, who holds each seat, the sequence numbers and the decisions asked.

A view is frozen: every message gives a new one. That makes it safe to hand to a decision
running in a worker thread while the connection keeps receiving events (after a timeout, the
arena plays on without waiting).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any

from arena.games import Game
from arena.games.french_tarot import (
    Action,
    Card,
    Contract,
    Deal,
    Observation,
    ShownPoignee,
)
from arena.games.frozen import builder
from arena.games.tricks import Trick
from arena.table.messages import DecisionRequest, PlayerInfo, TableEnd, TableStart


@dataclass(frozen=True, slots=True)
class TableView:
    """What one seat knows of one table now. Seats are numbered 0..players-1 in turn order.

    The game's state is :attr:`observation`. Every game's view has the properties of the
    first group below (options, dealer, phase, to_act, hand, legal_actions, tricks,
    current_trick, result), :meth:`details` reads any key of the game's view by its name
    (docs/protocol-games.md lists them), :meth:`show_score` writes a score in the game's unit;
    the second group reads French Tarot's own (bids, contract, taker, chien...).
    """

    table_id: str
    seat: int
    """This view's seat (a bot may hold several seats of one table: one view each)."""
    players: tuple[PlayerInfo, ...]
    """By seat: the bot id and name holding each seat."""
    observation: Any
    """Everything the seat may know of the deal, as the game's ``observe`` would say it. French
    Tarot's one exception: until the next public event, the other seats cannot tell that the
    taker laid the last card of its discard, so for them ``phase`` and ``to_act`` stay the
    discard's."""
    game: Game
    """The game played at this table (its TableStart says which)."""
    resumed: bool = False
    """True when this view came from a TableStart re-sent after a reconnection."""
    next_sequence: int = 0
    """Sequence number of the next event expected for this seat."""
    decisions: int = 0
    """Decision requests this seat has received at this table, the current one included."""
    deadline: float | None = None
    """When the request being answered is due, on the bot's clock (``time.perf_counter()``):
    the moment the SDK received it plus its ``time_limit`` (the bank, ``time_bank``, is not
    counted: it is a reserve for the whole table, which a bot may choose to draw on), less the
    time the transport took of the last decisions' limits, as the arena measured it
    (:class:`~clients.sdk._transport_time.TransportTime`). A decision that waited (behind another
    table's, in a worker-thread pool, behind a busy event loop) has that much less time left.
    None in a view that answers no request (or one built by hand from a request without a time
    of receipt)."""

    # ------------------------------------------------------------------------ building
    @classmethod
    def from_start(cls, start: TableStart, decisions: int = 0) -> TableView:
        """The view a TableStart gives; ``decisions`` carries the count over a resumption."""
        observation = start.view
        if isinstance(observation, Observation):
            # French Tarot's seat view on the wire cannot tell an empty discard from none.
            discard = observation.discard
            if discard is None and start.seat == observation.taker:
                discard = ()
            elif discard is not None:
                discard = tuple(sorted(discard))
            observation = dataclasses.replace(
                observation, hand=tuple(sorted(observation.hand)), discard=discard
            )
        return cls(
            table_id=start.table_id,
            seat=start.seat,
            players=start.players,
            observation=observation,
            game=start.game,
            resumed=start.resumed,
            next_sequence=start.next_sequence,
            decisions=decisions,
        )

    def with_request(
        self, request: DecisionRequest, received: float | None = None, transport: float = 0.0
    ) -> TableView:
        """The view as the arena asks this seat to decide: the request is authoritative for the
        phase, the turn, the hand and the legal actions (the next event clears those).
        ``received``: when the request arrived, on the bot's clock; less ``transport``, the
        seconds the transport is expected to take of the limit, it sets :attr:`deadline`."""
        observation = self.game.observation_asked(
            self.observation, request.phase, request.legal_actions, request.hand, request.seat
        )
        deadline = None if received is None else received + request.time_limit - transport
        return _build(self.table_id, self.seat, self.players, observation, self.game,
                      self.resumed, self.next_sequence, self.decisions + 1, deadline)

    def apply(self, event: Any, sequence: int | None = None) -> TableView:
        """The view after ``event`` (numbered ``sequence``, if given, which then sets
        ``next_sequence``): the game's ``observation_after``."""
        # Built from every field rather than by dataclasses.replace: this runs for every event.
        return _build(
            self.table_id, self.seat, self.players,
            self.game.observation_after(self.observation, event), self.game, self.resumed,
            self.next_sequence if sequence is None else sequence + 1, self.decisions, None,
        )

    def with_observation(self, observation: Any, next_sequence: int) -> TableView:
        """This view with ``observation`` (the game's, folded from it) and ``next_sequence``:
        what :meth:`apply` makes of several events in a row, built once."""
        return _build(self.table_id, self.seat, self.players, observation, self.game,
                      self.resumed, next_sequence, self.decisions, None)

    def with_end(self, end: TableEnd) -> TableView:
        """The view once the deal is over: the result, and when the deal is revealed, what the
        game then shows (French Tarot: every hand, the chien, the discard and the partner)."""
        return dataclasses.replace(self, observation=self.game.observation_at_end(
            self.observation, end.result, end.cards
        ), deadline=None)

    # ------------------------------------------------------------- every game's state
    @property
    def options(self) -> Any:
        """The table's options (French Tarot: :class:`~arena.games.french_tarot.TableOptions`);
        every game's have ``players``."""
        options = getattr(self.observation, "options", None)
        if options is None:
            options = self.game.options(len(self.players))
        return options

    @property
    def dealer(self) -> int:
        return self.observation.dealer

    @property
    def phase(self) -> Enum:
        """As far as this seat can tell (see :attr:`observation`), in the game's words (its
        ``value`` is one of ``game.declaration.phases``). French Tarot: POIGNEE only for this
        seat, from the request asking it which trump to keep out of the poignée it declared."""
        return self.observation.phase

    @property
    def to_act(self) -> int | None:
        """Whose turn it is, as far as this seat can tell (see ``phase``); None once over."""
        return self.observation.to_act

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards now, ascending."""
        return self.observation.hand

    @property
    def legal_actions(self) -> tuple[Any, ...]:
        """The legal actions of the request being answered; empty otherwise (and in a game
        whose view does not keep them: read the request's)."""
        legal: tuple[Any, ...] = getattr(self.observation, "legal_actions", ())
        return legal

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Finished tricks, in order."""
        return self.observation.tricks

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) of the trick being played, in play order."""
        return self.observation.current_trick

    @property
    def result(self) -> Any:
        """How the deal ended, once the TableEnd came (only the outcome and the scores when
        the deal is not revealed); None before. Its ``scores`` are in the game's unit
        (:meth:`show_score`)."""
        return self.observation.result

    def details(self) -> dict[str, Any]:
        """The whole view as the game's JSON object (``SeatView.details_json``): every key of
        every game, documented in docs/protocol-games.md."""
        return self.game.observation_to_json(self.observation)

    def show_score(self, score: int) -> str:
        """A score of this game for people, in points (Tre e Venticinque's thirds: ``2 1/3``)."""
        return self.game.declaration.score.show(score)

    # ------------------------------------------------------------- French Tarot's own
    @property
    def bids(self) -> tuple[tuple[int, Action], ...]:
        """(seat, pass or bid) in the order spoken."""
        return self.observation.bids

    @property
    def contract(self) -> Contract | None:
        """The highest bid so far (the contract once bidding is over)."""
        return self.observation.contract

    @property
    def taker(self) -> int | None:
        return self.observation.taker

    @property
    def called_card(self) -> Card | None:
        """Five players: the card the taker called."""
        return self.observation.called_card

    @property
    def partner(self) -> int | None:
        """Five players: the taker's partner, once the called card has been played (None when
        the taker called its own card)."""
        return self.observation.partner

    @property
    def partner_known(self) -> bool:
        """Five players: whether the partner is known to all (the called card was played, or it
        lay in the chien shown to all); with ``partner`` None it then means the taker plays
        alone."""
        return self.observation.partner_known

    @property
    def chien(self) -> tuple[Card, ...] | None:
        """The chien once shown to all (Petite, Garde), or revealed at the end; else None."""
        return self.observation.chien

    @property
    def discard(self) -> tuple[Card, ...]:
        """This seat's own discard, ascending; empty unless it is the taker."""
        return (self.observation.discard or ()) if self.is_taker else ()

    @property
    def discarded_trumps(self) -> tuple[Card, ...]:
        """Trumps the taker had to discard, shown to all."""
        return self.observation.discarded_trumps

    @property
    def chelem_announced(self) -> bool:
        return self.observation.chelem_announced

    @property
    def poignees(self) -> tuple[ShownPoignee, ...]:
        return self.observation.poignees

    @property
    def deal(self) -> Deal | None:
        """Every hand and the chien as dealt, once a revealed deal is over."""
        return self.observation.deal

    # ------------------------------------------------------------------------- reading
    @property
    def key(self) -> tuple[str, int]:
        """(table_id, seat): how the arena addresses this view's messages."""
        return (self.table_id, self.seat)

    @property
    def first_seat(self) -> int:
        """The seat after the dealer (French Tarot: bids first and, without a chelem, leads
        first; Tre e Venticinque: leads first)."""
        return (self.dealer + 1) % self.options.players

    @property
    def is_taker(self) -> bool:
        """French Tarot: this seat took (False in every game without a taker)."""
        taker = getattr(self.observation, "taker", None)
        return taker is not None and taker == self.seat

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds until :attr:`deadline` (negative once past) at ``now`` (default: the bot's
        clock, ``time.perf_counter()``); None without a deadline."""
        if self.deadline is None:
            return None
        return self.deadline - (time.perf_counter() if now is None else now)

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
        cards = set(self.hand) | set(self.discard)
        for trick in self.tricks:  # one card per hand: with two players, the dummy's too
            cards.add(trick.cards[(self.seat - trick.leader) % len(trick.cards)])
        cards.update(c for s, c in self.current_trick if s == self.seat)
        contract = self.contract
        if self.is_taker and self.chien and contract is not None and contract.chien_shown:
            cards.difference_update(self.chien)
        return tuple(sorted(cards))

    def as_observation(self, request: DecisionRequest | None = None) -> Observation:
        """The engine's :class:`~arena.games.french_tarot.Observation` of this view, with the
        legal actions of ``request`` if given, for bots written against the rules engine."""
        if request is None:
            return self.observation
        return dataclasses.replace(self.observation, legal_actions=request.legal_actions)


_build: Any = builder(TableView)
"""``TableView(*fields)``, every field given, set through the slots (:mod:`arena.games.frozen`):
the SDK makes a view per message it reads, and the constructor sets each field of a frozen
class through ``object.__setattr__``."""
