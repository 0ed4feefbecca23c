"""French Tarot as people see it (:class:`arena.games.display.Display`): cards with their suit
symbols, actions in words, a deal's bidding, chien, poignées and tricks, every term of its
score. Pure: read from the engine's own state, no rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..display import CardFace, Fact, FactLine, TableView, TrickView
from .actions import (
    Bid,
    CallCard,
    ChelemChoice,
    DeclarePoignee,
    Discard,
    HideTrump,
    Pass,
    Play,
)
from .cards import EXCUSE, card_long_name, card_symbol, cards_of
from .game import Direction, GameState, TableOptions
from .scoring import Side

SUIT_CLASSES: Final = ("spades", "hearts", "diamonds", "clubs")


def _face(card: int) -> CardFace:
    if card == EXCUSE:
        return CardFace("Exc", card_long_name(card), "excuse")
    if card >= 56:
        return CardFace(card_symbol(card), card_long_name(card), "trump")
    return CardFace(card_symbol(card), card_long_name(card), SUIT_CLASSES[card // 14])


FACES: Final = tuple(_face(c) for c in range(78))


def card_text(card: int) -> str:
    """``card_symbol``, with trumps as ``T21`` rather than a bare number (``1:1`` in a trick
    line would not say which is the seat and which the card)."""
    symbol = card_symbol(card)
    return f"T{symbol}" if symbol.isdigit() else symbol


def describe(action: object) -> str:
    """An action in words, cards with their suit symbols."""
    if isinstance(action, Pass):
        return "passes"
    if isinstance(action, Bid):
        return f"bids {action.contract.label}"
    if isinstance(action, CallCard):
        return f"calls {card_symbol(action.card)}"
    if isinstance(action, Discard):
        return f"discards {card_symbol(action.card)}"
    if isinstance(action, ChelemChoice):
        return "announces a chelem" if action.announce else "announces no chelem"
    if isinstance(action, DeclarePoignee):
        return f"shows a {action.level.label} poignée"
    if isinstance(action, HideTrump):
        return f"keeps trump {card_symbol(action.card)} out of the poignée"
    if not isinstance(action, Play):
        return str(action)
    face = FACES[action.card]
    return f"plays {face.text if face.css != 'trump' else 'trump ' + face.text}"


def seat_order(players: int, direction: Direction) -> str:
    """How the seats sit around the table: play always goes 0, 1, 2, ... (the turn order);
    the direction only says which way round that is."""
    order = " → ".join(str(s) for s in range(players))
    return f"play goes {order}, {direction.value} around the table"


def chelem_explained(announced: bool, side: Any, bonus: int) -> list[str]:
    """Why a chelem term is there: +400 announced and made, +200 made unannounced, -200
    announced and failed, and a further -200 when the defence took every trick."""
    lines = []
    if side is Side.TAKER:
        lines.append(f"chelem {'announced and ' if announced else 'unannounced, '}made: "
                     f"{'+400' if announced else '+200'}")
    elif announced:
        lines.append("chelem announced and not made: -200 (the taker's side pays it to each "
                     "defender, whatever the contract's result)")
    if side is Side.DEFENCE:
        lines.append("the defence took every trick: each defender gains 200 more")
    return lines if bonus else []


class FrenchTarotDisplay:
    """French Tarot's display; scores are whole points."""


    def form(self, options: TableOptions) -> str:
        text = ("2 players with the dummy" if options.players == 2
                else f"{options.players} players")
        if options.beginner:
            text += ", beginner variant"
        if options.direction is not Direction.COUNTER_CLOCKWISE:
            text += f", {options.direction.value}"
        return text

    def card_face(self, card: int) -> CardFace:
        return FACES[card]

    def card_text(self, card: int) -> str:
        return card_text(card)

    def describe(self, action: Any) -> str:
        return describe(action)

    # -- a deal, step by step -----------------------------------------------------------------
    def start(self, record: Any) -> GameState:
        return GameState(record.deal, record.options)

    def table(self, state: GameState) -> TableView:
        seats = state.seats
        trick = tuple(((state.trick_leader + i) % seats, c) for i, c in enumerate(state.trick))
        tricks = tuple(TrickView(n, t.leader, t.played_by(), t.winner)
                       for n, t in enumerate(state.tricks, start=1))
        return TableView(tuple(tuple(cards_of(h)) for h in state.hands), trick, tricks)

    def title(self, state: GameState) -> str:
        options = state.options
        players = (f"{options.players} players with the dummy (seat {state.dummy_seat})"
                   if state.dummy_seat is not None else f"{state.seats} players")
        return (f"{players}, dealer seat {state.dealer}"
                + (", beginner variant" if options.beginner else ""))

    def notes(self, state: GameState) -> tuple[str, ...]:
        return (seat_order(state.seats, state.options.direction),)

    def roles(self, state: GameState) -> Mapping[int, str]:
        roles: dict[int, str] = {}
        if state.taker is not None:
            roles[state.taker] = "taker"
            if state.partner is not None and state.partner != state.taker:
                roles[state.partner] = "partner"
        if state.dummy_seat is not None:
            roles[state.dummy_seat] = "dummy"
        return roles

    def undealt(self, state: GameState) -> tuple[Fact, ...]:
        return (Fact("chien", (FactLine(cards=tuple(state.deal.chien)),)),)

    def facts(self, state: GameState) -> tuple[Fact, ...]:
        bidding = tuple(FactLine(describe(a), seat=s) for s, a in state.bids)
        facts = [Fact("Bidding", bidding)]
        if state.contract is not None and state.taker is not None:
            text = f"{state.contract.label} by seat {state.taker}"
            if state.partner is not None and state.partner != state.taker:
                text += f", partner seat {state.partner}"
            facts.append(Fact("Contract", (FactLine(text + "."),)))
        else:
            facts.append(Fact("Contract", (FactLine("Nobody took: the deal is not played."),)))
        if state.called_card is not None:
            facts.append(Fact("Called king", (FactLine(cards=(state.called_card,)),)))
        facts.append(Fact("Chien", (FactLine(cards=tuple(state.deal.chien)),)))
        if state.discard:
            facts.append(Fact("Discard", (FactLine(cards=tuple(cards_of(state.discard))),)))
        if state.poignees:
            facts.append(Fact("Poignées", tuple(
                FactLine(f"{p.level.label}:", tuple(p.cards), p.seat) for p in state.poignees
            )))
        return tuple(facts)

    def replay_line(self, state: GameState, seat: int, action: Any, who: str) -> str | None:
        if isinstance(action, Pass | Bid):
            return f"{who}: {action}"
        if isinstance(action, CallCard):
            return f"{who} calls {card_text(action.card)}"
        if isinstance(action, Discard):
            return f"{who} discards {card_text(action.card)}"
        if isinstance(action, ChelemChoice):
            return f"{who} announces a chelem" if action.announce else None
        if isinstance(action, DeclarePoignee):
            return _poignee_line(state, seat, action, who)
        return None  # a trump kept hidden: the poignée's line says so

    # -- the score ----------------------------------------------------------------------------
    def breakdown(self, state: GameState) -> tuple[str, ...]:
        """The contract, and every term of X with the value per defender."""
        result = state.result
        if result is None or result.summary is None or result.breakdown is None:
            return ()
        s, b = result.summary, result.breakdown
        lines = [
            f"{s.contract.label} by seat {result.taker}: {float(s.taker_points):g} points, "
            f"{s.bouts} bouts, target {b.target}, " + ("made" if b.won else "failed")
            + f" by {b.margin}"
        ]
        terms = [f"contract {b.contract_points:+d} ((25 + {b.margin}) x "
                 f"{s.contract.multiplier})"]
        if b.petit_au_bout:
            terms.append(f"petit au bout {b.petit_au_bout:+d}")
        if b.poignee:
            terms.append(f"poignée {b.poignee:+d}")
        if b.chelem:
            terms.append(f"chelem {b.chelem:+d}")
        if state.dummy_seat is not None:
            lines.append(f"X: {'; '.join(terms)}; total {b.per_defender:+d} (settled between "
                         "two: the taker scores +2X, the defender -2X)")
        else:
            lines.append(f"X per defender: {'; '.join(terms)}; total {b.per_defender:+d} "
                         "(each defender scores -X)")
        lines += chelem_explained(s.chelem_announced, s.chelem, b.chelem)
        return tuple(lines)


def _poignee_line(state: GameState, seat: int, action: DeclarePoignee, who: str) -> str:
    """The trumps shown, and those the player chose to keep hidden (the deal is over: a replay
    may tell them)."""
    shown = next(p.cards for p in state.poignees if p.seat == seat)
    hidden = [a.card for s, a in state.history if s == seat and isinstance(a, HideTrump)]
    line = (f"{who} shows a {action.level.label} poignée: "
            + " ".join(card_text(c) for c in shown))
    if hidden:
        kept = " ".join(card_text(c) for c in sorted(hidden, reverse=True))
        line += f" (keeps {kept} hidden)"
    return line


FRENCH_TAROT_DISPLAY: Final = FrenchTarotDisplay()
