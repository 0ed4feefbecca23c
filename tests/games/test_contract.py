"""What the arena assumes of every game (:class:`arena.games.base.Game`), checked the same way
for each game it knows and for the tests' toy game, over many random deals.

A game passing these can be hosted: the table runner, the protocol's generic forms, storage and
the bot SDK rely on nothing else.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena import games
from arena.games.base import Game, IllegalActionError, State, WrongTurnError
from tests.toy_game.game import TOY_GAME

GAMES = [games.game(name) for name in games.names()] + [TOY_GAME]
DEALS = 120


def random_deals(game: Game, rng: random.Random, count: int) -> Iterator[tuple[int, Any, State]]:
    for _ in range(count):
        players = rng.choice(game.seat_counts())
        options = game.options(players)
        seed = rng.randrange(2**64)
        board = rng.randrange(players)
        yield seed, options, game.new_deal(seed, options, game.dealer_of(options, board))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_game_keeps_the_contract_over_random_deals(game: Game) -> None:
    rng = random.Random(f"contract-{game.name}")
    for seed, options, state in random_deals(game, rng, DEALS):
        assert isinstance(state, State) and state.game is game
        assert game.players_of(options) == state.players
        assert game.options_from_json(game.options_to_json(options)) == options
        views = [game.observe(state, seat) for seat in range(state.players)]
        while state.to_act is not None:
            legal = game.legal_actions(state)
            assert legal and game.fallback_action(state) in legal
            assert game.decision_phase(game.decision_kind(state)) == state.phase
            for action in legal:
                assert game.action_from_wire(game.action_to_wire(action)) == action
                assert game.parse_action(game.format_action(action)) == action
            actor = state.to_act
            with pytest.raises(WrongTurnError):
                game.apply(state, legal[0], (actor + 1) % state.players)
            action = rng.choice(legal)
            mark = game.event_mark(state)
            game.apply(state, action, actor)
            for recipient, event in game.events_after(state, actor, action, mark):
                kind, data = game.event_to_json(event)
                assert game.event_from_json(kind, json.loads(json.dumps(data))) == event
                for seat in range(state.players) if recipient is None else (recipient,):
                    views[seat] = game.observation_after(views[seat], event)
            if state.is_over:
                break
            seat = state.to_act
            player = game.decider(state)
            assert player is not None and 0 <= player < state.players
            truth = game.observe(state, seat)
            views[player] = game.observation_asked(
                views[player], state.phase, game.legal_actions(state), game.hand(state, seat),
                seat,
            )
            assert game.observation_to_json(views[player]) == game.observation_to_json(truth), (
                game.name, seed, seat
            )
            data = json.loads(json.dumps(game.observation_to_json(truth)))
            assert game.observation_from_json(data) == truth
        result = game.result(state)
        assert result is not None
        shown = game.revealed(state)
        for seat in range(state.players):
            end = game.observation_at_end(views[seat], result, shown)
            assert end == game.observe(state, seat), (game.name, seed, seat)
        assert sum(result.scores) == 0
        assert game.bare_result(result.outcome.value, result.scores).scores == result.scores
        with pytest.raises(IllegalActionError):
            game.apply(state, game.parse_action(game.format_action(action)))
        record = game.record(state, seed)
        assert json.loads(record.dumps()) == record.to_json()
        assert record.to_json()["format"] == game.record_format
        loaded = game.load_record(json.loads(record.dumps()))
        assert game.result(game.replay(loaded)) == result
        again = game.new_deal(seed, options, state.dealer)
        assert game.revealed(again).hands == game.revealed(state).hands


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_cards_have_names_that_read_back(game: Game) -> None:
    names = [game.card_name(card) for card in range(game.deck_size)]
    assert len(set(names)) == game.deck_size
    assert [game.parse_card(name) for name in names] == list(range(game.deck_size))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_bad_input_is_a_value_error(game: Game) -> None:
    with pytest.raises(ValueError):
        game.parse_action("fly to the moon")
    with pytest.raises(ValueError):
        game.options(max(game.seat_counts()) + 7)
    with pytest.raises(ValueError):
        game.options(min(game.seat_counts()), {"no such setting": 1})
    with pytest.raises(ValueError):
        game.load_record({"format": "something else"})
    with pytest.raises(ValueError):
        game.event_from_json("no-such-event", {})


def test_the_registry_names_every_game_and_refuses_strangers() -> None:
    assert games.game() is games.game("french-tarot")
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*french-tarot"):
        games.game("chess")
    with pytest.raises(ValueError, match="already registered"):
        games.register(type("Impostor", (), {"name": "french-tarot"})())  # type: ignore[arg-type]
