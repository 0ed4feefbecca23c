"""The table runner: plays one deal of any game through seat channels, independent of any
transport."""

from .messages import (
    Answer,
    DecisionRequest,
    Infraction,
    InfractionKind,
    Malformed,
    Notice,
    PlayerInfo,
    TableEnd,
    TableEvent,
    TableStart,
    TimeControl,
)
from .runner import BotGone, DecisionLog, SeatChannel, TableOutcome, TableRunner, fallback_action

__all__ = [
    "Answer",
    "BotGone",
    "DecisionLog",
    "DecisionRequest",
    "Infraction",
    "InfractionKind",
    "Malformed",
    "Notice",
    "PlayerInfo",
    "SeatChannel",
    "TableEnd",
    "TableEvent",
    "TableOutcome",
    "TableRunner",
    "TableStart",
    "TimeControl",
    "fallback_action",
]
