"""The gRPC servicers: thin adapters that decode, hand over to the trio side, and encode.

Every request is decoded by :mod:`.convert` (or refused with a status saying why), the work is
done by the server's public methods on the trio side or by the registry, and the answer is
encoded by :mod:`.convert` again: nothing here builds a protocol message.

They run in grpc.aio's asyncio loop, which the :class:`~arena.transport.bridge.Bridge` steps
from trio on the same thread; everything they touch on the trio side goes through the bridge,
and the bot registry (a database) is called in executor threads so that neither side blocks.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import unicodedata
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

import grpc
from google.protobuf.message import DecodeError

from arena import games
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc

from . import convert, wire
from .connections import BotConnection, BotNotConnectedError, Outbox
from .log_limits import LogLimiter
from .token_bucket import TokenBuckets

if TYPE_CHECKING:
    from .host import ArenaHost as ArenaServer

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_TABLES_PER_CONNECTION: Final = 1024
MAX_GAMES: Final = 32
"""Names a Hello may list in games."""
MARKUP: Final = frozenset("<>[]&\\")
"""Characters refused in Hello's bot_name and bot_version: names are shown in terminals, logs
and web pages, where these start markup (rich, HTML) or escapes."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """What the stream's deserializer gives for bytes that are not a BotMessage (garbage, a
    string field that is not UTF-8): the servicer answers it with INVALID_ARGUMENT, where a
    deserializer that raises would end the call with UNKNOWN and a traceback in the log."""

    size: int
    reason: str


def parse_bot_message(data: bytes) -> pb.BotMessage | Unreadable:
    try:
        return pb.BotMessage.FromString(data)
    except DecodeError as exc:
        return Unreadable(len(data), str(exc).rpartition(": ")[2] or "not protobuf")


class HandshakeLimiter(TokenBuckets[str]):
    """Streams opened per peer address: a token bucket each (``burst`` at once, then ``rate``
    per second), forgotten once full again, so an attacker leaves nothing behind."""

    def __init__(self, rate: float, burst: int) -> None:
        super().__init__(burst, rate)


bad_input_log = LogLimiter(log)
"""Every line a client can cause here goes through it, one kind per cause."""


class TooManyConnectionsError(Exception):
    """The bot may not open another stream now: it has as many open as the arena allows, or
    it has used up its allowance of messages that answer nothing (see
    ``connections.DROPPED_ANSWERS_BURST``)."""


def _peer_host(peer: str) -> str:
    """``ipv4:127.0.0.1:5678`` -> ``ipv4:127.0.0.1`` (the port changes with every connection)."""
    return peer.rpartition(":")[0] or peer


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
        loop = asyncio.get_running_loop()
        peer = context.peer() or "unknown peer"
        if not arena.handshakes.allow(_peer_host(peer), loop.time()):
            bad_input_log.warning("handshakes", "connection attempts from %s refused: more than "
                                  "%d at once or %g per second", _peer_host(peer),
                                  arena.handshakes.burst, arena.handshakes.rate)
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many connection attempts from this address (at most "
                f"{arena.handshakes.burst} at once, then {arena.handshakes.rate:g} per second): "
                "retry later",
            )
        try:
            first = await asyncio.wait_for(context.read(), arena.hello_timeout)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                f"no Hello within {arena.hello_timeout:g} s")
            return
        if first is grpc.aio.EOF:
            return
        if isinstance(first, Unreadable):
            bad_input_log.warning("unreadable-first", "unreadable first message (%d bytes) from "
                                  "%s: %s", first.size, peer, first.reason)
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"the first message is not a readable BotMessage ({first.reason}): it must be a "
                "Hello",
            )
        assert isinstance(first, pb.BotMessage)
        if first.WhichOneof("kind") != "hello":
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                "the first message of a connection must be Hello")
        hello = convert.hello_from_pb(first.hello)
        if hello.protocol_version not in convert.PROTOCOL_VERSIONS:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"protocol version {hello.protocol_version} is not supported: this arena "
                f"speaks versions {' and '.join(map(str, convert.PROTOCOL_VERSIONS))}",
            )
        problem = _check_hello(hello)
        if problem:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, problem)
        problem = _check_games(hello)
        if problem:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, problem)
        try:
            bot = await loop.run_in_executor(None, arena.registry.authenticate, hello.token)
        except Exception as exc:  # the database: every Hello would raise (and log) it again
            bad_input_log.warning("authenticate", "a bot token could not be checked, its stream "
                                  "is refused: %s", _first_line(exc))
            await context.abort(grpc.StatusCode.UNAVAILABLE,
                                "the arena cannot check bot tokens right now: retry later, "
                                "with backoff")
        if bot is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked bot token")
        assert bot is not None
        ready = asyncio.Event()
        # A plain future, not a task waiting on an event: nothing is left pending to be
        # destroyed (and logged at ERROR) when a client cancels its stream.
        failed: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            ready.set()
            if outbox.failure is not None and not failed.done():
                failed.set_result(None)

        outbox = Outbox(lambda: bridge.to_asyncio(wake), arena.outbox_limit_bytes,
                        bridge.posting)
        # From here on, however this coroutine ends (cancelled at any await included), the
        # finally below closes the outbox and then tells the trio side, which registers the
        # stream only if its outbox is still open: no connection outlives its stream.
        writer: asyncio.Task[None] | None = None
        try:
            try:
                connection = await bridge.call_in_trio(arena.open_stream, bot.id, hello, outbox)
            except TooManyConnectionsError as exc:
                outbox.fail("RESOURCE_EXHAUSTED", str(exc))
                connection = None
            if connection is not None:
                # not awaited: the Welcome waits for no database (the write logs its failure)
                loop.run_in_executor(None, _record_hello, arena, bot.id, hello.bot_name,
                                     hello.bot_version)
                # The headers first, by themselves (no flow control holds them up): grpc.aio
                # counts them sent only once a write returns, so a writer cancelled in its
                # first write (an unreadable message right after the Hello) made the abort
                # below send them twice, which failed it (TOO_MANY_OPERATIONS, a traceback,
                # and a stream left without its status).
                await context.send_initial_metadata(())
                reader = asyncio.create_task(self._read(context, connection, outbox))
                _readers.add(reader)  # until it ends, which may be after this coroutine
                reader.add_done_callback(_readers.discard)
                writer = asyncio.create_task(self._write(
                    context, bot.id, hello.protocol_version, hello.batching, connection, outbox,
                    ready,
                ))
                # Until the stream is written to its end, or the arena fails it (a writer stuck
                # on a bot that does not read is cancelled then).
                await asyncio.wait((writer, failed), return_when=asyncio.FIRST_COMPLETED)
                if writer.done() and not writer.cancelled() and writer.exception() is not None:
                    # told here, once per cause at most: a task's error left unretrieved is
                    # logged at ERROR with its traceback, one per stream
                    bad_input_log.warning("write", "connection %s of bot %s: a write failed: "
                                          "%r", connection.id, bot.id, writer.exception())
        except (asyncio.CancelledError, grpc.aio.AioRpcError, grpc.RpcError):
            pass
        finally:
            if writer is not None:
                writer.cancel()
            outbox.close()
            bridge.to_trio(arena.stream_ended, outbox)
        # The reader is never cancelled: a read cancelled while the call is open ends it with
        # INTERNAL instead of its status (TRANSPORT.md, pitfall 1). It ends with the call.
        if outbox.failure is not None:  # tell the bot why its stream ends
            code, details = outbox.failure
            await context.abort(grpc.StatusCode[code], details)

    async def _write(
        self, context: grpc.aio.ServicerContext, bot_id: str, protocol_version: int,
        batching: bool, connection: BotConnection, outbox: Outbox, ready: asyncio.Event,
    ) -> None:
        """The Welcome, then what the outbox is given, until it is closed and empty."""
        bridge = self.arena.bridge
        assert bridge is not None
        welcome = convert.Welcome(bot_id, protocol_version, connection.max_tables,
                                  self.arena.max_message_bytes, batching,
                                  tuple(sorted(connection.games)),
                                  convert.offers() if protocol_version >= 2 else ())
        try:
            await context.write(wire.serialize(convert.welcome_to_pb(welcome)))
            while not (outbox.closed and not outbox.items):
                await ready.wait()
                if len(connection.seats) > 1:
                    # Trio's round first: answers read meanwhile reach their tables, whose next
                    # messages then go out in the same write (a third fewer writes at 16
                    # tables; a bot at one table is not kept waiting for nothing).
                    await bridge.after_trio()
                ready.clear()
                messages = outbox.take()
                for message in wire.batches(messages, MAX_BATCH) if batching else messages:
                    await context.write(message)
        except (grpc.aio.AioRpcError, grpc.RpcError):
            pass

    async def _read(
        self, context: grpc.aio.ServicerContext, connection: BotConnection, outbox: Outbox
    ) -> None:
        """Forward decisions to trio until the stream ends; an unreadable message ends it
        with INVALID_ARGUMENT."""
        bridge = self.arena.bridge
        assert bridge is not None
        try:
            while True:
                message = await context.read()
                if message is grpc.aio.EOF:
                    break
                if isinstance(message, Unreadable):
                    bad_input_log.warning(
                        "unreadable", "connection %s of bot %s: unreadable message (%d bytes): "
                        "%s", connection.id, connection.bot_id, message.size, message.reason)
                    outbox.fail("INVALID_ARGUMENT",
                                f"unreadable message from the bot ({message.reason}): stream "
                                "closed")
                    return
                assert isinstance(message, pb.BotMessage)
                kind = message.WhichOneof("kind")
                if kind == "decision":
                    bridge.to_trio(connection.on_decision,
                                   convert.decision_from_pb(message.decision))
                elif kind == "decisions":
                    for decision in message.decisions.decisions:
                        bridge.to_trio(connection.on_decision, convert.decision_from_pb(decision))
                else:
                    bridge.to_trio(connection.on_stray_message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken stream: the connection ends, tables go on
            if not outbox.closed:  # else the call was over anyway, its status given
                bad_input_log.warning("broken", "connection %s of bot %s ended: %r",
                                      connection.id, connection.bot_id, exc)
        outbox.close()


MAX_BATCH: Final = 256
"""Messages per MessageBatch at most."""
_readers: set[asyncio.Task[None]] = set()
"""Readers of streams whose Connect has returned: they end with their call."""


def add_bot_service(servicer: BotService, server: grpc.aio.Server) -> None:
    """Like the generated ``add_BotServiceServicer_to_server``, except that responses are
    bytes already encoded, written as they are."""
    handlers = {
        "Connect": grpc.stream_stream_rpc_method_handler(
            servicer.Connect,
            request_deserializer=parse_bot_message,
            response_serializer=None,
        ),
    }
    name = pb.DESCRIPTOR.services_by_name["BotService"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))
    server.add_registered_method_handlers(name, handlers)


def _record_hello(arena: ArenaServer, bot_id: str, name: str, version: str) -> None:
    """Keep the version an accepted Hello names, for the bot's page; in an executor thread. A
    database that cannot take it costs the bot nothing: its connection stands."""
    try:
        arena.registry.record_hello(bot_id, name, version)
    except Exception as exc:  # whatever it is, the bot plays on
        bad_input_log.warning("record-hello", "the version %r of bot %s was not recorded: %s",
                              version, bot_id, _first_line(exc))


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _check_hello(hello: convert.Hello) -> str | None:
    if not hello.bot_name.strip():
        return "bot_name must not be empty"
    if len(hello.bot_name) > 100 or len(hello.bot_version) > 100:
        return "bot_name and bot_version are at most 100 characters"
    for field_name in ("bot_name", "bot_version"):
        problem = _unprintable(getattr(hello, field_name))
        if problem:
            return f"{field_name} {problem}"
    if not 1 <= hello.max_tables <= MAX_TABLES_PER_CONNECTION:
        return f"max_tables must be 1..{MAX_TABLES_PER_CONNECTION}, got {hello.max_tables}"
    if len(hello.games) > MAX_GAMES:
        return f"games lists {len(hello.games)} games, at most {MAX_GAMES}"
    known = games.names()
    for name in hello.games:
        if name not in known:
            shown = name if len(name) <= 40 and not _unprintable(name) else "(unprintable)"
            return f"unknown game {shown!r} in games: this arena plays {', '.join(known)}"
    return None


def _check_games(hello: convert.Hello) -> str | None:
    """A version 1 bot plays French Tarot only (its messages are French Tarot's)."""
    others = [name for name in hello.games if name != games.DEFAULT_GAME]
    if hello.protocol_version == 1 and others:
        return (f"protocol version 1 plays {games.DEFAULT_GAME} only: send protocol_version 2 "
                f"to play {', '.join(others)}")
    return None


def _unprintable(text: str) -> str | None:
    """Why ``text`` cannot be shown as it is, if it cannot: a control, format or separator
    character (ANSI escapes, bidi overrides, new lines), or a markup character."""
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("Zl", "Zp"):
            return (f"contains the control character U+{ord(char):04X} at {index}: only "
                    "printable characters are allowed")
        if char in MARKUP:
            return (f"contains {char!r} at {index}: the characters "
                    f"{' '.join(sorted(MARKUP))} are not allowed")
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

    async def _registry(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def _in_trio(self, fn: Callable[..., T], *args: Any) -> T:
        bridge = self.arena.bridge
        assert bridge is not None
        result: T = await bridge.call_in_trio(fn, *args)
        return result

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
        return convert.registered_to_pb(bot, token)

    async def ListBots(
        self, request: pb.ListBotsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListBotsResponse:
        await self._authorize(context)
        bots = await self._registry(self.arena.registry.list)
        counts = await self._in_trio(self.arena.connected_bots)
        return convert.bots_to_pb(bots, counts)

    async def RevokeBot(
        self, request: pb.RevokeBotRequest, context: grpc.aio.ServicerContext
    ) -> pb.RevokeBotResponse:
        await self._authorize(context)
        try:
            changed = await self._registry(self.arena.registry.revoke, request.bot_id)
        except LookupError as exc:  # the registry knows no such bot
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        await self._in_trio(self.arena.mark_revoked, request.bot_id)
        return convert.revoked_to_pb(changed)

    async def ListConnections(
        self, request: pb.ListConnectionsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListConnectionsResponse:
        await self._authorize(context)
        return convert.connections_to_pb(await self._in_trio(self.arena.connection_summaries))

    async def PlayTable(
        self, request: pb.PlayTableRequest, context: grpc.aio.ServicerContext
    ) -> pb.PlayTableResponse:
        await self._authorize(context)
        arena = self.arena
        assert arena.bridge is not None
        try:
            order = convert.table_order_from_pb(request)
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        try:
            outcome = await arena.bridge.run_in_trio(
                arena.play_table, order.table_id, order.state, list(order.bot_ids),
                order.time_control,
            )
        except BotNotConnectedError as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        return convert.played_to_pb(outcome)
