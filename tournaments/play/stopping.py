"""Stopping a long run on a signal: SIGINT (Ctrl-C) and SIGTERM (a service manager's stop)
cancel the run at its next checkpoint, instead of a ``KeyboardInterrupt`` raised wherever its
code happens to be, and the signals that come while it cleans up (Ctrl-C pressed again, a
parent's forward) are taken, not raised: a ``KeyboardInterrupt`` half-way through giving back
boards left them claimed until their lease ran out."""

from __future__ import annotations

import signal
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

T = TypeVar("T")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def until_told_to_stop(run: Callable[[], Awaitable[T]]) -> T:
    """``run()``, cancelled by the first SIGINT or SIGTERM, which is then raised as
    ``KeyboardInterrupt`` once ``run``'s cleanup is over; the signals that come meanwhile are
    taken, so none interrupts the cleanup. Off the main thread, where no signal is delivered,
    ``run()`` as it is."""
    if threading.current_thread() is not threading.main_thread():
        return await run()
    work_scope = trio.CancelScope()
    with trio.open_signal_receiver(*STOP_SIGNALS) as signals:
        async with trio.open_nursery() as nursery:

            async def listen() -> None:
                async for _ in signals:
                    work_scope.cancel()

            nursery.start_soon(listen)
            with work_scope:
                result = await run()
            nursery.cancel_scope.cancel()
    if work_scope.cancelled_caught:
        raise KeyboardInterrupt
    return result
