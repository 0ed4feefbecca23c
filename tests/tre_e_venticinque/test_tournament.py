"""Tre e Venticinque plays a whole tournament through real processes over gRPC: created with the
CLI (``--game tre-e-venticinque``), served by ``tournament run``, three SDK bot processes (the
heuristic and two random bots)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tests.toy_game.test_tournament import ROOT, free_port
from tests.toy_game.test_tournament import environment as toy_environment
from tournaments.store import TournamentStore


def environment(**extra: str) -> dict[str, str]:
    return toy_environment(TAROT_ARENA_GAMES="", **extra)


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                          env=environment(), capture_output=True, text=True, timeout=timeout)


def test_a_tournament_of_another_player_count_is_refused_clearly(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(db))
    ids = [registry.authenticate(registry.register(n)[1]).id  # type: ignore[union-attr]
           for n in ("a", "b", "c", "d")]
    created = cli("--db", db, "tournament", "create", "--game", "tre-e-venticinque",
                  "--players", "4", "--boards", "2", *ids)
    assert created.returncode != 0
    assert "Tre e Venticinque is played by exactly 3 players, not 4" in created.stderr


def test_a_tournament_of_tre_e_venticinque_through_bot_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(db))
    tokens = {name: registry.register(name)[1] for name in ("heuristic", "random1", "random2")}
    ids = {name: registry.authenticate(token).id  # type: ignore[union-attr]
           for name, token in tokens.items()}
    created = cli("--db", db, "tournament", "create", "--game", "tre-e-venticinque",
                  "--boards", "4", "--seed", "16", "--per-decision", "5", "--json",
                  *ids.values())
    assert created.returncode == 0, created.stderr
    tid = json.loads(created.stdout)["id"]
    port = free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", db, "tournament", "run", tid,
         "--port", str(port), "--seat-timeout", "30"],
        cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    classes = {"heuristic": "TreHeuristicBot", "random1": "TreRandomBot",
               "random2": "TreRandomBot"}
    players = []
    logs = {name: tmp_path / f"{name}.log" for name in tokens}
    for name, token in tokens.items():
        with logs[name].open("w") as log:
            players.append(subprocess.Popen(
                [sys.executable, "-m", "tournaments.cli", "bot",
                 f"clients.tre_bots:{classes[name]}", "--server", f"127.0.0.1:{port}",
                 "--max-tables", "4", "--connect-timeout", "30"],
                cwd=ROOT, env=environment(TAROT_ARENA_TOKEN=token), stdout=log,
                stderr=subprocess.STDOUT,
            ))
    try:
        _, err = arena.communicate(timeout=180)
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
    assert json.loads(store.tournament(tid).settings_json)["game"] == "tre-e-venticinque"
    assert store.progress(tid).done == 12  # rotation: 4 boards x 3 seatings
    assert store.progress(tid).infractions == 0
    hands_by_board: dict[int, set[tuple[str, ...]]] = {}
    for table, _ in store.tables(tid):
        assert table.record_json is not None
        record = json.loads(table.record_json)
        assert record["format"] == "tarot-arena/tre-e-venticinque-record/1"
        assert sum(record["result"]["scores"]) == 0
        assert len(record["actions"]) == 78
        hands_by_board.setdefault(table.board_number, set()).add(tuple(record["hands"]))
    assert len(hands_by_board) == 4
    assert all(len(hands) == 1 for hands in hands_by_board.values())  # duplicate: same deals

    standings = cli("--db", db, "standings", tid, "--json")
    assert standings.returncode == 0, standings.stderr
    data = json.loads(standings.stdout)
    rows = data["standings"]
    assert {row["bot"] for row in rows} == {"heuristic", "random1", "random2"}, rows
    assert rows[0]["bot"] == "heuristic", rows  # every hand of every board, and still ahead
    # The seed's own reckoning: boards 0-2 (dealers 0, 1, 2) make one game at each of the 3
    # rotations; board 3 starts a game that is not finished.
    matches = data["matches"]
    assert matches["deals"] == 3 and len(matches["matches"]) == 3
    assert all(m["boards"] == [0, 1, 2] for m in matches["matches"])
    assert {r["bot"]: r["played"] for r in matches["standings"]} == {
        "heuristic": 3, "random1": 3, "random2": 3}
    assert sum(r["won"] for r in matches["standings"]) == 3
    text = cli("--db", db, "standings", tid)
    assert "Tre e Venticinque's own reckoning" in text.stdout, text.stdout

    table_id = store.tables(tid)[0][0].id
    replayed = cli("--db", db, "replay", table_id)
    assert replayed.returncode == 0, replayed.stderr
    assert "Tre e Venticinque" in replayed.stdout and "discard " in replayed.stdout

    export = cli("--db", db, "export", tid, "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr
