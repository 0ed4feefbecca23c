"""``tarot-arena``: every command's output, and its errors as one line with exit status 1.

Most tests run the real entry point (:func:`tournaments.cli.commands.main`, argv and all)
in-process; the ones about processes (tracebacks, exit statuses, a bot that cannot reach the arena,
an arena serving bot processes) run ``python -m tournaments.cli`` for real. Played tables come from
a small tournament played in-process (arena, RandomBot clients, runner) on a SQLite file.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
import trio
from sqlmodel import Session, select

from arena.games.french_tarot import Play
from arena.storage.bots import BotRegistry, hash_token
from arena.storage.db import make_engine
from arena.storage.models import Bot as BotRow
from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer
from clients import run
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, ArenaUnreachableError, Backoff
from clients.sdk._client import _run_until_signal
from tests.cli.entry import run_entry_point
from tournaments.cli import commands as cli_module
from tournaments.cli.export import standings_of
from tournaments.duplicate.settings import PenaltyKind, ScoringMethod, Seating, TournamentSettings
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
MAX_SEED = 2**64 - 1
TOKEN = re.compile(r"tka_[A-Za-z0-9_-]+")
TOUR = re.compile(r"tour_[0-9a-f]+")


# ------------------------------------------------------------------------------ helpers
@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def error(self) -> str:
        """The error: exit status 1 and exactly one ``error: ...`` line on stderr."""
        lines = self.err.strip().splitlines()
        assert self.code == 1, (self.code, self.out, self.err)
        assert len(lines) == 1 and lines[0].startswith("error: "), self.err
        assert "Traceback" not in self.err + self.out
        return lines[0]

    @property
    def usage_error(self) -> str:
        """A usage error: exit status 2, one ``error: ...`` line on stderr."""
        lines = self.err.strip().splitlines()
        assert self.code == 2, (self.code, self.out, self.err)
        assert len(lines) == 1 and lines[0].startswith("error: "), self.err
        assert "Traceback" not in self.err + self.out
        return lines[0]


Cli = Callable[..., Result]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/arena.db"


@pytest.fixture
def cli(
    sqlite_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Cli]:
    """``cli("bots", "list")`` runs ``tarot-arena --db <a fresh SQLite file> bots list``
    through the real entry point; ``db=`` picks another database."""
    level = logging.getLogger().level

    def invoke(*args: str, db: str | None = None) -> Result:
        return Result(*run_entry_point(capsys, monkeypatch, "--db", db or sqlite_url, *args))

    yield invoke
    logging.getLogger().setLevel(level)  # ``bot`` turns the bot's INFO log on


@pytest.fixture
def bots(sqlite_url: str) -> list[str]:
    """The ids of six registered bots: alpha, bravo, ... foxtrot."""
    registry = BotRegistry(make_engine(sqlite_url))
    return [registry.register(name)[0].id
            for name in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_ARENA_TOKEN", "TAROT_ARENA_DB", "COLUMNS")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def tarot_arena(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                          env=environment(), capture_output=True, text=True, timeout=timeout)


def assert_one_error_line(result: subprocess.CompletedProcess[str], message: str) -> None:
    """Exit status 1, and ``message`` as the only stderr line: no traceback."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.strip().splitlines() == [message], result.stderr
    assert "Traceback" not in result.stdout


# ------------------------------------------------------------------ a played tournament
@dataclass(frozen=True)
class Played:
    url: str
    tournament_id: str
    names: dict[str, str]
    """bot id -> name"""

    @property
    def store(self) -> TournamentStore:
        return TournamentStore(make_engine(self.url))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Two boards in rotation (8 tables) played by four RandomBots, in-process, on SQLite."""
    url = f"sqlite:///{tmp_path_factory.mktemp('played')}/arena.db"
    return trio.run(_play, url)


async def _play(url: str) -> Played:
    store = TournamentStore(make_engine(url))
    registry = BotRegistry(store.engine)
    registered = [registry.register(name) for name in ("alpha", "bravo", "charlie", "delta")]
    settings = TournamentSettings(name="played", bots=tuple(b.id for b, _ in registered),
                                  boards=2, seed=11, per_decision=5.0)
    tid = store.create(settings)
    server = ArenaServer(registry)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        for index, (_, token) in enumerate(registered):
            client = ArenaClient(RandomBot(seed=index), f"127.0.0.1:{port}", token,
                                 max_tables=8, backoff=Backoff(0.05, 0.2))
            await nursery.start(client.run)
        with trio.fail_after(60):
            await TournamentRunner(store, RemoteArena(server), tid, concurrency=8).run()
        nursery.cancel_scope.cancel()
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    return Played(url, tid, {b.id: b.name for b, _ in registered})


# --------------------------------------------------------------------------------- bots
def test_bots_add_prints_the_id_and_a_working_token_once_and_stores_only_its_hash(
    cli: Cli, sqlite_url: str, tmp_path: Path
) -> None:
    result = cli("bots", "add", "my-bot", "--owner", "ada")
    assert result.code == 0, result.err
    bot_id = re.search(r"bot id: (bot_[0-9a-f]+)", result.out)
    tokens = TOKEN.findall(result.out)
    assert bot_id and len(tokens) == 1, result.out
    token = tokens[0]
    assert "not stored" in result.err  # the warning goes to stderr, out of a script's way
    registry = BotRegistry(make_engine(sqlite_url))
    summary = registry.authenticate(token)
    assert summary is not None and summary.id == bot_id[1] and summary.name == "my-bot"
    assert registry.authenticate(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    with Session(make_engine(sqlite_url)) as session:
        row = session.exec(select(BotRow)).one()
    assert row.token_hash == hash_token(token) and row.owner == "ada"
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("arena.db*"))
    assert token.encode() not in stored  # nowhere in the database files, WAL included
    assert TOKEN.search(cli("bots", "list").out) is None  # never shown again


@pytest.mark.parametrize(("args", "message"), [
    (["bots", "add", "bad/name"], "bad bot name 'bad/name'"),
    (["bots", "add", "x" * 65], "1 to 64 letters"),
    (["bots", "add", "ok", "--owner", "o" * 101], "the owner is at most 100 characters"),
])
def test_bots_add_rejects_bad_names(cli: Cli, args: list[str], message: str) -> None:
    assert message in cli(*args).error
    assert "bot_" not in cli("bots", "list").out


def test_bots_list_and_revoke(cli: Cli, bots: list[str], sqlite_url: str) -> None:
    listed = cli("bots", "list")
    assert listed.code == 0
    assert re.findall(r"bot_[0-9a-f]+", listed.out) == bots
    for name in ("alpha", "bravo", "foxtrot"):
        assert name in listed.out
    assert "revoked" not in listed.out and listed.out.count("active") == 6

    revoked = cli("bots", "revoke", bots[1])
    assert revoked.code == 0 and f"{bots[1]}: revoked" in revoked.out
    assert BotRegistry(make_engine(sqlite_url)).get(bots[1]).revoked
    again = cli("bots", "revoke", bots[1])
    assert again.code == 0 and "was already revoked" in again.out
    row = next(line for line in cli("bots", "list").out.splitlines() if bots[1] in line)
    assert "revoked" in row
    assert cli("bots", "revoke", "bot_nope").error == "error: no bot with id 'bot_nope'"


def test_bots_list_shows_the_last_version_each_bot_connected_with(
    cli: Cli, bots: list[str], sqlite_url: str
) -> None:
    registry = BotRegistry(make_engine(sqlite_url))
    alpha, bravo = bots[0], bots[1]
    registry.record_hello(alpha, "alpha-bot", "1.0", datetime(2026, 11, 30, 9, tzinfo=UTC))
    registry.record_hello(alpha, "alpha-bot", "1.1", datetime(2026, 11, 30, 10, tzinfo=UTC))
    registry.record_hello(alpha, "alpha-bot", "1.0", datetime(2026, 11, 30, 8, tzinfo=UTC))
    registry.record_hello(bravo, "bravo", "", datetime(2026, 11, 30, 9, tzinfo=UTC))
    out = cli("bots", "list").out
    rows = {bot_id: next(line for line in out.splitlines() if bot_id in line) for bot_id in bots}
    assert re.search(r"\s1\.1\s", rows[alpha]) and "1.0" not in rows[alpha]
    assert "(none sent)" in rows[bravo]
    assert all(re.search(r"\s-\s", rows[b]) for b in bots[2:])
    assert "version: the one the bot's latest connection sent" in out

    listed = {row["id"]: row for row in json.loads(cli("bots", "list", "--json").out)}
    assert listed[alpha]["versions"] == [
        {"version": "1.1", "name": "alpha-bot", "first_seen": "2026-11-30T10:00:00+00:00",
         "last_seen": "2026-11-30T10:00:00+00:00", "connections": 1},
        {"version": "1.0", "name": "alpha-bot", "first_seen": "2026-11-30T08:00:00+00:00",
         "last_seen": "2026-11-30T09:00:00+00:00", "connections": 2},
    ]
    assert [v["version"] for v in listed[bravo]["versions"]] == [""]
    assert all(listed[b]["versions"] == [] for b in bots[2:])


def test_bots_list_shows_the_versions_of_a_served_tournaments_bots(
    cli: Cli, played: Played
) -> None:
    """RandomBot says version 1 in its Hello: the arena that served the tournament kept it."""
    out = cli("bots", "list", db=played.url).out
    for bot_id in played.names:
        row = next(line for line in out.splitlines() if bot_id in line)
        assert re.search(rf"\s{RandomBot.version}\s", row), row
    for row in json.loads(cli("bots", "list", "--json", db=played.url).out):
        assert [(v["version"], v["name"]) for v in row["versions"]] == [
            (RandomBot.version, RandomBot.name)]
        assert row["versions"][0]["connections"] >= 1


def test_bots_list_on_an_empty_database(cli: Cli) -> None:
    result = cli("bots", "list")
    assert result.code == 0 and "bot_" not in result.out and "name" in result.out


# --------------------------------------------------------------------------- tournaments
@pytest.mark.parametrize(("seating", "count", "extra", "tables"), [
    ("rotation", 4, [], 8),
    ("field", 6, [], 4),
    ("field", 6, ["--tables-per-board", "3"], 6),
    ("gauntlet", 2, [], 10),
])
def test_tournament_create(
    cli: Cli, bots: list[str], sqlite_url: str, seating: str, count: int, extra: list[str],
    tables: int,
) -> None:
    result = cli("tournament", "create", *bots[:count], "--seating", seating, "--boards", "2",
                 "--seed", "7", "--name", f"{seating} test", *extra)
    assert result.code == 0, result.err
    tid = TOUR.search(result.out)
    assert tid, result.out
    assert f"2 boards, {tables} tables, seating {seating}" in result.out
    store = TournamentStore(make_engine(sqlite_url))
    settings = store.settings(tid[0])
    assert settings.seating is Seating(seating) and settings.bots == tuple(bots[:count])
    assert settings.seed == 7 and settings.name == f"{seating} test"
    assert store.progress(tid[0]).pending == tables


def test_tournament_create_counts_one_board_in_the_singular(
    cli: Cli, bots: list[str]
) -> None:
    result = cli("tournament", "create", *bots[:4], "--boards", "1", "--seed", "7")
    assert result.code == 0, result.err
    assert "1 board, 4 tables, seating rotation" in result.out


def test_tournament_create_with_every_option(cli: Cli, bots: list[str], sqlite_url: str) -> None:
    result = cli("tournament", "create", *bots[:3], "--players", "3", "--boards", "3",
                 "--seed", "0x2a", "--variant", "beginner", "--direction", "clockwise",
                 "--per-decision", "0.5", "--time-bank", "2", "--penalty", "points",
                 "--penalty-points", "10", "--disqualify-after", "3", "--scoring",
                 "matchpoints")
    assert result.code == 0, result.err
    settings = TournamentStore(make_engine(sqlite_url)).settings(TOUR.search(result.out)[0])
    assert (settings.players, settings.boards, settings.seed) == (3, 3, 42)
    assert settings.game_settings == {"beginner": True, "direction": "clockwise"}
    assert settings.table_options.beginner and settings.table_options.direction.value == (
        "clockwise")
    assert (settings.per_decision, settings.time_bank) == (0.5, 2.0)
    assert settings.penalties.kind is PenaltyKind.POINTS
    assert (settings.penalties.points, settings.penalties.disqualify_after) == (10, 3)
    assert settings.scoring is ScoringMethod.MATCHPOINTS


@pytest.mark.parametrize(("seed", "value"), [("0", 0), ("010", 10), ("0xff", 255),
                                             (str(MAX_SEED), MAX_SEED)])
def test_tournament_seeds(cli: Cli, bots: list[str], sqlite_url: str, seed: str,
                          value: int) -> None:
    result = cli("tournament", "create", *bots[:4], "--boards", "1", "--seed", seed)
    assert result.code == 0, result.err
    store = TournamentStore(make_engine(sqlite_url))
    assert store.settings(TOUR.search(result.out)[0]).seed == value


TOO_BIG = str(2**64)


@pytest.mark.parametrize(("pick", "args", "message"), [
    (3, ["bot_nope"], "error: no bot with id or name 'bot_nope'"),
    (4, ["--seed", "xx"], "error: bad seed 'xx': an integer 0..2**64-1 (decimal or 0x...)"),
    (4, ["--seed", "1.5"], "error: bad seed '1.5'"),
    (4, ["--seed", "-1"], f"error: the seed must be an integer in 0..{MAX_SEED}, got -1"),
    (4, ["--seed", TOO_BIG], f"error: the seed must be an integer in 0..{MAX_SEED}, got {TOO_BIG}"),
    (4, ["--variant", "weird"], "error: unknown variant 'weird': expected classic or beginner"),
    (4, ["--seating", "weird"],
     "error: unknown seating 'weird': expected rotation, field, gauntlet or competition"),
    (4, ["--direction", "up"], "error: unknown direction 'up'"),
    (4, ["--penalty", "death"], "error: unknown penalty 'death'"),
    (4, ["--scoring", "elo"], "error: unknown scoring 'elo'"),
    (3, [], "error: rotation seating needs exactly 4 bots (one per seat), got 3"),
    (5, ["--seating", "rotation"], "error: rotation seating needs exactly 4 bots"),
    (4, ["--seating", "gauntlet"],
     "error: gauntlet seating needs 2 bots (candidate, reference) or 3 (candidate, reference, "
     "filler), got 4"),
    (4, ["--seating", "field"], "error: field seating needs more bots than seats (4), got 4"),
    (6, ["--seating", "field", "--tables-per-board", "1"], "error: tables per board must be 2..64"),
    (4, ["--tables-per-board", "2"],
     "error: tables per board is a setting of competition or field seating only"),
    (4, ["--players", "6"], "error: French Tarot is played by 2, 3, 4 or 5 players, not 6"),
    (4, ["--players", "1"], "error: French Tarot is played by 2, 3, 4 or 5 players, not 1"),
    (4, ["--players", "2"], "error: rotation seating needs exactly 2 bots (one per seat), got 4"),
    (4, ["--per-decision", "-1"], "error: time per decision must be in (0, 600] seconds"),
    (4, ["--per-decision", "0"], "error: time per decision must be in (0, 600] seconds"),
    (4, ["--time-bank", "-1"], "error: the time bank must be 0..3600 seconds, got -1.0"),
    (4, ["--boards", "0"], "error: boards must be 1..100000, got 0"),
    (4, ["--name", " "], "error: the name must be 1 to 100 characters"),
    (4, ["--penalty", "points"], "error: a points penalty needs a positive number of points"),
    (4, ["--disqualify-after", "0"], "error: disqualify after must be at least 1 infraction"),
    (4, ["--setting", "colour"], "error: --setting takes NAME=VALUE, got 'colour'"),
    (4, ["--setting", "colour=blue"], "error: unknown French Tarot setting 'colour'"),
    (4, ["--setting", "beginner=maybe"], "error: beginner must be true or false, not 'maybe'"),
    (4, ["--variant", "beginner", "--setting", "beginner=false"],
     "error: --setting beginner=false contradicts another option asking beginner=true"),
    (3, ["--game", "tre-e-venticinque", "--variant", "beginner"],
     "error: unknown settings beginner: Tre e Venticinque has no"),
])
def test_tournament_create_errors(
    cli: Cli, bots: list[str], sqlite_url: str, pick: int, args: list[str], message: str
) -> None:
    assert cli("tournament", "create", *bots[:pick], *args).error.startswith(message)
    assert TournamentStore(make_engine(sqlite_url)).list() == []  # nothing half-created


def test_tournament_create_takes_the_games_settings_by_name(
    cli: Cli, bots: list[str], sqlite_url: str
) -> None:
    result = cli("tournament", "create", *bots[:4], "--setting", "beginner=true",
                 "--setting", "direction=clockwise")
    assert result.code == 0, result.err
    settings = TournamentStore(make_engine(sqlite_url)).settings(TOUR.search(result.out)[0])
    assert settings.game_settings == {"beginner": True, "direction": "clockwise"}
    listed = cli("games").out
    assert "--setting beginner=false (false | true): the beginner variant" in listed
    assert "French Tarot (2, 3, 4, 5 players; 4 unless --players says otherwise)" in listed
    assert "Tre e Venticinque (3 players)" in listed
    french, tre = json.loads(cli("games", "--json").out)
    assert french["settings"][1]["choices"] == ["counter-clockwise", "clockwise"]
    assert (french["default_players"], french["imposed_boards"]) == (4, True)
    assert (tre["default_players"], tre["imposed_boards"]) == (3, False)


def test_tournament_create_refuses_a_revoked_or_repeated_bot(cli: Cli, bots: list[str]) -> None:
    assert cli("tournament", "create", bots[0], bots[0], *bots[1:3]).error == (
        "error: a bot is listed twice")
    cli("bots", "revoke", bots[3])
    assert cli("tournament", "create", *bots[:4]).error == (
        f"error: bot {bots[3]} (delta) is revoked")


def test_usage_errors_keep_click_s_exit_status(cli: Cli, bots: list[str]) -> None:
    result = cli("tournament", "create", *bots[:4], "--boards", "many")
    assert result.code == 2 and "Invalid value for '--boards'" in result.err
    assert "Traceback" not in result.err


def test_markup_in_user_input_is_printed_as_text(cli: Cli, bots: list[str]) -> None:
    """Rich markup in a name or an argument is neither interpreted nor a crash."""
    assert cli("standings", "[/nope]").error == "error: no tournament with id '[/nope]'"
    assert cli("tournament", "create", "[bold]x", *bots[:3]).error == (
        "error: no bot with id or name '[bold]x' (tarot-arena bots list shows them)")
    created = cli("tournament", "create", *bots[:4], "--name", "[red]cup[/red] [/x]")
    assert created.code == 0, created.err
    assert "[red]cup[/red] [/x]" in cli("tournament", "list").out
    assert "[red]cup[/red] [/x]" in cli("standings", TOUR.search(created.out)[0]).out


def test_tournament_list(cli: Cli, bots: list[str]) -> None:
    assert "tour_" not in cli("tournament", "list").out
    first = TOUR.search(cli("tournament", "create", *bots[:4], "--name", "spring").out)[0]
    second = TOUR.search(cli("tournament", "create", *bots[:2], "--seating", "gauntlet",
                             "--boards", "3", "--name", "autumn").out)[0]
    listed = cli("tournament", "list")
    assert listed.code == 0
    assert TOUR.findall(listed.out) == [first, second]
    rows = {tid: next(line for line in listed.out.splitlines() if tid in line)
            for tid in (first, second)}
    assert "spring" in rows[first] and "created" in rows[first] and "0/32" in rows[first]
    assert "autumn" in rows[second] and "0/15" in rows[second]


def test_tournament_list_shows_a_played_tournament_finished(cli: Cli, played: Played) -> None:
    row = next(line for line in cli("tournament", "list", db=played.url).out.splitlines()
               if played.tournament_id in line)
    assert "finished" in row and "8/8" in row


# ---------------------------------------------------------------------------- standings
def test_standings_before_play(cli: Cli, bots: list[str]) -> None:
    tid = TOUR.search(cli("tournament", "create", *bots[:4], "--boards", "2").out)[0]
    result = cli("standings", tid)
    assert result.code == 0, result.err
    assert f"({tid}): 0/8 tables" in result.out
    assert "no table finished yet" in result.out


def test_standings_after_play(cli: Cli, played: Played) -> None:
    result = cli("standings", played.tournament_id, db=played.url)
    assert result.code == 0, result.err
    assert f"played ({played.tournament_id}): 8/8 tables, scoring datum" in result.out
    rows = [line for line in result.out.splitlines() if re.match(r"^[1-4] +\S", line)]
    assert len(rows) == 4, result.out
    expected = standings_of(played.store, played.tournament_id).rows
    for line, row in zip(rows, expected, strict=True):
        assert played.names[row.bot_id] in line and f"{row.per_board.mean:+.1f}" in line


def test_standings_of_an_unknown_tournament(cli: Cli) -> None:
    assert cli("standings", "tour_nope").error == "error: no tournament with id 'tour_nope'"


# ------------------------------------------------------------------------------- export
def test_export_writes_json_and_csv_that_parse(cli: Cli, played: Played, tmp_path: Path) -> None:
    tid = played.tournament_id
    out = tmp_path / "out" / "nested"
    result = cli("export", tid, "--out", str(out), db=played.url)
    assert result.code == 0, result.err
    names = [f"{tid}.json", f"{tid}-standings.csv", f"{tid}-tables.csv",
             f"{tid}-decisions.csv"]
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    for name in names:
        assert f"wrote {out / name}" in result.out

    data = json.loads((out / f"{tid}.json").read_text())
    assert data["tournament"]["id"] == tid and data["tournament"]["status"] == "finished"
    assert data["bots"] == played.names
    assert len(data["boards"]) == 2 and len(data["tables"]) == 8
    assert all(t["status"] == "done" and t["record"] for t in data["tables"])
    assert {row["bot"] for row in data["standings"]} == set(played.names.values())

    with (out / f"{tid}-standings.csv").open() as handle:
        standings = list(csv.DictReader(handle))
    assert [int(r["rank"]) for r in standings] == [1, 2, 3, 4]
    assert {r["bot"] for r in standings} == set(played.names.values())
    assert all(int(r["boards"]) == 2 for r in standings)
    with (out / f"{tid}-tables.csv").open() as handle:
        seats = list(csv.DictReader(handle))
    assert len(seats) == 8 * 4 and {r["status"] for r in seats} == {"done"}
    with (out / f"{tid}-decisions.csv").open() as handle:
        decisions = list(csv.DictReader(handle))
    store = played.store
    assert len(decisions) == sum(len(store.record(t.id).actions)
                                 for t, _ in store.tables(tid)) > 0


def test_export_of_an_unknown_tournament_writes_nothing(cli: Cli, tmp_path: Path) -> None:
    assert cli("export", "tour_nope", "--out", str(tmp_path / "x")).error == (
        "error: no tournament with id 'tour_nope'")
    assert not (tmp_path / "x").exists()


def test_export_before_play(cli: Cli, bots: list[str], tmp_path: Path) -> None:
    tid = TOUR.search(cli("tournament", "create", *bots[:4], "--boards", "1").out)[0]
    assert cli("export", tid, "--out", str(tmp_path / "x")).code == 0
    data = json.loads((tmp_path / "x" / f"{tid}.json").read_text())
    assert data["standings"] == [] and {t["status"] for t in data["tables"]} == {"pending"}


# ------------------------------------------------------------------------------- replay
TRICK = re.compile(r"^trick +(\d+): ((?:[0-3]:\S+ {2}){3}[0-3]:\S+) {2}-> seat [0-3]$")


def test_replay_of_a_played_table(cli: Cli, played: Played) -> None:
    store = played.store
    tables = [t for t, _ in store.tables(played.tournament_id) if t.outcome == "played"]
    assert tables, "no deal of the played tournament was played out"
    record = store.record(tables[0].id)
    result = cli("replay", tables[0].id, db=played.url)
    assert result.code == 0, result.err
    assert result.out.splitlines()[0] == f"database: {played.url.split('///')[1]} (SQLite)"
    lines = result.out.splitlines()[1:]
    assert lines[0] == f"4 players, dealer seat {record.deal.dealer}"
    assert lines[1] == "  play goes 0 → 1 → 2 → 3, counter-clockwise around the table"
    seats = {seat.seat: played.names[seat.bot_id] for table, seats in
             played.store.tables(played.tournament_id) if table.id == tables[0].id
             for seat in seats}
    assert [line.split(":")[0] for line in lines[2:7]] == [
        *(f"  seat {s} ({seats[s]})" for s in range(4)), "  chien"]
    tricks = [TRICK.match(line) for line in lines if line.startswith("trick")]
    assert all(tricks) and len(tricks) == 18
    assert [int(m[1]) for m in tricks if m] == list(range(1, 19))
    plays = [a for _, a in record.actions if isinstance(a, Play)]
    assert len(plays) == 72
    shown = " ".join(m[2] for m in tricks if m)
    assert all(symbol in shown for symbol in "♠♥♦♣")
    assert re.search(r"\b[0-3]:T\d+\b", shown) or re.search(r"\b[0-3]:Excuse\b", shown)
    scores = ", ".join(f"{seats[s]} {v:+d}" for s, v in enumerate(record.result.scores))
    assert f"result: played: {scores}" in lines


def test_replay_errors(cli: Cli, bots: list[str]) -> None:
    assert cli("replay", "nope").error == "error: no table with id 'nope'"
    tid = TOUR.search(cli("tournament", "create", *bots[:4], "--boards", "1").out)[0]
    assert cli("replay", f"{tid}-b0000-t0").error == (
        f"error: table {tid}-b0000-t0 has not been played yet")


# ------------------------------------------------------------------------- tournament run
def test_tournament_run_and_serve_errors(cli: Cli, bots: list[str]) -> None:
    assert cli("tournament", "run", "tour_nope").error == (
        "error: no tournament with id 'tour_nope'")
    tid = TOUR.search(cli("tournament", "create", *bots[:4], "--boards", "1").out)[0]
    assert cli("tournament", "run", tid, "--port", "99999").error == (
        "error: bad port 99999: expected 0..65535")
    assert cli("serve", "--port", "-1").error == "error: bad port -1: expected 0..65535"


def test_tournament_run_without_the_bots_ends_with_one_line(cli: Cli, bots: list[str]) -> None:
    tid = TOUR.search(cli("tournament", "create", *bots[:4], "--boards", "1").out)[0]
    error = cli("tournament", "run", tid, "--port", "0", "--seat-timeout", "0.3",
                "--concurrency", "2").error
    assert error == (f"error: gave up after 0.3 s with nothing to play: 4 tables of {tid} wait "
                     "for 4 bots not connected (alpha, bravo, charlie, delta); nothing is lost, "
                     "run the tournament again to resume it")


def test_serve_on_a_port_in_use_is_one_line(cli: Cli) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli("serve", "--port", str(port)).error == (
            f"error: port {port} is already in use on 127.0.0.1 (another arena?): stop it, "
            "or choose another --port (0: any free port)")


def _exit_code(process: subprocess.Popen[str], within: float) -> int | None:
    """The bot's exit status once it ends by itself (told there is no more work), or None
    when it is still running after ``within`` seconds (then interrupted, as a user would)."""
    try:
        return process.wait(within)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        process.wait(10)
        return None


def test_tournament_run_serves_bot_processes_until_the_end(
    bots: list[str], sqlite_url: str, tmp_path: Path
) -> None:
    """``tournament run`` in one process, four ``tarot-arena bot`` processes: the whole path
    a real tournament takes, down to the standings."""
    registry = BotRegistry(make_engine(sqlite_url))
    tokens = [registry.register(f"process-{i}")[1] for i in range(4)]
    ids = [registry.authenticate(t).id for t in tokens]  # type: ignore[union-attr]
    store = TournamentStore(make_engine(sqlite_url))
    tid = store.create(TournamentSettings(name="processes", bots=tuple(ids), boards=1, seed=3,
                                          per_decision=5.0))
    port = free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", sqlite_url, "tournament", "run", tid,
         "--port", str(port), "--seat-timeout", "30"],
        cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    logs = [tmp_path / f"bot{i}.log" for i in range(4)]
    players = []
    for i, token in enumerate(tokens):
        with logs[i].open("w") as log:
            players.append(subprocess.Popen(
                [sys.executable, "-m", "tournaments.cli", "bot", "clients.random_bot:RandomBot",
                 "--server", f"127.0.0.1:{port}", "--max-tables", "4", "--connect-timeout", "30"],
                cwd=ROOT, env=environment(TAROT_ARENA_TOKEN=token), stdout=log,
                stderr=subprocess.STDOUT,
            ))
    try:
        out, err = arena.communicate(timeout=60)
    finally:
        arena.kill() if arena.poll() is None else None
        codes = [_exit_code(process, within=15) for process in players]
    assert arena.returncode == 0, err
    assert f"arena listening on 127.0.0.1:{port}" in out
    assert f"processes ({tid}): 4/4 tables" in out
    for i in range(4):
        assert f"process-{i}" in out
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert codes == [0, 0, 0, 0], [log.read_text() for log in logs]
    for log in logs:
        text = log.read_text()
        assert "connected to" in text and "Traceback" not in text, text  # its INFO log shows


def start_cli(*args: str) -> subprocess.Popen[str]:
    """``tarot-arena ARGS`` in a process of its own, its output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT, env=environment(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def read_until(process: subprocess.Popen[str], text: str, timeout: float) -> str:
    """The process's output up to the line holding ``text``; fails if it never comes."""
    assert process.stdout is not None
    fd = process.stdout.fileno()  # raw reads: a text wrapper would keep read lines buffered
    seen = b""
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        assert process.poll() is None and time.monotonic() < deadline, seen.decode()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            if selector.select(0.1):
                seen += os.read(fd, 65536)
    return seen.decode()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_starts_and_stops_on_ctrl_c_or_sigterm(sqlite_url: str,
                                                     stop: signal.Signals) -> None:
    """SIGTERM (systemd's or a container's stop) stops the arena as Ctrl-C does."""
    port = free_port()
    process = start_cli("--db", sqlite_url, "serve", "--port", str(port))
    try:
        # wait for the banner, not just the port: the port opens a moment before it is printed
        seen = read_until(process, "admin token for this run", 20)
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) == 0
        process.send_signal(stop)
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    out = seen + out
    assert process.returncode == 0, err
    assert f"arena listening on 127.0.0.1:{port}" in out
    assert "admin token for this run" in out and "stopped" in out
    assert "Traceback" not in err


def test_serve_takes_its_admin_token_from_the_environment_or_warns_on_the_flag(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The admin token never needs the command line, where ``ps`` shows it."""
    for how, expect_warning in (("env", False), ("flag", True)):
        port = free_port()
        args = ["--db", sqlite_url, "serve", "--port", str(port)]
        env = environment()
        if how == "env":
            env["TAROT_ARENA_ADMIN_TOKEN"] = "from-the-environment"
        else:
            args += ["--admin-token", "on-the-command-line"]
        process = subprocess.Popen([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        try:
            read_until(process, "arena listening", 20)
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
        assert "admin token for this run" not in out  # a token was given: none is made up
        assert "from-the-environment" not in out + err
        warning = ("warning: --admin-token shows in `ps` and in shell history: prefer "
                   "TAROT_ARENA_ADMIN_TOKEN or --admin-token-file FILE")
        assert (warning in " ".join(err.split())) is expect_warning, err


def test_ctrl_c_in_the_middle_of_play_stops_cleanly(tmp_path: Path) -> None:
    """Ctrl-C may land anywhere in the arena's thread, grpc.aio's code included (it runs there,
    stepped by trio): the process must still stop in order, never crash."""
    process = start_cli("demo", "--boards", "400", "--out", str(tmp_path / "demo"))
    try:
        read_until(process, "bots connected", 120)
        time.sleep(1.0)  # tables are being played
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, (process.returncode, err[-3000:])
    assert "interrupted" in out + err
    assert "Traceback" not in err, err[-3000:]


# ---------------------------------------------------------------------------------- bot
@pytest.mark.parametrize(("args", "message"), [
    (["no_such_module_anywhere:Bot"],
     "error: cannot import bot 'no_such_module_anywhere:Bot': No module named "
     "'no_such_module_anywhere'"),
    (["RandomBot"], "error: unknown bot 'RandomBot': a bundled bot's name (random, heuristic, "
                    "search, search-timed, tre-random, tre-heuristic) or module.path:ClassName"),
    (["search", "--arg", "colour=red"],
     "error: cannot create bot 'clients.search_bot:SearchBot': TypeError: "),
    (["clients.random_bot:"], "error: bad bot 'clients.random_bot:'"),
    (["clients.random_bot:Nobody"], "error: module 'clients.random_bot' has no 'Nobody'"),
    (["clients.random_bot:RandomBot", "--token-file", "/nonexistent/token"],
     "error: cannot read --token-file /nonexistent/token: No such file or directory"),
    (["clients.random_bot:RandomBot", "--connect-timeout", "-1"],
     "error: --connect-timeout must be 0 or more, got -1"),
    (["clients.random_bot:RandomBot", "--max-tables", "0"],
     "error: --max-tables must be at least 1, got 0"),
    (["clients.random_bot:RandomBot", "--arg", "seed"],
     "error: bad --arg 'seed': expected KEY=VALUE"),
    (["clients.random_bot:RandomBot", "--arg", "colour=red"],
     "error: cannot create bot 'clients.random_bot:RandomBot': TypeError: "),
    (["clients.random_bot:RandomBot", "--no-such-option"],
     "error: unrecognized arguments: --no-such-option (see tarot-arena bot --help)"),
    ([], "error: which bot? give module.path:ClassName or a bundled bot's name (random, "
         "heuristic, search, search-timed, tre-random, tre-heuristic) (see tarot-arena bot "
         "--help)"),
])
def test_bot_errors(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    """``tarot-arena bot`` is ``python -m clients.run``: usage errors are one line, status 2."""
    monkeypatch.setenv("TAROT_ARENA_TOKEN", "tka_x")
    assert cli("bot", *args, "--server", "127.0.0.1:1").usage_error.startswith(message)


def test_try_reaches_the_bundled_bots_by_their_short_names(cli: Cli) -> None:
    result = cli("try", "search", "--against", "heuristic", "--boards", "1", "--arg", "samples=4")
    assert result.code == 0, result.err
    assert result.out.startswith("search against 3 x heuristic: 1 boards")
    assert "search: " in result.out and "points per board against heuristic" in result.out


def test_try_names_the_bundled_bots_for_an_unknown_one(cli: Cli) -> None:
    assert cli("try", "heuristic", "--against", "serch").usage_error == (
        "error: unknown bot 'serch': a bundled bot's name (random, heuristic, search, "
        "search-timed, tre-random, tre-heuristic) or module.path:ClassName")


def test_bot_without_a_token_says_where_to_put_it(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAROT_ARENA_TOKEN", raising=False)
    assert cli("bot", "clients.random_bot:RandomBot").usage_error == (
        "error: no bot token: set TAROT_ARENA_TOKEN or pass --token-file FILE")


def test_one_bot_runner_one_set_of_defaults(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ways of starting a bot parse the same options with the same defaults."""
    args = run.parse_args(["m:B"], prog="tarot-arena bot")
    assert args.bot == "m:B" and args == run.parse_args(["--bot", "m:B"])
    assert (args.connect_timeout, args.max_tables, args.server) == (30.0, 8, "127.0.0.1:50051")
    assert run.bot_arguments(["seed=7", "name=x", "deep=true"], '{"a": [1]}') == {
        "a": [1], "seed": 7, "name": "x", "deep": True}
    forwarded: list[tuple[list[str], str]] = []

    def fake_main(argv: list[str], prog: str) -> int:
        forwarded.append((argv, prog))
        return 3

    monkeypatch.setattr(run, "main", fake_main)
    args = ["m:B", "--arg", "x=1", "--max-tables", "2", "--stay", "--help"]
    assert cli("bot", *args).code == 3  # the runner's exit status, unchanged
    assert forwarded == [(args, "tarot-arena bot")]  # its arguments, untouched


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the block ends: nobody listens


def test_a_bot_that_cannot_reach_the_arena_gives_up_with_one_line() -> None:
    port = closed_port()
    began = time.monotonic()
    result = tarot_arena("bot", "clients.random_bot:RandomBot", "--server", f"127.0.0.1:{port}",
                         "--token", "tka_x", "--connect-timeout", "1.5")
    elapsed = time.monotonic() - began
    assert result.returncode == 1, result.stderr
    assert elapsed < 15
    # before it, the SDK's log says why each attempt failed; the error itself is one line
    errors = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert errors == [f"error: cannot reach the arena at 127.0.0.1:{port} after 1.5 s"], (
        result.stderr)
    assert result.stderr.strip().splitlines()[-1] == errors[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_run_bot_gives_up_unless_connected_in_time() -> None:
    """In-process: the same limit on the SDK's run_bot, through clients.run."""
    port = closed_port()
    began = time.monotonic()
    code = run.main(["--server", f"127.0.0.1:{port}", "--token", "tka_x", "--bot",
                     "clients.random_bot:RandomBot", "--connect-timeout", "0.5",
                     "--log-level", "ERROR"])
    assert code == run.EXIT_UNREACHABLE == 1
    assert time.monotonic() - began < 5
    assert str(ArenaUnreachableError("h:1", 0.5)) == "cannot reach the arena at h:1 after 0.5 s"


async def test_the_connect_timeout_does_not_apply_once_connected() -> None:
    registry = BotRegistry(make_engine("sqlite://"))
    _, token = registry.register("patient")
    server = ArenaServer(registry)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        client = ArenaClient(RandomBot(), f"127.0.0.1:{port}", token)
        with trio.move_on_after(1.0) as still_running:
            await _run_until_signal(client, 0.3)  # would raise ArenaUnreachableError
        assert still_running.cancelled_caught and client.connections == 1
        nursery.cancel_scope.cancel()


# ------------------------------------------------------------------------------ database
def test_an_unreachable_postgresql_is_one_line() -> None:
    port = closed_port()
    result = tarot_arena("--db", f"postgresql+psycopg://arena:secret@127.0.0.1:{port}/arena",
                         "bots", "list")
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(
        f"error: cannot open database postgresql+psycopg://arena:***@127.0.0.1:{port}/arena: ")
    assert "secret" not in result.stderr and "Traceback" not in result.stderr


def test_an_unknown_database_scheme_is_one_line(cli: Cli) -> None:
    assert cli("bots", "list", db="nosuchdb://x").error.startswith(
        "error: cannot open database nosuchdb://x: ")


def test_errors_in_a_real_process_are_one_line_with_status_1(tmp_path: Path) -> None:
    result = tarot_arena("--db", f"sqlite:///{tmp_path}/a.db", "standings", "tour_nope")
    assert_one_error_line(result, "error: no tournament with id 'tour_nope'")
    assert result.stdout == f"database: {tmp_path}/a.db (SQLite, new)\n"
    debug = tarot_arena("--db", f"sqlite:///{tmp_path}/a.db", "--debug", "standings", "x")
    assert debug.returncode == 1 and "Traceback" in debug.stderr  # --debug shows it
    after = tarot_arena("standings", "x", "--debug", "--db", f"sqlite:///{tmp_path}/a.db")
    assert after.returncode == 1 and "Traceback" in after.stderr  # after the command too
    assert "UnknownTournamentError: no tournament with id 'x'" in after.stderr


def test_global_options_work_after_the_command() -> None:
    assert cli_module.global_options_first(
        ["standings", "t", "--debug", "--db", "sqlite://", "--create-dir"]
    ) == ["--debug", "--db", "sqlite://", "--create-dir", "standings", "t"]
    assert cli_module.global_options_first(["bot", "m:B", "--db=x", "--", "--debug"]) == [
        "--db=x", "bot", "m:B", "--", "--debug"]


def test_the_bot_command_goes_straight_to_the_bot_runner() -> None:
    from tournaments.cli.launch import bot_arguments

    assert bot_arguments(["bot", "random", "--server", "h:1"]) == ["random", "--server", "h:1"]
    assert bot_arguments(["--db", "sqlite://", "bot", "m:B", "--debug"]) == [
        "m:B", "--log-level", "DEBUG"]
    assert bot_arguments(["--debug", "bot", "m:B", "--log-level", "INFO"]) == [
        "m:B", "--log-level", "INFO"]
    assert bot_arguments(["--debug", "--no-debug", "bot", "m:B"]) == ["m:B"]
    assert bot_arguments(["--debug", "bot", "m:B", "--", "x"]) == [
        "m:B", "--log-level", "DEBUG", "--", "x"]
    assert bot_arguments(["standings", "bot"]) is None
    assert bot_arguments(["--db", "bot", "standings"]) is None  # "bot" is the database there
    assert bot_arguments([]) is None


def test_a_bot_process_does_not_import_the_storage() -> None:
    """What every bot's start would pay for nothing: SQLModel, SQLAlchemy, the CLI's tables."""
    code = ("import sys; sys.argv = ['tarot-arena', 'bot', '--help']\n"
            "from tournaments.cli.launch import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('sqlmodel', 'sqlalchemy', 'typer')\n"
            "             or m.startswith(('arena.storage', 'tournaments.cli.commands'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tarot-arena bot" in done.stdout  # the runner's help, under this name
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("args", [
    ["tournament", "create", "--boards", "many", "bot_a"],
    ["tournament", "nosuchcommand"],
    ["standings"],
    ["bots", "list", "--colour"],
])
def test_usage_errors_are_one_line_in_a_real_process(tmp_path: Path, args: list[str]) -> None:
    result = tarot_arena("--db", f"sqlite:///{tmp_path}/a.db", *args)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "--help)" in lines[0], lines
    assert "Traceback" not in result.stderr


def test_a_port_in_use_is_one_line_in_a_real_process(tmp_path: Path) -> None:
    """gRPC logs its own line when it cannot bind; the CLI checks the port first."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for args in (["serve"], ["tournament", "run", "tour_x"]):
            result = tarot_arena("--db", f"sqlite:///{tmp_path}/a.db", *args, "--port",
                                 str(port))
            expected = (f"error: port {port} is already in use on 127.0.0.1 (another "
                        "arena?): stop it, or choose another --port (0: any free port)")
            if args[0] == "tournament":
                expected = "error: no tournament with id 'tour_x'"  # the id is checked first
            assert_one_error_line(result, expected)


def test_demo_argument_errors(cli: Cli, tmp_path: Path) -> None:
    assert cli("demo", "--boards", "0", "--out", str(tmp_path / "d")).error == (
        "error: boards must be 1..100000, got 0")
    assert cli("demo", "--seed", "xx", "--out", str(tmp_path / "d")).error.startswith(
        "error: bad seed 'xx'")


def test_tournament_tables_lists_every_table_for_replay(cli: Cli, played: Played) -> None:
    result = cli("tournament", "tables", played.tournament_id, db=played.url)
    assert result.code == 0, result.err
    rows = [line for line in result.out.splitlines() if played.tournament_id in line]
    assert len(rows) == 8
    for table, seats in played.store.tables(played.tournament_id):
        row = next(line for line in rows if table.id in line)
        for seat in seats:
            assert f"{played.names[seat.bot_id]} {seat.score:+d}" in row


def test_tournament_tables_of_an_unknown_tournament(cli: Cli, played: Played) -> None:
    result = cli("tournament", "tables", "tour_nope", db=played.url)
    assert result.code == 1
    assert result.err.strip() == "error: no tournament with id 'tour_nope'"


def test_tournament_create_takes_registered_names_and_refuses_an_ambiguous_one(
    cli: Cli, bots: list[str], sqlite_url: str
) -> None:
    result = cli("tournament", "create", "alpha", bots[1], "charlie", "delta", "--json")
    assert result.code == 0, result.err
    tid = json.loads(result.out)["id"]
    assert TournamentStore(make_engine(sqlite_url)).settings(tid).bots == tuple(bots[:4])
    registry = BotRegistry(make_engine(sqlite_url))
    twin = registry.register("delta", owner="someone else")[0].id
    assert cli("tournament", "create", "alpha", "bravo", "charlie", "delta").error == (
        f"error: 2 bots are named 'delta': {bots[3]}, {twin} (owner someone else); give the "
        f"id")
    assert cli("tournament", "create", "alpha", "bravo", "charlie", twin).code == 0  # by id
    registry.revoke(bots[3])  # a revoked namesake is no candidate
    result = cli("tournament", "create", "alpha", "bravo", "charlie", "delta", "--json")
    assert result.code == 0, result.err
    assert TournamentStore(make_engine(sqlite_url)).settings(
        json.loads(result.out)["id"]).bots[3] == twin
    assert cli("tournament", "create", "alpha", "bravo", "charlie", "zulu").error == (
        "error: no bot with id or name 'zulu' (tarot-arena bots list shows them)")
    assert cli("tournament", "create", "alpha", bots[0], "charlie", "delta").error == (
        "error: a bot is listed twice")
