"""Workers (``tarot-arena worker``) playing one compare from one database: how throughput
scales with workers, and where the database becomes the limit.

1. **Real bots, real processes**: one compare of the heuristic bot against the random one is
   played by 1, then by 2 worker processes of this machine (the same seed, each a compare of
   its own, in the same run), ``--boards`` boards (no verdict before: ``min_boards`` is the
   cap). Figures: tables a second between the first and the last commit (process start-up
   left out), wall time, and the ratio of 2 to 1.
2. **Simulation**: 1, 4 and 16 workers (trio tasks of this process, each with its own claims,
   leases and lease thread, as processes have) whose bots sleep ``--sleep`` ms a decision
   instead of computing, then 16 whose bots answer at once: with sleeping bots throughput
   should grow with the workers until the database (or this process's CPU, which plays every
   table runner) limits it; with instant bots it is the limit. Figures: tables a second, and
   the database's side: claims and commits a second, with the median and p95 time of one.

Needs PostgreSQL to mean anything across machines (``--db``, default
``TAROT_ARENA_BENCH_PG_URL`` or ``TAROT_ARENA_TEST_PG_URL``); without one it runs on a SQLite
file, where writers queue behind one another. Prints a line per level and one JSON line.

    python -m bench.workers [--db URL] [--boards N] [--sleep MS] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import trio

from arena.storage.db import make_engine
from clients.random_bot import RandomBot
from clients.run import load_bot
from clients.sdk import Action, DecisionRequest, TableView
from tournaments.cli.local_bots import SdkBots
from tournaments.duplicate.seatings import tables_per_board
from tournaments.duplicate.sprt import SprtSettings
from tournaments.play import compare
from tournaments.storage.work import WorkQueue
from tournaments.store import TournamentStore
from tournaments.work.compares import pin_compare
from tournaments.work.processes import WorkerOptions, run_pool
from tournaments.work.worker import Worker


class SleepyBot(RandomBot):
    """The random bot, after sleeping: a bot whose thinking costs time but no CPU."""

    def __init__(self, seed: int = 0, sleep: float = 0.0) -> None:
        super().__init__(seed)
        self.sleep = sleep

    async def decide(self, table: TableView, request: DecisionRequest  # type: ignore[override]
                     ) -> Action:
        if self.sleep:
            await trio.sleep(self.sleep)
        return self.rng_for(table).choice(request.legal_actions)


def new_compare(store: TournamentStore, candidate: str, baseline: str, boards: int,
                players: int = 4) -> str:
    """A compare that cannot decide before ``boards`` boards (its minimum is its cap)."""
    config = compare.CompareConfig(True, candidate, baseline,
                                   SprtSettings(0, 0.2, max_boards=boards, min_boards=boards),
                                   aa=candidate == baseline)
    ids = compare.local_bot_ids(store, candidate, baseline)
    return compare.create(store, config, ids, players=players, seed=2026, per_decision=60.0)


def rate(store: TournamentStore, tid: str) -> tuple[int, float]:
    """Tables done, and tables a second between the first board committed and the last
    (the first board's tables left out: they were played before the first commit)."""
    times = sorted(t.finished_at for t, _ in store.tables(tid) if t.finished_at is not None)
    per_board = tables_per_board(store.settings(tid))
    if len(times) <= per_board:
        return len(times), 0.0
    span = (times[-1] - times[0]).total_seconds()
    return len(times), (len(times) - per_board) / span if span > 0 else 0.0


def real_processes(url: str, store: TournamentStore, boards: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for jobs in (1, 2):
        tid = new_compare(store, "heuristic", "random", boards)
        pin_compare(store, tid, {b: load_bot(s, {}) for b, s in zip(
            store.settings(tid).bots, ("heuristic", "random"), strict=True)}, SdkBots())
        started = time.monotonic()
        run_pool(WorkerOptions(url, SdkBots(), name=f"bench-{jobs}", only=frozenset({tid}),
                               lease=10.0, poll=0.5, exit_when_idle=True, quiet=True), jobs)
        wall = time.monotonic() - started
        done, per_s = rate(store, tid)
        out[f"jobs_{jobs}"] = {"tables": done, "tables_per_s": round(per_s, 2),
                               "wall_s": round(wall, 1)}
        print(f"real bots, {jobs} worker process{'es' if jobs > 1 else ''}: {done} tables, "
              f"{per_s:.2f} tables/s between the first and last commit, {wall:.1f} s wall",
              file=sys.stderr)
    one, two = out["jobs_1"]["tables_per_s"], out["jobs_2"]["tables_per_s"]
    out["ratio_2_to_1"] = round(two / one, 2) if one else None
    print(f"  2 processes / 1: {out['ratio_2_to_1']}x", file=sys.stderr)
    return out


class TimedQueue(WorkQueue):
    """The queue with each claim's and commit's time taken."""

    def __init__(self, store: TournamentStore, claims: list[float], commits: list[float]
                 ) -> None:
        super().__init__(store)
        self.claims, self.commits = claims, commits

    def claim(self, *args: Any, **kwargs: Any) -> Any:
        return _timed(self.claims, super().claim, *args, **kwargs)

    def commit(self, *args: Any, **kwargs: Any) -> Any:
        return _timed(self.commits, super().commit, *args, **kwargs)


def _timed(into: list[float], fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    started = time.perf_counter()
    try:
        return fn(*args, **kwargs)
    finally:
        into.append(time.perf_counter() - started)


def simulate(url: str, store: TournamentStore, workers: int, sleep: float, boards: int
             ) -> dict[str, Any]:
    tid = new_compare(store, "random", "random", boards)
    bots = {b: SleepyBot(n, sleep) for n, b in enumerate(store.settings(tid).bots)}
    claims: list[float] = []
    commits: list[float] = []

    own = [TournamentStore(make_engine(url)) for _ in range(workers)]  # as processes have

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for n, mine in enumerate(own):
                worker = Worker(mine, SdkBots(), name=f"sim-{n}", only={tid}, exit_when_idle=True,
                                bots=bots, say=lambda _: None, poll=0.2)
                worker.queue = TimedQueue(mine, claims, commits)
                nursery.start_soon(worker.run)

    started = time.monotonic()
    trio.run(main)
    wall = time.monotonic() - started
    for mine in own:
        mine.engine.dispose()
    done, per_s = rate(store, tid)

    def ms(values: list[float], q: float) -> float:
        if not values:
            return 0.0
        ordered = sorted(values)
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    figures = {"workers": workers, "sleep_ms": round(sleep * 1000), "tables": done,
               "tables_per_s": round(per_s, 2), "wall_s": round(wall, 1),
               "claims_per_s": round(len(claims) / wall, 1),
               "commits_per_s": round(len(commits) / wall, 1),
               "claim_ms_p50": ms(claims, 0.5), "claim_ms_p95": ms(claims, 0.95),
               "commit_ms_p50": ms(commits, 0.5), "commit_ms_p95": ms(commits, 0.95)}
    print(f"simulated, {workers:2d} workers, bots sleeping {figures['sleep_ms']} ms: "
          f"{per_s:6.2f} tables/s; database: {figures['claims_per_s']} claims/s (p50 "
          f"{figures['claim_ms_p50']} ms, p95 {figures['claim_ms_p95']} ms), "
          f"{figures['commits_per_s']} commits/s (p50 {figures['commit_ms_p50']} ms, p95 "
          f"{figures['commit_ms_p95']} ms)", file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=os.environ.get("TAROT_ARENA_BENCH_PG_URL")
                        or os.environ.get("TAROT_ARENA_TEST_PG_URL"))
    parser.add_argument("--boards", type=int, default=24,
                        help="Boards of the real bots' compares.")
    parser.add_argument("--sleep", type=float, default=5.0,
                        help="Milliseconds each simulated decision sleeps.")
    parser.add_argument("--quick", action="store_true", help="Fewer boards.")
    args = parser.parse_args()
    folder = None
    url = args.db
    if not url:
        folder = tempfile.TemporaryDirectory()
        url = f"sqlite:///{folder.name}/bench.db"
        print("no PostgreSQL given (--db): on a SQLite file, whose writers queue",
              file=sys.stderr)
    store = TournamentStore(make_engine(url))
    boards = 8 if args.quick else args.boards
    figures: dict[str, Any] = {"database": store.engine.dialect.name,
                               "cores": len(os.sched_getaffinity(0))}
    figures["real"] = real_processes(url, store, boards)
    sim = []
    for workers in (1, 4, 16):
        sim.append(simulate(url, store, workers, args.sleep / 1000, max(4, workers * (1 if
                   args.quick else 2))))
    sim.append(simulate(url, store, 16, 0.0, 16 if args.quick else 32))
    figures["simulated"] = sim
    base = sim[0]["tables_per_s"]
    figures["speedup_16_sleeping"] = round(sim[2]["tables_per_s"] / base, 2) if base else None
    print(f"16 sleeping workers / 1: {figures['speedup_16_sleeping']}x; instant bots (the "
          f"database's and this process's limit): {sim[3]['tables_per_s']} tables/s, "
          f"{sim[3]['commits_per_s']} commits/s", file=sys.stderr)
    print(json.dumps(figures))
    if folder is not None:
        folder.cleanup()


if __name__ == "__main__":
    main()
