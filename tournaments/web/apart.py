"""The web page beside the arena in a process of its own: what ``serve --web-port`` and
``tournament run --web-port`` start.

In the arena's process the page would share its interpreter lock: rendering standings and
writing to hundreds of live streams take turns with every decision of every table. In its own
process, at a lower priority, it takes none of the arena's turns; the arena's cost is this
small parent task (the bots awaited, sent on a pipe when they change). The child reads the
same database, so what it shows is what a page served anywhere else shows.

The child lives as long as the pipe: when the arena stops, or dies, its end closes and the page
stops with it; if the page's process dies, the arena goes on without it. An in-memory SQLite
database cannot be shared: its page is served in the arena's process, as before.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio
from sqlalchemy.engine import Engine
from starlette.applications import Starlette

from arena.transport.tls import ServerTls

from ..play import awaited
from .app import POLL_SECONDS
from .server import serve_web as serve_here

log = logging.getLogger(__name__)
DB_VARIABLE = "TAROT_ARENA_DB"
"""How the child gets the database's URL (its password too: not on a command line)."""
START_SECONDS = 60.0
NICENESS = 10
"""The page's process yields the processor to the arena's (and its bots') when both want it: its
live updates may then lag a little, the tables do not."""


class PageDidNotStart(OSError):
    """The page's process ended before it listened (the port taken, the database gone...)."""


def shareable(engine: Engine) -> bool:
    """Whether another process can open ``engine``'s database."""
    url = engine.url
    return not (url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"))


async def serve_web(
    engine: Engine,
    host: str,
    port: int,
    *,
    poll: float = POLL_SECONDS,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
    tls: ServerTls | None = None,
    app: Starlette | None = None,
    own_process: bool | None = None,
    **limits: int,
) -> None:
    """Serve the page until cancelled (over HTTPS only with ``tls``); ``nursery.start`` gets
    the URLs it listens on.

    ``own_process`` (default: whenever the database can be shared and no ``app`` is given):
    in a child process, so that the page never holds up the tables; otherwise in this one
    (:func:`tournaments.web.server.serve_web`)."""
    if own_process is None:
        own_process = app is None and shareable(engine)
    if not own_process:
        await serve_here(engine, host, port, poll=poll, tls=tls, task_status=task_status,
                         app=app, **limits)
        return
    await _serve_apart(engine, host, port, poll, tls, limits, task_status)


def _tls_files(tls: ServerTls | None) -> dict[str, str | None] | None:
    """The certificate's files for the child, which reads them (and their renewals) itself."""
    if tls is None:
        return None
    return {"cert": str(tls.cert), "key": str(tls.key),
            "client_ca": None if tls.client_ca is None else str(tls.client_ca)}


async def _serve_apart(engine: Engine, host: str, port: int, poll: float,
                       tls: ServerTls | None, limits: dict[str, int],
                       task_status: trio.TaskStatus[list[str]]) -> None:
    env = {**os.environ, DB_VARIABLE: engine.url.render_as_string(hide_password=False)}
    # Python's own allocator keeps every 1 MiB arena a single live object still pins: the
    # page would stay as large as at its busiest (+16 MB after 500 streams closed, measured).
    # The C library's, trimmed once the last stream closed (see feed.give_memory_back), gives
    # it back; the page's speed does not depend on the allocator's.
    env.setdefault("PYTHONMALLOC", "malloc")
    args = [sys.executable, "-m", "tournaments.web", json.dumps(
        {"host": host, "port": port, "poll": poll, "limits": limits, "tls": _tls_files(tls)})]
    process = await trio.lowlevel.open_process(args, env=env, stdin=subprocess.PIPE,
                                               stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    try:
        urls = await _announced(process.stdout)
        task_status.started(urls)
        await _send_awaited(process.stdin)
    finally:
        with trio.CancelScope(shield=True):
            await process.stdin.aclose()  # the child's cue to stop
            with trio.move_on_after(3):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()


async def _announced(stdout: trio.abc.ReceiveStream) -> list[str]:
    """The URLs the child listens on, from its first line."""
    buffer = b""
    with trio.fail_after(START_SECONDS):
        while b"\n" not in buffer:
            chunk = await stdout.receive_some()
            if not chunk:
                raise PageDidNotStart("the web page's process ended before it listened "
                                      "(its error is above)")
            buffer += chunk
    urls: list[str] = json.loads(buffer.split(b"\n", 1)[0])["urls"]
    return urls


async def _send_awaited(stdin: trio.abc.SendStream) -> None:
    """Every change of the bots awaited, to the child, for as long as the page runs. If the
    page's process ends (it crashed, or was killed), the arena goes on without its page."""
    seen = -1
    while True:
        seen, lists = awaited.snapshot()
        try:
            await stdin.send_all(json.dumps({"awaited": lists}).encode() + b"\n")
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            log.warning("the web page's process ended: the arena goes on without its page")
            return
        await trio.to_thread.run_sync(awaited.wait_change, seen, 5.0, abandon_on_cancel=True)


# ------------------------------------------------------------------------------- the child
def main(argv: list[str]) -> None:
    """The child: serve the page, report where, follow the parent's pipe until it closes."""
    from arena.storage.db import make_engine

    options: dict[str, Any] = json.loads(argv[0])
    files = options.get("tls")
    tls = None if files is None else ServerTls(
        Path(files["cert"]), Path(files["key"]),
        None if files["client_ca"] is None else Path(files["client_ca"]))
    engine = make_engine(os.environ[DB_VARIABLE])
    if hasattr(os, "nice"):  # when the cores are busy, the tables go first
        os.nice(NICENESS)

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            urls = await nursery.start(lambda task_status: serve_here(
                engine, options["host"], options["port"], poll=options["poll"], tls=tls,
                task_status=task_status, **options["limits"]))
            sys.stdout.write(json.dumps({"urls": urls}) + "\n")
            sys.stdout.flush()
            await trio.to_thread.run_sync(_follow_parent, abandon_on_cancel=True)
            nursery.cancel_scope.cancel()

    try:
        trio.run(run)
    except KeyboardInterrupt:  # Ctrl-C reaches the whole group: the parent says it
        pass
    finally:
        engine.dispose()


def _follow_parent() -> None:
    """Apply the parent's messages until its end of the pipe closes."""
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "awaited" in message:
            awaited.replace({k: tuple(v) for k, v in message["awaited"].items()})
