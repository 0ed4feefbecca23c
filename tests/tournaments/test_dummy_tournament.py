"""Two-player French Tarot with the dummy plays a whole tournament through real processes over
gRPC: created with the CLI (``--players 2``, two bots, rotation: each bot holds each player's
hand of every board), served by ``tournament run``, the heuristic and the random bot as SDK bot
processes, the defender's bot answering for the dummy's seat. Standings, replay, export and the
web page's replay show the variant."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from arena.games.french_tarot import DealRecord, replay
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tests.toy_game.test_tournament import ROOT, free_port
from tests.toy_game.test_tournament import environment as toy_environment
from tests.web.conftest import WebServer
from tournaments.store import TournamentStore

BOARDS = 6


def environment(**extra: str) -> dict[str, str]:
    return toy_environment(TAROT_ARENA_GAMES="", **extra)


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                          env=environment(), capture_output=True, text=True, timeout=timeout)


def test_a_two_player_tournament_through_bot_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(db))
    tokens = {name: registry.register(name)[1] for name in ("heuristic", "random")}
    ids = {name: registry.authenticate(token).id  # type: ignore[union-attr]
           for name, token in tokens.items()}
    refused = cli("--db", db, "tournament", "create", "--players", "2", "--boards", "2",
                  ids["heuristic"], ids["random"], ids["heuristic"] + "x")
    assert refused.returncode != 0 and "exactly 2 bots" in refused.stderr
    created = cli("--db", db, "tournament", "create", "--players", "2", "--boards", str(BOARDS),
                  "--seed", "13", "--per-decision", "5", "--json", *ids.values())
    assert created.returncode == 0, created.stderr
    tid = json.loads(created.stdout)["id"]
    port = free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", db, "tournament", "run", tid,
         "--port", str(port), "--seat-timeout", "30"],
        cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    classes = {"heuristic": "clients.heuristic_bot:HeuristicBot",
               "random": "clients.random_bot:RandomBot"}
    players = []
    logs = {name: tmp_path / f"{name}.log" for name in tokens}
    for name, token in tokens.items():
        with logs[name].open("w") as log:
            players.append(subprocess.Popen(
                [sys.executable, "-m", "tournaments.cli", "bot", classes[name],
                 "--server", f"127.0.0.1:{port}", "--max-tables", "4", "--connect-timeout", "30"],
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
    assert store.progress(tid).done == 2 * BOARDS  # rotation: each bot in each player's seat
    assert store.progress(tid).infractions == 0
    assert all(board.dealer == 1 for board in store.boards(tid))  # seat 1 always deals
    deals: dict[int, set[str]] = {}
    dummy_played = 0
    for table, seats in store.tables(tid):
        assert len(seats) == 2
        record = DealRecord.loads(table.record_json or "")
        assert record.deal.players == 2 and len(record.deal.hands) == 3
        state = replay(record)
        assert state.result is not None and sum(state.result.scores) == 0
        dummy_played += sum(1 for seat, _ in record.actions if seat == 2)
        deals.setdefault(table.board_number, set()).add(json.dumps(record.deal.hands))
    assert dummy_played > 0
    assert len(deals) == BOARDS and all(len(d) == 1 for d in deals.values())  # duplicate

    standings = cli("--db", db, "standings", tid, "--json")
    assert standings.returncode == 0, standings.stderr
    rows = json.loads(standings.stdout)["standings"]
    assert {row["bot"] for row in rows} == {"heuristic", "random"}, rows
    assert rows[0]["bot"] == "heuristic", rows
    text = cli("--db", db, "standings", tid)
    assert text.returncode == 0 and "heuristic" in text.stdout

    played = next(t for t, _ in store.tables(tid)
                  if any(s == 2 for s, _ in DealRecord.loads(t.record_json or "").actions))
    replayed = cli("--db", db, "replay", played.id)
    assert replayed.returncode == 0, replayed.stderr
    assert "dummy" in replayed.stdout, replayed.stdout

    export = cli("--db", db, "export", tid, "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr

    engine = make_engine(db)
    server = WebServer(engine).start()
    try:
        with urllib.request.urlopen(f"{server.url}/tables/{played.id}", timeout=30) as page:
            body = page.read().decode()
    finally:
        server.stop()
        engine.dispose()
    viewer = json.loads(re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', body, re.S)[1])
    assert viewer["viewer"]["dummy"] == 2 and len(viewer["viewer"]["steps"][0]["hands"]) == 3
    assert viewer["names"][2].startswith("the dummy (played by ")
    assert 'id="seat-2"' in body and "the dummy (played by" in body
