"""The values a French Tarot deal is played with and ends with: the table's options, a shown
poignée and the result. Plain frozen dataclasses, kept out of the compiled engine
(arena/native.py): they cross processes (pickled) and are read by their type hints
(arena.games.jsonform), which a compiled class would not keep as written."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .actions import Contract, PoigneeLevel
from .cards import Card
from .deal import HAND_SIZES, SEATS, dealer_seats, player_count_error
from .scoring import DealSummary, ScoreBreakdown


class Direction(Enum):
    """How seats are shown around the table; never changes the turn order."""

    COUNTER_CLOCKWISE = "counter-clockwise"
    CLOCKWISE = "clockwise"


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The table's variant. ``beginner``: Petite and Garde only, no poignée, no chelem.

    ``players=2`` is the two-player form "with the dummy" (RULES.md, "Variants to offer"): three
    hands at the table, the third (seat :data:`~.deal.DUMMY`) played by the defender. A player
    count rather than a flag, because it is what the table needs: two players; and 3-5 player
    tables, their records included, are spelled as they always were.
    """

    players: int = 4
    beginner: bool = False
    direction: Direction = Direction.COUNTER_CLOCKWISE

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in HAND_SIZES:
            raise ValueError(player_count_error(self.players))

    @property
    def contracts(self) -> tuple[Contract, ...]:
        return (Contract.PETITE, Contract.GARDE) if self.beginner else tuple(Contract)

    @property
    def has_dummy(self) -> bool:
        return self.players == 2

    @property
    def seats(self) -> int:
        """Hands at the table: one per player, plus the dummy's with two players."""
        return SEATS[self.players]

    @property
    def dealer_seats(self) -> tuple[int, ...]:
        """The seats that may deal: every seat, except with the dummy, where seat 1 always deals
        and the players take turns at dealing by changing seats."""
        return dealer_seats(self.players)


class DealOutcome(Enum):
    PLAYED = "played"
    ALL_PASSED = "all-passed"
    PETIT_SEC = "petit-sec"


@dataclass(frozen=True, slots=True)
class ShownPoignee:
    seat: int
    level: PoigneeLevel
    cards: tuple[Card, ...]
    """Shown in descending order, as the rules ask."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended and what every seat scores (zero-sum)."""

    outcome: DealOutcome
    scores: tuple[int, ...]
    taker: int | None = None
    partner: int | None = None
    contract: Contract | None = None
    called_card: Card | None = None
    summary: DealSummary | None = None
    breakdown: ScoreBreakdown | None = None
    petit_sec_seat: int | None = None
    excuse_debt_unpaid: bool = False
    """The Excuse's side never won a trick, so it gave nothing for the Excuse."""
