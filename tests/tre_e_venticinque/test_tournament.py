"""Tre e Venticinque plays a whole tournament through real processes over gRPC: created with the
CLI (``--game tre-e-venticinque``), served by ``tournament run``, three SDK bot processes (the
heuristic and two random bots)."""

from __future__ import annotations

import json
from pathlib import Path

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tests.processes import cli, play_through_processes
from tournaments.store import TournamentStore


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
    classes = {"heuristic": "TreHeuristicBot", "random1": "TreRandomBot",
               "random2": "TreRandomBot"}
    play_through_processes(db, tid, {
        name: (f"clients.tre_bots:{classes[name]}", token) for name, token in tokens.items()
    }, tmp_path)

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
    assert "Tre e Venticinque" in replayed.stdout and " discards " in replayed.stdout
    assert "trick 25: " in replayed.stdout and "card points: " in replayed.stdout  # by tricks

    export = cli("--db", db, "export", tid, "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr
