"""Which public events an action produces, and who may receive each: pure, no I/O."""

from __future__ import annotations

from arena.games.french_tarot import (
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    Pass,
    Phase,
    Play,
)
from arena.games.french_tarot.cards import is_trump

from .messages import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    Event,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
)

EVERYONE = None


def events_after(
    state: GameState, actor: int, action: Action, tricks_before: int
) -> list[tuple[int | None, Event]]:
    """Events caused by ``action`` just applied to ``state``: (only this seat, or everyone)."""
    out: list[tuple[int | None, Event]] = []
    if isinstance(action, Pass | Bid):
        out.append((EVERYONE, BidMade(actor, action)))
        _chien_if_shown(state, out)
    elif isinstance(action, CallCard):
        out.append((EVERYONE, CardCalled(action.card)))
        _chien_if_shown(state, out)
    elif isinstance(action, Discard):
        out.append((actor, CardDiscarded(action.card)))
        if is_trump(action.card):
            out.append((EVERYONE, TrumpDiscarded(action.card)))
    elif isinstance(action, ChelemChoice):
        out.append((EVERYONE, ChelemDecided(actor, action.announce)))
    elif isinstance(action, DeclarePoignee | HideTrump):
        if state.phase is not Phase.POIGNEE:  # shown once its player has nothing left to hide
            out.append((EVERYONE, PoigneeShown(state.poignees[-1])))
    elif isinstance(action, Play):
        out.append((EVERYONE, CardPlayed(actor, action.card)))
        if action.card == state.called_card:
            out.append((EVERYONE, PartnerRevealed(actor)))
        if len(state.tricks) > tricks_before:
            out.append((EVERYONE, TrickWon(len(state.tricks) - 1, state.tricks[-1])))
    return out


def _chien_if_shown(state: GameState, out: list[tuple[int | None, Event]]) -> None:
    """The chien is shown as the taker takes it up (Petite, Garde)."""
    if state.phase is Phase.DISCARDING and not state.discard:
        out.append((EVERYONE, ChienShown(state.deal.chien)))
