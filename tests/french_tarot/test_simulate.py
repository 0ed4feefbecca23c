"""The simulation fast path and the engine's shortcuts agree with the checked engine: the copy
names every slot, a play or discard checked by its bit is checked as the legal list would, and
the card points and scores computed by counting are those of the cards one by one."""

from __future__ import annotations

import random

import pytest

from arena.games.french_tarot import (
    GameState,
    IllegalActionError,
    Phase,
    Play,
    TableOptions,
    apply,
    legal_actions,
)
from arena.games.french_tarot.actions import Discard
from arena.games.french_tarot.cards import HALF_POINTS, cards_of, mask_half_points
from arena.games.french_tarot.scoring import settle, table_scores
from arena.games.french_tarot.simulate import copy_state, play_unchecked, playable
from tests.state_slots import slots_of


def _midway(players: int, seed: int) -> GameState:
    """A deal of ``seed`` played at random to its third trick."""
    rnd = random.Random(seed)
    state = GameState.from_seed(seed, TableOptions(players=players))
    while state.to_act is not None and len(state.tricks) < 3:
        apply(state, rnd.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_copy_holds_every_slot_and_shares_no_list(players: int) -> None:
    state = _midway(players, 11)
    legal_actions(state)  # the cache and its masks are copied too
    other = copy_state(state)
    for name in slots_of(GameState):
        value = getattr(state, name)
        assert getattr(other, name) == value, name
        if isinstance(value, list):
            assert getattr(other, name) is not value, name
    while other.to_act is not None:
        play_unchecked(other, cards_of(playable(other))[0])
    assert state.result is None and state.trick == _midway(players, 11).trick


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_play_is_refused_or_taken_as_the_legal_list_says(players: int) -> None:
    """Every card of the pack, as an interned play and as a new equal one, at every card of a
    few deals: taken exactly when the legal list holds it."""
    rnd = random.Random(players)
    for seed in range(2):
        state = GameState.from_seed(seed, TableOptions(players=players))
        while state.to_act is not None:
            legal = legal_actions(state)
            if state.phase is Phase.PLAYING or state.phase is Phase.DISCARDING:
                kind = Play if state.phase is Phase.PLAYING else Discard
                for card in range(78):
                    trial = copy_state(state)
                    action = kind(card)
                    if action in legal:
                        apply(trial, action)
                        assert trial.history[-1] == (state.to_act, action)
                    else:
                        with pytest.raises(IllegalActionError):
                            apply(trial, action)
            apply(state, rnd.choice(legal))


def test_a_card_that_is_no_plain_int_is_judged_by_the_legal_list() -> None:
    state = _midway(4, 5)
    hand = state.hands[state.to_act]  # type: ignore[index]
    for bad in (-1, 78, 1 << 80):
        with pytest.raises(IllegalActionError):
            apply(copy_state(state), Play(bad))
    if not playable(state) >> 1 & 1:  # a card True would stand for, were it legal
        with pytest.raises(IllegalActionError):
            apply(copy_state(state), Play(True))  # type: ignore[arg-type]
    assert hand == state.hands[state.to_act]  # type: ignore[index]


def test_half_points_by_counting_are_the_cards_one_by_one() -> None:
    rnd = random.Random(3)
    for _ in range(2000):
        mask = rnd.getrandbits(78) & rnd.getrandbits(78)
        assert mask_half_points(mask) == sum(HALF_POINTS[c] for c in cards_of(mask))
    assert mask_half_points((1 << 78) - 1) == 182


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_engine_s_scores_are_settle_s(players: int) -> None:
    rnd = random.Random(players)
    for seed in range(30):
        state = GameState.from_seed(seed, TableOptions(players=players))
        while state.to_act is not None:
            apply(state, rnd.choice(legal_actions(state)))
        result = state.result
        assert result is not None
        if result.summary is not None and result.taker is not None:
            assert result.breakdown is not None
            expected = settle(result.summary, result.taker, result.partner)
            assert result.scores == expected
            assert table_scores(result.breakdown, players, result.taker, result.partner) == expected
