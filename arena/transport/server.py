"""The arena's gRPC server: bot connections, the admin service, health and reflection.

The core is trio; grpc.aio runs ``asyncio.run`` in a thread of its own (see :mod:`.bridge`).
Servicers are thin: they decode, hand over to trio, and encode. The trio side owns every
connection and seat, so table state is only ever touched from one thread.

Use it from trio::

    async with trio.open_nursery() as nursery:
        server = ArenaServer(registry, admin_token="...")
        port = await nursery.start(server.serve)
        outcome = await server.play_table(...)
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

import grpc
import trio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.rules import Deal, TableOptions, seeded_deal
from arena.rules.cards import cards_of
from arena.storage.bots import BotRegistry, BotSummary, UnknownBotError
from arena.table import PlayerInfo, TableEnd, TableOutcome, TableRunner, TimeControl

from . import convert
from .bridge import Bridge
from .connections import BotConnection, RemoteSeat

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES: Final = 64 * 1024
HELLO_TIMEOUT: Final = 10.0
MAX_TABLES_PER_CONNECTION: Final = 1024
UNDELIVERED_KEPT: Final = 64
BOT_SERVICE: Final = "tarot_arena.v1.BotService"
ADMIN_SERVICE: Final = "tarot_arena.v1.AdminService"


class BotNotConnectedError(LookupError):
    """No live connection of that bot has a free seat."""


class ArenaServer:
    def __init__(
        self,
        registry: BotRegistry,
        admin_token: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
    ) -> None:
        self.registry = registry
        self.admin_token = admin_token or secrets.token_urlsafe(24)
        self.host = host
        self.port = port
        self.max_message_bytes = max_message_bytes
        self.connections: dict[int, BotConnection] = {}
        self.orphans: dict[str, list[RemoteSeat]] = {}
        self.revoked: set[str] = set()
        self.undelivered: dict[str, collections.deque[pb.ArenaMessage]] = {}
        self.bridge: Bridge | None = None
        self._tables = 0
        self._changed = trio.Event()

    # --------------------------------------------------------------------------- lifecycle
    async def serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Run until cancelled; ``task_status.started(port)`` once listening."""
        async with trio.open_nursery() as nursery:
            self.bridge = Bridge(trio.lowlevel.current_trio_token(), nursery)
            listening: list[int] = []
            ready = trio.Event()
            stop: list[Any] = []  # the asyncio stop event, once the loop runs

            def thread_main() -> None:
                asyncio.run(self._grpc_main(listening, ready, stop))

            async def run_thread() -> None:
                await trio.to_thread.run_sync(thread_main)

            nursery.start_soon(run_thread)
            await ready.wait()
            if not listening:
                raise OSError(f"could not listen on {self.host}:{self.port}")
            self.port = listening[0]
            task_status.started(self.port)
            try:
                await trio.sleep_forever()
            finally:
                for connection in list(self.connections.values()):
                    connection.close()
                if stop:
                    self.bridge.to_asyncio(stop[0].set)
                nursery.cancel_scope.cancel()

    async def _grpc_main(
        self, listening: list[int], ready: trio.Event, stop: list[asyncio.Event]
    ) -> None:
        assert self.bridge is not None
        self.bridge.loop = asyncio.get_running_loop()
        stop_event = asyncio.Event()
        stop.append(stop_event)
        options = [
            ("grpc.max_receive_message_length", self.max_message_bytes),
            ("grpc.max_send_message_length", 16 * 1024 * 1024),
            ("grpc.so_reuseport", 0),
            # Notice peers that vanish without closing TCP, so their seats can be rebound.
            ("grpc.keepalive_time_ms", 30_000),
            ("grpc.keepalive_timeout_ms", 10_000),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.http2.min_recv_ping_interval_without_data_ms", 10_000),
            ("grpc.http2.max_pings_without_data", 0),
        ]
        server = grpc.aio.server(options=options)
        pb_grpc.add_BotServiceServicer_to_server(_BotService(self), server)
        pb_grpc.add_AdminServiceServicer_to_server(_AdminService(self), server)
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        names = (
            pb.DESCRIPTOR.services_by_name["BotService"].full_name,
            pb.DESCRIPTOR.services_by_name["AdminService"].full_name,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        )
        reflection.enable_server_reflection(names, server)
        try:
            port = server.add_insecure_port(f"{self.host}:{self.port}")
        except RuntimeError:
            port = 0
        if port:
            await server.start()
            for name in ("", BOT_SERVICE, ADMIN_SERVICE):
                await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
            listening.append(port)
        self.bridge.to_trio(ready.set)
        if not port:
            return
        try:
            await stop_event.wait()
        finally:
            await health_servicer.enter_graceful_shutdown()
            await server.stop(grace=0.5)

    # ------------------------------------------------------------------ bots and tables
    def connected_bots(self) -> dict[str, int]:
        """Open connections per bot id."""
        counts: dict[str, int] = {}
        for connection in self.connections.values():
            counts[connection.bot_id] = counts.get(connection.bot_id, 0) + 1
        return counts

    async def wait_for_bots(self, bot_ids: Sequence[str], timeout: float) -> None:
        """Wait until every bot in ``bot_ids`` has a live connection."""
        with trio.fail_after(timeout):
            while not set(bot_ids) <= set(self.connected_bots()):
                await self._wait_change()

    async def _wait_change(self) -> None:
        """Until a connection opens or closes, or a table frees its seats."""
        await self._changed.wait()

    def _signal_change(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def _pick(self, bot_id: str) -> BotConnection:
        best = max(
            (c for c in self.connections.values() if c.bot_id == bot_id and not c.closed),
            key=lambda c: c.free_seats,
            default=None,
        )
        if best is None:
            raise BotNotConnectedError(f"bot {bot_id} is not connected")
        if best.free_seats <= 0:
            raise BotNotConnectedError(
                f"bot {bot_id} already plays {best.max_tables} tables on each connection"
            )
        return best

    async def _seat_bots(
        self, table_id: str, bot_ids: Sequence[str], timeout: float
    ) -> list[RemoteSeat]:
        """Take a seat on a connection of each bot, waiting up to ``timeout`` for free ones."""
        deadline = trio.current_time() + timeout
        while True:
            seats: list[RemoteSeat] = []
            try:
                for seat, bot_id in enumerate(bot_ids):
                    connection = self._pick(bot_id)
                    seats.append(RemoteSeat(table_id, seat, bot_id, connection, self._is_revoked,
                                            self._keep_undelivered))
                return seats
            except BotNotConnectedError:
                for remote in seats:
                    remote.connection.seats.pop(remote.key, None)
                if trio.current_time() >= deadline:
                    raise
            with trio.move_on_at(deadline):
                await self._wait_change()

    async def play_table(
        self,
        table_id: str,
        deal: Deal,
        options: TableOptions,
        bot_ids: Sequence[str],
        time_control: TimeControl | None = None,
        seat_timeout: float = 30.0,
    ) -> TableOutcome:
        """Seat the bots (by seat) on their least busy connections and play the deal.

        Waits up to ``seat_timeout`` seconds for the bots to be connected with a free seat,
        then raises :class:`BotNotConnectedError`.
        """
        if len(bot_ids) != options.players:
            raise ValueError(f"{len(bot_ids)} bots for a {options.players}-player table")
        seats = await self._seat_bots(table_id, bot_ids, seat_timeout)
        players = [PlayerInfo(s.seat, s.bot_id, s.connection.bot_name) for s in seats]
        self._tables += 1
        try:
            runner = TableRunner(table_id, deal, options, seats, players, time_control)
            return await runner.run()
        finally:
            self._tables -= 1
            for remote in seats:
                remote.finished = True
                remote.connection.seats.pop(remote.key, None)
                orphans = self.orphans.get(remote.bot_id)
                if orphans and remote in orphans:
                    orphans.remove(remote)
            self._signal_change()

    def _keep_undelivered(self, bot_id: str, message: pb.ArenaMessage) -> None:
        """A TableEnd for a bot that is away: sent when it reconnects (the last few kept)."""
        self.undelivered.setdefault(bot_id, collections.deque(maxlen=UNDELIVERED_KEPT)).append(
            message
        )

    def _is_revoked(self, bot_id: str) -> bool:
        return bot_id in self.revoked

    def mark_revoked(self, bot_id: str) -> None:
        """Close the bot's connections; its open requests end with BotGone."""
        self.revoked.add(bot_id)
        for connection in list(self.connections.values()):
            if connection.bot_id == bot_id:
                for seat in list(connection.seats.values()):
                    seat.revoked()
                connection.close()
        for seat in self.orphans.pop(bot_id, []):
            seat.revoked()

    # ------------------------------------------------- called from the gRPC thread (via bridge)
    def _open(
        self, bot: BotSummary, hello: pb.Hello, outbox: Any, outbox_all: Any
    ) -> BotConnection:
        connection = BotConnection(
            bot.id, hello.bot_name, hello.bot_version, hello.max_tables, outbox, outbox_all
        )
        self.connections[connection.id] = connection
        for seat in self.orphans.pop(bot.id, []):
            if not seat.finished:
                seat.rebind(connection)
        for message in self.undelivered.pop(bot.id, ()):
            connection.post(message)
        self._signal_change()
        return connection

    def _closed(self, connection: BotConnection) -> None:
        connection.closed = True
        self.connections.pop(connection.id, None)
        for seat in list(connection.seats.values()):
            if seat.finished:
                continue
            # The bot's new stream may have opened before this one closed (a quick reconnection,
            # a new process taking over): it takes the seat now, else the next one to open.
            successor = max(
                (c for c in self.connections.values()
                 if c.bot_id == seat.bot_id and not c.closed),
                key=lambda c: c.free_seats,
                default=None,
            )
            if successor is not None:
                seat.rebind(successor)
            else:
                self.orphans.setdefault(seat.bot_id, []).append(seat)
        self._signal_change()


class _BotService(pb_grpc.BotServiceServicer):
    def __init__(self, arena: ArenaServer) -> None:
        self.arena = arena

    async def Connect(
        self, request_iterator: AsyncIterator[pb.BotMessage], context: grpc.aio.ServicerContext
    ) -> None:
        arena = self.arena
        bridge = arena.bridge
        assert bridge is not None
        try:
            first = await asyncio.wait_for(context.read(), HELLO_TIMEOUT)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                f"no Hello within {HELLO_TIMEOUT:.0f} s")
            return
        if first is grpc.aio.EOF:
            return
        assert isinstance(first, pb.BotMessage)
        if first.WhichOneof("kind") != "hello":
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                "the first message of a connection must be Hello")
        hello = first.hello
        if hello.protocol_version != convert.PROTOCOL_VERSION:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"protocol version {hello.protocol_version} is not supported: this arena "
                f"speaks version {convert.PROTOCOL_VERSION}",
            )
        problem = _check_hello(hello)
        if problem:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, problem)
        loop = asyncio.get_running_loop()
        bot = await loop.run_in_executor(None, arena.registry.authenticate, hello.token)
        if bot is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked bot token")
        assert bot is not None
        outbox: asyncio.Queue[pb.ArenaMessage | None] = asyncio.Queue()

        def post(message: pb.ArenaMessage | None) -> None:
            bridge.to_asyncio(outbox.put_nowait, message)

        def put_all(messages: list[pb.ArenaMessage]) -> None:
            for message in messages:
                outbox.put_nowait(message)

        def post_all(messages: list[pb.ArenaMessage]) -> None:
            bridge.to_asyncio(put_all, messages)

        connection = await bridge.call_in_trio(arena._open, bot, hello, post, post_all)
        reader = asyncio.create_task(self._read(context, connection, outbox))
        try:
            batching = hello.batching
            await context.write(pb.ArenaMessage(welcome=pb.Welcome(
                bot_id=bot.id, protocol_version=convert.PROTOCOL_VERSION,
                max_tables=connection.max_tables, max_message_bytes=arena.max_message_bytes,
                batching=batching,
            )))
            while True:
                message = await outbox.get()
                if message is None:
                    break
                if batching and not outbox.empty():
                    message, done = _batch(message, outbox)
                    await context.write(message)
                    if done:
                        break
                else:
                    await context.write(message)
        except (asyncio.CancelledError, grpc.aio.AioRpcError, grpc.RpcError):
            pass
        finally:
            failure = reader.result() if reader.done() and not reader.cancelled() else None
            reader.cancel()
            bridge.to_trio(arena._closed, connection)
        if failure:  # tell the bot why its stream ends
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, failure)

    async def _read(
        self,
        context: grpc.aio.ServicerContext,
        connection: BotConnection,
        outbox: asyncio.Queue[pb.ArenaMessage | None],
    ) -> str | None:
        """Forward decisions to trio until the stream ends; why it broke, if it did."""
        bridge = self.arena.bridge
        assert bridge is not None
        try:
            while True:
                message = await context.read()
                if message is grpc.aio.EOF:
                    break
                assert isinstance(message, pb.BotMessage)
                if message.WhichOneof("kind") == "decision":
                    bridge.to_trio(connection.on_decision, message.decision)
                else:
                    outbox.put_nowait(pb.ArenaMessage(notice=pb.Notice(
                        kind=pb.UNKNOWN_REQUEST,
                        message="only Decision messages may follow the Hello",
                    )))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken stream: the connection ends, tables go on
            log.info("connection %s of bot %s ended: %s", connection.id, connection.bot_id, exc)
            outbox.put_nowait(None)
            return f"unreadable message from the bot ({type(exc).__name__}): stream closed"
        outbox.put_nowait(None)
        return None


MAX_BATCH: Final = 256


def _batch(
    first: pb.ArenaMessage, outbox: asyncio.Queue[pb.ArenaMessage | None]
) -> tuple[pb.ArenaMessage, bool]:
    """``first`` and whatever else is queued, as one message; True if the stream must end."""
    messages = [first]
    done = False
    while not outbox.empty() and len(messages) < MAX_BATCH:
        message = outbox.get_nowait()
        if message is None:
            done = True
            break
        messages.append(message)
    if len(messages) == 1:
        return first, done
    return pb.ArenaMessage(batch=pb.MessageBatch(messages=messages)), done


def _check_hello(hello: pb.Hello) -> str | None:
    if not hello.bot_name.strip():
        return "bot_name must not be empty"
    if len(hello.bot_name) > 100 or len(hello.bot_version) > 100:
        return "bot_name and bot_version are at most 100 characters"
    if not 1 <= hello.max_tables <= MAX_TABLES_PER_CONNECTION:
        return f"max_tables must be 1..{MAX_TABLES_PER_CONNECTION}, got {hello.max_tables}"
    return None


class _AdminService(pb_grpc.AdminServiceServicer):
    def __init__(self, arena: ArenaServer) -> None:
        self.arena = arena

    async def _authorize(self, context: grpc.aio.ServicerContext) -> None:
        metadata = dict(context.invocation_metadata() or ())
        given = str(metadata.get("authorization", ""))
        expected = f"Bearer {self.arena.admin_token}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED,
                                "admin calls need the metadata 'authorization: Bearer <token>'")

    async def _registry(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def RegisterBot(
        self, request: pb.RegisterBotRequest, context: grpc.aio.ServicerContext
    ) -> pb.RegisterBotResponse:
        await self._authorize(context)
        try:
            bot, token = await self._registry(
                self.arena.registry.register, request.name, request.owner
            )
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return pb.RegisterBotResponse(bot_id=bot.id, token=token)

    async def ListBots(
        self, request: pb.ListBotsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListBotsResponse:
        await self._authorize(context)
        bots = await self._registry(self.arena.registry.list)
        assert self.arena.bridge is not None
        counts = await self.arena.bridge.call_in_trio(self.arena.connected_bots)
        return pb.ListBotsResponse(bots=[
            pb.BotInfo(bot_id=b.id, name=b.name, owner=b.owner, revoked=b.revoked,
                       created_at=b.created_at, connections=counts.get(b.id, 0))
            for b in bots
        ])

    async def RevokeBot(
        self, request: pb.RevokeBotRequest, context: grpc.aio.ServicerContext
    ) -> pb.RevokeBotResponse:
        await self._authorize(context)
        try:
            changed = await self._registry(self.arena.registry.revoke, request.bot_id)
        except UnknownBotError as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        assert self.arena.bridge is not None
        await self.arena.bridge.call_in_trio(self.arena.mark_revoked, request.bot_id)
        return pb.RevokeBotResponse(revoked=changed)

    async def ListConnections(
        self, request: pb.ListConnectionsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListConnectionsResponse:
        await self._authorize(context)
        assert self.arena.bridge is not None

        def snapshot() -> list[pb.ConnectionInfo]:
            return [
                pb.ConnectionInfo(bot_id=c.bot_id, bot_name=c.bot_name, bot_version=c.bot_version,
                                  max_tables=c.max_tables, tables=len(c.seats))
                for c in self.arena.connections.values()
            ]

        return pb.ListConnectionsResponse(
            connections=await self.arena.bridge.call_in_trio(snapshot)
        )

    async def PlayTable(
        self, request: pb.PlayTableRequest, context: grpc.aio.ServicerContext
    ) -> pb.PlayTableResponse:
        await self._authorize(context)
        arena = self.arena
        assert arena.bridge is not None
        try:
            options = convert.options_from_pb(request.options)
            deal = seeded_deal(request.seed, options.players, request.dealer)
            control = request.time_control
            time_control = TimeControl(
                (control.per_decision_ms or 1000) / 1000, control.time_bank_ms / 1000
            )
            if len(request.bot_ids) != options.players:
                raise ValueError(
                    f"{len(request.bot_ids)} bot ids for a {options.players}-player table"
                )
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        table_id = request.table_id or "table_" + secrets.token_hex(6)
        try:
            outcome = await arena.bridge.run_in_trio(
                arena.play_table, table_id, deal, options, list(request.bot_ids), time_control
            )
        except BotNotConnectedError as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        end = TableEnd(table_id, 0, outcome.result, outcome.state.deal,
                       tuple(cards_of(outcome.state.discard)), outcome.record)
        return pb.PlayTableResponse(
            table_id=table_id,
            end=convert.table_end_message(end),
            infractions=[
                pb.Infraction(seat=i.seat, kind=convert.infraction_kind_to_pb(i.kind),
                              message=i.message, decision_index=i.decision_index)
                for i in outcome.infractions
            ],
        )
