"""A local compare played by workers: in this process, on this machine's cores, or by
``tarot-arena worker`` processes anywhere that reach the database.

Whoever plays the boards, the verdict is the test fed with the completed prefix of boards in
board order (:class:`~tournaments.play.compare.Boards`): boards finished past a gap wait for
it, and boards played after the test decided are stored but never counted. So the verdict, its
board count, the exit code and ``--json`` depend only on the seed and the bots, never on how
many workers played nor in which order they finished.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from typing import Any

import trio

from ..duplicate.settings import TournamentSettings
from ..duplicate.sprt import Status
from ..play.compare import (
    Boards,
    CompareConfig,
    CompareError,
    StatusFn,
    conclude,
    finish,
    load,
    not_cancelled,
)
from ..play.runner import LEASE
from ..storage.work import WorkQueue
from ..store import TournamentStore
from .pins import pin_of
from .processes import Pool, WorkerOptions, run_pool
from .worker import LocalBots, Worker

WATCH = 0.5
"""Seconds between looks at the database while workers play."""


def local_specs(settings: TournamentSettings, config: CompareConfig) -> dict[str, str]:
    """The spec of each bot of a local compare, by bot id."""
    specs = (config.candidate, config.baseline, *([config.filler] if config.filler else []))
    return dict(zip(settings.bots, specs, strict=True))


def pin_compare(store: TournamentStore, tournament_id: str, bots: Mapping[str, Any],
                local: LocalBots) -> None:
    """Queue a local compare for workers, its bots (loaded here, by bot id) pinned."""
    settings, config, _ = load(store, tournament_id)
    specs = local_specs(settings, config)
    WorkQueue(store).pin(tournament_id, {b: pin_of(specs[b], bots[b], local.resolve(specs[b]))
                                         for b in specs})


def given_up(store: TournamentStore, tournament_id: str, boards: Boards) -> str | None:
    """Why the test cannot go on: the next board it needs was given up after failing."""
    for failure in WorkQueue(store).failures(tournament_id):
        if failure.given_up and failure.board == boards.test.n:
            return (f"board {failure.board} of {tournament_id} failed {failure.failures} times "
                    f"(last on {failure.worker}: {failure.last_error}) and was given up: fix "
                    f"the bot, then delete the compare or start a new one")
    return None


async def play_here(
    store: TournamentStore, tournament_id: str, bots: Mapping[str, Any], local: LocalBots,
    on_status: StatusFn | None = None, *, auction_bot: Any = None, lease: float = LEASE,
) -> Status:
    """Play the compare in this process, as one worker does (``bots``: by bot id), until the
    test decides; ``on_status`` hears the test after every board it counts (first where it
    stands, when resumed). Boards other processes hold are not waited for: the compare then
    stops, saying who holds them."""
    _, _, boards = await trio.to_thread.run_sync(load, store, tournament_id)
    if on_status is not None and boards.test.n:
        on_status(boards.test.status())

    async def after_group(_: str) -> None:
        await trio.to_thread.run_sync(boards.refresh, store, tournament_id, on_status)

    if boards.test.verdict is None:
        await trio.to_thread.run_sync(not_cancelled, store, tournament_id, boards)
        worker = Worker(store, local, name="compare", only={tournament_id}, lease=lease,
                        exit_when_idle=True, wait_elsewhere=False, after_group=after_group,
                        bots=bots, auction_bot=auction_bot, say=lambda _: None)
        await worker.run()
        await trio.to_thread.run_sync(boards.refresh, store, tournament_id, on_status)
    return await trio.to_thread.run_sync(functools.partial(
        conclude, store, tournament_id, boards,
        lambda: given_up(store, tournament_id, boards)))


def watch(store: TournamentStore, tournament_id: str, on_status: StatusFn | None = None, *,
          pool: Pool | None = None, every: float = WATCH,
          sleep: Callable[[float], None] = time.sleep) -> Status:
    """Follow a compare that workers play (``pool``: this machine's, else others anywhere)
    until the test decides, or nothing is left to wait for: the workers of ``pool`` all
    exited, the compare was cancelled, or the next board was given up."""
    _, _, boards = load(store, tournament_id)
    if on_status is not None and boards.test.n:
        on_status(boards.test.status())
    while boards.test.verdict is None:
        not_cancelled(store, tournament_id, boards)
        if given_up(store, tournament_id, boards) is not None:
            break
        if pool is not None and not pool.alive():
            break
        sleep(every)
        boards.refresh(store, tournament_id, on_status)
    if boards.test.verdict is not None:
        finish(store, tournament_id)  # every worker stops its work on it at the next table
    return conclude(store, tournament_id, boards, lambda: given_up(store, tournament_id, boards))


def play_on_processes(store: TournamentStore, url: str, tournament_id: str, jobs: int,
                      local: LocalBots, on_status: StatusFn | None = None, *,
                      lease: float = LEASE) -> Status:
    """Play the compare on ``jobs`` worker processes of this machine, following its test
    here; the workers exit once it is decided (or nothing is left for them)."""
    status: list[Status] = []

    def follow(pool: Pool) -> None:
        status.append(watch(store, tournament_id, on_status, pool=pool))

    options = WorkerOptions(url, local, name="compare", only=frozenset({tournament_id}),
                            lease=lease, poll=WATCH, exit_when_idle=True, quiet=True)
    run_pool(options, jobs, follow)
    if not status:
        raise CompareError(f"the workers of {tournament_id} stopped before its test decided")
    return status[0]
