"""``tarot-arena compare --local`` end to end, as a CI job runs it: a real subprocess, its exit
status, its JSON verdict, and the stored tournament behind it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.storage.db import make_engine
from tests.cli.entry import run_entry_point
from tournaments.play.compare import load
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
HEURISTIC = "clients.heuristic_bot:HeuristicBot"
RANDOM = "clients.random_bot:RandomBot"


Run = Callable[..., "subprocess.CompletedProcess[str]"]
Compare = Callable[..., tuple[int, dict[str, object], str]]


def in_a_process(db: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``tarot-arena --db DB ARGS`` as a CI job runs it: a process of its own."""
    return subprocess.run([sys.executable, "-m", "tournaments.cli", "--db", db, *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def tarot_arena(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``tarot-arena --db DB ARGS`` through the real entry point, in this process: a process
    of its own costs every call a second and a half of imports, and the tests that need one
    (the first, the live compare, ``--jobs 2``) start one."""
    def run(db: str, *args: str) -> subprocess.CompletedProcess[str]:
        code, out, err = run_entry_point(capsys, monkeypatch, "--db", db, *args)
        return subprocess.CompletedProcess(["tarot-arena", *args], code, out, err)

    return run


def compare_with(run: Run, db: str, *args: str) -> tuple[int, dict[str, object], str]:
    """One worker process (``--jobs 1``) unless told otherwise: a worker process per core
    costs each test a second of imports per core, for the few boards a test plays."""
    jobs = () if "--jobs" in args or "--workers-only" in args else ("--jobs", "1")
    result = run(db, "compare", "--local", "--json", *jobs, *args)
    lines = result.stdout.strip().splitlines()
    data = json.loads(lines[-1]) if lines else {}
    return result.returncode, data, result.stderr


@pytest.fixture
def compare(tarot_arena: Run) -> Compare:
    return lambda db, *args: compare_with(tarot_arena, db, *args)


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The error: the only line on stderr but the database line every command shows once it
    opens the database."""
    lines = [line for line in result.stderr.strip().splitlines()
             if not line.startswith("database: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/arena.db"


def test_a_clearly_better_bot_is_accepted_and_the_compare_is_a_stored_tournament(
    db: str, tmp_path: Path, tarot_arena: Run
) -> None:
    """The compare in a process of its own, as a CI job runs it; what it stored, in this one."""
    out = tmp_path / "verdict.json"
    code, data, stderr = compare_with(in_a_process, db, HEURISTIC, RANDOM, "--min-boards", "10",
                                      "--max-boards", "60", "--seed", "7", "--out", str(out))
    assert code == 0, stderr
    assert data["verdict"] == "accepted"
    assert json.loads(out.read_text()) == data
    assert data["boards"] == 10  # decided at the first board allowed
    assert data["deals"] == 50
    low, high = data["ci95"]  # type: ignore[misc]
    assert 0 < low < data["mean_per_board"] < high  # type: ignore[operator]
    assert data["tables_unplayed"] == (60 - 10) * 5
    assert "accepted: the candidate is better than the baseline" in stderr
    assert "LLR" in stderr and "board   10" in stderr

    tid = str(data["compare"])
    listed = tarot_arena(db, "tournament", "tables", tid)
    assert listed.returncode == 0, listed.stderr
    table = f"{tid}-b0003-t4"  # the control table of board 3
    shown = tarot_arena(db, "replay", table)
    assert shown.returncode == 0 and "trick" in shown.stdout.lower(), shown.stderr
    exported = tarot_arena(db, "export", tid, "--out", str(tmp_path / "export"))
    assert exported.returncode == 0, exported.stderr
    standings = tarot_arena(db, "standings", tid)
    assert standings.returncode == 0, standings.stderr

    # Run again with its id: already decided, the same verdict, nothing more played.
    code, again, _ = compare_with(tarot_arena, db, "--id", tid)
    assert code == 0
    assert again == data



def test_two_worker_processes_give_the_verdict_one_process_gives(
    tmp_path: Path, compare: Compare
) -> None:
    """``--jobs 2``: two worker processes play the boards in whatever order they finish; the
    verdict, its board count and the whole JSON are one process's, the ids aside."""
    args = (HEURISTIC, RANDOM, "--players", "3", "--min-boards", "8", "--max-boards", "40",
            "--seed", "8")
    one = compare(f"sqlite:///{tmp_path}/one.db", *args, "--jobs", "1")
    two = compare(f"sqlite:///{tmp_path}/two.db", *args, "--jobs", "2")
    assert one[0] == two[0] == 0, two[2]
    ids = ("compare", "candidate_bot_id", "baseline_bot_id")
    assert {k: v for k, v in two[1].items() if k not in ids} == \
        {k: v for k, v in one[1].items() if k not in ids}
    assert two[1]["boards"] == 11 and two[1]["tables_unplayed"] == (40 - 11) * 4


def test_two_players_with_the_dummy_compare_in_three_deals_a_board(
    db: str, compare: Compare
) -> None:
    code, data, stderr = compare(db, HEURISTIC, RANDOM, "--players", "2", "--max-boards", "40",
                                 "--seed", "7")
    assert code == 0, stderr
    assert data["verdict"] == "accepted" and data["players"] == 2
    # Each board: the candidate in each player's seat against the baseline, then the baseline
    # against itself.
    assert data["deals"] == data["boards"] * 3  # type: ignore[operator]

def test_a_clearly_worse_bot_is_rejected(db: str, compare: Compare) -> None:
    code, data, stderr = compare(db, RANDOM, HEURISTIC, "--max-boards", "60",
                                 "--min-boards", "10")
    assert code == 3, stderr
    assert data["verdict"] == "rejected"
    assert data["exit_code"] == 3
    assert data["mean_per_board"] < 0  # type: ignore[operator]
    assert "rejected: the candidate is no better than the baseline" in stderr


def test_a_deterministic_a_against_a_compares_nothing_and_says_so(
    db: str, compare: Compare
) -> None:
    """The same deterministic bot on both sides plays every board alike: every difference is
    exactly 0, which tells nothing apart: inconclusive at the minimum, not a verdict."""
    code, data, stderr = compare(db, HEURISTIC, HEURISTIC, "--aa", "--min-boards", "8",
                                 "--max-boards", "40")
    assert code == 4, stderr
    assert data["verdict"] == "inconclusive"
    assert data["inconclusive_reason"] == "no-difference"
    assert data["boards"] == 8 and data["boards_differing"] == 0
    assert data["mean_per_board"] == 0
    assert data["aa"] is True and data["nothing_scored"] is False
    assert "nothing was compared: the 8 boards all came out even" in stderr
    assert "--filler BOT" in stderr


def test_a_against_a_passes_a_non_regression_test(db: str, compare: Compare) -> None:
    """A random bot seeded afresh by each copy: the two sides play differently, so the
    boards compare something."""
    unseeded = "tests.compare.weaker:Unseeded"
    code, data, stderr = compare(db, unseeded, unseeded, "--aa", "--non-regression", "0.5",
                                 "--max-boards", "80", "--seed", "3")
    assert code == 0, stderr
    assert data["verdict"] == "accepted"
    assert data["test"]["low"] == -0.5 and data["test"]["high"] == 0  # type: ignore[index]
    assert data["boards_differing"] >= 30  # type: ignore[operator]


# ------------------------------------------------------------- bots that never bid
NEVER_BIDS = "tests.compare.weaker:NeverBids"
"""The heuristic's card play, never taking."""
LOWEST_CARD = "docs.examples.minimal_bot:LowestCard"
"""The guide's first bot: never takes, plays its lowest legal card."""


def test_two_bots_that_never_bid_compare_nothing_and_say_so(db: str, compare: Compare) -> None:
    """Between them every deal passes out at every table: no verdict, the reason and what to
    do (the guide's first bot against an improved card play)."""
    code, data, stderr = compare(db, NEVER_BIDS, LOWEST_CARD, "--min-boards", "4",
                                 "--seed", "5")
    assert code == 4, stderr
    assert data["verdict"] == "inconclusive" and data["exit_code"] == 4
    assert data["inconclusive_reason"] == "no-difference" and data["nothing_scored"] is True
    assert data["boards"] == 4 and data["deals"] == 20
    assert "inconclusive after 4 boards (20 deals)" in stderr
    assert ("nothing was compared: every deal of the 4 boards scored nothing at every table "
            "(all-passed)") in stderr
    assert "--filler BOT (heuristic, say)" in stderr
    assert "rejected" not in stderr and "accepted" not in stderr


def test_a_filler_that_bids_compares_bots_that_never_do(
    db: str, compare: Compare, tarot_arena: Run, players: int = 4
) -> None:
    """Among heuristic fillers the candidate's and the baseline's card play is compared: the
    heuristic's card play is far better than always the lowest card. (Wide error rates: at the
    default ones the test takes 47 boards to accept, 13 here.)"""
    code, data, stderr = compare(db, NEVER_BIDS, LOWEST_CARD, "--filler", "heuristic",
                                 "--min-boards", "5", "--max-boards", "60", "--seed", "5",
                                 "--alpha", "0.25", "--beta", "0.25", "--players", str(players))
    assert code == 0, stderr
    assert data["verdict"] == "accepted" and data["filler"] == "heuristic"
    assert data["filler_bot_id"] not in (data["candidate_bot_id"], data["baseline_bot_id"])
    assert data["deals"] == data["boards"] * 2 * players  # type: ignore[operator]
    assert data["boards_differing"] >= 5  # type: ignore[operator]
    # accepted where both models are: the LLR shown is the cautious one of the two
    models = [data["llr_normal"], data["llr_skew_corrected"]]
    assert data["llr"] == sorted([*models, 0.0])[1]  # type: ignore[type-var]
    assert min(models) >= data["llr_bounds"][1]  # type: ignore[index, type-var]
    assert isinstance(data["skewness_per_board"], float)
    assert "the other seats heuristic's" in stderr
    tid = str(data["compare"])
    tables = tarot_arena(db, "tournament", "tables", tid, "--json")
    listed = json.loads(tables.stdout)
    board0 = [t for t in listed if t["board"] == 0]
    assert len(board0) == 2 * players
    # Resumed with another filler: refused, naming the one it is played with.
    result = tarot_arena(db, "compare", "--local", "--jobs", "1", "--id", tid, "--filler", "random")
    assert result.returncode == 1
    assert f"{tid} is played among heuristic fillers, not among random" in result.stderr


@pytest.mark.parametrize("players", [3, 5])
def test_the_filler_takes_every_other_seat_with_3_and_5_players(
    db: str, players: int, compare: Compare, tarot_arena: Run
) -> None:
    """The filler's seats at every table of a board, with 3 and 5 players (two boards: the
    verdict is the 4-player test's)."""
    code, data, stderr = compare(db, NEVER_BIDS, LOWEST_CARD, "--filler", "heuristic",
                                 "--min-boards", "2", "--max-boards", "2", "--seed", "5",
                                 "--players", str(players))
    assert code == 4 and data["verdict"] == "inconclusive", stderr
    assert data["boards"] == 2 and data["deals"] == 2 * 2 * players
    assert data["filler"] == "heuristic"
    tid = str(data["compare"])
    listed = json.loads(tarot_arena(db, "tournament", "tables", tid, "--json").stdout)
    for board in (0, 1):
        tables = [t for t in listed if t["board"] == board]
        assert len(tables) == 2 * players
        for table in tables:
            names = [seat["bot"] for seat in table["seats"]]
            assert len(names) == players and names.count("heuristic") == players - 1, table


def test_imposed_boards_of_a_baseline_that_never_bids_say_so(db: str, compare: Compare) -> None:
    code, data, stderr = compare(db, HEURISTIC, LOWEST_CARD, "--imposed", "--min-boards", "4",
                                 "--seed", "5")
    assert code == 4, stderr
    assert data["inconclusive_reason"] == "no-difference" and data["nothing_scored"] is True
    assert ("every auction imposed on the 4 boards (the baseline's, bid at a table of its "
            "copies) ended with no score (all-passed), so no card play was compared: impose a "
            "bidding bot's auctions with --filler BOT") in stderr
    # The filler bids the auctions: the card play is compared.
    code, data, stderr = compare(db, HEURISTIC, LOWEST_CARD, "--imposed", "--min-boards", "5",
                                 "--max-boards", "60", "--seed", "5", "--filler", "heuristic",
                                 "--alpha", "0.25", "--beta", "0.25")
    assert code == 0, stderr
    assert data["verdict"] == "accepted" and data["imposed"] is True


def test_the_filler_cannot_be_the_candidate(db: str, tarot_arena: Run) -> None:
    result = tarot_arena(db, "compare", "--local", HEURISTIC, RANDOM, "--filler", HEURISTIC)
    assert result.returncode == 1
    assert one_error_line(result) == (
        f"error: the filler is the candidate ({HEURISTIC}): fill the other seats with another "
        f"bot (or leave --filler out: the baseline fills them)")


def test_a_bot_that_fails_every_decision_is_rejected_not_crashed(db: str, compare: Compare) -> None:
    """Its exceptions are infractions with the arena's fallbacks, as on a real arena."""
    code, data, stderr = compare(db, "tests.compare.weaker:Broken", HEURISTIC, "--max-boards",
                                 "40", "--min-boards", "10", "--units", "points",
                                 "--bounds", "0,20")
    assert code == 3, stderr
    assert data["verdict"] == "rejected"


@pytest.mark.parametrize(("args", "message"), [
    ([HEURISTIC, HEURISTIC], "the candidate and the baseline are the same bot "
                             f"({HEURISTIC}): pass --aa for an A/A check"),
    ([HEURISTIC, RANDOM, "--bounds", "20,0", "--units", "points"],
     "the bounds are in the wrong order: H0 20 must be below H1 0"),
    ([HEURISTIC, RANDOM, "--bounds", "0,x"], "bad --bounds '0,x': expected two numbers H0,H1"),
    ([HEURISTIC, RANDOM, "--units", "points"], "bounds in points depend on the bots"),
    ([HEURISTIC, RANDOM, "--alpha", "0.5"], "alpha must be in (0, 0.5), got 0.5"),
    ([HEURISTIC, RANDOM, "--beta", "0"], "beta must be in (0, 0.5), got 0"),
    ([HEURISTIC, RANDOM, "--max-boards", "5"], "the cap must be at least the minimum"),
    ([HEURISTIC, RANDOM, "--non-regression", "0.1", "--bounds", "0,1"],
     "give it or --bounds, not both"),
    (["--id", "cmp_nothere"], "give the CANDIDATE and the BASELINE"),
    (["tre-heuristic", RANDOM], "tre-heuristic does not play french-tarot, the game of this "
                                "compare (it plays tre-e-venticinque; --game chooses the game)"),
    ([HEURISTIC, "tre-random", "--game", "tre-e-venticinque"],
     "heuristic_bot:HeuristicBot does not play tre-e-venticinque, the game of this compare"),
    (["tre-heuristic", "tre-random", "--game", "tre-e-venticinque", "--imposed"],
     "--imposed boards fix each board's auction, and Tre e Venticinque has none"),
    (["tre-heuristic", "tre-random", "--game", "tre-e-venticinque", "--players", "4"],
     "Tre e Venticinque is played by exactly 3 players, not 4"),
    ([HEURISTIC, RANDOM, "--setting", "colour=blue"], "unknown French Tarot setting 'colour'"),
    ([HEURISTIC, RANDOM, "--game", "chess"], "chess"),
    ([HEURISTIC, RANDOM, "--jobs", "0"], "bad --jobs 0: at least 1"),
    ([HEURISTIC, RANDOM, "--workers-only"], "--workers-only needs a database that workers on "
                                            "other machines reach"),
])
def test_bad_input_is_one_clear_error(
    db: str, args: list[str], message: str, tarot_arena: Run
) -> None:
    result = tarot_arena(db, "compare", "--local", *args)
    assert result.returncode == 1, result.stderr
    assert one_error_line(result).startswith("error: ")
    assert message in one_error_line(result)
    assert result.stdout == ""


@pytest.mark.parametrize(("source", "message"), [
    ("raise RuntimeError('no such luck')\n",
     "RuntimeError: no such luck (crashing_bot.py, line 1)"),
    ("from clients.sdk import Bot\n\nclass Bot(Bot)\n    pass\n",
     "SyntaxError: expected ':' (crashing_bot.py, line 3)"),
    ("x = 1\ny = undefined_name\n",
     "NameError: name 'undefined_name' is not defined (crashing_bot.py, line 2)"),
    ("import no_such_dependency_here\n", "No module named 'no_such_dependency_here'"),
    ("class Nobody:\n    pass\n", None),
])
def test_a_bot_that_cannot_be_loaded_is_one_usage_error(
    tmp_path: Path, source: str, message: str | None
) -> None:
    """As for ``try`` and ``bot``: one line naming the bot, the exception and where, exit
    status 2, before any database is made. Every failure as the candidate; the baseline and the
    filler share its loader (one failure each, below)."""
    refused_before_the_database(tmp_path, source, message, "candidate")


@pytest.mark.parametrize("side", ["baseline", "filler"])
def test_a_baseline_or_filler_that_cannot_be_loaded_is_one_usage_error(
    tmp_path: Path, side: str
) -> None:
    refused_before_the_database(tmp_path, "x = 1\ny = undefined_name\n",
                                "NameError: name 'undefined_name' is not defined "
                                "(crashing_bot.py, line 2)", side)


def refused_before_the_database(tmp_path: Path, source: str, message: str | None,
                                side: str) -> None:
    (tmp_path / "crashing_bot.py").write_text(source)
    bots = {"candidate": ["crashing_bot:Bot", RANDOM], "baseline": [RANDOM, "crashing_bot:Bot"],
            "filler": [HEURISTIC, RANDOM, "--filler", "crashing_bot:Bot"]}[side]
    result = subprocess.run(
        [sys.executable, "-m", "tournaments.cli", "--db", f"sqlite:///{tmp_path}/arena.db",
         "compare", "--local", *bots],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2, result.stderr
    expected = (f"error: cannot import bot 'crashing_bot:Bot': {message}" if message else
                "error: module 'crashing_bot' has no 'Bot'")
    assert result.stderr.strip() == expected
    assert not (tmp_path / "arena.db").exists()  # refused before the database is created


def test_tre_e_venticinque_bots_compare_in_points(db: str, compare: Compare) -> None:
    """Every game compares: Tre e Venticinque at its 3 players, its scores (thirds of a point)
    counted in points, as the bounds are given."""
    code, data, err = compare(db, "tre-heuristic", "tre-random", "--game", "tre-e-venticinque",
                              "--seed", "7", "--bounds", "0,3", "--units", "points")
    assert code == 0, err
    assert (data["verdict"], data["game"], data["players"]) == ("accepted", "tre-e-venticinque", 3)
    assert data["deals"] == 4 * data["boards"]  # 3 seats and the control table
    assert "Tre e Venticinque, 3 players" in err
    # The same boards' paired differences from the stored scores, in thirds: the test's mean
    # is their mean in points.
    _, _, boards = load(TournamentStore(make_engine(db)), str(data["compare"]))
    thirds = []
    for board in range(int(data["boards"])):
        entries = boards.by_board[board]
        mine = {e.seat: e.score for e in entries if e.bot_id == data["candidate_bot_id"]}
        theirs = {e.seat: e.score for e in entries if e.bot_id == data["baseline_bot_id"]}
        thirds.append(sum(mine[s] - theirs[s] for s in range(3)) / 3)
    assert data["mean_per_board"] == pytest.approx(sum(thirds) / len(thirds) / 3, abs=1e-4)


def test_a_resumed_compare_keeps_its_game(db: str, compare: Compare, tarot_arena: Run) -> None:
    code, _, err = compare(db, "tre-heuristic", "tre-random", "--game", "tre-e-venticinque",
                           "--seed", "7", "--min-boards", "2", "--max-boards", "2",
                           "--id", "cmp_tre")
    assert code in (0, 4), err
    for args, message in [
        (["--game", "french-tarot"], "cmp_tre plays Tre e Venticinque, 3 players, not French "
                                     "Tarot"),
        (["--players", "4"], "not at 4 players"),
    ]:
        result = tarot_arena(db, "compare", "--local", "--id", "cmp_tre", *args)
        assert result.returncode == 1
        assert message in one_error_line(result)
    again = tarot_arena(db, "compare", "--local", "--json", "--id", "cmp_tre")
    assert json.loads(again.stdout)["game"] == "tre-e-venticinque"


def test_an_id_of_another_kind_is_refused(db: str, compare: Compare, tarot_arena: Run) -> None:
    code, _, err = compare(db, HEURISTIC, RANDOM, "--min-boards", "2", "--max-boards", "2",
                           "--seed", "7", "--id", "cmp_one")
    assert code == 0, err  # accepted at the second board
    result = tarot_arena(db, "compare", "--local", RANDOM, HEURISTIC, "--id", "cmp_one")
    assert result.returncode == 1
    assert ("cmp_one compares clients.heuristic_bot:HeuristicBot with "
            "clients.random_bot:RandomBot") in result.stderr
    result = tarot_arena(db, "compare", HEURISTIC, RANDOM, "--id", "cmp_one")
    assert "cmp_one is a local compare: run it with --local" in result.stderr


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _register(db: str, name: str) -> tuple[str, str]:
    result = in_a_process(db, "bots", "add", name)
    assert result.returncode == 0, result.stderr
    words = result.stdout.split()
    return words[words.index("id:") + 1], words[words.index("token:") + 1]


def test_live_compare_with_bots_connecting_over_grpc(db: str) -> None:
    """Live mode: registered bots started as their own processes; the compare stops when
    decided, says how many tables it left unplayed, and the bots are let go. (A minimum of 4
    boards: the heuristic is far better than both bounds, and its few lost boards skew the
    differences so much that the skew-corrected LLR can stay under its bound for 40 boards.)"""
    heuristic, heuristic_token = _register(db, "heuristic")
    rand, rand_token = _register(db, "random")
    port = _free_port()
    arena = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "--db", db, "compare", heuristic, rand,
         "--port", str(port), "--max-boards", "40", "--min-boards", "4", "--json"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    bots = [
        subprocess.Popen(
            [sys.executable, "-m", "tournaments.cli", "bot", spec, "--server",
             f"127.0.0.1:{port}", "--token", token],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for spec, token in ((HEURISTIC, heuristic_token), (RANDOM, rand_token))
    ]
    try:
        out, err = arena.communicate(timeout=120)
    finally:
        for bot in bots:
            bot.kill()
            bot.wait()
    assert arena.returncode == 0, err
    data = json.loads(out.strip().splitlines()[-1])
    assert data["verdict"] == "accepted"
    assert data["mode"] == "live"
    # Decided on the first boards completed in order; which ones finish first, and the
    # random bot's draws at each (one bot serves every table), vary from run to run.
    assert 4 <= data["boards"] < 40  # type: ignore[operator]
    assert data["tables_unplayed"] >= (40 - data["boards"] - 2) * 5  # type: ignore[operator]
    assert f"heuristic ({heuristic}) vs random ({rand})" in err
    assert "tables left unplayed (the test had decided)" in err


def test_imposed_boards_are_local_only(db: str, tarot_arena: Run) -> None:
    result = tarot_arena(db, "compare", "bot_a", "bot_b", "--imposed")
    assert result.returncode == 1
    assert result.stderr.strip() == ("error: --imposed boards are played in-process only: add "
                                     "--local")


def test_an_imposed_compare_says_so(db: str, compare: Compare) -> None:
    code, data, stderr = compare(db, HEURISTIC, "tests.compare.weaker:NeverBids", "--imposed",
                                 "--max-boards", "30")
    assert data["imposed"] is True
    assert "imposed boards" in stderr
    # the baseline never bids, so every table passes: the pair cannot be told apart
    assert (code, data["verdict"], data["mean_per_board"]) == (4, "inconclusive", 0)


def test_a_cancelled_compare_is_not_played_again(db: str, tmp_path: Path, tarot_arena: Run) -> None:
    from arena.storage.db import make_engine
    from tournaments.duplicate.sprt import SprtSettings
    from tournaments.play.compare import CompareConfig, create, local_bot_ids
    from tournaments.play.manage import cancel_tournament
    from tournaments.store import TournamentStore

    store = TournamentStore(make_engine(db))
    config = CompareConfig(True, HEURISTIC, RANDOM, SprtSettings(0, 0.2, max_boards=40))
    tid = create(store, config, local_bot_ids(store, HEURISTIC, RANDOM), players=4, seed=1,
                 per_decision=60.0)
    cancel_tournament(store, tid)
    result = tarot_arena(db, "compare", "--local", "--jobs", "1", "--id", tid)
    assert result.returncode == 1
    assert one_error_line(result) == (f"error: {tid} was cancelled after 0 boards, before its "
                                      f"test decided")
