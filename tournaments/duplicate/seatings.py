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
  schedule, deterministic from the seed, takes the bots who have played least and met least,
  swaps bots between the board's tables while that evens out meetings, then seats each table
  to even out how often each bot holds each seat.
  The only seating safe against bots that remember (:attr:`Seating.safe`).
- **Gauntlet** (candidate, reference): each board is played at one table per seat with the
  candidate in that seat and the reference in the others, plus a control table of references
  only. Only the candidate's seats and the control table are compared, so the candidate's score
  in a seat is set against the reference's on the very same cards. With a third bot, the
  *filler* (candidate, reference, filler), the other seats are the filler's, for the candidate
  and the reference alike: one table per seat for each of them, twice as many deals a board
  less one control table, and only their own seats compared (for a pair that never bids, say:
  among bots that do, their card play is compared).
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
        return gauntlet(bots[0], bots[1], n, boards, *bots[2:3])
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


def gauntlet(candidate: str, reference: str, players: int, boards: int,
             filler: str | None = None) -> list[TablePlan]:
    """Without a filler: tables 0 .. players - 1 seat the candidate in that seat among
    references, table ``players`` is the control table. With one: tables 0 .. players - 1 seat
    the candidate in that seat among fillers, tables players .. 2 players - 1 the reference."""
    plans = []
    for b in range(boards):
        for t in range(players):
            seats = tuple(candidate if s == t else filler or reference for s in range(players))
            plans.append(TablePlan(b, t, seats, tuple(s == t for s in range(players))))
        if filler is None:
            plans.append(TablePlan(b, players, (reference,) * players, (True,) * players))
            continue
        for t in range(players):
            seats = tuple(reference if s == t else filler for s in range(players))
            plans.append(TablePlan(b, players + t, seats, tuple(s == t for s in range(players))))
    return plans


def tables_per_board(settings: TournamentSettings) -> int:
    """How many tables (deals) each board of a gauntlet is played at."""
    return settings.players * 2 if len(settings.bots) > 2 else settings.players + 1


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
    schedule = _Schedule(n, players, rng)
    plans = []
    for b in range(boards):
        for t, table in enumerate(schedule.board(tables_per_board)):
            plans.append(TablePlan(b, t, tuple(bots[i] for i in table), (True,) * players))
    return plans


class _Schedule:
    """Competition seating's counts, by bot index: plays, seats held, meetings."""

    def __init__(self, bots: int, players: int, rng: random.Random) -> None:
        self.players = players
        self.rng = rng
        self.plays = [0] * bots
        self.seats = [[0] * players for _ in range(bots)]
        self.meets = [[0] * bots for _ in range(bots)]

    def board(self, tables: int) -> list[list[int]]:
        """One board's tables, bot indexes by seat; each bot at one table at most."""
        pool = list(range(len(self.plays)))
        groups = []
        for _ in range(tables):  # the bots who played least, then who met least
            group: list[int] = []
            for _ in range(self.players):
                best = min(pool, key=lambda bot: (
                    self.plays[bot], sum(self.meets[bot][other] for other in group),
                    self.rng.random(),
                ))
                group.append(best)
                pool.remove(best)
            groups.append(group)
        self._swap_while_better(groups)
        seated = [self._seat(group) for group in groups]
        for table in seated:
            for seat, bot in enumerate(table):
                self.plays[bot] += 1
                self.seats[bot][seat] += 1
            for x, y in itertools.combinations(table, 2):
                self.meets[x][y] += 1
                self.meets[y][x] += 1
        return seated

    def _swap_while_better(self, groups: list[list[int]]) -> None:
        """Swap bots between two tables while meetings get more even (a smaller sum of squared
        meeting counts): the greedy grouping cannot undo its early choices. Three passes at
        most, which is where the gain stops."""
        meets = self.meets

        def cost(bot: int, group: list[int], leaving: int) -> int:
            return sum((meets[bot][other] + 1) ** 2 for other in group if other != leaving)

        for _ in range(3):
            improved = False
            for a, b in itertools.combinations(groups, 2):
                for i, j in itertools.product(range(self.players), repeat=2):
                    x, y = a[i], b[j]
                    before = cost(x, a, x) + cost(y, b, y)
                    after = cost(y, a, x) + cost(x, b, y)
                    if after < before:
                        a[i], b[j] = y, x
                        improved = True
            if not improved:
                return

    def _seat(self, group: list[int]) -> list[int]:
        """The seating of ``group`` that evens out how often each bot holds each seat."""
        seats = self.seats
        best = min(
            itertools.permutations(group),
            key=lambda order: (
                sum(seats[bot][seat] ** 2 for seat, bot in enumerate(order)), self.rng.random()
            ),
        )
        return list(best)
