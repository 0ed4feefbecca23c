"""Worker processes on one PostgreSQL database, as on several machines: three
``tarot-arena worker`` processes, one killed (SIGKILL) while it holds a batch of boards; the
verdict and every stored result are those of one process playing alone."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from clients.run import load_bot
from tournaments.cli.local_bots import SdkBots
from tournaments.duplicate.sprt import SprtSettings
from tournaments.storage.work import WorkQueue
from tournaments.store import TournamentStore
from tournaments.work.compares import play_here, watch

from ..conftest import fresh_database
from ..processes import ROOT, environment
from .helpers import HEURISTIC, new_store, queued_compare

RANDOM = "random"
SEED = 8
FAST = SprtSettings(0, 0.2, max_boards=40, min_boards=8)
"""The heuristic bot against the random one decides at board 11 of seed 8."""


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    yield from fresh_database("postgres", tmp_path, prefix="arena_workers_")


def results(store: TournamentStore, tid: str, boards: int) -> dict[tuple[int, int], object]:
    """Every table of the first ``boards`` boards: its deal as played and its seats' bots (as
    candidate 0, baseline 1: ids differ between databases), scores and infractions."""
    which = {bot: str(n) for n, bot in enumerate(store.settings(tid).bots)}
    out: dict[tuple[int, int], object] = {}
    for table, seats in store.tables(tid):
        if table.board_number < boards:
            record = table.record_json or ""
            for bot, n in which.items():
                record = record.replace(bot, n)
            out[table.board_number, table.number] = (
                record, [(which[s.bot_id], s.score, s.infractions) for s in seats])
    return out


def test_three_workers_one_killed_mid_batch_store_what_one_process_does(
        pg_url: str, tmp_path: Path) -> None:
    alone = new_store(f"sqlite:///{tmp_path}/alone.db")
    alone_id = queued_compare(alone, seed=SEED, baseline=RANDOM, settings=FAST)
    bots = dict(zip(alone.settings(alone_id).bots,
                    (load_bot(HEURISTIC, {}), load_bot(RANDOM, {})), strict=True))
    expected = trio.run(play_here, alone, alone_id, bots, SdkBots())

    store = new_store(pg_url)
    tid = queued_compare(store, seed=SEED, baseline=RANDOM, settings=FAST)
    def worker(n: int) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-m", "tournaments.cli", "worker", "--db", pg_url, "--jobs", "1",
             "--batch", "3", "--lease", "3", "--poll", "0.2", "--exit-when-idle", "--name",
             f"w{n}"],
            cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)

    workers = [worker(0)]
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in workers[0].stdout or ()],
                     daemon=True).start()
    try:
        first = lines.get(timeout=120)
        while first.startswith("database: "):
            first = lines.get(timeout=120)
        # board 0 stored, boards 1 and 2 held: the others start, w0 is killed mid-batch
        assert first.startswith(f"w0: {tid} board 0: "), first
        workers += [worker(1), worker(2)]
        workers[0].send_signal(signal.SIGKILL)
        started = time.monotonic()

        def sleep(seconds: float) -> None:
            assert time.monotonic() - started < 120, "the workers did not finish the compare"
            time.sleep(seconds)

        status = watch(store, tid, sleep=sleep, every=0.2)
        for worker in workers[1:]:
            _, err = worker.communicate(timeout=60)
            assert worker.returncode == 0, err
            assert "Traceback" not in err, err
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert status == expected and status.boards == 11
    assert results(store, tid, status.boards) == results(alone, alone_id, status.boards)
    # the killed worker's boards were replayed by the others, each stored once
    tables = [t for t, _ in store.tables(tid) if t.board_number < status.boards]
    assert {1, 2} <= {t.board_number for t in tables if t.attempts > 1}
    killed = {w.id for w in WorkQueue(store).workers() if w.name == "w0"}
    assert {t.claimed_by.rsplit("/", 1)[0] for t in tables if t.attempts > 1} - killed
    assert {w.name for w in WorkQueue(store).workers() if w.stopped} == {"w1", "w2"}
