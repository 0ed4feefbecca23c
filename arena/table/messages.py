"""What the table runner says to a seat and hears back, in domain terms (no protobuf).

The transport turns these into protocol messages in one place (``arena.transport.convert``);
tests drive the runner with fake seats that read them directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from arena.games.french_tarot import (
    Action,
    Card,
    Deal,
    DealRecord,
    DealResult,
    Observation,
    Phase,
    TableOptions,
)

# French Tarot's events are the game's (arena.games.french_tarot.events); re-exported here until
# the table runner speaks the game interface.
from arena.games.french_tarot.events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    Event,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
)

__all__ = [
    "Answer",
    "BidMade",
    "CardCalled",
    "CardDiscarded",
    "CardPlayed",
    "ChelemDecided",
    "ChienShown",
    "DecisionRequest",
    "Event",
    "Infraction",
    "InfractionKind",
    "Malformed",
    "Notice",
    "PartnerRevealed",
    "PlayerInfo",
    "PoigneeShown",
    "TableEnd",
    "TableEvent",
    "TableStart",
    "TimeControl",
    "TrickWon",
    "TrumpDiscarded",
    "ViewFn",
]


class InfractionKind(Enum):
    TIMEOUT = "timeout"
    ILLEGAL_ACTION = "illegal-action"
    MALFORMED_ACTION = "malformed-action"
    DISCONNECTED = "disconnected"
    LATE_ANSWER = "late-answer"
    UNKNOWN_REQUEST = "unknown-request"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds per decision, plus a bank per seat and deal drawn on when a decision overruns."""

    per_decision: float = 1.0
    time_bank: float = 0.0

    def __post_init__(self) -> None:
        if not self.per_decision > 0:
            raise ValueError(f"time per decision must be positive, got {self.per_decision}")
        if not self.time_bank >= 0:
            raise ValueError(f"the time bank cannot be negative, got {self.time_bank}")


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    seat: int
    bot_id: str
    bot_name: str


@dataclass(frozen=True, slots=True)
class TableStart:
    table_id: str
    seat: int
    options: TableOptions
    dealer: int
    players: tuple[PlayerInfo, ...]
    view: Observation
    resumed: bool = False
    next_sequence: int = 0


@dataclass(frozen=True, slots=True)
class TableEvent:
    table_id: str
    seat: int
    sequence: int
    event: Event


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    table_id: str
    seat: int
    request_id: int
    phase: Phase
    legal_actions: tuple[Action, ...]
    time_limit: float
    """Seconds for this decision, before the bank is drawn on."""
    time_bank: float
    hand: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Malformed:
    """An answer the transport could not turn into an action, and why."""

    reason: str


Answer = Action | Malformed


@dataclass(frozen=True, slots=True)
class Notice:
    table_id: str
    seat: int | None
    """None only in a notice decoded from the wire that concerns no seat of the bot."""
    request_id: int
    kind: InfractionKind
    message: str
    fallback: Action | None = None


@dataclass(frozen=True, slots=True)
class TableEnd:
    """The end of a deal, to one seat. When the deal is not revealed (a competition: the board
    is still being played elsewhere), ``result`` has only the outcome and the scores, ``deal``
    and ``record`` are None and ``discard`` is empty."""

    table_id: str
    seat: int
    result: DealResult
    deal: Deal | None
    discard: tuple[Card, ...]
    record: DealRecord | None

    @property
    def revealed(self) -> bool:
        return self.deal is not None


@dataclass(frozen=True, slots=True)
class Infraction:
    seat: int
    kind: InfractionKind
    message: str
    decision_index: int


ViewFn = Callable[[], Observation]
