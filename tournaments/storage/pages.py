"""What the web pages read (:class:`tournaments.web.views.WebData` asks, in a worker thread):
each method is the few queries one look needs, whatever the size of the tournament (one
``GROUP BY`` for counts, one query per 500 tables at most for offences), never one per row.
Rows come back detached from their session, to be read after it is closed.

A ladder's tournament (:mod:`.ladders`) is none of these pages': its boards stay open to new
bots for as long as the ladder runs, so its tables are shown only by the ladder's page, and a
table's own page only once its board is closed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from arena.storage.models import (
    ArenaTable,
    Bot,
    Decision,
    Ladder,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)

from .ladders import closed_boards, ladder_boards

OFFENCES_PER_QUERY = 500
"""Tables named in one query for their infractions (the databases' limits on parameters)."""


@dataclass(frozen=True, slots=True)
class Overview:
    """Every tournament, newest first, and how far each is."""

    tournaments: list[Tournament]
    tables: dict[str, dict[str, int]]
    """tournament id -> table status -> tables"""
    unfinished_boards: dict[str, int]
    """tournament id -> boards with a table not done (absent: none)"""


@dataclass(frozen=True, slots=True)
class Played:
    """What a tournament's standings, progress and infractions are computed from, read in one
    transaction."""

    tournament: Tournament
    tables: list[tuple[Any, ...]]
    """(id, board, number, status, outcome) of every table, by board and number: no records,
    they are large"""
    seats: list[tuple[Any, ...]]
    """(table id, seat, bot id, score, infractions, scored) of every finished table"""
    offences: list[tuple[Any, ...]]
    """(table id, index, seat, action, seconds, infraction, reason) of every infraction of
    the finished tables"""


@dataclass(frozen=True, slots=True)
class OneTable:
    table: ArenaTable
    seats: list[TableSeat]
    """by seat"""
    tournament: Tournament
    unfinished: int
    """Tables of its board not done yet."""


@dataclass(frozen=True, slots=True)
class BotDecisions:
    mine: list[tuple[Any, ...]]
    """(tournament id, board, table id, index, action, seconds, infraction, reason) of every
    decision made at the bot's seats"""
    others: list[tuple[Any, ...]]
    """the same, then the seat and the bot's seat, of every infraction at another seat of its
    tables (the dummy's, which the bot may be charged with)"""


class PageReads:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def tournament(self, tournament_id: str) -> Tournament | None:
        with Session(self.engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is not None:
                session.expunge(row)
            return row

    def bot(self, bot_id: str) -> Bot | None:
        with Session(self.engine) as session:
            row = session.get(Bot, bot_id)
            if row is not None:
                session.expunge(row)
            return row

    def names(self, bot_ids: Iterable[str]) -> dict[str, str]:
        """The registered names of those of ``bot_ids`` that are registered."""
        with Session(self.engine) as session:
            return dict(session.exec(
                select(Bot.id, Bot.name).where(col(Bot.id).in_(sorted(bot_ids)))
            ).all())

    def status(self, tournament_id: str) -> tuple[TournamentStatus, list[tuple[Any, int]]] | None:
        """The tournament's status and its tables by status (what changes whenever its pages
        may change); None if there is no such tournament."""
        with Session(self.engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is None or _backs_a_ladder(session, tournament_id):
                return None
            counts = session.exec(
                select(ArenaTable.status, func.count())
                .where(ArenaTable.tournament_id == tournament_id)
                .group_by(ArenaTable.status)
            ).all()
            return row.status, [(status, n) for status, n in counts]

    def tournaments(self) -> list[Tournament]:
        """Every tournament, newest first (not the ladders')."""
        with Session(self.engine) as session:
            rows = list(session.exec(
                select(Tournament).where(_not_a_ladders())
                .order_by(col(Tournament.created_at).desc())
            ))
            for row in rows:
                session.expunge(row)
            return rows

    def overview(self) -> Overview:
        with Session(self.engine) as session:
            rows = list(session.exec(
                select(Tournament).where(_not_a_ladders())
                .order_by(col(Tournament.created_at).desc())
            ))
            for row in rows:
                session.expunge(row)
            counts: dict[str, dict[str, int]] = defaultdict(dict)
            for tid, status, n in session.exec(
                select(ArenaTable.tournament_id, ArenaTable.status, func.count())
                .group_by(ArenaTable.tournament_id, ArenaTable.status)
            ).all():
                counts[tid][str(status)] = n
            unfinished_boards = dict(session.exec(
                select(ArenaTable.tournament_id,
                       func.count(func.distinct(ArenaTable.board_number)))
                .where(ArenaTable.status != TableStatus.DONE)
                .group_by(ArenaTable.tournament_id)
            ).all())
        return Overview(rows, dict(counts), unfinished_boards)

    def played(self, tournament_id: str) -> Played | None:
        with Session(self.engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is None or _backs_a_ladder(session, tournament_id):
                return None
            session.expunge(row)
            tables = list(session.exec(
                select(ArenaTable.id, ArenaTable.board_number, ArenaTable.number,
                       ArenaTable.status, ArenaTable.outcome)
                .where(ArenaTable.tournament_id == tournament_id)
                .order_by(col(ArenaTable.board_number), col(ArenaTable.number))
            ).all())
            seats = list(session.exec(
                select(TableSeat.table_id, TableSeat.seat, TableSeat.bot_id, TableSeat.score,
                       TableSeat.infractions, TableSeat.scored)
                .join(ArenaTable, col(ArenaTable.id) == col(TableSeat.table_id))
                .where(ArenaTable.tournament_id == tournament_id,
                       ArenaTable.status == TableStatus.DONE)
            ).all())
            faulty = sorted({t for t, _, _, _, n, _ in seats if n})
            offences: list[tuple[Any, ...]] = []
            for start in range(0, len(faulty), OFFENCES_PER_QUERY):  # tables with infractions
                offences += session.exec(
                    select(Decision.table_id, Decision.index, Decision.seat, Decision.action,
                           Decision.seconds, Decision.infraction, Decision.reason)
                    .where(col(Decision.table_id).in_(faulty[start:start + OFFENCES_PER_QUERY]),
                           col(Decision.infraction).is_not(None))
                ).all()
        return Played(row, tables, seats, offences)

    def board(self, tournament_id: str, number: int) -> list[tuple[ArenaTable, list[TableSeat]]]:
        """The tables of board ``number``, by number, each with its seats by seat."""
        with Session(self.engine) as session:
            tables = list(session.exec(
                select(ArenaTable).where(ArenaTable.tournament_id == tournament_id,
                                         ArenaTable.board_number == number)
                .order_by(col(ArenaTable.number))
            ))
            seats = list(session.exec(
                select(TableSeat).where(col(TableSeat.table_id).in_([t.id for t in tables]))
                .order_by(col(TableSeat.table_id), col(TableSeat.seat))
            ))
            for row in [*tables, *seats]:
                session.expunge(row)
        by_table: dict[str, list[TableSeat]] = defaultdict(list)
        for s in seats:
            by_table[s.table_id].append(s)
        return [(t, by_table[t.id]) for t in tables]

    def table(self, table_id: str) -> OneTable | None:
        with Session(self.engine) as session:
            table = session.get(ArenaTable, table_id)
            if table is None:
                return None
            session.expunge(table)
            seats = list(session.exec(
                select(TableSeat).where(TableSeat.table_id == table_id)
                .order_by(col(TableSeat.seat))
            ))
            for s in seats:
                session.expunge(s)
            unfinished = session.exec(
                select(func.count()).select_from(ArenaTable)
                .where(ArenaTable.tournament_id == table.tournament_id,
                       ArenaTable.board_number == table.board_number,
                       ArenaTable.status != TableStatus.DONE)
            ).one()
            tournament = session.get(Tournament, table.tournament_id)
            if tournament is None:
                return None
            session.expunge(tournament)
        cap = ladder_boards(self.engine).get(table.tournament_id)
        if cap is not None and table.board_number not in closed_boards(
                self.engine, table.tournament_id, cap):
            return None  # a ladder's board still open: as unknown as a wrong id
        return OneTable(table, seats, tournament, int(unfinished))

    def bot_decisions(self, bot_id: str) -> BotDecisions:
        with Session(self.engine) as session:
            decisions = session.exec(
                select(ArenaTable.tournament_id, ArenaTable.board_number, Decision.table_id,
                       Decision.index, Decision.action, Decision.seconds, Decision.infraction,
                       Decision.reason)
                .join(TableSeat, (col(TableSeat.table_id) == col(Decision.table_id))
                      & (col(TableSeat.seat) == col(Decision.seat)))
                .join(ArenaTable, col(ArenaTable.id) == col(Decision.table_id))
                .where(TableSeat.bot_id == bot_id, _not_a_ladders(ArenaTable.tournament_id))
            ).all()
            others = session.exec(
                select(ArenaTable.tournament_id, ArenaTable.board_number, Decision.table_id,
                       Decision.index, Decision.action, Decision.seconds, Decision.infraction,
                       Decision.reason, Decision.seat, TableSeat.seat)
                .join(TableSeat, col(TableSeat.table_id) == col(Decision.table_id))
                .join(ArenaTable, col(ArenaTable.id) == col(Decision.table_id))
                .where(TableSeat.bot_id == bot_id, col(Decision.infraction).is_not(None),
                       col(Decision.seat) != col(TableSeat.seat),
                       _not_a_ladders(ArenaTable.tournament_id))
            ).all()
        return BotDecisions(list(decisions), list(others))


def _not_a_ladders(column: Any = Tournament.id) -> Any:
    """``column`` (a tournament id) names no ladder's tournament."""
    return col(column).not_in(
        select(Ladder.tournament_id).where(col(Ladder.tournament_id).is_not(None)))


def _backs_a_ladder(session: Session, tournament_id: str) -> bool:
    return session.exec(select(Ladder.id).where(Ladder.tournament_id == tournament_id)
                        ).first() is not None
