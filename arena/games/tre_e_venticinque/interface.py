"""Tre e Venticinque as the arena sees it: the :class:`~arena.games.base.Game` interface.

:data:`TRE_E_VENTICINQUE` is the game; every method delegates to the engine's own modules, so
this file holds no rule. On the wire an action is ``discard`` or ``play`` with its card id
(:class:`~arena.games.base.WireAction`); a seat decides ``discard`` (the dealer, three times) or
``play``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from ..base import WIRE_KINDS, Game, Revealed, WireAction
from ..jsonform import JsonForm
from .actions import DISCARDS, PLAYS, Action, Discard, Play, format_action, parse_action
from .cards import DECK_SIZE, TOTAL_THIRDS, Card, card_name, cards_of, parse_card
from .deal import PLAYERS, Deal, seeded_deal
from .display import TRE_E_VENTICINQUE_DISPLAY, TreEVenticinqueDisplay
from .game import (
    DealOutcome,
    DealResult,
    DealState,
    Phase,
    TableOptions,
    apply,
    explain_illegal,
    legal_actions,
)
from .observation import (
    CardDiscarded,
    CardPlayed,
    DiscardDone,
    Event,
    Observation,
    TrickWon,
    event_mark,
    events_after,
    observation_after,
    observation_asked,
    observation_at_end,
    observe,
    sealed_observation,
)
from .record import FORMAT, DealRecord, replay
from .scoring import GameScore, score_game

_KINDS: Final[dict[str, tuple[Action, ...]]] = {"discard": DISCARDS, "play": PLAYS}
_PHASES: Final = {"discard": Phase.DISCARDING, "play": Phase.PLAYING}
_JSON: Final = JsonForm(
    (Discard, Play), format_action, parse_action,
    (CardDiscarded, DiscardDone, CardPlayed, TrickWon),
)


class TreEVenticinque:
    """The Piedmontese tarocco for three, each for themselves (``RULES.md`` section 2)."""

    name: str = "tre-e-venticinque"
    title: str = "Tre e Venticinque"
    deck_size: int = DECK_SIZE
    record_format: str = FORMAT
    display: TreEVenticinqueDisplay = TRE_E_VENTICINQUE_DISPLAY
    """How the surfaces show it (:mod:`.display`)."""
    match_deals: int = PLAYERS
    """A game, as the seed counts it: three deals, one per dealer (:meth:`score_match`)."""

    def score_match(self, results: Sequence[DealResult]) -> GameScore:
        """The seed's score of a game of three deals (:func:`.scoring.score_game`)."""
        return score_game(results)

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

    def dealer_of(self, options: TableOptions, board: int) -> int:
        return board % options.players

    def new_deal(self, seed: int, options: TableOptions, dealer: int = 0) -> DealState:
        return DealState(seeded_deal(seed, dealer), options)

    # -- rules --------------------------------------------------------------------------------
    def decider(self, state: DealState) -> int | None:
        """The seat to act: every player decides for its own seat."""
        return state.to_act

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

    def decision_phase(self, kind: str) -> Phase:
        phase = _PHASES.get(kind)
        if phase is None:
            raise ValueError(f"Tre e Venticinque has no {kind!r} decision: only discard and play")
        return phase

    def hand(self, state: DealState, seat: int) -> tuple[Card, ...]:
        return tuple(cards_of(state.hands[seat]))

    def result(self, state: DealState) -> DealResult | None:
        return state.result

    def revealed(self, state: DealState) -> Revealed:
        """The hands as dealt, the talon (the three cards the dealer took up) as the cards dealt
        to no hand, and the dealer's discard."""
        return Revealed(state.deal.hands, state.deal.talon, tuple(cards_of(state.discard)))

    # -- what seats see -----------------------------------------------------------------------
    def observe(self, state: DealState, seat: int) -> Observation:
        return observe(state, seat)

    def sealed_observation(self, state: DealState, seat: int) -> Observation:
        return sealed_observation(state, seat)

    def sealed_result(self, result: DealResult) -> DealResult:
        """The outcome and the scores. (The rest tells nothing hidden either: the tricks were
        played in view and the discard's points follow from the dealer's score; but a sealed end
        says no more than the arena's generic one.) The points still read back from the
        scores."""
        return self.bare_result(result.outcome.value, result.scores)

    def bare_result(self, outcome: str, scores: Sequence[int]) -> DealResult:
        values = [int(score) for score in scores]
        if len(values) != PLAYERS or sum(values) != 0 or any(
            (score + TOTAL_THIRDS) % PLAYERS for score in values
        ):
            raise ValueError(f"{list(scores)} are not the scores of a deal of Tre e Venticinque")
        return DealResult(DealOutcome(outcome), tuple(scores))

    def events_after(
        self, state: DealState, actor: int, action: Action, before: Any
    ) -> Sequence[tuple[int | None, Event]]:
        return events_after(state, actor, action, before)

    def event_mark(self, state: DealState) -> Any:
        return event_mark(state)

    def observation_after(self, observation: Observation, event: Event) -> Observation:
        return observation_after(observation, event)

    def observation_asked(
        self, observation: Observation, phase: Enum, legal: tuple[Action, ...],
        hand: tuple[Card, ...], seat: int,
    ) -> Observation:
        if not isinstance(phase, Phase):
            raise ValueError(f"{phase!r} is not a phase of Tre e Venticinque")
        if seat != observation.seat:
            raise ValueError(f"seat {observation.seat} is asked for seat {seat}: in Tre e "
                             "Venticinque every player decides for its own seat only")
        return observation_asked(observation, phase, legal, hand)

    def observation_at_end(
        self, observation: Observation, result: DealResult, cards: Revealed | None = None
    ) -> Observation:
        if cards is None:
            return observation_at_end(observation, result)
        deal = Deal(observation.dealer, cards.hands, cards.undealt)
        return observation_at_end(observation, result, deal, cards.discard)

    def observation_to_json(self, observation: Observation) -> dict[str, Any]:
        return _JSON.object_to_json(observation)

    def observation_from_json(self, data: Any) -> Observation:
        return _JSON.decode(Observation, data)

    def event_to_json(self, event: Event) -> tuple[str, dict[str, Any]]:
        return _JSON.event_to_json(event)

    def event_from_json(self, kind: str, data: Any) -> Event:
        event: Event = _JSON.event_from_json(kind, data)
        return event

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

    def record(self, state: DealState, seed: int | None = None) -> DealRecord:
        return DealRecord.of(state, seed)

    def load_record(self, data: Mapping[str, Any]) -> DealRecord:
        """Raises :class:`~.record.RecordError` (a ValueError) naming what is malformed."""
        return DealRecord.from_json(dict(data) if isinstance(data, Mapping) else data)

    def replay(self, record: DealRecord, check_result: bool = True) -> DealState:
        """Raises :class:`~.record.ReplayError` (a ValueError) naming the illegal action or
        what differs."""
        return replay(record, check_result)


TRE_E_VENTICINQUE: Final = TreEVenticinque()
"""The game, as the arena's registry of games holds it."""

if TYPE_CHECKING:
    _IS_A_GAME: Game = TRE_E_VENTICINQUE  # mypy checks that the interface is implemented in full
