"""JSON deal records: exact round trip, replay, replay errors, malformed records, golden replays.

The golden records in ``golden/`` were played once by the random policy of
:mod:`.test_properties` (deals 1, 245 and 502: an ordinary exchange of the Matto, a debt paid
tricks later, and a Matto lost by a holder who won no trick). They pin the rules: any change in
who wins a trick, where the Matto's card goes or how points are counted makes them fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.games.tre_e_venticinque import (
    FORMAT,
    DealRecord,
    DealState,
    RecordError,
    ReplayError,
    apply,
    format_thirds,
    legal_actions,
    replay,
    seeded_deal,
)

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN = {
    "matto-exchanged.json": "exchange",
    "matto-debt-paid-later.json": "debt",
    "matto-lost.json": "lost",
}


def finished(seed: int = 9, dealer: int = 1) -> DealState:
    state = DealState(seeded_deal(seed, dealer))
    while state.to_act is not None:
        legal = legal_actions(state)
        apply(state, legal[len(state.history) * 7 % len(legal)])
    return state


def record_json(seed: int = 9) -> dict[str, Any]:
    return DealRecord.of(finished(seed), seed).to_json()


def test_a_record_round_trips_exactly_and_replays_to_the_same_state() -> None:
    state = finished()
    record = DealRecord.of(state, 9)
    text = record.dumps()
    again = DealRecord.loads(text)
    assert again == record
    assert again.dumps() == text
    replayed = replay(again)
    assert replayed.result == state.result
    assert replayed.tricks == state.tricks
    assert replayed.piles == state.piles


def test_a_record_says_its_format_and_its_points_in_thirds_and_for_people() -> None:
    data = record_json()
    assert data["format"] == FORMAT == "tarot-arena/tre-e-venticinque-record/1"
    assert sum(data["result"]["scores"]) == 0
    points = DealRecord.from_json(data).result.points  # type: ignore[union-attr]
    assert sum(points) == 233
    assert data["result"]["points"] == [format_thirds(p) for p in points]
    assert len(data["hands"]) == 3 and len(data["talon"].split()) == 3
    assert len(data["actions"]) == 78
    assert data["actions"][0][1].startswith("discard ")


def test_an_unfinished_deal_records_no_result_and_replays_as_far_as_it_goes() -> None:
    state = DealState(seeded_deal(3))
    for _ in range(10):
        apply(state, legal_actions(state)[0])
    data = DealRecord.of(state).to_json()
    assert data["result"] is None and "seed" not in data
    assert len(replay(DealRecord.from_json(data)).history) == 10


def test_replay_names_the_illegal_action_and_why() -> None:
    data = record_json()
    data["actions"][0] = [data["dealer"], "discard T5"]
    with pytest.raises(ReplayError, match="action 0 \\(discard T5 by seat 1\\) is illegal") as err:
        replay(DealRecord.from_json(data))
    assert err.value.index == 0


def test_replay_refuses_a_result_the_rules_do_not_give() -> None:
    data = record_json()
    scores = data["result"]["scores"]
    assert scores[0] != scores[1]
    scores[0], scores[1] = scores[1], scores[0]
    data["result"]["points"] = [data["result"]["points"][i] for i in (1, 0, 2)]
    with pytest.raises(ReplayError, match="differs from the rules'"):
        replay(DealRecord.from_json(data))
    assert replay(DealRecord.from_json(data), check_result=False).result is not None


def test_replay_refuses_a_seed_that_does_not_deal_the_hands() -> None:
    data = record_json()
    data["seed"] = 10
    with pytest.raises(ReplayError, match="seed 10 does not deal the hands"):
        replay(DealRecord.from_json(data))


def test_a_result_that_does_not_finish_the_deal_is_refused() -> None:
    data = record_json()
    data["actions"] = data["actions"][:-1]
    with pytest.raises(ReplayError, match="do not finish the deal"):
        replay(DealRecord.from_json(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="tarot-arena/deal-record/1"), "unknown record format"),
        (lambda d: d.update(options={"players": 4}), "exactly 3 players, not 4"),
        (lambda d: d.update(options={"players": 3, "beginner": True}), "no variant"),
        (lambda d: d.pop("talon"), "missing field talon"),
        (lambda d: d.update(hands="AS"), "hands must be a list"),
        (lambda d: d.update(dealer="0"), "dealer must be an integer"),
        (lambda d: d["actions"].append([0, "bid garde"]), "unknown action 'bid garde'"),
        (lambda d: d["actions"].append("play M"), "must be \\[seat, \"action\"\\]"),
        (lambda d: d["result"].update(points=["1", "2", "3"]), "not the points behind"),
        (lambda d: d["result"].update(scores=[1, 2, 3]), "not the zero-sum scores"),
        (lambda d: d["result"].pop("tricks_won"), "exactly the fields"),
        (lambda d: d["result"].update(scores=[1, 2]), "list of 3 integers"),
        (lambda d: d.update(seed=-4), "seed -4 is not in"),
        (lambda d: d.update(hands=[d["hands"][0]] * 3), "dealt more than once"),
    ],
)
def test_malformed_records_are_refused_with_a_clear_error(change: Any, message: str) -> None:
    data = record_json()
    change(data)
    with pytest.raises(RecordError, match=message):
        DealRecord.from_json(data)


def test_records_must_be_json_objects() -> None:
    with pytest.raises(RecordError, match="must be JSON"):
        DealRecord.loads("{not json")
    with pytest.raises(RecordError, match="a deal record is a JSON object"):
        DealRecord.from_json([1, 2])


def test_golden_directory_holds_exactly_the_cases() -> None:
    assert {p.name for p in GOLDEN_DIR.glob("*.json")} == set(GOLDEN)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_replay(name: str) -> None:
    text = (GOLDEN_DIR / name).read_text(encoding="utf-8")
    record = DealRecord.loads(text)
    state = replay(record)  # the seed deals the hands, every action is legal, the result equal
    assert DealRecord.of(state, record.seed).dumps(indent=1) + "\n" == text  # byte for byte
    result = state.result
    assert result is not None
    case = GOLDEN[name]
    assert result.matto_lost == (case == "lost")
    assert not result.matto_debt_unpaid
    if case != "lost":
        exchange = state.exchange
        assert exchange is not None
        matto_trick = next(i for i, t in enumerate(state.tricks) if 77 in t.cards)
        assert (exchange.trick > matto_trick) == (case == "debt")
    assert json.loads(text)["result"]["scores"] == list(result.scores)
