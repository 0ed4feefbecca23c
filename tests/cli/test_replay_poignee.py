"""The replay text of a poignée: the trumps shown, and those its player chose to keep hidden."""

from __future__ import annotations

from pathlib import Path

from arena.games.french_tarot import DealRecord, replay
from tests.french_tarot.test_record import chosen_poignee_record
from tournaments.cli.report import describe_deal

LEGACY = Path(__file__).parents[1] / "french_tarot" / "legacy" / "4p-poignee-before-the-choice.json"


def test_the_replay_shows_the_poignee_chosen() -> None:
    record = chosen_poignee_record()
    lines = describe_deal(record, replay(record))
    assert ("seat 1 shows a simple poignée: T11 T10 T9 T8 T7 T6 T5 T4 T3 T2 "
            "(keeps T21 T12 T1 hidden)") in lines
    assert not any(line.startswith("seat 1 hide") for line in lines)


def test_the_replay_of_a_record_from_before_the_choice() -> None:
    """It showed its lowest trumps, as every poignée did then: the 21 stayed hidden."""
    record = DealRecord.loads(LEGACY.read_text(encoding="utf-8"))
    lines = describe_deal(record, replay(record))
    poignees = [line for line in lines if "shows a" in line]  # not the score terms
    assert poignees == [
        "seat 1 shows a simple poignée: T19 T17 T11 T10 T8 T7 T5 T4 T3 T1 (keeps T21 hidden)"
    ]
