"""Duplicate scoring: compare each result with the others made on the same cards.

A comparison group is one board and one seat: every scored entry in it held the same hand.
Within a group a raw score becomes

- a **datum** (Butler) score: the score minus the group's mean, or
- a **matchpoint** percentage (the FFT's "topage"): best 100 %, worst 0 %, equal steps,
  ties share, i.e. ``100 * (beaten + tied / 2) / (entries - 1)``.

Groups with a single entry say nothing about skill and are left out. Penalties for infractions
are applied to raw scores before comparing.

Every board weighs the same: a bot's value on a board is the mean of its entries there (field
seating may seat it twice on one board, in different hands), and both its mean per board and its
matchpoint percentage are means over boards of those values. The interval and the test against
the next bot treat the board as the unit too (entries on one board share the cards, so they are
not independent). Only ``total`` sums entries.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from arena.games.base import Game
from arena.games.display import charged_seats

from .settings import Penalties, PenaltyKind, ScoringMethod
from .stats import Interval, mean_interval, paired_t_p_value


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat's result at one table."""

    board: int
    seat: int
    table_id: str
    bot_id: str
    score: int
    infractions: int = 0
    infraction_kinds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoredEntry:
    entry: Entry
    adjusted: float
    """The raw score after penalties."""
    datum: float
    matchpoints: float


@dataclass(slots=True)
class Standing:
    bot_id: str
    rank: int
    per_board: Interval
    """Mean datum per board and its 95 % interval."""
    total: float
    matchpoint_pct: float
    boards: int
    entries: int
    infractions: dict[str, int] = field(default_factory=dict)
    disqualified: bool = False
    separated_from_next: bool | None = None
    """Whether the next bot in the ranking is significantly behind (paired t-test, 5 %)."""
    p_value_next: float | None = None


@dataclass(slots=True)
class Standings:
    method: ScoringMethod
    rows: list[Standing]
    crosstable: dict[tuple[str, str], tuple[float, int]]
    """(a, b) -> (mean of a's score minus b's on the same cards, comparisons)."""
    scored: list[ScoredEntry]


def charged_players(
    game: Game, players: int, decisions: Iterable[tuple[str, int, int]],
    records: Callable[[Sequence[str]], Mapping[str, str | None]],
) -> dict[tuple[str, int], int]:
    """Who is charged with each decision made at a seat no player holds (French Tarot's dummy,
    decided by the defender): ``(table id, decision index) -> the player's seat``, for the
    ``(table id, index, seat)`` of ``decisions`` whose seat is ``players`` or more. The
    decision log keeps the seat played for; the player is the game's
    :meth:`~arena.games.base.Game.decider` there, found by stepping the table's record
    (``records`` gives the records' JSON by table id), so that a player is charged every
    infraction of every seat it decides for. Decisions at the players' own seats are theirs
    and need no record."""
    unheld: dict[str, set[int]] = defaultdict(set)
    for table_id, _, seat in decisions:
        if seat >= players:
            unheld[table_id].add(seat)
    out: dict[tuple[str, int], int] = {}
    if not unheld:
        return out
    texts = records(sorted(unheld))
    for table_id, seats in sorted(unheld.items()):
        text = texts.get(table_id)
        if text is None:
            continue
        record = game.load_record(json.loads(text))
        for index, player in charged_seats(game, record, sorted(seats)).items():
            out[(table_id, index)] = player
    return out


def datum_scores(scores: Sequence[float]) -> list[float]:
    mean = math.fsum(scores) / len(scores)
    return [s - mean for s in scores]


def matchpoint_scores(scores: Sequence[float]) -> list[float]:
    k = len(scores)
    if k < 2:
        return [50.0] * k
    out = []
    for s in scores:
        beaten = sum(1 for o in scores if o < s)
        tied = sum(1 for o in scores if o == s) - 1
        out.append(100.0 * (beaten + tied / 2.0) / (k - 1))
    return out


def apply_penalties(group: Sequence[Entry], penalties: Penalties) -> list[float]:
    raw = [float(e.score) for e in group]
    if penalties.kind is PenaltyKind.POINTS:
        return [r - penalties.points * e.infractions for r, e in zip(raw, group, strict=True)]
    if penalties.kind is PenaltyKind.FORFEIT:
        worst = min(raw)
        return [worst if e.infractions else r for r, e in zip(raw, group, strict=True)]
    return raw


def compute_standings(
    entries: Iterable[Entry],
    penalties: Penalties | None = None,
    method: ScoringMethod = ScoringMethod.DATUM,
) -> Standings:
    penalties = penalties or Penalties()
    entries = list(entries)
    infractions: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[str, int] = defaultdict(int)
    for e in entries:
        totals[e.bot_id] += e.infractions
        for kind in e.infraction_kinds:
            infractions[e.bot_id][kind] += 1
    limit = penalties.disqualify_after
    disqualified = {b for b, n in totals.items() if limit is not None and n >= limit}
    groups: dict[tuple[int, int], list[Entry]] = defaultdict(list)
    for e in entries:
        if e.bot_id not in disqualified:
            groups[(e.board, e.seat)].append(e)
    scored: list[ScoredEntry] = []
    for key in sorted(groups):
        group = groups[key]
        if len(group) < 2:
            continue
        adjusted = apply_penalties(group, penalties)
        for e, a, d, m in zip(
            group, adjusted, datum_scores(adjusted), matchpoint_scores(adjusted), strict=True
        ):
            scored.append(ScoredEntry(e, a, d, m))
    rows = _rows(scored, {e.bot_id for e in entries}, disqualified, infractions, method)
    return Standings(method, rows, _crosstable(scored), scored)


def _per_board(scored: Sequence[ScoredEntry], value: str) -> dict[str, dict[int, float]]:
    sums: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in scored:
        sums[s.entry.bot_id][s.entry.board].append(getattr(s, value))
    return {
        bot: {board: math.fsum(v) / len(v) for board, v in boards.items()}
        for bot, boards in sums.items()
    }


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return math.fsum(values) / len(values) if values else 0.0


def _rows(
    scored: Sequence[ScoredEntry],
    bots: set[str],
    disqualified: set[str],
    infractions: dict[str, dict[str, int]],
    method: ScoringMethod,
) -> list[Standing]:
    datum_by_board = _per_board(scored, "datum")
    mp_by_board = _per_board(scored, "matchpoints")
    rows = []
    for bot in bots:
        boards = datum_by_board.get(bot, {})
        mine = [s for s in scored if s.entry.bot_id == bot]
        rows.append(Standing(
            bot_id=bot,
            rank=0,
            per_board=mean_interval([boards[b] for b in sorted(boards)]),
            total=math.fsum(s.datum for s in mine),
            matchpoint_pct=_mean(mp_by_board.get(bot, {}).values()),
            boards=len(boards),
            entries=len(mine),
            infractions=dict(infractions.get(bot, {})),
            disqualified=bot in disqualified,
        ))

    def key(row: Standing) -> tuple[bool, float, str]:
        value = row.matchpoint_pct if method is ScoringMethod.MATCHPOINTS else row.per_board.mean
        return (row.disqualified, -value, row.bot_id)

    rows.sort(key=key)
    by_board = mp_by_board if method is ScoringMethod.MATCHPOINTS else datum_by_board
    for i, row in enumerate(rows):
        row.rank = i + 1
        if i + 1 < len(rows) and not rows[i + 1].disqualified and not row.disqualified:
            mine, theirs = by_board.get(row.bot_id, {}), by_board.get(rows[i + 1].bot_id, {})
            common = sorted(set(mine) & set(theirs))
            p = paired_t_p_value([mine[b] - theirs[b] for b in common])
            row.p_value_next = p
            row.separated_from_next = p < 0.05
    return rows


def _crosstable(scored: Sequence[ScoredEntry]) -> dict[tuple[str, str], tuple[float, int]]:
    groups: dict[tuple[int, int], list[ScoredEntry]] = defaultdict(list)
    for s in scored:
        groups[(s.entry.board, s.entry.seat)].append(s)
    sums: dict[tuple[str, str], list[float]] = defaultdict(list)
    for group in groups.values():
        for a in group:
            for b in group:
                if a.entry.bot_id != b.entry.bot_id:
                    sums[(a.entry.bot_id, b.entry.bot_id)].append(a.adjusted - b.adjusted)
    return {pair: (math.fsum(v) / len(v), len(v)) for pair, v in sums.items()}
