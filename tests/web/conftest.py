"""A real database with a finished, a running and a sealed tournament, and the web page
served on it by Hypercorn's trio worker on a loopback port, in a thread of its own (the
tests are plain functions, and so is the browser they drive).

The database is built once per module, on SQLite and, when ``TAROT_ARENA_TEST_PG_URL`` is set
(always under CI), on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import functools
import queue
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio
from sqlalchemy.engine import Engine

from arena.storage.db import make_engine
from tests.conftest import fresh_database
from tests.web.arena_data import ArenaData, build
from tournaments.store import TournamentStore
from tournaments.web import create_app, serve_web
from tournaments.web.app import WebPage


class WebServer:
    """The page on ``engine``, served from a thread until :meth:`stop`."""

    def __init__(self, engine: Engine, poll: float = 0.2, **limits: int) -> None:
        self.engine = engine
        self.poll = poll
        self.app = create_app(engine, poll, **limits)
        self.page: WebPage = self.app.state.page
        self.url = ""
        self._ready: queue.Queue[str | BaseException] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="web-page", daemon=True)
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None

    def _run(self) -> None:
        async def main() -> None:
            self._token = trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                self._scope = nursery.cancel_scope
                urls = await nursery.start(
                    functools.partial(serve_web, poll=self.poll, app=self.app), self.engine,
                    "127.0.0.1", 0)
                self._ready.put(urls[0])

        try:
            trio.run(main)
        except BaseException as exc:  # reported to the test that waits for the server
            self._ready.put(exc)

    def start(self) -> WebServer:
        self._thread.start()
        ready = self._ready.get(timeout=30)
        if isinstance(ready, BaseException):
            raise ready
        self.url = ready
        return self

    def stop(self) -> None:
        if self._token is not None and self._scope is not None:
            trio.from_thread.run_sync(self._scope.cancel, trio_token=self._token)
        self._thread.join(timeout=10)


@dataclass
class Site:
    url: str
    data: ArenaData

    def get(self, path: str) -> tuple[int, str, dict[str, str]]:
        """(status, body, headers) of a GET."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as response:
                return (response.status, response.read().decode(),
                        {k.lower(): v for k, v in response.headers.items()})
        except urllib.error.HTTPError as error:
            return (error.code, error.read().decode(),
                    {k.lower(): v for k, v in error.headers.items()})


@contextlib.contextmanager
def serving(kind: str, folder: Path) -> Iterator[Site]:
    """The page over a fresh database holding the tournaments of :mod:`arena_data`."""
    for url in fresh_database(kind, folder, prefix="arena_web_"):
        engine = make_engine(url)
        data = build(TournamentStore(engine))
        server = WebServer(engine).start()
        try:
            yield Site(server.url, data)
        finally:
            server.stop()
            engine.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[Site]:
    with serving(request.param, tmp_path_factory.mktemp("web")) as served:
        yield served
