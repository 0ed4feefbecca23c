"""Tre e Venticinque as the arena sees it: its declaration and the few rules the kit
(:mod:`arena.games.kit`) cannot know; this file holds no rule of the game. On the wire an action
is ``discard`` or ``play`` with its card id (:class:`~arena.games.base.WireAction`); a seat
decides ``discard`` (the dealer, three times) or ``play``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from ..base import Game, Revealed, ScoreSum
from ..jsonform import JsonForm
from ..kit import CardGame, Engine, RecordKind, WireTable, by_card, card_table, declare
from .actions import DISCARDS, PLAYS, Action, Discard, Play, format_action, parse_action
from .cards import DECK_SIZE, TOTAL_THIRDS, Card, card_name, parse_card
from .deal import PLAYERS, Deal, seeded_deal
from .display import THIRDS_OF_A_POINT, TRE_E_VENTICINQUE_DISPLAY
from .events import (
    CardDiscarded,
    CardPlayed,
    DiscardDone,
    Event,
    TrickWon,
    event_mark,
    events_after,
)
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
    Observation,
    observation_after,
    observation_asked,
    observation_at_end,
    observe,
    sealed_observation,
)
from .record import FORMAT, DealRecord, replay
from .scoring import GameScore, score_game

_EVENTS: Final = (CardDiscarded, DiscardDone, CardPlayed, TrickWon)

DECLARATION: Final = declare(
    name="tre-e-venticinque",
    title="Tre e Venticinque",
    seat_counts=(PLAYERS,),
    deck_size=DECK_SIZE,
    card_name=card_name,
    phases=Phase,
    decisions={"discard": Phase.DISCARDING, "play": Phase.PLAYING},
    score=THIRDS_OF_A_POINT,
    sums=ScoreSum.ZERO,
    record_format=FORMAT,
    events=_EVENTS,
    observation=Observation,
    notation=(
        "Cards: the French Tarot letters (KS, QH, CD for the Cavalier of coins, JC, 10S, AH; "
        "S swords, H cups, D coins, C batons), T1..T21 for trumps, M for the Matto (T0 is "
        "accepted). Actions: discard 5S, play T21."
    ),
    notes=(
        "The view's `phase` is `discarding` while the dealer lays its three cards, then "
        "`playing`, then `finished`: SeatView.phase carries the protocol's Phase of the same "
        "name (DISCARDING, PLAYING, FINISHED).",
        "The Matto's exchange (the low card its holder gives for it) has no event: it shows in "
        "the view's `piles` and `matto_exchange` once the trick is won, and a bot works it out "
        "from `trick-won` as the arena does.",
        "Scores are in thirds of a point (233 thirds in a deal); each seat's is its points "
        "minus each other seat's, so they sum to zero.",
    ),
)


class TreEVenticinque(CardGame[DealState, Action, Event, Observation, TableOptions, DealResult]):
    """The Piedmontese tarocco for three, each for themselves (``RULES.md`` section 2)."""

    display: Final = TRE_E_VENTICINQUE_DISPLAY
    """How the surfaces show it (:mod:`.display`)."""
    match_deals: int = PLAYERS
    """A game, as the seed counts it: three deals, one per dealer (:meth:`score_match`)."""

    def __init__(self) -> None:
        super().__init__(
            DECLARATION, DealState,
            Engine(
                new_deal=lambda seed, options, dealer: DealState(
                    seeded_deal(seed, dealer), options),
                legal_actions=legal_actions, apply=apply, explain_illegal=explain_illegal,
                event_mark=event_mark, events_after=events_after, observe=observe,
                sealed_observation=sealed_observation, observation_after=observation_after,
                format_action=format_action, parse_action=parse_action, card_name=card_name,
                parse_card=parse_card,
            ),
            RecordKind(DealRecord.of, DealRecord.from_json, replay),
            JsonForm((Discard, Play), format_action, parse_action, _EVENTS),
            WireTable(
                encode={Play: by_card("play"), Discard: by_card("discard")},
                decode={"discard": card_table("discard", DISCARDS, DECK_SIZE),
                        "play": card_table("play", PLAYS, DECK_SIZE)},
            ),
            Phase, DealResult, DealOutcome, Observation,
        )

    def score_match(self, results: Sequence[DealResult]) -> GameScore:
        """The seed's score of a game of three deals (:func:`.scoring.score_game`)."""
        return score_game(results)

    # -- tables -------------------------------------------------------------------------------
    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> TableOptions:
        if settings:
            raise ValueError(f"unknown settings {', '.join(sorted(settings))}: "
                             "Tre e Venticinque has no variant")
        return TableOptions(players)

    # -- rules --------------------------------------------------------------------------------
    def undealt(self, state: DealState) -> tuple[Card, ...]:
        """The talon: the three cards the dealer took up."""
        return state.deal.talon

    # -- what seats see -----------------------------------------------------------------------
    def bare_result(self, outcome: str, scores: Sequence[int]) -> DealResult:
        """The outcome and the scores. (The rest tells nothing hidden either: the tricks were
        played in view and the discard's points follow from the dealer's score; but a sealed end
        says no more than the arena's generic one.) The points still read back from the
        scores."""
        values = [int(score) for score in scores]
        if len(values) != PLAYERS or sum(values) != 0 or any(
            (score + TOTAL_THIRDS) % PLAYERS for score in values
        ):
            raise ValueError(f"{list(scores)} are not the scores of a deal of Tre e Venticinque")
        return DealResult(DealOutcome(outcome), tuple(scores))

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


TRE_E_VENTICINQUE: Final = TreEVenticinque()
"""The game, as the arena's registry of games holds it."""

if TYPE_CHECKING:
    _IS_A_GAME: Game[DealState, Action, Event, Observation, TableOptions, DealResult] = (
        TRE_E_VENTICINQUE  # mypy checks that the interface is implemented in full
    )
