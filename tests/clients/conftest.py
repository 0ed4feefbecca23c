"""A real arena on a loopback port for the SDK's end-to-end tests, and a proxy that cuts streams.

Everything that crosses gRPC runs on the real clock: trio's fake clock cannot see work done in
the gRPC threads (the transport study, TRANSPORT.md, pitfall 4). A table's default limit per
decision is generous (:data:`PER_DECISION`): on a loaded 2-core CI machine a process can wait a
whole second for a CPU, and a test that is not about timeouts must not see one then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest
import trio

from arena.games.french_tarot import GameState, TableOptions, seeded_deal
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import TableOutcome, TimeControl
from arena.transport.server import ArenaServer
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff, Bot, TableEnd, TableView
from tests.transport.conftest import bridge_name_fixture  # noqa: F401  # the fixture bridge_name

FAST_BACKOFF = Backoff(initial=0.05, maximum=0.2)
PER_DECISION = 5.0
"""Seconds per decision unless a test says otherwise: far above a bot's need, so that only a
test about time limits sees a timeout."""


@dataclass
class Arena:
    server: ArenaServer
    port: int
    bots: list[tuple[str, str]]
    """(bot_id, token) of the registered bots."""
    nursery: trio.Nursery

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def ids(self, *indexes: int) -> list[str]:
        return [self.bots[i][0] for i in indexes]

    async def client(
        self, bot: Bot, index: int = 0, address: str | None = None, **options: object
    ) -> ArenaClient:
        """An SDK client for bot ``index``, connected (Welcome received), running until the
        test ends."""
        options.setdefault("backoff", FAST_BACKOFF)
        client = ArenaClient(bot, address or self.address, self.bots[index][1], **options)
        with trio.fail_after(5):
            await self.nursery.start(client.run)
        return client

    async def play(
        self, table_id: str, bot_ids: Sequence[str], seed: int = 0,
        per_decision: float = PER_DECISION
    ) -> TableOutcome:
        options = TableOptions(len(bot_ids))
        with trio.fail_after(60):
            return await self.server.play_table(
                table_id, GameState(seeded_deal(seed, options.players, seed % options.players),
                                    options),
                bot_ids, TimeControl(per_decision), seat_timeout=5.0,
            )

    async def play_many(
        self, tables: Sequence[tuple[str, Sequence[str], int]], per_decision: float = PER_DECISION
    ) -> dict[str, TableOutcome]:
        """Play (table_id, bot_ids, seed) tables at once."""
        outcomes: dict[str, TableOutcome] = {}

        async def one(table_id: str, bot_ids: Sequence[str], seed: int) -> None:
            outcomes[table_id] = await self.play(table_id, bot_ids, seed, per_decision)

        async with trio.open_nursery() as nursery:
            for table_id, bot_ids, seed in tables:
                nursery.start_soon(one, table_id, bot_ids, seed)
        return outcomes


async def eventually(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``predicate()`` holds: the arena's ``play_table`` returns once it has posted
    the TableEnd messages, not once the bots have read them."""
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.005)


@pytest.fixture
async def arena(nursery: trio.Nursery, bridge_name: str) -> Arena:
    """A served arena, on each bridge in turn (see ``tests/transport/conftest.py``)."""
    registry = BotRegistry(make_engine("sqlite://"))
    bots = [registry.register(f"bot{i}") for i in range(4)]
    server = ArenaServer(registry, admin_token="admin-token")
    port = await nursery.start(server.serve)
    return Arena(server, port, [(bot.id, token) for bot, token in bots], nursery)


class RecordingBot(RandomBot):
    """A RandomBot that remembers what the SDK told it."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.starts: list[tuple[tuple[str, int], bool]] = []
        self.ends: dict[tuple[str, int], TableEnd] = {}
        self.last_views: dict[tuple[str, int], TableView] = {}
        self.notices: list[object] = []
        self.events = 0

    def on_table_start(self, table: TableView) -> None:
        self.starts.append((table.key, table.resumed))

    def on_event(self, table: TableView, event: object) -> None:
        self.events += 1

    def on_notice(self, table: TableView | None, notice: object) -> None:
        self.notices.append(notice)

    def on_table_end(self, table: TableView, end: TableEnd) -> None:
        self.ends[table.key] = end
        self.last_views[table.key] = table


class CuttableProxy:
    """A TCP proxy in front of the arena; :meth:`cut` drops every connection through it at
    once, as a network failure would (new connections are still accepted)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.cuts = 0
        self.refuse = False
        """While True, new connections are closed at once (the arena looks down)."""
        self._scopes: set[trio.CancelScope] = set()

    async def serve(self, *, task_status: object = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)  # type: ignore[attr-defined]
        await trio.serve_listeners(self._handle, listeners)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cut(self) -> None:
        self.cuts += 1
        for scope in list(self._scopes):
            scope.cancel()

    async def _handle(self, downstream: trio.SocketStream) -> None:
        if self.refuse:
            await downstream.aclose()
            return
        with trio.CancelScope() as scope:
            self._scopes.add(scope)
            try:
                upstream = await trio.open_tcp_stream("127.0.0.1", self.target_port)
                async with downstream, upstream, trio.open_nursery() as nursery:
                    nursery.start_soon(self._pump, downstream, upstream, nursery.cancel_scope)
                    nursery.start_soon(self._pump, upstream, downstream, nursery.cancel_scope)
            finally:
                self._scopes.discard(scope)

    @staticmethod
    async def _pump(source: trio.SocketStream, sink: trio.SocketStream,
                    scope: trio.CancelScope) -> None:
        try:
            async for data in source:
                await sink.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        scope.cancel()


@pytest.fixture
async def proxy(arena: Arena, nursery: trio.Nursery) -> CuttableProxy:
    proxy = CuttableProxy(arena.port)
    await nursery.start(proxy.serve)
    return proxy
