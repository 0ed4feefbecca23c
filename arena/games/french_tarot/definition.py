"""French Tarot as the arena sees every game: its declaration and the few rules the kit
(:mod:`arena.games.kit`) cannot know, the engine's modules doing the rest, so the engine's own
API stays as fast and as typed as it was and the arena's generic layers need nothing else."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..base import POINTS, Game, Revealed, ScoreSum, Setting, WireAction
from ..jsonform import JsonForm
from ..kit import CardGame, Engine, RecordKind, WireTable, by_card, declare
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
from .cards import DECK_SIZE, Card, card_name, parse_card
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
    DealState,
    Direction,
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

_LEVELS: Final = tuple(PoigneeLevel)
"""On the wire, poignée levels are numbered 1, 2, 3 (the protocol's enum), not by points."""
_EVENTS: Final = (
    BidMade, CardCalled, ChienShown, CardDiscarded, TrumpDiscarded, ChelemDecided, PoigneeShown,
    CardPlayed, TrickWon, PartnerRevealed, DummyShown,
)
_SETTINGS: Final = (
    Setting("beginner", False, (False, True),
            "the beginner variant: Petite and Garde only, no poignée, no chelem"),
    Setting("direction", Direction.COUNTER_CLOCKWISE.value, tuple(d.value for d in Direction),
            "the way the deal, the bidding and the play go round the table"),
)

DECLARATION: Final = declare(
    name="french-tarot",
    title="French Tarot",
    seat_counts=tuple(sorted(HAND_SIZES)),
    deck_size=DECK_SIZE,
    card_name=card_name,
    phases=Phase,
    decisions={
        "bid": Phase.BIDDING, "call": Phase.CALLING, "discard": Phase.DISCARDING,
        "chelem": Phase.CHELEM, "poignee": Phase.POIGNEE, "play": Phase.PLAYING,
    },
    score=POINTS,
    sums=ScoreSum.ZERO,
    record_format=FORMAT,
    events=_EVENTS,
    observation=Observation,
    settings=_SETTINGS,
    default_players=4,
    auction_phases=(Phase.BIDDING, Phase.CALLING),
    notation=(
        "Cards: rank then suit letter for suit cards (KS, QH, CD for the Cavalier of diamonds, "
        "JC, 10S, AH), T1..T21 for trumps, EX for the Excuse. Actions: pass, bid petite | garde "
        "| garde-sans | garde-contre, call KH, discard 5S, chelem | no-chelem, poignee simple "
        "| double | triple, hide T3, play T21."
    ),
    notes=(
        "Two players play with the dummy: three hands at the table; the defender (the player "
        "who is not the taker) decides for the dummy's seat. A request for the dummy's seat "
        "has `seat` the dummy's and `player` the defender's: route it by `player` when set, "
        "else by `seat`.",
        "Only the seat choosing the trumps to hide from its poignée is in phase `poignee` "
        "(its request says so); its view and everyone else's show `playing`.",
    ),
)


def fallback_action(state: DealState) -> Action:
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


def _contract(argument: int) -> Action:
    if argument not in BIDS:
        raise ValueError(f"unknown contract {argument}")
    return BIDS[Contract(argument)]


def _poignee(argument: int) -> Action:
    if not 1 <= argument <= len(_LEVELS):
        raise ValueError(f"unknown poignee level {argument}")
    return POIGNEES[_LEVELS[argument - 1]]


def _card(actions: tuple[Action, ...]) -> Callable[[int], Action]:
    def decode(card: int) -> Action:
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"card {card} does not exist: cards are numbered 0..{DECK_SIZE - 1}")
        return actions[card]

    return decode


_WIRE: Final[WireTable[Action]] = WireTable(
    encode={
        Play: by_card("play"), Pass: lambda action: WireAction("pass"),
        Bid: lambda action: WireAction("bid", int(action.contract)),
        CallCard: by_card("call"), Discard: by_card("discard"),
        ChelemChoice: lambda action: WireAction("chelem", int(action.announce)),
        DeclarePoignee: lambda action: WireAction("poignee", _LEVELS.index(action.level) + 1),
        HideTrump: by_card("hide"),
    },
    decode={
        "pass": lambda argument: PASS, "bid": _contract,
        "call": _card(CALLS), "discard": _card(DISCARDS),
        "chelem": lambda argument: ANNOUNCE_CHELEM if argument else NO_CHELEM,
        "poignee": _poignee, "play": _card(PLAYS), "hide": _card(HIDES),
    },
)


class FrenchTarot(CardGame[DealState, Action, Event, Observation, TableOptions, DealResult]):
    """French Tarot for 2 (with the dummy), 3, 4 and 5 players (5 with the called king),
    beginner variant and seat direction: see :mod:`arena.games.french_tarot`."""

    display: Final = FRENCH_TAROT_DISPLAY
    """How the surfaces show it (:mod:`.display`)."""

    def __init__(self) -> None:
        super().__init__(
            DECLARATION, DealState,
            Engine(
                new_deal=lambda seed, options, dealer: DealState(
                    seeded_deal(seed, options.players, dealer), options),
                legal_actions=legal_actions, apply=apply, explain_illegal=explain_illegal,
                event_mark=event_mark, events_after=events_after, observe=observe,
                sealed_observation=sealed_observation, observation_after=observation_after,
                format_action=format_action, parse_action=parse_action, card_name=card_name,
                parse_card=parse_card,
            ),
            RecordKind(DealRecord.of, DealRecord.from_json, replay),
            JsonForm(
                (Pass, Bid, CallCard, Discard, ChelemChoice, DeclarePoignee, HideTrump, Play),
                format_action, parse_action, _EVENTS,
            ),
            _WIRE, Phase, DealResult, DealOutcome, Observation,
        )

    # -- tables -------------------------------------------------------------------------------
    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> TableOptions:
        settings = dict(settings or {})
        names = {setting.name for setting in _SETTINGS}
        unknown = set(settings) - names
        if unknown:
            raise ValueError(
                f"unknown French Tarot setting {sorted(unknown)[0]!r}: "
                f"the settings are {', '.join(sorted(names))}"
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

    def dealer_of(self, options: TableOptions, board: int) -> int:
        """With the dummy, seat 1 always deals; otherwise every seat in turn."""
        seats = options.dealer_seats
        return seats[board % len(seats)]

    # -- rules --------------------------------------------------------------------------------
    def decider(self, state: DealState) -> int | None:
        """The seat to act, except the dummy's: the defender decides for it."""
        return state.decider

    def fallback_action(self, state: DealState) -> Action:
        return fallback_action(state)

    def undealt(self, state: DealState) -> tuple[Card, ...]:
        """The chien."""
        return state.deal.chien

    # -- what seats see -----------------------------------------------------------------------
    def sealed_result(self, result: DealResult) -> DealResult:
        """How it ended and the scores. The rest (the summary's points and oudlers, who had a
        petit sec) tells of the hands."""
        return DealResult(result.outcome, result.scores)

    def observation_asked(
        self, observation: Observation, phase: Any, legal: tuple[Action, ...],
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


FRENCH_TAROT: Final = FrenchTarot()

if TYPE_CHECKING:
    _IS_A_GAME: Game[DealState, Action, Event, Observation, TableOptions, DealResult] = (
        FRENCH_TAROT  # mypy checks that the interface is implemented in full
    )
