"""How a bot learns there is no more work for it: Goodbye, then the stream ends with OK.

In-process with the SDK client against a real arena, then the whole path with processes: a
``tournament run`` arena and bundled bot runners that exit 0 by themselves once it is over.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import grpc
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff, Goodbye, GoodbyeReason
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.live import bots_with_tables_left, dismiss_if_done
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

from .conftest import Arena
from .raw import RawBot

ROOT = Path(__file__).resolve().parents[2]
FAST = Backoff(initial=0.05, maximum=0.2)


async def connected(arena: Arena, name: str, **options: object) -> tuple[str, ArenaClient,
                                                                         list[Goodbye]]:
    """An SDK client running in the arena's nursery; the list gets what run() returned."""
    bot_id, token = arena.register(name)
    client = ArenaClient(RandomBot(), arena.target, token, backoff=FAST, **options)  # type: ignore[arg-type]
    returned: list[Goodbye] = []

    async def run(task_status: trio.TaskStatus[object] = trio.TASK_STATUS_IGNORED) -> None:
        returned.append(await client.run(task_status=task_status))

    with trio.fail_after(5):
        await arena.nursery.start(run)
    return bot_id, client, returned


async def until(predicate: object, timeout: float = 5.0) -> None:
    with trio.fail_after(timeout):
        while not predicate():  # type: ignore[operator]
            await trio.sleep(0.01)


async def test_a_dismissed_client_returns_the_goodbye_after_its_table(arena: Arena) -> None:
    players = [await connected(arena, f"bot{i}") for i in range(4)]
    ids = [bot_id for bot_id, _, _ in players]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(arena.play, "last", ids, 1)
        await until(lambda: arena.server._tables == 1)
        arena.server.dismiss(ids, "tournament T is over")  # while the table is in play
    for _, client, returned in players:
        await until(lambda returned=returned: bool(returned))  # type: ignore[misc]
        assert returned == [Goodbye(GoodbyeReason.NO_MORE_WORK, "tournament T is over")]
        assert client.tables == {}  # it played its table to the end first
    await until(lambda: not arena.server.connections)


async def test_a_dismissed_bot_that_comes_back_is_told_at_once_until_expected(
    arena: Arena
) -> None:
    bot_id, token = arena.register("late")
    arena.server.dismiss([bot_id], "nothing here")
    bot = RawBot(arena.target, token)
    with trio.fail_after(5):
        await arena.start(bot).wait()
    kinds = [m.WhichOneof("kind") for m in bot.messages()]
    assert kinds == ["welcome", "goodbye"]
    (goodbye,) = bot.messages("goodbye")
    assert goodbye.goodbye.reason == pb.Goodbye.NO_MORE_WORK
    assert goodbye.goodbye.message == "nothing here"
    assert bot.status == grpc.StatusCode.OK
    arena.server.expect([bot_id])  # a tournament seating it is about to run
    _, _, returned = await connected(arena, "other")
    again = RawBot(arena.target, token)
    arena.start(again)
    await until(lambda: bot_id in arena.server.connected_bots())
    assert not again.messages("goodbye") and not returned


async def test_stay_keeps_the_client_waiting_for_more_work(arena: Arena) -> None:
    players = [await connected(arena, f"bot{i}", stay=(i == 0)) for i in range(4)]
    ids = [bot_id for bot_id, _, _ in players]
    staying = players[0][1]
    arena.server.dismiss(ids, "over")
    for _, _, returned in players[1:]:
        await until(lambda returned=returned: bool(returned))  # type: ignore[misc]
    await until(lambda: staying.connections >= 3)  # dismissed, back, dismissed again...
    assert not players[0][2]
    arena.server.expect(ids[:1])
    others = [await connected(arena, f"new{i}") for i in range(3)]
    await until(lambda: ids[0] in arena.server.connected_bots())
    outcome = await arena.play("next", [ids[0], *(b for b, _, _ in others)], 2)
    assert outcome.infractions == []


async def test_a_stopping_arena_says_so_and_the_client_reconnects(nursery: trio.Nursery) -> None:
    registry = BotRegistry(make_engine("sqlite://"))
    _, token = registry.register("bot")
    server = ArenaServer(registry)
    scope = trio.CancelScope()
    port = await nursery.start(_serve_in, server, scope)
    client = ArenaClient(RandomBot(), f"127.0.0.1:{port}", token, backoff=FAST)
    returned: list[Goodbye] = []

    async def run(task_status: trio.TaskStatus[object] = trio.TASK_STATUS_IGNORED) -> None:
        returned.append(await client.run(task_status=task_status))

    with trio.fail_after(5):
        await nursery.start(run)
    scope.cancel()  # the arena stops
    await until(lambda: client.goodbye is not None)
    assert client.goodbye == Goodbye(GoodbyeReason.ARENA_STOPPING, "the arena is stopping")
    # It comes back on the same port: the client reconnects by itself.
    again = ArenaServer(registry, port=port)
    await nursery.start(again.serve)
    await until(lambda: client.connections == 2)
    assert not returned
    nursery.cancel_scope.cancel()


async def _serve_in(server: ArenaServer, scope: trio.CancelScope,
                    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    with scope:
        await server.serve(task_status=task_status)


async def test_serve_dismisses_only_bots_no_unfinished_tournament_needs(arena: Arena) -> None:
    """Two tournaments share a bot: when the first is over, its other bots are dismissed, the
    shared one is kept for the second."""
    store = TournamentStore(arena.registry.engine)
    players = [await connected(arena, f"bot{i}") for i in range(7)]
    ids = [bot_id for bot_id, _, _ in players]
    first = store.create(TournamentSettings(name="first", bots=tuple(ids[:4]), boards=1))
    second = store.create(TournamentSettings(name="second", bots=(ids[0], *ids[4:]), boards=1))
    await TournamentRunner(store, RemoteArena(arena.server), first, concurrency=4).run()
    assert store.tournament(first).status is TournamentStatus.FINISHED
    assert bots_with_tables_left(store) == {ids[0], *ids[4:]}
    await dismiss_if_done(arena.server, store, second, keep_busy=True)  # not done: nothing
    await dismiss_if_done(arena.server, store, first, keep_busy=True)
    for _, _, returned in players[1:4]:
        await until(lambda returned=returned: bool(returned))  # type: ignore[misc]
    assert all(not returned for _, _, returned in (players[0], *players[4:]))
    await TournamentRunner(store, RemoteArena(arena.server), second, concurrency=4).run()
    assert store.tournament(second).status is TournamentStatus.FINISHED


# ------------------------------------------------------------------ real processes

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_bundled_bot_processes_exit_0_when_their_tournament_is_over(tmp_path: Path) -> None:
    """``tournament run`` and four ``python -m clients.run`` processes: the bots exit 0 on
    their own once the tournament is over (nobody signals them); one started with ``--stay``
    keeps waiting until it is stopped."""
    url = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(url))
    tokens = [registry.register(f"runner-{i}")[1] for i in range(4)]
    ids = [registry.authenticate(t).id for t in tokens]  # type: ignore[union-attr]
    store = TournamentStore(make_engine(url))
    tid = store.create(TournamentSettings(name="exit", bots=tuple(ids), boards=1, seed=4,
                                          per_decision=5.0))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TAROT_ARENA_TOKEN", "TAROT_ARENA_DB")}
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", url, "tournament", "run", tid,
         "--port", str(port), "--seat-timeout", "30"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    bots = []
    for i, token in enumerate(tokens):
        stay = ["--stay"] if i == 3 else []
        bots.append(subprocess.Popen(
            [sys.executable, "-m", "clients.run", "--bot", "clients.random_bot:RandomBot",
             "--server", f"127.0.0.1:{port}", "--max-tables", "4", *stay],
            cwd=ROOT, env={**env, "TAROT_ARENA_TOKEN": token}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        ))
    try:
        arena.communicate(timeout=90)
        outputs = [bot.communicate(timeout=30) for bot in bots[:3]]
        assert bots[3].poll() is None  # --stay: still waiting for the next tournament
        bots[3].send_signal(signal.SIGINT)
        outputs.append(bots[3].communicate(timeout=30))
    finally:
        for process in (arena, *bots):
            if process.poll() is None:
                process.kill()
    assert arena.returncode == 0
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert [bot.returncode for bot in bots] == [0, 0, 0, 0], outputs
    for _, err in outputs[:3]:
        assert f"no more work from the arena (tournament {tid} (exit) is over): exiting" in err
        assert "Traceback" not in err
