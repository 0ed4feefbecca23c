"""A bot in another language: the Node.js bot of this folder, written from the .proto alone,
plays a 4-player and a 5-player tournament against the Python bots on a real arena and must
finish with zero infractions, then exit 0 by itself when the arena has no more work for it;
once in plaintext, once over TLS (a CA made in the test, the Node.js bot given it by
``--tls-ca``, as any gRPC library takes a CA: ``grpc.credentials.createSsl(ca)`` there).

Its npm packages come from this folder's package-lock.json (``make node``, which ``.ci/run``
runs). Without them, or without ``node``, the test skips locally and fails under CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import trio
import trustme

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer
from arena.transport.tls import ServerTls
from clients.heuristic_bot import HeuristicBot
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff, ClientTls
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.live import dismiss_if_done
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

HERE = Path(__file__).resolve().parent


def node_or_skip() -> str:
    node = shutil.which("node")
    problem = None
    if node is None:
        problem = "node is not on PATH"
    elif not (HERE / "node_modules" / "@grpc" / "grpc-js").is_dir():
        problem = "tests/node/node_modules is missing: run `make node` (npm ci in tests/node)"
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"{problem}: CI must run the Node.js bot")
        pytest.skip(problem)
    assert node is not None
    return node


def certificates(folder: Path) -> tuple[ServerTls, Path]:
    """The arena's TLS (a certificate for localhost) and the file of the CA that signed it."""
    ca = trustme.CA()
    issued = ca.issue_cert("localhost")
    issued.private_key_pem.write_to_path(str(folder / "arena.key"))
    issued.cert_chain_pems[0].write_to_path(str(folder / "arena.pem"))
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    return ServerTls(folder / "arena.pem", folder / "arena.key"), folder / "ca.pem"


@pytest.mark.parametrize("over", ["plaintext", "tls"])
async def test_the_node_bot_plays_4_and_5_player_tournaments_without_infractions(
    nursery: trio.Nursery, tmp_path: Path, over: str
) -> None:
    node = node_or_skip()
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    registry = BotRegistry(engine)
    store = TournamentStore(engine)
    tls, ca_file = certificates(tmp_path) if over == "tls" else (None, None)
    server = ArenaServer(registry, tls=tls)
    port = await nursery.start(server.serve)
    address = f"localhost:{port}" if tls else f"127.0.0.1:{port}"
    node_bot, node_token = registry.register("node")
    python = [registry.register(f"python{i}") for i in range(4)]
    for i, (_, token) in enumerate(python):
        bot = HeuristicBot() if i == 0 else RandomBot(seed=i)
        client = ArenaClient(bot, address, token, max_tables=4, backoff=Backoff(0.05, 0.5),
                             tls=ClientTls(ca=ca_file) if ca_file else False)
        await nursery.start(client.run)
    ids = [bot.id for bot, _ in python]
    four = store.create(TournamentSettings(
        name="node-4", bots=(node_bot.id, *ids[:3]), players=4, boards=2, seed=9,
        per_decision=2.0))
    five = store.create(TournamentSettings(
        name="node-5", bots=(node_bot.id, *ids), players=5, boards=2, seed=10,
        per_decision=2.0))

    result: dict[str, subprocess.CompletedProcess[bytes]] = {}

    async def run_node() -> None:
        result["node"] = await trio.run_process(
            [node, str(HERE / "bot.js"), "--server", address, "--max-tables", "4",
             "--seed", "5", *(["--tls-ca", str(ca_file)] if ca_file else [])],
            env={**os.environ, "TAROT_ARENA_TOKEN": node_token},
            capture_stdout=True, capture_stderr=True, check=False,
        )

    nursery.start_soon(run_node)
    with trio.fail_after(240):
        async with trio.open_nursery() as tournaments:
            for tid in (four, five):
                runner = TournamentRunner(store, RemoteArena(server), tid, concurrency=4)
                tournaments.start_soon(runner.run)
        for tid in (four, five):  # as `serve` does once each is over
            await dismiss_if_done(server, store, tid, keep_busy=True)
        while "node" not in result:
            await trio.sleep(0.05)
    done = result["node"]
    stderr = done.stderr.decode(errors="replace")
    assert done.returncode == 0, stderr
    summary = json.loads(done.stdout.decode().splitlines()[-1])
    played = 0
    for tid, players in ((four, 4), (five, 5)):
        assert store.tournament(tid).status is TournamentStatus.FINISHED
        tables = store.tables(tid)
        assert tables and all(table.status.value == "done" for table, _ in tables)
        node_seats = [s for _, seats in tables for s in seats if s.bot_id == node_bot.id]
        assert node_seats and all(s.infractions == 0 for s in node_seats), stderr
        assert all(len(seats) == players for _, seats in tables)
        played += len(node_seats)
    assert summary["tables"] == played
    assert summary["notices"] == {} and summary["sequence_errors"] == 0, summary
    assert summary["goodbye"] and summary["requests"] > 0
