"""Tre e Venticinque as the arena sees it: the :class:`~arena.games.base.Game` interface.

:data:`TRE_E_VENTICINQUE` is the game; every method delegates to the engine's own modules, so
this file holds no rule. On the wire an action is ``discard`` or ``play`` with its card id
(:class:`~arena.games.base.WireAction`); a seat decides ``discard`` (the dealer, three times) or
``play``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..base import WIRE_KINDS, WireAction
from .actions import DISCARDS, PLAYS, Action, Discard, Play, format_action, parse_action
from .cards import DECK_SIZE, Card, card_name, cards_of, parse_card
from .deal import PLAYERS, seeded_deal
from .game import (
    DealResult,
    DealState,
    Phase,
    TableOptions,
    apply,
    explain_illegal,
    legal_actions,
)
from .observation import (
    Event,
    Observation,
    event_mark,
    events_after,
    observation_after,
    observe,
    sealed_observation,
)
from .record import FORMAT, DealRecord, RecordError, replay

_KINDS: Final[dict[str, tuple[Action, ...]]] = {"discard": DISCARDS, "play": PLAYS}


class TreEVenticinque:
    """The Piedmontese tarocco for three, each for themselves (``RULES.md`` section 2)."""

    name: str = "tre-e-venticinque"
    title: str = "Tre e Venticinque"
    deck_size: int = DECK_SIZE
    record_format: str = FORMAT

    # -- tables -------------------------------------------------------------------------------
    def seat_counts(self) -> tuple[int, ...]:
        return (PLAYERS,)

    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> TableOptions:
        if settings:
            raise ValueError(f"unknown settings {', '.join(sorted(settings))}: "
                             "Tre e Venticinque has no variant")
        return TableOptions(players)

    def options_to_json(self, options: TableOptions) -> dict[str, Any]:
        return {"players": options.players}

    def options_from_json(self, data: Mapping[str, Any]) -> TableOptions:
        if not isinstance(data, Mapping) or "players" not in data:
            raise ValueError(f"table options must be an object with players, got {data!r}")
        players = data["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"options.players must be an integer, got {players!r}")
        return self.options(players, {k: v for k, v in data.items() if k != "players"})

    def players_of(self, options: TableOptions) -> int:
        return options.players

    def new_deal(self, seed: int, options: TableOptions, dealer: int = 0) -> DealState:
        return DealState(seeded_deal(seed, dealer), options)

    # -- rules --------------------------------------------------------------------------------
    def legal_actions(self, state: DealState) -> tuple[Action, ...]:
        return legal_actions(state)

    def apply(self, state: DealState, action: Action, seat: int | None = None) -> None:
        apply(state, action, seat)

    def explain_illegal(self, state: DealState, action: Any) -> str:
        return explain_illegal(state, action)

    def fallback_action(self, state: DealState) -> Action:
        """The lowest legal card (its id; see :mod:`.cards`): to discard, or to play."""
        legal = legal_actions(state)
        if not legal:
            raise ValueError("the deal is over: there is no action to fall back on")
        return legal[0]

    def decision_kind(self, state: DealState) -> str:
        if state.phase is Phase.DISCARDING:
            return "discard"
        if state.phase is Phase.PLAYING:
            return "play"
        raise ValueError("the deal is over: nobody decides")

    def hand(self, state: DealState, seat: int) -> tuple[Card, ...]:
        return tuple(cards_of(state.hands[seat]))

    def result(self, state: DealState) -> DealResult | None:
        return state.result

    # -- what seats see -----------------------------------------------------------------------
    def observe(self, state: DealState, seat: int) -> Observation:
        return observe(state, seat)

    def sealed_observation(self, state: DealState, seat: int) -> Observation:
        return sealed_observation(state, seat)

    def sealed_result(self, result: DealResult) -> DealResult:
        """The result itself: every field of it is public once the deal is over (the tricks
        were played in view, and the discard's points follow from the dealer's score), so it
        reveals no hand and no card of the discard."""
        return result

    def events_after(
        self, state: DealState, actor: int, action: Action, before: Any
    ) -> Sequence[tuple[int | None, Event]]:
        return events_after(state, actor, action, before)

    def event_mark(self, state: DealState) -> Any:
        return event_mark(state)

    def observation_after(self, observation: Observation, event: Event) -> Observation:
        return observation_after(observation, event)

    # -- notation and records -----------------------------------------------------------------
    def card_name(self, card: Card) -> str:
        return card_name(card)

    def parse_card(self, text: str) -> Card:
        return parse_card(text)

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def action_to_wire(self, action: Action) -> WireAction:
        if isinstance(action, Play):
            return WireAction("play", action.card)
        if isinstance(action, Discard):
            return WireAction("discard", action.card)
        raise ValueError(f"{action!r} is not an action of Tre e Venticinque")

    def action_from_wire(self, wire: WireAction) -> Action:
        if wire.kind == "notation":
            return parse_action(wire.text)
        table = _KINDS.get(wire.kind)
        if table is None:
            known = "discard, play or notation" if wire.kind in WIRE_KINDS else (
                f"one of {', '.join(WIRE_KINDS)} or notation")
            raise ValueError(f"Tre e Venticinque has no {wire.kind!r} action: expected {known}")
        card = wire.argument
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
            raise ValueError(f"{wire.kind} {card!r}: a card id is 0..{DECK_SIZE - 1}")
        return table[card]

    def record(self, state: DealState, seed: int | None = None) -> dict[str, Any]:
        return DealRecord.of(state, seed).to_json()

    def replay(self, record: Mapping[str, Any], check_result: bool = True) -> DealState:
        """Raises :class:`~.record.RecordError` or :class:`~.record.ReplayError` (both
        ValueError)."""
        try:
            parsed = DealRecord.from_json(dict(record))
        except (TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed deal record: {exc}") from exc
        return replay(parsed, check_result)


TRE_E_VENTICINQUE: Final = TreEVenticinque()
"""The game, as the arena's registry of games holds it."""
