"""Serving the web page with Hypercorn's trio worker: beside the arena, or on its own.

With TLS (the arena's :class:`~arena.transport.tls.ServerTls`), the page is served over HTTPS
only, and a renewed certificate is taken up as gRPC takes it up: each new handshake asks the
files whether they changed (:meth:`ServerTls.refresh`), and once they have, the handshake and
those after it switch to a context made from the new files. Open pages, their live updates
included, keep the connection they have."""

from __future__ import annotations

import functools
import logging
import ssl

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from sqlalchemy.engine import Engine
from starlette.applications import Starlette

from arena.transport.tls import ServerTls

from ..play.stopping import until_told_to_stop
from .app import POLL_SECONDS, create_app

DEFAULT_WEB_PORT = 8080
log = logging.getLogger(__name__)


class RenewingConfig(Config):
    """Hypercorn's configuration with TLS from the arena's files, renewed without a restart.

    Hypercorn makes one SSL context when it starts listening; its ``sni_callback``, which
    Python runs on every handshake (with or without SNI), gives the connection the context of
    the latest servable files."""

    def __init__(self, tls: ServerTls) -> None:
        super().__init__()
        self.tls = tls
        self.served = tls.info
        """The certificate at start: the files are read and checked here, before listening
        (:class:`~arena.transport.tls.TlsConfigError`)."""
        self.certfile = str(tls.cert)
        self.keyfile = str(tls.key)
        self._latest: ssl.SSLContext | None = None
        self._generation = tls.renewals

    def create_ssl_context(self) -> ssl.SSLContext | None:
        listening = super().create_ssl_context()
        assert listening is not None
        self._latest = listening
        listening.sni_callback = self._choose
        return listening

    def _choose(self, connection: ssl.SSLObject | ssl.SSLSocket, server_name: str | None,
                listening: ssl.SSLContext) -> None:
        try:
            self.tls.refresh()
            if self.tls.renewals != self._generation:
                self._generation = self.tls.renewals
                self._latest = super().create_ssl_context()
            if self._latest is not None and self._latest is not listening:
                connection.context = self._latest
        except Exception:  # never fail a handshake over a renewal: keep what was served
            log.exception("the web page could not take up the renewed certificate")


def web_config(host: str, port: int, tls: ServerTls | None = None) -> Config:
    config = Config() if tls is None else RenewingConfig(tls)
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
    tls: ServerTls | None = None,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
    app: Starlette | None = None,
    **limits: int,
) -> None:
    """Serve the page until cancelled (over HTTPS only with ``tls``); ``nursery.start`` gets
    the URLs it listens on. ``app``: one of :func:`create_app`'s (default: a new one,
    ``limits`` on its live streams as :func:`create_app` takes them)."""
    app = app if app is not None else create_app(engine, poll, **limits)
    config = web_config(host, port, tls)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app.state.page.keep_fresh)
        await serve(app, config, task_status=task_status)  # type: ignore[arg-type]
        nursery.cancel_scope.cancel()


def run_web(engine: Engine, host: str, port: int, announce: object = print,
            tls: ServerTls | None = None) -> None:
    """``tarot-arena web``: the page alone, until Ctrl-C (or SIGTERM)."""

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            urls = await nursery.start(functools.partial(serve_web, tls=tls), engine, host, port)
            announce(f"web page on {', '.join(urls)}")  # type: ignore[operator]

    trio.run(until_told_to_stop, main)
