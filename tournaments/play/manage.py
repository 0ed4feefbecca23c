"""Cancelling and deleting a tournament, touching nothing else.

Cancelling keeps everything played and stops the rest: the tournament is marked cancelled, no
worker claims its tables any more (a table being played is finished and stored), and ``serve``
skips it. Deleting removes the tournament with its boards, tables, seats and decisions in one
transaction; bots and other tournaments are untouched. A tournament whose tables are being
played is not deleted: cancel it first, and delete it once they are stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from arena.storage.models import (
    ArenaTable,
    Board,
    Decision,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)

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
    with Session(store.engine) as session:
        query = select(Tournament).where(col(Tournament.id) == tournament_id)
        if store.postgres:
            query = query.with_for_update()
        row = session.exec(query).first()
        if row is None:
            raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
        if row.status is TournamentStatus.FINISHED:
            raise TournamentStateError(
                f"tournament {tournament_id} is finished: nothing left to cancel")
        counts = _table_counts(session, tournament_id)
        changed = row.status is not TournamentStatus.CANCELLED
        row.status = TournamentStatus.CANCELLED
        session.add(row)
        session.commit()
    return Cancelled(changed, counts.get(TableStatus.PENDING, 0),
                     counts.get(TableStatus.RUNNING, 0))


def delete_tournament(store: TournamentStore, tournament_id: str) -> Deleted:
    with Session(store.engine) as session:
        query = select(Tournament).where(col(Tournament.id) == tournament_id)
        if store.postgres:
            query = query.with_for_update()
        if session.exec(query).first() is None:
            raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
        playing = session.exec(
            select(func.count()).select_from(ArenaTable)
            .where(ArenaTable.tournament_id == tournament_id,
                   ArenaTable.status == TableStatus.RUNNING,
                   col(ArenaTable.lease_until) > datetime.now(UTC))
        ).one()
        if playing:
            raise TournamentStateError(
                f"tournament {tournament_id} has {playing} table{'s' * (playing != 1)} being "
                "played: cancel it first (tournament cancel), then delete it once they are "
                "stored, or stop the server playing it")
        tables = select(ArenaTable.id).where(ArenaTable.tournament_id == tournament_id)
        decisions = session.execute(
            delete(Decision).where(col(Decision.table_id).in_(tables))
        ).rowcount  # type: ignore[attr-defined]
        session.execute(delete(TableSeat).where(col(TableSeat.table_id).in_(tables)))
        table_count = session.execute(
            delete(ArenaTable).where(col(ArenaTable.tournament_id) == tournament_id)
        ).rowcount  # type: ignore[attr-defined]
        boards = session.execute(
            delete(Board).where(col(Board.tournament_id) == tournament_id)
        ).rowcount  # type: ignore[attr-defined]
        session.execute(delete(Tournament).where(col(Tournament.id) == tournament_id))
        session.commit()
    return Deleted(boards, table_count, decisions)


def _table_counts(session: Session, tournament_id: str) -> dict[TableStatus, int]:
    return dict(session.exec(
        select(ArenaTable.status, func.count())
        .where(ArenaTable.tournament_id == tournament_id)
        .group_by(ArenaTable.status)
    ).all())
