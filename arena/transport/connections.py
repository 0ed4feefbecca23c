"""The trio side of bot connections: one :class:`BotConnection` per stream, one
:class:`RemoteSeat` per seat a bot holds. Everything here runs in trio.

Answers are matched to requests by ``(table_id, request_id)`` within the connection that was
asked, so a connection can only ever answer its own seats' open requests: an answer for another
bot, seat or table, or for a request already settled, is dropped with a notice to the sender.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import trio

from arena.games import Game, WireAction
from arena.table import (
    Answer,
    BotGone,
    DecisionRequest,
    Notice,
    TableEnd,
    TableEvent,
    TableStart,
)
from arena.table.messages import InfractionKind, ViewFn

from . import convert, wire
from .convert import ConnectionSummary, Decision
from .token_bucket import TokenBucket

log = logging.getLogger(__name__)
_connection_ids = itertools.count(1)
SETTLED_MEMORY = 4096
OUTBOX_LIMIT_BYTES = 4 * 1024 * 1024
"""Bytes queued for one stream and not yet taken by its writer, at most: a bot that reads
slower than its tables write is disconnected (RESOURCE_EXHAUSTED) instead of growing the
arena's memory without bound. A bot at 1,024 tables needs well under 1 MB at once."""
DROPPED_ANSWERS_BURST = 500
DROPPED_ANSWERS_PER_SECOND = 50.0
"""Answers to no open request a bot may send (each costs a Notice), over all its streams: this
many at once, then this many per second; past that the stream is closed (RESOURCE_EXHAUSTED),
and so is every new one until the allowance has grown again. A bot that plays by the rules
drops at most one per request it was late for."""


def stray_allowance(now: float) -> TokenBucket:
    return TokenBucket(DROPPED_ANSWERS_BURST, DROPPED_ANSWERS_PER_SECOND, now)


class BotNotConnectedError(LookupError):
    """No live connection of that bot has a free seat."""


class Outbox:
    """Encoded ArenaMessages waiting for one stream's writer, in order, at most ``limit`` bytes.

    The tables (trio) put, the stream's writer (asyncio) takes; on the thread bridge (see
    :mod:`.bridge`) they run at the same time, so every change holds a lock (uncontended on the
    stepped bridge, where both sides share one thread). ``wake`` is called when it stops
    being empty, or closes. Once
    closed it takes nothing more, and :class:`BotConnection` counts as closed from that moment
    (so a TableEnd posted after it is kept for the bot, not lost). ``failure`` is the status
    the stream is to end with when the arena ends it for a fault: (gRPC status name, details).
    """

    def __init__(self, wake: Callable[[], None], limit: int = OUTBOX_LIMIT_BYTES,
                 posting: Callable[[], AbstractContextManager[None]] = nullcontext) -> None:
        self.items: list[bytes] = []
        self.closed = False
        self.failure: tuple[str, str] | None = None
        self.limit = limit
        self.queued_bytes = 0
        self.connection_id = 0
        """The :class:`BotConnection` registered for this stream (0 before, or never)."""
        self._wake = wake
        self.posting = posting
        """A scope around what a table posts for a bot to answer (no lock held as it ends):
        the writer may write it as the scope ends, not after trio's round
        (``Bridge.posting``)."""
        self._lock = threading.Lock()

    def put(self, message: bytes) -> bool:
        return self.extend([message])

    def extend(self, messages: list[bytes]) -> bool:
        """Queue ``messages``; False when they were not queued (closed, or now overflowing)."""
        if not messages:
            return not self.closed
        size = sum(len(m) for m in messages)
        with self._lock:
            if self.closed:
                return False
            if self.queued_bytes + size > self.limit:
                self._fail("RESOURCE_EXHAUSTED",
                           f"the bot reads too slowly: more than {self.limit} bytes waited to "
                           "be sent to it; stream closed")
                return False
            if not self.items:
                self._wake()
            self.items.extend(messages)
            self.queued_bytes += size
            return True

    def take(self) -> list[bytes]:
        with self._lock:
            items, self.items = self.items, []
            self.queued_bytes = 0
            return items

    def close(self) -> None:
        """No more messages: the writer writes what is queued, then ends the stream."""
        with self._lock:
            self._close()

    def fail(self, code: str, details: str) -> None:
        """End the stream with status ``code`` at once, dropping what is queued."""
        with self._lock:
            self._fail(code, details)

    def _close(self) -> None:
        if not self.closed:
            self.closed = True
            self._wake()

    def _fail(self, code: str, details: str) -> None:
        if self.failure is None and not self.closed:
            self.failure = (code, details)
            self.items = []
            self.queued_bytes = 0
        self._close()


class HeldSeats:
    """The seats one connection holds now, by ``(table_id, seat)``: the only writer of which
    seat is on which connection. A seat is taken when it is made on a connection, released
    when its table ends (or its seating is given up), and moved when the bot resumes it on
    another stream; a seat is on one connection at a time, and its ``connection`` says which.
    """

    __slots__ = ("_seats", "_tables")

    def __init__(self) -> None:
        self._seats: dict[tuple[str, int], RemoteSeat] = {}
        self._tables: dict[str, int] = {}
        """Seats held per table id: what a connection plays is asked at every seating, of
        every connection of the bot, and counting it from the seats made opening many tables
        cost the square of their number."""

    def take(self, seat: RemoteSeat) -> None:
        key = seat.key
        if key not in self._seats:
            self._tables[key[0]] = self._tables.get(key[0], 0) + 1
        self._seats[key] = seat

    def release(self, seat: RemoteSeat) -> None:
        """``seat`` is no longer held here (nothing if it was not: released twice, or moved)."""
        key = seat.key
        if self._seats.get(key) is seat:
            del self._seats[key]
            table_id = key[0]
            left = self._tables[table_id] - 1
            if left:
                self._tables[table_id] = left
            else:
                del self._tables[table_id]

    def move(self, seat: RemoteSeat, to: BotConnection) -> BotConnection:
        """``seat``, held here, is now held by ``to`` (the bot's resumed stream); the
        connection it left."""
        left = seat.connection
        self.release(seat)
        to.seats.take(seat)
        seat._connection = to
        return left

    def held(self) -> list[RemoteSeat]:
        """A copy: the caller may release or move seats while going through it."""
        return list(self._seats.values())

    def tables(self) -> set[str]:
        return set(self._tables)

    def table_count(self) -> int:
        return len(self._tables)

    def at(self, table_id: str | None) -> bool:
        """A seat of ``table_id`` is held here."""
        return table_id in self._tables

    def __len__(self) -> int:
        return len(self._seats)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return iter(list(self._seats))


@dataclass(eq=False)
class BotConnection:
    """One live stream of one bot. ``post`` queues a message for the gRPC writer."""

    bot_id: str
    bot_name: str
    bot_version: str
    max_tables: int
    outbox: Outbox
    id: int = field(default_factory=lambda: next(_connection_ids))
    seats: HeldSeats = field(default_factory=HeldSeats)
    pending: dict[tuple[str, int], RemoteSeat] = field(default_factory=dict)
    settled: collections.OrderedDict[tuple[str, int], int] = field(
        default_factory=collections.OrderedDict
    )
    """(table_id, request_id) of recently settled requests -> the seat that was asked."""
    last_heard: float = field(default_factory=trio.current_time)
    """When the bot last answered an open request on this stream (its Hello before that):
    seat choice prefers the connection heard from last, so one that stopped answering (a hung
    process, a half-open TCP connection, a flood of answers to nothing) never takes new tables
    from one that answers."""
    strays: TokenBucket = field(default_factory=lambda: stray_allowance(trio.current_time()))
    """Messages that answer nothing this bot may still send (shared by its streams)."""
    games: frozenset[str] = frozenset({"french-tarot"})
    """The games this stream plays (Hello.games): it is seated at tables of these only."""

    @property
    def closed(self) -> bool:
        """The stream takes no more messages: closed by the arena, or its outbox closed by
        the gRPC side (the bot hung up, or read too slowly) before the arena was told."""
        return self.outbox.closed

    @property
    def tables(self) -> int:
        """Tables this connection plays now: a bot holding several seats of one table (a
        gauntlet's control table) plays one table, not one per seat."""
        return self.seats.table_count()

    @property
    def free_tables(self) -> int:
        return self.max_tables - self.tables

    def has_room_for(self, table_id: str | None) -> bool:
        """It already plays ``table_id``, or has a table free for it (None: a table that has
        not started, which no connection plays yet)."""
        return self.free_tables > 0 or self.seats.at(table_id)

    def plays(self, game: str) -> bool:
        return game in self.games

    def can_take(self, table_id: str | None, game: str) -> bool:
        """A seat at ``table_id`` of ``game`` may be placed on this stream: the bot said it
        plays that game here, and it has room for the table."""
        return self.plays(game) and self.has_room_for(table_id)

    def post(self, message: bytes) -> bool:
        """An encoded ArenaMessage (see :mod:`.wire`); False when the stream is closed."""
        return self.outbox.put(message)

    def post_all(self, messages: list[bytes]) -> bool:
        return self.outbox.extend(messages)

    def close(self) -> None:
        """Ask the writer to end the stream (the bot may reconnect)."""
        self.outbox.close()

    def _allow_stray(self, now: float) -> bool:
        """Count one message that answers nothing; False (and the stream failed) past the
        allowance, so that a flood costs the arena at most a bounded rate of Notices."""
        if not self.strays.take(now):
            self.outbox.fail(
                "RESOURCE_EXHAUSTED",
                f"too many messages that answer no open request (more than "
                f"{DROPPED_ANSWERS_BURST} at once or {DROPPED_ANSWERS_PER_SECOND:g} per "
                "second): stream closed",
            )
            return False
        return True

    def summary(self) -> ConnectionSummary:
        return ConnectionSummary(self.bot_id, self.bot_name, self.bot_version, self.max_tables,
                                 self.tables)

    def _notify(self, notice: Notice) -> None:
        """A notice about no table of a known game (it carries no action)."""
        self.post(wire.serialize(convert.notice_to_pb(notice)))

    def on_stray_message(self) -> None:
        """The bot sent something other than a decision after its Hello."""
        if self._allow_stray(trio.current_time()):
            self._notify(Notice("", None, 0, InfractionKind.UNKNOWN_REQUEST,
                                "only Decision and DecisionBatch messages may follow the Hello"))

    def remember_settled(self, key: tuple[str, int], seat: int) -> None:
        self.settled[key] = seat
        while len(self.settled) > SETTLED_MEMORY:
            self.settled.popitem(last=False)

    def on_decision(self, decision: Decision) -> None:
        now = trio.current_time()
        key = (decision.table_id, decision.request_id)
        seat = self.pending.get(key)
        if seat is not None and seat.answer(decision.request_id, decision.action):
            self.last_heard = now
            return
        if not self._allow_stray(now):
            return
        asked = self.settled.get(key)
        if asked is not None:
            kind = InfractionKind.LATE_ANSWER
            text = (f"request {decision.request_id} of table {decision.table_id!r} was already "
                    "settled: answer dropped")
        else:
            kind = InfractionKind.UNKNOWN_REQUEST
            text = (f"no open request {decision.request_id} of table {decision.table_id!r} on "
                    "this connection: answer dropped")
        self._notify(Notice(decision.table_id[:200], asked, decision.request_id, kind, text))


class RemoteSeat:
    """A seat held by a remote bot: the table runner's :class:`~arena.table.SeatChannel`.

    Public events are held back until the seat is next asked to decide (or is sent a notice,
    or the table ends) and then go out together with that message: a bot needs the events only
    to decide, and one stream message per decision instead of one per card played per seat is
    most of what the arena's throughput depends on. Events keep their order and sequence.
    """

    def __init__(
        self,
        table_id: str,
        seat: int,
        bot_id: str,
        connection: BotConnection,
        is_revoked: Callable[[str], bool],
        undelivered: Callable[[str, bytes], None] | None = None,
        game: Game = convert.FRENCH_TAROT,
    ) -> None:
        self.table_id = table_id
        self.seat = seat
        self.bot_id = bot_id
        self._connection = connection
        self._is_revoked = is_revoked
        self._undelivered = undelivered
        self._start: TableStart | None = None
        self._game = game
        """The table's game (its TableStart says it again): every message of the table is
        encoded for it, and only a stream that plays it may hold the seat."""
        self._view: ViewFn | None = None
        self._next_sequence = 0
        self._held: list[bytes] = []
        self._request: DecisionRequest | None = None
        self._answer: Answer | None = None
        self._wake = trio.Event()
        self.finished = False
        connection.seats.take(self)

    @property
    def key(self) -> tuple[str, int]:
        return (self.table_id, self.seat)

    @property
    def connection(self) -> BotConnection:
        """The stream this seat is on now (moved only by :meth:`HeldSeats.move`)."""
        return self._connection

    @property
    def game(self) -> Game:
        return self._game

    @property
    def connected(self) -> bool:
        return not self.connection.closed

    async def start(self, start: TableStart, view: ViewFn) -> None:
        self._start = start
        self._game = start.game
        self._view = view
        self.connection.post(wire.serialize(convert.start_to_pb(start)))

    async def send(self, event: TableEvent) -> None:
        self._next_sequence = event.sequence + 1
        self._held.append(wire.event(event, self._game))

    def _post_with_held_events(self, message: bytes) -> bool:
        if self._held:
            self._held.append(message)
            posted = self.connection.post_all(self._held)
            self._held = []
            return posted
        return self.connection.post(message)

    async def ask(self, request: DecisionRequest) -> Answer:
        if self._is_revoked(self.bot_id):
            raise BotGone("the bot's token was revoked")
        self._request = request
        self._answer = None
        self._wake = trio.Event()
        key = (self.table_id, request.request_id)
        self.connection.pending[key] = self
        with self.connection.outbox.posting():
            self._post_with_held_events(wire.request(request, self._game))
        try:
            await self._wake.wait()
            if self._answer is None:
                raise BotGone("the bot's token was revoked")
            return self._answer
        finally:
            connection = self.connection
            connection.pending.pop(key, None)
            if key not in connection.settled:  # answered, answer() has settled it already
                connection.remember_settled(key, self.seat)
            self._request = None

    def revoked(self) -> None:
        """The bot's token was revoked: an open request ends at once with :class:`BotGone`."""
        self._wake.set()

    def answer(self, request_id: int, action: WireAction | None) -> bool:
        """Called by the connection; False when ``request_id`` is not the open request.

        The first answer settles the request at once: a second one arriving before the table
        has moved on (the same batch, say) is dropped as late, never taken instead."""
        if self._request is None or self._request.request_id != request_id:
            return False
        if self._answer is not None:
            return False
        self._answer = convert.action_from_wire(action, self._game)
        key = (self.table_id, request_id)
        self.connection.pending.pop(key, None)
        self.connection.remember_settled(key, self.seat)
        self._wake.set()
        return True

    async def notice(self, notice: Notice) -> None:
        self._post_with_held_events(wire.serialize(convert.notice_to_pb(notice, self._game)))

    async def end(self, end: TableEnd) -> None:
        message = wire.end(end, self._game)
        if self.connection.closed:
            self._held = []
            posted = False
        else:
            posted = self._post_with_held_events(message)
        if not posted and self._undelivered is not None:
            self._undelivered(self.bot_id, message)  # to the bot's next stream
        self.finished = True
        self.connection.seats.release(self)

    def rebind(self, connection: BotConnection) -> None:
        """The bot came back on a new connection: re-send the table and any open request."""
        old = self.connection.seats.move(self, connection)
        self._held = []  # the view re-sent below includes them
        if self._start is not None and self._view is not None:
            start = TableStart(
                self._start.table_id, self.seat, self._start.options, self._start.dealer,
                self._start.players, self._view(), resumed=True,
                next_sequence=self._next_sequence, game=self._game,
            )
            connection.post(wire.serialize(convert.start_to_pb(start)))
        if self._request is not None:
            key = (self.table_id, self._request.request_id)
            old.pending.pop(key, None)
            connection.pending[key] = self
            connection.post(wire.request(self._request, self._game))
