"""The arena's gRPC server: bot connections, the admin service, health and reflection.

The core is trio; grpc.aio's asyncio loop is stepped by a trio task in the same thread (see
:mod:`.bridge`). The servicers (:mod:`.services`) are thin: they decode, hand over to trio, and
write what the trio side encoded (:mod:`.wire`). The trio side owns every connection and seat.

The bots' tokens are checked by an :class:`~.authenticator.Authenticator` that whoever builds
the server hands over (the storage side's ``BotRegistry``). With ``tls`` (a
:class:`~.tls.ServerTls`) the port serves TLS only, and a renewed certificate is taken up by the
next handshake without dropping a connection. Use it from trio::

    async with trio.open_nursery() as nursery:
        server = ArenaServer(BotRegistry(engine), admin_token="...")
        port = await nursery.start(server.serve)
        outcome = await server.play_table(...)
"""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
from collections.abc import Sequence
from typing import Any, Final

import grpc
import trio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.games import DEFAULT_GAME, Game, State
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.table import PlayerInfo, TableOutcome, TableRunner, TimeControl

from . import convert, wire
from .authenticator import Authenticator
from .bridge import Bridge, open_bridge
from .connections import (
    DROPPED_ANSWERS_BURST,
    DROPPED_ANSWERS_PER_SECOND,
    OUTBOX_LIMIT_BYTES,
    BotConnection,
    BotNotConnectedError,
    Outbox,
    RemoteSeat,
)
from .reflection import enable_reflection
from .services import (
    AdminService,
    BotService,
    HandshakeLimiter,
    TooManyConnectionsError,
    add_bot_service,
)
from .tls import ServerTls
from .token_bucket import TokenBuckets

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES: Final = 64 * 1024
UNDELIVERED_KEPT: Final = 64
"""TableEnds kept per bot for a bot that has no stream open (the oldest dropped first)."""
MAX_CONNECTIONS_PER_BOT: Final = 8
"""Streams open at once with one token; one more is refused with RESOURCE_EXHAUSTED."""
HANDSHAKES_PER_SECOND: Final = 20.0
HANDSHAKE_BURST: Final = 50
"""Connection attempts (streams opened) per peer address: this many at once, then this many
per second; one more is refused with RESOURCE_EXHAUSTED before its token is even looked at."""
HELLO_TIMEOUT: Final = 5.0
"""Seconds a new stream has to send its Hello (then DEADLINE_EXCEEDED)."""
BOT_SERVICE: Final = "tarot_arena.v1.BotService"
ADMIN_SERVICE: Final = "tarot_arena.v1.AdminService"


class ArenaServer:
    def __init__(
        self,
        registry: Authenticator,
        admin_token: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        *,
        max_connections_per_bot: int = MAX_CONNECTIONS_PER_BOT,
        handshakes_per_second: float = HANDSHAKES_PER_SECOND,
        handshake_burst: int = HANDSHAKE_BURST,
        hello_timeout: float = HELLO_TIMEOUT,
        outbox_limit_bytes: int = OUTBOX_LIMIT_BYTES,
        tls: ServerTls | None = None,
    ) -> None:
        self.registry = registry
        """Where bots are registered and their tokens checked (called off the loops only)."""
        self.admin_token = admin_token or secrets.token_urlsafe(24)
        self.host = host
        self.port = port
        self.max_message_bytes = max_message_bytes
        self.max_connections_per_bot = max_connections_per_bot
        self.handshakes = HandshakeLimiter(handshakes_per_second, handshake_burst)
        self.hello_timeout = hello_timeout
        self.outbox_limit_bytes = outbox_limit_bytes
        self.tls = tls
        """TLS only on the port (None: plaintext)."""
        self.connections: dict[int, BotConnection] = {}
        self.orphans: dict[str, list[RemoteSeat]] = {}
        self.revoked: set[str] = set()
        self.undelivered: dict[str, collections.deque[bytes]] = {}
        self.dismissed: dict[str, str] = {}
        """Bots told their work is done -> why; until :meth:`expect` calls them back."""
        self.strays: TokenBuckets[str] = TokenBuckets(DROPPED_ANSWERS_BURST,
                                                      DROPPED_ANSWERS_PER_SECOND)
        """bot id -> answers to nothing it may still send (shared by the bot's streams);
        forgotten once full again."""
        self.bridge: Bridge | None = None
        self._tables = 0
        self._changed = trio.Event()

    # --------------------------------------------------------------------------- lifecycle
    async def serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Run until cancelled; ``task_status.started(port)`` once listening.

        With :attr:`tls`, its files are read and checked first: a bad one raises
        :class:`~.tls.TlsConfigError` before anything listens."""
        credentials = self.tls.credentials() if self.tls is not None else None
        async with trio.open_nursery() as nursery:
            self.bridge = bridge = open_bridge(nursery)
            listening: list[int] = []
            ready = trio.Event()
            stop: list[Any] = []  # the asyncio stop event, once the loop runs
            nursery.start_soon(bridge.drive,
                               self._grpc_main(listening, ready, stop, credentials))
            await ready.wait()
            if not listening:
                raise OSError(f"could not listen on {self.host}:{self.port}")
            self.port = listening[0]
            task_status.started(self.port)
            try:
                await trio.sleep_forever()
            finally:
                stopping = _goodbye(convert.GoodbyeReason.ARENA_STOPPING, "the arena is stopping")
                for connection in list(self.connections.values()):
                    connection.post(stopping)
                    connection.close()
                if stop:
                    bridge.to_asyncio(stop[0].set)
                nursery.cancel_scope.cancel()

    async def _grpc_main(
        self, listening: list[int], ready: trio.Event, stop: list[asyncio.Event],
        credentials: grpc.ServerCredentials | None = None,
    ) -> None:
        assert self.bridge is not None
        stop_event = asyncio.Event()
        stop.append(stop_event)
        options = [
            ("grpc.max_receive_message_length", self.max_message_bytes),
            ("grpc.max_send_message_length", 16 * 1024 * 1024),
            ("grpc.so_reuseport", 0),
            # Notice peers that vanish without closing TCP (a ping unanswered 5 s after 15 s of
            # silence), so their seats can be rebound and their connections freed.
            ("grpc.keepalive_time_ms", 15_000),
            ("grpc.keepalive_timeout_ms", 5_000),
            ("grpc.keepalive_permit_without_calls", 1),
            # A TCP connection that has not finished its HTTP/2 handshake within 5 s, or that
            # has had no call open for 60 s, is closed (clients reconnect by themselves).
            ("grpc.server_handshake_timeout_ms", 5_000),
            ("grpc.max_connection_idle_ms", 60_000),
            ("grpc.http2.min_recv_ping_interval_without_data_ms", 10_000),
            ("grpc.http2.max_pings_without_data", 0),
        ]
        server = grpc.aio.server(options=options)
        add_bot_service(BotService(self), server)
        pb_grpc.add_AdminServiceServicer_to_server(AdminService(self), server)
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        names = (
            pb.DESCRIPTOR.services_by_name["BotService"].full_name,
            pb.DESCRIPTOR.services_by_name["AdminService"].full_name,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        )
        enable_reflection(names, server)
        try:
            address = f"{self.host}:{self.port}"
            port = (server.add_insecure_port(address) if credentials is None
                    else server.add_secure_port(address, credentials))
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

    def connection_summaries(self) -> list[convert.ConnectionSummary]:
        """Every open stream, as the admin service lists them."""
        return [connection.summary() for connection in self.connections.values()]

    async def wait_for_bots(self, bot_ids: Sequence[str], timeout: float) -> None:
        """Wait until every bot in ``bot_ids`` has a live connection."""
        with trio.fail_after(timeout):
            while not set(bot_ids) <= set(self.connected_bots()):
                await self.wait_change()

    async def wait_change(self) -> None:
        """Until a connection opens or closes, or a table frees its seats: what a tournament
        runner waits for when no table can be seated."""
        await self._changed.wait()

    def _signal_change(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def _live_connections(self, bot_id: str) -> list[BotConnection]:
        return [c for c in self.connections.values() if c.bot_id == bot_id and not c.closed]

    def _best_connection(
        self, bot_id: str, table_id: str | None, game: str
    ) -> BotConnection | None:
        """The bot's live connection that can take its seat at ``table_id`` (None: a table not
        started yet) of ``game`` and should: one already at that table, else the one the bot
        was heard from last (then the one with the most free tables). A connection that has
        stopped answering (a hung process, a peer gone without closing TCP) never wins against
        one that answers, so it cannot take the bot's new tables and have them time out.

        New seats and seats whose stream closed are placed here; a seat left waiting for the
        bot's next stream goes to it on the same condition (:meth:`BotConnection.can_take`)."""
        candidates = [c for c in self._live_connections(bot_id) if c.can_take(table_id, game)]
        if len(candidates) < 2:  # the usual case: one stream per bot
            return candidates[0] if candidates else None
        return max(candidates, key=lambda c: (c.seats.at(table_id), c.last_heard,
                                              c.free_tables))

    def _pick(self, bot_id: str, table_id: str, game: str = DEFAULT_GAME) -> BotConnection:
        """The connection to seat ``bot_id`` on at ``table_id`` (see :meth:`_best_connection`)."""
        best = self._best_connection(bot_id, table_id, game)
        if best is None:
            live = self._live_connections(bot_id)
            if not live:
                raise BotNotConnectedError(f"bot {bot_id} is not connected")
            if not any(c.plays(game) for c in live):
                raise BotNotConnectedError(
                    f"bot {bot_id} is connected but does not play {game} (its Hello.games)"
                )
            raise BotNotConnectedError(f"bot {bot_id} already plays as many tables as it allows")
        return best

    def awaiting(self, bot_ids: Sequence[str], game: str = DEFAULT_GAME) -> list[str]:
        """The bots of a table that could not be seated here now, each once, in seat order:
        not connected for ``game``, or every such connection already plays as many tables as it
        allows."""
        return [bot_id for bot_id in dict.fromkeys(bot_ids)
                if self._best_connection(bot_id, None, game) is None]

    async def _seat_bots(
        self, table_id: str, bot_ids: Sequence[str], timeout: float,
        game: Game = convert.FRENCH_TAROT,
    ) -> list[RemoteSeat]:
        """Take a seat on a connection of each bot, waiting up to ``timeout`` for free ones."""
        deadline = trio.current_time() + timeout
        while True:
            seats: list[RemoteSeat] = []
            try:
                for seat, bot_id in enumerate(bot_ids):
                    connection = self._pick(bot_id, table_id, game.name)
                    seats.append(RemoteSeat(table_id, seat, bot_id, connection, self._is_revoked,
                                            self._keep_undelivered, game))
                return seats
            except BotNotConnectedError:
                for remote in seats:
                    remote.connection.seats.release(remote)
                if trio.current_time() >= deadline:
                    raise
            with trio.move_on_at(deadline):
                await self.wait_change()

    async def play_table(
        self,
        table_id: str,
        state: State,
        bot_ids: Sequence[str],
        time_control: TimeControl | None = None,
        seat_timeout: float = 30.0,
        reveal: bool = True,
    ) -> TableOutcome:
        """Seat the bots (by seat), each on the connection :meth:`_best_connection` chooses,
        and play the deal ``state`` (a fresh deal of any game).

        Waits up to ``seat_timeout`` seconds for the bots to be connected with a free seat,
        then raises :class:`BotNotConnectedError`. ``reveal``: whether the bots' TableEnd shows
        the deal (see :class:`TableRunner`).
        """
        if len(bot_ids) != state.players:
            raise ValueError(f"{len(bot_ids)} bots for a {state.players}-player table")
        seats = await self._seat_bots(table_id, bot_ids, seat_timeout, state.game)
        players = [PlayerInfo(s.seat, s.bot_id, s.connection.bot_name) for s in seats]
        self._tables += 1
        try:
            runner = TableRunner(table_id, state, seats, players, time_control, reveal)
            return await runner.run()
        finally:
            self._tables -= 1
            for remote in seats:
                remote.finished = True
                remote.connection.seats.release(remote)
                orphans = self.orphans.get(remote.bot_id)
                if orphans and remote in orphans:
                    orphans.remove(remote)
            for remote in seats:
                self._say_goodbye_if_dismissed(remote.connection)
            self._signal_change()

    # ------------------------------------------------------------------------- dismissal
    def dismiss(self, bot_ids: Sequence[str], why: str = "") -> None:
        """Tell these bots that no tournament here has work left for them: each connection
        gets a Goodbye(NO_MORE_WORK) once it plays no table, and the arena ends its stream with
        OK, so that a bot can exit instead of reconnecting forever. A bot connecting again is
        told the same at once, until :meth:`expect` calls for it again."""
        for bot_id in bot_ids:
            self.dismissed[bot_id] = why
        for connection in list(self.connections.values()):
            self._say_goodbye_if_dismissed(connection)

    def expect(self, bot_ids: Sequence[str]) -> None:
        """These bots have work again (a tournament seating them is about to run)."""
        for bot_id in bot_ids:
            self.dismissed.pop(bot_id, None)

    def _say_goodbye_if_dismissed(self, connection: BotConnection) -> None:
        why = self.dismissed.get(connection.bot_id)
        if why is None or connection.closed or connection.seats:
            return
        if any(not seat.finished for seat in self.orphans.get(connection.bot_id, ())):
            return  # a table of the bot waits for it to come back: it is not done
        connection.post(_goodbye(convert.GoodbyeReason.NO_MORE_WORK, why))
        connection.close()

    def _keep_undelivered(self, bot_id: str, message: bytes) -> None:
        """A TableEnd whose seat's stream is gone: to another open stream of the bot now, else
        to its next stream (the last :data:`UNDELIVERED_KEPT` kept per bot)."""
        for connection in self._live_connections(bot_id):
            if connection.post(message):
                return
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
                for seat in connection.seats.held():
                    seat.revoked()
                connection.close()
        for seat in self.orphans.pop(bot_id, []):
            seat.revoked()

    # ----------------------------------------------- called from the gRPC side (via the bridge)
    def open_stream(
        self, bot_id: str, hello: convert.Hello, outbox: Outbox
    ) -> BotConnection | None:
        """Register the stream of ``outbox`` for the (authenticated) bot, unless it has already
        ended (None then): the gRPC side closes the outbox and calls :meth:`stream_ended` when
        the stream ends, in that order, whenever that happens, so a stream registered here is
        always unregistered.

        Raises :class:`TooManyConnectionsError` when the bot has all the streams it may."""
        if outbox.closed:
            return None
        open_now = len(self._live_connections(bot_id))
        if open_now >= self.max_connections_per_bot:
            raise TooManyConnectionsError(
                f"bot {bot_id} already has {open_now} connections open, the most one token may "
                "have at once"
            )
        now = trio.current_time()
        strays = self.strays.bucket(bot_id, now)
        if strays.spent and not strays.full(now):
            raise TooManyConnectionsError(
                f"bot {bot_id} sent too many messages that answer no open request: wait "
                f"{strays.burst / strays.rate:g} s before connecting again"
            )
        strays.spent = False
        connection = BotConnection(
            bot_id, hello.bot_name, hello.bot_version, hello.max_tables, outbox, strays=strays,
            games=frozenset(hello.games or (DEFAULT_GAME,)),
        )
        outbox.connection_id = connection.id
        self.connections[connection.id] = connection
        waiting = [seat for seat in self.orphans.pop(bot_id, []) if not seat.finished]
        left = []
        for seat in waiting:  # never more tables than the bot said it can play, of its games
            if connection.can_take(seat.table_id, seat.game.name):
                seat.rebind(connection)
            else:
                left.append(seat)
        if left:
            self.orphans[bot_id] = left
        for message in self.undelivered.pop(bot_id, ()):
            connection.post(message)
        self._say_goodbye_if_dismissed(connection)
        self._signal_change()
        return connection

    def stream_ended(self, outbox: Outbox) -> None:
        """The gRPC side is done with the stream of ``outbox`` (closed by now)."""
        connection = self.connections.get(outbox.connection_id)
        if connection is not None and connection.outbox is outbox:
            self._closed(connection)

    def _closed(self, connection: BotConnection) -> None:
        connection.close()
        self.connections.pop(connection.id, None)
        for seat in connection.seats.held():
            if seat.finished:
                continue
            # The bot's new stream may have opened before this one closed (a quick reconnection,
            # a new process taking over): it takes the seat now if it has room, else the next
            # one to open does. A seat nobody takes in time falls back as disconnected.
            successor = self._best_connection(seat.bot_id, seat.table_id, seat.game.name)
            if successor is not None:
                seat.rebind(successor)
            else:
                self.orphans.setdefault(seat.bot_id, []).append(seat)
        self._signal_change()


def _goodbye(reason: convert.GoodbyeReason, why: str) -> bytes:
    return wire.serialize(convert.goodbye_to_pb(convert.Goodbye(reason, why)))
