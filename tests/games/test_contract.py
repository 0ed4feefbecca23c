"""What the arena assumes of every game (:class:`arena.games.base.Game`), checked the same way
for each game it knows and for the tests' toy game, over many random deals.

A game passing these can be hosted: the table runner, the protocol's generic forms, storage and
the bot SDK rely on nothing else.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena import games
from arena.games.base import (
    Game,
    IllegalActionError,
    ScoreSum,
    State,
    WrongTurnError,
    capabilities,
)
from tests.toy_game.game import TOY_GAME

GAMES = [games.game(name) for name in games.names()] + [TOY_GAME]
DEALS = 80


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
            for recipient, event in game.apply(state, action, actor):
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


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_game_declares_what_it_does(game: Game) -> None:
    """The declaration (what the docs, the surfaces and Welcome are written from) says exactly
    what the game does over random deals: its seats, cards, phases, decisions, events and their
    keys, and its view's keys."""
    declared = game.declaration
    assert declared.name == game.name and declared.title == game.title
    assert declared.seat_counts == game.seat_counts()
    assert declared.cards == tuple(game.card_name(c) for c in range(game.deck_size))
    events = {event.kind: event.keys for event in declared.events}
    assert all(event.meaning for event in declared.events), "every event says when it is sent"
    seen_events: dict[str, set[str]] = {}
    seen_phases, seen_decisions = set(), set()
    rng = random.Random(f"declared-{game.name}")
    for _, _, state in random_deals(game, rng, 30):
        while True:
            seen_phases.add(state.phase.value)
            view = game.observation_to_json(game.observe(state, 0))
            assert tuple(view) == declared.view_keys
            if state.to_act is None:
                break
            kind = game.decision_kind(state)
            assert declared.decisions[kind] == state.phase.value
            seen_decisions.add(kind)
            for _, event in game.apply(state, rng.choice(game.legal_actions(state))):
                name, data = game.event_to_json(event)
                assert tuple(data) == events[name], name
                seen_events.setdefault(name, set())
        result = game.result(state)
        assert result is not None
        if declared.sums is ScoreSum.ZERO:
            assert sum(result.scores) == 0
    assert seen_phases <= set(declared.phases)
    assert seen_decisions <= set(declared.decisions)
    assert set(seen_events) <= set(events)


def test_a_declaration_that_contradicts_itself_is_refused() -> None:
    """The table size played by default and the auction's phases (what ``compare``, the
    ladder and imposed boards ask of a game) must be the game's own."""
    declared = games.game("french-tarot").declaration
    assert declared.usual_players == 4 and declared.auction_phases == ("bidding", "calling")
    tre = games.game("tre-e-venticinque").declaration
    assert tre.usual_players == 3 and tre.auction_phases == ()
    with pytest.raises(ValueError, match="default_players 6 is not one of its seat counts"):
        dataclasses.replace(declared, default_players=6)
    with pytest.raises(ValueError, match=r"auction phases \['auction'\] are not phases"):
        dataclasses.replace(declared, auction_phases=("auction",))


def test_a_value_tells_its_game() -> None:
    for game in (games.game(name) for name in games.names()):
        options = game.options(game.seat_counts()[-1])
        state = game.new_deal(7, options)
        assert games.game_of(state) is game
        assert games.game_of(game.observe(state, 0)) is game
        assert games.game_of(state.phase) is game
        assert games.decision_kind_of(state.phase) == game.decision_kind(state)
    with pytest.raises(LookupError):
        games.game_of(object())


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_scores_read_in_the_declared_unit(game: Game) -> None:
    unit = game.declaration.score
    assert unit.show(0) == "0"
    assert unit.show(unit.per_point * 3) == "3"
    assert unit.show(-unit.per_point) == "-1"
    if unit.per_point == 3:
        assert (unit.show(7), unit.show(-2), unit.show(-8)) == ("2 1/3", "-2/3", "-2 2/3")


def test_a_game_says_which_optional_capabilities_it_has() -> None:
    assert "matches" in capabilities(games.game("tre-e-venticinque"))
    assert "matches" not in capabilities(games.game("french-tarot"))
    assert "matches" not in capabilities(TOY_GAME)
