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

from ..cardsets import joined
from .actions import Action
from .cards import Card, Hand
from .game import (
    DealState,
    ShownPoignee,
    _play,
    _playable_halves,
    _taker_side_mask,
    _transition,
)
from .game import (
    copy_state as copy_state,
)


def playable(state: DealState) -> Hand:
    """The cards the seat to act may play now, as a mask (playing phase only).

    The same rule as the plays of :func:`~arena.games.french_tarot.legal_actions`, without building
    action objects: following suit, trumping, overtrumping, the called suit on the first lead.
    """
    seat = state.to_act
    assert seat is not None
    suits, top = _playable_halves(state, state._held[seat])
    return joined(suits, top)


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
