"""Lease renewals while the trio loop is held: the lease keeper's thread against a renewal
task on the loop (the design it replaced), in the same run.

A fresh SQLite tournament has its tables claimed, half by each renewer; a trio task then
holds the loop (a pure-Python busy loop, as a CPU-heavy bot of ``compare --local`` does) for
``--hog`` seconds at a time, with a checkpoint between, for ``--seconds``. Each renewer renews
its claims every quarter of ``--lease``; the figure is the longest gap between two renewals
of each, against the lease: a gap past it is a lease that ran out (another arena, or this
one, could then claim the table). Also: the renewals made, and the median time of one.

Prints a line per renewer and one JSON line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.leases import LeaseKeeper
from tournaments.store import TournamentStore


class Timed:
    """``store.renew`` with the time each call ended and how long it took."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        self.ends: list[float] = []
        self.durations: list[float] = []

    def __call__(self, *args: Any) -> list[str]:
        began = time.perf_counter()
        lost = self.store.renew(*args)
        self.ends.append(time.perf_counter())
        self.durations.append(self.ends[-1] - began)
        return lost


def figures(name: str, timed: Timed, began: float, ended: float, lease: float) -> dict[str, Any]:
    marks = [began, *timed.ends, ended]
    gap = max(b - a for a, b in itertools.pairwise(marks))
    return {"renewer": name, "renewals": len(timed.ends), "longest_gap_s": round(gap, 3),
            "lease_s": lease, "lease_ran_out": gap > lease,
            "median_renewal_ms": round(statistics.median(timed.durations) * 1000, 2)
            if timed.durations else None}


async def measure(folder: Path, lease: float, hog: float, seconds: float) -> list[dict[str, Any]]:
    engine = make_engine(f"sqlite:///{folder / 'leases.db'}")
    store = TournamentStore(engine)
    registry = BotRegistry(engine)
    bots = tuple(registry.register(f"bot-{n}")[0].id for n in range(4))
    tid = store.create(TournamentSettings(name="leases", bots=bots, boards=1))
    claims: list[dict[str, str]] = [{}, {}]
    for number in range(4):
        worker = f"bench/{number}"
        claim = store.claim_next(tid, worker, lease)
        assert claim is not None
        claims[number % 2][claim.table_id] = worker
    on_loop, in_thread = Timed(store), Timed(store)
    keeper_store = TournamentStore(engine)
    keeper_store.renew = in_thread  # type: ignore[method-assign]
    keeper = LeaseKeeper(keeper_store, lease, claims[1].copy, lambda lost: None)

    async def renew_on_the_loop() -> None:
        while True:
            await trio.sleep(lease / 4)
            await trio.to_thread.run_sync(on_loop, claims[0], lease)

    async def hog_the_loop() -> None:
        while True:
            end = time.perf_counter() + hog
            while time.perf_counter() < end:
                pass
            await trio.sleep(0.01)

    began = time.perf_counter()
    keeper.start()
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(renew_on_the_loop)
            nursery.start_soon(hog_the_loop)
            await trio.sleep(seconds)
            nursery.cancel_scope.cancel()
    finally:
        ended = time.perf_counter()
        await trio.to_thread.run_sync(keeper.stop)
    return [figures("loop task", on_loop, began, ended, lease),
            figures("own thread", in_thread, began, ended, lease)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lease", type=float, default=1.0, help="seconds (default 1)")
    parser.add_argument("--hog", type=float, default=2.0,
                        help="seconds the loop is held at a time (default 2)")
    parser.add_argument("--seconds", type=float, default=10.0, help="run time (default 10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results = trio.run(measure, Path(folder), args.lease, args.hog, args.seconds)
    for row in results:
        print(f"{row['renewer']:>10}: {row['renewals']:4d} renewals, longest gap "
              f"{row['longest_gap_s']:.2f} s against a {row['lease_s']:g} s lease"
              f" ({'ran out' if row['lease_ran_out'] else 'held'}), one renewal "
              f"{row['median_renewal_ms']} ms (median)")
    print(json.dumps({"hog_s": args.hog, "seconds": args.seconds, "results": results}))


if __name__ == "__main__":
    main()
