"""Spectators never hold up the tables: every live stream of a tournament's page shares one
change feed, rendered once per change; streams are limited in all and per address, with a
refusal the page can show; a closed stream gives its place back and the last one stops the
feed. And the page names the bots a tournament waits for, as the terminal does."""

from __future__ import annotations

import http.client
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.storage.db import make_engine
from tests.web.arena_data import ArenaData, build
from tests.web.conftest import WebServer
from tests.web.test_live import read_event
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play import awaited
from tournaments.store import TournamentStore

Served = tuple[ArenaData, Callable[..., WebServer]]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    data = build(TournamentStore(engine))
    servers: list[WebServer] = []

    def serve(**limits: int) -> WebServer:
        servers.append(WebServer(engine, **limits).start())
        return servers[-1]

    yield data, serve
    for server in servers:
        server.stop()
    engine.dispose()


class Stream:
    """A live stream opened from ``source`` (a loopback address of its own)."""

    def __init__(self, server: WebServer, tid: str, source: str = "127.0.0.1") -> None:
        host, port = server.url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30,
                                                     source_address=(source, 0))
        self.connection.request("GET", f"/tournaments/{tid}/events")
        self.response = self.connection.getresponse()

    def event(self) -> tuple[str, str]:
        return read_event(self.response)

    def close(self) -> None:
        self.response.close()
        self.connection.close()


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for the server's side of a closed connection (no timing is asserted)."""
    deadline = time.monotonic() + 30
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not {what}")
        time.sleep(0.05)


def test_every_stream_of_a_page_shares_one_feed_rendered_once_per_change(served: Served) -> None:
    data, serve = served
    server = serve()
    streams = [Stream(server, data.running) for _ in range(20)]
    first = [s.event() for s in streams]
    assert {name for name, _ in first} == {"standings"} and len({d for _, d in first}) == 1
    feeds = server.page.feeds
    assert list(feeds.feeds) == [(data.running, 1)]
    feed = feeds.feeds[(data.running, 1)]
    assert feed.streams == 20 and feed.renders == 1 and feeds.open == 20
    data.finish_running_table()
    after = [s.event() for s in streams]
    assert {d for _, d in after} == {after[0][1]} and "7 of 12 tables played" in after[0][1]
    assert feed.renders == 2  # one render for twenty streams
    # another tournament's page: a feed of its own
    other = Stream(server, data.sealed)
    assert other.event()[0] == "standings" and len(feeds.feeds) == 2
    for stream in streams:
        stream.close()
    until(lambda: list(feeds.feeds) == [(data.sealed, 1)] and feeds.open == 1,
          "released")
    assert feed.scope.cancel_called  # the last stream of its page stopped it
    other.close()
    until(lambda: not feeds.feeds and not feeds.open and not feeds.per_client, "released")


def test_streams_past_the_limits_are_refused_with_a_reason(served: Served) -> None:
    data, serve = served
    server = serve(max_streams=3, max_streams_per_client=2)
    feeds = server.page.feeds
    mine = [Stream(server, data.running) for _ in range(2)]
    assert all(s.response.status == 200 for s in mine)
    refused = Stream(server, data.running)
    assert refused.response.status == 429
    assert refused.response.getheader("retry-after") == "30"
    reason = refused.response.read().decode()
    assert reason.count("\n") == 1 and "Too many live pages from your address (at most 2)" in reason
    neighbour = Stream(server, data.running, "127.0.0.2")  # another address: room for it
    assert neighbour.response.status == 200
    full = Stream(server, data.running, "127.0.0.3")
    assert full.response.status == 503
    assert "Live updates are full (3 pages follow them)" in full.response.read().decode()
    assert feeds.open == 3 and feeds.per_client == {"127.0.0.1": 2, "127.0.0.2": 1}
    mine[0].close()  # a closed tab gives its place back
    until(lambda: feeds.open == 2, "released")
    again = Stream(server, data.running, "127.0.0.3")
    assert again.response.status == 200 and again.event()[0] == "standings"
    for stream in (mine[1], neighbour, again):
        stream.close()
    until(lambda: not feeds.open and not feeds.per_client and not feeds.feeds, "released")


def test_the_page_names_the_bots_a_tournament_waits_for(served: Served) -> None:
    data, serve = served
    server = serve()
    created = data.store.create(TournamentSettings(
        name="Waiting", bots=data.store.settings(data.running).bots, boards=1))
    page = server.page
    stream = Stream(server, created)
    _, before = stream.event()
    # a tournament no arena of this process plays: what the page can say
    assert "Waiting to be played: no table is being played now" in before
    try:
        awaited.note(created, ("heuristic", "random-1"))  # as the runner reports it
        name, waiting = stream.event()
        assert name == "standings"
        assert "Waiting for: heuristic, random-1 (registered, not connected" in waiting
        _, body = _get(server, f"/tournaments/{created}")
        assert "Waiting for: heuristic, random-1" in body
        awaited.note(created, ())
        assert "Waiting for" not in stream.event()[1]
    finally:
        awaited.replace({k: v for k, v in awaited.snapshot()[1].items() if k != created})
        stream.close()
    until(lambda: not page.feeds.open, "released")


def _get(server: WebServer, path: str) -> tuple[int, str]:
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    try:
        return response.status, response.read().decode()
    finally:
        connection.close()
