"""Who plays which board next, among the bots free to play now.

- The most uncertain entry goes first (the widest interval, then the fewest boards): a new
  entry, whose interval is the prior's, plays before the settled ones.
- It is seated with the free bots whose ratings are closest to its own (a comparison between
  near equals is the one whose outcome is least known in advance), each meeting they already
  had counting as :attr:`Field.meeting_cost` rating points more apart: a result measures a bot
  against its table, and bots that always met the same opponents could be told apart from
  them only, never from the rest of the field.
- On a board none of them has played, the oldest open one first: a bot that comes late plays
  the boards the field already played, and is compared with everyone who held its seat there.
  A board takes :attr:`Field.tables_per_board` tables at most; when no open board suits the
  group, a new one is drawn.
- No bot plays a board twice, whatever its versions (a bot that remembers a deal would know a
  hand of it), and each table is seated to even out how often each bot holds each seat.

Pure: the service gives the field as it stands and stores what comes out.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from .rating import ELO, PRIOR_SD

MEETING_COST = 100.0
"""Elo points a meeting two bots already had at a table puts between them."""
MEETING_SHARE = MEETING_COST / (ELO * PRIOR_SD)
"""The same as a share of a new entry's prior standard deviation (the Elo prior's 347
points): what a meeting costs on the scale of another model."""

@dataclass(frozen=True, slots=True)
class Candidate:
    """A bot free to play now, as the entry it would play for."""

    bot_id: str
    rating: float
    sd: float
    boards: int
    """Boards its entry has played."""
    seats: tuple[int, ...] = ()
    """How often the bot held each seat, by seat (missing: never)."""


@dataclass(slots=True)
class OpenBoard:
    number: int
    tables: int
    """Tables of it played or seated."""
    bots: set[str] = field(default_factory=set)
    """Every bot seated at one of its tables."""


@dataclass(frozen=True, slots=True)
class Match:
    board: int
    bots: tuple[str, ...]
    """Bot id by seat."""


@dataclass(frozen=True, slots=True)
class Field:
    players: int
    tables_per_board: int
    next_board: int
    """The number of the next board to draw."""
    meeting_cost: float = MEETING_COST
    """Rating points a meeting two bots already had at a table puts between them, on the
    scale of the candidates' ratings."""


def matches(free: Sequence[Candidate], boards: MutableMapping[int, OpenBoard], table: Field,
            rng: random.Random, meets: Mapping[frozenset[str], int] | None = None
            ) -> list[Match]:
    """Tables for as many of ``free`` as can be seated now (``boards``: the open ones, which
    this updates with the tables it seats; ``meets``: how often each pair of bots met)."""
    met = meets or {}
    queue = sorted(free, key=lambda c: (-c.sd, c.boards, rng.random()))
    ordered = sorted(boards.values(), key=lambda b: b.number)
    next_board = table.next_board
    out = []
    while len(queue) >= table.players:
        anchor = queue.pop(0)
        ties = {c.bot_id: rng.random() for c in queue}

        def group_for(pool: list[Candidate], anchor: Candidate = anchor,
                      ties: dict[str, float] = ties) -> list[Candidate] | None:
            group: list[Candidate] = []
            for _ in range(table.players - 1):
                left = [c for c in pool if c not in group]
                if not left:
                    return None
                seated = (anchor, *group)
                group.append(min(left, key=lambda c: (
                    abs(c.rating - anchor.rating) + table.meeting_cost * sum(
                        met.get(frozenset((c.bot_id, g.bot_id)), 0) for g in seated),
                    -c.sd, ties[c.bot_id])))
            return group

        chosen: tuple[OpenBoard, list[Candidate]] | None = None
        for board in ordered:
            if board.tables >= table.tables_per_board or anchor.bot_id in board.bots:
                continue
            others = group_for([c for c in queue if c.bot_id not in board.bots])
            if others is not None:
                chosen = (board, others)
                break
        if chosen is None:
            board = OpenBoard(next_board, 0)
            next_board += 1
            boards[board.number] = board
            ordered.append(board)
            others = group_for(queue)
            assert others is not None  # the queue holds players - 1 at least
            chosen = (board, others)
        board, others = chosen
        group = [anchor, *others]
        for c in others:
            queue.remove(c)
        seated = _seat(group, rng)
        board.tables += 1
        board.bots.update(c.bot_id for c in group)
        out.append(Match(board.number, tuple(c.bot_id for c in seated)))
    return out


def _seat(group: Sequence[Candidate], rng: random.Random) -> tuple[Candidate, ...]:
    """The seating that evens out how often each bot holds each seat."""
    def held(c: Candidate, seat: int) -> int:
        return c.seats[seat] if seat < len(c.seats) else 0

    return min(itertools.permutations(group), key=lambda order: (
        sum(held(c, seat) ** 2 for seat, c in enumerate(order)), rng.random()))
