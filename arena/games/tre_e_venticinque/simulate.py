"""The simulation fast path of Tre e Venticinque: copy a state and play cards without re-checking
their legality.

A search bot plays out thousands of deals per decision from positions it builds itself, with its
own legal-move generation (:func:`playable`, the engine's rule as a mask): checking each card
again in :func:`~arena.games.tre_e_venticinque.apply` and recording it in ``history`` would cost
as much as the rules themselves. These functions skip that check and the record, nothing else:
a state reached through them is the state :func:`~arena.games.tre_e_venticinque.apply` reaches
from the same actions (history apart), provided they are legal. An illegal card here leaves a
state the rules never produce: the arena never calls these, only simulations do.
"""

from __future__ import annotations

from ..cardsets import joined
from .actions import Action, Discard
from .cards import Card, Hand
from .game import DealState, _discard, _play, _playable_halves
from .game import copy_state as copy_state


def playable(state: DealState) -> Hand:
    """The cards the seat to act may play now, as a mask (playing phase only): the rule behind
    :func:`~arena.games.tre_e_venticinque.legal_actions`, without building actions."""
    seat = state.to_act
    assert seat is not None
    suits, top = _playable_halves(state._held[seat], state._follow, state.tricks_won[seat] > 0)
    return joined(suits, top)


def play_unchecked(state: DealState, card: Card) -> None:
    """The seat to act plays ``card`` (which it must hold and may play): the rollout hot path.
    Not recorded in ``history``."""
    seat = state.to_act
    assert seat is not None
    state._legal = None
    state._mask = -1
    _play(state, seat, card)


def apply_unchecked(state: DealState, action: Action) -> None:
    """:func:`~arena.games.tre_e_venticinque.apply` without the turn and legality checks, and
    without the record in ``history``: to rebuild a position from actions known to be legal."""
    seat = state.to_act
    assert seat is not None
    state._legal = None
    state._mask = -1
    if type(action) is Discard:
        _discard(state, seat, action.card)
    else:
        _play(state, seat, action.card)
