"""What ``replay`` says about a deal: names, the seat direction, every term of the score."""

from __future__ import annotations

import trio

from arena.games.french_tarot import (
    Bid,
    ChelemChoice,
    Direction,
    Play,
    TableOptions,
    replay,
    seeded_deal,
)
from clients.local import play_local
from clients.sdk import Bot, DecisionRequest, TableView
from tournaments.cli.report import describe_deal, seat_order


class Boaster(Bot):
    """Takes with the highest contract it may, announces a chelem, plays its first card."""

    def decide(self, table: TableView, request: DecisionRequest) -> object:
        legal = request.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            return max(bids, key=lambda b: b.contract)
        if ChelemChoice(True) in legal:
            return ChelemChoice(True)
        plays = [a for a in legal if isinstance(a, Play)]
        return plays[0] if plays else legal[0]


def play(seed: int, options: TableOptions) -> list[str]:
    deal = seeded_deal(seed, options.players, 0)
    outcome = trio.run(lambda: play_local(deal, options, [Boaster()] * options.players))
    names = ["north-bot", "west-bot", "south-bot", "east-bot"][:options.players]
    return describe_deal(outcome.record, replay(outcome.record), names)


def test_a_failed_chelem_is_explained_on_the_result_lines() -> None:
    lines = play(3, TableOptions(4))
    text = "\n".join(lines)
    assert "announces a chelem" in text
    per_defender = next(line for line in lines if "X per defender" in line)
    assert "; chelem -200; total " in per_defender
    assert "chelem announced and not made: -200" in text
    result = next(line for line in lines if line.startswith("[bold]result:[/bold]"))
    assert "north-bot" in result and "east-bot" in result  # scores by name


def test_the_header_names_the_seats_and_the_direction() -> None:
    lines = play(5, TableOptions(4, direction=Direction.CLOCKWISE))
    assert lines[1] == "  play goes 0 → 1 → 2 → 3, clockwise around the table"
    assert lines[2].startswith("  seat 0 (north-bot): ")
    assert any(line.startswith("seat 1 (west-bot): ") for line in lines)
    assert seat_order(3, Direction.COUNTER_CLOCKWISE) == (
        "play goes 0 → 1 → 2, counter-clockwise around the table")
