"""A stored tournament played the way users play one: ``tarot-arena tournament run`` in a
process of its own and one ``tarot-arena bot`` process per bot, over gRPC on a loopback port."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(games: str = "", **extra: str) -> dict[str, str]:
    """This process's environment for a child, with ``TAROT_ARENA_GAMES`` set to ``games``
    and none of the variables that would pick another database or token."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_ARENA_TOKEN", "TAROT_ARENA_DB", "COLUMNS", "TAROT_ARENA_GAMES")}
    return {**env, "PYTHONUNBUFFERED": "1", "TAROT_ARENA_GAMES": games, **extra}


def cli(*args: str, games: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``tarot-arena ARGS``: in a process of its own where ``games`` names game plugins (they
    load once per process), else through the same entry point in this one (a process costs
    each command a second and a half of imports), in the environment a child would get."""
    if games:
        return subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                              env=environment(games), capture_output=True, text=True,
                              timeout=timeout)
    from tests.cli.entry import exit_status
    from tournaments.cli import commands

    out, err = io.StringIO(), io.StringIO()
    saved_argv, saved_env = sys.argv, dict(os.environ)
    sys.argv = ["tarot-arena", *args]
    os.environ.clear()
    os.environ.update({k: v for k, v in environment().items() if k != "TAROT_ARENA_GAMES"})
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            commands.main()
    except SystemExit as exited:
        code = exit_status(exited)
    finally:
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["tarot-arena", *args], code, out.getvalue(),
                                       err.getvalue())


def play_through_processes(
    db: str, tournament_id: str, bots: Mapping[str, tuple[str, str]], logs: Path,
    games: str = "", timeout: float = 180,
) -> dict[str, str]:
    """Serve the tournament until it is finished, with a bot process for each ``name:
    (module:Class, token)``; every process must exit 0 by itself (the bots once told there is
    no more work), no bot may log a traceback or an arena notice. The bots' logs, by name."""
    port = free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", db, "tournament", "run",
         tournament_id, "--port", str(port), "--seat-timeout", "30"],
        cwd=ROOT, env=environment(games), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    players = []
    files = {name: logs / f"{name}.log" for name in bots}
    for name, (spec, token) in bots.items():
        with files[name].open("w") as log:
            players.append(subprocess.Popen(
                [sys.executable, "-m", "tournaments.cli", "bot", spec, "--server",
                 f"127.0.0.1:{port}", "--max-tables", "4", "--connect-timeout", "30"],
                cwd=ROOT, env=environment(games, TAROT_ARENA_TOKEN=token), stdout=log,
                stderr=subprocess.STDOUT,
            ))
    try:
        _, err = arena.communicate(timeout=timeout)
    finally:
        if arena.poll() is None:
            arena.kill()
        for process in players:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGINT)
                process.wait(10)
    assert arena.returncode == 0, err
    texts = {name: path.read_text() for name, path in files.items()}
    assert all(p.returncode == 0 for p in players), texts
    for text in texts.values():
        assert "Traceback" not in text and "notice" not in text, text
    return texts
