"""Engines for a database URL: SQLite (the embedded default) or PostgreSQL.

Sessions are synchronous; trio code calls them in a worker thread (``trio.to_thread``).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import StaticPool
from sqlmodel import create_engine

DEFAULT_URL = "sqlite:///tarot-arena.db"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None: a database in memory), or a ValueError saying what
    is wrong with the URL. Nothing is created: a bad URL leaves no folder behind."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ValueError(f"{exc}: a SQLite file is sqlite:///FILE") from None
    if parsed.host or parsed.port or parsed.username:
        raise ValueError(f"a SQLite URL names no host ({parsed.host or parsed.username!r} "
                         f"here): its file comes after three slashes, sqlite:///arena.db for "
                         f"arena.db in the current folder, four for an absolute path "
                         f"(sqlite:////home/me/arena.db)")
    if parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def make_engine(url: str = DEFAULT_URL) -> Engine:
    """An engine for ``url``, its schema migrated to the latest revision (a SQLite file's
    folder is created once the URL is known to be good)."""
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        memory = path is None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if memory else None,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    from .migrate import upgrade

    upgrade(engine)
    return engine


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
