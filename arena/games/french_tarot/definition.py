"""French Tarot as the arena sees every game: :class:`arena.games.base.Game`, implemented by
delegating to this package's modules, so the engine's own API stays as fast and as typed as it
was and the arena's generic layers need nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..base import Revealed, WireAction
from ..jsonform import JsonForm
from .actions import (
    ANNOUNCE_CHELEM,
    BIDS,
    CALLS,
    DISCARDS,
    HIDES,
    NO_CHELEM,
    PASS,
    PLAYS,
    POIGNEES,
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    Contract,
    DeclarePoignee,
    Discard,
    HideTrump,
    Pass,
    Play,
    PoigneeLevel,
    format_action,
    parse_action,
)
from .cards import DECK_SIZE, Card, card_name, cards_of, parse_card
from .deal import HAND_SIZES, Deal, seeded_deal
from .display import FRENCH_TAROT_DISPLAY
from .events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DummyShown,
    Event,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
    event_mark,
    events_after,
)
from .game import (
    DealOutcome,
    DealResult,
    Direction,
    GameState,
    Phase,
    TableOptions,
    apply,
    explain_illegal,
    legal_actions,
)
from .observation import (
    Observation,
    observation_after,
    observation_asked,
    observation_at_end,
    observe,
    sealed_observation,
)
from .record import FORMAT, DealRecord, replay

_DECISION_KINDS: Final = {
    Phase.BIDDING: "bid", Phase.CALLING: "call", Phase.DISCARDING: "discard",
    Phase.CHELEM: "chelem", Phase.PLAYING: "play", Phase.POIGNEE: "poignee",
}
_CARD_ACTIONS: Final[dict[str, tuple[Action, ...]]] = {
    "call": CALLS, "discard": DISCARDS, "play": PLAYS, "hide": HIDES,
}
_PHASES_BY_KIND: Final = {kind: phase for phase, kind in _DECISION_KINDS.items()}
_SETTINGS: Final = frozenset({"beginner", "direction"})
_LEVELS: Final = tuple(PoigneeLevel)
"""On the wire, poignée levels are numbered 1, 2, 3 (the protocol's enum), not by points."""


def fallback_action(state: GameState) -> Action:
    """What the arena plays for a seat that did not answer properly: documented and fixed.

    The lowest legal card when playing (never a poignée), otherwise the first legal action in
    the engine's order: pass when bidding, the lowest callable King, the lowest discardable card,
    no chelem, and the highest trump left to hide from a declared poignée (it shows the lowest).
    """
    legal = legal_actions(state)
    for action in legal:
        if isinstance(action, Play):
            return action
    return legal[0]


def sealed_result(result: DealResult) -> DealResult:
    """What a seat is told of a deal's end when the deal is not revealed: how it ended and the
    scores. The rest (the summary's points and oudlers, who had a petit sec) tells of the
    hands."""
    return DealResult(result.outcome, result.scores)


_JSON: Final = JsonForm(
    (Pass, Bid, CallCard, Discard, ChelemChoice, DeclarePoignee, HideTrump, Play),
    format_action, parse_action,
    (BidMade, CardCalled, ChienShown, CardDiscarded, TrumpDiscarded, ChelemDecided, PoigneeShown,
     CardPlayed, TrickWon, PartnerRevealed, DummyShown),
)


class FrenchTarot:
    """French Tarot for 2 (with the dummy), 3, 4 and 5 players (5 with the called king),
    beginner variant and seat direction: see :mod:`arena.games.french_tarot`."""

    name: Final = "french-tarot"
    title: Final = "French Tarot"
    deck_size: Final = DECK_SIZE
    record_format: Final = FORMAT
    display: Final = FRENCH_TAROT_DISPLAY
    """How the surfaces show it (:mod:`.display`)."""

    # -- tables -------------------------------------------------------------------------------
    def seat_counts(self) -> tuple[int, ...]:
        """2 (with the dummy: a table of three hands, the defender deciding for the dummy's
        seat, see :meth:`decider`), 3, 4 and 5."""
        return tuple(sorted(HAND_SIZES))

    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> TableOptions:
        settings = dict(settings or {})
        unknown = set(settings) - _SETTINGS
        if unknown:
            raise ValueError(
                f"unknown French Tarot setting {sorted(unknown)[0]!r}: "
                f"the settings are {', '.join(sorted(_SETTINGS))}"
            )
        beginner = settings.get("beginner", False)
        if not isinstance(beginner, bool):
            raise ValueError(f"beginner must be true or false, not {beginner!r}")
        direction = settings.get("direction", Direction.COUNTER_CLOCKWISE.value)
        try:
            way = direction if isinstance(direction, Direction) else Direction(direction)
        except ValueError:
            raise ValueError(
                f"unknown direction {direction!r}: "
                f"{' or '.join(d.value for d in Direction)}"
            ) from None
        return TableOptions(players, beginner, way)

    def options_to_json(self, options: TableOptions) -> dict[str, Any]:
        return {
            "players": options.players,
            "beginner": options.beginner,
            "direction": options.direction.value,
        }

    def options_from_json(self, data: Mapping[str, Any]) -> TableOptions:
        players = data.get("players")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, not {players!r}")
        return self.options(players, {k: v for k, v in data.items() if k != "players"})

    def players_of(self, options: TableOptions) -> int:
        return options.players

    def dealer_of(self, options: TableOptions, board: int) -> int:
        seats = options.dealer_seats
        return seats[board % len(seats)]

    def new_deal(self, seed: int, options: TableOptions, dealer: int = 0) -> GameState:
        return GameState(seeded_deal(seed, options.players, dealer), options)

    # -- rules --------------------------------------------------------------------------------
    def decider(self, state: GameState) -> int | None:
        return getattr(state, "decider", state.to_act)  # the dummy's seat: the defender

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        return legal_actions(state)

    def apply(self, state: GameState, action: Action, seat: int | None = None) -> None:
        apply(state, action, seat)

    def explain_illegal(self, state: GameState, action: Action) -> str:
        return explain_illegal(state, action)

    def fallback_action(self, state: GameState) -> Action:
        return fallback_action(state)

    def decision_kind(self, state: GameState) -> str:
        return _DECISION_KINDS[state.phase]

    def decision_phase(self, kind: str) -> Phase:
        phase = _PHASES_BY_KIND.get(kind)
        if phase is None:
            raise ValueError(f"French Tarot has no {kind!r} decision")
        return phase

    def hand(self, state: GameState, seat: int) -> tuple[Card, ...]:
        return tuple(cards_of(state.hands[seat]))

    def result(self, state: GameState) -> DealResult | None:
        return state.result

    def revealed(self, state: GameState) -> Revealed:
        return Revealed(state.deal.hands, state.deal.chien, tuple(cards_of(state.discard)))

    # -- what seats see -----------------------------------------------------------------------
    def observe(self, state: GameState, seat: int) -> Observation:
        return observe(state, seat)

    def sealed_observation(self, state: GameState, seat: int) -> Observation:
        return sealed_observation(state, seat)

    def sealed_result(self, result: DealResult) -> DealResult:
        return sealed_result(result)

    def bare_result(self, outcome: str, scores: Sequence[int]) -> DealResult:
        return DealResult(DealOutcome(outcome), tuple(scores))

    def event_mark(self, state: GameState) -> int:
        return event_mark(state)

    def events_after(
        self, state: GameState, actor: int, action: Action, before: int
    ) -> Sequence[tuple[int | None, Event]]:
        return events_after(state, actor, action, before)

    def observation_after(self, observation: Observation, event: Event) -> Observation:
        return observation_after(observation, event)

    def observation_asked(
        self, observation: Observation, phase: Phase, legal: tuple[Action, ...],
        hand: tuple[Card, ...], seat: int,
    ) -> Observation:
        return observation_asked(observation, phase, legal, hand, seat)

    def observation_at_end(
        self, observation: Observation, result: DealResult, cards: Revealed | None = None
    ) -> Observation:
        if cards is None:
            return observation_at_end(observation, result)
        options = observation.options
        deal = Deal(options.players, observation.dealer, cards.hands, cards.undealt)
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
        if isinstance(action, Pass):
            return WireAction("pass")
        if isinstance(action, Bid):
            return WireAction("bid", int(action.contract))
        if isinstance(action, CallCard):
            return WireAction("call", action.card)
        if isinstance(action, Discard):
            return WireAction("discard", action.card)
        if isinstance(action, ChelemChoice):
            return WireAction("chelem", int(action.announce))
        if isinstance(action, DeclarePoignee):
            return WireAction("poignee", _LEVELS.index(action.level) + 1)
        if isinstance(action, HideTrump):
            return WireAction("hide", action.card)
        raise TypeError(f"{action!r} is not a French Tarot action")

    def action_from_wire(self, wire: WireAction) -> Action:
        kind, argument = wire.kind, wire.argument
        if kind == "notation":
            return parse_action(wire.text)
        if kind == "pass":
            return PASS
        if kind == "chelem":
            return ANNOUNCE_CHELEM if argument else NO_CHELEM
        if kind == "bid":
            if argument not in BIDS:
                raise ValueError(f"unknown contract {argument}")
            return BIDS[Contract(argument)]
        if kind == "poignee":
            if not 1 <= argument <= len(_LEVELS):
                raise ValueError(f"unknown poignee level {argument}")
            return POIGNEES[_LEVELS[argument - 1]]
        table = _CARD_ACTIONS.get(kind)
        if table is None:
            raise ValueError(f"{kind!r} is not a French Tarot action")
        if not 0 <= argument < DECK_SIZE:
            raise ValueError(
                f"card {argument} does not exist: cards are numbered 0..{DECK_SIZE - 1}"
            )
        return table[argument]

    def record(self, state: GameState, seed: int | None = None) -> DealRecord:
        return DealRecord.of(state, seed)

    def load_record(self, data: Mapping[str, Any]) -> DealRecord:
        return DealRecord.from_json(dict(data))

    def replay(self, record: DealRecord, check_result: bool = True) -> GameState:
        return replay(record, check_result)


FRENCH_TAROT: Final = FrenchTarot()
