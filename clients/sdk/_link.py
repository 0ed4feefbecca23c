"""grpc.aio on a background asyncio loop, seen from trio as a channel of messages.

grpc.aio runs on asyncio only and the SDK is trio. The project's transport study (TRANSPORT.md)
measured the ways to join them; an asyncio loop in its own thread, bridged by callbacks, is the
best of those it tried. (The arena server goes further and steps its loop from trio in one thread,
see ``arena.transport.bridge``; the SDK keeps its own thread because its loop is shared by every
client of the process and outlives them, see :func:`grpc_loop`.) Both directions are "schedule a
callback on the other loop" (``call_soon_threadsafe`` into asyncio, ``TrioToken.run_sync_soon``
into trio), and every callback swallows its own errors, because one that raises inside
``run_sync_soon`` would crash the whole trio run.

Nothing here knows the protocol beyond the stub: messages cross as protobuf, decoding is the
client's job (through :mod:`arena.transport.convert`).
"""

from __future__ import annotations

import asyncio
import contextlib
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

log = logging.getLogger("clients.sdk")
_stream_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class StreamEnded:
    """The last item of a stream's channel: how the call ended."""

    code: grpc.StatusCode
    details: str


def grpc_loop() -> asyncio.AbstractEventLoop:
    """The process's asyncio loop for grpc.aio, started on first use in a daemon thread.

    One loop for every client of the process, never closed: grpc.aio may complete operations of
    a loop after its channel is closed, and when that loop has closed meanwhile the completion
    fails with "Event loop is closed" on whichever loop polls next. grpc's own sync API keeps
    background threads for the life of the process in the same way.
    """
    global _loop
    with _loop_lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            loop.set_exception_handler(_exception_handler)
            ready = threading.Event()

            def main() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            threading.Thread(target=main, name="clients.sdk grpc loop", daemon=True).start()
            ready.wait()
            _loop = loop
        return _loop


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """Quiet the late completions described in :func:`grpc_loop`, for other loops of the
    process (an in-process arena server's, in tests); report anything else as asyncio would."""
    error = context.get("exception")
    if isinstance(error, RuntimeError) and str(error) == "Event loop is closed":
        log.debug("grpc.aio completed an operation for a closed event loop: %r", context)
        return
    loop.default_exception_handler(context)


def _call(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: only at interpreter exit
        loop.call_soon_threadsafe(fn, *args)


MAX_BATCH = 256


def _together(
    first: pb.BotMessage, outbox: asyncio.Queue[pb.BotMessage | None]
) -> tuple[pb.BotMessage, bool]:
    """``first`` and the decisions queued after it as one message; True if the queue ended.

    Only decisions are batched: a queue holds nothing else after the Hello."""
    decisions = [first.decision]
    end = False
    while not outbox.empty() and len(decisions) < MAX_BATCH:
        message = outbox.get_nowait()
        if message is None:
            end = True
            break
        decisions.append(message.decision)
    if len(decisions) == 1:
        return first, end
    return pb.BotMessage(decisions=pb.DecisionBatch(decisions=decisions)), end


class Stream:
    """One ``BotService.Connect`` call. Create it in trio; read ``messages`` in trio.

    ``messages`` yields ``pb.ArenaMessage`` items in order and then exactly one
    :class:`StreamEnded`. ``send`` never blocks: messages queue on the asyncio side and a single
    writer task writes them after the Hello.
    """

    def __init__(
        self,
        target: str,
        hello: pb.BotMessage,
        options: Sequence[tuple[str, Any]] = (),
        credentials: grpc.ChannelCredentials | None = None,
    ) -> None:
        self.id = next(_stream_ids)
        self._loop = grpc_loop()
        self._token = trio.lowlevel.current_trio_token()
        self._inbox, self.messages = trio.open_memory_channel[Any](math.inf)
        self._done = trio.Event()
        self._outbox: asyncio.Queue[pb.BotMessage | None] | None = None
        self._sending: list[pb.BotMessage] = []
        self.batch_decisions = False
        """Send decisions queued together as one DecisionBatch (once the arena agreed)."""
        self._task: asyncio.Task[None] | None = None
        self._credentials = credentials
        """TLS (None: plaintext)."""
        _call(self._loop, self._start, target, hello, list(options))

    # ------------------------------------------------------------------------- trio side
    def send(self, message: pb.BotMessage) -> None:
        """Queue ``message``. What is sent during one trio scheduling round crosses to the
        writer in one hand-over, so that the answers to one batch of requests can leave as one
        DecisionBatch instead of racing the writer one by one."""
        self._sending.append(message)
        if len(self._sending) == 1:
            self._token.run_sync_soon(self._hand_over)

    def _hand_over(self) -> None:
        messages, self._sending = self._sending, []
        if messages:
            _call(self._loop, self._put_all, messages)

    async def aclose(self, grace: float) -> None:
        """Half-close (the arena then ends the call with OK); cancel after ``grace`` seconds."""
        self._hand_over()  # what was sent goes first
        _call(self._loop, self._put, None)
        with trio.move_on_after(grace):
            await self._done.wait()
        if not self._done.is_set():
            _call(self._loop, self._cancel)
            with trio.move_on_after(grace):
                await self._done.wait()
        self.messages.close()

    # ---------------------------------------------------------------------- asyncio side
    def _start(self, target: str, hello: pb.BotMessage, options: list[tuple[str, Any]]) -> None:
        self._outbox = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._run(target, hello, options))

    def _put(self, message: pb.BotMessage | None) -> None:
        if self._outbox is not None:
            self._outbox.put_nowait(message)

    def _put_all(self, messages: list[pb.BotMessage]) -> None:
        for message in messages:
            self._put(message)

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self, target: str, hello: pb.BotMessage, options: list[tuple[str, Any]]) -> None:
        ended = StreamEnded(grpc.StatusCode.UNKNOWN, "the stream ended without a status")
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
                        self._to_trio(self._deliver, message)
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
            self._to_trio(self._deliver, ended)
            self._to_trio(self._done.set)

    async def _write(self, call: Any, hello: pb.BotMessage) -> None:
        assert self._outbox is not None
        try:
            await call.write(hello)
            outbox = self._outbox
            while True:
                message = await outbox.get()
                if message is not None and self.batch_decisions and not outbox.empty():
                    message, end = _together(message, outbox)
                    await call.write(message)
                    if not end:
                        continue
                    message = None
                if message is None:
                    await call.done_writing()
                    return
                await call.write(message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the call is over: the reader reports why
            log.debug("stream %d: write failed: %r", self.id, exc)

    def _deliver(self, item: Any) -> None:
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._inbox.send_nowait(item)

    def _to_trio(self, fn: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(trio.RunFinishedError):
            self._token.run_sync_soon(fn, *args)
