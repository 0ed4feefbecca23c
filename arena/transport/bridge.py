"""grpc.aio's asyncio loop, stepped by a trio task in trio's own thread.

grpc.aio runs on asyncio only, and the arena's core is trio. ``../shared/TRANSPORT.md`` measured
the ways to join them and found a separate asyncio thread the best of those it tried; this is a
design it did not try: one thread, where a trio task runs the asyncio loop one iteration at a
time and waits for its file descriptors in trio. No second thread means no GIL hand-over and no
cross-thread wake-up per message: with the same batching on both sides, ``bench/arena.py`` at 16
tables went from 0.41-0.45 of the echo floor (thread) to 0.48-0.50 (stepped), and in one thread
the tables and the stream writers can share plain lists instead of thread-safe queues.

The loop is a plain :class:`asyncio.SelectorEventLoop` whose selector never blocks: the driver
(:meth:`Bridge.drive`) runs one iteration (``_run_once``: due timers, I/O ready now, callbacks),
then the calls the asyncio side made for trio, then yields to trio; when asyncio has nothing
ready it waits in trio until the loop's epoll descriptor is readable, its next timer is due, or
trio code queues a call for it. Calls between the two sides are plain function calls queued on
one thread, in order.

The price: trio code in the arena's process that blocks the thread (it never should) now also
holds up gRPC's reads, writes and keepalives. Only ``BaseEventLoop._run_once``, ``_ready``,
``_scheduled`` and ``asyncio.events._set_running_loop`` are used beyond asyncio's public API;
they have been there since Python 3.5 and ``tests/transport/test_bridge.py`` would notice a
change. Needs a selector with a file descriptor (epoll on Linux, kqueue on macOS).
"""

from __future__ import annotations

import asyncio
import logging
import math
import selectors
from asyncio import events
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import trio

log = logging.getLogger(__name__)
T = TypeVar("T")
YIELDS_BEFORE_STEP = 8
"""At most this many trio scheduling rounds between two loop iterations."""


class _NonBlockingSelector(selectors.DefaultSelector):
    """The loop's selector: polls, never blocks (trio does the waiting)."""

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        return super().select(0)


class Bridge:
    """The asyncio loop grpc.aio runs on, and calls between it and trio.

    Create it in trio and run :meth:`drive` as a task for as long as gRPC is served.
    """

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery
        self._selector = _NonBlockingSelector()
        self.loop: asyncio.AbstractEventLoop = asyncio.SelectorEventLoop(self._selector)
        self._trio_calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._waiting: trio.CancelScope | None = None

    # ------------------------------------------------------------------------ the driver
    @trio.lowlevel.enable_ki_protection
    async def drive(self, main: Coroutine[Any, Any, T], grace: float = 5.0) -> T:
        """Run ``main`` on the loop to completion, stepping the loop from trio; then close it.

        When this task is cancelled, ``main`` (told to stop by its owner) gets ``grace``
        seconds to end by itself, is then cancelled in asyncio, and the loop is closed.

        Protected from KeyboardInterrupt: a Ctrl-C raised in the middle of grpc.aio's own code
        (which ran in a thread of its own before, where signals never land) left it broken and
        crashed the process at exit; trio hands it to the main task instead, whose
        cancellation then stops the gRPC side in order.
        """
        task = self.loop.create_task(main)
        try:
            await self._step_until(task)
        except trio.Cancelled:
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + grace
                await self._step_until(task)
            if not task.done():
                task.cancel()
                with trio.CancelScope(shield=True) as scope:
                    scope.deadline = trio.current_time() + 1.0
                    await self._step_until(task)
            raise
        finally:
            self._close()
        return task.result()

    async def _step_until(self, task: asyncio.Future[Any]) -> None:
        loop: Any = self.loop
        ready = loop._ready
        scheduled = loop._scheduled
        epoll_fd = self._selector.fileno()
        statistics = trio.lowlevel.current_statistics
        while not task.done():
            # Let the trio tasks that are ready run first (a batch of answers wakes many
            # tables), so that what they post goes out in as few stream writes as possible.
            for _ in range(YIELDS_BEFORE_STEP):
                if not statistics().tasks_runnable:
                    break
                await trio.lowlevel.checkpoint()
            self._step()
            if task.done():
                break
            if ready or self._trio_calls:
                await trio.lowlevel.checkpoint()
                continue
            timeout = max(0.0, scheduled[0].when() - loop.time()) if scheduled else math.inf
            with trio.CancelScope() as self._waiting:
                if timeout < math.inf:
                    self._waiting.deadline = trio.current_time() + timeout
                await trio.lowlevel.wait_readable(epoll_fd)
            self._waiting = None

    def _step(self) -> None:
        """One loop iteration, then the calls it queued for trio (errors logged, not raised)."""
        loop: Any = self.loop
        events._set_running_loop(loop)
        try:
            loop._run_once()
        finally:
            events._set_running_loop(None)
        while self._trio_calls:
            calls, self._trio_calls = self._trio_calls, []
            for fn, args in calls:
                try:
                    fn(*args)
                except Exception:
                    log.exception("error in a call from the gRPC side")

    def _close(self) -> None:
        loop: Any = self.loop
        for task in asyncio.all_tasks(loop):
            task.cancel()
        events._set_running_loop(loop)
        try:
            for _ in range(3):  # let cancelled tasks unwind
                loop._run_once()
        finally:
            events._set_running_loop(None)
        loop.close()

    # --------------------------------------------------------------------- asyncio -> trio
    def to_trio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` in trio right after the current loop iteration, in call order."""
        self._trio_calls.append((fn, args))
        self._wake()

    def call_in_trio(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run a sync ``fn(*args)`` in trio; an asyncio future of its result."""
        future: asyncio.Future[T] = self.loop.create_future()

        def run() -> None:
            try:
                value = fn(*args)
            except BaseException as exc:
                self._settle(future, None, exc)
            else:
                self._settle(future, value, None)

        self.to_trio(run)
        return future

    def run_in_trio(self, fn: Callable[..., Awaitable[T]], *args: Any) -> asyncio.Future[T]:
        """Start ``await fn(*args)`` as a task of the server's nursery; an asyncio future."""
        future: asyncio.Future[T] = self.loop.create_future()

        async def task() -> None:
            try:
                value = await fn(*args)
            except BaseException as exc:
                self._settle(future, None, exc)
                if isinstance(exc, trio.Cancelled | KeyboardInterrupt | SystemExit):
                    raise
            else:
                self._settle(future, value, None)

        self.to_trio(self.nursery.start_soon, task)
        return future

    def _settle(self, future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
        def settle() -> None:
            if future.done():
                return
            if error is not None:
                if isinstance(error, trio.Cancelled):
                    future.cancel()
                else:
                    future.set_exception(error)
            else:
                future.set_result(value)

        self.to_asyncio(settle)

    # --------------------------------------------------------------------- trio -> asyncio
    def to_asyncio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` soon in the asyncio loop, in call order."""
        loop = self.loop
        if loop.is_closed():
            return
        loop.call_soon(fn, *args)
        self._wake()

    def _wake(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
