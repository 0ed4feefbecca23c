"""Cancelling and deleting a tournament, touching nothing else.

Cancelling keeps everything played and stops the rest: the tournament is marked cancelled, no
worker claims its tables any more (a table being played is finished and stored), and ``serve``
skips it. Deleting removes the tournament with its boards, tables, seats and decisions in one
transaction; bots and other tournaments are untouched. A tournament whose tables are being
played is not deleted: cancel it first, and delete it once they are stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.storage.models import TableStatus, TournamentStatus

from ..storage import lifecycle
from ..store import TournamentStore, UnknownTournamentError


class TournamentStateError(ValueError):
    """The tournament is not in a state that allows this."""


@dataclass(frozen=True, slots=True)
class Cancelled:
    changed: bool
    """False when it was already cancelled."""
    pending: int
    """Tables that will not be played."""
    running: int
    """Tables being played now: they are finished and stored."""


@dataclass(frozen=True, slots=True)
class Deleted:
    boards: int
    tables: int
    decisions: int


def cancel_tournament(store: TournamentStore, tournament_id: str) -> Cancelled:
    counted = lifecycle.cancel(store.engine, tournament_id, refuse={TournamentStatus.FINISHED})
    if counted is None:
        raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
    if counted.status is TournamentStatus.FINISHED:
        raise TournamentStateError(
            f"tournament {tournament_id} is finished: nothing left to cancel")
    return Cancelled(counted.status is not TournamentStatus.CANCELLED,
                     counted.tables.get(TableStatus.PENDING, 0),
                     counted.tables.get(TableStatus.RUNNING, 0))


def delete_tournament(store: TournamentStore, tournament_id: str) -> Deleted:
    removed = lifecycle.delete_unless_playing(store.engine, tournament_id)
    if removed is None:
        raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
    if isinstance(removed, int):
        playing = removed
        raise TournamentStateError(
            f"tournament {tournament_id} has {playing} table{'s' * (playing != 1)} being "
            "played: cancel it first (tournament cancel), then delete it once they are "
            "stored, or stop the server playing it")
    return Deleted(removed.boards, removed.tables, removed.decisions)
