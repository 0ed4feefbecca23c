"""JSON deal records: exact round trip, replay, replay errors, malformed records, golden replays.

The golden records in ``tests/french_tarot/golden/`` were played once by :func:`play_policy` (a
seeded random policy, built only on :meth:`random.Random.random`, whose sequence Python guarantees)
and committed. To regenerate them after a deliberate rules change::

    REGENERATE_GOLDEN=1 .venv/bin/python -m tests.french_tarot.test_record
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.games.french_tarot import (
    ANNOUNCE_CHELEM,
    NO_CHELEM,
    PASS,
    Action,
    Bid,
    CallCard,
    Contract,
    Deal,
    DealOutcome,
    DealRecord,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    IllegalActionError,
    Phase,
    Play,
    PoigneeLevel,
    RecordError,
    ReplayError,
    TableOptions,
    apply,
    format_action,
    legal_actions,
    parse_action,
    parse_cards,
    replay,
    seeded_deal,
    trump,
)
from arena.games.french_tarot.cards import EXCUSE, PETIT, parse_card

from .builders import make_deal, show_poignee, start_play

GOLDEN_DIR = Path(__file__).parent / "golden"

GOLDEN_CASES: dict[str, tuple[int, TableOptions, int]] = {
    # file name: (seed, options, dealer); the policy's random.Random is seeded with the seed too
    "2p-all-passed.json": (28, TableOptions(players=2), 1),
    "2p-garde-sans-chelem-announced.json": (10, TableOptions(players=2), 1),
    "2p-petite-poignee.json": (284, TableOptions(players=2), 1),
    "2p-beginner-dummy-petit-au-bout.json": (157, TableOptions(players=2, beginner=True), 1),
    "3p-all-passed.json": (224, TableOptions(players=3), 2),
    "3p-garde-contre-petit-au-bout.json": (59, TableOptions(players=3), 2),
    "3p-garde-sans-chelem-announced.json": (26, TableOptions(players=3), 2),
    "4p-beginner-petit-au-bout.json": (61, TableOptions(players=4, beginner=True), 1),
    "4p-garde-contre-poignee.json": (126, TableOptions(players=4), 2),
    "4p-defence-chelem-excuse-unpaid.json": (97, TableOptions(players=4), 1),
    "5p-partner-poignee-chelem-announced.json": (204, TableOptions(players=5), 4),
    "5p-taker-alone-poignee.json": (244, TableOptions(players=5), 4),
    "5p-poignee-hides-the-21.json": (300, TableOptions(players=5), 0),
}


def play_policy(seed: int, options: TableOptions, dealer: int) -> GameState:
    """A whole deal, each action drawn uniformly from ``legal_actions`` by Random(seed)."""
    state = GameState.from_seed(seed, options, dealer)
    rnd = random.Random(seed)
    while not state.is_over:
        legal = legal_actions(state)
        apply(state, legal[int(rnd.random() * len(legal))])
    return state


def golden_text(state: GameState, seed: int) -> str:
    return DealRecord.of(state, seed).dumps(indent=1) + "\n"


def regenerate_golden() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, (seed, options, dealer) in GOLDEN_CASES.items():
        (GOLDEN_DIR / name).write_text(
            golden_text(play_policy(seed, options, dealer), seed), encoding="utf-8"
        )


# --- records to play with ---------------------------------------------------------------------


def petit_sec_deal() -> Deal:
    """Four players; seat 2 holds the Petit as its only trump, without the Excuse."""
    mine = [PETIT, *range(17)]
    rest = [c for c in range(78) if c not in mine]
    hands = (tuple(rest[0:18]), tuple(rest[18:36]), tuple(mine), tuple(rest[36:54]))
    return Deal(4, 3, hands, tuple(rest[54:]))


def played(seed: int, players: int, beginner: bool = False) -> DealRecord:
    state = play_policy(seed, TableOptions(players=players, beginner=beginner), seed % players)
    assert state.result is not None
    return DealRecord.of(state, seed)


def first_played(players: int, beginner: bool = False, start: int = 0) -> DealRecord:
    seed = start
    while True:
        record = played(seed, players, beginner)
        assert record.result is not None
        if record.result.outcome is DealOutcome.PLAYED:
            return record
        seed += 1


def all_passed() -> DealRecord:
    state = GameState.from_seed(5, TableOptions(players=4))
    for _ in range(4):
        apply(state, PASS)
    return DealRecord.of(state, 5)


def petit_sec() -> DealRecord:
    return DealRecord.of(GameState(petit_sec_deal()))


def in_progress() -> DealRecord:
    state = GameState.from_seed(8, TableOptions(players=5), dealer=2)
    rnd = random.Random(8)
    for _ in range(30):
        legal = legal_actions(state)
        apply(state, legal[int(rnd.random() * len(legal))])
    return DealRecord.of(state, 8)


RECORDS: dict[str, Callable[[], DealRecord]] = {
    "3p": lambda: first_played(3),
    "4p": lambda: first_played(4),
    "5p": lambda: first_played(5),
    "5p-beginner": lambda: first_played(5, beginner=True),
    "all-passed": all_passed,
    "petit-sec": petit_sec,
    "in-progress": in_progress,
    "from-seed": lambda: DealRecord.from_seed(2**64 - 1, TableOptions(players=3), dealer=1),
}


# --- round trip -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RECORDS))
def test_json_round_trip_is_exact(name: str) -> None:
    record = RECORDS[name]()
    data = record.to_json()
    text = json.dumps(data)
    back = DealRecord.loads(text)
    assert back == record
    assert back.result == record.result
    assert back.to_json() == data
    assert record.dumps() == record.dumps() == back.dumps()
    assert DealRecord.loads(record.dumps(indent=2)) == record
    assert DealRecord.from_json(json.loads(text)) == record


def test_record_layout() -> None:
    record = first_played(4)
    data = record.to_json()
    assert list(data) == [
        "format", "options", "seed", "dealer", "hands", "chien", "actions", "result"
    ]
    assert data["format"] == "tarot-arena/deal-record/1"
    assert data["options"] == {
        "players": 4, "beginner": False, "direction": "counter-clockwise"
    }
    assert all(isinstance(seat, int) and isinstance(text, str) for seat, text in data["actions"])
    assert data["result"]["outcome"] == "played"
    assert sum(data["result"]["scores"]) == 0
    assert "seed" not in petit_sec().to_json()


def test_petit_sec_record() -> None:
    record = petit_sec()
    assert record.actions == ()
    data = record.to_json()
    assert data["result"] == {"outcome": "petit-sec", "scores": [0, 0, 0, 0], "petit_sec_seat": 2}
    state = replay(DealRecord.loads(record.dumps()))
    assert state.result == record.result


def test_all_passed_record() -> None:
    record = all_passed()
    assert record.to_json()["result"] == {"outcome": "all-passed", "scores": [0, 0, 0, 0]}
    assert replay(record).result == record.result


@pytest.mark.parametrize("name", ["3p", "4p", "5p", "5p-beginner", "all-passed", "petit-sec"])
def test_replay_reproduces_the_result(name: str) -> None:
    record = RECORDS[name]()
    state = replay(DealRecord.loads(record.dumps()))
    assert state.is_over
    assert state.result == record.result
    assert tuple(state.history) == record.actions
    assert state.deal == record.deal


def test_replay_of_an_unfinished_record() -> None:
    record = in_progress()
    assert record.result is None
    state = replay(record)
    assert not state.is_over and len(state.history) == 30


# --- replay errors ----------------------------------------------------------------------------


def state_before(record: DealRecord, index: int) -> GameState:
    state = GameState(record.deal, record.options)
    for seat, action in record.actions[:index]:
        apply(state, action, seat)
    return state


def with_action(record: DealRecord, index: int, seat: int, action: Action) -> DealRecord:
    actions = (*record.actions[:index], (seat, action), *record.actions[index + 1:])
    return dataclasses.replace(record, actions=actions)


def illegal_candidates(state: GameState) -> list[Action]:
    """Actions of every kind that are not legal now."""
    legal = set(legal_actions(state))
    everything: list[Action] = [
        PASS,
        *(Bid(c) for c in Contract),
        *(CallCard(c) for c in range(78)),
        *(Discard(c) for c in range(78)),
        ANNOUNCE_CHELEM,
        NO_CHELEM,
        *(DeclarePoignee(level) for level in PoigneeLevel),
        *(HideTrump(c) for c in range(78)),
        *(Play(c) for c in range(78)),
    ]
    return [a for a in everything if a not in legal]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_illegal_action_names_its_index_action_and_reason(players: int) -> None:
    record = first_played(players)
    rnd = random.Random(players)
    indices = [0, 1, players, len(record.actions) - 1, *rnd.sample(range(len(record.actions)), 8)]
    for index in indices:
        state = state_before(record, index)
        seat = record.actions[index][0]
        for bad in rnd.sample(illegal_candidates(state), 5):
            with pytest.raises(IllegalActionError) as expected:
                apply(state.copy(), bad, seat)
            with pytest.raises(ReplayError) as info:
                replay(with_action(record, index, seat, bad))
            assert info.value.index == index
            message = str(info.value)
            assert message == (
                f"action {index} ({format_action(bad)} by seat {seat}) is illegal: "
                f"{expected.value.reason}"
            )
            assert expected.value.reason  # never an empty reason


def test_illegal_action_examples() -> None:
    record = first_played(4)
    taker = record.result.taker if record.result else None
    assert taker is not None
    # a lower bid after a higher one, found in the record itself
    bids = [i for i, (_, a) in enumerate(record.actions) if isinstance(a, Bid)]
    index = bids[0] + 1
    seat = record.actions[index][0]
    with pytest.raises(ReplayError, match=rf"action {index} \(play KS by seat {seat}\) is illegal: "
                       r"play KS is not an action of the bidding phase"):
        replay(with_action(record, index, seat, Play(parse_card("KS"))))
    # a card the seat does not hold
    first_play = next(i for i, (_, a) in enumerate(record.actions) if isinstance(a, Play))
    seat = record.actions[first_play][0]
    state = state_before(record, first_play)
    absent = next(c for c in range(78) if not state.hands[seat] >> c & 1)
    with pytest.raises(ReplayError, match="is not in this hand") as info:
        replay(with_action(record, first_play, seat, Play(absent)))
    assert info.value.index == first_play


def test_wrong_seat_in_a_record() -> None:
    record = first_played(4)
    index = 3
    seat, action = record.actions[index]
    other = (seat + 1) % 4
    with pytest.raises(ReplayError) as info:
        replay(with_action(record, index, other, action))
    assert info.value.index == index
    assert str(info.value) == (
        f"action {index} ({format_action(action)} by seat {other}) is illegal: "
        f"it is seat {seat}'s turn, not seat {other}'s"
    )


def test_action_after_the_end() -> None:
    record = first_played(3)
    extra = dataclasses.replace(record, actions=(*record.actions, (0, PASS)))
    with pytest.raises(ReplayError, match="the deal is over: no more actions") as info:
        replay(extra)
    assert info.value.index == len(record.actions)


def test_missing_actions_with_a_result() -> None:
    record = first_played(4)
    short = dataclasses.replace(record, actions=record.actions[:-1])
    with pytest.raises(ReplayError, match=r"its \d+ actions do not finish the deal \(phase "
                       r"playing, seat \d to act\)") as info:
        replay(short)
    assert info.value.index is None
    assert replay(short, check_result=False).phase is Phase.PLAYING


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: r["scores"].reverse(),
        lambda r: r.update(taker_points=r["taker_points"] + 0.5),
        lambda r: r.update(bouts=(r["bouts"] + 1) % 4),
        lambda r: r.update(excuse_debt_unpaid=not r["excuse_debt_unpaid"]),
        lambda r: r.update(poignees=["simple"]),
        lambda r: r["breakdown"].update(margin=r["breakdown"]["margin"] + 1),
        lambda r: r.update(outcome="all-passed"),
    ],
    ids=["scores", "points", "bouts", "excuse", "poignee", "breakdown", "outcome"],
)
def test_tampered_result(tamper: Callable[[dict[str, Any]], None]) -> None:
    record = first_played(4)
    data = record.to_json()
    data["result"]["scores"] = [1, 2, 3, -6]  # zero-sum but not the rules' scores
    tamper(data["result"])
    forged = DealRecord.from_json(data)
    pattern = r"the recorded result .* differs from the rules'"
    with pytest.raises(ReplayError, match=pattern) as info:
        replay(forged)
    assert info.value.index is None
    assert replay(forged, check_result=False).result == record.result


def test_tampered_result_detail() -> None:
    record = all_passed()
    data = record.to_json()
    data["result"]["scores"] = [0, 0, 1, -1]
    with pytest.raises(ReplayError, match=r"\[0, 0, 1, -1\].*\[0, 0, 0, 0\]"):
        replay(DealRecord.from_json(data))


# --- malformed records ------------------------------------------------------------------------


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    *parents, key = path.split(".")

    def mutate(data: dict[str, Any]) -> None:
        for p in parents:
            data = data[p]
        data[key] = value

    return mutate


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    *parents, key = path.split(".")

    def mutate(data: dict[str, Any]) -> None:
        for p in parents:
            data = data[p]
        del data[key]

    return mutate


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format", _set("format", "tarot/2"), "unknown record format 'tarot/2'"),
    ("no format", _drop("format"), "unknown record format None"),
    ("no options", _drop("options"), "missing field options"),
    ("options not an object", _set("options", 4), "options must be a JSON object, got 4"),
    ("no players", _drop("options.players"), "missing field options.players"),
    ("players text", _set("options.players", "4"), "options.players must be an integer, got '4'"),
    ("players 6", _set("options.players", 6), "3, 4 or 5 players, not 6"),
    ("beginner", _set("options.beginner", "yes"), "options.beginner must be true or false"),
    ("direction", _set("options.direction", "sideways"), "'sideways' is not a valid Direction"),
    ("no dealer", _drop("dealer"), "missing field dealer"),
    ("dealer bool", _set("dealer", True), "dealer must be an integer, got True"),
    ("dealer 9", _set("dealer", 9), "dealer seat 9 is not a seat of a 4-player table"),
    ("no hands", _drop("hands"), "missing field hands"),
    ("hands text", _set("hands", "AS 2S"), "hands must be a list of strings of cards"),
    ("hands ints", _set("hands", [1, 2, 3, 4]), "hands must be a list of strings of cards"),
    ("three hands", lambda d: d["hands"].pop(), "3 hands for 4 players"),
    ("bad card", lambda d: d["hands"].__setitem__(0, d["hands"][0] + " ZZ"), "unknown card 'ZZ'"),
    ("no chien", _drop("chien"), "missing field chien"),
    ("chien list", _set("chien", ["AS"]), "chien must be a string"),
    ("card twice", lambda d: d.update(chien=d["hands"][0].split()[0] + d["chien"][2:]),
     "dealt more than once"),
    ("no actions", _drop("actions"), "missing field actions"),
    ("actions object", _set("actions", {}), "actions must be a list, got {}"),
    ("action triple", _set("actions", [[0, "pass", 1]]), "action 0 must be \\[seat, \"action\"\\]"),
    ("action text", _set("actions", [[1, "jump"]]), "unknown action 'jump'"),
    ("action seat", _set("actions", [["1", "pass"]]), "actions\\[0\\] seat must be an integer"),
    ("seed text", _set("seed", "5"), "seed must be an integer, got '5'"),
    ("seed negative", _set("seed", -5), r"seed -5 is not in 0 \.\. 2\*\*64 - 1"),
    ("seed huge", _set("seed", 2**64), r"is not in 0 \.\. 2\*\*64 - 1"),
    ("result list", _set("result", []), "result must be a JSON object, got \\[\\]"),
    ("outcome", _set("result.outcome", "won"), "'won' is not a valid DealOutcome"),
    ("no outcome", _drop("result.outcome"), "missing field result.outcome"),
    ("scores", _set("result.scores", None), "result.scores must be a list, got None"),
    ("score float", _set("result.scores", [1.5, 0, 0, 0]), "result.scores must be an integer"),
    ("3 scores", _set("result.scores", [0, 0, 0]), "result.scores has 3 scores for 4 players"),
    ("7 scores", _set("result.scores", [0] * 7),
     r"scored for 2 \(with the dummy\), 3, 4 or 5 players, not 7"),
    ("petit-sec seat", lambda d: d.update(result={"outcome": "petit-sec", "scores": [0] * 4,
                                                  "petit_sec_seat": "2"}),
     "result.petit_sec_seat must be an integer"),
    ("no contract", _drop("result.contract"), "missing field result.contract"),
    ("contract", _set("result.contract", "grand"), "result.contract must be one of petite, "
     "garde, garde-sans, garde-contre, got 'grand'"),
    ("points text", _set("result.taker_points", "49"), "result.taker_points must be a number"),
    ("points 49.3", _set("result.taker_points", 49.3), "result.taker_points must be a number"),
    ("points 92", _set("result.taker_points", 92), r"taker points 92 are not within 0\.\.91"),
    ("bouts", _set("result.bouts", "2"), "result.bouts must be an integer"),
    ("poignees", _set("result.poignees", "simple"), "result.poignees must be a list"),
    ("poignee", _set("result.poignees", ["huge"]), "result.poignees must be one of simple, "
     "double, triple, got 'huge'"),
    ("petit", _set("result.petit_au_bout", "me"), "'me' is not a valid Side"),
    ("chelem", _set("result.chelem", 1), "1 is not a valid Side"),
    ("announced", _set("result.chelem_announced", "no"), "result.chelem_announced must be true"),
    ("alone", _set("result.taker_alone", 0), "result.taker_alone must be true or false"),
    ("taker", _set("result.taker", "1"), "result.taker must be an integer, got '1'"),
    ("partner", _set("result.partner", 1.0), "result.partner must be an integer, got 1.0"),
    ("called", _set("result.called_card", "ZZ"), "unknown card 'ZZ'"),
    ("excuse", _set("result.excuse_debt_unpaid", None), "result.excuse_debt_unpaid must be"),
    ("no breakdown", _drop("result.breakdown"), "missing field result.breakdown"),
    ("breakdown", _set("result.breakdown", None), "result.breakdown must be a JSON object"),
    ("breakdown field", _drop("result.breakdown.target"), "result.breakdown must have exactly"),
    ("breakdown extra", _set("result.breakdown.extra", 1), "result.breakdown must have exactly"),
    ("breakdown type", _set("result.breakdown.taker", "3"), "result.breakdown.taker must be an"),
    ("breakdown won", _set("result.breakdown.won", 1), "result.breakdown.won must be true"),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [(m, msg) for _, m, msg in MALFORMED], ids=[n for n, _, _ in MALFORMED]
)
def test_malformed_record(mutate: Callable[[dict[str, Any]], None], message: str) -> None:
    data = copy.deepcopy(first_played(4).to_json())
    mutate(data)
    with pytest.raises(RecordError, match=message):
        DealRecord.from_json(data)
    with pytest.raises(RecordError, match=message):
        DealRecord.loads(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a deal record must be JSON: Expecting value"),
        ("{", "a deal record must be JSON"),
        ("{\"format\": 1,}", "a deal record must be JSON"),
        ("[]", "a deal record is a JSON object"),
        ("null", "a deal record is a JSON object"),
        ("\"record\"", "a deal record is a JSON object"),
    ],
)
def test_not_a_record(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        DealRecord.loads(text)


def test_record_errors_are_value_errors() -> None:
    assert issubclass(RecordError, ValueError)
    assert issubclass(ReplayError, ValueError)


def test_a_record_may_omit_defaults() -> None:
    data = all_passed().to_json()
    del data["options"]["beginner"], data["options"]["direction"], data["seed"], data["result"]
    record = DealRecord.from_json(data)
    assert record.options == TableOptions(players=4)
    assert record.seed is None and record.result is None


def test_action_notation_round_trip() -> None:
    actions: list[Action] = [
        PASS,
        *(Bid(c) for c in Contract),
        *(CallCard(c) for c in range(78)),
        *(Discard(c) for c in range(78)),
        ANNOUNCE_CHELEM,
        NO_CHELEM,
        *(DeclarePoignee(level) for level in PoigneeLevel),
        *(HideTrump(c) for c in range(78)),
        *(Play(c) for c in range(78)),
    ]
    texts = [format_action(a) for a in actions]
    assert len(set(texts)) == len(actions)
    for action, text in zip(actions, texts, strict=True):
        assert parse_action(text) == action
        assert parse_action(f"  {text.upper()} ") == action
    assert format_action(Play(EXCUSE)) == "play EX"
    assert format_action(Bid(Contract.GARDE_CONTRE)) == "bid garde-contre"
    assert format_action(DeclarePoignee(PoigneeLevel.DOUBLE)) == "poignee double"
    assert format_action(HideTrump(PETIT)) == "hide T1"


@pytest.mark.parametrize(
    "text",
    ["", "bid", "bid grande", "play", "play ZZ", "pass pass", "poignee quadruple", "call", "hide",
     "hide T22"],
)
def test_action_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match=r"unknown (action|card)"):
        parse_action(text)


# --- golden replays ---------------------------------------------------------------------------


# --- poignées: the shown trumps are recorded; records from before the choice still replay ------

LEGACY_DIR = Path(__file__).parent / "legacy"


def chosen_poignee_record() -> DealRecord:
    """A played four-player deal where seat 1 shows a simple poignée of 10 of its 13 trumps,
    hiding the 21, the Petit and the 12 (the lowest would have shown the Petit)."""
    deal = make_deal(4, 0, {1: "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T21 EX"})
    state = start_play(deal, 2, Contract.GARDE_SANS)
    show_poignee(state, PoigneeLevel.SIMPLE, "T21 T1 T12")
    while not state.is_over:
        apply(state, legal_actions(state)[-1])
    return DealRecord.of(state)


def test_a_chosen_poignee_is_recorded_and_replays_exactly() -> None:
    record = chosen_poignee_record()
    texts = [format_action(a) for _, a in record.actions]
    start = texts.index("poignee simple")
    assert texts[start:start + 4] == ["poignee simple", "hide T21", "hide T1", "hide T12"]
    assert texts[start + 4].startswith("play ")
    assert [1, "hide T1"] in record.to_json()["actions"]
    back = DealRecord.loads(record.dumps())
    assert back == record
    state = replay(back)
    shown = state.poignees[0]
    assert shown.cards == tuple(trump(n) for n in range(11, 1, -1))
    assert PETIT not in shown.cards and trump(21) not in shown.cards


def test_a_record_with_a_wrong_hide_is_refused() -> None:
    data = chosen_poignee_record().to_json()
    start = data["actions"].index([1, "hide T21"])
    data["actions"][start] = [1, "hide EX"]
    with pytest.raises(ReplayError, match=r"\(hide EX by seat 1\) is illegal: only trumps can "
                       "be hidden, not EX"):
        replay(DealRecord.from_json(data))
    data["actions"][start] = [1, "play T21"]  # not a record from before the choice: it has hides
    with pytest.raises(ReplayError, match="play T21 must wait: first choose the trumps"):
        replay(DealRecord.from_json(data))


LEGACY_SHOWN = {
    # (seat, the trumps shown): the lowest, Petit included, as the engine showed them then
    "3p-poignee-before-the-choice.json": (2, "T20 T19 T17 T14 T13 T12 T11 T8 T6 T5 T4 T3 T1"),
    "4p-poignee-before-the-choice.json": (1, "T19 T17 T11 T10 T8 T7 T5 T4 T3 T1"),
    "5p-poignee-before-the-choice.json": (4, "T14 T13 T8 T7 T6 T5 T4 T1"),
}


def test_legacy_directory_holds_exactly_the_cases() -> None:
    assert sorted(p.name for p in LEGACY_DIR.glob("*.json")) == sorted(LEGACY_SHOWN)


@pytest.mark.parametrize("name", sorted(LEGACY_SHOWN))
def test_a_record_written_before_the_choice_loads_and_replays(name: str) -> None:
    """These records were written by the engine before players chose their poignée's trumps
    (it showed the lowest; the record holds ``poignee simple`` and no ``hide``). They load with
    the hides that show those very trumps, and replay to the recorded result."""
    text = (LEGACY_DIR / name).read_text(encoding="utf-8")
    raw = json.loads(text)
    assert raw["format"] == "tarot-arena/deal-record/1"
    assert not any(action.startswith("hide") for _, action in raw["actions"])
    record = DealRecord.loads(text)
    seat, shown = LEGACY_SHOWN[name]
    added = [a for _, a in record.actions if isinstance(a, HideTrump)]
    assert added and len(record.actions) == len(raw["actions"]) + len(added)
    state = replay(record)  # raises if any action is illegal or the result differs
    assert state.result == record.result
    assert state.poignees[0].seat == seat
    assert state.poignees[0].cards == tuple(parse_cards(shown))
    # written back in today's spelling, it loads and replays the same
    again = DealRecord.loads(record.dumps())
    assert again == record and replay(again).poignees == state.poignees


def test_golden_directory_holds_exactly_the_cases() -> None:
    assert sorted(p.name for p in GOLDEN_DIR.glob("*.json")) == sorted(GOLDEN_CASES)


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_replay(name: str) -> None:
    text = (GOLDEN_DIR / name).read_text(encoding="utf-8")
    record = DealRecord.loads(text)
    seed, options, dealer = GOLDEN_CASES[name]
    assert (record.seed, record.options, record.deal.dealer) == (seed, options, dealer)
    assert record.deal == seeded_deal(seed, options.players, dealer)
    state = replay(record)  # raises if any action is illegal or the result differs
    assert state.result == record.result
    assert golden_text(state, seed) == text  # byte for byte, the result included
    # the policy still plays the same actions (seeded deal + legal_actions order are stable)
    assert tuple(play_policy(seed, options, dealer).history) == record.actions


def test_golden_cases_cover_the_features() -> None:
    results = {
        name: DealRecord.loads((GOLDEN_DIR / name).read_text(encoding="utf-8")).result
        for name in GOLDEN_CASES
    }
    summaries = {n: r.summary for n, r in results.items() if r and r.summary}
    assert {s.players for s in summaries.values()} == {2, 3, 4, 5}
    assert any(s.chelem_announced for s in summaries.values())
    assert any(s.poignees for s in summaries.values())
    assert any(  # a poignée whose player chose the trumps to hide
        isinstance(action, HideTrump)
        for name in GOLDEN_CASES
        for _, action in DealRecord.loads((GOLDEN_DIR / name).read_text(encoding="utf-8")).actions
    )
    assert any(s.petit_au_bout for s in summaries.values())
    assert any(s.taker_alone for s in summaries.values())
    assert any(s.players == 5 and not s.taker_alone for s in summaries.values())
    assert any(s.chelem for s in summaries.values())
    assert any(r and r.excuse_debt_unpaid for r in results.values())
    assert any(r and r.outcome is DealOutcome.ALL_PASSED for r in results.values())
    assert {s.contract for s in summaries.values()} >= {
        Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE
    }


if __name__ == "__main__":
    if os.environ.get("REGENERATE_GOLDEN") != "1":
        raise SystemExit("set REGENERATE_GOLDEN=1 to rewrite tests/french_tarot/golden/*.json")
    regenerate_golden()


def test_replay_refuses_a_seed_that_does_not_deal_the_recorded_hands() -> None:
    from arena.games.french_tarot import DealRecord, GameState, ReplayError, TableOptions, replay

    state = GameState.from_seed(5, TableOptions(4))
    record = DealRecord.of(state, seed=6)
    with pytest.raises(ReplayError, match="seed 6 does not deal the hands"):
        replay(record)
    assert replay(DealRecord.of(state, seed=5)).deal == state.deal
