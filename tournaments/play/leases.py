"""The leases of the tables an arena plays, renewed by a thread of its own on a database
connection of its own.

A claim lives as long as its lease, which the arena renews every quarter of it while the table
plays. Renewed from the trio loop, a lease ran out whenever something held the loop for longer:
a CPU-heavy bot of this process (``compare --local`` and the in-process tables call bot objects
on the loop), a loaded machine, a long synchronous step. A thread needs only the GIL, which a
busy loop hands over every few milliseconds (``sys.getswitchinterval``), and a connection of its
own never queues behind the commits of the tables for one of the pool's.

Moving the bots off the loop instead would cover only the bots this arena runs, not whatever
else holds the loop, and would put every decision through a thread hand-over.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from ..store import TournamentStore

log = logging.getLogger(__name__)

STOP_WAIT = 5.0
"""Seconds :meth:`LeaseKeeper.stop` waits for a renewal under way (a database that does not
answer); the thread is a daemon, left behind past that."""


class LeaseKeeper:
    """Renews ``claims()`` (table id -> the claim's worker id) every ``lease / 4`` seconds
    until stopped, and calls ``on_lost`` (from its thread) with the claims the database no
    longer gives to their worker (another arena took them over once their lease ran out).

    ``claims`` is called from the thread: it must be safe there (a copy of a dict is: the GIL
    holds for the whole copy when the keys are strings). A renewal that fails (the database is
    away) is told once, and tried again at the next interval on a new connection; its
    recovery is told too.
    """

    def __init__(self, store: TournamentStore, lease: float,
                 claims: Callable[[], Mapping[str, str]],
                 on_lost: Callable[[dict[str, str]], None]) -> None:
        self.store = store
        self.lease = lease
        self.interval = lease / 4
        self.claims = claims
        self.on_lost = on_lost
        self.renewals = 0
        """Renewals made (of at least one claim): for tests and benches."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tournament leases",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop renewing; blocks until the thread is done (at most :data:`STOP_WAIT` s)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(STOP_WAIT)

    def _run(self) -> None:
        connection: Any = None
        failing = False
        try:
            while not self._stop.wait(self.interval):
                claims = dict(self.claims())
                if not claims:
                    continue
                try:
                    if connection is None:
                        connection = self.store.engine.connect()
                    lost = self.store.renew(claims, self.lease, connection)
                except Exception as exc:
                    if not failing:
                        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                        log.warning("the leases of %d table%s could not be renewed (%s): "
                                    "trying again every %g s", len(claims),
                                    "s" if len(claims) != 1 else "", first, self.interval)
                    failing = True
                    connection = _closed(connection)
                    continue
                if failing:
                    log.warning("the leases are renewed again")
                    failing = False
                self.renewals += 1
                if lost:
                    self.on_lost({table_id: claims[table_id] for table_id in lost})
        finally:
            _closed(connection)


def _closed(connection: Any) -> None:
    if connection is not None:
        try:
            connection.close()
        except Exception as exc:  # a broken connection: nothing more to do with it
            log.debug("closing the lease connection: %r", exc)
    return None
