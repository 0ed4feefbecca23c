"""Serving the arena and running tournaments with a live progress display."""

from __future__ import annotations

import functools
import io
import itertools
import logging
import math
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import trio
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from arena.storage.bots import BotRegistry
from arena.storage.models import TableStatus, TournamentStatus
from arena.transport.server import ArenaServer
from arena.transport.tls import ServerTls

from ..duplicate.scoring import Standings
from ..store import TournamentStore
from . import awaited
from .arena import Arena
from .remote import RemoteArena
from .runner import TableDone, TournamentRunner
from .stopping import until_told_to_stop

log = logging.getLogger(__name__)

AlsoServed = Callable[[RemoteArena, trio.Semaphore, Console], Awaitable[None]]
"""Played beside the tournaments on the same arena and budget of tables (the ladders)."""


def _columns() -> tuple[ProgressColumn, ...]:
    return (
        TextColumn("[bold]{task.description}"), BarColumn(bar_width=20), MofNCompleteColumn(),
        TextColumn("tables"), TimeElapsedColumn(), TimeRemainingColumn(),
    )


class TournamentProgress(Progress):
    """Each tournament's bar, then its figures on a line of their own: one line of both was
    cut to ellipses in an 80-column terminal.

    While it is shown on a terminal, the log lines meant for the screen are printed by its
    console, above the bars: written straight to the terminal, a line landed in the middle
    of the display, which then drew over it.
    """

    def __init__(self, console: Console) -> None:
        super().__init__(*_columns(), console=console, transient=False)
        self._diverted: list[tuple[logging.StreamHandler[Any], Any]] = []

    def start(self) -> None:
        super().start()
        if self.console.is_terminal and not self._diverted:
            above = ConsoleLines(self.console)
            for handler in screen_handlers():
                self._diverted.append((handler, handler.setStream(above)))

    def stop(self) -> None:
        try:
            for handler, stream in reversed(self._diverted):
                handler.flush()
                handler.setStream(stream)
            self._diverted.clear()
        finally:
            super().stop()

    def get_renderables(self) -> Iterable[RenderableType]:
        for task in self.tasks:
            yield self.make_tasks_table([task])
            fields = task.fields
            yield Text(f"  boards {fields.get('boards', 0)}/{fields.get('board_total', 0)}"
                       f"  running {fields.get('running', 0)}"
                       f"  infractions {fields.get('infractions', 0)}", overflow="fold")


class ConsoleLines(io.TextIOBase):
    """A stream that prints each whole line it is given with ``console`` (as plain text: a log
    line's brackets are no markup), so that a live display shows it above itself."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._partial = ""
        self._lock = threading.Lock()  # log lines may come from any thread

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._partial = (self._partial + text).split("\n")
            for line in lines:
                self.console.print(Text(line, overflow="fold"), highlight=False)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            if self._partial:
                self.console.print(Text(self._partial, overflow="fold"), highlight=False)
                self._partial = ""


def screen_handlers() -> list[logging.StreamHandler[Any]]:
    """The log handlers that write to a terminal (not files, not pipes), of every logger."""
    loggers = [logging.getLogger(), *(logger for logger in logging.root.manager.loggerDict
                                      .values() if isinstance(logger, logging.Logger))]
    found: list[logging.StreamHandler[Any]] = []
    for logger in loggers:
        for handler in logger.handlers:
            if (isinstance(handler, logging.StreamHandler)
                    and not isinstance(handler, logging.FileHandler)
                    and not isinstance(handler.stream, ConsoleLines)
                    and _is_terminal(handler.stream) and handler not in found):
                found.append(handler)
    return found


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def waiting_line(name: str, names: tuple[str, ...]) -> str:
    """The line printed whenever the bots a tournament waits for change."""
    if not names:
        return f"{escape(name)}: no longer waiting for bots"
    return f"{escape(name)}: [yellow]waiting for: {escape(', '.join(names))}[/yellow]"


async def play_with_progress(
    store: TournamentStore,
    arena: Arena,
    tournament_id: str,
    bar: Progress,
    *,
    concurrency: int = 8,
    seat_timeout: float | None,
    slots: trio.Semaphore | None = None,
) -> Standings:
    """Run one tournament as a task of ``bar``: boards, tables, ETA, infractions, and a line
    naming the bots awaited each time that list changes (from the start)."""
    settings = await trio.to_thread.run_sync(store.settings, tournament_id)
    start = await trio.to_thread.run_sync(store.progress, tournament_id)
    tables = await trio.to_thread.run_sync(store.tables, tournament_id)
    per_board = Counter(t.board_number for t, _ in tables)
    done_per_board = Counter(t.board_number for t, _ in tables if t.status.value == "done")
    boards_done = sum(1 for b, n in per_board.items() if done_per_board[b] == n)
    task = bar.add_task(
        escape(settings.name), total=start.total, completed=start.done, boards=boards_done,
        board_total=settings.boards, running=0, infractions=start.infractions,
    )
    runner: TournamentRunner

    def table_done(done: TableDone) -> None:
        nonlocal boards_done
        done_per_board[done.board] += 1
        if done_per_board[done.board] == per_board[done.board]:
            boards_done += 1
        bar.update(task, completed=done.progress.done, boards=boards_done,
                   running=len(runner.running), infractions=done.progress.infractions)

    def waiting(names: tuple[str, ...]) -> None:
        awaited.note(tournament_id, names)  # for the web page too
        bar.console.print(waiting_line(settings.name, names), highlight=False)

    runner = TournamentRunner(store, arena, tournament_id, concurrency=concurrency,
                              seat_timeout=seat_timeout, on_table_done=table_done,
                              on_waiting=waiting, slots=slots)
    async with trio.open_nursery() as nursery:
        async def tick() -> None:
            for beat in itertools.count():
                if beat % 8 == 7:  # tables played by other arenas sharing the database
                    now = await trio.to_thread.run_sync(store.progress, tournament_id)
                    bar.update(task, completed=now.done, infractions=now.infractions)
                bar.update(task, running=len(runner.running))
                await trio.sleep(0.25)

        nursery.start_soon(tick)
        try:
            standings = await runner.run()
        finally:
            nursery.cancel_scope.cancel()
    return standings


async def run_with_progress(
    store: TournamentStore,
    arena: Arena,
    tournament_id: str,
    concurrency: int,
    seat_timeout: float | None,
    console: Console,
) -> Standings:
    """Run one tournament on ``arena``, showing its progress."""
    with TournamentProgress(console) as bar:
        return await play_with_progress(store, arena, tournament_id, bar,
                                        concurrency=concurrency, seat_timeout=seat_timeout)


def run_tournament_live(
    store: TournamentStore,
    tournament_id: str,
    *,
    host: str,
    port: int,
    concurrency: int,
    seat_timeout: float | None,
    console: Console,
    admin_token: str | None = None,
    web_port: int | None = None,
    tls: ServerTls | None = None,
) -> Standings:
    """Serve the arena and play one tournament; :class:`BotsMissingError` once no table could
    be seated for ``seat_timeout`` seconds (None: wait for the bots forever). With ``tls``, the
    arena and its web page are served over TLS only."""

    async def main() -> Standings:
        server = ArenaServer(BotRegistry(store.engine), admin_token, host=host, port=port,
                             tls=tls)
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(server.serve)
            await start_web_page(nursery, store, host, web_port, console, tls)
            console.print(f"arena listening on {host}:{bound}")
            if admin_token is None:
                console.print(f"admin token for this run: [bold]{server.admin_token}[/bold]")
            standings = await run_with_progress(
                store, RemoteArena(server), tournament_id, concurrency, seat_timeout, console
            )
            await dismiss_if_done(server, store, tournament_id, keep_busy=False)
            nursery.cancel_scope.cancel()
        return standings

    return trio.run(until_told_to_stop, main)


def serve_forever(
    store: TournamentStore,
    *,
    host: str,
    port: int,
    admin_token: str | None,
    concurrency: int,
    console: Console,
    poll: float = 2.0,
    web_port: int | None = None,
    retry: float = 30.0,
    tls: ServerTls | None = None,
    also: AlsoServed | None = None,
    also_busy: Callable[[], set[str]] = set,
) -> None:
    """Serve until Ctrl-C, playing every unfinished tournament at once, oldest first, within
    one budget of ``concurrency`` tables.

    A tournament whose bots are not connected waits (its progress names them) without holding
    up the others, and goes on when they connect; tournaments created meanwhile are picked up
    within ``poll`` seconds. One that fails (say, its database rows vanished) is reported in one
    line and tried again after ``retry`` seconds; serving goes on. With ``tls``, the arena and
    its web page are served over TLS only. ``also`` runs beside them (the ladders), whose bots
    ``also_busy`` names: a finished tournament never dismisses them.
    """

    async def main() -> None:
        server = ArenaServer(BotRegistry(store.engine), admin_token, host=host, port=port,
                             tls=tls)
        arena = RemoteArena(server)
        slots = trio.Semaphore(concurrency)
        active: set[str] = set()
        failed: dict[str, float] = {}
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(server.serve)
            await start_web_page(nursery, store, host, web_port, console, tls)
            console.print(f"arena listening on {host}:{bound}")
            if admin_token is None:
                console.print(f"admin token for this run: [bold]{server.admin_token}[/bold]")
            with TournamentProgress(console) as bar:
                if also is not None:
                    nursery.start_soon(also, arena, slots, bar.console)

                async def play(tournament_id: str, name: str) -> None:
                    try:
                        await play_with_progress(store, arena, tournament_id, bar,
                                                 seat_timeout=None, slots=slots)
                    except Exception as exc:  # one tournament's failure is not serve's
                        log.debug("tournament %s failed", tournament_id, exc_info=True)
                        while isinstance(exc, ExceptionGroup) and len(exc.exceptions) == 1:
                            exc = exc.exceptions[0]
                        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                        bar.console.print(f"[red]tournament {tournament_id} "
                                          f"({escape(name)}) failed:[/red] {escape(first)}")
                        failed[tournament_id] = trio.current_time()
                    else:
                        row = await trio.to_thread.run_sync(store.tournament, tournament_id)
                        bar.console.print(f"tournament {tournament_id} ({escape(name)}) "
                                          f"{row.status.value}")
                        await dismiss_if_done(server, store, tournament_id, keep_busy=True,
                                              busy_elsewhere=also_busy)
                    finally:
                        active.discard(tournament_id)

                while True:
                    tournaments = await trio.to_thread.run_sync(store.list)
                    for tournament in tournaments:
                        tid = tournament.id
                        if tid in active or tournament.status in (
                                TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
                            continue
                        if trio.current_time() - failed.get(tid, -math.inf) < retry:
                            continue
                        work = await trio.to_thread.run_sync(store.open_work, tid)
                        if work.finished:
                            await trio.to_thread.run_sync(store.settle_status, tid)
                            continue
                        bar.console.print(f"playing tournament {tid} "
                                          f"({escape(tournament.name)})")
                        settings = await trio.to_thread.run_sync(store.settings, tid)
                        server.expect(settings.bots)
                        active.add(tid)
                        nursery.start_soon(play, tid, tournament.name)
                    await trio.sleep(poll)

    try:
        trio.run(until_told_to_stop, main)
    except* KeyboardInterrupt:  # trio may wrap it in an exception group
        console.print("stopped")


async def dismiss_if_done(
    server: ArenaServer, store: TournamentStore, tournament_id: str, *, keep_busy: bool,
    busy_elsewhere: Callable[[], set[str]] = set,
) -> None:
    """Once a tournament has no table left, tell its bots (so that they can exit rather than
    reconnect forever): all of them when the arena stops next (``tournament run``), or, when
    it goes on serving (``keep_busy``), those no unfinished tournament has a table for."""
    progress = await trio.to_thread.run_sync(store.progress, tournament_id)
    if progress.pending or progress.running:
        return
    settings = await trio.to_thread.run_sync(store.settings, tournament_id)
    busy = await trio.to_thread.run_sync(bots_with_tables_left, store) if keep_busy else set()
    busy |= busy_elsewhere()
    server.dismiss([bot for bot in settings.bots if bot not in busy],
                   f"tournament {tournament_id} ({settings.name}) is over")


def bots_with_tables_left(store: TournamentStore) -> set[str]:
    """Bots seated at a table not yet played in any unfinished tournament."""
    busy: set[str] = set()
    for tournament in store.list():
        if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            continue
        for table, seats in store.tables(tournament.id):
            if table.status != TableStatus.DONE:
                busy.update(seat.bot_id for seat in seats)
    return busy


async def start_web_page(
    nursery: trio.Nursery, store: TournamentStore, host: str, port: int | None,
    console: Console, tls: ServerTls | None = None,
) -> None:
    """The read-only web page beside the arena, in a process of its own (``port`` None: none;
    :mod:`tournaments.web.apart`), over HTTPS with the arena's certificate when it has one."""
    if port is None:
        return
    from ..web import serve_web

    urls = await nursery.start(functools.partial(serve_web, tls=tls), store.engine, host, port)
    console.print(f"web page on {', '.join(urls)}")
