"""The simulation fast path (copy, play unchecked) reaches the engine's own states."""

from __future__ import annotations

import random

from arena.games.tre_e_venticinque import DealState, Phase, apply, legal_actions
from arena.games.tre_e_venticinque.cards import cards_of
from arena.games.tre_e_venticinque.simulate import (
    apply_unchecked,
    copy_state,
    play_unchecked,
    playable,
)
from tests.state_slots import slots_of


def test_the_fast_path_reaches_the_engines_state() -> None:
    for number in range(100):
        state = DealState.from_seed(2_000 + number, number % 3)
        rng = random.Random(number)
        for _ in range(rng.randrange(80)):
            if state.to_act is None:
                break
            legal = legal_actions(state)
            apply(state, legal[rng.randrange(len(legal))])
        if state.to_act is None or state.phase is not Phase.PLAYING:
            continue
        fast, checked = copy_state(state), state.copy()
        while checked.to_act is not None:
            cards = cards_of(playable(fast))
            assert [a.card for a in legal_actions(checked)] == cards
            card = cards[rng.randrange(len(cards))]
            play_unchecked(fast, card)
            apply(checked, legal_actions(checked)[cards.index(card)])
        assert fast.result == checked.result and fast.piles == checked.piles


def test_apply_unchecked_replays_a_deal_to_the_same_result() -> None:
    for number in range(50):
        state = DealState.from_seed(number, number % 3)
        rng = random.Random(number)
        while state.to_act is not None:
            legal = legal_actions(state)
            apply(state, legal[rng.randrange(len(legal))])
        again = DealState(state.deal)
        for _, action in state.history:
            apply_unchecked(again, action)
        assert again.result == state.result and again.history == []


def test_the_copy_holds_every_slot_and_shares_no_list_but_the_history() -> None:
    state = DealState.from_seed(7, 1)
    rng = random.Random(7)
    while len(state.tricks) < 3:
        legal = legal_actions(state)
        apply(state, legal[rng.randrange(len(legal))])
    legal_actions(state)  # the caches are copied too
    other = copy_state(state)
    for name in slots_of(DealState):
        value = getattr(state, name)
        assert getattr(other, name) == value, name
        if isinstance(value, list) and name != "history":
            assert getattr(other, name) is not value, name
