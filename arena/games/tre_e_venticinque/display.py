"""Tre e Venticinque as people see it (:class:`arena.games.display.Display`): scores in thirds of
a point, cards in the records' notation coloured by suit, the dealer's discard, the tricks with
the Matto's exchange, and how each seat's points make its score. Pure: read from the engine's
own state, no rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..display import CardFace, Fact, FactLine, ScoreUnit, TableView, TrickView
from .actions import Discard, Play
from .cards import MATTO, SUIT_NAMES, TOTAL_THIRDS, card_long_name, card_name, cards_of
from .cards import format_thirds as _thirds
from .deal import PLAYERS
from .game import DealState

THIRDS_OF_A_POINT: Final = ScoreUnit("thirds", "thirds of a point", 3)
"""The scores' unit: the seed counts points in thirds (a Queen is 4, a small card 1/3)."""


def _face(card: int) -> CardFace:
    name = card_name(card)
    if card == MATTO:
        return CardFace(name, card_long_name(card), "excuse")
    if card >= 56:
        return CardFace(name, card_long_name(card), "trump")
    return CardFace(name, card_long_name(card), SUIT_NAMES[card // 14])


FACES: Final = tuple(_face(c) for c in range(78))


def _seats(values: tuple[int, ...], write: Any = str) -> str:
    return ", ".join(f"seat {s} {write(v)}" for s, v in enumerate(values))


class TreEVenticinqueDisplay:
    """Tre e Venticinque's display."""

    match_name: str = "game"
    match_rule: str = ("a game is three deals, one dealt by each seat, by the same players in "
                       "the same seats; the highest total of points wins it (a tie shares it)")

    def form(self, options: Any) -> str:
        return f"{PLAYERS} players"

    def card_face(self, card: int) -> CardFace:
        return FACES[card]

    def card_text(self, card: int) -> str:
        return card_name(card)

    def describe(self, action: Any) -> str:
        if isinstance(action, Discard):
            return f"discards {card_name(action.card)}"
        if isinstance(action, Play):
            return ("plays the Matto" if action.card == MATTO
                    else f"plays {card_name(action.card)}")
        return str(action)

    # -- a deal, step by step -----------------------------------------------------------------
    def start(self, record: Any) -> DealState:
        return DealState(record.deal, record.options)

    def table(self, state: DealState) -> TableView:
        exchange = state.exchange
        tricks = []
        for n, trick in enumerate(state.tricks, start=1):
            note = ""
            if exchange is not None and exchange.trick == n - 1:
                note = (f"the Matto stays with seat {exchange.holder}, who gives seat "
                        f"{exchange.winner} {card_name(exchange.card)} for it")
            if state.matto_lost and n == len(state.tricks) and MATTO in trick.cards:
                note = "the Matto is lost: its holder won no trick"
            tricks.append(TrickView(n, trick.leader, trick.played_by(), trick.winner, note))
        return TableView(tuple(tuple(cards_of(h)) for h in state.hands),
                         state.current_trick, tuple(tricks))

    def title(self, state: DealState) -> str:
        return f"Tre e Venticinque, {PLAYERS} players, dealer seat {state.dealer}"

    def notes(self, state: DealState) -> tuple[str, ...]:
        first = state.first_seat
        return (f"the dealer takes up the talon and discards three; seat {first} leads the "
                "first trick, play goes 0 → 1 → 2",)

    def roles(self, state: DealState) -> Mapping[int, str]:
        return {}

    def undealt(self, state: DealState) -> tuple[Fact, ...]:
        return (Fact("talon", (FactLine(cards=tuple(state.deal.talon)),)),)

    def facts(self, state: DealState) -> tuple[Fact, ...]:
        facts = [Fact("Talon", (FactLine(f"taken up by the dealer, seat {state.dealer}",
                                         tuple(state.deal.talon)),))]
        if state.discard:
            result = state.result
            worth = ("" if result is None or result.discard_thirds is None
                     else f", worth {_thirds(result.discard_thirds)} to the dealer")
            facts.append(Fact("Discard", (FactLine(f"laid aside{worth}",
                                                   tuple(cards_of(state.discard)),
                                                   state.dealer),)))
        matto = [t.note for t in self.table(state).tricks if t.note]
        if state.debt is not None:
            matto.append(f"seat {state.debt.holder} never had a 1/3-point card to give seat "
                         f"{state.debt.winner} for the Matto: the debt is forgotten")
        if matto:
            facts.append(Fact("The Matto", tuple(FactLine(text) for text in matto)))
        return tuple(facts)

    def replay_line(self, state: DealState, seat: int, action: Any, who: str) -> str | None:
        if isinstance(action, Discard):
            return f"{who} discards {card_name(action.card)}"
        return None

    # -- the score ----------------------------------------------------------------------------
    def breakdown(self, state: DealState) -> tuple[str, ...]:
        """The card points each seat took, and how they make its score (in thirds)."""
        result = state.result
        if result is None:
            return ()
        points = result.points
        lines = [f"card points: {_seats(points, _thirds)} ({_thirds(TOTAL_THIRDS)} in all)"]
        if result.tricks_won:
            lines.append(f"tricks won: {_seats(result.tricks_won)}")
        if result.discard_thirds is not None and result.dealer is not None:
            lines.append(f"the discard, {_thirds(result.discard_thirds)}, counts for the "
                         f"dealer, seat {result.dealer}")
        scores = ", ".join(f"seat {s} {THIRDS_OF_A_POINT.labelled(v)}"
                           for s, v in enumerate(result.scores))
        lines.append("score, in thirds of a point: the seat's points minus each other seat's, "
                     f"added up (3 x points - {TOTAL_THIRDS}): {scores}")
        if result.matto_lost:
            lines.append("the Matto was lost: its holder won no trick and played it to the last")
        if result.matto_debt_unpaid:
            lines.append("the Matto's holder never had a 1/3-point card to give for it")
        return tuple(lines)


TRE_E_VENTICINQUE_DISPLAY: Final = TreEVenticinqueDisplay()
