"""The ladders' pages: the leaderboard, the ratings over time, the entries' boards, and the
competition's secrecy: nothing of a board still open (a ladder's board takes bots that come
later), and the ladder's own tournament on none of the tournament pages."""

from __future__ import annotations

import random
import re

import trio
from sqlalchemy.engine import Engine

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from clients.random_bot import RandomBot
from tests.tournaments.ladder_bots import ComingAndGoing
from tests.web.conftest import Site, WebServer
from tournaments.ladder.rating import RatingModel
from tournaments.ladder.service import LadderService
from tournaments.ladder.settings import LadderSettings
from tournaments.storage.ladders import LadderStore
from tournaments.store import TournamentStore


def ladder_played(engine: Engine, name: str, tables_per_board: int, tables: int,
                  model: RatingModel = RatingModel.MARGIN) -> str:
    """A two-player ladder of four random bots that played ``tables`` tables (or more)."""
    store = TournamentStore(engine)
    ladders = LadderStore(engine)
    lid = ladders.create(LadderSettings(name=name, players=2, per_decision=30.0,
                                        tables_per_board=tables_per_board, model=model)).id
    registry = BotRegistry(engine)
    bots = [registry.register(f"{name}-{i}")[0].id for i in range(4)]
    for bot in bots:
        ladders.join(lid, bot)
    arena = ComingAndGoing({b: RandomBot(i) for i, b in enumerate(bots)})
    service = LadderService(store, arena, recheck=0.05, rng=random.Random(2))

    async def play() -> None:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(service.run, lid)
                while ladders.tables_done(lid) < tables:
                    await trio.sleep(0.02)
                nursery.cancel_scope.cancel()

    trio.run(play)
    return lid


def test_a_ladders_page_shows_its_standings_and_only_its_closed_boards(db_url: str) -> None:
    """Four bots, two players: a board takes two tables at most. A ladder whose boards close
    at two shows them; one whose boards close at three never can. On SQLite and PostgreSQL."""
    engine = make_engine(db_url)
    ladders = LadderStore(engine)
    closing = ladder_played(engine, "closing", 2, 6)
    still_open = ladder_played(engine, "open-secrets", 3, 4, RatingModel.WINS)
    shown = {p.table_id for p in ladders.plays(closing)
             if p.board in ladders.closed_boards(closing)}
    hidden = {p.table_id for p in ladders.plays(still_open)}
    assert shown and hidden and not ladders.closed_boards(still_open)

    server = WebServer(engine).start()
    try:
        site = Site(server.url, None)  # type: ignore[arg-type]
        status, html, _ = site.get("/ladders/open-secrets")
        assert status == 200
        for i in range(4):
            assert f"open-secrets-{i}" in html
        assert "Ratings over time" in html and "<svg" in html
        assert "Rating (Elo)" in html and "rating − 1500" in html  # rated on wins
        assert not re.findall(r'href="/tables/', html)
        _, closing_html, _ = site.get("/ladders/closing")
        assert set(re.findall(r'href="/tables/([^"]+)"', closing_html)) == shown
        assert "Rating (points)" in closing_html and "points per board" in closing_html
        # Margins: points against the field's mean, 0, never Elo's 1500 (the page's random
        # ids, hexadecimal, may hold those digits: they are left out of the look).
        assert "1500" not in re.sub(r"[0-9a-f]{12,}", "", closing_html)
        status, index, _ = site.get("/ladders")
        assert status == 200 and "open-secrets" in index and "closing" in index
        for table_id in shown:
            status, table_html, _ = site.get(f"/tables/{table_id}")
            assert status == 200 and 'href="/ladders/closing"' in table_html
            assert "/tournaments/" not in table_html  # its tournament has no page
        for table_id in hidden:  # as unknown as a wrong id, record and all
            assert site.get(f"/tables/{table_id}")[0] == 404
            assert site.get(f"/tables/{table_id}/record.json")[0] == 404
        ladder = ladders.ladder(still_open)
        tid = ladder.tournament_id
        assert tid is not None
        assert tid not in site.get("/")[1]
        assert site.get(f"/tournaments/{tid}")[0] == 404
        assert site.get(f"/tournaments/{tid}/boards/0")[0] == 404
        member = ladders.members(still_open)[0].bot_id
        _, bot_page, _ = site.get(f"/bots/{member}")
        assert not any(t in bot_page for t in hidden)
        assert site.get("/ladders/no-such-ladder")[0] == 404
        assert ladder.seed not in html  # the ladder's seed is on no page
    finally:
        server.stop()
