"""Workers on several processes of this machine: one :class:`~.worker.Worker` per process,
each with its own trio loop, database connections and bots (a bot's decisions are Python:
one core a process).

Processes are spawned (not forked: the parent may hold threads and connections that a fork
would copy half-way). Ctrl-C reaches every process of the terminal's group: each worker gives
its leases back and exits; the parent waits for them, and forwards the interrupt to those it
started should it be the only one told (``kill -INT`` of the parent).

A worker hears SIGINT and SIGTERM as a request to stop, not as an exception raised wherever
its code happens to be: the first cancels its work, and the ones after it (a second Ctrl-C,
the parent's forward, a service manager's SIGTERM) cannot interrupt the giving back. A
``KeyboardInterrupt`` raised half-way through it left boards claimed until their lease ran out.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

GRACE = 2.0
"""Seconds a worker has to stop by itself (Ctrl-C reached it too) before it is told."""
STOP_WAIT = 15.0
"""Seconds the parent waits for a worker told to stop before it terminates it."""


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    """What every worker process is told (picklable: it crosses the spawn)."""

    url: str
    local: Any
    """The bot SDK as workers use it (a :class:`~.worker.LocalBots`, picklable)."""
    name: str = ""
    only: frozenset[str] | None = None
    batch: int = 1
    lease: float = 10.0
    poll: float = 2.0
    exit_when_idle: bool = False
    wait_elsewhere: bool = True
    quiet: bool = False
    """No line per group on stdout (a compare's stdout is its verdict)."""


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def work(options: WorkerOptions) -> int:
    """One worker in this process until it is done or interrupted; the groups it played."""
    import trio

    from arena.storage.db import make_engine

    from ..play.stopping import until_told_to_stop
    from ..store import TournamentStore
    from .worker import Worker

    engine = make_engine(options.url)
    worker = Worker(TournamentStore(engine), options.local, name=options.name,
                    only=set(options.only) if options.only is not None else None,
                    lease=options.lease, poll=options.poll, batch=options.batch,
                    exit_when_idle=options.exit_when_idle,
                    wait_elsewhere=options.wait_elsewhere,
                    **({"say": lambda _: None} if options.quiet else {}))
    try:
        return trio.run(until_told_to_stop, worker.run).groups
    finally:
        engine.dispose()


def _child(options: WorkerOptions) -> None:
    with contextlib.suppress(KeyboardInterrupt):  # its leases are given back: a clean exit
        work(options)


class Pool:
    """``jobs`` worker processes, started at once; :meth:`wait` until they exit."""

    def __init__(self, options: WorkerOptions, jobs: int) -> None:
        if jobs < 1:
            raise ValueError("--jobs must be at least 1")
        context = multiprocessing.get_context("spawn")
        self.processes = [
            context.Process(target=_child, name=f"tarot-arena worker {n + 1}",
                            args=(_named(options, n, jobs),), daemon=False)
            for n in range(jobs)]

    def start(self) -> None:
        """Start every worker, SIGINT ignored until its loop listens for it: a Ctrl-C that
        comes while a worker imports cannot kill it half-started (with a traceback); its
        parent tells it again once it waited :data:`GRACE` s."""
        with _sigint_ignored():  # inherited through the exec
            for process in self.processes:
                process.start()

    def alive(self) -> bool:
        return any(p.is_alive() for p in self.processes)

    def wait(self, timeout: float | None = None) -> None:
        for process in self.processes:
            process.join(timeout)

    def stop(self) -> None:
        """Give the workers :data:`GRACE` s to stop by themselves (Ctrl-C reached them too),
        interrupt those still running (each gives its leases back), wait for them, and
        terminate any that does not exit within :data:`STOP_WAIT` s. Further Ctrl-Cs are
        ignored meanwhile: the workers are already stopping."""
        with _sigint_ignored():
            self._stop()

    def _stop(self) -> None:
        deadline = time.monotonic() + GRACE
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in self.processes:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGINT)
        for process in self.processes:
            process.join(STOP_WAIT)
            if process.is_alive():
                process.terminate()
                process.join(STOP_WAIT)

    def exit_codes(self) -> list[int | None]:
        return [p.exitcode for p in self.processes]


@contextlib.contextmanager
def _handling(signum: int, handler: Any) -> Iterator[None]:
    """``signum`` handled by ``handler`` in this process meanwhile (only the main thread may
    say so: elsewhere, as it was)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signum, handler)
    try:
        yield
    finally:
        signal.signal(signum, before)


def _sigint_ignored() -> contextlib.AbstractContextManager[None]:
    return _handling(signal.SIGINT, signal.SIG_IGN)


def _named(options: WorkerOptions, n: int, jobs: int) -> WorkerOptions:
    if not options.name or jobs == 1:
        return options
    return WorkerOptions(**{**_fields(options), "name": f"{options.name}-{n + 1}"})


def _fields(options: WorkerOptions) -> dict[str, Any]:
    return {name: getattr(options, name) for name in WorkerOptions.__slots__}


def run_pool(options: WorkerOptions, jobs: int,
             while_running: Callable[[Pool], None] | None = None) -> list[int | None]:
    """Start ``jobs`` workers, call ``while_running`` (if given) while they work, and wait for
    them (interrupted: stop them); their exit codes."""
    pool = Pool(options, jobs)
    with _stop_signals_interrupt():
        pool.start()
        try:
            if while_running is not None:
                while_running(pool)
            pool.wait()
        except BaseException:
            pool.stop()
            raise
    return pool.exit_codes()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _stop_signals_interrupt() -> Iterator[None]:
    """SIGINT and SIGTERM (a service manager's stop) raise ``KeyboardInterrupt`` meanwhile:
    the parent stops its workers instead of leaving them orphans. SIGINT too, whatever the
    parent inherited: started with it ignored (``tarot-arena worker &`` in a script, whose
    shell ignores SIGINT in background jobs), the parent sat out a ``kill -INT`` that its
    workers, which listen for it in trio, obeyed, and exited 0 without a word once they had;
    one sent to the parent alone did nothing at all."""
    with _handling(signal.SIGTERM, _interrupt), _handling(signal.SIGINT, _interrupt):
        yield
