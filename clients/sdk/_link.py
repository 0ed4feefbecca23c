"""grpc.aio on an asyncio loop that trio drives, seen from trio as a channel of messages.

grpc.aio runs on asyncio only and the SDK is trio. The client runs grpc.aio's loop on the
arena's own :class:`~arena.transport.bridge.Bridge`, one per :meth:`ArenaClient.run
<clients.sdk.ArenaClient.run>`: where asyncio's insides allow it (CPython), a trio task steps
the loop in trio's own thread (no second thread, so no GIL hand-over and no cross-thread
wake-up per message), else the loop runs in a thread of its own. Both directions are "run this
call on the other side soon" (``Bridge.to_asyncio``, ``Bridge.to_trio``), each call's errors
caught and logged by the bridge, because one that raises inside trio would crash the whole run.

Nothing here knows the protocol beyond the stub: messages cross as protobuf, decoding is the
client's job (through :mod:`arena.transport.convert`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.transport.bridge import Bridge

log = logging.getLogger("clients.sdk")
_stream_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class StreamEnded:
    """The last item of a stream's channel: how the call ended."""

    code: grpc.StatusCode
    details: str


@dataclass(frozen=True, slots=True)
class ReadFailed:
    """An item of a stream's channel: :attr:`Stream.reader` raised ``error`` (a bug), which the
    task reading the channel raises, as it would have had it read the message itself."""

    error: Exception


def quiet_late_completions(loop: asyncio.AbstractEventLoop) -> None:
    """Quiet, on ``loop``, grpc.aio's completions for another loop already closed.

    grpc.aio polls one completion queue for every loop of the process and hands each completion
    to its own loop; one that comes after its loop was closed (a channel's last operations, an
    in-process arena's loop in tests) fails with "Event loop is closed" on whichever loop polls
    next. That is no error of the polling loop's: it is logged at DEBUG, anything else as
    asyncio would."""
    loop.set_exception_handler(_exception_handler)


def _exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    error = context.get("exception")
    if isinstance(error, RuntimeError) and str(error) == "Event loop is closed":
        log.debug("grpc.aio completed an operation for a closed event loop: %r", context)
        return
    loop.default_exception_handler(context)


async def serve_until(stop: asyncio.Event) -> None:
    """The bridge's main coroutine on the client's side: the streams are tasks of their own,
    this keeps the loop open for them until ``stop`` is set."""
    quiet_late_completions(asyncio.get_running_loop())
    await stop.wait()


MAX_BATCH = 256


def _batched(messages: list[pb.BotMessage]) -> list[pb.BotMessage]:
    """``messages`` (decisions: nothing else is sent after the Hello) as DecisionBatch
    messages of at most :data:`MAX_BATCH` decisions each; a lone decision as it is."""
    if len(messages) == 1:
        return messages
    batches = []
    for start in range(0, len(messages), MAX_BATCH):
        chunk = messages[start:start + MAX_BATCH]
        if len(chunk) == 1:
            batches.append(chunk[0])
            continue
        batch = pb.BotMessage()  # filled in place: a DecisionBatch built apart is copied again
        batch.decisions.decisions.extend([message.decision for message in chunk])
        batches.append(batch)
    return batches


class Stream:
    """One ``BotService.Connect`` call on ``bridge``. Create it in trio; read ``messages`` in
    trio.

    ``messages`` yields ``pb.ArenaMessage`` items in order and then exactly one
    :class:`StreamEnded`. ``send`` never blocks: messages queue in a list that a single writer
    task on the asyncio side empties after the Hello, all it holds at once (an
    ``asyncio.Queue`` in between cost a put, a get and a future per decision).
    """

    def __init__(
        self,
        target: str,
        hello: pb.BotMessage,
        options: Sequence[tuple[str, Any]] = (),
        credentials: grpc.ChannelCredentials | None = None,
        *,
        bridge: Bridge,
    ) -> None:
        self.id = next(_stream_ids)
        self._bridge = bridge
        self._inbox, self.messages = trio.open_memory_channel[Any](math.inf)
        self._done = trio.Event()
        self._sending: list[pb.BotMessage] = []
        self._sending_lock = threading.Lock()
        """``_sending`` is filled in trio and emptied in asyncio: on the thread bridge the two
        run at once (uncontended on the stepped bridge, where they share a thread)."""
        self._ending = False
        """No more messages: the writer half-closes once ``_sending`` is empty (asyncio side)."""
        self._writer_idle: asyncio.Future[None] | None = None
        """What the writer awaits while ``_sending`` is empty (asyncio side)."""
        self.batch_decisions = False
        """Send decisions queued together as one DecisionBatch (once the arena agreed)."""
        self.reader: Callable[[pb.ArenaMessage], bool] | None = None
        """Set (in trio, by the one reading ``messages``, while nothing is left in it): every
        later stream message is read by this call as it arrives, in the bridge's call to
        trio, not put in ``messages`` for a task to wake up to (a task switch and two trio
        rounds a stream message); it returns False when it woke no trio task (see
        :meth:`~arena.transport.bridge.Bridge.to_trio`). ``messages`` then gets only the
        :class:`StreamEnded`."""
        self._task: asyncio.Task[None] | None = None
        self._credentials = credentials
        """TLS (None: plaintext)."""
        bridge.to_asyncio(self._start, target, hello, list(options))

    # ------------------------------------------------------------------------- trio side
    def send(self, message: pb.BotMessage) -> None:
        """Queue ``message``. What is sent before the asyncio side next runs is written in one
        go (on the stepped bridge, the loop runs once the trio tasks that are ready have run),
        so that the answers to one batch of requests can leave as one DecisionBatch instead of
        racing the writer one by one."""
        with self._sending_lock:
            self._sending.append(message)
            first = len(self._sending) == 1
        if first:
            self._bridge.to_asyncio(self._wake_writer)

    async def aclose(self, grace: float) -> None:
        """Half-close (the arena then ends the call with OK); cancel after ``grace`` seconds."""
        bridge = self._bridge
        bridge.to_asyncio(self._end)  # the writer writes what was sent first
        with trio.move_on_after(grace):
            await self._done.wait()
        if not self._done.is_set():
            bridge.to_asyncio(self._cancel)
            with trio.move_on_after(grace):
                await self._done.wait()
        self.messages.close()

    # ---------------------------------------------------------------------- asyncio side
    def _start(self, target: str, hello: pb.BotMessage, options: list[tuple[str, Any]]) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(target, hello, options))

    def _wake_writer(self) -> None:
        idle = self._writer_idle
        if idle is not None and not idle.done():
            idle.set_result(None)

    def _end(self) -> None:
        self._ending = True
        self._wake_writer()

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self, target: str, hello: pb.BotMessage, options: list[tuple[str, Any]]) -> None:
        ended = StreamEnded(grpc.StatusCode.UNKNOWN, "the stream ended without a status")
        to_trio = self._bridge.to_trio
        deliver = self._deliver
        try:
            channel = (grpc.aio.insecure_channel(target, options=options)
                       if self._credentials is None
                       else grpc.aio.secure_channel(target, self._credentials, options=options))
            async with channel:
                call = pb_grpc.BotServiceStub(channel).Connect()
                writer = asyncio.create_task(self._write(call, hello))
                try:
                    while True:
                        message = await call.read()
                        if message is grpc.aio.EOF:
                            break
                        to_trio(deliver, message)
                    ended = StreamEnded(await call.code(), await call.details() or "")
                except grpc.aio.AioRpcError as exc:
                    ended = StreamEnded(exc.code(), exc.details() or "")
                finally:
                    writer.cancel()
                    call.cancel()
        except asyncio.CancelledError:  # our own task, cancelled by aclose(): end quietly
            ended = StreamEnded(grpc.StatusCode.CANCELLED, "closed by the client")
        except Exception as exc:
            ended = StreamEnded(grpc.StatusCode.UNKNOWN, f"{type(exc).__name__}: {exc}")
        finally:
            to_trio(deliver, ended)
            to_trio(self._done.set)

    async def _write(self, call: Any, hello: pb.BotMessage) -> None:
        """The Hello, then everything :meth:`send` queues, until :meth:`aclose` (then the
        call is half-closed)."""
        loop = asyncio.get_running_loop()
        lock = self._sending_lock
        try:
            await call.write(hello)
            while True:
                with lock:
                    messages, self._sending = self._sending, []
                if messages:
                    for message in (_batched(messages) if self.batch_decisions else messages):
                        await call.write(message)
                    continue
                if self._ending:
                    await call.done_writing()
                    return
                self._writer_idle = loop.create_future()
                try:
                    await self._writer_idle
                finally:
                    self._writer_idle = None
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the call is over: the reader reports why
            log.debug("stream %d: write failed: %r", self.id, exc)

    def _deliver(self, item: Any) -> bool:
        """In trio (a call from the asyncio side), for every stream message: read by
        :attr:`reader` if set, else put in ``messages`` (a plain ``try`` rather than a
        ``contextlib.suppress`` object each time)."""
        reader = self.reader
        if reader is not None and not isinstance(item, StreamEnded):
            try:
                return reader(item)
            except Exception as error:
                self.reader = None
                item = ReadFailed(error)
        try:  # noqa: SIM105 (see above)
            self._inbox.send_nowait(item)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass
        return True
