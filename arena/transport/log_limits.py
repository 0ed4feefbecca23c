"""Log lines that a client can cause, each kind at a bounded rate.

Anything the network can repeat (garbage, refused handshakes, a record that fails for every
Hello, a call that fails for every message) would otherwise write a line per repetition,
and an outsider could fill the disk and drown every other line. Each kind of line keeps its
first few every interval; the next one after a quiet spell says how many were left out.
"""

from __future__ import annotations

import logging
import time


class LogLimiter:
    """At most ``most`` lines per kind of event every ``interval`` seconds; the next line
    after a quiet spell says how many were left out."""

    MAX_KINDS = 256
    """Kinds are a fixed few (or one per function that fails): never let them pile up."""

    def __init__(self, logger: logging.Logger, most: int = 5, interval: float = 10.0) -> None:
        self.logger = logger
        self.most = most
        self.interval = interval
        self._windows: dict[str, tuple[float, int, int]] = {}
        """kind -> (window start, lines logged in it, lines left out)"""

    def warning(self, kind: str, text: str, *args: object) -> None:
        self._log(logging.WARNING, kind, text, args, False)

    def exception(self, kind: str, text: str, *args: object) -> None:
        """At ERROR, with the traceback of the exception being handled."""
        self._log(logging.ERROR, kind, text, args, True)

    def log(self, level: int, kind: str, text: str, *args: object) -> None:
        self._log(level, kind, text, args, False)

    def _log(self, level: int, kind: str, text: str, args: tuple[object, ...],
             traceback: bool) -> None:
        now = time.monotonic()
        start, logged, left_out = self._windows.get(kind, (now, 0, 0))
        if now - start >= self.interval:
            start, logged = now, 0
        if logged >= self.most:
            self._windows[kind] = (start, logged, left_out + 1)
            return
        if left_out:
            text += f" ({left_out} similar lines left out)"
        # stacklevel: the line names the caller's module and line, not this one
        self.logger.log(level, text, *args, exc_info=traceback or None, stacklevel=3)
        self._windows[kind] = (start, logged + 1, 0)
        if len(self._windows) > self.MAX_KINDS:
            self._windows.clear()
