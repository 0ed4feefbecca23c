"""grpc.aio on an asyncio loop in a thread of its own, seen from trio as a channel of messages.

grpc.aio runs on asyncio only and the SDK is trio. ``/work/shared/TRANSPORT.md`` measured the
ways to join them; an asyncio loop in its own thread, bridged by callbacks, is the one that
scales with many streams, and it is what the arena server does too. Both directions are
"schedule a callback on the other loop" (``call_soon_threadsafe`` into asyncio,
``TrioToken.run_sync_soon`` into trio), and every callback swallows its own errors, because one
that raises inside ``run_sync_soon`` would crash the whole trio run.

Nothing here knows the protocol beyond the stub: messages cross as protobuf, decoding is the
client's job (through :mod:`arena.transport.convert`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
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


class AsyncioThread:
    """An asyncio loop in a worker thread for as long as :meth:`run` runs in trio."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Start the thread, ``task_status.started(self)``, and stop it when cancelled."""
        token = trio.lowlevel.current_trio_token()
        ready = trio.Event()

        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            token.run_sync_soon(ready.set)
            await self._stop.wait()

        def thread_main() -> None:
            asyncio.run(main())

        async with trio.open_nursery() as nursery:
            # not abandoned on cancel: leaving run() joins the thread, so no stream outlives it
            nursery.start_soon(trio.to_thread.run_sync, thread_main)
            await ready.wait()
            task_status.started(self)
            try:
                await trio.sleep_forever()
            finally:
                self.call(self._set_stop)

    def _set_stop(self) -> None:
        if self._stop is not None:
            self._stop.set()

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` soon on the asyncio loop (dropped once the loop is closed)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed in between
            loop.call_soon_threadsafe(fn, *args)


class Stream:
    """One ``BotService.Connect`` call. Create it in trio; read ``messages`` in trio.

    ``messages`` yields ``pb.ArenaMessage`` items in order and then exactly one
    :class:`StreamEnded`. ``send`` never blocks: messages queue on the asyncio side and a single
    writer task writes them after the Hello.
    """

    def __init__(
        self,
        thread: AsyncioThread,
        target: str,
        hello: pb.BotMessage,
        options: Sequence[tuple[str, Any]] = (),
    ) -> None:
        self.id = next(_stream_ids)
        self._thread = thread
        self._token = trio.lowlevel.current_trio_token()
        self._inbox, self.messages = trio.open_memory_channel[Any](math.inf)
        self._done = trio.Event()
        self._outbox: asyncio.Queue[pb.BotMessage | None] | None = None
        self._task: asyncio.Task[None] | None = None
        thread.call(self._start, target, hello, list(options))

    # ------------------------------------------------------------------------- trio side
    def send(self, message: pb.BotMessage) -> None:
        self._thread.call(self._put, message)

    async def aclose(self, grace: float) -> None:
        """Half-close (the arena then ends the call with OK); cancel after ``grace`` seconds."""
        self._thread.call(self._put, None)
        with trio.move_on_after(grace):
            await self._done.wait()
        if not self._done.is_set():
            self._thread.call(self._cancel)
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

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self, target: str, hello: pb.BotMessage, options: list[tuple[str, Any]]) -> None:
        ended = StreamEnded(grpc.StatusCode.UNKNOWN, "the stream ended without a status")
        try:
            async with grpc.aio.insecure_channel(target, options=options) as channel:
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
            while True:
                message = await self._outbox.get()
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
