"""``tarot-arena demo`` end to end: the arena, four bot processes over gRPC, SQLite, the export.

The same path as ``make demo``, with 2 boards instead of the default, then once more with one
board into the same folder: each run starts from a fresh database.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tournaments.cli.demo import BUNDLED
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("heuristic", "random-1", "random-2", "search")


def run_demo(out: Path, boards: int) -> tuple[str, str]:
    """Run the demo with ``boards`` boards into ``out``; its tournament id and its output."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_ARENA_DB", "TAROT_ARENA_TOKEN", "COLUMNS")}
    result = subprocess.run(
        [sys.executable, "-m", "tournaments.cli", "demo", "--boards", str(boards), "--out",
         str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    tables = 4 * boards
    title = re.search(rf"demo \((tour_[0-9a-f]+)\): {tables}/{tables} tables, scoring datum",
                      result.stdout)
    assert title, result.stdout
    return title[1], result.stdout


def check_run(out: Path, tid: str, stdout: str, boards: int, serve_web: bool = True) -> None:
    """What the run printed, stored and exported; ``serve_web``: the web command it names
    serves the tournament (a process more: checked once)."""
    assert sorted(bot.name for bot in BUNDLED) == list(NAMES)
    assert "all 4 bots connected" in stdout
    rows = [line for line in stdout.splitlines() if re.match(r"^[1-4] +\S", line)]
    assert len(rows) == 4, stdout
    assert sorted(re.search(r"(heuristic|random-[12]|search)", row)[0]  # type: ignore[index]
                  for row in rows) == list(NAMES)
    assert f"played {4 * boards} tables in" in stdout
    # tarot-arena is in the virtualenv, not on the shell's PATH: the closing lines say how
    script = Path(sys.executable).parent / "tarot-arena"
    assert f"{Path(sys.executable).parent / 'activate'}" in stdout or (
        f"{os.path.relpath(script.parent / 'activate', ROOT)}" in stdout)
    assert f"tarot-arena standings {tid}" in stdout
    assert f"export TAROT_ARENA_DB=sqlite:///{out / 'arena.db'}" in stdout
    web = re.search(r"^The web page .*: run\n  (tarot-arena web --db \S+)\nand open "
                    r"http://127\.0\.0\.1:8080", stdout, re.MULTILINE)
    assert web, stdout
    if serve_web:
        assert_the_web_command_serves_the_tournament(web[1].split()[1:], tid)

    export = out / "export"
    assert sorted(p.name for p in export.iterdir()) == sorted([
        f"{tid}.json", f"{tid}-standings.csv", f"{tid}-tables.csv", f"{tid}-decisions.csv",
    ])  # the previous run's export is gone
    data = json.loads((export / f"{tid}.json").read_text())
    assert data["tournament"]["status"] == "finished"
    assert sorted(data["bots"].values()) == list(NAMES)
    assert len(data["tables"]) == 4 * boards
    for table in data["tables"]:
        assert table["status"] == "done" and table["record"], table["id"]
        assert [seat["infractions"] for seat in table["seats"]] == [0, 0, 0, 0], table["id"]
    assert [row["infractions"] for row in data["standings"]] == [0, 0, 0, 0]
    assert sorted(row["bot"] for row in data["standings"]) == list(NAMES)
    for bot in BUNDLED:  # a log per process: the search bot's numbered when it has several
        names = [bot.name] if bot.processes == 1 else [f"{bot.name}-{n + 1}"
                                                       for n in range(bot.processes)]
        assert sorted(p.name for p in (out / "bots").glob(f"{bot.name}*.log")) == [
            f"{name}.log" for name in names]

    engine = make_engine(f"sqlite:///{out / 'arena.db'}")  # a fresh database: this run only
    assert [t.id for t in TournamentStore(engine).list()] == [tid]
    assert sorted(bot.name for bot in BotRegistry(engine).list()) == list(NAMES)


def assert_the_web_command_serves_the_tournament(args: list[str], tid: str) -> None:
    """The demo's closing line names a command that really shows its tournament (run here on
    a free port rather than 8080)."""
    env = {k: v for k, v in os.environ.items() if k not in ("TAROT_ARENA_DB", "COLUMNS")}
    process = subprocess.Popen([sys.executable, "-m", "tournaments.cli", *args, "--port", "0"],
                               cwd=ROOT, env={**env, "PYTHONUNBUFFERED": "1"},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        url = None
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, "the web command ended before serving"
            found = re.search(r"web page on (http://\S+?)(?:,|$)", line.strip())
            url = found[1] if found else None
        assert url is not None
        with urllib.request.urlopen(url, timeout=30) as response:
            assert tid in response.read().decode()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_demo_runs_end_to_end_twice_in_a_row(tmp_path: Path) -> None:
    out = tmp_path / "demo-output"
    first, stdout = run_demo(out, boards=2)
    check_run(out, first, stdout, boards=2)
    second, stdout = run_demo(out, boards=1)
    assert second != first
    check_run(out, second, stdout, boards=1, serve_web=False)
