"""Shared fixtures. Storage tests run on SQLite and on PostgreSQL.

PostgreSQL comes from ``TAROT_ARENA_TEST_PG_URL`` (``.ci/run`` starts a server with
``scripts/postgres.sh``). Without it the PostgreSQL cases skip locally, but fail under CI
(``CI=true``): there they must run.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy

PG_URL = os.environ.get("TAROT_ARENA_TEST_PG_URL")

# pytest-xdist's workers say COLUMNS=80 (their output goes to the controller's terminal): the
# CLI's console would then wrap at 80 where a pipe gets 160. Every worker sees what one
# process does; the tests of the terminal's width set their own.
for _variable in ("COLUMNS", "LINES"):
    os.environ.pop(_variable, None)


def fresh_database(kind: str, folder: object, prefix: str = "arena_test_") -> Iterator[str]:
    """A fresh, empty database URL of ``kind`` ("sqlite": a file in ``folder``; "postgres": a
    new database, dropped afterwards); skips, or fails under CI, without PostgreSQL."""
    if kind == "sqlite":
        yield f"sqlite:///{folder}/arena.db"
        return
    if not PG_URL:
        if os.environ.get("CI"):
            pytest.fail("TAROT_ARENA_TEST_PG_URL is not set: CI must run the PostgreSQL tests")
        pytest.skip("no PostgreSQL: set TAROT_ARENA_TEST_PG_URL (scripts/postgres.sh start)")
    name = prefix + secrets.token_hex(4)
    admin = sqlalchemy.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    base = PG_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(
                f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
            ))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """A fresh, empty database URL: a SQLite file, or a new PostgreSQL database."""
    yield from fresh_database(request.param, tmp_path)


@pytest.fixture(autouse=True)
def _root_logging_restored() -> Iterator[None]:
    """Commands run in-process (``main()`` of the CLI or of the bot runner) configure the root
    logger onto the stderr that pytest captures for that test; the next test would log to a
    closed stream ("--- Logging error ---" in its output). Each test starts as the last ended."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@pytest.fixture(autouse=True)
def _stop_signals_kept() -> Iterator[None]:
    """What SIGINT and SIGTERM do is inherited by every process a test starts: once in a full
    suite, a worker that a test started with SIGINT ignored (by which earlier test, not found)
    sat out the Ctrl-C it was sent. A test that changes them fails by name (and they are put
    back)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.getsignal(s) for s in _STOP_SIGNALS}
    yield
    changed = {}
    for s, handler in before.items():
        now = signal.getsignal(s)
        if now is not handler:
            changed[signal.Signals(s).name] = (handler, now)
            if handler is not None:
                signal.signal(s, handler)
    assert not changed, f"the test left signal handlers changed (before, after): {changed}"
