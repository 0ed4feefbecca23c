"""What a seat is told of a deal as it goes: French Tarot's public events, and which ones each
action causes for whom. Pure, no I/O.

An event is what a player at a real table would see happen (a bid spoken, a card played, the
chien turned over), never a hidden card: the taker's discards go to the taker only, and the
others learn of the trumps among them alone. A seat's view is rebuilt from exactly these events
by :func:`~arena.games.french_tarot.observation_after`, on both sides of the wire, so a new
event is always added here and there together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import (
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    DeclarePoignee,
    Discard,
    HideTrump,
    Pass,
    Play,
)
from .cards import Card, cards_of, is_trump
from .game import DealState, Phase, ShownPoignee, Trick

EVERYONE: Final = None
"""The recipient of an event that every seat receives."""


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat passed (``action`` is :data:`~arena.games.french_tarot.PASS`) or bid."""

    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class DummyShown:
    """Two players: the dummy's hand laid face up for both players, once the taker has laid its
    discard (right after bidding for Garde Sans and Garde Contre). The defender plays it from
    there, and both players see it shrink card by card."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardCalled:
    """Five players: the card the taker called."""

    card: Card


@dataclass(frozen=True, slots=True)
class ChienShown:
    """Petite, Garde: the chien turned over for all to see before the taker takes it up."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """Sent to the taker only: one card of its discard."""

    card: Card


@dataclass(frozen=True, slots=True)
class TrumpDiscarded:
    """A trump the taker had to discard: the rules show it to all."""

    card: Card


@dataclass(frozen=True, slots=True)
class ChelemDecided:
    """A seat announced a chelem (``announce``) or not: the taker's answer, told to all."""

    seat: int
    announce: bool


@dataclass(frozen=True, slots=True)
class PoigneeShown:
    """A poignée, once its player has chosen the trumps to keep hidden (if it had a choice)."""

    poignee: ShownPoignee


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card played to the trick, by ``seat`` (with the dummy, the dummy's seat for its
    cards), told to all."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick complete, with its winner (who leads the next), told to all."""

    index: int
    """The trick's number in the deal, from 0."""
    trick: Trick


@dataclass(frozen=True, slots=True)
class PartnerRevealed:
    """Five players: the called card was played by ``seat`` (the taker's own seat: it plays
    alone)."""

    seat: int


Event = (
    BidMade | CardCalled | ChienShown | CardDiscarded | TrumpDiscarded | ChelemDecided
    | PoigneeShown | CardPlayed | TrickWon | PartnerRevealed | DummyShown
)
"""Every event of French Tarot, in one closed union."""

EVENT_TYPES: Final = (
    BidMade, CardCalled, ChienShown, CardDiscarded, TrumpDiscarded, ChelemDecided, PoigneeShown,
    CardPlayed, TrickWon, PartnerRevealed, DummyShown,
)


def event_mark(state: DealState) -> int:
    """What :func:`events_after` needs to know of the state before an action: the number of
    finished tricks (a trick won shows only as one more of them)."""
    return len(state.tricks)


def events_after(
    state: DealState, actor: int, action: Action, tricks_before: int
) -> list[tuple[int | None, Event]]:
    """The events ``actor``'s ``action``, just applied to ``state``, causes, in the order they
    are sent, each with its only recipient or :data:`EVERYONE`. ``tricks_before`` is
    :func:`event_mark` of the state before the action."""
    out: list[tuple[int | None, Event]] = []
    if isinstance(action, Pass | Bid):
        out.append((EVERYONE, BidMade(actor, action)))
        _chien_if_shown(state, out)
        _dummy_if_shown(state, out)
    elif isinstance(action, CallCard):
        out.append((EVERYONE, CardCalled(action.card)))
        _chien_if_shown(state, out)
    elif isinstance(action, Discard):
        out.append((actor, CardDiscarded(action.card)))
        if is_trump(action.card):
            out.append((EVERYONE, TrumpDiscarded(action.card)))
        _dummy_if_shown(state, out)
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


def _chien_if_shown(state: DealState, out: list[tuple[int | None, Event]]) -> None:
    """The chien is shown as the taker takes it up (Petite, Garde)."""
    if state.phase is Phase.DISCARDING and not state.discard:
        out.append((EVERYONE, ChienShown(state.deal.chien)))


def _dummy_if_shown(state: DealState, out: list[tuple[int | None, Event]]) -> None:
    """The dummy is shown as the last bid ends a Garde Sans or Contre's bidding, or as the
    taker lays the last card of its discard: the moment :attr:`DealState.dummy_shown` turns
    true (the actions that can turn it are these two only)."""
    if state.dummy_seat is not None and state.dummy_shown:
        out.append((EVERYONE, DummyShown(tuple(cards_of(state.hands[state.dummy_seat])))))
