"""The web page and the export show a tournament of a game they know nothing about (the toy
game): standings, boards, tables and records, in the game's own notation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import games
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tests.toy_game.game import TOY_GAME
from tests.web.conftest import Site, WebServer
from tests.web.every_game import play_at_random
from tournaments.cli.export import export_tournament
from tournaments.duplicate.settings import TournamentSettings
from tournaments.store import TournamentStore


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(games._GAMES, TOY_GAME.name, TOY_GAME)
    yield


def test_the_web_page_and_the_export_show_a_toy_tournament(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    registry = BotRegistry(engine)
    ids = tuple(registry.register(name)[0].id for name in ("ann", "bob", "cyd"))
    store = TournamentStore(engine)
    tid = store.create(TournamentSettings("toys", ids, game="toy", players=3, boards=2, seed=9))
    play_at_random(store, tid, 3)
    table_id = store.tables(tid)[0][0].id

    written = export_tournament(store, tid, tmp_path / "export")
    assert written
    server = WebServer(engine).start()
    site = Site(server.url, None)  # type: ignore[arg-type]
    try:
        for path in ("/", f"/tournaments/{tid}", f"/tournaments/{tid}/boards/0",
                     f"/tables/{table_id}", f"/bots/{ids[0]}"):
            status, body, _ = site.get(path)
            assert status == 200, (path, body[:500])
        status, body, _ = site.get(f"/tables/{table_id}/record.json")
        assert status == 200 and json.loads(body)["format"] == "tarot-arena/toy-record/1"
        status, body, _ = site.get(f"/tables/{table_id}")
        assert "play " in body
        # the replay from the toy's own display: its hands as cards, the table, the controls
        assert 'id="board"' in body and 'data-go="next-trick"' in body
        assert body.count('class="seat s') == 3 and 'class="card spades"' in body
        assert "<strong>Toy Tricks, 3 players, dealer seat" in body
        assert "tricks won: seat 0" in body  # the score's terms
        status, index, _ = site.get("/")
        assert '<td data-label="Game">Toy Tricks, 3 players</td>' in index
    finally:
        server.stop()
