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


class Bridge:
    """Created in trio; ``loop`` is set once the asyncio thread runs."""

    def __init__(self, trio_token: trio.lowlevel.TrioToken, nursery: trio.Nursery) -> None:
        self.trio_token = trio_token
        self.nursery = nursery
        self.loop: asyncio.AbstractEventLoop | None = None
        # Calls each way are queued and drained in one wake-up per burst: waking the other
        # thread costs tens of microseconds, and a decision sends several messages at once.
        self._lock = threading.Lock()
        self._to_asyncio: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._drain_scheduled = False
        self._to_trio: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._trio_drain_scheduled = False

    # asyncio -> trio ---------------------------------------------------------------------
    def to_trio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` soon in trio, in call order (fire and forget; errors are logged)."""
        with self._lock:
            self._to_trio.append((fn, args))
            if self._trio_drain_scheduled:
                return
            self._trio_drain_scheduled = True
        with contextlib.suppress(trio.RunFinishedError):
            self.trio_token.run_sync_soon(self._drain_trio)

    def _drain_trio(self) -> None:
        with self._lock:
            calls, self._to_trio = self._to_trio, []
            self._trio_drain_scheduled = False
        for fn, args in calls:
            try:
                fn(*args)
            except Exception:  # a raising callback would crash the trio run
                log.exception("error in a callback from the gRPC thread")

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
        with self._lock:
            self._to_asyncio.append((fn, args))
            if self._drain_scheduled:
                return
            self._drain_scheduled = True
        with contextlib.suppress(RuntimeError):  # the loop closed in between
            loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        with self._lock:
            calls, self._to_asyncio = self._to_asyncio, []
            self._drain_scheduled = False
        for fn, args in calls:
            try:
                fn(*args)
            except Exception:
                log.exception("error in a call from the trio thread")

    def _loop(self) -> asyncio.AbstractEventLoop:
        assert self.loop is not None, "the gRPC thread is not running"
        return self.loop
