"""What the table runner says to a seat and hears back, in domain terms (no protobuf).

The transport turns these into protocol messages in one place (``arena.transport.convert``);
tests drive the runner with fake seats that read them directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from arena.games import Game, decision_kind_of, game_of
from arena.games.base import Card, Record, Revealed

__all__ = [
    "Answer",
    "DecisionRequest",
    "Infraction",
    "InfractionKind",
    "Malformed",
    "Notice",
    "PlayerInfo",
    "TableEnd",
    "TableEvent",
    "TableStart",
    "TimeControl",
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
    options: Any
    """The game's table options."""
    dealer: int
    players: tuple[PlayerInfo, ...]
    view: Any
    """The seat's observation, as the game's ``observe`` gives it."""
    resumed: bool = False
    next_sequence: int = 0
    game: Game = None  # type: ignore[assignment]
    """The table's game; left None, the game whose observation ``view`` is."""

    def __post_init__(self) -> None:
        if self.game is None:
            object.__setattr__(self, "game", game_of(self.view))


@dataclass(frozen=True, slots=True)
class TableEvent:
    table_id: str
    seat: int
    sequence: int
    event: Any
    """The game's event."""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    table_id: str
    seat: int
    request_id: int
    phase: Any
    """The game's phase this decision belongs to (French Tarot: POIGNEE while choosing the
    trumps to hide)."""
    legal_actions: tuple[Any, ...]
    time_limit: float
    """Seconds for this decision, before the bank is drawn on."""
    time_bank: float
    hand: tuple[Card, ...]
    kind: str = ""
    """What is decided, in the protocol's words (``bid``, ``call``, ``discard``, ``chelem``,
    ``play``, ``poignee``): the game's ``decision_kind``. Left empty, the one its game
    declares for ``phase``."""
    player: int = -1
    """The player who decides, whose bot is asked: ``seat`` itself, except where a player
    decides for another seat (the defender for French Tarot's dummy). Left -1, ``seat``."""
    previous_request_id: int = 0
    """The previous request this player answered at this table in time, 0 if none: with
    :attr:`previous_elapsed`, what lets a bot learn how much of a limit the transport takes."""
    previous_elapsed: float = 0.0
    """Seconds the arena counted for that answer, from sending its request to reading it."""

    def __post_init__(self) -> None:
        if self.player < 0:
            object.__setattr__(self, "player", self.seat)
        if not self.kind:
            object.__setattr__(self, "kind", decision_kind_of(self.phase))


@dataclass(frozen=True, slots=True)
class Malformed:
    """An answer the transport could not turn into an action, and why."""

    reason: str


Answer = Any
"""The game's action, or :class:`Malformed`."""


@dataclass(frozen=True, slots=True)
class Notice:
    table_id: str
    seat: int | None
    """None only in a notice decoded from the wire that concerns no seat of the bot."""
    request_id: int
    kind: InfractionKind
    message: str
    fallback: Any = None
    """The game's action the arena played instead, if any."""


@dataclass(frozen=True, slots=True)
class TableEnd:
    """The end of a deal, to one seat. When the deal is not revealed (a competition: the board
    is still being played elsewhere), ``result`` has only the outcome and the scores, and
    ``cards`` and ``record`` are None."""

    table_id: str
    seat: int
    result: Any
    """The game's result (``scores``, ``outcome``...)."""
    cards: Revealed | None = None
    record: Record | None = None
    """The game's deal record."""

    @property
    def revealed(self) -> bool:
        return self.cards is not None


@dataclass(frozen=True, slots=True)
class Infraction:
    seat: int
    kind: InfractionKind
    message: str
    decision_index: int


ViewFn = Callable[[], Any]
