"""What every game's display says (:mod:`arena.games.display`), checked against its rules over
random deals: a record steps into exactly the game's tricks with their winners, the hands empty
as the cards are played, each action is said in words; scores are written in their unit; the
dummy's decisions are charged to the defender; a game without a display gets a generic one."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena import games
from arena.games.base import Game
from arena.games.display import (
    POINTS,
    Display,
    GenericDisplay,
    ScoreUnit,
    charged_seats,
    display_of,
    game_form,
    score_unit,
    walk,
)
from arena.games.tre_e_venticinque.display import THIRDS_OF_A_POINT
from tests.games.test_contract import random_deals
from tests.toy_game.game import TOY_GAME, ToyGame
from tournaments.cli.report import describe_deal

GAMES = [games.game(name) for name in games.names()] + [TOY_GAME]


def _played(game: Game, rng: random.Random, count: int) -> list[tuple[Any, Any]]:
    out = []
    for _, _, state in random_deals(game, rng, count):
        while not state.is_over:
            game.apply(state, rng.choice(game.legal_actions(state)))
        out.append((state, game.load_record(json.loads(game.record(state).dumps()))))
    return out


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_record_steps_into_the_games_own_tricks(game: Game) -> None:
    display = display_of(game)
    assert isinstance(display, Display) and not isinstance(display, GenericDisplay)
    for state, record in _played(game, random.Random(f"display-{game.name}"), 40):
        walked = walk(game, record)
        assert walked is not None and len(walked.steps) == len(record.actions)
        engine = state.tricks
        assert [(t.leader, t.winner) for t in walked.tricks] == [
            (t.leader, t.winner) for t in engine]
        played = [(s.seat, s.action) for s in walked.steps if s.plays]
        assert [c for t in walked.tricks for _, c in t.cards] == [
            a.card for _, a in played]
        assert all(hand == () for hand in walked.steps[-1].table.hands) or not engine
        assert all(s.text for s in walked.steps)
        final = game.result(walked.state)
        assert final is not None and final.scores == game.result(state).scores
        assert (display.title(walked.state) and display.breakdown(walked.state)) or not engine
        assert game_form(game, state.options).startswith(game.title + ", ")


def test_score_units_write_their_points() -> None:
    assert score_unit(games.game("tre-e-venticinque")) is THIRDS_OF_A_POINT
    assert score_unit(games.game("french-tarot")) is POINTS
    assert THIRDS_OF_A_POINT.points(25) == "+8 1/3"
    assert THIRDS_OF_A_POINT.points(-2) == "-2/3"
    assert THIRDS_OF_A_POINT.points(-6) == "-2"
    assert THIRDS_OF_A_POINT.labelled(25) == "+25 thirds (+8 1/3 points)"
    assert POINTS.labelled(-40) == "-40 points" and POINTS.points(0) == "0"
    assert POINTS.format(12.345, 1) == "+12.3" and POINTS.format(-0.01, 1) == "0"
    with pytest.raises(ValueError, match="per_point"):
        ScoreUnit("halves", "half points", 0)


def test_the_dummys_decisions_are_charged_to_the_defender() -> None:
    game = games.game("french-tarot")
    rng = random.Random("dummy")
    checked = 0
    for state, record in _played(game, rng, 30):
        if state.players != 2 or getattr(state, "taker", None) is None:
            continue
        charged = charged_seats(game, record, [2])
        dummy = [i for i, (s, _) in enumerate(record.actions) if s == 2]
        assert sorted(charged) == dummy
        assert set(charged.values()) == {state.defender}
        checked += 1
    assert checked


class PlainGame(ToyGame):
    """The toy game without a display: what a game that declares none gets."""

    name = "plain"
    display = None


def test_a_game_without_a_display_gets_a_generic_one() -> None:
    plain = PlainGame()
    display = display_of(plain)
    assert isinstance(display, GenericDisplay) and score_unit(plain) is plain.declaration.score
    state, record = _played(plain, random.Random(1), 1)[0]
    assert walk(plain, record) is None
    assert display.card_face(4).text == "2B" and display.describe(record.actions[0][1])
    players = state.players
    lines = describe_deal(record, names="abcd"[:players], game=plain)
    assert lines[0].startswith(f"Toy Tricks, {players} players")
    assert "  1. seat " in "\n".join(lines)
    assert any(line.startswith("[bold]result:[/bold] played: a ") for line in lines)
