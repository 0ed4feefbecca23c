"""The one interface the arena speaks to a game: what the table runner, the protocol, storage,
tournaments and the bot SDK may ask of any game, and nothing more.

In the spirit of OpenSpiel's Game/State and python-chess's single source of legal moves: a game
is an object (one per game, stateless) whose methods take and change a state object of its own.
The arena never looks inside a state except through these methods and the few attributes of
:class:`State`, so a new game is one package under ``arena.games`` plus its tests; the toy game
in ``tests/toy_game`` proves it by playing a tournament over gRPC with nothing else changed.

Cards are integers ``0 .. deck_size - 1`` in the game's own order, named by ``card_name``.
Actions are the game's own immutable objects; each has a text form (``format_action`` /
``parse_action``, used in records and accepted on the wire) and a neutral wire form
(:class:`WireAction`, one of the protocol's action kinds with its argument). Events are the
game's own immutable objects; a seat's :class:`Observation`-like view is rebuilt from them by
``observation_after``, the same function on both sides of the wire.

Like the games, this module is pure: no I/O, no trio, grpc, protobuf or database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, Protocol, runtime_checkable

Card = int
"""A card: its index in the game's deck, ``0 .. deck_size - 1``."""

EVERYONE: Final = None
"""The recipient of an event that every seat receives."""


class IllegalActionError(ValueError):
    """An action the rules do not allow now; ``reason`` says why in plain words."""

    def __init__(self, reason: str, action: object = None, seat: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.action = action
        self.seat = seat


class WrongTurnError(IllegalActionError):
    """A seat tried to act when it is not its turn."""


WIRE_KINDS: Final = (
    "pass", "bid", "call", "discard", "chelem", "poignee", "play", "hide",
)
"""The protocol's action kinds (the fields of ``Action.kind`` other than ``notation``).

A game maps each of its actions to one kind and an integer argument: the card for ``call``,
``discard``, ``play`` and ``hide``, the protocol's enum value for ``bid`` and ``poignee``, 1 or
0 for ``chelem``, 0 for ``pass``. A game whose action fits none of them uses ``notation`` (its
text form) on the wire; the protocol grows a kind only when a game needs it."""


@dataclass(frozen=True, slots=True)
class WireAction:
    kind: str
    """One of :data:`WIRE_KINDS`, or ``"notation"`` with the text in ``text``."""
    argument: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class Revealed:
    """The cards of a finished deal, shown to every seat at its end (unless a competition
    holds them back): the hands as dealt, the cards dealt to no hand (French Tarot's chien),
    and the cards a player put aside (the taker's discard)."""

    hands: tuple[tuple[Card, ...], ...]
    undealt: tuple[Card, ...]
    discard: tuple[Card, ...]


@runtime_checkable
class State(Protocol):
    """What the arena reads of a deal in progress. Everything else is the game's business."""

    @property
    def game(self) -> Game:
        """The game this is a deal of (OpenSpiel's ``get_game``): what a layer holding only a
        state asks for everything else."""
        ...

    @property
    def players(self) -> int:
        """The players at the table, one bot each (a player may also decide for a seat of no
        player of its own: see :meth:`Game.decider`)."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def options(self) -> Any:
        """The table options the deal was made with."""
        ...

    @property
    def phase(self) -> Enum:
        """Where the deal stands, in the game's words; its ``value`` is a lowercase name, and
        the protocol's Phase of the same name (if any) carries it."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to decide now; None once the deal is over."""
        ...

    @property
    def is_over(self) -> bool: ...


class Result(Protocol):
    """How a deal ended: per-seat scores (zero-sum in every game so far) and the outcome."""

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def outcome(self) -> Enum: ...


class Record(Protocol):
    """A game's deal record: plain JSON, with the game's own ``format`` field, that replays."""

    @property
    def result(self) -> Any:
        """The result the record states (None for a deal not finished)."""
        ...

    @property
    def actions(self) -> tuple[tuple[int, Any], ...]:
        """(seat, action) in the order played."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    def dumps(self, indent: int | None = None) -> str: ...


@runtime_checkable
class Game(Protocol):
    """One card game of the arena. Implementations are stateless singletons; every method that
    takes a state reads or changes only that state."""

    @property
    def name(self) -> str:
        """Stable identifier, on the wire, in storage and on the command line
        (``french-tarot``)."""
        ...

    @property
    def title(self) -> str:
        """For people (``French Tarot``)."""
        ...

    @property
    def deck_size(self) -> int: ...

    @property
    def record_format(self) -> str:
        """The ``format`` field of this game's deal records (``tarot-arena/deal-record/1``)."""
        ...

    # -- tables -------------------------------------------------------------------------------
    def seat_counts(self) -> tuple[int, ...]:
        """The table sizes this game is played at."""
        ...

    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> Any:
        """The table options for ``players`` seats and the game's own settings (as stored in
        JSON: e.g. French Tarot's ``beginner`` and ``direction``); ValueError names a bad one."""
        ...

    def options_to_json(self, options: Any) -> dict[str, Any]:
        """``options`` as plain JSON, ``players`` included; ``options_from_json`` reverses it."""
        ...

    def options_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def players_of(self, options: Any) -> int: ...

    def dealer_of(self, options: Any, board: int) -> int:
        """The dealer of board ``board`` (0, 1, 2...) of a competition at tables of ``options``:
        the seats that may deal, in turn (every seat for most games; French Tarot with the
        dummy: seat 1, always)."""
        ...

    def new_deal(self, seed: int, options: Any, dealer: int = 0) -> State:
        """The deal of ``seed`` (every game uses the documented stream of ``arena.games.dealing``
        and documents how it deals from it), ready for its first decision."""
        ...

    # -- rules --------------------------------------------------------------------------------
    def decider(self, state: Any) -> int | None:
        """The player who decides now: the seat to act, except where a player decides for
        another seat (French Tarot with the dummy: the defender plays the dummy's cards). The
        arena asks that player's bot, counts the time against it and charges it with any
        infraction. None once the deal is over."""
        ...

    def legal_actions(self, state: Any) -> tuple[Any, ...]:
        """Every action the seat to act may take now, in a fixed order; empty once over."""
        ...

    def apply(self, state: Any, action: Any, seat: int | None = None) -> None:
        """Apply a legal action of ``seat`` (default: the seat to act). Raises
        :class:`WrongTurnError` or :class:`IllegalActionError`, leaving the state unchanged."""
        ...

    def explain_illegal(self, state: Any, action: Any) -> str:
        """Why ``action`` (not among the legal ones) is refused now, in plain words."""
        ...

    def fallback_action(self, state: Any) -> Any:
        """The documented, deterministic action the arena plays for a seat that did not answer
        properly."""
        ...

    def decision_kind(self, state: Any) -> str:
        """What the seat to act decides, as one of the protocol's decision kinds (``bid``,
        ``call``, ``discard``, ``chelem``, ``play``, ``poignee``)."""
        ...

    def decision_phase(self, kind: str) -> Any:
        """The phase in which decisions of ``kind`` are made (a bot hears only the kind);
        ValueError for a kind this game has not."""
        ...

    def hand(self, state: Any, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, ascending."""
        ...

    def result(self, state: Any) -> Result | None: ...

    def revealed(self, state: Any) -> Revealed:
        """Every card of the deal, as shown at its end."""
        ...

    # -- what seats see -----------------------------------------------------------------------
    def observe(self, state: Any, seat: int) -> Any:
        """Everything ``seat`` may see now, and nothing else."""
        ...

    def sealed_observation(self, state: Any, seat: int) -> Any:
        """``observe`` once the deal is over, without what only its end reveals (the board is
        still being played at other tables of a competition)."""
        ...

    def sealed_result(self, result: Any) -> Any:
        """What a seat is told of a deal's end when the deal is not revealed: the outcome and
        the scores only (``bare_result`` of them)."""
        ...

    def bare_result(self, outcome: str, scores: Sequence[int]) -> Any:
        """A result that holds only how the deal ended (an outcome's ``value``) and the scores:
        what the wire carries of a deal that is not revealed. ValueError for an unknown
        outcome."""
        ...

    def events_after(
        self, state: Any, actor: int, action: Any, before: Any
    ) -> Sequence[tuple[int | None, Any]]:
        """The events ``action`` (just applied) causes, each with its recipient seat or
        :data:`EVERYONE`. ``before`` is what :meth:`event_mark` returned just before."""
        ...

    def event_mark(self, state: Any) -> Any:
        """A cheap snapshot taken before an action, for :meth:`events_after`."""
        ...

    def observation_after(self, observation: Any, event: Any) -> Any:
        """A seat's observation after one event it received: the bot side's only update rule,
        checked against ``observe`` over many random deals."""
        ...

    def observation_asked(
        self, observation: Any, phase: Any, legal: tuple[Any, ...], hand: tuple[Card, ...],
        seat: int,
    ) -> Any:
        """A player's observation as the arena asks it to decide for ``seat``, the seat to act:
        the request is authoritative for the phase, the turn, the hand and the legal actions.
        ``seat`` is the observation's own, except where a player decides for another seat
        (:meth:`decider`): ``hand`` is then that seat's, not the player's own. From there, the
        player sees exactly what ``observe`` says (the contract tests check it)."""
        ...

    def observation_at_end(
        self, observation: Any, result: Any, cards: Revealed | None = None
    ) -> Any:
        """A seat's observation once it is told how the deal ended, and the cards if they are
        revealed."""
        ...

    def observation_to_json(self, observation: Any) -> dict[str, Any]:
        """The generic wire form of an observation (see :mod:`arena.games.jsonform`)."""
        ...

    def observation_from_json(self, data: Any) -> Any:
        """ValueError names the first bad field."""
        ...

    def event_to_json(self, event: Any) -> tuple[str, dict[str, Any]]:
        """The generic wire form of an event: its kind (``card-played``) and its fields."""
        ...

    def event_from_json(self, kind: str, data: Any) -> Any: ...

    # -- notation and records -----------------------------------------------------------------
    def card_name(self, card: Card) -> str: ...

    def parse_card(self, text: str) -> Card: ...

    def format_action(self, action: Any) -> str: ...

    def parse_action(self, text: str) -> Any: ...

    def action_to_wire(self, action: Any) -> WireAction: ...

    def action_from_wire(self, wire: WireAction) -> Any:
        """The action a wire form stands for; ValueError says why it stands for none."""
        ...

    def record(self, state: Any, seed: int | None = None) -> Record:
        """The deal so far as the game's deal record."""
        ...

    def load_record(self, data: Mapping[str, Any]) -> Record:
        """A deal record from its JSON, checked but not replayed; ValueError says what is
        malformed."""
        ...

    def replay(self, record: Any, check_result: bool = True) -> State:
        """The final state of a deal record played through the rules; ValueError says which
        action is illegal or what differs."""
        ...


class MatchScore(Protocol):
    """The totals of a match (see :class:`ScoresMatches`)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match (more than one on a tie)."""
        ...

    def points(self, seat: int) -> str:
        """A seat's total, written as the game writes points."""
        ...


@runtime_checkable
class ScoresMatches(Protocol):
    """A game whose own rules score a match of several deals, beside the arena's duplicate
    ranking (Tre e Venticinque: a game is three deals, one per dealer). Optional: the reports
    show matches for the games that have this."""

    @property
    def match_deals(self) -> int:
        """Deals in a match, dealt by seats 0, 1, 2... in turn (boards k, k+1... of a
        tournament whose first board ``k`` is a multiple of it)."""
        ...

    def score_match(self, results: Sequence[Any]) -> MatchScore:
        """The match of these deals' results, in dealing order; ValueError if they are not
        one."""
        ...
