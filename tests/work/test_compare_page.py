"""A compare's web page: the LLR over the boards between its bounds, the boards played, the
verdict, and each worker's share, throughput, last report and flags."""

from __future__ import annotations

import math
import urllib.error
import urllib.request
from pathlib import Path

import trio

from tests.web.conftest import WebServer
from tournaments.cli.local_bots import SdkBots
from tournaments.duplicate.sprt import SprtSettings
from tournaments.storage.work import WorkQueue
from tournaments.work.flags import Z_FLAG, shares, z_means, z_proportions
from tournaments.work.worker import Worker

from .helpers import new_store, queued_compare

FAST = SprtSettings(0, 0.2, max_boards=40, min_boards=8)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_the_page_shows_the_test_and_every_worker(tmp_path: Path) -> None:
    store = new_store(f"sqlite:///{tmp_path}/arena.db")
    tid = queued_compare(store, seed=8, baseline="random", settings=FAST)

    async def two_workers() -> None:
        async with trio.open_nursery() as nursery:
            for name in ("alpha", "beta"):
                worker = Worker(store, SdkBots(), name=name, only={tid}, exit_when_idle=True,
                                say=lambda _: None)
                nursery.start_soon(worker.run)

    trio.run(two_workers)
    quitter = "gamma:1:x"  # a worker that only failed, on another board
    queue = WorkQueue(store)
    queue.register(quitter, "gamma", 1)
    queue.report(quitter, "board 30 failed", failures=3)
    server = WebServer(store.engine).start()
    try:
        status, html = get(f"{server.url}/compares/{tid}")
        _, tournament = get(f"{server.url}/tournaments/{tid}")
        missing, _ = get(f"{server.url}/compares/cmp_none")
    finally:
        server.stop()
    assert status == 200
    assert "<dt>Game</dt><dd>French Tarot, 3 players</dd>" in html
    assert "LLR over the boards" in html and 'class="line"' in html
    assert '<dd id="verdict">accepted</dd>' in html
    assert "11 counted (in board order)" in html
    assert "accept above +2.94" in html and "reject below -2.94" in html
    assert "alpha" in html and "beta" in html and "stopped after" in html
    assert f'href="/compares/{tid}"' in tournament
    assert missing == 404
    played = {s.name: s for s in shares(store, tid)}
    assert {"alpha", "beta"} <= played.keys()
    assert sum(played[n].boards for n in ("alpha", "beta")) >= 11
    assert not played["alpha"].flags and not played["beta"].flags  # the same bots, alike


def test_a_worker_is_flagged_when_it_keeps_failing_or_its_results_stand_out(
        tmp_path: Path) -> None:
    store = new_store(f"sqlite:///{tmp_path}/arena.db")
    tid = queued_compare(store, seed=8, baseline="random", settings=FAST)
    queue = WorkQueue(store)
    queue.register("gamma:1:x", "gamma", 1)
    group = queue.claim(tid, "gamma:1:x/1", lease=10)
    assert group is not None
    for _ in range(3):
        queue.fail(group, "gamma:1:x", "RuntimeError: boom")
        queue.report("gamma:1:x", "failed", failures=1)
        store.clock = lambda: queue.failures(tid)[0].retry_at  # its backoff is over
        group = queue.claim(tid, group.claim, lease=10) or group
    (gamma,) = shares(store, tid)
    assert gamma.flags == ("keeps failing: 3 failed boards, 0 played",)
    # the tests behind the other flags
    assert z_means([0.0, 1.0] * 5, [0.0, 1.0] * 5) == 0
    z = z_means([100.0, 110.0] * 5, [0.0, 10.0] * 5)
    assert z is not None and z > Z_FLAG
    z = z_proportions(9, 10, 1, 10)
    assert z is not None and z == (0.9 - 0.1) / math.sqrt(0.25 * (0.2))
    assert z_proportions(0, 10, 0, 10) is None
