"""The shipped JSON Schema of the deal record: every record the engine writes validates (many
random deals, every player count and variant, finished or not), broken ones are rejected."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonschema
import pytest

from arena.games.french_tarot import (
    PASS,
    DealRecord,
    GameState,
    TableOptions,
    apply,
    legal_actions,
    seeded_deal,
)
from arena.games.french_tarot.game import Direction
from arena.schemas import deal_record_schema

VALIDATOR = jsonschema.Draft202012Validator(deal_record_schema())


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(deal_record_schema())


def random_record(number: int, stop_early: bool = False) -> dict[str, Any]:
    rng = random.Random(number)
    players = 3 + number % 3
    options = TableOptions(players, beginner=number % 7 == 0,
                           direction=Direction.CLOCKWISE if number % 2 else
                           Direction.COUNTER_CLOCKWISE)
    seed = rng.randrange(2**64)
    state = GameState(seeded_deal(seed, players, number % players), options)
    stop = rng.randrange(1, 60) if stop_early else None
    while not state.is_over and (stop is None or len(state.history) < stop):
        legal = legal_actions(state)
        all_pass = number % 5 == 0 and PASS in legal  # every fifth deal is all passed
        apply(state, PASS if all_pass else rng.choice(legal))
    return DealRecord.of(state, seed).to_json()


def test_every_record_the_engine_writes_validates() -> None:
    outcomes: set[str] = set()
    for number in range(600):
        record = random_record(number)
        errors = [e.message for e in VALIDATOR.iter_errors(record)]
        assert not errors, (number, errors, json.dumps(record)[:400])
        outcomes.add(record["result"]["outcome"])
        # What a TableEnd carries is the same record as text.
        text = DealRecord.from_json(record).dumps()
        assert not list(VALIDATOR.iter_errors(json.loads(text)))
    assert {"played", "all-passed"} <= outcomes


def test_an_unfinished_record_validates() -> None:
    for number in range(60):
        record = random_record(number, stop_early=True)
        assert not list(VALIDATOR.iter_errors(record)), number


def played_record() -> dict[str, Any]:
    for number in range(1, 100):
        record = random_record(number)
        if record["result"]["outcome"] == "played" and record["options"]["players"] == 4:
            return record
    raise AssertionError("no played 4-player deal")


def _set(path: str, value: Any) -> Any:
    def change(record: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = record
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is DELETE:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return change


DELETE = object()


@pytest.mark.parametrize(("change", "why"), [
    (_set("format", "tarot-arena/deal-record/2"), "another format"),
    (_set("options.players", 6), "six players"),
    (_set("hands.0", "KS QH"), "a hand of two cards"),
    (_set("chien", "KS QH ZZ"), "a card that does not exist"),
    (_set("actions.0", [0, "play 11S"]), "a card spelled wrongly"),
    (_set("actions.0", [0, "fold"]), "an action that does not exist"),
    (_set("actions.0", [7, "pass"]), "a seat beyond the table"),
    (_set("result.scores", [1, 2, 3]), "three scores at a 4-player table"),
    (_set("result.taker_points", 40.25), "a quarter point"),
    (_set("result.contract", "garde-royale"), "an unknown contract"),
    (_set("result.breakdown.won", DELETE), "a breakdown without won"),
    (_set("surprise", 1), "an unknown field"),
    (_set("dealer", DELETE), "no dealer"),
])
def test_broken_records_are_rejected(change: Any, why: str) -> None:
    record = copy.deepcopy(played_record())
    assert not list(VALIDATOR.iter_errors(record))
    change(record)
    assert list(VALIDATOR.iter_errors(record)), why


def test_a_poignee_may_name_the_trumps_shown() -> None:
    record = copy.deepcopy(played_record())
    record["result"]["poignees"] = ["simple", {"level": "double", "seat": 1,
                                                "cards": "T21 T20 T19"}]
    assert not list(VALIDATOR.iter_errors(record))
    record["result"]["poignees"] = [{"level": "quadruple"}]
    assert list(VALIDATOR.iter_errors(record))


def test_records_with_a_chosen_poignee_validate() -> None:
    """The trumps a poignée keeps hidden are recorded as 'hide TRUMP' actions; records written
    before players chose (no hide) validate too."""
    from pathlib import Path

    rules = Path(__file__).parents[1] / "french_tarot"
    paths = [*(rules / "golden").glob("*.json"), *(rules / "legacy").glob("*.json")]
    hides = 0
    for path in paths:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert not list(VALIDATOR.iter_errors(record)), path.name
        loaded = DealRecord.from_json(record).to_json()  # legacy ones gain their hides
        assert not list(VALIDATOR.iter_errors(loaded)), path.name
        hides += sum(action.startswith("hide ") for _, action in loaded["actions"])
    assert hides >= 4
    record = copy.deepcopy(played_record())
    record["actions"].append([1, "hide KS"])  # only trumps are ever hidden
    assert list(VALIDATOR.iter_errors(record))
