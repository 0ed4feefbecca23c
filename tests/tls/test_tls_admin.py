"""``tarot-arena admin`` reaches a running arena's admin service over TLS: its connections,
its bots, a bot revoked at once; a missing TLS option or a wrong token is one line."""

from __future__ import annotations

import json
import sys

import trio

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.transport.server import ArenaServer
from arena.transport.tls import ServerTls
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, ArenaRejectedError, Backoff, ClientTls
from tests.processes import ROOT, environment
from tests.tls.conftest import Pki

ADMIN = "admin-secret"


async def admin(*args: str, token: str = ADMIN) -> tuple[int, str, str]:
    done = await trio.run_process(
        [sys.executable, "-m", "tournaments.cli", "admin", *args], cwd=ROOT,
        env=environment(TAROT_ARENA_ADMIN_TOKEN=token), capture_stdout=True,
        capture_stderr=True, check=False)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def test_admin_commands_over_tls_list_and_revoke_and_say_what_is_wrong(
    nursery: trio.Nursery, pki: Pki
) -> None:
    registry = BotRegistry(make_engine(f"sqlite:///{pki.folder}/arena.db"))
    bot, token = registry.register("alice")
    server = ArenaServer(registry, admin_token=ADMIN, tls=ServerTls(pki.cert, pki.key))
    port = await nursery.start(server.serve)
    address = f"localhost:{port}"
    trust = ["--server", address, "--tls-ca", str(pki.ca_file)]
    client = ArenaClient(RandomBot(), address, token, tls=ClientTls(ca=pki.ca_file),
                         backoff=Backoff(0.05, 0.2), name="alice-bot", version="7")
    ended: list[BaseException] = []

    async def play() -> None:
        try:
            await client.run()
        except ArenaRejectedError as exc:
            ended.append(exc)

    nursery.start_soon(play)
    with trio.fail_after(10):
        while server.connected_bots().get(bot.id) != 1:
            await trio.sleep(0.02)

    code, out, err = await admin("connections", *trust, "--json")
    assert code == 0, err
    assert json.loads(out) == [{"bot_id": bot.id, "bot_name": "alice-bot", "bot_version": "7",
                                "tables": 0, "max_tables": 1}]
    code, out, err = await admin("bots", *trust, "--json")
    assert code == 0, err
    assert [(b["id"], b["connections"], b["revoked"]) for b in json.loads(out)] == [
        (bot.id, 1, False)]

    code, out, err = await admin("revoke", bot.id, *trust)
    assert code == 0, err
    assert f"{bot.id}: revoked, its connections dropped" in out
    with trio.fail_after(10):
        while not ended:
            await trio.sleep(0.02)
    assert "revoked" in str(ended[0])

    code, _, err = await admin("connections", "--server", address)
    assert code == 1
    assert err.strip().splitlines() == [
        f"error: the arena at {address} speaks TLS: connect with --tls (a public certificate) "
        "or --tls-ca FILE (the organiser's CA)"]
    code, _, err = await admin("connections", *trust, token="wrong")
    assert code == 1
    assert " ".join(err.split()) == (
        f"error: the arena at {address} refused the admin token: give the one it was started "
        "with (TAROT_ARENA_ADMIN_TOKEN or --admin-token-file)")
