"""The queue of work for workers: whole boards (a board with all its tables) of the queued
tournaments, claimed from the database.

The coordinator is the database, as for arenas sharing a tournament (:mod:`tournaments.store`):
no server of ours between the workers. A worker claims a **group**, the tables of one board
not played yet, under one claim id: on PostgreSQL the candidates are read ``FOR UPDATE SKIP
LOCKED`` (workers never queue behind each other's claims), and on both databases the claim is a
conditional ``UPDATE`` of every table of the board that only one worker can win. Leases are
the tables' own, renewed as an arena renews them (:class:`~tournaments.play.leases.
LeaseKeeper`); a group whose lease ran out (its worker was killed, hung, or lost the database)
is claimable again and replayed from scratch by whoever takes it. Its tables are committed
together, in one transaction, and only by the claim that still holds them: a board is stored
whole, exactly once. SQLite serialises writers, so the same statements are safe there for the
processes of one machine.

Why no queue library: the work is already rows of the database (``arena_table``), which the
arenas claim, the web page reads and ``tournament tables`` lists; a broker (Celery, RQ, a
PostgreSQL job queue such as procrastinate) would hold a second copy of the same state, to be
kept in step with the first, for what two indexed statements do.

**Failures back off.** A group that failed (the bots raised out of the table, a commit that
could not be made) is given back with a time before which nobody claims it again: 2, 4, 8 ...
seconds (:data:`BACKOFF`, capped at :data:`BACKOFF_CAP`), and after :data:`MAX_FAILURES` it is
given up: never claimed again, and named wherever the tournament is shown.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from arena.storage.models import (
    ArenaTable,
    Board,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
    WorkFailure,
    WorkPin,
    WorkWorker,
)
from arena.table import TableOutcome

from ..store import ClaimedTable, TournamentStore, claimable_at
from ..work.pins import Pin

BACKOFF = 2.0
"""Seconds before a failed group may be claimed again, doubled at every failure."""
BACKOFF_CAP = 300.0
MAX_FAILURES = 5
"""Failures of one group after which it is given up (a runaway retry loop is how a server of
workers is taken down)."""


@dataclass(frozen=True, slots=True)
class Group:
    """A board's tables claimed by one worker, to be played and committed together."""

    tournament_id: str
    board: int
    claim: str
    """The claim's worker id (``host:pid:nonce/n``), on every table of the group."""
    tables: tuple[ClaimedTable, ...]

    @property
    def leases(self) -> dict[str, str]:
        return {t.table_id: self.claim for t in self.tables}


@dataclass(frozen=True, slots=True)
class Failure:
    """A board that failed: how often, until when it waits, whether it was given up."""

    tournament_id: str
    board: int
    failures: int
    retry_at: datetime
    given_up: bool
    worker: str
    last_error: str


def backoff(failures: int) -> float:
    """Seconds a group waits after its ``failures``-th failure."""
    return float(min(BACKOFF * 2 ** max(failures - 1, 0), BACKOFF_CAP))


class WorkQueue:
    """The queue over a :class:`TournamentStore`'s database (synchronous, as the store is)."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        self.engine = store.engine

    # ------------------------------------------------------------------------ pinning
    def pin(self, tournament_id: str, pins: Mapping[str, Pin]) -> None:
        """Queue the tournament for workers, its bots (by id) pinned to these; pins already
        stored are kept (a compare resumed is the compare queued)."""
        with Session(self.engine) as session:
            known = set(session.exec(select(WorkPin.bot_id)
                                     .where(WorkPin.tournament_id == tournament_id)).all())
            for bot_id, pin in pins.items():
                if bot_id not in known:
                    session.add(WorkPin(tournament_id=tournament_id, bot_id=bot_id,
                                        spec=pin.spec, code_hash=pin.code_hash,
                                        files=json.dumps(list(pin.files))))
            session.commit()

    def pins(self, tournament_id: str) -> dict[str, Pin]:
        with Session(self.engine) as session:
            rows = session.exec(select(WorkPin)
                                .where(WorkPin.tournament_id == tournament_id)).all()
        return {r.bot_id: Pin(r.spec, r.code_hash, tuple(json.loads(r.files))) for r in rows}

    def queued(self) -> list[str]:
        """The tournaments queued for workers and not over, oldest first."""
        with Session(self.engine) as session:
            return list(session.exec(
                select(Tournament.id).distinct()
                .join(WorkPin, col(WorkPin.tournament_id) == col(Tournament.id))
                .where(col(Tournament.status).in_([TournamentStatus.CREATED,
                                                   TournamentStatus.RUNNING]))
                .order_by(col(Tournament.id))
            ).all())

    # ------------------------------------------------------------------------ claiming
    def claim(self, tournament_id: str, claim: str, lease: float) -> Group | None:
        """The next board of the tournament (in board order) whose every unplayed table is
        free, claimed whole under ``claim``; None when there is none (or the tournament is
        over)."""
        store = self.store
        row = store.tournament(tournament_id)
        if row.status not in (TournamentStatus.CREATED, TournamentStatus.RUNNING):
            return None
        skipped: set[int] = set()
        for _ in range(50):
            with Session(self.engine) as session:
                now = store.clock()
                board = self._next_board(session, tournament_id, now, skipped)
                if board is None:
                    return None
                query = (select(ArenaTable)
                         .where(ArenaTable.tournament_id == tournament_id,
                                ArenaTable.board_number == board, claimable_at(now))
                         .order_by(col(ArenaTable.number)))
                if store.postgres:
                    query = query.with_for_update(skip_locked=True)
                tables = list(session.exec(query).all())
                unplayed = session.exec(
                    select(func.count()).select_from(ArenaTable)
                    .where(ArenaTable.tournament_id == tournament_id,
                           ArenaTable.board_number == board,
                           ArenaTable.status != TableStatus.DONE)
                ).one()
                if not tables or len(tables) != unplayed:
                    session.rollback()  # part of it is claimed, or being claimed, elsewhere
                    skipped.add(board)
                    continue
                until = now + timedelta(seconds=lease)
                won = 0
                for table in tables:
                    won += session.execute(
                        update(ArenaTable)
                        .where(col(ArenaTable.id) == table.id,
                               ArenaTable.status == table.status,
                               ArenaTable.attempts == table.attempts)
                        .values(status=TableStatus.RUNNING, claimed_by=claim,
                                lease_until=until, attempts=table.attempts + 1)
                        .execution_options(synchronize_session=False)
                    ).rowcount  # type: ignore[attr-defined]
                if won != len(tables):
                    session.rollback()  # another worker took one first
                    continue
                session.execute(
                    update(Tournament)
                    .where(col(Tournament.id) == tournament_id,
                           col(Tournament.status) == TournamentStatus.CREATED)
                    .values(status=TournamentStatus.RUNNING)
                    .execution_options(synchronize_session=False))
                numbers = {t.id: (t.number, t.attempts + 1) for t in tables}
                session.commit()
                deal = session.exec(select(Board.deal_json).where(
                    Board.tournament_id == tournament_id, Board.number == board)).one()
                seats = session.exec(
                    select(TableSeat.table_id, TableSeat.bot_id)
                    .where(col(TableSeat.table_id).in_(list(numbers)))
                    .order_by(col(TableSeat.table_id), col(TableSeat.seat))).all()
            game = store.settings(tournament_id).rules
            record = game.load_record(json.loads(deal))
            bots: dict[str, list[str]] = {}
            for table_id, bot_id in seats:
                bots.setdefault(table_id, []).append(bot_id)
            claimed = tuple(
                ClaimedTable(table_id, board, number, record, tuple(bots[table_id]),
                             attempts, game)
                for table_id, (number, attempts) in sorted(numbers.items(),
                                                           key=lambda kv: kv[1][0]))
            return Group(tournament_id, board, claim, claimed)
        return None

    def _next_board(self, session: Session, tournament_id: str, now: datetime,
                    skipped: set[int]) -> int | None:
        """The first board with a claimable table, none of its tables being played, and not
        waiting after a failure (nor given up)."""
        busy = aliased(ArenaTable)
        waiting = (select(WorkFailure.board_number)
                   .where(WorkFailure.tournament_id == tournament_id,
                          col(WorkFailure.given_up) | (col(WorkFailure.retry_at) > now)))
        query = (
            select(ArenaTable.board_number)
            .where(ArenaTable.tournament_id == tournament_id, claimable_at(now),
                   col(ArenaTable.board_number).not_in(waiting),
                   ~select(busy.id).where(busy.tournament_id == tournament_id,
                                          busy.board_number == ArenaTable.board_number,
                                          busy.status == TableStatus.RUNNING,
                                          col(busy.lease_until) >= now).exists())
            .order_by(col(ArenaTable.board_number)).limit(1)
        )
        if skipped:
            query = query.where(col(ArenaTable.board_number).not_in(sorted(skipped)))
        return session.exec(query).first()

    def commit(self, group: Group, outcomes: Mapping[str, TableOutcome]) -> bool:
        """Store every table of the group in one transaction; False (nothing stored) when the
        claim was lost (its lease ran out and another worker took the board)."""
        with Session(self.engine) as session:
            for table in group.tables:
                if not self.store.store_outcome(session, table.table_id, group.claim,
                                                outcomes[table.table_id]):
                    session.rollback()
                    return False
            session.commit()
        return True

    def release(self, group: Group) -> None:
        """Give the group back unplayed."""
        with Session(self.engine) as session:
            session.execute(
                update(ArenaTable)
                .where(col(ArenaTable.id).in_([t.table_id for t in group.tables]),
                       ArenaTable.claimed_by == group.claim,
                       ArenaTable.status == TableStatus.RUNNING)
                .values(status=TableStatus.PENDING, claimed_by=None, lease_until=None)
                .execution_options(synchronize_session=False))
            session.commit()

    def fail(self, group: Group, worker: str, error: str) -> Failure:
        """Give a group that failed back, to be tried again after its backoff (or never, after
        :data:`MAX_FAILURES`)."""
        self.release(group)
        with Session(self.engine) as session:
            row = session.get(WorkFailure, (group.tournament_id, group.board))
            if row is None:
                row = WorkFailure(tournament_id=group.tournament_id, board_number=group.board)
            row.failures += 1
            row.retry_at = self.store.clock() + timedelta(seconds=backoff(row.failures))
            row.given_up = row.failures >= MAX_FAILURES
            row.worker = worker[:120]
            row.last_error = error[:2000]
            session.add(row)
            session.commit()
            return _failure(row)

    def failures(self, tournament_id: str) -> list[Failure]:
        with Session(self.engine) as session:
            rows = session.exec(select(WorkFailure)
                                .where(WorkFailure.tournament_id == tournament_id)
                                .order_by(col(WorkFailure.board_number))).all()
            return [_failure(r) for r in rows]

    def waiting(self, tournament_id: str) -> bool:
        """Whether some boards wait out a backoff (they will be claimable again)."""
        now = self.store.clock()
        with Session(self.engine) as session:
            return session.exec(
                select(func.count()).select_from(WorkFailure)
                .where(WorkFailure.tournament_id == tournament_id, ~col(WorkFailure.given_up),
                       col(WorkFailure.retry_at) > now)).one() > 0

    # ------------------------------------------------------------------------- workers
    def register(self, worker: str, name: str, pid: int) -> None:
        with Session(self.engine) as session:
            session.add(WorkWorker(id=worker, name=name[:100], host=socket.gethostname()[:255],
                                   pid=pid, started_at=self.store.clock(),
                                   last_seen=self.store.clock()))
            session.commit()

    def report(self, worker: str, line: str, *, groups: int = 0, tables: int = 0,
               failures: int = 0, seconds: float = 0.0, stopped: bool = False) -> None:
        """The worker's last report, with what it adds to its counts."""
        with Session(self.engine) as session:
            session.execute(
                update(WorkWorker).where(col(WorkWorker.id) == worker)
                .values(last_report=line[:2000], last_seen=self.store.clock(),
                        groups=WorkWorker.groups + groups, tables=WorkWorker.tables + tables,
                        failures=WorkWorker.failures + failures,
                        busy_seconds=WorkWorker.busy_seconds + seconds, stopped=stopped)
                .execution_options(synchronize_session=False))
            session.commit()

    def workers(self, ids: Iterable[str] | None = None) -> list[WorkWorker]:
        """Every worker (or those of ``ids``), newest first."""
        with Session(self.engine) as session:
            query = select(WorkWorker).order_by(col(WorkWorker.started_at).desc())
            if ids is not None:
                query = query.where(col(WorkWorker.id).in_(list(ids)))
            rows = list(session.exec(query).all())
            for row in rows:
                session.expunge(row)
            return rows


def worker_of(claim: str | None) -> str | None:
    """The worker id of a claim id (``host:pid:nonce/n``)."""
    if claim is None:
        return None
    return claim.rsplit("/", 1)[0]


def _failure(row: WorkFailure) -> Failure:
    return Failure(row.tournament_id, row.board_number, row.failures, row.retry_at,
                   row.given_up, row.worker, row.last_error)
