"""The kit a card game of the arena is built with: :class:`CardGame` implements the whole of
:class:`arena.games.base.Game` from the engine's own functions (:class:`Engine`), its records
(:class:`RecordKind`) and its wire table of actions (:class:`WireTable`), so that a game's
definition holds only what is its own: its declaration and the few rules that differ (French
Tarot's dummy, say). :func:`declare` writes the declaration's deck, events and view keys from
the engine's types, the one source the protocol's documentation is generated from.

Pure, like the games.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, cast

from .base import (
    CARD_KINDS,
    WIRE_KINDS,
    A,
    Card,
    Declaration,
    E,
    EventKind,
    O,
    P,
    R,
    Record,
    Revealed,
    S,
    ScoreSum,
    ScoreUnit,
    Setting,
    WireAction,
)
from .cardsets import cards_of
from .jsonform import JsonForm, event_kind


@dataclass(frozen=True, slots=True)
class Engine(Generic[S, A, E, O, P]):
    """A game's engine, as plain functions of its own modules: the kit calls nothing else."""

    new_deal: Callable[[int, P, int], S]
    legal_actions: Callable[[S], tuple[A, ...]]
    apply: Callable[[S, A, int | None], None]
    explain_illegal: Callable[[S, A], str]
    event_mark: Callable[[S], Any]
    """A cheap snapshot before an action, for ``events_after``."""
    events_after: Callable[[S, int, A, Any], Sequence[tuple[int | None, E]]]
    observe: Callable[[S, int], O]
    sealed_observation: Callable[[S, int], O]
    observation_after: Callable[[O, E], O]
    format_action: Callable[[A], str]
    parse_action: Callable[[str], A]
    card_name: Callable[[Card], str]
    parse_card: Callable[[str], Card]


@dataclass(frozen=True, slots=True)
class RecordKind(Generic[S]):
    """A game's deal records: from a state, from JSON, and replayed into a state."""

    of: Callable[[S, int | None], Record]
    from_json: Callable[[Any], Record]
    replay: Callable[[Any, bool], S]


@dataclass(frozen=True, slots=True)
class WireTable(Generic[A]):
    """A game's actions in the protocol's neutral form: ``encode`` by action class, ``decode``
    by wire kind (the argument to the action, ValueError if it names none)."""

    encode: Mapping[type, Callable[[Any], WireAction]]
    decode: Mapping[str, Callable[[int], A]]


def by_card(kind: str) -> Callable[[Any], WireAction]:
    """The encoder of a card action (its ``card`` as the argument of ``kind``)."""
    return lambda action: WireAction(kind, action.card)


def card_table(kind: str, actions: Sequence[A], deck_size: int) -> Callable[[int], A]:
    """The decoder of a card action: ``actions[card]``, ValueError for a card not in the deck."""

    def decode(card: int) -> A:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < deck_size:
            raise ValueError(f"{kind} {card!r}: a card id is 0..{deck_size - 1}")
        return actions[card]

    return decode


def declare(
    *,
    name: str,
    title: str,
    seat_counts: tuple[int, ...],
    deck_size: int,
    card_name: Callable[[Card], str],
    phases: type[Enum],
    decisions: Mapping[str, Enum],
    score: ScoreUnit,
    sums: ScoreSum,
    record_format: str,
    events: Sequence[type],
    observation: type,
    settings: tuple[Setting, ...] = (),
    notation: str = "",
    notes: tuple[str, ...] = (),
    default_players: int | None = None,
    auction_phases: Sequence[Enum] = (),
) -> Declaration:
    """A game's declaration, its deck's names, events and view keys read from the engine's
    own types: an event kind is its class in kebab case with the class's fields as keys and
    its docstring as meaning; the view keys are the observation's fields."""
    return Declaration(
        name=name,
        title=title,
        seat_counts=seat_counts,
        cards=tuple(card_name(card) for card in range(deck_size)),
        phases=tuple(str(phase.value) for phase in phases),
        decisions={kind: str(phase.value) for kind, phase in decisions.items()},
        score=score,
        sums=sums,
        record_format=record_format,
        settings=settings,
        events=tuple(
            EventKind(event_kind(kind), _fields(kind), _meaning(kind)) for kind in events
        ),
        view_keys=_fields(observation),
        notation=notation,
        notes=notes,
        default_players=default_players,
        auction_phases=tuple(str(phase.value) for phase in auction_phases),
    )


def _fields(kind: type) -> tuple[str, ...]:
    if dataclasses.is_dataclass(kind):
        return tuple(f.name for f in dataclasses.fields(kind) if f.init)
    return tuple(getattr(kind, "_fields", ()))


def _meaning(kind: type) -> str:
    """The first paragraph of the class's docstring, reST roles and literals as plain text."""
    text = " ".join((inspect.getdoc(kind) or "").split("\n\n")[0].split())
    text = re.sub(r":\w+:`~?([\w.]+)`", lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    return text.replace("``", "`")


class CardGame(ABC, Generic[S, A, E, O, P, R]):
    """:class:`arena.games.base.Game` for a card game from its engine. A game subclasses it and
    overrides only what its rules make its own (most games: the table options)."""

    def __init__(
        self,
        declaration: Declaration,
        state_type: type[S],
        engine: Engine[S, A, E, O, P],
        records: RecordKind[S],
        json: JsonForm,
        wire: WireTable[A],
        phase_type: type[Enum],
        result_of: Callable[[Any, tuple[int, ...]], R],
        outcome_type: type[Enum],
        observation_type: type[O],
    ) -> None:
        self.declaration = declaration
        self.state_type = state_type
        self._engine = engine
        self._records = records
        self._json = json
        self._wire = wire
        self._result_of = result_of
        self._outcome_type = outcome_type
        self._observation_type = observation_type
        self.value_types: tuple[type, ...] = (state_type, observation_type, phase_type)
        self._kind_of_phase = {
            phase_type(value): kind for kind, value in declaration.decisions.items()
        }
        self._phase_of_kind = {kind: phase for phase, kind in self._kind_of_phase.items()}

    @property
    def name(self) -> str:
        return self.declaration.name

    @property
    def title(self) -> str:
        return self.declaration.title

    @property
    def deck_size(self) -> int:
        return self.declaration.deck_size

    @property
    def record_format(self) -> str:
        return self.declaration.record_format

    def __repr__(self) -> str:
        return f"<game {self.name}>"

    # -- tables -------------------------------------------------------------------------------
    def seat_counts(self) -> tuple[int, ...]:
        return self.declaration.seat_counts

    @abstractmethod
    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> P:
        """Every game says how its options are made."""

    def options_to_json(self, options: P) -> dict[str, Any]:
        return {"players": self.players_of(options)}

    def options_from_json(self, data: Mapping[str, Any]) -> P:
        if not isinstance(data, Mapping) or "players" not in data:
            raise ValueError(f"table options must be an object with players, got {data!r}")
        players = data["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, not {players!r}")
        return self.options(players, {k: v for k, v in data.items() if k != "players"})

    def players_of(self, options: P) -> int:
        players: int = getattr(options, "players")  # noqa: B009 - every game's options have it
        return players

    def dealer_of(self, options: P, board: int) -> int:
        return board % self.players_of(options)

    def new_deal(self, seed: int, options: P, dealer: int = 0) -> S:
        return self._engine.new_deal(seed, options, dealer)

    # -- rules --------------------------------------------------------------------------------
    def decider(self, state: S) -> int | None:
        """The seat to act: in most games every player decides for its own seat."""
        return state.to_act

    def legal_actions(self, state: S) -> tuple[A, ...]:
        return self._engine.legal_actions(state)

    def apply(self, state: S, action: A, seat: int | None = None) -> Sequence[tuple[int | None, E]]:
        engine = self._engine
        actor = state.to_act if seat is None else seat
        mark = engine.event_mark(state)
        engine.apply(state, action, seat)
        assert actor is not None  # apply raised WrongTurnError for a deal that is over
        return engine.events_after(state, actor, action, mark)

    def explain_illegal(self, state: S, action: A) -> str:
        return self._engine.explain_illegal(state, action)

    def fallback_action(self, state: S) -> A:
        """The first legal action in the engine's order (the lowest card, for a card)."""
        legal = self._engine.legal_actions(state)
        if not legal:
            raise ValueError("the deal is over: there is no action to fall back on")
        return legal[0]

    def decision_kind(self, state: S) -> str:
        kind = self._kind_of_phase.get(state.phase)
        if kind is None:
            raise ValueError(f"nobody decides in phase {state.phase.value!r}")
        return kind

    def decision_phase(self, kind: str) -> Enum:
        phase = self._phase_of_kind.get(kind)
        if phase is None:
            raise ValueError(f"{self.title} has no {kind!r} decision: only "
                             f"{', '.join(self.declaration.decisions)}")
        return phase

    def hand(self, state: S, seat: int) -> tuple[Card, ...]:
        return tuple(cards_of(getattr(state, "hands")[seat]))  # noqa: B009 - bit-set hands

    def result(self, state: S) -> R | None:
        result: R | None = getattr(state, "result")  # noqa: B009
        return result

    def revealed(self, state: S) -> Revealed:
        """The hands as dealt, the cards dealt to no hand and the discard (the kit's games
        keep them as ``deal.hands``, :meth:`undealt` and a ``discard`` bit set)."""
        deal = getattr(state, "deal")  # noqa: B009
        return Revealed(deal.hands, self.undealt(state),
                        tuple(cards_of(getattr(state, "discard"))))  # noqa: B009

    def undealt(self, state: S) -> tuple[Card, ...]:
        return ()

    # -- what seats see -----------------------------------------------------------------------
    def observe(self, state: S, seat: int) -> O:
        return self._engine.observe(state, seat)

    def sealed_observation(self, state: S, seat: int) -> O:
        return self._engine.sealed_observation(state, seat)

    def sealed_result(self, result: R) -> R:
        """The outcome and the scores: the rest of a result may tell of the hands."""
        return self.bare_result(str(result.outcome.value), result.scores)

    def bare_result(self, outcome: str, scores: Sequence[int]) -> R:
        return self._result_of(self._outcome_type(outcome), tuple(scores))

    def event_mark(self, state: S) -> Any:
        return self._engine.event_mark(state)

    def events_after(
        self, state: S, actor: int, action: A, before: Any
    ) -> Sequence[tuple[int | None, E]]:
        return self._engine.events_after(state, actor, action, before)

    def observation_after(self, observation: O, event: E) -> O:
        return self._engine.observation_after(observation, event)

    @abstractmethod
    def observation_asked(
        self, observation: O, phase: Any, legal: tuple[A, ...], hand: tuple[Card, ...],
        seat: int,
    ) -> O:
        """Every game says how a request updates its view."""

    @abstractmethod
    def observation_at_end(self, observation: O, result: R, cards: Revealed | None = None) -> O:
        """Every game says how the end updates its view."""

    def observation_to_json(self, observation: O) -> dict[str, Any]:
        return self._json.object_to_json(observation)

    def observation_from_json(self, data: Any) -> O:
        return self._json.decode(self._observation_type, data)

    def event_to_json(self, event: E) -> tuple[str, dict[str, Any]]:
        return self._json.event_to_json(event)

    def event_from_json(self, kind: str, data: Any) -> E:
        return cast(E, self._json.event_from_json(kind, data))

    # -- notation and records -----------------------------------------------------------------
    def card_name(self, card: Card) -> str:
        return self._engine.card_name(card)

    def parse_card(self, text: str) -> Card:
        return self._engine.parse_card(text)

    def format_action(self, action: A) -> str:
        return self._engine.format_action(action)

    def parse_action(self, text: str) -> A:
        return self._engine.parse_action(text)

    def action_to_wire(self, action: A) -> WireAction:
        encode = self._wire.encode.get(type(action))
        if encode is None:
            raise ValueError(f"{action!r} is not an action of {self.title}")
        return encode(action)

    def action_from_wire(self, wire: WireAction) -> A:
        if wire.kind == "notation":
            return self._engine.parse_action(wire.text)
        decode = self._wire.decode.get(wire.kind)
        if decode is None:
            kinds = ", ".join(self._wire.decode)
            known = f"{kinds} or notation" if wire.kind in WIRE_KINDS else (
                f"one of {', '.join(WIRE_KINDS)} or notation")
            raise ValueError(f"{self.title} has no {wire.kind!r} action: expected {known}")
        return decode(wire.argument)

    def record(self, state: S, seed: int | None = None) -> Record:
        return self._records.of(state, seed)

    def load_record(self, data: Mapping[str, Any]) -> Record:
        """Raises the game's ``RecordError`` (a ValueError) naming what is malformed."""
        return self._records.from_json(dict(data) if isinstance(data, Mapping) else data)

    def replay(self, record: Any, check_result: bool = True) -> S:
        """Raises the game's ``ReplayError`` (a ValueError) naming the illegal action or what
        differs."""
        return self._records.replay(record, check_result)


__all__ = [
    "CARD_KINDS",
    "CardGame",
    "Engine",
    "RecordKind",
    "WireTable",
    "by_card",
    "card_table",
    "declare",
]
