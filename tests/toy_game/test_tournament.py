"""The toy game plays a whole tournament through real processes over gRPC: the tournament
created with the CLI (``--game toy``), ``tournament run`` serving it, three bot processes of the
SDK. Nothing outside ``tests/toy_game`` knows the game: the processes learn of it from
``TAROT_ARENA_GAMES``, as a user's own game would be made known."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "tests.toy_game.game:TOY_GAME"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_ARENA_TOKEN", "TAROT_ARENA_DB", "COLUMNS", "TAROT_ARENA_GAMES")}
    return {**env, "PYTHONUNBUFFERED": "1", "TAROT_ARENA_GAMES": PLUGIN, **extra}


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                          env=environment(), capture_output=True, text=True, timeout=timeout)


def test_a_tournament_of_the_toy_game_through_bot_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(db))
    tokens = {name: registry.register(name)[1] for name in ("high", "low", "other")}
    ids = {name: registry.authenticate(token).id  # type: ignore[union-attr]
           for name, token in tokens.items()}
    created = cli("--db", db, "tournament", "create", "--game", "toy", "--players", "3",
                  "--boards", "4", "--seed", "11", "--per-decision", "5", "--json",
                  *ids.values())
    assert created.returncode == 0, created.stderr
    tid = json.loads(created.stdout)["id"]
    port = free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", db, "tournament", "run", tid,
         "--port", str(port), "--seat-timeout", "30"],
        cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    classes = {"high": "HighCard", "low": "LowCard", "other": "HighCard"}
    players = []
    logs = {name: tmp_path / f"{name}.log" for name in tokens}
    for name, token in tokens.items():
        with logs[name].open("w") as log:
            players.append(subprocess.Popen(
                [sys.executable, "-m", "tournaments.cli", "bot",
                 f"tests.toy_game.bot:{classes[name]}", "--server", f"127.0.0.1:{port}",
                 "--max-tables", "4", "--connect-timeout", "30"],
                cwd=ROOT, env=environment(TAROT_ARENA_TOKEN=token), stdout=log,
                stderr=subprocess.STDOUT,
            ))
    try:
        _, err = arena.communicate(timeout=90)
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
    texts = {name: log.read_text() for name, log in logs.items()}
    assert all(p.returncode == 0 for p in players), texts
    for text in texts.values():
        assert "Traceback" not in text and "notice" not in text, text

    store = TournamentStore(make_engine(db))
    assert json.loads(store.tournament(tid).settings_json)["game"] == "toy"
    assert store.progress(tid).done == 12  # rotation: 4 boards x 3 seatings
    assert store.progress(tid).infractions == 0
    tables = [table for table, _ in store.tables(tid)]
    hands_by_board: dict[int, set[tuple[str, ...]]] = {}
    for table in tables:
        assert table.record_json is not None
        record = json.loads(table.record_json)
        assert record["format"] == "tarot-arena/toy-record/1"
        assert sum(record["result"]) == 0
        hands_by_board.setdefault(table.board_number, set()).add(tuple(record["hands"]))
    assert len(hands_by_board) == 4
    assert all(len(hands) == 1 for hands in hands_by_board.values())  # duplicate: same deal

    standings = cli("--db", db, "standings", tid, "--json")
    assert standings.returncode == 0, standings.stderr
    rows = json.loads(standings.stdout)
    names = {row["bot"] for row in rows["standings"]}
    assert {"high", "low", "other"} <= names, standings.stdout

    replayed = cli("--db", db, "replay", tables[0].id)
    assert replayed.returncode == 0, replayed.stderr
    assert "Toy Tricks, 3 players" in replayed.stdout and "play " in replayed.stdout

    export = cli("--db", db, "export", tid, "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr
