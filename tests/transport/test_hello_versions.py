"""Each accepted Hello is recorded under the version and name it sent (the web page's bot
page lists them), through a real arena on a loopback port; a refused Hello is not, and a
database that cannot take the record neither refuses the bot nor delays its Welcome."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.storage.bots import BotRegistry, VersionSummary
from arena.storage.db import make_engine
from arena.transport import convert
from arena.transport.server import ArenaServer

pytestmark = pytest.mark.usefixtures("bridge_name")  # each test on both bridges

CONNECT = "/tarot_arena.v1.BotService/Connect"


@dataclass
class Arena:
    server: ArenaServer
    registry: BotRegistry
    target: str


@pytest.fixture
async def arena(nursery: trio.Nursery, tmp_path: Path) -> Arena:
    registry = BotRegistry(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    server = ArenaServer(registry)
    port = await nursery.start(server.serve)
    return Arena(server, registry, f"127.0.0.1:{port}")


def hello(target: str, token: str, name: str, version: str,
          protocol_version: int = convert.PROTOCOL_VERSION) -> pb.ArenaMessage | grpc.StatusCode:
    """Open a stream, send a Hello, read the first answer, close: the Welcome, or the status
    the stream was refused with. Blocking: run it in a worker thread."""
    outbox: queue.Queue[pb.BotMessage | None] = queue.Queue()
    outbox.put(pb.BotMessage(hello=pb.Hello(
        token=token, bot_name=name, bot_version=version, protocol_version=protocol_version,
        max_tables=1,
    )))

    def pending() -> Iterator[pb.BotMessage]:
        while (message := outbox.get()) is not None:
            yield message

    with grpc.insecure_channel(target) as channel:
        connect = channel.stream_stream(CONNECT, request_serializer=pb.BotMessage.SerializeToString,
                                        response_deserializer=pb.ArenaMessage.FromString)
        call = connect(pending(), timeout=20)
        try:
            first: pb.ArenaMessage = next(call)
            outbox.put(None)  # half-close: the arena ends the stream
            for _ in call:
                pass
            return first
        except grpc.RpcError as exc:
            return exc.code()
        finally:
            outbox.put(None)


async def hello_in_thread(*args: object) -> pb.ArenaMessage | grpc.StatusCode:
    return await trio.to_thread.run_sync(lambda: hello(*args))  # type: ignore[arg-type]


async def versions_when(registry: BotRegistry, bot_id: str,
                        connections: int) -> list[VersionSummary]:
    """The bot's versions once ``connections`` Hellos are counted (the arena records them
    without making the bot wait, so shortly after its Welcome)."""
    with trio.fail_after(15):
        while True:
            seen = await trio.to_thread.run_sync(registry.versions, bot_id)
            if sum(v.connections for v in seen) >= connections:
                return seen
            await trio.sleep(0.02)


async def test_connections_with_different_versions_are_each_recorded(arena: Arena) -> None:
    bot, token = arena.registry.register("heuristic")
    for version in ("1.0", "2.0-beta", "1.0"):
        answer = await hello_in_thread(arena.target, token, "heuristic", version)
        assert isinstance(answer, pb.ArenaMessage) and answer.welcome.bot_id == bot.id
    answer = await hello_in_thread(arena.target, token, "heuristic-exp", "2.0-beta")
    assert isinstance(answer, pb.ArenaMessage) and answer.WhichOneof("kind") == "welcome"

    seen = await versions_when(arena.registry, bot.id, 4)
    assert sorted((v.version, v.name, v.connections) for v in seen) == [
        ("1.0", "heuristic", 2), ("2.0-beta", "heuristic", 1), ("2.0-beta", "heuristic-exp", 1),
    ]
    by_key = {(v.version, v.name): v for v in seen}
    assert by_key["1.0", "heuristic"].first_seen < by_key["1.0", "heuristic"].last_seen
    assert seen[0].last_seen >= seen[-1].last_seen  # the latest seen first


async def test_a_refused_hello_is_not_recorded(arena: Arena) -> None:
    bot, token = arena.registry.register("bot")
    assert await hello_in_thread(arena.target, token + "x", "bot", "9.9") == (
        grpc.StatusCode.UNAUTHENTICATED)
    assert await hello_in_thread(arena.target, token, "bot", "9.9", 999) == (
        grpc.StatusCode.FAILED_PRECONDITION)
    assert await hello_in_thread(arena.target, token, "bot", "<b>9.9</b>") == (
        grpc.StatusCode.INVALID_ARGUMENT)
    # an accepted one after them: once it is counted, the refused ones would have been too
    assert isinstance(await hello_in_thread(arena.target, token, "bot", "1"), pb.ArenaMessage)
    assert [(v.version, v.connections) for v in
            await versions_when(arena.registry, bot.id, 1)] == [("1", 1)]


async def test_a_failing_record_neither_refuses_nor_delays_the_bot(
    arena: Arena, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """The first write is held until the bot has its Welcome (were the Welcome waiting for
    the write, it would never come), then fails: the bot plays on, one line is logged."""
    bot, token = arena.registry.register("bot")
    welcomed = threading.Event()
    attempts: list[str] = []

    def failing(bot_id: str, name: str, version: str) -> None:
        attempts.append(version)
        assert welcomed.wait(20), "the Welcome waited for the database"
        raise RuntimeError("database is locked\n[SQL: INSERT INTO bot_version ...]")

    monkeypatch.setattr(arena.registry, "record_hello", failing)
    with caplog.at_level(logging.WARNING, logger="arena.transport.services"):
        answer = await hello_in_thread(arena.target, token, "bot", "3.1")
        welcomed.set()
        assert isinstance(answer, pb.ArenaMessage) and answer.welcome.bot_id == bot.id
        with trio.fail_after(15):
            while not any("not recorded" in r.getMessage() for r in caplog.records):
                await trio.sleep(0.02)
    lines = [r.getMessage() for r in caplog.records if "not recorded" in r.getMessage()]
    assert lines == [f"the version '3.1' of bot {bot.id} was not recorded: database is locked"]
    assert attempts == ["3.1"]
