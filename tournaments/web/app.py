"""The read-only web page: a Starlette (ASGI) app, served by Hypercorn's trio worker.

Nothing here writes to the database: every route is a GET. Reads and page rendering run in a
worker thread (``trio.to_thread``), so a page never holds up the arena's event loop (the gRPC
server and the tables share it when the page is served by ``serve`` or ``tournament run``).
What may be shown is decided in :mod:`.views`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import jinja2
import trio
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..play import awaited
from .compare import compare_page
from .compare import context as compare_context
from .feed import (
    MAX_STREAMS,
    MAX_STREAMS_PER_CLIENT,
    RETRY_AFTER_SECONDS,
    Feeds,
    LiveStream,
    Refused,
    Snapshot,
    event,
    stream_of,
)
from .ladder import LadderPages
from .plot import cumulative_plot
from .replay import replay_page
from .views import (
    BOARDS_PER_PAGE,
    DONE_STATUSES,
    NotFound,
    TournamentData,
    WebData,
    dumps,
)

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
POLL_SECONDS = 1.0
"""How often a tournament's live feed looks for a change (one small query)."""

SECURITY_HEADERS = [
    # Nothing is fetched from outside the arena, and nothing inline runs.
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


# -------------------------------------------------------------------------------- filters
def signed(value: float | None, digits: int = 1) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    text = f"{value:+,.{digits}f}"
    return "0" if text.strip("+-0.,") == "" else text.replace("-", "−")


def p_value(p: float | None) -> str:
    if p is None:
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    if value < 0.001:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(["html", "svg"]),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
    )
    env.filters.update(signed=signed, p_value=p_value, seconds=seconds)
    env.globals.update(boards_per_page=BOARDS_PER_PAGE)
    return env


# --------------------------------------------------------------------------------- the app
class WebPage:
    """The routes, over one :class:`WebData`."""

    def __init__(self, data: WebData, poll: float = POLL_SECONDS, *,
                 max_streams: int = MAX_STREAMS,
                 max_streams_per_client: int = MAX_STREAMS_PER_CLIENT) -> None:
        self.data = data
        self.poll = poll
        self.env = _environment()
        self.feeds = Feeds(poll, max_streams, max_streams_per_client)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """While the app is served: the nursery its live feeds run in."""
        async with trio.open_nursery() as nursery:
            self.feeds.nursery = nursery
            try:
                yield
            finally:
                self.feeds.nursery = None
                nursery.cancel_scope.cancel()

    async def keep_fresh(self) -> None:
        """Recompute, in the background, the standings of the running tournaments someone
        looked at, as soon as a table finishes: a page load then finds them ready (a large
        tournament's standings take a second to compute; a cached page, milliseconds)."""
        while True:
            try:
                await trio.to_thread.run_sync(self.data.refresh)
            except OperationalError as exc:  # the database is busy: next time
                log.info("refreshing the page's standings: %s", exc)
            await trio.sleep(self.poll)

    async def _render(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = await trio.to_thread.run_sync(
            lambda: self.env.get_template(template).render(**context)
        )
        return HTMLResponse(html, status_code=status)

    async def _read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await trio.to_thread.run_sync(fn, *args)

    # ------------------------------------------------------------------------- pages
    async def index(self, request: Request) -> Response:
        rows = await self._read(self.data.tournaments)
        return await self._render("index.html", rows=rows, title="Tournaments")

    def _tournament_context(self, data: TournamentData, page: int) -> dict[str, Any]:
        order = [row.bot_id for row in data.standings.rows]
        boards = sorted(data.board_tables)
        pages = max(1, math.ceil(len(boards) / BOARDS_PER_PAGE))
        page = min(max(page, 1), pages)
        waits = None if data.head.status in DONE_STATUSES else awaited.of(data.head.id)
        return {
            "t": data, "head": data.head, "progress": data.progress, "names": data.names,
            "standings": data.standings, "order": order,
            "plot": cumulative_plot(data.cumulative, data.names, order,
                                    data.head.settings.boards),
            "boards": boards[(page - 1) * BOARDS_PER_PAGE: page * BOARDS_PER_PAGE],
            "page": page, "pages": pages, "title": data.head.name,
            "awaited": waits,
            "live_version": live_version(data.version, waits),
        }

    async def tournament(self, request: Request) -> Response:
        tid = request.path_params["tid"]
        page = _int_query(request, "page", 1)

        def build() -> str:
            data = self.data.tournament(tid)
            return self.env.get_template("tournament.html").render(
                **self._tournament_context(data, page))

        return HTMLResponse(await trio.to_thread.run_sync(build))

    async def events(self, request: Request) -> Response | LiveStream:
        """Server-sent events: the live part of a tournament's page, again after each change,
        from the tournament's one feed (see :mod:`.feed`).

        The stream ends once the tournament is finished or cancelled (its last event says
        which; the page then stops listening). Past the limits on open streams, a 503 (all
        of them) or a 429 (this address) with a one-line reason the page shows."""
        tid = request.path_params["tid"]
        page = _int_query(request, "page", 1)
        since = request.query_params.get("since")  # the state the page was rendered from
        head = await self._read(self.data.head, tid)  # an unknown id: a 404, not a stream
        # one feed per page of boards there can be: ?page=N cannot multiply the renders
        page = min(max(page, 1), max(1, math.ceil(head.settings.boards / BOARDS_PER_PAGE)))
        client = request.client.host if request.client is not None else ""
        try:
            self.feeds.admit(client)
        except Refused as refused:
            return Response(refused.reason + "\n", status_code=refused.status,
                            media_type="text/plain",
                            headers={"retry-after": str(RETRY_AFTER_SECONDS),
                                     "cache-control": "no-store"})

        def build(shown: str | None) -> Snapshot | None:
            data = self.data.tournament(tid)
            status = data.head.status
            context = self._tournament_context(data, page)
            version = context["live_version"]
            if version == shown:  # the standings are being recomputed: not new yet
                return None
            html = self.env.get_template("tournament_live.html").render(**context)
            return Snapshot(0, version, event("standings", html),
                            status.value if status in DONE_STATUSES else None)

        def version() -> str:  # what the page shows: the tables, and the bots awaited
            return live_version(self.data.recent_version(tid, self.poll * 0.9),
                                awaited.of(tid))

        feed = self.feeds.join((tid, page), version, build)

        def release() -> None:
            self.feeds.leave(feed)
            self.feeds.release(client)

        return LiveStream(stream_of(feed, since), release,
                          {"content-type": "text/event-stream; charset=utf-8",
                           "cache-control": "no-cache", "x-accel-buffering": "no"})

    async def board(self, request: Request) -> Response:
        tid, number = request.path_params["tid"], request.path_params["number"]
        info = await self._read(self.data.board, tid, number)
        data: TournamentData = info["data"]
        return await self._render("board.html", **info, head=data.head, names=data.names,
                                  title=f"{data.head.name}: board {number}")

    async def table(self, request: Request) -> Response:
        info = await self._read(self.data.table, request.path_params["table_id"])
        page = await trio.to_thread.run_sync(
            replay_page, info["game"], info["record"], info["decisions"], info["seats"],
            info["names"])
        t = info["table"]
        title = (f"{info['head'].name}: board {t.board_number}, table {t.number}")
        return await self._render("table.html", **info, **page.context(dumps), title=title)

    async def record(self, request: Request) -> Response:
        text = await self._read(self.data.record_json, request.path_params["table_id"])
        return Response(text, media_type="application/json",
                        headers={"content-disposition": "inline"})

    async def bot(self, request: Request) -> Response:
        info = await self._read(self.data.bot, request.path_params["bot_id"])
        return await self._render("bot.html", **info, title=info["bot"].name)

    # ------------------------------------------------------------------------ errors
    async def compare(self, request: Request) -> Response:
        """A compare's test and its workers (:mod:`.compare`)."""
        tid = request.path_params["tid"]

        def build() -> str:
            shown = compare_page(self.data.engine, tid)
            return self.env.get_template("compare.html").render(**compare_context(shown))

        return HTMLResponse(await trio.to_thread.run_sync(build))

    async def not_found(self, request: Request, exc: Exception) -> Response:
        detail = str(exc) if isinstance(exc, NotFound) else "There is no such page."
        if isinstance(exc, HTTPException) and exc.status_code != 404:
            return await self._render("error.html", status=exc.status_code,
                                      title=f"Error {exc.status_code}",
                                      message=exc.detail or "This request is not allowed.")
        return await self._render("error.html", status=404, title="Not found",
                                  message=detail.strip("'\""))

    async def busy(self, request: Request, exc: Exception) -> Response:
        log.warning("database busy: %s", exc)
        return await self._render(
            "error.html", status=503, title="Busy",
            message="The database is busy (the arena is writing to it). Try again in a moment.")

    async def failed(self, request: Request, exc: Exception) -> Response:
        log.exception("error on %s", request.url.path, exc_info=exc)
        return HTMLResponse(_plain_error_page(), status_code=500)


def _plain_error_page() -> str:
    # no template: whatever went wrong may have been the templates themselves
    return ("<!doctype html><html lang=en><meta charset=utf-8><title>Error</title>"
            "<link rel=stylesheet href=/static/style.css><main><h1>Something went wrong</h1>"
            "<p>The error is in the arena's log. <a href=/>All tournaments</a></p></main>")


def live_version(version: str, waits: tuple[str, ...] | None) -> str:
    """A tag of what the live part of a page shows: the tables' state (see
    :meth:`WebData.version`) and the bots awaited, which change no table."""
    if not waits:
        return version
    return version + "-" + hashlib.sha256("\n".join(waits).encode()).hexdigest()[:8]


def _int_query(request: Request, key: str, default: int) -> int:
    value = request.query_params.get(key)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise HTTPException(400, f"{key} must be a whole number") from None


def create_app(engine: Engine, poll: float = POLL_SECONDS, *,
               max_streams: int = MAX_STREAMS,
               max_streams_per_client: int = MAX_STREAMS_PER_CLIENT) -> Starlette:
    """The web page over ``engine``'s database (SQLite or PostgreSQL, possibly shared);
    at most ``max_streams`` live streams at once, ``max_streams_per_client`` per address."""
    page = WebPage(WebData(engine), poll, max_streams=max_streams,
                   max_streams_per_client=max_streams_per_client)
    get = ["GET"]  # Starlette answers HEAD for GET routes
    routes = [
        Route("/", page.index, methods=get),
        Route("/tournaments/{tid}", page.tournament, methods=get),
        Route("/tournaments/{tid}/events", page.events, methods=get),
        Route("/tournaments/{tid}/boards/{number:int}", page.board, methods=get),
        Route("/tables/{table_id}", page.table, methods=get),
        Route("/tables/{table_id}/record.json", page.record, methods=get),
        Route("/bots/{bot_id}", page.bot, methods=get),
        Route("/compares/{tid}", page.compare, methods=get),
        *LadderPages(engine, page._render, page._read).routes(),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    handlers: dict[Any, Any] = {
        NotFound: page.not_found,
        404: page.not_found,
        400: page.not_found,
        405: page.not_found,
        OperationalError: page.busy,
        500: page.failed,
        Exception: page.failed,
    }
    app = Starlette(routes=routes, exception_handlers=handlers,
                    middleware=[Middleware(SecurityHeaders)], lifespan=page.lifespan)
    app.state.page = page
    return app
