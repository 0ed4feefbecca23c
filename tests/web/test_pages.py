"""Every page of the web site over HTTP, against a real database: what each one shows, the
404s, and the secrecy rule (no card of a board still being played, in any response).

The database (see :mod:`arena_data`) holds a finished rotation tournament, a running one (a
board finished everywhere, a board finished at some tables, a table being played, tables
waiting) and a sealed competition in the same state.
"""

from __future__ import annotations

import html
import json
import re
import urllib.request
from collections import deque

import pytest
from sqlalchemy.exc import OperationalError

from arena.games.french_tarot import DealRecord, card_long_name, format_cards
from arena.storage.bots import BotRegistry
from arena.storage.models import TableStatus
from tests.web.conftest import Site
from tournaments.web.views import WebData

CARD_GROUP = re.compile(r'<span class="cards">(.*?)</span>(?=\s*</|<span class="cards">|$)',
                        re.S)
CARD_LABEL = re.compile(r'<span class="card [a-z]+" title="([^"]+)"')
LINK = re.compile(r'href="(/[^"#?]*)(?:\?[^"#]*)?(?:#[^"]*)?"')


def card_groups(page: str) -> list[tuple[str, ...]]:
    """Every run of cards the page draws (a hand, the chien, a discard...), as card names."""
    groups = []
    for match in re.finditer(r'<span class="cards">((?:<span class="card [^>]*>[^<]*</span>)*)',
                             page):
        groups.append(tuple(html.unescape(label) for label in CARD_LABEL.findall(match[1])))
    return groups


def crawl(site: Site) -> dict[str, str]:
    """Every page reachable from the index by its links, and the first live event of every
    tournament: path -> body."""
    seen: dict[str, str] = {}
    todo = deque(["/"])
    while todo:
        path = todo.popleft()
        if path in seen or path.startswith("/static/"):
            continue
        status, body, _ = site.get(path)
        assert status == 200, (path, status, body[:300])
        seen[path] = body
        for link in LINK.findall(body):
            if link not in seen:
                todo.append(link)
    for tid in (site.data.finished, site.data.running, site.data.sealed):
        seen[f"/tournaments/{tid}/events"] = first_event(site, tid)
    return seen


def first_event(site: Site, tournament_id: str) -> str:
    with urllib.request.urlopen(f"{site.url}/tournaments/{tournament_id}/events",
                                timeout=30) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = []
        while True:
            line = stream.readline().decode()
            if line.startswith("data: "):
                lines.append(line[6:].rstrip("\n"))
            elif line == "\n" and lines:
                return "\n".join(lines)


def hidden_hands(site: Site, tournament_id: str) -> list[tuple[str, ...]]:
    """The hands and chien of every board not finished at all its tables, as card names."""
    store = site.data.store
    hidden = {t.board_number for t, _ in store.tables(tournament_id)
              if t.status != TableStatus.DONE}
    out = []
    for board in store.boards(tournament_id):
        if board.number in hidden:
            deal = DealRecord.loads(board.deal_json).deal
            out += [tuple(card_long_name(c) for c in hand) for hand in (*deal.hands, deal.chien)]
    return out


# ---------------------------------------------------------------------------------- pages
def test_the_index_lists_every_tournament_with_its_progress(site: Site) -> None:
    status, body, headers = site.get("/")
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in headers["content-security-policy"]
    for name in ("Finished rotation", "Running rotation", "Sealed competition"):
        assert name in body
    assert "48/48 tables · 12/12 boards" in body
    assert "6/12 tables · 1/3 boards · 1 playing" in body
    assert "sealed" in body


def test_a_finished_tournament_shows_standings_plot_crosstable_infractions(site: Site) -> None:
    data = site.data
    status, body, _ = site.get(f"/tournaments/{data.finished}")
    assert status == 200
    rows = re.findall(r'<tr(?: class="dq")? data-bot="([^"]+)">', body)
    assert sorted(rows) == sorted(data.store.settings(data.finished).bots)
    assert "95 % interval" in body and " to " in body
    assert re.search(r"p (0\.\d{3}|&lt; 0\.001)", body)  # significance between neighbours
    assert '<svg viewBox="0 0 760 340" role="img"' in body
    assert body.count('class="band"') == 4 and body.count('class="line"') == 4
    assert '<table class="cross">' in body
    # the blunderer fails its first card of the deals it deals, each infraction with its reason
    infractions = sum(s.infractions for _, seats in data.store.tables(data.finished)
                      for s in seats)
    assert infractions > 0
    assert f"{infractions} in all" in body and "malformed-action" in body
    assert "lost my cards" in body
    assert "48 of 48 tables played" in body
    assert "Seed</dt><dd><span class=\"id\">11</span>" in body


def test_a_board_shows_every_table_side_by_side(site: Site) -> None:
    data = site.data
    status, body, _ = site.get(f"/tournaments/{data.finished}/boards/1")
    assert status == 200
    tables = [t for t, _ in data.store.tables(data.finished) if t.board_number == 1]
    for table in tables:
        assert f'href="/tables/{table.id}"' in body
    deal = DealRecord.loads(data.store.boards(data.finished)[1].deal_json).deal
    groups = card_groups(body)
    for hand in deal.hands:
        assert tuple(card_long_name(c) for c in hand) in groups
    assert body.count('<div class="bids">') == 4 * len(tables)
    assert "taker</span>" in body
    assert "duplicate " in body


def test_the_replay_page_has_every_decision_and_the_record(site: Site) -> None:
    data = site.data
    table_id = next(t.id for t, seats in data.store.tables(data.finished)
                    if any(s.infractions for s in seats))
    record = data.store.record(table_id)
    status, body, _ = site.get(f"/tables/{table_id}")
    assert status == 200
    viewer = json.loads(re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', body, re.S)[1])
    steps = viewer["viewer"]["steps"]
    assert len(steps) == len(record.actions) + 1
    assert steps[0]["hands"] == [list(h) for h in record.deal.hands]
    assert all(step["seconds"] is not None for step in steps[1:])
    assert body.count('data-step="') == len(record.actions)
    assert "fallback played: the bot raised ValueError: lost my cards" in body
    assert f'href="/tables/{table_id}/record.json"' in body
    status, text, headers = site.get(f"/tables/{table_id}/record.json")
    assert status == 200 and headers["content-type"] == "application/json"
    assert DealRecord.loads(text) == record


def test_a_bot_page_has_results_latency_and_infractions(site: Site) -> None:
    data = site.data
    blunderer = next(b for b, n in data.names.items() if n == "blunderer")
    status, body, _ = site.get(f"/bots/{blunderer}")
    assert status == 200
    for name in ("Finished rotation", "Running rotation", "Sealed competition"):
        assert name in body
    assert re.search(r"\d+ decisions: mean [\d.]+ (µs|ms|s), median", body)
    assert "Infraction history" in body and "malformed-action" in body
    assert "Not connected yet" in body and 'id="versions"' not in body


def test_a_bot_page_lists_the_versions_its_connections_named(site: Site) -> None:
    heuristic = next(b for b, n in site.data.names.items() if n == "heuristic")
    status, body, _ = site.get(f"/bots/{heuristic}")
    assert status == 200 and "not kept" not in body
    table = body.split('<table class="list" id="versions">', 1)[1].split("</table>", 1)[0]
    rows = [re.sub(r"<[^>]+>", "|", row) for row in re.findall(r"<tr>(.*?)</tr>", table)]
    cells = [[c for c in row.split("|") if c.strip()] for row in rows]
    assert cells == [
        ["Version", "Name sent", "First seen (UTC)", "Last seen (UTC)", "Connections"],
        ["2.0-rc1", "HeuristicBot &lt;beta&gt;", "2026-11-30 10:00", "2026-11-30 10:00", "1"],
        ["1.0", "HeuristicBot", "2026-11-30 08:00", "2026-11-30 09:00", "2"],
    ]


def test_a_new_version_shows_at_the_next_load(site: Site) -> None:
    """A connection changes no tournament, so the bot page's cache must not hide it."""
    registry = BotRegistry(site.data.store.engine)
    newcomer = registry.register("newcomer")[0].id
    assert "Not connected yet" in site.get(f"/bots/{newcomer}")[1]
    registry.record_hello(newcomer, "newcomer", "0.9")
    body = site.get(f"/bots/{newcomer}")[1]
    assert "Not connected yet" not in body and "<code>0.9</code>" in body


# ----------------------------------------------------------------------------- bad input
def test_unknown_ids_get_a_404_page_never_a_traceback(site: Site) -> None:
    data = site.data
    for path in ("/tournaments/nope", "/tournaments/nope/boards/0",
                 f"/tournaments/{data.finished}/boards/12",
                 f"/tournaments/{data.finished}/boards/99999999999999999999",
                 "/tournaments/nope/events", "/tables/nope", "/tables/nope/record.json",
                 "/bots/nope", "/no/such/page", "/static/nope.css",
                 f"/tournaments/{data.finished}/boards/x"):
        status, body, headers = site.get(path)
        assert status == 404, path
        assert headers["content-type"].startswith("text/html"), path
        assert "Not found" in body and "Traceback" not in body, path
    status, body, _ = site.get(f"/tournaments/{data.finished}?page=abc")
    assert status == 400 and "page must be a whole number" in body


def test_the_page_changes_nothing(site: Site) -> None:
    request = urllib.request.Request(f"{site.url}/tournaments/{site.data.running}",
                                     method="POST", data=b"")
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("a POST was accepted")
    except urllib.error.HTTPError as error:
        assert error.code == 405


# -------------------------------------------------------------------------------- secrecy
def test_no_response_shows_a_card_of_a_board_still_being_played(site: Site) -> None:
    data = site.data
    pages = crawl(site)
    shown = {group for body in pages.values() for group in card_groups(body)}
    # the detector finds hands when they are shown: the finished tournament's
    finished = DealRecord.loads(data.store.boards(data.finished)[0].deal_json).deal
    assert tuple(card_long_name(c) for c in finished.hands[0]) in shown
    # and the running tournaments' finished boards too
    for tid in (data.running, data.sealed):
        board0 = DealRecord.loads(data.store.boards(tid)[0].deal_json).deal
        assert tuple(card_long_name(c) for c in board0.hands[0]) in shown
        for hand in hidden_hands(site, tid):
            assert hand not in shown, f"a hand of a board in play is on the page ({tid})"
    everything = "\n".join(pages.values())
    for tid in (data.running, data.sealed):
        for board in data.store.boards(tid):
            deal = DealRecord.loads(board.deal_json).deal
            if tuple(card_long_name(c) for c in deal.hands[0]) in hidden_hands(site, tid):
                for hand in deal.hands:
                    assert format_cards(hand) not in everything
                assert board.deal_seed not in everything


def test_a_table_of_a_board_in_play_shows_no_card_and_no_record(site: Site) -> None:
    data = site.data
    for table_id in data.hidden_tables(data.running):
        status, body, _ = site.get(f"/tables/{table_id}")
        assert status == 200
        assert card_groups(body) == [] and "replay-data" not in body
        assert "record.json" not in body
        assert site.get(f"/tables/{table_id}/record.json")[0] == 404
    status, body, _ = site.get(f"/tables/{data.running_table}")
    assert "is being played" in body


def test_a_sealed_competition_shows_nothing_of_a_board_in_play(site: Site) -> None:
    data = site.data
    pages = crawl(site)
    everything = "\n".join(pages.values())
    hidden = data.hidden_tables(data.sealed)
    assert hidden
    for table_id in hidden:
        # not even the opaque table id: it would tie a table to its board
        assert table_id not in everything
        assert site.get(f"/tables/{table_id}")[0] == 404
        assert site.get(f"/tables/{table_id}/record.json")[0] == 404
    assert "99991234" not in everything  # the seed, until the end
    status, body, _ = site.get(f"/tournaments/{data.sealed}/boards/1")
    assert status == 200 and "still being played" in body and card_groups(body) == []
    # its standings count only the boards finished everywhere
    status, body, _ = site.get(f"/tournaments/{data.sealed}")
    assert "1 of 4 boards complete" in body
    boards = re.findall(r'<td class="num" data-label="Boards">(\d+)</td>', body)
    assert boards and set(boards) <= {"0", "1"}


def test_a_busy_database_or_a_bug_gets_a_page_not_a_traceback(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    def busy(self: WebData) -> None:
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(WebData, "tournaments", busy)
    status, body, _ = site.get("/")
    assert status == 503 and "The database is busy" in body and "locked" not in body

    def broken(self: WebData) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(WebData, "tournaments", broken)
    status, body, _ = site.get("/")
    assert status == 500 and "Something went wrong" in body
    assert "a bug" not in body and "Traceback" not in body
