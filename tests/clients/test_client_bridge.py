"""The SDK's grpc.aio loop runs on the arena's bridge: stepped by trio in its own thread where
it can be, else in a thread of its own, as ``TAROT_ARENA_BRIDGE`` says; and a bot's user is not
told which."""

from __future__ import annotations

import logging
import threading

import pytest

from clients.sdk import Bot, DecisionRequest, TableView

from .conftest import Arena, RecordingBot, eventually


class Unthreaded(RecordingBot):
    """Plain decisions in trio: the client decides each burst of requests in one task."""

    threaded = False

    def decide(self, table: TableView, request: DecisionRequest) -> object:
        return request.legal_actions[0]


async def test_the_client_plays_on_the_bridge_the_arena_would_take(
    arena: Arena, bridge_name: str
) -> None:
    bots = [Unthreaded(seed=i) for i in range(4)]
    for i, bot in enumerate(bots):
        await arena.client(bot, i, max_tables=2)
    outcomes = await arena.play_many(
        [(f"t{k}", arena.ids(*[(k + s) % 4 for s in range(4)]), k) for k in range(2)])
    assert all(outcome.infractions == [] for outcome in outcomes.values())
    await eventually(lambda: all(len(bot.ends) == 2 for bot in bots))
    assert sorted(bots[0].ends) == [("t0", 0), ("t1", 3)]
    names = [thread.name for thread in threading.enumerate()]
    assert "clients.sdk grpc loop" not in names  # the SDK's own loop thread is gone
    loops = names.count("arena gRPC loop")
    if bridge_name == "stepped":  # no loop thread for the clients, nor for the arena
        assert loops == 0, names
    else:  # one for the arena, one for each client
        assert loops >= 5, names


async def test_a_bot_user_is_not_told_which_bridge_the_client_took(
    arena: Arena, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="arena.transport.bridge"):
        await arena.client(Unthreaded(), max_tables=1)
    lines = [r for r in caplog.records if "gRPC <-> trio" in r.getMessage()]
    assert lines and all(r.levelno == logging.DEBUG for r in lines)


class Hookless(Bot):
    """No hook of its own: its messages are read in the bridge's calls that bring them."""

    threaded = False

    def __init__(self) -> None:
        self.asked = 0

    def decide(self, table: TableView, request: DecisionRequest) -> object:
        self.asked += 1
        return request.legal_actions[0]


async def test_a_hookless_bot_plays_with_its_messages_read_in_the_bridges_calls(
    arena: Arena,
) -> None:
    bots = [Hookless() for _ in range(4)]
    clients = [await arena.client(bot, i, max_tables=2) for i, bot in enumerate(bots)]
    outcomes = await arena.play_many(
        [(f"h{k}", arena.ids(*[(k + s) % 4 for s in range(4)]), k) for k in range(2)])
    assert all(outcome.infractions == [] for outcome in outcomes.values())
    assert all(bot.asked > 0 for bot in bots)
    assert sum(bot.asked for bot in bots) == sum(
        len(outcome.decisions) for outcome in outcomes.values())
    assert all(c._stream is not None and c._stream.reader is not None for c in clients)
