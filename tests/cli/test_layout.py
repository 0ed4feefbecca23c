"""Every CLI table at 80 columns: ids whole (copyable), no cell cut short; ``--json`` for each.

Tournaments are played in-process (the store's claims, RandomBots through
:func:`clients.local.play_local`), so the rows are those a served tournament writes.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
import trio
from rich.console import Console

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from clients.local import play_local
from clients.random_bot import RandomBot
from tests.cli.entry import run_entry_point
from tournaments.cli import commands as cli_module
from tournaments.cli.export import standings_of
from tournaments.duplicate.settings import (
    Penalties,
    PenaltyKind,
    ScoringMethod,
    Seating,
    TournamentSettings,
)
from tournaments.store import TournamentStore

NAMES = ("heuristic-deluxe", "a-rather-long-bot-name-for-a-narrow-screen", "charlie", "delta",
         "echo", "foxtrot")


@dataclass(frozen=True)
class World:
    url: str
    bots: dict[str, str]
    """bot id -> name"""
    rotation: str
    gauntlet: str
    field: str
    five: str

    @property
    def store(self) -> TournamentStore:
        return TournamentStore(make_engine(self.url))


def play_all(store: TournamentStore, tid: str) -> None:
    settings = store.settings(tid)
    seeds = {bot_id: index for index, bot_id in enumerate(settings.bots)}
    while (claim := store.claim_next(tid, "tester")) is not None:
        outcome = trio.run(lambda c=claim: play_local(
            c.deal, settings.table_options, [RandomBot(seeds[b]) for b in c.bots],
            c.table_id, bot_ids=c.bots))
        assert store.finish(claim.table_id, "tester", outcome)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    url = f"sqlite:///{tmp_path_factory.mktemp('layout')}/arena.db"
    store = TournamentStore(make_engine(url))
    registry = BotRegistry(store.engine)
    ids = [registry.register(name, owner="someone with a long owner name")[0].id
           for name in NAMES]
    registry.record_hello(ids[0], "HeuristicBot", "2.0.0-rc1+build.20261130")
    registry.record_hello(ids[1], "a-rather-long-bot-name-for-a-narrow-screen", "")
    registry.record_hello(ids[2], "charlie", "1.0")
    rotation = store.create(TournamentSettings(
        name="rotation with matchpoints and penalties", bots=tuple(ids[:4]), boards=3, seed=5,
        scoring=ScoringMethod.MATCHPOINTS, penalties=Penalties(PenaltyKind.POINTS, 50, 40)))
    gauntlet = store.create(TournamentSettings(
        name="gauntlet", bots=(ids[1], ids[0]), seating=Seating.GAUNTLET, boards=2, seed=6))
    field = store.create(TournamentSettings(
        name="field", bots=tuple(ids), seating=Seating.FIELD, boards=4, seed=7))
    five = store.create(TournamentSettings(
        name="five players", bots=tuple(ids[:5]), players=5, boards=1, seed=8))
    for tid in (rotation, gauntlet, field, five):
        play_all(store, tid)
    return World(url, dict(zip(ids, NAMES, strict=True)), rotation, gauntlet, field, five)


Run = Callable[..., tuple[str, str]]


@pytest.fixture
def at_80(
    world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Run]:
    """``at_80("standings", tid)``: the command's stdout and stderr, printed on an 80-column
    console, through the real entry point."""
    monkeypatch.setattr(cli_module, "console", Console(width=80))

    def invoke(*args: str) -> tuple[str, str]:
        code, out, err = run_entry_point(capsys, monkeypatch, "--db", world.url, *args)
        assert code == 0, (out, err)
        assert err == "" or "--json" in args, err
        return out, err

    yield invoke


def assert_readable(out: str, ids: list[str]) -> None:
    """Nothing wider than 80 columns, nothing cut short, every id whole on one line."""
    for line in out.splitlines():
        assert len(line) <= 80, line
    assert "…" not in out and "..." not in out, out
    for identifier in ids:
        assert re.search(rf"(?<![\w-]){re.escape(identifier)}(?![\w-])", out), (identifier, out)


def test_bots_list_at_80_columns(world: World, at_80: Run) -> None:
    out, _ = at_80("bots", "list")
    assert_readable(out, list(world.bots))
    for version in ("2.0.0-rc1+build", "(none sent)", "1.0"):  # each a word, never cut
        assert version in out
    rows = json.loads(at_80("bots", "list", "--json")[0])
    assert [(r["id"], r["name"], r["revoked"]) for r in rows] == [
        (i, n, False) for i, n in world.bots.items()]
    assert [[v["version"] for v in r["versions"]] for r in rows] == [
        ["2.0.0-rc1+build.20261130"], [""], ["1.0"], [], [], []]


def test_tournament_list_at_80_columns(world: World, at_80: Run) -> None:
    out, _ = at_80("tournament", "list")
    tids = [world.rotation, world.gauntlet, world.field, world.five]
    assert_readable(out, tids)
    rows = json.loads(at_80("tournament", "list", "--json")[0])
    assert [r["id"] for r in rows] == tids
    assert all(r["status"] == "running" or r["tables_done"] == r["tables_total"] for r in rows)


@pytest.mark.parametrize("which", ["rotation", "gauntlet", "field", "five"])
def test_tournament_tables_at_80_columns(world: World, at_80: Run, which: str) -> None:
    tid = getattr(world, which)
    tables = world.store.tables(tid)
    out, _ = at_80("tournament", "tables", tid)
    assert_readable(out, [t.id for t, _ in tables])
    assert "board" in out and "status" in out and "done" in out
    for _table, seats in tables:  # every seat's score is shown
        for seat in seats:
            assert f"{seat.score:+d}" in out
    compared_out = any(not s.scored for _, seats in tables for s in seats)
    assert ("* not compared:" in out) is compared_out  # explained where it appears
    rows = json.loads(at_80("tournament", "tables", tid, "--json")[0])
    assert [r["id"] for r in rows] == [t.id for t, _ in tables]
    assert [[(s["bot_id"], s["score"], s["scored"]) for s in r["seats"]] for r in rows] == [
        [(s.bot_id, s.score, s.scored) for s in seats] for _, seats in tables]


@pytest.mark.parametrize("which", ["rotation", "gauntlet", "field", "five"])
def test_standings_at_80_columns(world: World, at_80: Run, which: str) -> None:
    tid = getattr(world, which)
    out, _ = at_80("standings", tid)
    assert_readable(out, [tid])
    standings = standings_of(world.store, tid)
    for row in standings.rows:
        assert f"{row.per_board.mean:+.1f}" in out and f"{row.total:+.0f}" in out
    for header in ("points ±95%", "total", "MP %", "boards", "infractions", "ahead"):
        assert header in out, header  # no column dropped for lack of room
    for row in standings.rows:  # each bot's infractions and boards are on its lines
        assert re.search(rf"^{row.rank} .* {row.boards} .*  0 *$", out, re.MULTILINE), out
    assert "total: the sum of those differences" in out  # every column explained
    assert "Head to head" in out
    data = json.loads(at_80("standings", tid, "--json")[0])
    assert [r["bot_id"] for r in data["standings"]] == [r.bot_id for r in standings.rows]
    assert {(c["bot"], c["opponent"]) for c in data["crosstable"]} == set(standings.crosstable)


def test_standings_under_matchpoints_rank_by_mp_and_show_penalties(
    world: World, at_80: Run
) -> None:
    out, _ = at_80("standings", world.rotation)
    header = next(line for line in out.splitlines() if line.startswith("#"))
    assert header.index("MP %") < header.index("points")  # the ranking column comes first
    assert "Ranked by MP %" in out
    assert "penalty: points taken off the raw scores for infractions (50 per infraction)" in out
    assert any(line.startswith("#") and "penalty" in line for line in out.splitlines())
    data = json.loads(at_80("standings", world.rotation, "--json")[0])
    assert all("penalty_points" in r and r["matchpoint_ci95_low"] is not None
               for r in data["standings"])


def test_the_crosstable_falls_back_to_pairs_when_too_wide(world: World, at_80: Run) -> None:
    out, _ = at_80("standings", world.field)  # six bots: a 6x6 matrix does not fit
    standings = standings_of(world.store, world.field)
    pairs = [line for line in out.splitlines() if "against" in line or re.search(
        r"[+-]\d+\.\d +\d+$", line)]
    assert pairs and all(len(line) <= 80 for line in pairs)
    for (a, b), (mean, _n) in standings.crosstable.items():
        if a < b:
            continue
        assert f"{mean:+.1f}" in out or f"{-mean:+.1f}" in out, (a, b)


def test_the_wide_tables_layout_when_it_fits(world: World, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli_module, "console", Console(width=300))
    monkeypatch.setattr(sys, "argv", ["tarot-arena", "--db", world.url, "tournament", "tables",
                                      world.rotation])
    cli_module.main()
    out = capsys.readouterr().out
    assert "seat 0" in out and "seat 3" in out  # one column per seat
    table, _ = world.store.tables(world.rotation)[0]
    assert len([line for line in out.splitlines() if table.id in line]) == 1


def test_replay_at_80_columns(world: World, at_80: Run) -> None:
    table = next(t for t, _ in world.store.tables(world.five) if t.outcome == "played")
    out, _ = at_80("replay", table.id)
    assert_readable(out, [])
    for name in NAMES[:5]:
        assert f"({name})" in out.replace("\n", "")  # a long name may wrap, never cut
    data = json.loads(at_80("replay", table.id, "--json")[0])
    assert data["table"] == table.id and len(data["bots"]) == 5
    assert data["record"]["format"] == "tarot-arena/deal-record/1"


def test_live_progress_at_80_columns() -> None:
    """The bar of `tournament run`, `serve` and the demo, with its figures, fits whole."""
    import io

    from rich.console import Console

    from tournaments.play.live import TournamentProgress

    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=False)
    with TournamentProgress(console) as bar:
        bar.add_task("tour_1a2b3c4d5e6f", total=12800, completed=6400, boards=1600,
                     board_total=3200, running=16, infractions=123)
        bar.refresh()
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert all(len(line) <= 80 and "…" not in line for line in lines), lines
    text = " ".join(lines)
    for figure in ("tour_1a2b3c4d5e6f", "6400/12800 tables", "boards 1600/3200", "running 16",
                   "infractions 123"):
        assert figure in text
