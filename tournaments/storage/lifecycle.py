"""Cancelling and deleting a tournament in the database (the rules of when each is allowed are
:mod:`tournaments.play.manage`'s): each in one transaction, holding the tournament's row
(``FOR UPDATE`` on PostgreSQL) so that no worker changes it meanwhile."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from arena.storage.models import (
    ArenaTable,
    Board,
    Decision,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
    WorkFailure,
    WorkPin,
)


@dataclass(frozen=True, slots=True)
class Counted:
    """A tournament's status before the change, and its tables by status."""

    status: TournamentStatus
    tables: dict[TableStatus, int]


@dataclass(frozen=True, slots=True)
class Removed:
    boards: int
    tables: int
    decisions: int


def cancel(engine: Engine, tournament_id: str, refuse: set[TournamentStatus]) -> Counted | None:
    """Mark the tournament cancelled unless its status is in ``refuse`` (then nothing
    changes); None if there is no such tournament."""
    with Session(engine) as session:
        query = select(Tournament).where(col(Tournament.id) == tournament_id)
        if engine.dialect.name == "postgresql":
            query = query.with_for_update()
        row = session.exec(query).first()
        if row is None:
            return None
        counted = Counted(row.status, _table_counts(session, tournament_id))
        if row.status in refuse:
            return counted
        row.status = TournamentStatus.CANCELLED
        session.add(row)
        session.commit()
    return counted


def delete_unless_playing(engine: Engine, tournament_id: str) -> Removed | int | None:
    """Delete the tournament with its boards, tables, seats and decisions, unless a table of
    it is being played (a lease still running): then how many, and nothing is deleted. None
    if there is no such tournament."""
    with Session(engine) as session:
        query = select(Tournament).where(col(Tournament.id) == tournament_id)
        if engine.dialect.name == "postgresql":
            query = query.with_for_update()
        if session.exec(query).first() is None:
            return None
        playing = session.exec(
            select(func.count()).select_from(ArenaTable)
            .where(ArenaTable.tournament_id == tournament_id,
                   ArenaTable.status == TableStatus.RUNNING,
                   col(ArenaTable.lease_until) > datetime.now(UTC))
        ).one()
        if playing:
            return int(playing)
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
        for queued in (WorkPin, WorkFailure):  # queued for workers (tournaments.work)
            session.execute(delete(queued).where(col(queued.tournament_id) == tournament_id))
        session.execute(delete(Tournament).where(col(Tournament.id) == tournament_id))
        session.commit()
    return Removed(boards, table_count, decisions)


def _table_counts(session: Session, tournament_id: str) -> dict[TableStatus, int]:
    return dict(session.exec(
        select(ArenaTable.status, func.count())
        .where(ArenaTable.tournament_id == tournament_id)
        .group_by(ArenaTable.status)
    ).all())
