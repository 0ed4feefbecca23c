"""The one interface the arena speaks to a game: what the table runner, the protocol, storage,
tournaments and the bot SDK may ask of any game, and nothing more.

In the spirit of OpenSpiel's Game/State and python-chess's single source of legal moves: a game
is an object (one per game, stateless) whose methods take and change a state object of its own.
The arena never looks inside a state except through these methods and the few attributes of
:class:`State`, so a new game is one package plus its registration; the toy game in
``tests/toy_game`` proves it by playing a tournament over gRPC with nothing else changed.

The interface is small pieces, each a typed Protocol over the game's own types (its state
``S``, action ``A``, event ``E``, observation ``O``, table options ``P`` and result ``R``):

- :class:`Declaration`: what a game says of itself (names, seats, deck, phases, decisions, its
  score's unit, zero- or constant-sum, its settings, its events and view keys), plain data that
  every surface and the protocol's documentation are written from;
- :class:`Tables` and :class:`Rules`: the core (a deal from a seed, who decides, the legal
  actions, ``apply`` returning the events it caused, the result);
- :class:`Views`: what each seat observes, and how a bot keeps that view from the events;
- the capabilities :class:`Notation` (text forms), :class:`WireForms` (the generic JSON and
  action forms of the protocol), :class:`Records` (deal records that replay) and
  :class:`Sealing` (what a seat is told of a deal still played at other tables);
- :class:`Game`, all of them: what the arena hosts. :class:`ScoresMatches` is optional.

:mod:`arena.games.kit` implements most of it for a card game from its engine's functions, so
that a game's own definition holds only what is its own.

Cards are integers ``0 .. deck_size - 1`` in the game's own order, named by ``card_name``.
Actions are the game's own immutable objects; each has a text form (``format_action`` /
``parse_action``, used in records and accepted on the wire) and a neutral wire form
(:class:`WireAction`, one of the protocol's action kinds with its argument).

Like the games, this module is pure: no I/O, no trio, grpc, protobuf or database.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

Card = int
"""A card: its index in the game's deck, ``0 .. deck_size - 1``."""

EVERYONE: Final = None
"""The recipient of an event that every seat receives."""

S = TypeVar("S", bound="State")
A = TypeVar("A", bound=Hashable)
E = TypeVar("E")
O = TypeVar("O")  # noqa: E741 - the observation, as OpenSpiel names it
P = TypeVar("P")
R = TypeVar("R", bound="Result")
S_co = TypeVar("S_co", bound="State", covariant=True)
S_contra = TypeVar("S_contra", bound="State", contravariant=True)
E_co = TypeVar("E_co", covariant=True)
E_contra = TypeVar("E_contra", contravariant=True)
O_co = TypeVar("O_co", covariant=True)
R_co = TypeVar("R_co", bound="Result", covariant=True)
R_contra = TypeVar("R_contra", bound="Result", contravariant=True)
A_contra = TypeVar("A_contra", bound=Hashable, contravariant=True)

Addressed = tuple[int | None, E]
"""An event with its recipient: a seat, or :data:`EVERYONE`."""


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

CARD_KINDS: Final = frozenset({"call", "discard", "play", "hide"})
"""The wire kinds whose argument is a card."""


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


# ------------------------------------------------------------------------- declaration

class ScoreSum(Enum):
    """What every deal's scores add up to."""

    ZERO = "zero-sum"
    CONSTANT = "constant-sum"


@dataclass(frozen=True, slots=True)
class ScoreUnit:
    """The unit a game's integer scores count in, and how people read them. The arena stores,
    compares and averages the integers as they are; this says what one of them is worth, for
    the wire's offer, the docs and every label and figure shown.

    French Tarot scores whole points; Tre e Venticinque counts thirds of a point so that every
    sum is exact (a score of 7 is 2 1/3 points). ``name``: the unit as a column or axis label
    (``points``, ``thirds``); ``long_name``: the same in full words (``thirds of a point``,
    ``name`` when not given); ``per_point``: units in a point."""

    name: str = "points"
    long_name: str = ""
    per_point: int = 1

    def __post_init__(self) -> None:
        if self.per_point < 1:
            raise ValueError(f"per_point must be 1 or more, not {self.per_point}")
        if not self.long_name:
            object.__setattr__(self, "long_name", self.name)

    @property
    def in_points(self) -> bool:
        """Whether a score unit is a whole point (the figures then need no conversion)."""
        return self.per_point == 1

    def show(self, score: int) -> str:
        """A score in points for people: ``25``, ``-3``, ``25 1/3``, ``-2/3``."""
        if self.per_point == 1:
            return str(score)
        sign = "-" if score < 0 else ""
        exact = Fraction(abs(score), self.per_point)
        whole, rest = divmod(exact.numerator, exact.denominator)
        if not rest:
            return f"{sign}{whole}"
        fraction = f"{rest}/{exact.denominator}"
        return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"

    def format(self, value: float, digits: int = 0) -> str:
        """A score or a mean of scores, signed, in this unit: ``+25``, ``-3.4``."""
        if not math.isfinite(value):
            return "n/a"
        text = f"{value:+.{digits}f}"
        return "0" if text.strip("+-0.") == "" else text

    def points(self, value: int) -> str:
        """An exact score in the game's points, signed, fractions as the game writes them
        (``+8 1/3`` for 25 thirds); the score itself for a unit of one point."""
        if not value:
            return "0"
        return ("+" if value > 0 else "") + self.show(value)

    def labelled(self, value: int) -> str:
        """An exact score with its unit, and its value in points when the unit is not one:
        ``+25 thirds (+8 1/3 points)``, ``+40 points``."""
        if self.in_points:
            return f"{self.points(value)} {self.name}"
        return f"{value:+d} {self.name} ({self.points(value)} points)"


POINTS: Final = ScoreUnit()
"""Scores counted in whole points (French Tarot, and any game that says nothing)."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One table setting of a game (French Tarot's ``beginner``), as stored in JSON."""

    name: str
    default: object
    choices: tuple[object, ...]
    """Every value allowed (``(False, True)`` for a switch)."""
    meaning: str


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of event a game sends (``card-played``), its JSON keys, and who receives it."""

    kind: str
    keys: tuple[str, ...]
    meaning: str
    """When it is sent, and to whom (written in the protocol's documentation)."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a game says of itself: plain data, read by every surface (the CLI, the web pages,
    the protocol's ``Welcome`` and its generated documentation) instead of code written for one
    game. :func:`arena.games.kit.declare` fills the deck's names, events and view keys from the
    engine's own types, so that the declaration cannot drift from what the game sends."""

    name: str
    """Stable identifier, on the wire, in storage and on the command line (``french-tarot``)."""
    title: str
    """For people (``French Tarot``)."""
    seat_counts: tuple[int, ...]
    """The table sizes this game is played at."""
    cards: tuple[str, ...]
    """The deck: card ``c`` is named ``cards[c]`` (records and notation)."""
    phases: tuple[str, ...]
    """Every phase's ``value``, in the order a deal goes through them."""
    decisions: Mapping[str, str]
    """Each decision kind a bot is asked (``play``) and the phase it is made in."""
    score: ScoreUnit
    sums: ScoreSum
    record_format: str
    """The ``format`` field of this game's deal records (``tarot-arena/deal-record/1``)."""
    settings: tuple[Setting, ...] = ()
    events: tuple[EventKind, ...] = ()
    view_keys: tuple[str, ...] = ()
    """The keys of the generic view (``SeatView.details_json``)."""
    notation: str = ""
    """How actions and cards are written (records, ``Action.notation``), for the docs."""
    notes: tuple[str, ...] = field(default=())
    """What an implementer must know beyond the above (an exchange with no event, say)."""
    default_players: int | None = None
    """The table size played when none is asked (``tournament create``, ``compare``, the
    ladder); None: the smallest of ``seat_counts``."""
    auction_phases: tuple[str, ...] = ()
    """The phases whose decisions settle who plays which contract (French Tarot: the bidding
    and the king's call): what imposed boards fix at every table of a board. Empty: the game
    has no auction, and imposed boards are refused for it."""

    def __post_init__(self) -> None:
        if self.default_players is not None and self.default_players not in self.seat_counts:
            raise ValueError(f"{self.name}: default_players {self.default_players} is not one "
                             f"of its seat counts {self.seat_counts}")
        unknown = set(self.auction_phases) - set(self.phases)
        if unknown:
            raise ValueError(f"{self.name}: auction phases {sorted(unknown)} are not phases")

    @property
    def deck_size(self) -> int:
        return len(self.cards)

    @property
    def usual_players(self) -> int:
        """The table size played when none is asked."""
        return self.seat_counts[0] if self.default_players is None else self.default_players


# ------------------------------------------------------------------------------- values

@runtime_checkable
class State(Protocol):
    """What the arena reads of a deal in progress. Everything else is the game's business."""

    @property
    def players(self) -> int:
        """The players at the table, one bot each (a player may also decide for a seat of no
        player of its own: see :meth:`Rules.decider`)."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def options(self) -> Any:
        """The table options the deal was made with."""
        ...

    @property
    def phase(self) -> Enum:
        """Where the deal stands, in the game's words; its ``value`` is a lowercase name, one
        of the declaration's ``phases``."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to decide now; None once the deal is over."""
        ...

    @property
    def is_over(self) -> bool: ...


class Result(Protocol):
    """How a deal ended: per-seat scores (in the declaration's unit) and the outcome."""

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


# ------------------------------------------------------------------------------- pieces

class Declared(Protocol):
    @property
    def declaration(self) -> Declaration: ...

    @property
    def name(self) -> str:
        """The declaration's ``name``."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def deck_size(self) -> int: ...

    @property
    def record_format(self) -> str: ...

    @property
    def state_type(self) -> type:
        """The class of this game's states."""
        ...

    @property
    def value_types(self) -> tuple[type, ...]:
        """The classes of this game's own values (its state, observation, phase): how
        :func:`arena.games.game_of` tells which game a value is of."""
        ...


class Tables(Protocol[P, S_co]):
    """Tables and deals: the options a table is played with, and a deal from a seed."""

    def seat_counts(self) -> tuple[int, ...]: ...

    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> P:
        """The table options for ``players`` seats and the game's own settings (as stored in
        JSON: e.g. French Tarot's ``beginner`` and ``direction``); ValueError names a bad one."""
        ...

    def options_to_json(self, options: P) -> dict[str, Any]:
        """``options`` as plain JSON, ``players`` included; ``options_from_json`` reverses it."""
        ...

    def options_from_json(self, data: Mapping[str, Any]) -> P: ...

    def players_of(self, options: P) -> int: ...

    def dealer_of(self, options: P, board: int) -> int:
        """The dealer of board ``board`` (0, 1, 2...) of a competition at tables of ``options``:
        the seats that may deal, in turn (every seat for most games; French Tarot with the
        dummy: seat 1, always)."""
        ...

    def new_deal(self, seed: int, options: P, dealer: int = 0) -> S_co:
        """The deal of ``seed`` (every game uses the documented stream of ``arena.games.dealing``
        and documents how it deals from it), ready for its first decision."""
        ...


class Rules(Protocol[S_contra, A, E_co, R_co]):
    """The core: who decides, what they may do, and what it causes."""

    def decider(self, state: S_contra) -> int | None:
        """The player who decides now: the seat to act, except where a player decides for
        another seat (French Tarot with the dummy: the defender plays the dummy's cards). The
        arena asks that player's bot, counts the time against it and charges it with any
        infraction. None once the deal is over."""
        ...

    def legal_actions(self, state: S_contra) -> tuple[A, ...]:
        """Every action the seat to act may take now, in a fixed order; empty once over."""
        ...

    def apply(
        self, state: S_contra, action: A, seat: int | None = None
    ) -> Sequence[tuple[int | None, E_co]]:
        """Apply a legal action of ``seat`` (default: the seat to act) and say which events it
        caused, each with its recipient. Raises :class:`WrongTurnError` or
        :class:`IllegalActionError`, leaving the state unchanged."""
        ...

    def explain_illegal(self, state: S_contra, action: A) -> str:
        """Why ``action`` (not among the legal ones) is refused now, in plain words."""
        ...

    def fallback_action(self, state: S_contra) -> A:
        """The documented, deterministic action the arena plays for a seat that did not answer
        properly."""
        ...

    def decision_kind(self, state: S_contra) -> str:
        """What the seat to act decides: one of the declaration's ``decisions``."""
        ...

    def decision_phase(self, kind: str) -> Enum:
        """The phase in which decisions of ``kind`` are made (a bot hears only the kind);
        ValueError for a kind this game has not."""
        ...

    def hand(self, state: S_contra, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, ascending."""
        ...

    def result(self, state: S_contra) -> R_co | None: ...

    def revealed(self, state: S_contra) -> Revealed:
        """Every card of the deal, as shown at its end."""
        ...


class Views(Protocol[S_contra, A_contra, E_contra, O, R_contra]):
    """What each seat sees, and the one rule by which a bot keeps its view up to date."""

    def observe(self, state: S_contra, seat: int) -> O:
        """Everything ``seat`` may see now, and nothing else."""
        ...

    def observation_after(self, observation: O, event: E_contra) -> O:
        """A seat's observation after one event it received: the bot side's only update rule,
        checked against ``observe`` over many random deals."""
        ...

    def observation_asked(
        self, observation: O, phase: Any, legal: tuple[A_contra, ...], hand: tuple[Card, ...],
        seat: int,
    ) -> O:
        """A player's observation as the arena asks it to decide for ``seat``, the seat to act:
        the request is authoritative for the phase, the turn, the hand and the legal actions.
        ``seat`` is the observation's own, except where a player decides for another seat
        (:meth:`Rules.decider`): ``hand`` is then that seat's, not the player's own. From
        there, the player sees exactly what ``observe`` says (the contract tests check it)."""
        ...

    def observation_at_end(
        self, observation: O, result: R_contra, cards: Revealed | None = None
    ) -> O:
        """A seat's observation once it is told how the deal ended, and the cards if they are
        revealed."""
        ...


class Sealing(Protocol[S_contra, O_co, R]):
    """What a seat is told when its board is still being played at other tables."""

    def sealed_observation(self, state: S_contra, seat: int) -> O_co:
        """``observe`` once the deal is over, without what only its end reveals."""
        ...

    def sealed_result(self, result: R) -> R:
        """The outcome and the scores only (``bare_result`` of them)."""
        ...


class Notation(Protocol[A]):
    """The text forms of cards and actions (records, the CLI, ``Action.notation``)."""

    def card_name(self, card: Card) -> str: ...

    def parse_card(self, text: str) -> Card: ...

    def format_action(self, action: A) -> str: ...

    def parse_action(self, text: str) -> A: ...


class WireForms(Protocol[A, E, O, R_co]):
    """The protocol's generic forms of a game's values (see :mod:`arena.games.jsonform`)."""

    def action_to_wire(self, action: A) -> WireAction: ...

    def action_from_wire(self, wire: WireAction) -> A:
        """The action a wire form stands for; ValueError says why it stands for none."""
        ...

    def observation_to_json(self, observation: O) -> dict[str, Any]: ...

    def observation_from_json(self, data: Any) -> O:
        """ValueError names the first bad field."""
        ...

    def event_to_json(self, event: E) -> tuple[str, dict[str, Any]]:
        """An event's kind (``card-played``) and its fields."""
        ...

    def event_from_json(self, kind: str, data: Any) -> E: ...

    def bare_result(self, outcome: str, scores: Sequence[int]) -> R_co:
        """A result that holds only how the deal ended (an outcome's ``value``) and the scores:
        what the wire carries of a deal that is not revealed. ValueError for an unknown
        outcome."""
        ...


class Records(Protocol[S]):
    """Deal records: the deal so far as plain JSON, and back through the rules."""

    def record(self, state: S, seed: int | None = None) -> Record: ...

    def load_record(self, data: Mapping[str, Any]) -> Record:
        """A deal record from its JSON, checked but not replayed; ValueError says what is
        malformed."""
        ...

    def replay(self, record: Any, check_result: bool = True) -> S:
        """The final state of a deal record played through the rules; ValueError says which
        action is illegal or what differs."""
        ...


@runtime_checkable
class Game(
    Declared, Tables[P, S], Rules[S, A, E, R], Views[S, A, E, O, R], Sealing[S, O, R],
    Notation[A], WireForms[A, E, O, R], Records[S], Protocol[S, A, E, O, P, R],
):
    """One card game of the arena: every piece above. Implementations are stateless
    singletons; every method that takes a state reads or changes only that state."""


AnyGame = Game[Any, Any, Any, Any, Any, Any]
"""A game whose types the caller does not know (the registry, the generic layers)."""


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


CAPABILITIES: Final[Mapping[str, Callable[[object], bool]]] = {
    "matches": lambda game: isinstance(game, ScoresMatches),
    "display": lambda game: getattr(game, "display", None) is not None,
}
"""The optional capabilities a layer may ask a game for, by name (see :func:`capabilities`)."""


def capabilities(game: object) -> tuple[str, ...]:
    """The optional capabilities ``game`` has, by name: ``matches`` (:class:`ScoresMatches`),
    ``display`` (how its deals are drawn for people)."""
    return tuple(name for name, has in CAPABILITIES.items() if has(game))
