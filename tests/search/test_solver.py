"""The exact solver for the last tricks: on small drawn deals it gives the minimax of every play
sequence (brute force, no pruning, every card on its own), and its values are the engine's own
scores of a deal played out."""

from __future__ import annotations

import random

import pytest

from arena.games.french_tarot import GameState, Phase, Play, TableOptions, apply, legal_actions
from arena.games.french_tarot.simulate import copy_state, play_unchecked, playable, taker_side
from clients.sdk import solve, solve_cards
from clients.sdk.solver import cards_left
from clients.search_bot import rollout_card


def endgame(seed: int, players: int, cards: int) -> GameState | None:
    """A random deal played at random until every hand holds at most ``cards`` cards, then a
    random number of cards more into the trick; None when nobody took."""
    rng = random.Random(seed)
    options = TableOptions(players=players)
    state = GameState.from_seed(seed, options, dealer=1 if players == 2 else seed % players)
    while state.to_act is not None and not (
        state.phase is Phase.PLAYING and not state.trick and cards_left(state) <= cards
    ):
        legal = legal_actions(state)
        apply(state, legal[rng.randrange(len(legal))])
    if state.to_act is None:
        return None
    for _ in range(rng.randrange(state.seats)):
        legal = legal_actions(state)
        apply(state, legal[rng.randrange(len(legal))])
    return state


def brute_force(state: GameState) -> tuple[int, ...]:
    """Minimax of the taker's score over every sequence of playable cards."""
    if state.result is not None:
        return state.result.scores
    assert state.taker is not None and state.to_act is not None
    raising = taker_side(state) >> state.to_act & 1
    lines = []
    mask = playable(state)
    for card in range(78):
        if mask >> card & 1:
            child = copy_state(state)
            play_unchecked(child, card)
            lines.append(brute_force(child))
    taker = state.taker
    return (max if raising else min)(lines, key=lambda line: line[taker])


def positions(players: int, cards: int, count: int) -> list[GameState]:
    found = []
    seed = 1000 * players + 10 * cards
    while len(found) < count:
        state = endgame(seed, players, cards)
        seed += 1
        if state is not None:
            found.append(state)
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_agrees_with_brute_force(players: int) -> None:
    cards = 4 if players == 3 else 3
    for state in positions(players, cards, 40):
        expected = brute_force(state)
        before = (state.hands.copy(), state.trick.copy(), len(state.tricks), state.to_act)
        assert solve(state) == expected
        assert (state.hands, state.trick, len(state.tricks), state.to_act) == before
        assert solve(state, first=rollout_card) == expected


def test_agrees_with_brute_force_card_by_card() -> None:
    for state in positions(4, 3, 30):
        cards = [c for c in range(78) if playable(state) >> c & 1]
        lines = solve_cards(state, cards, first=rollout_card)
        for card, line in zip(cards, lines, strict=True):
            child = copy_state(state)
            play_unchecked(child, card)
            assert line == brute_force(child)


def test_values_are_the_engines_scores_of_a_line_played_out() -> None:
    """Following the solver's best card at every turn finishes the deal with the very scores it
    announced, through the checked engine (apply)."""
    for state in positions(4, 4, 20) + positions(5, 3, 10) + positions(3, 4, 10):
        announced = solve(state)
        while state.to_act is not None:
            cards = [c for c in range(78) if playable(state) >> c & 1]
            lines = solve_cards(state, cards)
            assert state.taker is not None
            raising = taker_side(state) >> state.to_act & 1
            pick = (max if raising else min)(range(len(cards)),
                                             key=lambda i: lines[i][state.taker])
            assert lines[pick] == announced
            apply(state, Play(cards[pick]))
        assert state.result is not None and state.result.scores == announced


def test_refuses_other_phases_and_unplayable_cards() -> None:
    state = GameState.from_seed(3, TableOptions(players=4), dealer=0)
    with pytest.raises(ValueError, match="bidding"):
        solve(state)
    (playing,) = positions(4, 2, 1)
    held = [c for c in range(78) if not playable(playing) >> c & 1]
    with pytest.raises(ValueError, match="cannot be played"):
        solve_cards(playing, held[:1])
