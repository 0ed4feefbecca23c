"""JSON deal records: the deal, every action, the result; exact round trip and replay.

A record is plain JSON so that anybody can read and check it::

    {
      "format": "tarot-arena/deal-record/1",
      "options": {"players": 4, "beginner": false, "direction": "counter-clockwise"},
      "seed": 42,                                   # optional: where the deal came from
      "dealer": 0,
      "hands": ["AS 3S ... T21", ...],              # per seat, card notation
      "chien": "5H KD ...",
      "actions": [[1, "pass"], [2, "bid garde"], [2, "discard 4C"], [2, "no-chelem"],
                  [1, "play 7H"], ...],
      "result": {"outcome": "played", "scores": [-106, -106, 318, -106], ...}
    }

With two players (``"players": 2``, the game with the dummy) ``hands`` holds three hands, the
third the dummy's; the dummy's cards are recorded as its own seat's actions (``[2, "play
7H"]``), whoever chose them (the defender); ``result.scores`` has the two players' scores.

:func:`replay` plays the actions through the engine: it returns the final state, or raises
:class:`ReplayError` saying which action is illegal (and why) or how the result differs.

The trumps a poignée shows are the player's choice, recorded as its ``hide`` actions right after
``poignee LEVEL`` (the trumps kept hidden), so a record replays the very cards shown. Records
written before players chose hold no ``hide`` action: their poignées showed the lowest trumps,
and loading such a record adds the ``hide`` actions that show exactly those, so it replays as
it was played and is written back in today's spelling.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from ..records import Reader, replay_actions
from ..records import RecordError as RecordError
from ..records import ReplayError as ReplayError
from ..records import check_result as _check_result
from .actions import (
    Action,
    Contract,
    DeclarePoignee,
    HideTrump,
    PoigneeLevel,
    format_action,
    parse_action,
)
from .cards import card_name, format_cards, parse_card, parse_cards
from .deal import MAX_SEED, Deal, seeded_deal
from .game import (
    DealOutcome,
    DealResult,
    DealState,
    Direction,
    IllegalActionError,
    Phase,
    TableOptions,
    apply,
    legal_actions,
)
from .scoring import DealSummary, ScoreBreakdown, Side

FORMAT: Final = "tarot-arena/deal-record/1"


_READ: Final = Reader(RecordError)


@dataclass(frozen=True, slots=True)
class DealRecord:
    options: TableOptions
    deal: Deal
    actions: tuple[tuple[int, Action], ...]
    result: DealResult | None = None
    seed: int | None = None

    @classmethod
    def of(cls, state: DealState, seed: int | None = None) -> DealRecord:
        return cls(state.options, state.deal, tuple(state.history), state.result, seed)

    @classmethod
    def from_seed(
        cls, seed: int, options: TableOptions, dealer: int | None = None
    ) -> DealRecord:
        return cls(options, seeded_deal(seed, options.players, dealer), (), None, seed)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "options": {
                "players": self.options.players,
                "beginner": self.options.beginner,
                "direction": self.options.direction.value,
            },
        }
        if self.seed is not None:
            data["seed"] = self.seed
        data["dealer"] = self.deal.dealer
        data["hands"] = [format_cards(h) for h in self.deal.hands]
        data["chien"] = format_cards(self.deal.chien)
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
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
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
    raw = _READ.mapping(_READ.field(data, "options"), "options")
    options = TableOptions(
        players=_READ.integer(_READ.field(raw, "players", "options."), "options.players"),
        beginner=_READ.boolean(raw.get("beginner", False), "options.beginner"),
        direction=Direction(raw.get("direction", Direction.COUNTER_CLOCKWISE.value)),
    )
    hands = _READ.field(data, "hands")
    if not (isinstance(hands, list) and all(isinstance(h, str) for h in hands)):
        raise RecordError(f"hands must be a list of strings of cards, got {hands!r}")
    deal = Deal(
        options.players,
        _READ.integer(_READ.field(data, "dealer"), "dealer"),
        tuple(tuple(sorted(parse_cards(h))) for h in hands),
        tuple(sorted(parse_cards(_READ.text(_READ.field(data, "chien"), "chien")))),
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
    if result is not None and len(result.scores) != options.players:
        raise RecordError(
            f"result.scores has {len(result.scores)} scores for {options.players} players"
        )
    seed = data.get("seed")
    if seed is not None and not 0 <= _READ.integer(seed, "seed") <= MAX_SEED:
        raise RecordError(f"seed {seed} is not in 0 .. 2**64 - 1")
    if any(type(a) is DeclarePoignee for _, a in actions) and not any(
        type(a) is HideTrump for _, a in actions
    ):
        actions = _with_lowest_shown(options, deal, actions)
    return DealRecord(options, deal, tuple(actions), result, seed)


def _with_lowest_shown(
    options: TableOptions, deal: Deal, actions: list[tuple[int, Action]]
) -> list[tuple[int, Action]]:
    """A record written before players chose their poignée's trumps, with the ``hide`` actions
    that show the lowest, as the engine did then: the highest extra trumps, which the engine
    lists first. Stops adding at the first action the rules refuse (:func:`replay` reports it)."""
    state = DealState(deal, options)
    out: list[tuple[int, Action]] = []
    for index, (seat, action) in enumerate(actions):
        try:
            apply(state, action, seat)
        except IllegalActionError:
            return out + actions[index:]
        out.append((seat, action))
        while state.phase is Phase.POIGNEE:
            hide = legal_actions(state)[0]
            apply(state, hide, seat)
            out.append((seat, hide))
    return out








def _label(table: dict[str, Any], value: Any, where: str) -> Any:
    if not isinstance(value, str) or value not in table:
        raise RecordError(f"{where} must be one of {', '.join(table)}, got {value!r}")
    return table[value]


def result_to_json(result: DealResult) -> dict[str, Any]:
    data: dict[str, Any] = {"outcome": result.outcome.value, "scores": list(result.scores)}
    if result.outcome is DealOutcome.PETIT_SEC:
        data["petit_sec_seat"] = result.petit_sec_seat
    if result.outcome is not DealOutcome.PLAYED:
        return data
    assert result.summary is not None and result.breakdown is not None
    s, b = result.summary, result.breakdown
    data.update(
        taker=result.taker,
        partner=result.partner,
        contract=s.contract.label,
        called_card=None if result.called_card is None else card_name(result.called_card),
        taker_points=s.taker_half_points / 2,
        bouts=s.bouts,
        petit_au_bout=None if s.petit_au_bout is None else s.petit_au_bout.value,
        poignees=[level.label for level in s.poignees],
        chelem_announced=s.chelem_announced,
        chelem=None if s.chelem is None else s.chelem.value,
        taker_alone=s.taker_alone,
        excuse_debt_unpaid=result.excuse_debt_unpaid,
        breakdown={
            "target": b.target,
            "won": b.won,
            "margin": b.margin,
            "contract_points": b.contract_points,
            "petit_au_bout": b.petit_au_bout,
            "poignee": b.poignee,
            "chelem": b.chelem,
            "per_defender": b.per_defender,
            "taker": b.taker,
            "partner": b.partner,
            "defender": b.defender,
        },
    )
    return data


_CONTRACTS: Final = {c.label: c for c in Contract}
_LEVELS: Final = {level.label: level for level in PoigneeLevel}


def result_from_json(data: dict[str, Any]) -> DealResult:
    outcome = DealOutcome(_READ.field(data, "outcome", "result."))
    raw_scores = _READ.field(data, "scores", "result.")
    if not isinstance(raw_scores, list):
        raise RecordError(f"result.scores must be a list, got {raw_scores!r}")
    scores = tuple(_READ.integer(v, "result.scores") for v in raw_scores)
    if outcome is not DealOutcome.PLAYED:
        seat = _READ.optional_integer(data.get("petit_sec_seat"), "result.petit_sec_seat")
        return DealResult(outcome, scores, petit_sec_seat=seat)

    def get(key: str) -> Any:
        return _READ.field(data, key, "result.")

    points = get("taker_points")
    if isinstance(points, bool) or not isinstance(points, int | float) or (points * 2) % 1:
        raise RecordError(f"result.taker_points must be a number of half-points, got {points!r}")
    petit = get("petit_au_bout")
    chelem = get("chelem")
    poignees = get("poignees")
    if not isinstance(poignees, list):
        raise RecordError(f"result.poignees must be a list, got {poignees!r}")
    summary = DealSummary(
        players=len(scores),
        contract=_label(_CONTRACTS, get("contract"), "result.contract"),
        taker_half_points=round(points * 2),
        bouts=_READ.integer(get("bouts"), "result.bouts"),
        petit_au_bout=None if petit is None else Side(petit),
        poignees=tuple(_label(_LEVELS, level, "result.poignees") for level in poignees),
        chelem_announced=_READ.boolean(get("chelem_announced"), "result.chelem_announced"),
        chelem=None if chelem is None else Side(chelem),
        taker_alone=_READ.boolean(get("taker_alone"), "result.taker_alone"),
    )
    called = get("called_card")
    breakdown = _READ.mapping(get("breakdown"), "result.breakdown")
    fields = ScoreBreakdown.__dataclass_fields__
    if set(breakdown) != set(fields):
        raise RecordError(
            f"result.breakdown must have exactly the fields {', '.join(fields)}, "
            f"got {', '.join(breakdown)}"
        )
    for key, value in breakdown.items():
        if key == "won":
            _READ.boolean(value, "result.breakdown.won")
        else:
            _READ.integer(value, f"result.breakdown.{key}")
    return DealResult(
        outcome,
        scores,
        taker=_READ.integer(get("taker"), "result.taker"),
        partner=_READ.optional_integer(get("partner"), "result.partner"),
        contract=summary.contract,
        called_card=(None if called is None
                     else parse_card(_READ.text(called, "result.called_card"))),
        summary=summary,
        breakdown=ScoreBreakdown(**breakdown),
        excuse_debt_unpaid=_READ.boolean(get("excuse_debt_unpaid"), "result.excuse_debt_unpaid"),
    )


def replay(record: DealRecord, check_result: bool = True) -> DealState:
    """Play a record's actions; the final state, or a :class:`ReplayError` saying where it fails."""
    if record.seed is not None and seeded_deal(
        record.seed, record.options.players, record.deal.dealer
    ) != record.deal:
        raise ReplayError(f"seed {record.seed} does not deal the hands this record holds")
    state = DealState(record.deal, record.options)
    replay_actions(state, record.actions, apply, format_action, ReplayError)
    if check_result:
        _check_result(state, record.result, len(record.actions), ReplayError, result_to_json)
    return state
