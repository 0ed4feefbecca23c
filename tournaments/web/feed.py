"""Live updates of tournament pages: one change feed per tournament page, shared by every
stream that listens to it, and the limits on how many streams may listen.

A feed looks for a change once per poll (one small query, shared by every page of the
tournament), renders the live part of the page once per change, in a worker thread, and hands
the same encoded event to each of its streams: five hundred viewers cost one render, not five
hundred. It runs while a stream listens and stops when the last one leaves, its snapshot
dropped with it. A stream that reads slowly only skips to the newest snapshot; nothing queues
up behind it.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import trio
from sqlalchemy.exc import OperationalError
from starlette.types import Receive, Scope, Send

from .views import NotFound

log = logging.getLogger(__name__)

MAX_STREAMS = 1000
"""Live streams open at once, in all."""
MAX_STREAMS_PER_CLIENT = 32
"""Live streams open at once from one address (a browser opens one per tab)."""
RETRY_AFTER_SECONDS = 30
KEEP_ALIVE_SECONDS = 15.0


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a feed found at one look: the event to send (encoded once for every stream), the
    version of what it shows, and whether the tournament is over or gone."""

    seq: int
    version: str
    event: bytes
    over: str | None = None
    """The status of a tournament that no longer changes (finished or cancelled)."""
    gone: bool = False
    """The tournament was deleted: its streams end."""


Build = Callable[[str | None], Snapshot | None]
"""Reads and renders the page's live part in a worker thread; None if what it would show is
the version given (the standings are still being recomputed)."""


class Feed:
    """One tournament page's changes, for every stream listening to it."""

    def __init__(self, key: tuple[str, int], version: Callable[[], str], build: Build,
                 poll: float, limiter: trio.CapacityLimiter) -> None:
        self.key = key
        self.streams = 0
        self.snapshot: Snapshot | None = None
        self.renders = 0
        """How many times it rendered the page's live part (a test counts them)."""
        self._version = version
        self._build = build
        self._poll = poll
        self._limiter = limiter
        self._changed = trio.Event()
        self.scope = trio.CancelScope()

    async def next(self, seen: int) -> Snapshot:
        """The first snapshot newer than ``seen`` (a sequence number), once there is one."""
        while self.snapshot is None or self.snapshot.seq <= seen:
            await self._changed.wait()
        return self.snapshot

    def _publish(self, version: str, event: bytes, over: str | None = None,
                 gone: bool = False) -> None:
        seq = self.snapshot.seq + 1 if self.snapshot is not None else 0
        self.snapshot = Snapshot(seq, version, event, over, gone)
        self._changed.set()
        self._changed = trio.Event()

    async def run(self) -> None:
        """Look for a change every poll until the tournament is over or gone, or the feed is
        stopped (its last stream left)."""
        with self.scope:
            shown: str | None = None
            while True:
                try:
                    version = await trio.to_thread.run_sync(self._version,
                                                            limiter=self._limiter)
                    if version != shown:
                        snapshot = await trio.to_thread.run_sync(self._build, shown,
                                                                 limiter=self._limiter)
                        if snapshot is not None:
                            self.renders += 1
                            shown = snapshot.version
                            self._publish(snapshot.version, snapshot.event, snapshot.over)
                            if snapshot.over is not None:
                                return  # nothing changes any more: the snapshot stays
                except OperationalError as exc:  # the database is busy: next time
                    log.info("live page of %s: %s", self.key[0], exc)
                except NotFound:  # deleted meanwhile
                    self._publish("", b"", gone=True)
                    return
                await trio.sleep(self._poll)


class Refused(Exception):
    """A stream the limits do not allow: its HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class Feeds:
    """Every running feed, and the streams open, in all and per address."""

    def __init__(self, poll: float, max_streams: int = MAX_STREAMS,
                 max_per_client: int = MAX_STREAMS_PER_CLIENT) -> None:
        self.poll = poll
        self.max_streams = max_streams
        self.max_per_client = max_per_client
        self.feeds: dict[tuple[str, int], Feed] = {}
        self.per_client: Counter[str] = Counter()
        self.open = 0
        self.limiter = trio.CapacityLimiter(2)
        """Worker threads the feeds may use at once: a page that renders never takes more of
        the process than this, however many tournaments are watched."""
        self.nursery: trio.Nursery | None = None
        """Where feeds run: set while the app is served (its lifespan)."""
        self._trimming = False

    def admit(self, client: str) -> None:
        """Count a new stream from ``client``, or refuse it (:class:`Refused`)."""
        if self.nursery is None:
            raise Refused(503, "Live updates are not served here: reload the page to see "
                               "the latest standings.")
        if self.open >= self.max_streams:
            raise Refused(503, f"Live updates are full ({self.max_streams} pages follow "
                               f"them): reload the page later to see the latest standings.")
        if self.per_client[client] >= self.max_per_client:
            raise Refused(429, f"Too many live pages from your address (at most "
                               f"{self.max_per_client}): close some of them, or reload "
                               f"this one later.")
        self.open += 1
        self.per_client[client] += 1

    def release(self, client: str) -> None:
        self.open -= 1
        self.per_client[client] -= 1
        if self.per_client[client] <= 0:
            del self.per_client[client]
        if not self.open and not self._trimming and self.nursery is not None:
            self._trimming = True
            self.nursery.start_soon(self._give_memory_back)

    async def _give_memory_back(self) -> None:
        """A second after the last stream closed (once, however many close meanwhile), and
        again once the idle worker threads have ended (trio keeps them 10 s), if none opened
        since: the memory the streams took goes back to the system."""
        try:
            for delay in (1.0, 12.0):
                await trio.sleep(delay)
                if self.open:
                    return
                give_memory_back()
        finally:
            self._trimming = False

    def join(self, key: tuple[str, int], version: Callable[[], str], build: Build) -> Feed:
        feed = self.feeds.get(key)
        if feed is None:
            assert self.nursery is not None  # admit() saw it
            feed = self.feeds[key] = Feed(key, version, build, self.poll, self.limiter)
            self.nursery.start_soon(feed.run)
        feed.streams += 1
        return feed

    def leave(self, feed: Feed) -> None:
        feed.streams -= 1
        if feed.streams <= 0 and self.feeds.get(feed.key) is feed:
            del self.feeds[feed.key]
            feed.scope.cancel()


class LiveStream:
    """A streamed response that stops as soon as its client leaves, and then gives its
    place back (``release``) whatever happened: a closed tab frees its slot and, if it was the
    last on its page, stops the feed."""

    def __init__(self, chunks: Callable[[], AsyncIterator[bytes]],
                 release: Callable[[], None], headers: dict[str, str]) -> None:
        self.chunks = chunks
        self.release = release
        self.headers = [(k.encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with trio.open_nursery() as nursery:

                async def until_disconnected() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    nursery.cancel_scope.cancel()

                nursery.start_soon(until_disconnected)
                await send({"type": "http.response.start", "status": 200,
                            "headers": self.headers})
                async for chunk in self.chunks():
                    await send({"type": "http.response.body", "body": chunk,
                                "more_body": True})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                nursery.cancel_scope.cancel()
        except OSError:  # the client went away while we wrote
            pass
        finally:
            self.release()


def event(name: str, data: str) -> bytes:
    """One server-sent event, encoded."""
    lines = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"event: {name}\n{lines}\n".encode()


def stream_of(feed: Feed, since: str | None) -> Callable[[], AsyncIterator[bytes]]:
    """The events one page gets from ``feed``: the live part again after each change since
    the state it was rendered from (``since``), then how the tournament ended."""

    async def chunks() -> AsyncIterator[bytes]:
        yield b"retry: 2000\n\n"
        seen, shown = -1, since
        while True:
            snapshot: Snapshot | None = None
            with trio.move_on_after(KEEP_ALIVE_SECONDS):
                snapshot = await feed.next(seen)
            if snapshot is None:
                yield b": still here\n\n"
                continue
            seen = snapshot.seq
            if snapshot.gone:
                return
            if snapshot.version != shown:
                shown = snapshot.version
                yield snapshot.event
            if snapshot.over is not None:
                yield event("finished", snapshot.over)
                return

    return chunks


def describe(feeds: Feeds) -> dict[str, Any]:
    """The feeds' state, for tests and the benchmark."""
    return {"open": feeds.open, "feeds": len(feeds.feeds),
            "clients": len(feeds.per_client)}



@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)  # glibc only
    return None if trim is None else trim  # type: ignore[no-any-return]


def give_memory_back() -> None:
    """Free what the closed streams left and return it to the system: a cancelled stream
    leaves its frames in reference cycles (its exception's traceback) that only the cycle
    collector frees, and glibc keeps freed blocks in its arenas, so the process would stay as
    large as at its busiest (+30 MB after 500 streams, measured)."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
