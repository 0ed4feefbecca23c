"""Boards and seatings (movements): which bots sit where, at which table of which board.

- **Boards**: board ``k``'s deal seed is the first 8 bytes (little-endian) of
  ``SHA-256(b"tarot-arena/board/v1" + tournament seed as 8 bytes LE + k as 4 bytes LE)``, its
  dealer seat ``k mod players``: the same tournament seed gives the same boards on any machine.
- **Rotation** (as many bots as seats): each board is played at one table per rotation; at table
  ``r`` seat ``s`` holds bot ``(s + r) mod n``, so each bot holds every hand of every board once.
- **Field** (more bots than seats): each board is played at several tables; a greedy schedule,
  deterministic from the seed, picks the bots who have played least and met least, then seats
  them to even out how often each bot holds each seat. A bot plays a board twice only when the
  tables need more seats than there are bots, and then never holds the same hand twice (unless
  the greedy schedule paints itself into a corner, which the balance tests would show).
- **Competition** (at least two bots per seat): each board is played at several tables (2 ..
  bots // players, as many as fit by default) by different bots: no bot ever plays a board
  twice, so a bot that remembers everything learns nothing from one table about another. Its
  result is compared with everyone who held the same seat of the board, as in bridge. A greedy
  schedule, deterministic from the seed, seats the bots who have played least, gives each the
  seats it has held least, then groups them into tables so that bots meet about equally often.
  The only seating safe against bots that remember (:attr:`Seating.safe`).
- **Gauntlet** (candidate, reference): each board is played at one table per seat with the
  candidate in that seat and the reference in the others, plus a control table of references
  only. Only the candidate's seats and the control table are compared, so the candidate's score
  in a seat is set against the reference's on the very same cards.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .settings import Seating, SettingsError, TournamentSettings

_BOARD_DOMAIN = b"tarot-arena/board/v1"


def board_seed(tournament_seed: int, number: int) -> int:
    digest = hashlib.sha256(
        _BOARD_DOMAIN + tournament_seed.to_bytes(8, "little") + number.to_bytes(4, "little")
    ).digest()
    return int.from_bytes(digest[:8], "little")


@dataclass(frozen=True, slots=True)
class TablePlan:
    board: int
    number: int
    bots: tuple[str, ...]
    """Bot id by seat."""
    scored: tuple[bool, ...]
    """Whether each seat is compared in its board's duplicate groups."""


def plan_tables(settings: TournamentSettings) -> list[TablePlan]:
    bots, boards, n = settings.bots, settings.boards, settings.players
    if settings.seating is Seating.ROTATION:
        return rotation(bots, boards)
    if settings.seating is Seating.GAUNTLET:
        return gauntlet(bots[0], bots[1], n, boards)
    if settings.seating is Seating.COMPETITION:
        tables = settings.tables_per_board or len(bots) // n
        return competition(bots, n, boards, tables, settings.seed)
    per_board = settings.tables_per_board or max(2, -(-len(bots) // n))
    return field(bots, n, boards, per_board, settings.seed)


def rotation(bots: Sequence[str], boards: int) -> list[TablePlan]:
    n = len(bots)
    return [
        TablePlan(b, r, tuple(bots[(s + r) % n] for s in range(n)), (True,) * n)
        for b in range(boards)
        for r in range(n)
    ]


def gauntlet(candidate: str, reference: str, players: int, boards: int) -> list[TablePlan]:
    plans = []
    for b in range(boards):
        for t in range(players):
            seats = tuple(candidate if s == t else reference for s in range(players))
            plans.append(TablePlan(b, t, seats, tuple(s == t for s in range(players))))
        plans.append(TablePlan(b, players, (reference,) * players, (True,) * players))
    return plans


def field(
    bots: Sequence[str], players: int, boards: int, tables_per_board: int, seed: int
) -> list[TablePlan]:
    if len(bots) <= players:
        raise SettingsError("field seating needs more bots than seats")
    rng = random.Random(board_seed(seed, 0xFFFFFFFF))
    plays: Counter[str] = Counter()
    seat_counts: Counter[tuple[str, int]] = Counter()
    meets: Counter[frozenset[str]] = Counter()
    plans = []
    for b in range(boards):
        played_board: Counter[str] = Counter()
        held: set[tuple[str, int]] = set()
        for t in range(tables_per_board):
            chosen: list[str] = []
            for _ in range(players):
                candidates = [
                    bot for bot in bots
                    if bot not in chosen and _can_sit(bot, held, players)
                ]
                candidates.sort(key=lambda bot: (
                    played_board[bot],
                    plays[bot],
                    sum(meets[frozenset((bot, other))] for other in chosen),
                    rng.random(),
                ))
                feasible = [c for c in candidates if _seatable([*chosen, c], held, players)]
                chosen.append((feasible or candidates)[0])
            seating = _best_seating(chosen, seat_counts, held, players)
            for seat, bot in enumerate(seating):
                plays[bot] += 1
                played_board[bot] += 1
                seat_counts[(bot, seat)] += 1
                held.add((bot, seat))
            for pair in itertools.combinations(seating, 2):
                meets[frozenset(pair)] += 1
            plans.append(TablePlan(b, t, tuple(seating), (True,) * players))
    return plans


def _can_sit(bot: str, held: set[tuple[str, int]], players: int) -> bool:
    return any((bot, seat) not in held for seat in range(players))


def _seatable(chosen: list[str], held: set[tuple[str, int]], players: int) -> bool:
    """Whether the chosen bots can take distinct seats none of them already held."""
    return any(
        all((bot, seat) not in held for bot, seat in zip(chosen, seats, strict=True))
        for seats in itertools.permutations(range(players), len(chosen))
    )


def _best_seating(
    chosen: list[str],
    seat_counts: Counter[tuple[str, int]],
    held: set[tuple[str, int]],
    players: int,
) -> list[str]:
    best: tuple[int, ...] | None = None
    best_cost: tuple[int, int] | None = None
    for order in itertools.permutations(range(players)):
        repeats = sum((chosen[i], seat) in held for seat, i in enumerate(order))
        cost = (repeats, sum(seat_counts[(chosen[i], seat)] ** 2 for seat, i in enumerate(order)))
        if best_cost is None or cost < best_cost:
            best, best_cost = order, cost
    assert best is not None
    return [chosen[i] for i in best]


def competition(
    bots: Sequence[str], players: int, boards: int, tables_per_board: int, seed: int
) -> list[TablePlan]:
    """Each board at ``tables_per_board`` tables, never twice by one bot (see the module)."""
    n = len(bots)
    if len(set(bots)) != n:
        raise SettingsError("a bot is listed twice")
    if not 2 <= tables_per_board <= n // players:
        raise SettingsError(
            f"competition seating with {n} bots and {players} players allows 2..{n // players} "
            f"tables per board (no bot plays a board twice), not {tables_per_board}"
        )
    rng = random.Random(board_seed(seed, 0xFFFFFFFE))
    plays: Counter[str] = Counter()
    seat_counts: Counter[tuple[str, int]] = Counter()
    meets: Counter[frozenset[str]] = Counter()
    plans = []
    for b in range(boards):
        ranked = sorted(bots, key=lambda bot: (plays[bot], rng.random()))
        chosen = ranked[: tables_per_board * players]
        by_seat = _competition_seats(chosen, players, tables_per_board, seat_counts, rng)
        tables = _competition_tables(by_seat, tables_per_board, meets, rng)
        for t, seating in enumerate(tables):
            for seat, bot in enumerate(seating):
                plays[bot] += 1
                seat_counts[(bot, seat)] += 1
            for pair in itertools.combinations(seating, 2):
                meets[frozenset(pair)] += 1
            plans.append(TablePlan(b, t, seating, (True,) * players))
    return plans


def _competition_seats(
    chosen: list[str],
    players: int,
    tables: int,
    seat_counts: Counter[tuple[str, int]],
    rng: random.Random,
) -> list[list[str]]:
    """``tables`` bots for each seat: each bot gets, as far as the others allow, a seat it has
    held least (the pairs furthest below their bot's most-held seat go first)."""
    pairs = []
    for bot in chosen:
        most = max(seat_counts[(bot, seat)] for seat in range(players))
        for seat in range(players):
            pairs.append((seat_counts[(bot, seat)] - most, rng.random(), bot, seat))
    pairs.sort()
    by_seat: list[list[str]] = [[] for _ in range(players)]
    placed: set[str] = set()
    for _, _, bot, seat in pairs:
        if bot not in placed and len(by_seat[seat]) < tables:
            by_seat[seat].append(bot)
            placed.add(bot)
    return by_seat


def _competition_tables(
    by_seat: list[list[str]], tables: int, meets: Counter[frozenset[str]], rng: random.Random
) -> list[tuple[str, ...]]:
    """One bot of each seat per table, each joining the table whose bots it has met least."""
    seated: list[list[str]] = [[bot] for bot in rng.sample(by_seat[0], tables)]
    for bots in by_seat[1:]:
        open_tables = list(range(tables))
        for bot in rng.sample(bots, len(bots)):
            best = min(open_tables, key=lambda t: (
                sum(meets[frozenset((bot, other))] for other in seated[t]), rng.random()
            ))
            seated[best].append(bot)
            open_tables.remove(best)
    return [tuple(table) for table in seated]
