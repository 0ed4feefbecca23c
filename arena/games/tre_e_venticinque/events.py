"""What a seat is told of a deal as it goes: Tre e Venticinque's events, and which ones each
action causes for whom. Pure, no I/O.

- :class:`CardDiscarded` to the dealer alone, one per card laid face down;
- :class:`DiscardDone` to everyone once the third is laid: play begins;
- :class:`CardPlayed` and, after the third card of a trick, :class:`TrickWon`, to everyone.

The Matto's exchange has no event: every seat works it out from the trick won (the views'
``matto_exchange``). A seat's view is rebuilt from exactly these events by
:func:`~.observation.observation_after`, on both sides of the wire.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base import EVERYONE
from .actions import Action, Discard, Play
from .cards import Card
from .game import DealState, Phase, Trick


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """To the dealer: one card it laid face down."""

    card: Card


@dataclass(frozen=True, slots=True)
class DiscardDone:
    """To everyone: the dealer has laid its three cards; the seat after it leads."""

    dealer: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """To everyone: a card played to the trick by ``seat``."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """To everyone: a trick complete and its winner, who leads the next. The Matto's exchange
    (a low card given for it) has no event of its own: it shows in the tricks' piles only."""

    index: int
    trick: Trick


Event = CardDiscarded | DiscardDone | CardPlayed | TrickWon


_Mark = tuple[int, Phase]


def event_mark(state: DealState) -> _Mark:
    """What :func:`events_after` compares with: the tricks finished and the phase."""
    return len(state.tricks), state.phase


def events_after(
    state: DealState, actor: int, action: Action, before: _Mark
) -> list[tuple[int | None, Event]]:
    """The events ``actor``'s ``action``, just applied to ``state``, causes, each with its
    recipient seat or :data:`~arena.games.base.EVERYONE`."""
    tricks_before, phase_before = before
    out: list[tuple[int | None, Event]] = []
    if isinstance(action, Discard):
        out.append((actor, CardDiscarded(action.card)))
        if state.phase is not phase_before:
            out.append((EVERYONE, DiscardDone(actor)))
    elif isinstance(action, Play):
        out.append((EVERYONE, CardPlayed(actor, action.card)))
        if len(state.tricks) > tricks_before:
            out.append((EVERYONE, TrickWon(tricks_before, state.tricks[tricks_before])))
    return out
