"""The SDK's generic path for every game: a TableView reads any game's view (options, phase,
hand, tricks, the JSON details, scores in the game's unit), and a Bot answers any game's
decisions by the method named after them, or by ``decide``."""

from __future__ import annotations

import random

import pytest

from arena import games
from arena.table.messages import DecisionRequest, PlayerInfo, TableStart
from clients.sdk import Bot, TableView
from tests.toy_game.game import TOY_GAME

GAMES = [games.game(name) for name in games.names()] + [TOY_GAME]


def request_of(game: object, state: object, seat: int) -> DecisionRequest:
    g = game  # type: ignore[assignment]
    return DecisionRequest(
        "t", seat, 1, state.phase, g.legal_actions(state), 1.0, 0.0,  # type: ignore[attr-defined]
        g.hand(state, seat), g.decision_kind(state), g.decider(state),  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_table_view_reads_every_game(game: object) -> None:
    g = game  # type: ignore[assignment]
    players = g.seat_counts()[-1]  # type: ignore[attr-defined]
    state = g.new_deal(11, g.options(players))  # type: ignore[attr-defined]
    seat = state.to_act
    infos = tuple(PlayerInfo(s, f"b{s}", f"B{s}") for s in range(players))
    view = TableView.from_start(TableStart("t", seat, state.options, state.dealer, infos,
                                           g.observe(state, seat), game=g))
    assert view.options.players == players
    assert view.phase == state.phase and view.to_act == seat
    assert set(view.details()) == set(g.declaration.view_keys)  # type: ignore[attr-defined]
    asked = view.with_request(request_of(g, state, seat))
    assert asked.to_act == seat and asked.decisions == 1
    if "legal_actions" in g.declaration.view_keys:  # type: ignore[attr-defined]
        assert asked.legal_actions == g.legal_actions(state)  # type: ignore[attr-defined]
    rng = random.Random(3)
    while state.to_act is not None:
        for recipient, event in g.apply(state, rng.choice(g.legal_actions(state))):  # type: ignore[attr-defined]
            if recipient is None or recipient == seat:
                view = view.apply(event)
    assert view.tricks == tuple(state.tricks) and view.current_trick == ()
    assert view.show_score(0) == "0"


def test_scores_show_in_the_game_unit() -> None:
    tre = games.game("tre-e-venticinque")
    state = tre.new_deal(1, tre.options(3))
    infos = tuple(PlayerInfo(s, f"b{s}", f"B{s}") for s in range(3))
    view = TableView.from_start(TableStart("t", 0, state.options, 0, infos,
                                           tre.observe(state, 0), game=tre))
    assert (view.show_score(7), view.show_score(-2)) == ("2 1/3", "-2/3")


class Discarder(Bot):
    def discard(self, table: TableView, request: DecisionRequest) -> object:
        return request.legal_actions[0]

    def trump(self, table: TableView, request: DecisionRequest) -> object:
        return request.legal_actions[-1]

    def decide(self, table: TableView, request: DecisionRequest) -> object:
        return request.legal_actions[0]


def test_a_bot_answers_each_decision_by_its_name_or_by_decide() -> None:
    bot = Discarder()

    def asked(kind: str) -> object:
        return bot.method_for(DecisionRequest("t", 0, 1, None, (), 1.0, 0.0, (), kind))

    assert asked("discard") == bot.discard  # French Tarot's and Tre e Venticinque's alike
    assert asked("play") == bot.decide  # not defined by this bot
    assert asked("trump") == bot.trump  # a game from outside the package: its own decision
    assert asked("on_event") == bot.decide  # a hook is never a decision
    assert asked("poignee") == bot.decide  # French Tarot's poignee is answered by hide()
    assert Bot().method_for(DecisionRequest("t", 0, 1, None, (), 1.0, 0.0, (), "bid")) \
        .__name__ == "decide"
