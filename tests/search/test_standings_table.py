"""``make standings-table`` (``python -m bench.standings``): the README's table of the bundled
bots reproduces itself, and its seating is fair."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench import standings


def table_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    standings.main(list(args))
    return capsys.readouterr().out


def test_the_same_seed_gives_the_same_table_twice(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--boards", "3", "--samples", "3", "--bid-samples", "3", "--seed", "11")
    first = table_of(capsys, *args)
    assert first == table_of(capsys, *args)
    rows = [line for line in first.splitlines() if re.match(r"^\| [123] \|", line)]
    assert sorted(row.split("|")[2].strip() for row in rows) == sorted(standings.BOTS)
    assert all(row.rstrip().endswith("| 3 | none |") for row in rows), rows
    assert "`python -m bench.standings --boards 3 --seed 11 --samples 3 --bid-samples 3`" in first


def test_another_seed_gives_other_boards(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--boards", "3", "--samples", "3", "--bid-samples", "3")
    assert table_of(capsys, *args, "--seed", "1") != table_of(capsys, *args, "--seed", "2")


def test_each_bot_holds_every_seat_equally_often_over_three_boards() -> None:
    held: Counter[tuple[str, int]] = Counter()
    for plan in standings.plans(6):
        for seat, key in enumerate(plan.bots):
            held[(key.split("#")[0], seat)] += 1
    assert set(held.values()) == {8}  # per bot and seat: once a board, twice as the copy
    assert len(held) == len(standings.BOTS) * standings.PLAYERS


@pytest.mark.parametrize("boards", ["0", "4", "-3"])
def test_boards_must_be_a_positive_multiple_of_three(
    boards: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        standings.main(["--boards", boards])
    assert exited.value.code == 2
    assert "boards must be a positive multiple of 3" in capsys.readouterr().err
