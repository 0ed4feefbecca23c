"""JSON deal records of Tre e Venticinque: the deal, every action, the result; exact replay.

A record is plain JSON so that anybody can read and check it::

    {
      "format": "tarot-arena/tre-e-venticinque-record/1",
      "options": {"players": 3},
      "seed": 42,                                   # optional: where the deal came from
      "dealer": 0,
      "hands": ["AS 3S ... T21", ...],              # per seat, 25 cards as dealt
      "talon": "5H KD T7",                          # the three the dealer takes up
      "actions": [[0, "discard 4C"], [0, "discard 2H"], [0, "discard 9D"],
                  [1, "play 7H"], ...],
      "result": {"outcome": "played", "scores": [25, -23, -2],  # zero-sum, thirds
                 "points": ["28 2/3", "23 1/3", "25 2/3"], "tricks_won": [9, 8, 8],
                 "discard_thirds": 3, "matto_lost": false, "matto_debt_unpaid": false}
    }

``scores`` are the arena's zero-sum scores, in thirds of a point (each seat's points minus each
other seat's, added up); ``points`` are the card points behind them, the seed's count, written
for people. A record whose ``points`` disagree with its ``scores`` is refused.

:func:`replay` plays the actions through the engine: it returns the final state, or raises
:class:`ReplayError` saying which action is illegal (and why) or how the result differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from ..dealing import MAX_SEED
from ..records import Reader, replay_actions
from ..records import RecordError as RecordError
from ..records import ReplayError as ReplayError
from ..records import check_result as _check_result
from .actions import Action, format_action, parse_action
from .cards import TOTAL_THIRDS, format_cards, format_thirds, parse_cards
from .deal import PLAYERS, Deal, seeded_deal
from .game import DealOutcome, DealResult, DealState, TableOptions, apply

FORMAT: Final = "tarot-arena/tre-e-venticinque-record/1"
_THREE_PLAYERS: Final = TableOptions()


_READ: Final = Reader(RecordError)


@dataclass(frozen=True, slots=True)
class DealRecord:
    deal: Deal
    actions: tuple[tuple[int, Action], ...]
    result: DealResult | None = None
    seed: int | None = None
    options: TableOptions = _THREE_PLAYERS

    @classmethod
    def of(cls, state: DealState, seed: int | None = None) -> DealRecord:
        return cls(state.deal, tuple(state.history), state.result, seed, state.options)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "options": {"players": self.options.players}}
        if self.seed is not None:
            data["seed"] = self.seed
        data["dealer"] = self.deal.dealer
        data["hands"] = [format_cards(h) for h in self.deal.hands]
        data["talon"] = format_cards(self.deal.talon)
        data["actions"] = [[seat, format_action(a)] for seat, a in self.actions]
        data["result"] = None if self.result is None else result_to_json(self.result)
        return data

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> DealRecord:
        try:
            return _record_from_json(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"malformed deal record: {exc}") from exc

    @classmethod
    def loads(cls, text: str) -> DealRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"a deal record must be JSON: {exc}") from exc
        return cls.from_json(data)


def _record_from_json(data: Any) -> DealRecord:
    if not isinstance(data, dict):
        raise RecordError("a deal record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"unknown record format {data.get('format')!r}, expected {FORMAT!r}")
    raw_options = _READ.mapping(_READ.field(data, "options"), "options")
    unknown = set(raw_options) - {"players"}
    if unknown:
        raise RecordError(f"unknown options {', '.join(sorted(unknown))}: "
                          "Tre e Venticinque has no variant")
    players = _READ.field(raw_options, "players", "options.")
    options = TableOptions(_READ.integer(players, "options.players"))
    hands = _READ.field(data, "hands")
    if not (isinstance(hands, list) and all(isinstance(h, str) for h in hands)):
        raise RecordError(f"hands must be a list of strings of cards, got {hands!r}")
    deal = Deal(
        _READ.integer(_READ.field(data, "dealer"), "dealer"),
        tuple(tuple(parse_cards(h)) for h in hands),
        tuple(parse_cards(_READ.text(_READ.field(data, "talon"), "talon"))),
    )
    raw_actions = _READ.field(data, "actions")
    if not isinstance(raw_actions, list):
        raise RecordError(f"actions must be a list, got {raw_actions!r}")
    actions = []
    for i, item in enumerate(raw_actions):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
            raise RecordError(f"action {i} must be [seat, \"action\"], got {item!r}")
        actions.append((_READ.integer(item[0], f"actions[{i}] seat"), parse_action(item[1])))
    raw_result = data.get("result")
    result = None if raw_result is None else result_from_json(_READ.mapping(raw_result, "result"))
    seed = data.get("seed")
    if seed is not None and not 0 <= _READ.integer(seed, "seed") <= MAX_SEED:
        raise RecordError(f"seed {seed} is not in 0 .. 2**64 - 1")
    return DealRecord(deal, tuple(actions), result, seed, options)







def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != PLAYERS:
        raise RecordError(f"{where} must be a list of {PLAYERS} integers, got {value!r}")
    return tuple(_READ.integer(v, where) for v in value)


def result_to_json(result: DealResult) -> dict[str, Any]:
    return {
        "outcome": result.outcome.value,
        "scores": list(result.scores),
        "points": [format_thirds(p) for p in result.points],
        "dealer": result.dealer,
        "tricks_won": list(result.tricks_won),
        "discard_thirds": result.discard_thirds,
        "matto_lost": result.matto_lost,
        "matto_debt_unpaid": result.matto_debt_unpaid,
    }


def result_from_json(data: dict[str, Any]) -> DealResult:
    fields = {"outcome", "scores", "points", "dealer", "tricks_won", "discard_thirds",
              "matto_lost", "matto_debt_unpaid"}
    if set(data) != fields:
        raise RecordError(f"result must have exactly the fields {', '.join(sorted(fields))}, "
                          f"got {', '.join(sorted(data))}")
    scores = _ints(data["scores"], "result.scores")
    if sum(scores) != 0 or any((s + TOTAL_THIRDS) % PLAYERS for s in scores):
        raise RecordError(f"result.scores {list(scores)} are not the zero-sum scores of a deal")
    result = DealResult(
        DealOutcome(_READ.text(data["outcome"], "result.outcome")),
        scores,
        _READ.integer(data["dealer"], "result.dealer"),
        _ints(data["tricks_won"], "result.tricks_won"),
        _READ.integer(data["discard_thirds"], "result.discard_thirds"),
        matto_lost=_READ.boolean(data["matto_lost"], "result.matto_lost"),
        matto_debt_unpaid=_READ.boolean(data["matto_debt_unpaid"], "result.matto_debt_unpaid"),
    )
    points = data["points"]
    if points != [format_thirds(p) for p in result.points]:
        raise RecordError(f"result.points {points!r} are not the points behind result.scores "
                          f"{list(scores)}: {[format_thirds(p) for p in result.points]}")
    return result


def replay(record: DealRecord, check_result: bool = True) -> DealState:
    """Play a record's actions; the final state, or a :class:`ReplayError` saying where it fails."""
    if record.seed is not None and seeded_deal(record.seed, record.deal.dealer) != record.deal:
        raise ReplayError(f"seed {record.seed} does not deal the hands this record holds")
    state = DealState(record.deal, record.options)
    replay_actions(state, record.actions, apply, format_action, ReplayError)
    if check_result:
        _check_result(state, record.result, len(record.actions), ReplayError, result_to_json)
    return state
