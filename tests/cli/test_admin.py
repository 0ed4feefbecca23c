"""``tournament run`` serves the admin service with a token from a file, so a bot can be
revoked mid-tournament; the token never needs the command line.

The arena is a real ``tarot-arena tournament run`` process; the four bots are SDK clients in
the test, the admin calls plain gRPC stubs, as ``grpcurl`` would make them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, ArenaRejectedError, Backoff
from tournaments.duplicate.settings import TournamentSettings
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def admin_call(port: int, token: str, method: str, request: object) -> object:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = pb_grpc.AdminServiceStub(channel)
        return getattr(stub, method)(request, metadata=[("authorization", f"Bearer {token}")],
                                     timeout=10)


async def test_a_bot_is_revoked_mid_tournament_through_the_admin_service(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/arena.db"
    store = TournamentStore(make_engine(url))
    registry = BotRegistry(store.engine)
    registered = [registry.register(f"bot-{i}") for i in range(4)]
    ids = [bot.id for bot, _ in registered]
    tid = store.create(TournamentSettings(name="long", bots=tuple(ids), boards=150, seed=4,
                                          per_decision=2.0))
    secret = "admin-secret-from-a-file"
    (tmp_path / "admin-token").write_text(secret + "\n")
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_ARENA_ADMIN_TOKEN", "TAROT_ARENA_DB")}
    log = tmp_path / "arena.log"
    with log.open("wb") as sink:
        arena = await trio.lowlevel.open_process(
            [sys.executable, "-m", "tournaments.cli", "--db", url, "tournament", "run", tid,
             "--port", str(port), "--admin-token-file", str(tmp_path / "admin-token"),
             "--seat-timeout", "30"],
            cwd=ROOT, env={**env, "PYTHONUNBUFFERED": "1"}, stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            rejected: list[ArenaRejectedError] = []

            async def play(index: int) -> None:
                client = ArenaClient(RandomBot(index), f"127.0.0.1:{port}",
                                     registered[index][1], max_tables=8,
                                     backoff=Backoff(0.05, 0.2))
                try:
                    await client.run()
                except ArenaRejectedError as exc:
                    rejected.append(exc)

            async with trio.open_nursery() as nursery:
                for index in range(4):
                    nursery.start_soon(play, index)
                with trio.fail_after(60):
                    while store.progress(tid).done < 8:  # the tournament is under way
                        await trio.sleep(0.1)
                with pytest.raises(grpc.RpcError) as refused:
                    await trio.to_thread.run_sync(
                        admin_call, port, "wrong", "RevokeBot", pb.RevokeBotRequest(bot_id=ids[3]))
                assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
                answer = await trio.to_thread.run_sync(
                    admin_call, port, secret, "RevokeBot", pb.RevokeBotRequest(bot_id=ids[3]))
                assert answer.revoked  # type: ignore[attr-defined]
                with trio.fail_after(10):
                    while not rejected:  # its reconnection is refused
                        await trio.sleep(0.05)
                connections = await trio.to_thread.run_sync(
                    admin_call, port, secret, "ListConnections", pb.ListConnectionsRequest())
                assert {c.bot_id for c in connections.connections} == set(  # type: ignore[attr-defined]
                    ids[:3])
                done = store.progress(tid).done
                assert done < 600  # revoked mid-tournament, not after it
                nursery.cancel_scope.cancel()
        finally:
            arena.kill()
            await arena.wait()
    assert registry.get(ids[3]).revoked
    assert rejected[0].code is grpc.StatusCode.UNAUTHENTICATED, rejected
    output = log.read_text()
    assert secret not in output  # a token given in a file is not printed
    assert "admin token for this run" not in output
