"""``tarot-arena worker --db postgresql://...``: play queued boards on this machine's cores.

Any number of workers, on any machine that reaches the database, play the boards of the
compares (``compare --local``, ``--workers-only``) and tournaments (``tarot-arena queue``)
queued for workers whose
bots they can load (bundled names or ``module:Class``, with the code pinned when the work was
queued: :mod:`tournaments.work.pins`). One line per board played, failed or refused. Ctrl-C
stops every process, each giving its boards back unplayed.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from ..storage.work import MAX_FAILURES, WorkQueue, backoff
from ..store import TournamentStore
from ..work.pins import pin_of
from ..work.processes import WorkerOptions, default_jobs, run_pool, work
from .bots import load_bot_spec
from .local_bots import SdkBots


class WorkerError(ValueError):
    """A worker that cannot start; the message says why."""


def add_command(app: typer.Typer, root_db: Callable[[], str], open_db: Callable[[str], str],
                console: Console, errors: Console,
                store_factory: Callable[[], TournamentStore]) -> None:
    """Register ``worker`` and ``queue`` on the CLI ``app``. ``root_db``: the database the
    command line names (``tarot-arena --db``); ``open_db(url)`` opens it (migrated) and says
    which it is."""

    @app.command("queue")
    def queue_cmd(
        tournament_id: Annotated[str, typer.Argument(help="A stored tournament.")],
        bots: Annotated[list[str], typer.Argument(
            help="BOT_ID=SPEC for each of its bots: the bot workers play for that id (a "
                 "bundled name or module:Class), its code pinned as it is here.")],
    ) -> None:
        """Queue a stored tournament for workers (``tarot-arena worker``), its bots played in
        the workers' processes. A compare --local is queued by the compare itself."""
        store = store_factory()
        settings = store.settings(tournament_id)
        if settings.seating.safe:
            raise WorkerError(f"{tournament_id} is a {settings.seating.value} seating, whose "
                              f"deals stay secret until it is finished: workers read the deals "
                              f"from the database, so it is played on an arena only")
        specs: dict[str, str] = {}
        for pair in bots:
            bot_id, sep, spec = pair.partition("=")
            if not (sep and bot_id and spec):
                raise WorkerError(f"bad {pair!r}: expected BOT_ID=SPEC, e.g. "
                                  f"{settings.bots[0]}=heuristic")
            if bot_id not in settings.bots:
                raise WorkerError(f"{bot_id} does not play in {tournament_id} (its bots: "
                                  f"{', '.join(dict.fromkeys(settings.bots))})")
            specs[bot_id] = spec
        missing = [b for b in dict.fromkeys(settings.bots) if b not in specs]
        if missing:
            raise WorkerError(f"give the code of every bot of {tournament_id}: "
                              f"{', '.join(missing)} missing (BOT_ID=SPEC)")
        queue = WorkQueue(store)
        known = queue.pins(tournament_id)
        for bot_id, spec in specs.items():
            if bot_id in known and known[bot_id].spec != spec:
                raise WorkerError(f"{tournament_id} is queued with {known[bot_id].spec} for "
                                  f"{bot_id}, not {spec}")
        sdk = SdkBots()
        pins = {b: pin_of(spec, load_bot_spec(spec), sdk.resolve(spec))
                for b, spec in specs.items()}
        queue.pin(tournament_id, pins)
        for bot_id, pin in queue.pins(tournament_id).items():
            console.print(f"{bot_id}: {escape(pin.spec)} (sha256 {pin.code_hash[:12]} over "
                          f"{escape(', '.join(pin.files))})", highlight=False)
        console.print(f"queued {tournament_id} for workers: tarot-arena worker --db URL",
                      highlight=False)

    @app.command("worker", epilog=(
        f"A board that fails is given back and retried after {backoff(1):g} s, then twice "
        f"as long each time, and given up after {MAX_FAILURES} failures; a process pauses "
        f"likewise after failures in a row."))
    def worker_cmd(
        db: Annotated[str | None, typer.Option(
            help="The database of the queued work, PostgreSQL to share it between machines "
                 "(postgresql+psycopg://USER:PASSWORD@HOST/DB; default: tarot-arena --db).")
        ] = None,
        jobs: Annotated[int | None, typer.Option(
            help="Worker processes (default: every core).")] = None,
        name: Annotated[str | None, typer.Option(
            help="Name shown on the compare's page (default: this host's name).")] = None,
        batch: Annotated[int, typer.Option(
            help="Boards each process claims at once.")] = 2,
        only: Annotated[list[str] | None, typer.Option(
            help="Play only this compare or tournament (repeatable).")] = None,
        exit_when_idle: Annotated[bool, typer.Option(
            "--exit-when-idle", help="Exit once nothing is left to play or wait for (else "
                                     "wait for new work).")] = False,
        lease: Annotated[float, typer.Option(
            help="Seconds a claimed board lives without renewal: a killed worker's boards "
                 "are replayed by another this long after.")] = 10.0,
        poll: Annotated[float, typer.Option(
            help="Seconds between looks at the queue when there is nothing to play.")] = 2.0,
    ) -> None:
        """Play queued boards whose bots run here, on every core, until Ctrl-C."""
        count = jobs if jobs is not None else default_jobs()
        if count < 1:
            raise WorkerError(f"bad --jobs {count}: at least 1")
        if batch < 1:
            raise WorkerError(f"bad --batch {batch}: at least 1")
        if not lease > 0 or not poll > 0:
            raise WorkerError("--lease and --poll are positive numbers of seconds")
        url = db or root_db()
        shown = open_db(url)
        who = name or socket.gethostname()
        options = WorkerOptions(url, SdkBots(), name=who[:90], batch=batch, lease=lease, poll=poll,
                                only=frozenset(only) if only else None,
                                exit_when_idle=exit_when_idle)
        errors.print(f"worker {escape(who)}: {count} process{'es' if count != 1 else ''} on "
                     f"{escape(socket.gethostname())}, database {escape(shown)}; Ctrl-C to "
                     f"stop", highlight=False)
        try:
            if count == 1:
                work(options)
            else:
                codes = run_pool(options, count)
                failed = [c for c in codes if c not in (0, None)]
                if failed:
                    raise WorkerError(f"{len(failed)} of {count} worker processes failed "
                                      f"(exit status {', '.join(map(str, failed))})")
        except KeyboardInterrupt:
            errors.print("worker stopped: the boards it held are given back", highlight=False)
