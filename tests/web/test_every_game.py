"""Every surface for every game form (French Tarot for 2 with the dummy, 3, 4, 5 and the
beginner variant, Tre e Venticinque, the toy game registered as a plugin would be): the web
replay steps through hands, table and tricks; the CLI replay goes trick by trick with winners
and the score's terms; scores are in their game's unit; lists name the game and the bots; a
player is charged every infraction it makes for the dummy."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from tests.processes import cli
from tests.web.conftest import Site, WebServer
from tests.web.every_game import FORMS, EveryGame, every_game  # noqa: F401 (a fixture)
from tournaments.cli.export import export_tournament, standings_of
from tournaments.cli.report import describe_deal

PLUGIN = "tests.toy_game.game:TOY_GAME"
VIEWER = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def site(every_game: EveryGame) -> Iterator[Site]:  # noqa: F811
    server = WebServer(every_game.store.engine).start()
    try:
        yield Site(server.url, None)  # type: ignore[arg-type]
    finally:
        server.stop()


def _page(site: Site, path: str) -> str:
    status, body, _ = site.get(path)
    assert status == 200, (path, body[:400])
    return body


@pytest.mark.parametrize("form", FORMS)
def test_the_web_replay_of_every_form_steps_through_hands_table_and_tricks(
    form: str, every_game: EveryGame, site: Site,  # noqa: F811
) -> None:
    table_id = every_game.table(form)
    record = every_game.store.record(table_id)
    body = _page(site, f"/tables/{table_id}")
    data = json.loads(VIEWER.search(body)[1])  # type: ignore[index]
    viewer = data["viewer"]
    steps = viewer["steps"]
    assert len(steps) == len(record.actions) + 1
    hands = steps[0]["hands"]
    assert body.count('class="seat s') == len(hands)  # every hand on the table
    dealt = sum(len(h) for h in hands)
    assert len(re.findall(r'<div class="hand"><span class="cards">(.*?)</span></div>', body)) \
        == len(hands)
    assert body.count('class="card ') >= dealt  # the hands as cards
    for control in ("start", "prev-trick", "prev", "next", "next-trick", "end"):
        assert f'data-go="{control}"' in body
    assert 'id="trick"' in body and "/static/replay.js" in body
    tricks = viewer["tricks"]
    assert tricks and [t["number"] for t in tricks] == list(range(1, len(tricks) + 1))
    completing = [s for s in steps if s["completes"]]
    assert [s["completes"] for s in completing] == [t["number"] for t in tricks]
    assert all(s["winner"] == t["winner"] for s, t in zip(completing, tricks, strict=True))
    assert all(hand == [] for hand in steps[-1]["hands"])
    assert sum(steps[-1]["won"]) == len(tricks)
    assert len(data["faces"]) == len({f[1] for f in data["faces"]})  # every card its own words
    assert viewer["breakdown"] and 'id="breakdown"' in body  # how the score was made
    assert f"<strong>{viewer['title']}</strong>" in body


def test_tre_e_venticinque_shows_its_discard_its_italian_cards_and_its_thirds(
    every_game: EveryGame, site: Site,  # noqa: F811
) -> None:
    body = _page(site, f"/tables/{every_game.table('tre')}")
    assert "<h3>Discard</h3>" in body and "<h3>Talon</h3>" in body
    assert re.search(r'class="card (swords|cups|coins|batons)" title="\w+ of (swords|cups|coins|'
                     r'batons)"', body)
    assert "Score <small>(thirds)</small>" in body
    assert "Scores are in thirds of a point (3 make a point)." in body
    assert "thirds of a point" in _page(site, f"/tournaments/{every_game.tournaments['tre']}")
    board = _page(site, f"/tournaments/{every_game.tournaments['tre']}/boards/0")
    main = board.split('<main id="main"', 1)[1]
    assert "♠" not in main and "Chien" not in main  # its own cards, not French Tarot's
    assert "(in thirds of a point)" in board
    french = _page(site, f"/tables/{every_game.table('french-4')}")
    assert "Score <small>(points)</small>" in french and "unit-note" not in french


def test_the_tournament_pages_name_the_game_and_tre_shows_its_match_tally(
    every_game: EveryGame, site: Site,  # noqa: F811
) -> None:
    index = _page(site, "/")
    for form, words in (("french-2", "French Tarot, 2 players with the dummy"),
                        ("beginner-4", "French Tarot, 4 players, beginner variant"),
                        ("tre", "Tre e Venticinque, 3 players"),
                        ("toy", "Toy Tricks, 3 players")):
        assert f'<td data-label="Game">{words}</td>' in index, form
        page = _page(site, f"/tournaments/{every_game.tournaments[form]}")
        assert f'<dd id="game">{words}</dd>' in page
    assert "ann, bob, cyd, dee, eve" in index  # the bots of the five-player tournament
    tre = _page(site, f"/tournaments/{every_game.tournaments['tre']}")
    assert "Tre e Venticinque's own reckoning" in tre and 'id="match-tally"' in tre
    assert "1 game finished" in tre or "games finished" in tre
    assert 'id="matches"' not in _page(site, f"/tournaments/{every_game.tournaments['french-4']}")


def test_a_player_is_charged_every_infraction_it_makes_for_the_dummy(
    every_game: EveryGame, site: Site, tmp_path_factory: pytest.TempPathFactory,  # noqa: F811
) -> None:
    store = every_game.store
    tid = every_game.tournaments["french-2"]
    in_tables = {}
    for _, seats in store.tables(tid):
        for s in seats:
            in_tables[s.bot_id] = in_tables.get(s.bot_id, 0) + s.infractions
    dummy = [d for t, _ in store.tables(tid) for d in store.decisions(t.id)
             if d.seat == 2 and d.infraction]
    assert dummy and sum(in_tables.values()) > 0  # the fixture made some
    standings = {r.bot_id: sum(r.infractions.values()) for r in standings_of(store, tid).rows}
    assert standings == in_tables
    page = _page(site, f"/tournaments/{tid}")
    assert 'href="/bots/"' not in page
    for bot, count in in_tables.items():
        row = re.search(rf'<tr data-bot="{bot}">.*?</tr>', page, re.S)
        assert row is not None
        assert f"{count} malformed-action" in row[0] or (count == 0 and "none" in row[0])
        bot_page = _page(site, f"/bots/{bot}")
        assert f"<p>{count} in all" in bot_page or count == 0
    written = export_tournament(store, tid, tmp_path_factory.mktemp("export"))
    exported = json.loads(written[0].read_text())
    assert {r["bot_id"]: r["infractions"] for r in exported["standings"]} == in_tables


@pytest.mark.parametrize("form", FORMS)
def test_the_cli_replay_of_every_form_goes_trick_by_trick(
    form: str, every_game: EveryGame,  # noqa: F811
) -> None:
    store = every_game.store
    table_id = every_game.table(form)
    record = store.record(table_id)
    game = store.settings(store.tournament_of_table(table_id)).rules
    seats = next(seats for t, seats in store.tables(every_game.tournaments[form])
                 if t.id == table_id)
    names = [every_game.names[s.bot_id] for s in seats]
    lines = describe_deal(record, names=names, game=game)
    state = game.replay(record)
    tricks = [line for line in lines if line.startswith("trick")]
    hands = len(game.revealed(state).hands)
    assert tricks and all(re.match(rf"trick +\d+: (\d:\S+  ){{{hands}}}-> seat \d", t)
                          for t in tricks), tricks[:3]
    assert not any(re.match(r" *\d+\. seat", line) for line in lines)  # not a flat list
    result = next(i for i, line in enumerate(lines) if line.startswith("[bold]result:"))
    assert all(name in lines[result] for name in names)
    assert lines[result + 1:], "the score's terms"
    if form == "tre":
        assert "(in thirds of a point)" in lines[result]
        assert any("card points:" in line for line in lines[result + 1:])
        assert sum(1 for line in lines if re.match(r"seat \d \(\w+\) discards ", line)) == 3
    if form == "french-2":
        assert any("the dummy (played by seat" in line for line in lines)


def test_the_cli_lists_name_the_game_the_form_and_the_bots(every_game: EveryGame) -> None:  # noqa: F811
    db = str(every_game.store.engine.url)
    listed = cli("--db", db, "tournament", "list", "--json", games=PLUGIN)
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)}
    assert rows["french-2"]["form"] == "2 players with the dummy"
    assert rows["beginner-4"]["form"] == "4 players, beginner variant"
    assert (rows["tre"]["game"], rows["tre"]["players"]) == ("tre-e-venticinque", 3)
    assert [b["bot"] for b in rows["french-5"]["bots"]] == ["ann", "bob", "cyd", "dee", "eve"]
    text = cli("--db", db, "tournament", "list", games=PLUGIN)
    assert text.returncode == 0, text.stderr
    flat = " ".join(text.stdout.split())
    for words in ("French Tarot, 2 players with the dummy", "Tre e Venticinque, 3 players",
                  "Toy Tricks, 3 players", "ann, bob, cyd, dee, eve"):
        assert words in flat, text.stdout


def test_the_cli_replay_and_tables_of_tre_name_the_thirds(every_game: EveryGame) -> None:  # noqa: F811
    db = str(every_game.store.engine.url)
    replayed = cli("--db", db, "replay", every_game.table("tre"), games=PLUGIN)
    assert replayed.returncode == 0, replayed.stderr
    assert "trick 25: " in replayed.stdout and "(in thirds of a point)" in replayed.stdout
    tables = cli("--db", db, "tournament", "tables", every_game.tournaments["tre"],
                 games=PLUGIN)
    assert "Scores are in thirds of a point (3 make a point)." in tables.stdout
    standings = cli("--db", db, "standings", every_game.tournaments["tre"], "--json",
                    games=PLUGIN)
    assert json.loads(standings.stdout)["score_unit"] == {
        "name": "thirds", "long_name": "thirds of a point", "per_point": 3}


@pytest.mark.parametrize("form", FORMS)
def test_a_board_page_has_one_shape_for_every_game(
    every_game: EveryGame, site: Site, form: str,  # noqa: F811
) -> None:
    """The board page asks the game's display: every game's tables side by side, each with
    its result in a line and every seat's actions that play no card (bids, discards)."""
    tid = every_game.tournaments[form]
    body = _page(site, f"/tournaments/{tid}/boards/0")
    tables = [t for t, _ in every_game.store.tables(tid) if t.board_number == 0]
    players = int(FORMS[form]["players"])  # type: ignore[call-overload]
    assert '<h2 id="deal-h">The deal</h2>' in body
    assert body.count('<span class="contract">') == len(tables)
    assert body.count('<div class="bids">') == players * len(tables)
    hands = len(re.findall(r'<tr><th scope="row">Seat \d', body.split('id="cmp-h"')[0]))
    unheld = body.count("held by no bot")  # the dummy: named in the deal and in its own row
    assert (hands, unheld) == ((3, 1) if form == "french-2" else (players, 0))
    if form == "french-2":
        assert re.search(r'Seat 2 <span class="badge">dummy</span></th>', body)
