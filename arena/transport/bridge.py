"""Calls between the trio core and grpc.aio's asyncio loop, which runs in its own thread.

grpc.aio runs on asyncio only; ``../shared/TRANSPORT.md`` measured the ways to join it with
trio and this one (gRPC on its own asyncio thread) was the fastest. Both directions are
"schedule a callback on the other loop": ``call_soon_threadsafe`` into asyncio,
``TrioToken.run_sync_soon`` into trio. Every callback catches its own errors, because one that
raises inside ``run_sync_soon`` would crash the whole trio run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

log = logging.getLogger(__name__)
T = TypeVar("T")


class _CallQueue:
    """Calls for another thread's loop, run there in order, with one wake-up per burst.

    Waking the other thread costs tens of microseconds and a decision sends several messages
    at once, so calls queue up and ``wake`` is called only when the queue was empty.
    """

    def __init__(self, direction: str) -> None:
        self._direction = direction
        self._lock = threading.Lock()
        self._calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._scheduled = False

    def add(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
        """Queue a call; True when the caller must schedule :meth:`drain` on the other loop."""
        with self._lock:
            self._calls.append((fn, args))
            if self._scheduled:
                return False
            self._scheduled = True
            return True

    def drain(self) -> None:
        """Run the queued calls (on the other loop); each one's errors are logged, not raised:
        a raising ``run_sync_soon`` callback would crash the whole trio run."""
        with self._lock:
            calls, self._calls = self._calls, []
            self._scheduled = False
        for fn, args in calls:
            try:
                fn(*args)
            except Exception:
                log.exception("error in a call %s", self._direction)


class Bridge:
    """Created in trio; ``loop`` is set once the asyncio thread runs."""

    def __init__(self, trio_token: trio.lowlevel.TrioToken, nursery: trio.Nursery) -> None:
        self.trio_token = trio_token
        self.nursery = nursery
        self.loop: asyncio.AbstractEventLoop | None = None
        self._to_trio = _CallQueue("from the gRPC thread")
        self._to_asyncio = _CallQueue("from the trio thread")

    # asyncio -> trio ---------------------------------------------------------------------
    def to_trio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` soon in trio, in call order (fire and forget; errors are logged)."""
        if self._to_trio.add(fn, args):
            with contextlib.suppress(trio.RunFinishedError):
                self.trio_token.run_sync_soon(self._to_trio.drain)

    def call_in_trio(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run a sync ``fn(*args)`` in trio; an asyncio future of its result."""
        loop = self._loop()
        future: asyncio.Future[T] = loop.create_future()

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
        loop = self._loop()
        future: asyncio.Future[T] = loop.create_future()

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

    # trio -> asyncio ---------------------------------------------------------------------
    def to_asyncio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` soon in the asyncio thread, in call order."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if self._to_asyncio.add(fn, args):
            with contextlib.suppress(RuntimeError):  # the loop closed in between
                loop.call_soon_threadsafe(self._to_asyncio.drain)

    def _loop(self) -> asyncio.AbstractEventLoop:
        assert self.loop is not None, "the gRPC thread is not running"
        return self.loop
