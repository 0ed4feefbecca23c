"""A real arena on a loopback port for the protocol contract tests (real clock: the gRPC side
runs in threads trio's fake clock cannot see)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from arena.games.french_tarot import GameState, TableOptions, seeded_deal
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import TableOutcome, TimeControl
from arena.transport.server import ArenaServer
from tests.transport.conftest import bridge_name_fixture  # noqa: F401  # the fixture bridge_name

from .raw import Policy, RawBot


@dataclass
class Arena:
    server: ArenaServer
    registry: BotRegistry
    port: int
    nursery: trio.Nursery

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def register(self, name: str) -> tuple[str, str]:
        bot, token = self.registry.register(name)
        return bot.id, token

    def start(self, bot: RawBot) -> trio.Event:
        """Run a raw bot in a worker thread; the event is set when it has stopped."""
        done = trio.Event()

        async def run() -> None:
            try:
                await trio.to_thread.run_sync(bot.run, abandon_on_cancel=True)
            finally:
                done.set()

        self.nursery.start_soon(run)
        return done

    def start_bots(self, names: Sequence[str], policies: Sequence[Policy]
                   ) -> tuple[list[str], list[RawBot]]:
        """Register and start one raw bot per name, playing the policy of the same index."""
        ids, bots = [], []
        for name, policy in zip(names, policies, strict=True):
            bot_id, token = self.register(name)
            ids.append(bot_id)
            bots.append(RawBot(self.target, token, policy))
            self.start(bots[-1])
        return ids, bots

    async def play(self, table_id: str, bot_ids: Sequence[str], seed: int = 0,
                   time_control: TimeControl | None = None) -> TableOutcome:
        options = TableOptions(len(bot_ids))
        with trio.fail_after(30):
            return await self.server.play_table(
                table_id, GameState(seeded_deal(seed, options.players, seed % options.players),
                                    options),
                bot_ids, time_control or TimeControl(5.0), seat_timeout=10.0,
            )


@pytest.fixture
async def arena(nursery: trio.Nursery, tmp_path: Path, bridge_name: str) -> Arena:
    """A served arena, on each bridge in turn (see ``tests/transport/conftest.py``)."""
    registry = BotRegistry(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    server = ArenaServer(registry, admin_token="admin-token")
    port = await nursery.start(server.serve)
    return Arena(server, registry, port, nursery)
