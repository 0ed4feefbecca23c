"""Which bots the arena seats at a table of another game, and what a version 1 bot is told:
a real arena on a loopback port, the toy game registered in this process for the test only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import trio

from arena import games
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import TimeControl
from arena.transport.connections import BotNotConnectedError
from arena.transport.server import ArenaServer
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff
from tests.toy_game.bot import HighCard, LowCard
from tests.toy_game.game import TOY_GAME


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(games._GAMES, TOY_GAME.name, TOY_GAME)
    yield


def first_answer(address: str, hello: pb.Hello) -> tuple[grpc.StatusCode, str, pb.ArenaMessage]:
    """The status a stream ends with, its details, and the first message (a Welcome)."""
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.BotServiceStub(channel)
        call = stub.Connect(iter([pb.BotMessage(hello=hello)]), timeout=10)
        first = pb.ArenaMessage()
        try:
            for message in call:
                first = message
                break
            call.cancel()
        except grpc.RpcError as exc:
            return exc.code(), exc.details() or "", first
        return grpc.StatusCode.OK, "", first


async def test_games_are_negotiated_in_the_hello(nursery: trio.Nursery, tmp_path: Path) -> None:
    # A file, not "sqlite://": the Hellos' version records are written from worker threads.
    registry = BotRegistry(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    _, token = registry.register("prober")
    server = ArenaServer(registry)
    port = await nursery.start(server.serve)
    address = f"127.0.0.1:{port}"

    def hello(**fields: object) -> pb.Hello:
        return pb.Hello(token=token, bot_name="prober", bot_version="1", max_tables=1,
                        **fields)  # type: ignore[arg-type]

    code, details, _ = await trio.to_thread.run_sync(
        first_answer, address, hello(protocol_version=1, games=["toy"]))
    assert code is grpc.StatusCode.FAILED_PRECONDITION
    assert details == ("protocol version 1 plays french-tarot only: send protocol_version 2 "
                       "to play toy")
    code, details, first = await trio.to_thread.run_sync(
        first_answer, address, hello(protocol_version=2, games=["toy", "french-tarot"]))
    assert first.welcome.protocol_version == 2
    assert list(first.welcome.games) == ["french-tarot", "toy"]
    code, details, first = await trio.to_thread.run_sync(
        first_answer, address, hello(protocol_version=1))
    assert first.welcome.protocol_version == 1 and list(first.welcome.games) == ["french-tarot"]


async def test_a_table_of_another_game_seats_only_bots_that_play_it(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    registry = BotRegistry(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    bots = [registry.register(name) for name in ("high", "low", "french")]
    server = ArenaServer(registry)
    port = await nursery.start(server.serve)
    backoff = Backoff(initial=0.05, maximum=0.2)
    for (_, token), player in zip(bots, (HighCard(), LowCard(), RandomBot(1)), strict=True):
        client = ArenaClient(player, f"127.0.0.1:{port}", token, backoff=backoff)
        with trio.fail_after(5):
            await nursery.start(client.run)
    high, low, french = (bot.id for bot, _ in bots)
    options = TOY_GAME.options(3)

    assert server.awaiting([high, low, french], "toy") == [french]
    assert server.awaiting([high, low, french], "french-tarot") == [high, low]
    with pytest.raises(BotNotConnectedError, match="does not play toy"):
        await server.play_table("mixed", TOY_GAME.new_deal(5, options), [high, low, french],
                                TimeControl(2.0), seat_timeout=0.2)

    with trio.fail_after(20):
        outcome = await server.play_table(
            "toy-table", TOY_GAME.new_deal(5, options), [high, low, high], TimeControl(2.0),
            seat_timeout=5.0,
        )
    assert outcome.infractions == []
    assert outcome.game is TOY_GAME and sum(outcome.result.scores) == 0
    assert TOY_GAME.replay(outcome.record).result == outcome.result
