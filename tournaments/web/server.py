"""Serving the web page with Hypercorn's trio worker: beside the arena, or on its own."""

from __future__ import annotations

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from sqlalchemy.engine import Engine
from starlette.applications import Starlette

from .app import POLL_SECONDS, create_app

DEFAULT_WEB_PORT = 8080


def web_config(host: str, port: int) -> Config:
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = "-"
    config.loglevel = "WARNING"  # the arena prints where the page is
    config.graceful_timeout = 1.0  # live pages hold a stream open: do not wait on them
    config.keep_alive_timeout = 30
    return config


async def serve_web(
    engine: Engine,
    host: str,
    port: int,
    *,
    poll: float = POLL_SECONDS,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
    app: Starlette | None = None,
    **limits: int,
) -> None:
    """Serve the page until cancelled; ``nursery.start`` gets the URLs it listens on.
    ``app``: one of :func:`create_app`'s (default: a new one, ``limits`` on its live
    streams as :func:`create_app` takes them)."""
    app = app if app is not None else create_app(engine, poll, **limits)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app.state.page.keep_fresh)
        await serve(app, web_config(host, port), task_status=task_status)  # type: ignore[arg-type]
        nursery.cancel_scope.cancel()


def run_web(engine: Engine, host: str, port: int, announce: object = print) -> None:
    """``tarot-arena web``: the page alone, until Ctrl-C."""

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            urls = await nursery.start(serve_web, engine, host, port)
            announce(f"web page on {', '.join(urls)}")  # type: ignore[operator]

    trio.run(main)
