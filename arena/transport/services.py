"""The gRPC servicers: thin adapters that decode, hand over to the trio side, and write.

They run in grpc.aio's asyncio loop, which the :class:`~arena.transport.bridge.Bridge` steps
from trio on the same thread; everything they touch on the trio side goes through the bridge,
and the bot registry (a database) is called in executor threads so that neither side blocks.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Final

import grpc

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.rules import seeded_deal
from arena.rules.cards import cards_of
from arena.storage.bots import UnknownBotError
from arena.table import TableEnd, TimeControl

from . import convert, wire
from .connections import BotConnection, BotNotConnectedError, Outbox

if TYPE_CHECKING:
    from .server import ArenaServer

log = logging.getLogger(__name__)

HELLO_TIMEOUT: Final = 10.0
MAX_TABLES_PER_CONNECTION: Final = 1024


class BotService(pb_grpc.BotServiceServicer):
    """Writes ArenaMessages already encoded (see :mod:`.wire`): register it with
    :func:`add_bot_service`, not the generated function."""

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
        ready = asyncio.Event()
        outbox = Outbox(lambda: bridge.to_asyncio(ready.set))
        connection = await bridge.call_in_trio(arena._open, bot, hello, outbox)
        reader = asyncio.create_task(self._read(context, connection, outbox))
        try:
            batching = hello.batching
            await context.write(wire.serialize(pb.ArenaMessage(welcome=pb.Welcome(
                bot_id=bot.id, protocol_version=convert.PROTOCOL_VERSION,
                max_tables=connection.max_tables, max_message_bytes=arena.max_message_bytes,
                batching=batching,
            ))))
            while not (outbox.closed and not outbox.items):
                await ready.wait()
                if len(connection.seats) > 1:
                    # One more loop iteration first: answers read in this one reach their
                    # tables, whose next messages then go out in the same write (a third fewer
                    # writes at 16 tables; a bot at one table is not kept waiting for nothing).
                    await asyncio.sleep(0)
                ready.clear()
                messages = outbox.take()
                for message in wire.batches(messages, MAX_BATCH) if batching else messages:
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
        self, context: grpc.aio.ServicerContext, connection: BotConnection, outbox: Outbox
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
                kind = message.WhichOneof("kind")
                if kind == "decision":
                    bridge.to_trio(connection.on_decision, message.decision)
                elif kind == "decisions":
                    for decision in message.decisions.decisions:
                        bridge.to_trio(connection.on_decision, decision)
                else:
                    outbox.put(wire.serialize(pb.ArenaMessage(notice=pb.Notice(
                        kind=pb.UNKNOWN_REQUEST,
                        message="only Decision and DecisionBatch messages may follow the Hello",
                    ))))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken stream: the connection ends, tables go on
            log.info("connection %s of bot %s ended: %s", connection.id, connection.bot_id, exc)
            outbox.close()
            return f"unreadable message from the bot ({type(exc).__name__}): stream closed"
        outbox.close()
        return None


MAX_BATCH: Final = 256
"""Messages per MessageBatch at most."""


def add_bot_service(servicer: BotService, server: grpc.aio.Server) -> None:
    """Like the generated ``add_BotServiceServicer_to_server``, except that responses are
    bytes already encoded, written as they are."""
    handlers = {
        "Connect": grpc.stream_stream_rpc_method_handler(
            servicer.Connect,
            request_deserializer=pb.BotMessage.FromString,
            response_serializer=None,
        ),
    }
    name = pb.DESCRIPTOR.services_by_name["BotService"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))
    server.add_registered_method_handlers(name, handlers)


def _check_hello(hello: pb.Hello) -> str | None:
    if not hello.bot_name.strip():
        return "bot_name must not be empty"
    if len(hello.bot_name) > 100 or len(hello.bot_version) > 100:
        return "bot_name and bot_version are at most 100 characters"
    if not 1 <= hello.max_tables <= MAX_TABLES_PER_CONNECTION:
        return f"max_tables must be 1..{MAX_TABLES_PER_CONNECTION}, got {hello.max_tables}"
    return None


class AdminService(pb_grpc.AdminServiceServicer):
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
                                  max_tables=c.max_tables, tables=c.tables)
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
