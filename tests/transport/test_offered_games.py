"""A bot learns from its Welcome every game the arena plays and its forms (player counts,
settings, score unit, decisions), whatever games it listed itself; a version 1 bot's Welcome is
as it always was."""

from __future__ import annotations

import json

import pytest

from arena import games
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.transport import convert
from tests.transport.test_hello_versions import Arena, arena, hello_in_thread

__all__ = ["arena"]  # the fixture, used by name
pytestmark = pytest.mark.usefixtures("bridge_name")


async def test_a_version_2_welcome_lists_every_game_and_its_forms(arena: Arena) -> None:
    _, token = arena.registry.register("offers", "o")
    answer = await hello_in_thread(arena.target, token, "offers", "1.0", 2)
    assert isinstance(answer, pb.ArenaMessage), answer
    welcome = convert.welcome_from_pb(answer.welcome)
    assert welcome.games == ("french-tarot",)  # what it may be seated at: what it listed
    offered = {offer.name: offer for offer in welcome.offered}
    assert set(offered) == set(games.names())
    french, tre = offered["french-tarot"], offered["tre-e-venticinque"]
    assert french.players == (2, 3, 4, 5)
    assert set(french.settings) == {"beginner", "direction"}
    assert french.settings["direction"]["choices"] == ["counter-clockwise", "clockwise"]
    assert (french.score_unit, french.score_per_point) == ("points", 1)
    assert "poignee" in french.decisions and "bid" in french.decisions
    assert tre.players == (3,) and tre.settings == {}
    assert (tre.score_unit, tre.score_per_point) == ("thirds of a point", 3)
    assert tre.decisions == ("discard", "play")


async def test_a_version_1_welcome_is_unchanged(arena: Arena) -> None:
    _, token = arena.registry.register("old", "o")
    answer = await hello_in_thread(arena.target, token, "old", "1.0", 1)
    assert isinstance(answer, pb.ArenaMessage), answer
    assert not answer.welcome.offered
    expected = pb.Welcome(
        bot_id=answer.welcome.bot_id, protocol_version=1, max_tables=answer.welcome.max_tables,
        max_message_bytes=answer.welcome.max_message_bytes, batching=answer.welcome.batching,
        games=answer.welcome.games,
    )
    assert answer.welcome.SerializeToString() == expected.SerializeToString()


def test_offers_read_back_and_bad_settings_are_named() -> None:
    offered = convert.offers()
    message = convert.welcome_to_pb(convert.Welcome("b", 2, 1, 1024, offered=offered))
    assert convert.welcome_from_pb(message.welcome).offered == offered
    broken = pb.Welcome(offered=[pb.GameOffer(name="x", settings_json="[1]")])
    with pytest.raises(ValueError, match="offered game 'x': settings_json must be a JSON object"):
        convert.welcome_from_pb(broken)
    assert json.loads(message.welcome.offered[0].settings_json)

