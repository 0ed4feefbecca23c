"""A finished deal as the replay viewer steps through it: one snapshot per action.

The record is replayed through the rules engine (the only source of truth about hands and
tricks), so the viewer shows exactly what the rules made of each action, and the decision log
adds each action's time and any infraction (decision *i* is action *i*: every action of a deal
is a seat's decision).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games import Game
from arena.games.french_tarot import (
    Bid,
    CallCard,
    ChelemChoice,
    DealRecord,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    Pass,
    Play,
    apply,
    card_long_name,
    card_symbol,
)
from arena.games.french_tarot.cards import cards_of
from arena.storage.models import Decision

SUIT_CLASSES = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True, slots=True)
class CardFace:
    id: int
    text: str
    label: str
    css: str


def card_face(card: int) -> CardFace:
    """What a card looks like on the page: short text with its suit symbol, the words for
    screen readers, and a class for its colour."""
    if card == 77:
        return CardFace(card, "Exc", card_long_name(card), "excuse")
    if card >= 56:
        return CardFace(card, card_symbol(card), card_long_name(card), "trump")
    return CardFace(card, card_symbol(card), card_long_name(card), SUIT_CLASSES[card // 14])


FACES = [card_face(c) for c in range(78)]


def faces_of(game: Game) -> list[CardFace]:
    """The faces of a game's cards: French Tarot's with suit symbols and colours, another
    game's by their names."""
    if game.name == "french-tarot":
        return FACES
    return [CardFace(c, game.card_name(c), game.card_name(c), "") for c in range(game.deck_size)]


def _kind(action: object) -> str:
    if isinstance(action, Pass | Bid):
        return "bid"
    if isinstance(action, CallCard):
        return "call"
    if isinstance(action, Discard):
        return "discard"
    if isinstance(action, ChelemChoice):
        return "chelem"
    if isinstance(action, DeclarePoignee | HideTrump):
        return "poignee"
    return "play"


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
        return str(action)  # an action this page does not know yet: its notation
    face = FACES[action.card]
    return f"plays {face.text if face.css != 'trump' else 'trump ' + face.text}"


def replay_steps(record: DealRecord, decisions: list[Decision]) -> dict[str, Any]:
    """Everything the viewer needs, as plain JSON: the steps and the deal's public facts."""
    state = GameState(record.deal, record.options)
    timing = {d.index: d for d in decisions}
    players = record.options.seats  # the hands drawn: two players' tables have the dummy's too

    def snapshot() -> dict[str, Any]:
        trick: list[list[int]]
        winner = None
        if state.trick:
            trick = [[(state.trick_leader + i) % players, c] for i, c in enumerate(state.trick)]
        elif state.tricks:
            last = state.tricks[-1]
            trick = [[s, c] for s, c in last.played_by()]
            winner = last.winner
        else:
            trick = []
        won = [0] * players
        for t in state.tricks:
            won[t.winner] += 1
        return {"hands": [cards_of(h) for h in state.hands], "trick": trick, "winner": winner,
                "won": won, "tricks": len(state.tricks)}

    steps = [{"index": None, "seat": None, "text": "the deal", "kind": "deal",
              "seconds": None, "infraction": None, "reason": None, "completes": None,
              **snapshot()}]
    tricks_seen = 0
    for index, (seat, action) in enumerate(record.actions):
        apply(state, action, seat)
        log = timing.get(index)
        step = {
            "index": index, "seat": seat, "text": describe(action), "kind": _kind(action),
            "seconds": None if log is None else log.seconds,
            "infraction": None if log is None else log.infraction,
            "reason": None if log is None else log.reason, "completes": None,
            **snapshot(),
        }
        if len(state.tricks) > tricks_seen:
            tricks_seen = len(state.tricks)
            step["completes"] = tricks_seen
        steps.append(step)
    poignees = [{"seat": p.seat, "level": p.level.label, "cards": list(p.cards)}
                for p in state.poignees]
    return {
        "players": players,
        "dealer": record.deal.dealer,
        "steps": steps,
        "chien": list(record.deal.chien),
        "discard": cards_of(state.discard),
        "taker": state.taker,
        "partner": state.partner,
        "dummy": state.dummy_seat,
        "defender": state.defender,
        "called": state.called_card,
        "contract": None if state.contract is None else state.contract.label,
        "poignees": poignees,
        "tricks": [{"leader": t.leader, "winner": t.winner,
                    "cards": [[s, c] for s, c in t.played_by()]} for t in state.tricks],
        "bids": [[s, describe(a)] for s, a in state.bids],
    }


def deal_summary(record: DealRecord) -> dict[str, Any]:
    """A played deal in a few facts, for the board page's side-by-side comparison."""
    bids: dict[int, list[str]] = {seat: [] for seat in range(record.options.players)}
    for seat, action in record.actions:
        if isinstance(action, Pass | Bid):
            bids[seat].append(describe(action).replace("bids ", "").replace("passes", "pass"))
    result = record.result
    out: dict[str, Any] = {"bids": bids, "outcome": None, "taker": None, "partner": None,
                           "contract": None, "called": None, "won": None, "margin": None,
                           "points": None, "bouts": None}
    if result is None:
        return out
    out["outcome"] = result.outcome.value
    out["taker"], out["partner"] = result.taker, result.partner
    out["contract"] = None if result.contract is None else result.contract.label
    out["called"] = result.called_card
    if result.breakdown is not None and result.summary is not None:
        out["won"] = result.breakdown.won
        out["margin"] = result.breakdown.margin
        out["points"] = result.summary.taker_half_points / 2
        out["bouts"] = result.summary.bouts
    return out
