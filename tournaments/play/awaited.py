"""The bots each tournament played in this process waits for, by registered name: what the
terminal prints as "waiting for: ...", kept for the web page to show too.

Only the arena that seats a tournament's tables knows which bots are connected to it, so the
list lives in its process (the runner reports it, :attr:`TournamentRunner.on_waiting`); the
page served beside it reads it here, or gets a copy of it when it runs in a process of its own
(:mod:`tournaments.web.process`). Thread-safe: the page reads it from worker threads.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
_awaited: dict[str, tuple[str, ...]] = {}
_changed = threading.Condition(_lock)
_version = 0


def note(tournament_id: str, names: tuple[str, ...]) -> None:
    """The bots ``tournament_id`` now waits for (empty: none)."""
    global _version
    with _lock:
        if _awaited.get(tournament_id) != names:
            _awaited[tournament_id] = tuple(names)
            _version += 1
            _changed.notify_all()


def of(tournament_id: str) -> tuple[str, ...] | None:
    """The bots it waits for; None if no arena of this process plays it."""
    with _lock:
        return _awaited.get(tournament_id)


def snapshot() -> tuple[int, dict[str, tuple[str, ...]]]:
    """(a number that grows with every change, every tournament's list)."""
    with _lock:
        return _version, dict(_awaited)


def wait_change(seen: int, timeout: float) -> int:
    """Block until the lists changed since ``seen`` (or ``timeout`` seconds); the version."""
    with _changed:
        _changed.wait_for(lambda: _version != seen, timeout)
        return _version


def replace(lists: dict[str, tuple[str, ...]]) -> None:
    """Every list at once (a copy sent by the arena's process)."""
    global _version
    with _lock:
        _awaited.clear()
        _awaited.update({k: tuple(v) for k, v in lists.items()})
        _version += 1
        _changed.notify_all()
