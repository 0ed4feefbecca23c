"""The connection to the arena: handshake, tables in parallel, answers, reconnection.

Why it is shaped this way:

- One stream carries every table of the connection, so messages are routed by
  ``(table_id, seat)`` to a :class:`TableView` each, and threaded or async decisions run as
  tasks of their own: a slow decision at one table never holds up the messages of the others.
  A plain unthreaded bot's decisions, which hold up trio wherever they run, are made one after
  another by one task per burst of requests, each request stamped as it arrived.
- Answers are matched by ``(table_id, request_id)`` and remembered until the table ends (or
  starts afresh: a table the arena replays after a restart keeps its id), so a request is
  decided once, answered once per stream, and a request the arena re-sends after a
  reconnection gets the answer already computed (or the one still being computed).
- A broken stream is retried with exponential backoff and jitter, so that a restarting arena is
  not hammered by every bot at the same instant; a refusal that retrying cannot fix (bad token,
  protocol version, malformed Hello) raises :class:`ArenaRejectedError` instead.
- Cancellation is the way to stop (trio style): the stream is half-closed so that the arena
  ends it with OK, then cancelled if it does not within a short grace.
- Over TLS (``tls``), a handshake that fails for a reason of settings (a certificate not
  trusted, expired or for another host, TLS on one side only, a client certificate wanted or
  refused) ends the client with :class:`ArenaTlsError`, one line saying which setting to
  change, if no connection was accepted yet; later (a renewal gone wrong), the line is logged
  and the connection retried, as the organiser may fix it.
- The arena says when the bot's work is done (a Goodbye with NO_MORE_WORK, then the stream
  ends with OK): :meth:`ArenaClient.run` returns it instead of reconnecting, unless ``stay``
  asks to wait for more work. A Goodbye because the arena is stopping is retried like a lost
  connection: the arena may come back with unfinished work.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import inspect
import logging
import random
import signal
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

import grpc
import trio

from arena import games
from arena.games import Game
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table.messages import (
    DecisionRequest,
    InfractionKind,
    Notice,
    TableEnd,
    TableEvent,
    TableStart,
)
from arena.transport import convert
from arena.transport.bridge import Bridge, open_bridge
from arena.transport.convert import Goodbye, GoodbyeReason, Welcome

from ._bot import Bot, as_action
from ._link import ReadFailed, Stream, StreamEnded, serve_until
from ._transport_time import TransportTime
from ._view import TableView
from .tls import ClientTls, as_client_tls, diagnose

log = logging.getLogger("clients.sdk")

FATAL_CODES: Final = frozenset({
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.UNIMPLEMENTED,
})
"""Status codes that end the client: retrying the same Hello would get the same answer."""

CLOSE_GRACE: Final = 1.0
"""Seconds to wait for the arena to end a half-closed stream before cancelling it."""
RESUME_GRACE: Final = 5.0
GAMES_KEPT: Final = 4096
"""Tables whose game the client remembers, to read their late messages (a TableEnd kept for a
bot while it was away)."""
"""After a reconnection, tables the arena has neither resumed nor ended within this time are
forgotten: the arena that played them is gone (it restarted, and replays them afresh)."""
CHANNEL_OPTIONS: Final = (("grpc.max_receive_message_length", 16 * 1024 * 1024),)


class ArenaRejectedError(Exception):
    """The arena refused the connection for a reason retrying cannot fix."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"the arena refused the connection: {code.name}: {details}")
        self.code = code
        self.details = details


class ArenaTlsError(ArenaRejectedError):
    """The TLS handshake failed for a reason retrying cannot fix (see :mod:`.tls`)."""

    def __init__(self, line: str) -> None:
        Exception.__init__(self, line)
        self.code = grpc.StatusCode.UNAVAILABLE
        self.details = line


class ArenaUnreachableError(Exception):
    """No connection to the arena was accepted within :func:`run_bot`'s ``connect_timeout``."""

    def __init__(self, server: str, timeout: float) -> None:
        super().__init__(f"cannot reach the arena at {server} after {timeout:g} s")
        self.server = server
        self.timeout = timeout


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between connection attempts: ``initial * multiplier ** failures``, capped at
    ``maximum``, of which a random fraction up to ``jitter`` is taken off."""

    initial: float = 0.25
    maximum: float = 30.0
    multiplier: float = 2.0
    jitter: float = 0.5

    def __post_init__(self) -> None:
        if not (0 < self.initial <= self.maximum and self.multiplier >= 1
                and 0 <= self.jitter <= 1):
            raise ValueError(f"inconsistent backoff {self}")

    def delay(self, failures: int, rng: random.Random) -> float:
        """Seconds to wait after ``failures`` failed attempts in a row (0 = the first)."""
        base = min(self.maximum, self.initial * self.multiplier ** min(failures, 64))
        return base * (1 - self.jitter * rng.random())


@dataclass(slots=True)
class _Answer:
    """One request, decided once: its answer when known, and the stream it last went on; when
    the request arrived and the bot decided, on the bot's clock, and how long the arena waits
    (limit and bank): what measures the transport's time."""

    seat: int
    arrived: float = 0.0
    due: float = 0.0
    message: Any = None
    sent_on: int | None = None
    decided: float | None = None
    """When the bot's method returned (stamped in its worker thread for a threaded bot, else
    as its answer is sent); None before, and once the answer was sent again (a reconnection)."""


_OUTCOMES: Final = frozenset(pb.DealOutcome.values())
_HOOKS: Final = ("on_table_start", "on_event", "on_notice", "on_table_end")
_NO_ANSWERS: Final[Mapping[int, _Answer]] = MappingProxyType({})
"""The answers of a table that has none (read only)."""


def _has_own(bot: Bot, hook: str) -> bool:
    """Whether ``bot`` has its own ``hook`` (by its class or set on the instance), not only the
    SDK's, which does nothing."""
    return (getattr(type(bot), hook) is not getattr(Bot, hook)
            or hook in getattr(bot, "__dict__", ()))


class ArenaClient:
    """Plays ``bot`` on the arena at ``server`` (``host:port``) until cancelled.

    ``batching`` asks the arena to group messages that are ready at once (a trick's events and
    the next request) into one stream message, and lets the client send the decisions that are
    ready at once as one DecisionBatch: the bot sees no difference, and it saves most of the
    per-message cost on both sides.

    ``stay`` keeps the client connected (reconnecting with backoff) after the arena said it
    has no more work for the bot, to play the next tournament; otherwise :meth:`run` returns.

    ``tls``: True for TLS with the public roots grpcio ships, a :class:`ClientTls` for a
    private CA or a client certificate; False (the default): plaintext, for an arena on
    loopback or a network of its own.

    Each request's view carries its :attr:`TableView.deadline`: ``clock()`` (the bot's clock,
    ``time.perf_counter``) when the request arrived, plus its time limit, less what the
    transport took of the last decisions' limits as the arena measured it (``transport_time``:
    :mod:`clients.sdk._transport_time`).

    ``tables`` holds the view of every (table_id, seat) in play; ``welcome`` the arena's last
    Welcome; ``goodbye`` its last Goodbye; ``connections`` counts the streams the arena
    accepted (more than one after a reconnection).
    """

    clock: Callable[[], float] = time.perf_counter
    """What stamps each request's arrival (tests give a fake clock)."""

    def __init__(
        self,
        bot: Bot,
        server: str,
        token: str,
        *,
        max_tables: int = 1,
        name: str | None = None,
        version: str | None = None,
        backoff: Backoff | None = None,
        resume_grace: float = RESUME_GRACE,
        batching: bool = True,
        stay: bool = False,
        tls: bool | ClientTls | None = False,
    ) -> None:
        if not token:
            raise ValueError("a bot token is needed (given once at registration)")
        if max_tables < 1:
            raise ValueError(f"max_tables must be at least 1, got {max_tables}")
        self.bot = bot
        self.server = server
        self.token = token
        self.max_tables = max_tables
        self.name = name or bot.display_name
        self.version = version or bot.version
        self.backoff = backoff or Backoff()
        self.resume_grace = resume_grace
        self.batching = batching
        self.stay = stay
        self.tls = as_client_tls(tls)
        self._credentials = self.tls.credentials() if self.tls is not None else None
        self.welcome: Welcome | None = None
        self.goodbye: Goodbye | None = None
        self._goodbye_on: int | None = None
        self.tables: dict[tuple[str, int], TableView] = {}
        self.connections = 0
        self.transport_time = TransportTime()
        """What the transport took of the last decisions' limits (the arena's time for an answer
        less the SDK's own), kept in hand in each request's deadline."""
        self._stream: Stream | None = None
        self._view_stream: dict[tuple[str, int], int] = {}
        self._answers: dict[str, dict[int, _Answer]] = {}
        """By table id and request id: a table's end forgets its own without a look at every
        other table's (that scan was 2 % of the SDK's decoding at 16 tables)."""
        self._rng = random.Random()
        self._nursery: trio.Nursery | None = None
        self._bridge: Bridge | None = None
        """grpc.aio's loop and the calls to and from it, while :meth:`run` runs."""
        self._hears_events = _has_own(bot, "on_event")
        """The bot has an ``on_event`` of its own (the SDK's does nothing: not called, for
        the few events of every decision)."""
        self._hears_ends = _has_own(bot, "on_table_end")
        """The bot has an ``on_table_end`` of its own: else a TableEnd's deal record, read
        for nothing, is not read (an eighth of the SDK's decoding at 16 tables)."""
        self._reads_at_once = not any(_has_own(bot, hook) for hook in _HOOKS)
        """The bot has no hook of its own, so reading a stream message never waits: each is
        read in the bridge's call that brings it (:meth:`_read_at_once`), not by the
        receiving task woken for it."""
        self._woke = False
        """A task was started since :meth:`_read_at_once` last looked."""
        self._queued: list[tuple[TableView, DecisionRequest, _Answer, Any]] = []
        """Requests for a plain, unthreaded bot, waiting for :meth:`_decide_queued`."""
        self._async_functions: dict[Any, bool] = {}
        """Whether each of the bot's methods is a coroutine function (:meth:`_is_async`)."""
        self._method_names: dict[str, str] | None = (
            {} if getattr(type(bot), "method_for", None) is Bot.method_for else None)
        """The name of the bot's method for each kind of decision, found once per kind
        (finding it per request was 3 % of the SDK's receive path); None when the bot has a
        ``method_for`` of its own, asked every time."""
        self._plain_results: set[type] = set()
        """Types of decision results known not to be awaitable (:meth:`_is_awaitable`)."""
        self._event_readers: dict[Game, Callable[[pb.TableEvent], Any]] = {}
        self._games: collections.OrderedDict[str, Game] = collections.OrderedDict()
        """The game of each table this bot was seated at lately (its TableStart said), to read
        the table's later messages; the last :data:`GAMES_KEPT`."""

    # --------------------------------------------------------------------------- running
    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> Goodbye:
        """Connect, play, reconnect; ``task_status.started(welcome)`` on the first Welcome.

        Returns the arena's Goodbye once it has no more work for the bot (never with
        ``stay``). Raises :class:`ArenaRejectedError` when the arena refuses the connection.
        """
        async with trio.open_nursery() as serving:  # grpc.aio's loop, for as long as this
            self._bridge = open_bridge(serving, quiet=True)
            stop = asyncio.Event()
            # Cancelled from outside, the loop keeps running for the streams' closing (two
            # graces at most); it ends as soon as they are closed.
            serving.start_soon(self._bridge.drive, serve_until(stop), 3 * CLOSE_GRACE)
            try:
                async with trio.open_nursery() as nursery:  # decisions and housekeeping tasks
                    self._nursery = nursery
                    outcome = await self._connect_until_done(task_status)
                    nursery.cancel_scope.cancel()
            finally:  # every stream is closed by now: the loop may end
                self._bridge.to_asyncio(stop.set)
                self._bridge = None
        if isinstance(outcome, ArenaRejectedError):
            raise outcome  # outside the nursery, so that it is not wrapped in a group
        return outcome

    async def _connect_until_done(self, task_status: Any) -> Goodbye | ArenaRejectedError:
        hello = convert.hello_to_pb(
            self.token, self.name, self.version, self.max_tables, self.batching,
            games=self.bot.games,
        )
        failures = 0
        while True:
            assert self._bridge is not None
            stream = Stream(self.server, hello, CHANNEL_OPTIONS, self._credentials,
                            bridge=self._bridge)
            try:
                ended = await self._receive(stream, task_status)
            finally:
                welcomed = self._stream is stream
                self._stream = None
                with trio.CancelScope(shield=True):
                    await stream.aclose(CLOSE_GRACE)
            if ended.code in FATAL_CODES:
                return ArenaRejectedError(ended.code, ended.details)
            trouble = await self._tls_trouble(ended) if not welcomed else None
            if trouble is not None:
                if self.connections == 0:
                    return ArenaTlsError(trouble)
                log.error("%s", trouble)
            goodbye = self.goodbye if self._goodbye_on == stream.id else None
            idle = goodbye is not None and goodbye.reason is GoodbyeReason.NO_MORE_WORK
            if idle and not self.stay:
                assert goodbye is not None
                return goodbye
            if welcomed and not idle:  # dismissed again and again: back off all the same
                failures = 0
            delay = self.backoff.delay(failures, self._rng)
            failures += 1
            if goodbye is not None:
                log.info("the arena said goodbye (%s%s); reconnecting in %.2f s",
                         goodbye.reason.value, f": {goodbye.message}" if goodbye.message else "",
                         delay)
            else:
                why = "ended by the arena" if ended.code is grpc.StatusCode.OK else (
                    f"{ended.code.name}: {ended.details}" if ended.details else ended.code.name)
                if welcomed:
                    log.warning("connection to %s lost (%s); reconnecting in %.2f s",
                                self.server, why, delay)
                else:  # this stream never connected: nothing was lost
                    log.warning("cannot connect to %s (%s); retrying in %.2f s", self.server,
                                why, delay)
            await trio.sleep(delay)

    async def _tls_trouble(self, ended: StreamEnded) -> str | None:
        """The one line for a stream that failed on TLS, or None (another failure)."""
        if ended.code is not grpc.StatusCode.UNAVAILABLE:
            return None
        return await trio.to_thread.run_sync(diagnose, self.server, ended.details, self.tls,
                                             abandon_on_cancel=True)

    async def _receive(self, stream: Stream, task_status: Any) -> StreamEnded:
        messages = stream.messages
        async for item in messages:
            # What is already in the channel is read without a trio round per stream message
            # (a receive is a checkpoint, a task switch each), then the requests decided.
            while True:
                if isinstance(item, StreamEnded):
                    self._decide_queued()  # answers kept for a resumed stream
                    return item
                if isinstance(item, ReadFailed):  # read in the bridge's call: raised here
                    raise item.error
                await self._read(stream, item, task_status)
                try:
                    item = messages.receive_nowait()
                except trio.WouldBlock:
                    break
                except (trio.EndOfChannel, trio.ClosedResourceError):
                    return StreamEnded(grpc.StatusCode.CANCELLED, "closed by the client")
            if self._reads_at_once and stream.reader is None:
                # Nothing is left in the channel: the next messages are read as they come.
                stream.reader = functools.partial(self._read_at_once, stream)
            if self._queued:
                # Everything read so far is in: decide what it asked, here rather than in a
                # task of its own (a task and a trio round per stream message), so that the
                # answers leave together, in one hand-over to the writer, written as it ends.
                with self._posting():
                    self._decide_queued()
        return StreamEnded(grpc.StatusCode.CANCELLED, "closed by the client")

    def _read_at_once(self, stream: Stream, item: pb.ArenaMessage) -> bool:
        """Read ``item`` and decide what it asks, in the bridge's call that brought it (the
        stream's ``reader``, for a bot without hooks of its own); False when that started no
        trio task (a plain bot's decisions are made here), so that the bridge writes the
        answers without giving trio a round first.

        :meth:`_read` is a coroutine only for the hooks it awaits, and the SDK's own hooks
        return None: without the bot's own, it never suspends, so it runs to its end in one
        ``send``, exactly as the receiving task would have run it."""
        reading = self._read(stream, item, trio.TASK_STATUS_IGNORED)
        try:
            reading.send(None)
        except StopIteration:
            pass
        else:  # nothing it awaits suspends without the bot's own hooks
            reading.close()
            raise RuntimeError("reading a stream message waited outside the receiving task")
        if self._queued:
            self._decide_queued()
        woke, self._woke = self._woke, False
        return woke

    async def _read(self, stream: Stream, item: pb.ArenaMessage, task_status: Any) -> None:
        """One stream message. Events and requests, nearly all of it, are read here by their
        kind, asked once: through the generic decoder and dispatcher they cost a third more
        (an isinstance chain, and a TableEvent built per event only to be taken apart)."""
        hears_events = self._hears_events
        run_key: tuple[str, int] | None = None
        run: list[tuple[int, Any]] = []
        """Events of one seat in a row, not folded yet: a bot that does not hear events gets
        its view folded once per run (a trick's cards and its end, say), not once per event."""
        reader_table: str | None = None
        reader: Callable[[pb.TableEvent], Any] | None = None
        """The event reader of the last event's table: events come in runs of one table, and
        looking the reader up per event was a tenth of this method."""
        for part in convert.unbatch(item):
            kind = part.WhichOneof("kind")
            if kind != "event":
                reader_table = None  # a TableStart may tell a table's game
                if run:
                    assert run_key is not None
                    self._fold(run_key, run)
                    run = []
            if kind == "table_end" and not self._hears_ends:
                self._on_unheard_end(part.table_end)
                continue
            try:
                if kind == "event":
                    event = part.event
                    table_id = event.table_id
                    if table_id != reader_table or reader is None:
                        reader = self._event_reader(table_id)
                        reader_table = table_id
                    decoded = reader(event)
                elif kind == "request":
                    request = convert.request_from_pb(
                        part.request, self._game_of(part.request.table_id))
                else:
                    message = convert.arena_message_from_pb(part, self._game_of)
            except ValueError as exc:
                log.error("undecodable message from the arena, ignored: %s", exc)
                continue
            if kind == "event":
                if not hears_events:
                    key = (table_id, event.seat)
                    if run and key != run_key:
                        assert run_key is not None
                        self._fold(run_key, run)
                        run = []
                    run_key = key
                    run.append((event.sequence, decoded))
                    continue
                view = self._event(table_id, event.seat, event.sequence, decoded)
                if view is not None:
                    await self._hook(self.bot.on_event, view, decoded)
                continue
            if kind == "request":
                self._on_request(stream, request)
                continue
            if isinstance(message, Welcome):
                self._on_welcome(stream, message, task_status)
            elif isinstance(message, Goodbye):
                self.goodbye = message
                self._goodbye_on = stream.id
            else:
                await self._dispatch(stream, message)
        if run:
            assert run_key is not None
            self._fold(run_key, run)

    def _on_welcome(self, stream: Stream, welcome: Welcome, task_status: Any) -> None:
        first = self.connections == 0
        self.welcome = welcome
        self.connections += 1
        self._stream = stream
        stream.batch_decisions = welcome.batching
        log.info("connected to %s as bot %s (%s %s), up to %d tables at once", self.server,
                 welcome.bot_id, self.name, self.version, welcome.max_tables)
        if first:
            task_status.started(welcome)
        elif self.tables:
            assert self._nursery is not None
            self._woke = True
            self._nursery.start_soon(self._forget_unresumed, stream, set(self.tables))

    async def _forget_unresumed(self, stream: Stream, keys: set[tuple[str, int]]) -> None:
        await trio.sleep(self.resume_grace)
        if self._stream is not stream:
            return  # yet another reconnection: its own check will run
        for key in keys:
            if key in self.tables and self._view_stream.get(key) != stream.id:
                log.warning("table %r seat %d was not resumed after the reconnection: it ended "
                            "while the bot was away; forgetting it", *key)
                self._forget(key)

    def _event_reader(self, table_id: str) -> Callable[[pb.TableEvent], Any]:
        """What reads the events of ``table_id``'s game (``convert.event_from_pb`` for that
        game, its codec looked up once per game, not per event)."""
        game = self._game_of(table_id)
        reader = self._event_readers.get(game)
        if reader is None:
            reader = self._event_readers[game] = convert.event_reader(game)
        return reader

    def _game_of(self, table_id: str) -> Game:
        """The game of ``table_id``'s messages: its TableStart's, else the one game the arena
        seats this stream at (its Welcome's games: French Tarot alone for a version 1 bot, as
        ever), else the bot's one game. ValueError (the message is logged and dropped) for a
        table of a bot seated at several games whose TableStart it never had: a TableEnd
        kept from before the bot restarted, say."""
        known = self._games.get(table_id)
        if known is not None:
            return known
        names = self.welcome.games if self.welcome is not None else tuple(self.bot.games)
        if len(names) != 1:
            raise ValueError(f"a message of table {table_id!r}, whose start this bot did not "
                             f"receive, may be of any of {', '.join(names)}")
        return games.game(names[0])

    def _forget(self, key: tuple[str, int]) -> None:
        self.tables.pop(key, None)
        self._view_stream.pop(key, None)
        table_id, seat = key
        answers = self._answers.get(table_id)
        if answers is None:
            return
        for request_id in [r for r, a in answers.items() if a.seat == seat]:
            del answers[request_id]
        if not answers:
            del self._answers[table_id]

    # ------------------------------------------------------------------------- messages
    async def _dispatch(self, stream: Stream, message: object) -> None:
        if isinstance(message, TableEvent):
            await self._on_event(message)
        elif isinstance(message, DecisionRequest):
            self._on_request(stream, message)
        elif isinstance(message, TableStart):
            await self._on_start(stream, message)
        elif isinstance(message, Notice):
            log.warning("arena notice, table %r seat %s request %d: %s: %s%s", message.table_id,
                        message.seat, message.request_id, message.kind.value, message.message,
                        f" (played {message.fallback})" if message.fallback else "")
            if message.kind is InfractionKind.TIMEOUT:
                self._timed_out(message)
            view = (None if message.seat is None
                    else self.tables.get((message.table_id, message.seat)))
            await self._hook(self.bot.on_notice, view, message)
        elif isinstance(message, TableEnd):
            await self._on_end(message)

    def _timed_out(self, notice: Notice) -> None:
        """A timeout of an answer already sent: the arena waited its whole time, so the
        transport took at least that less the SDK's own (a bound, but the measure that matters:
        a late answer tells no elapsed time with the next request)."""
        answer = self._answers.get(notice.table_id, _NO_ANSWERS).get(notice.request_id)
        if answer is not None and answer.decided is not None and answer.sent_on is not None:
            self.transport_time.measured(answer.due, answer.decided - answer.arrived)

    async def _on_start(self, stream: Stream, start: TableStart) -> None:
        key = (start.table_id, start.seat)
        self._games[start.table_id] = start.game
        self._games.move_to_end(start.table_id)
        while len(self._games) > GAMES_KEPT:
            self._games.popitem(last=False)
        if not start.resumed:
            # A new deal at this seat (a table replayed after the arena restarted keeps its
            # id): nothing decided for an earlier attempt may answer its requests.
            self._forget(key)
        old = self.tables.get(key)
        view = TableView.from_start(start, old.decisions if old and start.resumed else 0)
        self.tables[key] = view
        self._view_stream[key] = stream.id
        log.info("table %r seat %d %s", start.table_id, start.seat,
                 "resumed" if start.resumed else "started")
        await self._hook(self.bot.on_table_start, view)

    async def _on_event(self, message: TableEvent) -> None:
        view = self._event(message.table_id, message.seat, message.sequence, message.event)
        if view is not None and self._hears_events:
            await self._hook(self.bot.on_event, view, message.event)

    def _event(self, table_id: str, seat: int, sequence: int, event: Any) -> TableView | None:
        """Apply an event to its seat's view; the new view, or None when it was ignored."""
        return self._fold((table_id, seat), ((sequence, event),))

    def _fold(self, key: tuple[str, int], events: Sequence[tuple[int, Any]]) -> TableView | None:
        """Apply ``(sequence, event)`` pairs in a row to the view of ``key``, each as alone
        (one seen already is ignored, one after a gap is applied with a warning, one that
        fails is logged and skipped); the new view, built once, or None if none applied."""
        view = self.tables.get(key)
        if view is None:
            for _ in events:
                log.warning("event for table %r seat %d, which this bot does not hold: "
                            "ignored", *key)
            return None
        observation_after = view.game.observation_after
        observation = view.observation
        next_sequence = view.next_sequence
        applied = False
        for sequence, event in events:
            if sequence < next_sequence:
                log.debug("event %d of table %r seat %d seen already: ignored", sequence, *key)
                continue
            if sequence > next_sequence:
                log.warning("events %d..%d of table %r seat %d are missing", next_sequence,
                            sequence - 1, *key)
            try:
                observation = observation_after(observation, event)
            except Exception:
                log.exception("could not apply %r to table %r seat %d", event, *key)
                continue
            next_sequence = sequence + 1
            applied = True
        if not applied:
            return None
        view = self.tables[key] = view.with_observation(observation, next_sequence)
        return view

    def _on_request(self, stream: Stream, request: DecisionRequest) -> None:
        answer = self._answers.get(request.table_id, _NO_ANSWERS).get(request.request_id)
        if answer is not None:  # re-sent after a reconnection, or a duplicate
            if answer.message is not None and answer.sent_on != stream.id:
                log.info("request %d of table %r re-sent: answering it again on the new stream",
                         request.request_id, request.table_id)
                stream.send(answer.message)
                answer.sent_on = stream.id
                answer.decided = None  # the arena's time for it is no measure of the transport
            return
        view_key = (request.table_id, request.player)
        view = self.tables.get(view_key)
        if view is None:
            log.error("request %d for table %r seat %d, which this bot does not hold: ignored",
                      request.request_id, *view_key)
            return
        # Stamped on arrival: a decision that waits its turn (a plain bot's decisions run one
        # after another) sees the time it has left, not the whole limit.
        arrived = self.clock()
        answers = self._answers.setdefault(request.table_id, {})
        if request.previous_request_id:
            previous = answers.get(request.previous_request_id)
            if (previous is not None and previous.decided is not None
                    and previous.sent_on is not None):
                self.transport_time.measured(request.previous_elapsed,
                                             previous.decided - previous.arrived)
        view = self.tables[view_key] = view.with_request(
            request, arrived, self.transport_time.kept(request.time_limit))
        answer = _Answer(request.player, arrived, request.time_limit + request.time_bank)
        answers[request.request_id] = answer
        names = self._method_names
        if names is None:
            method = self.bot.method_for(request)
        else:
            name = names.get(request.kind)
            if name is None:
                name = names[request.kind] = self.bot._method_name(request.kind)
            method = getattr(self.bot, name)
        assert self._nursery is not None
        if self.bot.threaded or self._is_async(method):
            self._woke = True
            self._nursery.start_soon(self._decide, view, request, answer, method)
            return
        # A plain method that runs in trio holds up the connection wherever it runs, so the
        # requests that arrive together are decided one after another by the receiving task
        # itself (a third of a fast bot's time went to a task per decision), once every one of
        # them is stamped: see _receive.
        self._queued.append((view, request, answer, method))

    def _is_async(self, method: Any) -> bool:
        """``inspect.iscoroutinefunction(method)``, asked once per function (it was 1.5 % of
        the SDK's decoding, asked per request)."""
        function = getattr(method, "__func__", method)
        known = self._async_functions.get(function)
        if known is None:
            known = self._async_functions[function] = inspect.iscoroutinefunction(method)
        return known

    def _decide_queued(self) -> None:
        while self._queued:
            queued, self._queued = self._queued, []
            for view, request, answer, method in queued:
                try:
                    result = method(view, request)
                except Exception:
                    self._log_failure(request)
                    continue
                if self._is_awaitable(result):  # a plain method that returned a coroutine
                    assert self._nursery is not None
                    self._woke = True
                    self._nursery.start_soon(self._await_decision, view, request, answer,
                                             result)
                    continue
                self._answer(view, request, answer, result)

    def _is_awaitable(self, result: Any) -> bool:
        """``inspect.isawaitable(result)``, asked once per type (a generator's answer is its
        own): its ABC check was 3 % of the SDK's receive path, asked per decision."""
        kind = type(result)
        if kind in self._plain_results:
            return False
        if inspect.isawaitable(result):
            return True
        if kind is not types.GeneratorType:
            self._plain_results.add(kind)
        return False

    async def _decide(
        self, view: TableView, request: DecisionRequest, answer: _Answer, method: Any
    ) -> None:
        try:
            if inspect.iscoroutinefunction(method):
                result = await method(view, request)
            else:
                result = await trio.to_thread.run_sync(
                    self._timed, method, view, request, answer, abandon_on_cancel=True
                )
            if inspect.isawaitable(result):  # a plain method that returned a coroutine
                result = await result
        except Exception:
            self._log_failure(request)
            return
        with self._posting():
            self._answer(view, request, answer, result)

    def _posting(self) -> contextlib.AbstractContextManager[None]:
        """The bridge's :meth:`~arena.transport.bridge.Bridge.posting` scope: answers sent in
        it are written as it ends, not after trio's round."""
        bridge = self._bridge
        return contextlib.nullcontext() if bridge is None else bridge.posting()

    def _timed(self, method: Any, view: TableView, request: DecisionRequest,
               answer: _Answer) -> Any:
        """``method(view, request)`` in a worker thread, its end stamped there: the way back
        to trio, which the bot cannot see, counts as the transport's (``transport_time``)."""
        try:
            return method(view, request)
        finally:
            answer.decided = self.clock()

    async def _await_decision(
        self, view: TableView, request: DecisionRequest, answer: _Answer, result: Any
    ) -> None:
        try:
            result = await result
        except Exception:
            self._log_failure(request)
            return
        with self._posting():
            self._answer(view, request, answer, result)

    def _log_failure(self, request: DecisionRequest) -> None:
        log.exception("%s failed to decide request %d of table %r seat %d: no answer sent",
                      self.name, request.request_id, request.table_id, request.seat)

    def _answer(
        self, view: TableView, request: DecisionRequest, answer: _Answer, result: Any
    ) -> None:
        """Send the decision ``result`` (an action or its notation) to ``request``."""
        legal = request.legal_actions
        try:
            game = view.game  # the table's (its TableStart's), as _game_of would say
            # A legal action needs no other check (an action of the table's game, surely).
            action = result if result in legal else as_action(result, game)
        except Exception:
            self._log_failure(request)
            return
        # Past the limit itself (the view's deadline keeps the transport's time in hand).
        late = self.clock() - answer.arrived - request.time_limit
        if late > 0:  # the bot's own clock: the cause is on this side
            log.warning("%s decided request %d of table %r %.0f ms past its deadline (%.0f ms "
                        "after it arrived): the arena times it out", self.name,
                        request.request_id, request.table_id, late * 1000,
                        (late + request.time_limit) * 1000)
        if action not in legal:
            log.warning("%s answered %s to request %d of table %r, which is not legal: the arena "
                        "will play its fallback", self.name, action, request.request_id,
                        request.table_id)
        if self._answers.get(request.table_id, _NO_ANSWERS).get(request.request_id) is not answer:
            log.info("answer to request %d of table %r dropped: the table is over",
                     request.request_id, request.table_id)
            return
        answer.message = convert.decision_to_pb(
            request.table_id, request.request_id, action, game
        )
        stream = self._stream
        if stream is not None:
            if answer.decided is None:
                answer.decided = self.clock()
            stream.send(answer.message)
            answer.sent_on = stream.id

    def _on_unheard_end(self, end: pb.TableEnd) -> None:
        """A table's end for a bot that does not hear of ends: the seat is forgotten, the end
        logged from the message's own outcome and scores."""
        self._forget((end.table_id, end.seat))
        if log.isEnabledFor(logging.INFO):
            outcome = pb.DealOutcome.Name(end.outcome) if end.outcome in _OUTCOMES else "?"
            score = end.scores[end.seat] if end.seat < len(end.scores) else 0
            log.info("table %r seat %d over: %s, score %+d", end.table_id, end.seat,
                     outcome.lower().replace("_", "-"), score)

    async def _on_end(self, end: TableEnd) -> None:
        key = (end.table_id, end.seat)
        view = self.tables.get(key)
        self._forget(key)
        log.info("table %r seat %d over: %s, score %+d", end.table_id, end.seat,
                 end.result.outcome.value, end.result.scores[end.seat])
        if view is not None:
            try:
                view = view.with_end(end)
            except Exception:  # the hook still hears of the end, with the view as it was
                log.exception("could not apply the end of table %r seat %d", *key)
            await self._hook(self.bot.on_table_end, view, end)

    async def _hook(self, fn: Any, *args: Any) -> None:
        """Run a bot hook; its errors are logged, never allowed to break the connection."""
        try:
            result = fn(*args)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("error in %s.%s", type(self.bot).__name__, fn.__name__)



# ------------------------------------------------------------------------------ entry points
def run_bot(
    bot: Bot,
    server: str = "127.0.0.1:50051",
    token: str = "",
    *,
    max_tables: int = 1,
    name: str | None = None,
    version: str | None = None,
    backoff: Backoff | None = None,
    connect_timeout: float | None = None,
    stay: bool = False,
    tls: bool | ClientTls | None = False,
) -> Goodbye | None:
    """Play ``bot`` until the arena has no more work for it (then return its Goodbye), or until
    Ctrl-C or SIGTERM (then return None, the stream closed). With ``stay``, only a signal ends
    it: the bot waits for the next tournament.

    Blocking: it runs its own trio loop; from trio code, run :meth:`ArenaClient.run` instead.
    Raises :class:`ArenaRejectedError` when the arena refuses the connection,
    :class:`ArenaUnreachableError` when ``connect_timeout`` seconds pass before the arena
    accepts the first connection (None: keep trying; once connected, a lost connection is
    always retried), ValueError for bad arguments (a TLS file missing or not PEM included),
    :class:`ArenaTlsError` (an :class:`ArenaRejectedError`) when TLS settings do not fit the
    arena's. ``tls``: as for :class:`ArenaClient`.
    """
    if connect_timeout is not None and connect_timeout <= 0:
        raise ValueError(f"connect_timeout must be positive, got {connect_timeout}")
    client = ArenaClient(bot, server, token, max_tables=max_tables, name=name, version=version,
                         backoff=backoff, stay=stay, tls=tls)
    return trio.run(_run_until_signal, client, connect_timeout)


async def _run_until_signal(
    client: ArenaClient, connect_timeout: float | None = None
) -> Goodbye | None:
    failure: ArenaRejectedError | ArenaUnreachableError | None = None
    goodbye: Goodbye | None = None
    async with trio.open_nursery() as nursery:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            nursery.start_soon(_stop_on_signal, signals, nursery.cancel_scope)
            with trio.CancelScope() as connecting:
                if connect_timeout is not None:
                    nursery.start_soon(_give_up_unless_connected, client, connect_timeout,
                                       connecting)
                try:
                    goodbye = await client.run()
                except ArenaRejectedError as exc:
                    failure = exc
            if connecting.cancelled_caught:
                assert connect_timeout is not None
                failure = ArenaUnreachableError(client.server, connect_timeout)
            nursery.cancel_scope.cancel()  # done, one way or another: stop watching signals
    if failure is not None:
        raise failure  # outside the nursery, so that it is not wrapped in an exception group
    return goodbye


async def _give_up_unless_connected(
    client: ArenaClient, timeout: float, scope: trio.CancelScope
) -> None:
    await trio.sleep(timeout)
    if client.connections == 0:
        scope.cancel()


async def _stop_on_signal(signals: Any, scope: trio.CancelScope) -> None:
    async for signum in signals:
        log.info("%s: closing the connection", signal.Signals(signum).name)
        scope.cancel()
