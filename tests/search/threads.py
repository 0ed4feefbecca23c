"""Decisions made at once in threads, as the SDK makes a threaded bot's decisions at several
tables."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def at_once(call: Callable[[], T], times: int = 4) -> list[T]:
    """``call`` run ``times`` times at once, each in a thread of its own; what each returned."""
    results: list[T] = []
    threads = [threading.Thread(target=lambda: results.append(call())) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
