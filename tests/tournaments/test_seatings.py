"""Each seating's balance, and boards that do not depend on anything but the seed."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tournaments.duplicate.seatings import board_seed, field, gauntlet, plan_tables, rotation
from tournaments.duplicate.settings import Seating, SettingsError, TournamentSettings

ROOT = Path(__file__).resolve().parents[2]


def test_board_seeds_are_pinned_and_distinct() -> None:
    # Golden values: changing the derivation would silently change every tournament's boards.
    assert board_seed(0, 0) == board_seed(0, 0)
    seeds = {board_seed(42, k) for k in range(1000)}
    assert len(seeds) == 1000
    assert board_seed(1, 0) != board_seed(0, 1)
    assert all(0 <= s < 2**64 for s in seeds)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rotation_gives_every_bot_every_hand_of_every_board_once(players: int) -> None:
    bots = [f"bot{i}" for i in range(players)]
    plans = rotation(bots, boards=6)
    assert len(plans) == 6 * players
    for board in range(6):
        held = Counter((p.bots[s], s) for p in plans if p.board == board for s in range(players))
        assert set(held) == {(b, s) for b in bots for s in range(players)}
        assert set(held.values()) == {1}
        for p in plans:
            if p.board == board:
                assert sorted(p.bots) == sorted(bots)  # everybody at every table


@pytest.mark.parametrize("players", [3, 4, 5])
def test_gauntlet_puts_the_candidate_in_each_seat_with_a_control_table(players: int) -> None:
    plans = gauntlet("cand", "ref", players, boards=3)
    assert len(plans) == 3 * (players + 1)
    for board in range(3):
        tables = [p for p in plans if p.board == board]
        control = [p for p in tables if "cand" not in p.bots]
        assert len(control) == 1 and all(control[0].scored)
        candidate_seats = sorted(p.bots.index("cand") for p in tables if "cand" in p.bots)
        assert candidate_seats == list(range(players))
        for p in tables:
            if "cand" in p.bots:
                # only the candidate's seat is compared, against the control table's same seat
                assert [s for s in range(players) if p.scored[s]] == [p.bots.index("cand")]
                assert p.bots.count("cand") == 1


@pytest.mark.parametrize(
    ("bots", "players", "tables"), [(5, 4, 2), (6, 4, 2), (8, 4, 2), (7, 5, 3), (4, 3, 2),
                                    (10, 4, 3), (9, 3, 3)]
)
def test_field_is_balanced(bots: int, players: int, tables: int) -> None:
    names = [f"b{i}" for i in range(bots)]
    boards = 60
    plans = field(names, players, boards, tables, seed=7)
    assert len(plans) == boards * tables
    plays = Counter(b for p in plans for b in p.bots)
    # each bot plays about equally often
    assert max(plays.values()) - min(plays.values()) <= 1
    seats = Counter((b, s) for p in plans for s, b in enumerate(p.bots))
    for name in names:
        per_seat = [seats[(name, s)] for s in range(players)]
        assert max(per_seat) - min(per_seat) <= max(2, 0.15 * plays[name] / players)
    meets = Counter(frozenset(pair) for p in plans for pair in itertools.combinations(p.bots, 2))
    counts = [meets[frozenset(pair)] for pair in itertools.combinations(names, 2)]
    assert min(counts) > 0
    assert max(counts) - min(counts) <= max(3, 0.25 * max(counts))
    for board in range(boards):
        tables_of_board = [p for p in plans if p.board == board]
        held = Counter((b, s) for p in tables_of_board for s, b in enumerate(p.bots))
        assert set(held.values()) == {1}, "a bot held the same hand of a board twice"
        for p in tables_of_board:
            assert len(set(p.bots)) == players  # nobody twice at one table


def test_field_is_deterministic_from_the_seed() -> None:
    names = [f"b{i}" for i in range(7)]
    assert field(names, 4, 10, 2, seed=3) == field(names, 4, 10, 2, seed=3)
    assert field(names, 4, 10, 2, seed=3) != field(names, 4, 10, 2, seed=4)


def test_plan_tables_uses_enough_tables_per_board_by_default() -> None:
    settings = TournamentSettings(name="f", bots=tuple(f"b{i}" for i in range(9)),
                                  seating=Seating.FIELD, boards=4)
    plans = plan_tables(settings)
    per_board = Counter(p.board for p in plans)
    assert set(per_board.values()) == {3}  # ceil(9 / 4)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ("a", "b", "c"), "seating": Seating.ROTATION}, "exactly 4 bots"),
        ({"bots": ("a", "b", "c", "d"), "seating": Seating.FIELD}, "more bots than seats"),
        ({"bots": ("a", "b", "c", "d"), "seating": Seating.GAUNTLET},
         r"needs 2 bots \(candidate, reference\) or 3"),
        ({"bots": ("a", "a", "b", "c")}, "listed twice"),
        ({"bots": ("a", "b", "c", "d"), "players": 6}, "3, 4 or 5 players"),
        ({"bots": ("a", "b", "c", "d"), "seed": -1}, "seed"),
        ({"bots": ("a", "b", "c", "d"), "boards": 0}, "boards"),
        ({"bots": ("a", "b", "c", "d"), "per_decision": 0}, "time per decision"),
        ({"bots": ("a", "b", "c", "d"), "tables_per_board": 3}, "field seating only"),
    ],
)
def test_bad_settings_say_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        TournamentSettings(name="t", **kwargs)  # type: ignore[arg-type]


def test_settings_round_trip_through_json() -> None:
    settings = TournamentSettings(name="t", bots=("a", "b"), seating=Seating.GAUNTLET,
                                  players=5, boards=3, seed=2**64 - 1,
                                  game_settings={"beginner": True})
    assert TournamentSettings.from_json(settings.to_json()) == settings


@pytest.mark.parametrize("players", [3, 4, 5])
def test_field_refuses_more_tables_per_board_than_bots(players: int) -> None:
    bots = tuple(f"bot{i}" for i in range(players + 1))
    with pytest.raises(SettingsError, match=rf"at most {players + 1} tables per board.*got "
                                            rf"{players + 2}"):
        TournamentSettings(name="t", bots=bots, players=players, seating=Seating.FIELD,
                           tables_per_board=players + 2)
    # as many tables as bots can be planned: each hand held by a different bot at each table
    settings = TournamentSettings(name="t", bots=bots, players=players, seating=Seating.FIELD,
                                  boards=3, tables_per_board=players + 1)
    plans = plan_tables(settings)
    for board in range(3):
        held = [(p.bots[s], s) for p in plans if p.board == board for s in range(players)]
        assert len(held) == len(set(held)) == (players + 1) * players


def test_cli_refuses_too_many_field_tables_in_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tournaments.cli", "--db", f"sqlite:///{tmp_path}/a.db",
               "tournament", "create", "a", "b", "c", "d", "e", "--seating", "field",
               "--tables-per-board", "9"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: field seating with 5 bots allows at most 5 tables per board (each table needs "
        "a different bot in each hand), got 9"
    ]
