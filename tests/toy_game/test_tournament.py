"""The toy game plays a whole tournament through real processes over gRPC: the tournament
created with the CLI (``--game toy``), ``tournament run`` serving it, three bot processes of the
SDK. Nothing outside ``tests/toy_game`` knows the game: the processes learn of it from
``TAROT_ARENA_GAMES``, as a user's own game would be made known."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tests.processes import cli as cli_with
from tests.processes import play_through_processes
from tournaments.store import TournamentStore

PLUGIN = "tests.toy_game.game:TOY_GAME"


def cli(*args: str) -> Any:
    return cli_with(*args, games=PLUGIN)


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
    classes = {"high": "HighCard", "low": "LowCard", "other": "HighCard"}
    play_through_processes(db, tid, {
        name: (f"tests.toy_game.bot:{classes[name]}", token) for name, token in tokens.items()
    }, tmp_path, games=PLUGIN)

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
    assert "Toy Tricks, 3 players" in replayed.stdout
    assert "trick  1: " in replayed.stdout and "-> seat " in replayed.stdout  # by tricks
    assert "tricks won: seat 0" in replayed.stdout  # the score's terms

    listed = cli("--db", db, "tournament", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    row = json.loads(listed.stdout)[0]
    assert (row["game"], row["form"], row["players"]) == ("toy", "3 players", 3)
    assert {b["bot"] for b in row["bots"]} == {"high", "low", "other"}

    export = cli("--db", db, "export", tid, "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr
