"""Nothing derived from the cards of a board shows before the board is finished at every
table: the secrecy crawl over every page and the event stream, during running tournaments of
every seating and every game form, where a cheat plays illegal cards.

An illegal card's reason names what the cheat's hand holds or lacks ("must follow hearts"),
its fallback is a card of the hand, and its time says how hard the card was: on a board still
being played somewhere, a bot yet to play it learns from each. The rotation, field and gauntlet
pages listed them (the issue's spy read them); a sealed competition showed none. Now no page
does, whatever the seating, for French Tarot with 2 (the dummy), 3, 4 and 5 players and for
Tre e Venticinque.
"""

from __future__ import annotations

import dataclasses
import html
import re
import urllib.request
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
import trio

from arena import games
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TableStatus, TournamentStatus
from arena.table import TimeControl
from clients.local import LocalArena
from clients.random_bot import RandomBot
from clients.sdk import Action, Bot, DecisionRequest, TableView
from clients.tre_bots import TreRandomBot
from tests.claim_order import claimed_in_board_order
from tests.conftest import fresh_database
from tests.web.conftest import Site, WebServer
from tests.web.test_live import read_event
from tournaments.duplicate.settings import Seating, TournamentSettings
from tournaments.play.arena import TableToPlay
from tournaments.store import TournamentStore, new_worker_id

LINK = re.compile(r'href="(/[^"#?]*)(?:\?[^"#]*)?(?:#[^"]*)?"')
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
STEP = re.compile(r'(/tables/[^"#?]+#step-[0-9]+)"')
FORMS = [("french-tarot", 2), ("french-tarot", 3), ("french-tarot", 4), ("french-tarot", 5),
         ("tre-e-venticinque", 3)]


class Random(Bot):
    """A legal action at random, in either game."""

    name = "random"
    threaded = False
    games = tuple(games.names())

    def __init__(self, seed: int) -> None:
        self.french, self.tre = RandomBot(seed), TreRandomBot(seed)

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        if table.game.name == "tre-e-venticinque":
            return self.tre.decide(table, request)  # type: ignore[no-any-return]
        return self.french.decide(table, request)


class Cheat(Random):
    """Plays, whenever it can, a card of its hand the rules forbid: an illegal action whose
    reason speaks of its hand (the arena plays a fallback card instead)."""

    name = "cheat"

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        plays = [a for a in request.legal_actions if hasattr(a, "card")]
        if plays:
            allowed = {a.card for a in plays}  # type: ignore[attr-defined]
            forbidden = [c for c in table.observation.hand if c not in allowed]
            if forbidden:
                return dataclasses.replace(plays[0], card=forbidden[0])  # type: ignore[type-var]
        return super().decide(table, request)


@dataclasses.dataclass
class Running:
    store: TournamentStore
    tournaments: dict[str, tuple[str, int, Seating]]
    """id -> (game, players, seating)."""
    cheat: str


def _play(store: TournamentStore, bots: dict[str, Bot], tid: str, tables: int) -> None:
    settings = store.settings(tid)
    arena = LocalArena(bots, strict=False)
    worker = new_worker_id()
    for _ in range(tables):
        claim = store.claim_next(tid, worker)
        assert claim is not None
        outcome = trio.run(arena.play, TableToPlay(
            claim.table_id, claim.board, claim.state, claim.bots,
            TimeControl(settings.per_decision, settings.time_bank), settings.reveal_deals))
        assert store.finish(claim.table_id, worker, outcome)


def build(store: TournamentStore) -> Running:
    registry = BotRegistry(store.engine)
    cheat = registry.register("cheat")[0].id
    bots: dict[str, Bot] = {cheat: Cheat(3)}
    for i in range(9):
        bots[registry.register(f"cheat-{i}")[0].id] = Cheat(i)  # every table cheats
    ids = list(bots)
    made: dict[str, tuple[str, int, Seating]] = {}
    for game, players in FORMS:
        for seating, count in ((Seating.ROTATION, players), (Seating.FIELD, players + 1),
                               (Seating.GAUNTLET, 2), (Seating.COMPETITION, 2 * players)):
            with claimed_in_board_order():
                tid = store.create(TournamentSettings(
                    name=f"{game} {players} {seating.value}", bots=tuple(ids[:count]),
                    seating=seating, players=players, boards=6, seed=7, game=game))
            store.set_status(tid, TournamentStatus.RUNNING)
            # a board finished everywhere, and a cheat's illegal card on a board in play
            while not (store.boards_done(tid) and infractions(store, tid)[1]):
                _play(store, bots, tid, 1)
            made[tid] = (game, players, seating)
    return Running(store, made, cheat)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def running(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[Site, Running]]:
    folder = tmp_path_factory.mktemp("in-play")
    for url in fresh_database(request.param, folder, prefix="arena_inplay_"):
        engine = make_engine(url)
        data = build(TournamentStore(engine))
        server = WebServer(engine).start()
        try:
            yield Site(server.url, None), data  # type: ignore[arg-type]
        finally:
            server.stop()
            engine.dispose()


def crawl(site: Site, data: Running) -> dict[str, str]:
    """Every page reachable from the index, and every tournament's first live event."""
    seen: dict[str, str] = {}
    todo = deque(["/"])
    while todo:
        path = todo.popleft()
        if path in seen or path.startswith("/static/"):
            continue
        status, body, _ = site.get(path)
        assert status == 200, (path, status, body[:300])
        seen[path] = body
        todo.extend(link for link in LINK.findall(body) if link not in seen)
        assert 'href="/bots/"' not in body, (path, body[body.index('href="/bots/"') - 500:][:800])
    for tid in data.tournaments:
        with urllib.request.urlopen(f"{site.url}/tournaments/{tid}/events",
                                    timeout=30) as stream:
            seen[f"/tournaments/{tid}/events"] = read_event(stream)[1]
    return seen


def infractions(store: TournamentStore, tid: str) -> tuple[list[Any], list[Any]]:
    """The infractions of (boards finished everywhere, boards still in play)."""
    tables = store.tables(tid)
    open_boards = {t.board_number for t, _ in tables if t.status != TableStatus.DONE}
    done, in_play = [], []
    for table, _ in tables:
        if table.status is TableStatus.DONE:
            for d in store.decisions(table.id):
                if d.infraction is not None:
                    (in_play if table.board_number in open_boards else done).append(d)
    return done, in_play


def rows_by_step(pages: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """Each table row of every page, under every decision it links to (``/tables/ID#step-N``):
    looked up per infraction, rather than every page scanned again for each."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for path, body in pages.items():
        for row in ROW.findall(body):
            for step in set(STEP.findall(row)):
                rows.setdefault(step, []).append((path, row))
    return rows


def test_no_page_shows_a_reason_fallback_or_time_of_a_board_in_play(
        running: tuple[Site, Running]) -> None:
    site, data = running
    pages = crawl(site, data)
    everything = html.unescape("\n".join(pages.values()))
    rows = rows_by_step(pages)
    shown_reasons: set[str] = set()
    hidden_reasons: set[str] = set()
    for tid, (game, players, seating) in data.tournaments.items():
        done, in_play = infractions(data.store, tid)
        assert in_play, f"no infraction on a board in play: {game} {players} {seating}"
        shown_reasons |= {d.reason or "" for d in done}
        hidden_reasons |= {d.reason or "" for d in in_play}
        for d in in_play:
            assert d.infraction == "illegal-action", d
            for path, row in rows.get(f"/tables/{d.table_id}#step-{d.index + 1}", ()):
                text = html.unescape(row)
                assert (d.reason or "") not in text, (path, game, players, seating)
                assert f"<code>{d.action}</code>" not in text, (path, game, seating)
                assert "shown when the board is finished" in text, (path, row)
    # and nowhere else either: each reason only boards in play have
    for reason in hidden_reasons - shown_reasons:
        assert reason not in everything, reason
    # the detector does find them once shown: the finished boards' reasons are listed
    assert shown_reasons and all(r in everything for r in shown_reasons)


def test_a_bot_page_times_only_the_boards_finished_everywhere(
        running: tuple[Site, Running]) -> None:
    site, data = running
    body = site.get(f"/bots/{data.cheat}")[1]
    timed = 0
    for tid in data.tournaments:
        tables = data.store.tables(tid)
        open_boards = {t.board_number for t, _ in tables if t.status != TableStatus.DONE}
        for table, seats in tables:
            if table.status is not TableStatus.DONE or table.board_number in open_boards:
                continue
            mine = {s.seat for s in seats if s.bot_id == data.cheat}
            timed += sum(1 for d in data.store.decisions(table.id) if d.seat in mine)
    assert f"{timed} decisions: mean" in body


def test_every_game_form_and_seating_is_crawled(running: tuple[Site, Running]) -> None:
    _, data = running
    forms = {(g, p) for g, p, _ in data.tournaments.values()}
    assert forms == set(FORMS)
    assert {s for _, _, s in data.tournaments.values()} == set(Seating)
    assert {games.game(g).name for g, _ in FORMS} == set(games.names())

