"""The transport needs of the bot registry only the :class:`Authenticator` interface.

The storage side's ``BotRegistry`` implements it (checked here method by method, since nothing
ties the two but their shape), and an arena built on a registry that is a few dicts, with no
database at all, lets bots connect, play and be listed and revoked over gRPC.
"""

from __future__ import annotations

import inspect
import secrets
from dataclasses import dataclass, replace
from pathlib import Path

import grpc
import pytest
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import TimeControl
from arena.transport.authenticator import Authenticator
from arena.transport.server import ArenaServer

from .test_server_e2e import ADMIN_TOKEN, AUTH, Arena, admin, connect_with, hello


@dataclass(frozen=True)
class MemoryBot:
    id: str
    name: str
    owner: str
    revoked: bool
    created_at: str


class MemoryAuthenticator:
    """Bots in dicts: what the transport needs, with no storage behind it."""

    def __init__(self) -> None:
        self.bots: dict[str, MemoryBot] = {}
        self.tokens: dict[str, str] = {}
        self.hellos: list[tuple[str, str, str]] = []

    def authenticate(self, token: str) -> MemoryBot | None:
        bot = self.bots.get(self.tokens.get(token, ""))
        return None if bot is None or bot.revoked else bot

    def record_hello(self, bot_id: str, name: str, version: str) -> None:
        self.hellos.append((bot_id, name, version))

    def register(self, name: str, owner: str = "") -> tuple[MemoryBot, str]:
        if not name:
            raise ValueError("a bot needs a name")
        bot = MemoryBot(f"mem_{len(self.bots)}", name, owner, False, "2026-01-01T00:00:00+00:00")
        token = secrets.token_hex(8)
        self.bots[bot.id], self.tokens[token] = bot, bot.id
        return bot, token

    def list(self) -> list[MemoryBot]:
        return list(self.bots.values())

    def revoke(self, bot_id: str) -> bool:
        bot = self.bots.get(bot_id)
        if bot is None:
            raise LookupError(f"no bot {bot_id!r} here")
        self.bots[bot_id] = replace(bot, revoked=True)
        return not bot.revoked


def protocol_methods() -> list[str]:
    return sorted(name for name, value in vars(Authenticator).items()
                  if inspect.isfunction(value) and not name.startswith("_"))


@pytest.mark.parametrize("implementation", [BotRegistry, MemoryAuthenticator])
def test_an_implementation_takes_every_call_the_transport_makes(implementation: type) -> None:
    """Each method of the interface exists with the same parameters (names, kinds, defaults);
    an implementation may add parameters of its own only with a default."""
    assert protocol_methods() == ["authenticate", "list", "record_hello", "register", "revoke"]
    for name in protocol_methods():
        wanted = inspect.signature(getattr(Authenticator, name)).parameters
        given = inspect.signature(getattr(implementation, name)).parameters
        for parameter in wanted.values():
            assert parameter.name in given, f"{implementation.__name__}.{name}: {parameter.name}"
            other = given[parameter.name]
            assert (other.kind, other.default) == (parameter.kind, parameter.default), (
                f"{implementation.__name__}.{name}({parameter.name})"
            )
        for extra in set(given) - set(wanted):
            assert given[extra].default is not inspect.Parameter.empty, (
                f"{implementation.__name__}.{name}({extra}) has no default"
            )


def test_the_storage_registry_is_an_authenticator() -> None:
    registry = BotRegistry(make_engine("sqlite://"))
    assert isinstance(registry, Authenticator)
    bot, token = registry.register("alpha", "ann")
    assert registry.authenticate(token) == bot
    assert registry.authenticate("tka_" + "x" * 43) is None
    with pytest.raises(LookupError):  # what the admin service answers with NOT_FOUND
        registry.revoke("bot_unknown")
    assert registry.revoke(bot.id) is True and registry.authenticate(token) is None


def test_the_scan_of_signatures_catches_a_mismatch() -> None:
    class Renamed(MemoryAuthenticator):
        def register(self, label: str, owner: str = "") -> tuple[MemoryBot, str]:  # type: ignore[override]
            return super().register(label, owner)

    with pytest.raises(AssertionError, match="register: name"):
        test_an_implementation_takes_every_call_the_transport_makes(Renamed)


async def test_an_arena_without_a_database_plays_lists_and_revokes(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    registry = MemoryAuthenticator()
    server = ArenaServer(registry, admin_token=ADMIN_TOKEN)
    port = await nursery.start(server.serve)
    arena = Arena(server, registry, port, nursery, tmp_path / "no-database")  # type: ignore[arg-type]
    player = arena.bot("player", tables=1)
    outcome = await arena.play("memory", 4, [player.bot_id] * 3, TimeControl(5.0))
    assert outcome.state.is_over and outcome.infractions == []
    assert (await player.summary())["streams"] == 1
    assert registry.hellos == [(player.bot_id, "test-random", "1")]

    def admin_calls(channel: grpc.Channel) -> tuple[list[tuple[str, bool]], bool, str, str]:
        stub = admin(channel)
        made = stub.RegisterBot(pb.RegisterBotRequest(name="second", owner="bo"), metadata=AUTH)
        listed = [(b.name, b.revoked) for b in
                  stub.ListBots(pb.ListBotsRequest(), metadata=AUTH).bots]
        revoked = stub.RevokeBot(pb.RevokeBotRequest(bot_id=made.bot_id), metadata=AUTH).revoked
        codes = []
        for call, request in (("RevokeBot", pb.RevokeBotRequest(bot_id="mem_99")),
                              ("RegisterBot", pb.RegisterBotRequest(name=""))):
            try:
                getattr(stub, call)(request, metadata=AUTH)
                codes.append("OK")
            except grpc.RpcError as exc:
                codes.append(f"{exc.code().name}: {exc.details()}")
        return listed, revoked, codes[0], codes[1]

    listed, revoked, unknown, unnamed = await arena.call(admin_calls)
    assert listed == [("player", False), ("second", False)]
    assert revoked is True and registry.bots["mem_1"].revoked
    assert unknown == "NOT_FOUND: no bot 'mem_99' here"
    assert unnamed == "INVALID_ARGUMENT: a bot needs a name"
    assert await arena.call(connect_with, hello("not-a-token")) == (
        grpc.StatusCode.UNAUTHENTICATED
    )
