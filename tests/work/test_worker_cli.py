"""``tarot-arena queue`` and ``tarot-arena worker``, through the real entry point: a stored
tournament queued for workers with its bots pinned, then played by a worker to the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from tests.cli.entry import run_entry_point
from tournaments.storage.work import WorkQueue
from tournaments.store import TournamentStore


def test_a_tournament_queued_for_workers_is_played_by_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(db))
    smart, dumb, *others = (registry.register(name)[0].id
                            for name in ("smart", "dumb", "c", "d", "e", "f", "g", "h"))

    def cli(*args: str) -> tuple[int, str, str]:
        return run_entry_point(capsys, monkeypatch, "--db", db, *args)

    code, out, err = cli("tournament", "create", smart, dumb, "--seating", "gauntlet",
                         "--players", "3", "--boards", "3", "--json")
    assert code == 0, err
    tid = re.search(r"tour_[0-9a-f]+", out).group(0)  # type: ignore[union-attr]
    code, _, err = cli("queue", tid, f"{smart}=heuristic")
    assert code == 1 and f"{dumb} missing (BOT_ID=SPEC)" in err
    code, _, err = cli("queue", tid, f"{smart}=heuristic", "nobody")
    assert code == 1 and "bad 'nobody': expected BOT_ID=SPEC" in err
    code, _, err = cli("queue", tid, f"{smart}=heuristic", f"{dumb}=no.such:Bot")
    assert code == 2 and "cannot import bot 'no.such:Bot'" in err
    code, out, err = cli("queue", tid, f"{smart}=heuristic", f"{dumb}=random")
    assert code == 0, err
    assert f"{smart}: heuristic (sha256 " in out and "over clients.heuristic_bot)" in out
    assert f"queued {tid} for workers" in out
    code, out, err = cli("worker", "--jobs", "1", "--exit-when-idle", "--name", "solo")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("solo: ")]
    assert [line.split(":")[1].strip() for line in lines] == [f"{tid} board {b}"
                                                              for b in range(3)]
    store = TournamentStore(make_engine(db))
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert store.progress(tid).done == 3 * 4
    code, out, err = cli("tournament", "create", smart, dumb, *others, "--seating",
                         "competition", "--boards", "2", "--json")
    assert code == 0, err
    sealed = re.search(r"tour_[0-9a-f]+", out).group(0)  # type: ignore[union-attr]
    code, _, err = cli("queue", sealed, f"{smart}=heuristic", f"{dumb}=random")
    assert code == 1 and "whose deals stay secret until it is finished" in err
    code, _, err = cli("worker", "--jobs", "0")
    assert code == 1 and "bad --jobs 0: at least 1" in err


@pytest.mark.parametrize("told", ["ctrl-c twice", "sigterm", "sigint to the parent alone",
                                  "ctrl-c to a worker started ignoring it"])
def test_ctrl_c_stops_every_worker_process_and_gives_their_boards_back(
        tmp_path: Path, told: str) -> None:
    """Ctrl-C reaches the terminal's whole process group: the parent and both workers stop,
    exit 0, and no board stays claimed (nobody has to wait for a lease to run out), even when
    Ctrl-C is pressed again while they give their boards back. A service manager's SIGTERM to
    the parent alone stops them the same way, and so does a SIGINT to the parent alone (it
    tells its workers). All of it holds for a worker started with SIGINT ignored, as a
    script's shell starts a background job (``tarot-arena worker &``): such a parent once sat
    out the signal its workers obeyed, and exited without a word (the case a test harness that
    ignored SIGINT hit now and then)."""
    import os
    import signal
    import subprocess
    import sys

    from tests.processes import ROOT, environment

    from .helpers import new_store, queued_compare

    db = f"sqlite:///{tmp_path}/arena.db"
    store = new_store(db)
    tid = queued_compare(store, baseline="random")
    command = [sys.executable, "-m", "tournaments.cli", "--db", db, "worker", "--jobs", "2",
               "--name", "w"]
    if told != "ctrl-c twice":  # SIGINT ignored from the start, as in a script's background job
        command = ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *command]
    worker = subprocess.Popen(command, cwd=ROOT, env=environment(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert worker.stdout is not None
        for line in worker.stdout:  # a board stored: both processes are at work
            if line.startswith("w-") and f"{tid} board" in line:
                break
        if told == "sigterm":
            os.kill(worker.pid, signal.SIGTERM)
        elif told == "sigint to the parent alone":
            os.kill(worker.pid, signal.SIGINT)
        else:
            os.killpg(worker.pid, signal.SIGINT)
            os.killpg(worker.pid, signal.SIGINT)
        _, err = worker.communicate(timeout=60)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
    assert worker.returncode == 0, err
    assert "worker stopped: the boards it held are given back" in err
    assert "Traceback" not in err, err
    assert store.progress(tid).running == 0
    assert {w.name for w in WorkQueue(store).workers() if w.stopped} == {"w-1", "w-2"}
