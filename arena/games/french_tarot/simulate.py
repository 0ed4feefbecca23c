"""The simulation fast path: copy a state and play actions without re-checking their legality.

A search bot plays thousands of deals per decision from positions it builds itself, from its own
legal-move generation (:func:`playable`): checking each action again against a freshly built
legal list would cost as much as the rules themselves. These functions skip that check and
nothing else, so a state reached through them is exactly the state
:func:`~arena.games.french_tarot.apply` would have reached from the same actions, provided they were
legal. An illegal action here leaves a state the rules never produce: the arena never calls these,
only simulations do.
"""

from __future__ import annotations

from .actions import Action
from .cards import Card, Hand
from .game import (
    DealState,
    ShownPoignee,
    _play,
    _taker_side_mask,
    _transition,
    _without_called_suit,
    legal_play_mask,
)

_SLOTS = DealState.__slots__


def copy_state(state: DealState) -> DealState:
    """A copy that :func:`apply_unchecked` and :func:`play_unchecked` can change freely.

    Faster than :meth:`DealState.copy` (no per-slot type test): the lists are the only
    mutable parts of a state (hands, history, bids, tricks, the trick, shown poignées and
    discarded trumps); everything else is an int, an enum or an immutable value, shared.
    """
    other = DealState.__new__(DealState)
    for name in _SLOTS:
        setattr(other, name, getattr(state, name))
    other.hands = state.hands.copy()
    other.history = state.history.copy()
    other.bids = state.bids.copy()
    other.tricks = state.tricks.copy()
    other.trick = state.trick.copy()
    other.poignees = state.poignees.copy()
    other.discarded_trumps = state.discarded_trumps.copy()
    return other


def playable(state: DealState) -> Hand:
    """The cards the seat to act may play now, as a mask (playing phase only).

    The same rule as the plays of :func:`~arena.games.french_tarot.legal_actions`, without building
    action objects: following suit, trumping, overtrumping, the called suit on the first lead.
    """
    seat = state.to_act
    assert seat is not None
    mask = legal_play_mask(state.hands[seat], state._led, state._best)
    if not state.tricks and not state.trick and state.called_card is not None:
        mask = _without_called_suit(mask, state.called_card)
    return mask


def play_unchecked(state: DealState, card: Card) -> None:
    """The seat to act plays ``card`` (which it must hold and may play): the rollout hot path.

    Not recorded in ``history``: a simulation never reads it, and appending costs. A seat
    that has not declared a poignée by its first card has passed on it, as in the rules.
    """
    state._legal = None
    seat = state.to_act
    assert seat is not None
    _play(state, seat, card)


def apply_unchecked(state: DealState, action: Action) -> None:
    """:func:`~arena.games.french_tarot.apply` without the turn and legality checks (recorded in
    history)."""
    actor = state.to_act
    assert actor is not None
    _transition(state, actor, action)


def show_poignee_unchecked(state: DealState, shown: ShownPoignee) -> None:
    """Record a poignée exactly as it was shown (its seat's choice of trumps to hide included),
    when rebuilding a position from what a seat saw rather than replaying the hides."""
    state.poignee_done |= 1 << shown.seat
    state.poignees.append(shown)


def trick_status(state: DealState) -> tuple[int, Card, int]:
    """The trick being played, for a policy: (led suit 0..3, 4 for trumps, -1 when nothing but
    perhaps the Excuse is down; the card winning it so far, -1 if none; its index in the
    trick)."""
    return state._led, state._best, state._best_pos


def taker_side(state: DealState) -> int:
    """The taker's side as a mask of seats (bit ``s`` for seat ``s``): the taker and, with five
    players, its partner once the cards are dealt (a simulation knows every hand)."""
    return _taker_side_mask(state)
