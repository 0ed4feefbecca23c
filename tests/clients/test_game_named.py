"""No French default where a game must be named: the client reads a table it never saw start
as the game the arena seats it at, and an in-process match plays the bots' own game. Bots that
never name a game (protocol version 1) still play French Tarot."""

from __future__ import annotations

import pytest

from arena import games
from arena.table import TableOutcome
from arena.transport import convert
from clients.local import game_of_bots, play_match
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient
from clients.search_bot import SearchBot
from clients.tre_bots import TreHeuristicBot, TreRandomBot

TRE = games.game("tre-e-venticinque")
FRENCH = games.game("french-tarot")


def welcome(*names: str) -> convert.Welcome:
    return convert.Welcome("b1", convert.PROTOCOL_VERSION, 4, 64 * 1024, True, names)


def test_a_table_never_started_is_of_the_game_the_arena_seats_the_stream_at() -> None:
    client = ArenaClient(TreRandomBot(), "127.0.0.1:1", "tka_x")
    assert client._game_of("kept-from-before") is TRE  # before the Welcome: the bot's one game
    client.welcome = welcome("tre-e-venticinque")
    assert client._game_of("kept-from-before") is TRE


def test_a_version_1_bot_reads_every_table_as_french_tarot() -> None:
    client = ArenaClient(RandomBot(), "127.0.0.1:1", "tka_x")
    assert client._game_of("t") is FRENCH
    client.welcome = convert.welcome_from_pb(convert.welcome_to_pb(welcome()).welcome)  # no game
    assert client._game_of("t") is FRENCH


def test_a_stream_of_several_games_does_not_guess_a_tables_game() -> None:
    client = ArenaClient(SearchBot(), "127.0.0.1:1", "tka_x")
    client.welcome = welcome("french-tarot", "tre-e-venticinque")
    with pytest.raises(ValueError, match="any of french-tarot, tre-e-venticinque"):
        client._game_of("t")


def test_a_local_match_plays_the_game_its_bots_play() -> None:
    assert game_of_bots([TreRandomBot(1), TreHeuristicBot()]) is TRE
    assert game_of_bots([RandomBot(1), SearchBot()]) is FRENCH
    outcomes: list[TableOutcome] = []
    entries = play_match([TreRandomBot(1), TreHeuristicBot(), TreRandomBot(2)], 1, seed=3,
                         on_table=lambda plan, outcome: outcomes.append(outcome))
    assert len(entries) == 9
    assert sum(e.score for e in entries) == 0
    # every table of the board plays the whole deal from its start (a fresh state each)
    assert len(outcomes) == 3
    assert {len(o.record.actions) for o in outcomes} == {len(outcomes[0].record.actions)}
    assert len(outcomes[0].record.actions) > 26


def test_bots_without_a_game_in_common_are_told_so() -> None:
    with pytest.raises(ValueError, match=r"no game in common: .*plays tre-e-venticinque"):
        game_of_bots([RandomBot(1), TreRandomBot(1), TreRandomBot(2)])
