"""A tournament in the database: its boards, its tables to play, results and decision logs.

Synchronous on purpose (SQLModel sessions are): the trio runner calls every method through
``trio.to_thread.run_sync`` so database work never blocks the event loop.

Claiming work is safe with several workers on one database: a worker takes a pending table (or
one whose lease ran out) with a conditional ``UPDATE`` that only one worker can win, and on
PostgreSQL reads candidates with ``FOR UPDATE SKIP LOCKED`` so workers do not queue on each
other. A worker names the bots it can seat and only gets a table whose every bot is among them:
several arenas on one database each play the tables whose bots are connected to them.

Every claim has its own worker id, and a claim is alive while its lease is: the holder renews it
while it plays, and a lease that ran out (the holder crashed, hung, or lost the database) may be
taken by anyone. Nothing looks at process ids, which mean nothing across hosts or containers.
A finished table is committed in one transaction with its seats' scores and every decision, and
only by the claim that still holds it: a deal is stored exactly once.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, select

from arena import games
from arena.games import Game, State
from arena.games.base import Record
from arena.storage.bots import BotRegistry, UnknownBotError
from arena.storage.models import (
    ArenaTable,
    Board,
    Bot,
    Decision,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from arena.table import TableOutcome

from .duplicate.matches import PlayedDeal
from .duplicate.scoring import Entry, charged_players
from .duplicate.seatings import TablePlan, board_seed, plan_tables
from .duplicate.settings import SettingsError, TournamentSettings


class UnknownTournamentError(LookupError):
    pass


def new_worker_id() -> str:
    """``host:pid:nonce``: says who played a table (the nonce makes it unique); liveness is
    judged by leases only."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class ClaimedTable:
    table_id: str
    board: int
    number: int
    record: Record
    """The board's deal as the game's record of it, before any action."""
    bots: tuple[str, ...]
    attempt: int
    game: Game = field(default_factory=games.game)

    @property
    def state(self) -> State:
        """A fresh state of the board's deal, ready to play (a new one at every call)."""
        return self.game.replay(self.record)

    @property
    def deal(self) -> Any:
        """The deal as the game holds it (French Tarot: a :class:`Deal`)."""
        return self.record.deal  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Progress:
    pending: int
    running: int
    done: int
    infractions: int

    @property
    def total(self) -> int:
        return self.pending + self.running + self.done


@dataclass(frozen=True, slots=True)
class OpenWork:
    """What is left of a tournament, as a runner deciding whether to wait sees it."""

    claimable: int
    """Tables anyone may claim now: pending, or claimed with a lease that ran out."""
    live: int
    """Tables claimed with a lease still running: being played somewhere."""
    bots: frozenset[str]
    """The bots of the claimable tables."""
    cancelled: bool = False
    """Cancelled: no table will be claimed any more (those being played are stored)."""

    @property
    def finished(self) -> bool:
        return self.claimable == self.live == 0


class TournamentStore:
    def __init__(self, engine: Engine, clock: Callable[[], datetime] = _now) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self.clock = clock
        """Lease times; tests move it by hand."""

    # --------------------------------------------------------------------------- creating
    def create(
        self, settings: TournamentSettings, tournament_id: str | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> str:
        """Store a tournament with all its boards and tables to play; its id. ``on_progress``
        hears (rows written, rows to write) as it goes: a large tournament takes a while."""
        registry = BotRegistry(self.engine)
        for bot_id in settings.bots:
            try:
                bot = registry.get(bot_id)
            except UnknownBotError as exc:
                raise SettingsError(str(exc)) from exc
            if bot.revoked:
                raise SettingsError(f"bot {bot_id} ({bot.name}) is revoked")
        tid = tournament_id or "tour_" + secrets.token_hex(6)
        options = settings.table_options
        game = settings.rules
        plans = plan_tables(settings)
        todo, written = settings.boards + 2 * len(plans), 0

        def step(rows: int) -> None:
            nonlocal written
            written += rows
            if on_progress is not None and (written % 1000 < rows or written == todo):
                on_progress(written, todo)

        with Session(self.engine) as session:
            session.add(Tournament(id=tid, name=settings.name, seed=str(settings.seed),
                                   settings_json=settings.to_json()))
            session.flush()
            for number in range(settings.boards):
                seed = board_seed(settings.seed, number)
                dealer = game.dealer_of(options, number)
                record = game.record(game.new_deal(seed, options, dealer), seed)
                session.add(Board(tournament_id=tid, number=number, deal_seed=str(seed),
                                  dealer=dealer, deal_json=record.dumps()))
                step(1)
            session.flush()
            table_ids = new_table_ids(tid, plans, opaque=settings.seating.safe)
            for plan, table_id in zip(plans, table_ids, strict=True):
                session.add(ArenaTable(id=table_id, tournament_id=tid,
                                       board_number=plan.board, number=plan.number))
                step(1)
            session.flush()
            for plan, table_id in zip(plans, table_ids, strict=True):
                for seat, bot_id in enumerate(plan.bots):
                    session.add(TableSeat(table_id=table_id, seat=seat, bot_id=bot_id,
                                          scored=plan.scored[seat]))
                step(1)
            session.commit()
        return tid

    # ---------------------------------------------------------------------------- reading
    def settings(self, tournament_id: str) -> TournamentSettings:
        return TournamentSettings.from_json(self.tournament(tournament_id).settings_json)

    def sealed(self, tournament_id: str) -> bool:
        """Whether the tournament's seed and deals are still secret: a safe seating (see
        :attr:`Seating.safe`) that is not finished. Once it is, anyone may re-deal the boards
        from the seed and check them."""
        row = self.tournament(tournament_id)
        settings = TournamentSettings.from_json(row.settings_json)
        return settings.seating.safe and row.status is not TournamentStatus.FINISHED

    def public_seed(self, tournament_id: str) -> str | None:
        """The seed as it may be shown now: None while the tournament is :meth:`sealed`."""
        if self.sealed(tournament_id):
            return None
        return self.tournament(tournament_id).seed

    def boards_done(self, tournament_id: str) -> set[int]:
        """The boards played at every one of their tables: their deals may be shown."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(ArenaTable.board_number, ArenaTable.status)
                .where(ArenaTable.tournament_id == tournament_id)
            ).all()
        unfinished = {board for board, status in rows if status != TableStatus.DONE}
        return {board for board, _ in rows} - unfinished

    def played_deals(self, tournament_id: str) -> list[PlayedDeal]:
        """The finished tables with their bots by seat and their game's result (what a game's
        matches are scored from, :func:`~tournaments.duplicate.matches.match_standings`)."""
        game = self.settings(tournament_id).rules
        deals = []
        for table, seats in self.tables(tournament_id):
            if table.status is not TableStatus.DONE or table.record_json is None:
                continue
            record: Any = game.load_record(json.loads(table.record_json))
            bots = tuple(s.bot_id for s in sorted(seats, key=lambda s: s.seat))
            deals.append(PlayedDeal(table.board_number, table.number, bots, record.result))
        return deals

    def tournament_of_table(self, table_id: str) -> str:
        with Session(self.engine) as session:
            table = session.get(ArenaTable, table_id)
            if table is None:
                raise LookupError(f"no table with id {table_id!r}")
            return table.tournament_id

    def tournament(self, tournament_id: str) -> Tournament:
        with Session(self.engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is None:
                raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
            session.expunge(row)
            return row

    def list(self) -> list[Tournament]:
        with Session(self.engine) as session:
            rows = list(session.exec(select(Tournament).order_by(col(Tournament.created_at))))
            for row in rows:
                session.expunge(row)
            return rows

    def progress(self, tournament_id: str) -> Progress:
        with Session(self.engine) as session:
            counts = dict(session.exec(
                select(ArenaTable.status, func.count())
                .where(ArenaTable.tournament_id == tournament_id)
                .group_by(ArenaTable.status)
            ).all())
            infractions = session.exec(
                select(func.coalesce(func.sum(TableSeat.infractions), 0))
                .join(ArenaTable, col(ArenaTable.id) == col(TableSeat.table_id))
                .where(ArenaTable.tournament_id == tournament_id)
            ).one()
        return Progress(
            counts.get(TableStatus.PENDING, 0), counts.get(TableStatus.RUNNING, 0),
            counts.get(TableStatus.DONE, 0), int(infractions),
        )

    def entries(self, tournament_id: str, from_board: int = 0) -> list[Entry]:
        """Every scored seat of every finished table, for duplicate scoring (``from_board``:
        of the boards from that one on only, for a reader that has the first ones)."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(ArenaTable, TableSeat)
                .join(TableSeat, col(TableSeat.table_id) == col(ArenaTable.id))
                .where(ArenaTable.tournament_id == tournament_id,
                       ArenaTable.board_number >= from_board,
                       ArenaTable.status == TableStatus.DONE, col(TableSeat.scored))
                .order_by(col(ArenaTable.board_number), col(ArenaTable.number),
                          col(TableSeat.seat))
            ).all()
            offences = session.exec(
                select(Decision.table_id, Decision.index, Decision.seat, Decision.infraction)
                .join(ArenaTable, col(ArenaTable.id) == col(Decision.table_id))
                .where(ArenaTable.tournament_id == tournament_id,
                       ArenaTable.board_number >= from_board,
                       col(Decision.infraction).is_not(None))
                .order_by(col(Decision.table_id), col(Decision.index))
            ).all()
        settings = self.settings(tournament_id)
        charged = charged_players(settings.rules, settings.players,
                                  [(t, i, s) for t, i, s, _ in offences], self.record_texts)
        kinds: dict[tuple[str, int], list[str]] = {}
        for table_id, index, seat, kind in offences:
            player = charged.get((table_id, index), seat)  # the dummy's: the defender's
            kinds.setdefault((table_id, player), []).append(str(kind))
        return [
            Entry(t.board_number, s.seat, t.id, s.bot_id, s.score or 0, s.infractions,
                  tuple(kinds.get((t.id, s.seat), ())))
            for t, s in rows
        ]

    # ----------------------------------------------------------------------------- work
    def claim_next(
        self,
        tournament_id: str,
        worker: str,
        lease: float = 60.0,
        seatable: Collection[str] | None = None,
    ) -> ClaimedTable | None:
        """Claim the next table to play (pending, or abandoned with an expired lease); None
        once there is none, or the tournament was cancelled.

        ``seatable``: the bots the caller can seat now; only a table whose every bot is among
        them is claimed (None: any table). ``worker`` must be unique to this claim: whoever
        finishes, renews or releases the table names it. Marks the tournament running.
        """
        if seatable is not None and not seatable:
            return None
        row = self.tournament(tournament_id)
        if row.status is TournamentStatus.CANCELLED:
            return None
        order = _claim_order(TournamentSettings.from_json(row.settings_json))
        for _ in range(50):
            with Session(self.engine) as session:
                now = self.clock()
                query = (
                    select(ArenaTable)
                    .where(ArenaTable.tournament_id == tournament_id)
                    .where(claimable_at(now))
                    .order_by(*order)
                    .limit(1)
                )
                if seatable is not None:
                    query = query.where(~(
                        select(TableSeat.table_id)
                        .where(col(TableSeat.table_id) == col(ArenaTable.id),
                               col(TableSeat.bot_id).not_in(sorted(seatable)))
                        .exists()
                    ))
                if self.postgres:
                    query = query.with_for_update(skip_locked=True)
                table = session.exec(query).first()
                if table is None:
                    return None
                table_id, board_number, attempt = table.id, table.board_number, table.attempts + 1
                won = session.execute(
                    update(ArenaTable)
                    .where(col(ArenaTable.id) == table_id, ArenaTable.status == table.status,
                           ArenaTable.attempts == attempt - 1)
                    .values(status=TableStatus.RUNNING, claimed_by=worker,
                            lease_until=now + timedelta(seconds=lease), attempts=attempt)
                    .execution_options(synchronize_session=False)
                ).rowcount  # type: ignore[attr-defined]
                if won != 1:
                    session.rollback()
                    continue  # another worker took it first
                session.execute(
                    update(Tournament)
                    .where(col(Tournament.id) == tournament_id,
                           col(Tournament.status) == TournamentStatus.CREATED)
                    .values(status=TournamentStatus.RUNNING)
                    .execution_options(synchronize_session=False)
                )
                session.commit()
                board = session.exec(
                    select(Board).where(Board.tournament_id == tournament_id,
                                        Board.number == board_number)
                ).one()
                seats = session.exec(
                    select(TableSeat).where(TableSeat.table_id == table_id)
                    .order_by(col(TableSeat.seat))
                ).all()
                game = self._game_of(session, tournament_id)
                record = game.load_record(json.loads(board.deal_json))
                return ClaimedTable(table_id, board_number, table.number, record,
                                    tuple(s.bot_id for s in seats), attempt, game)
        return None

    def renew(self, claims: Mapping[str, str], lease: float = 60.0,
              connection: Connection | None = None) -> list[str]:
        """Extend the leases of the tables being played (table id -> the claim's worker id);
        the tables whose claim was lost (taken over after the lease ran out, or given back).

        A table that its own claim has finished meanwhile is not lost (its result is stored):
        a renewal racing the commit of the table said so, and the arena then told that a
        stored result would not be. ``connection``: one to use instead of the engine's pool
        (the lease keeper's own, which never waits for the pool).
        """
        lost: list[str] = []
        if not claims:
            return lost
        with Session(connection if connection is not None else self.engine) as session:
            until = self.clock() + timedelta(seconds=lease)
            for table_id, worker in sorted(claims.items()):
                kept = session.execute(
                    update(ArenaTable)
                    .where(col(ArenaTable.id) == table_id, ArenaTable.claimed_by == worker,
                           ArenaTable.status == TableStatus.RUNNING)
                    .values(lease_until=until)
                    .execution_options(synchronize_session=False)
                ).rowcount  # type: ignore[attr-defined]
                if kept != 1 and session.exec(
                    select(func.count()).select_from(ArenaTable)
                    .where(col(ArenaTable.id) == table_id, ArenaTable.claimed_by == worker,
                           ArenaTable.status == TableStatus.DONE)
                ).one() == 0:
                    lost.append(table_id)
            session.commit()
        return lost

    def release(self, table_id: str, worker: str) -> None:
        """Give a claimed table back unplayed (e.g. the server is stopping); only the claim
        named ``worker`` can."""
        with Session(self.engine) as session:
            session.execute(
                update(ArenaTable)
                .where(col(ArenaTable.id) == table_id, ArenaTable.claimed_by == worker,
                       ArenaTable.status == TableStatus.RUNNING)
                .values(status=TableStatus.PENDING, claimed_by=None, lease_until=None)
            )
            session.commit()

    def open_work(self, tournament_id: str) -> OpenWork:
        now = self.clock()
        with Session(self.engine) as session:
            claimable = session.exec(
                select(func.count()).select_from(ArenaTable)
                .where(ArenaTable.tournament_id == tournament_id, claimable_at(now))
            ).one()
            live = session.exec(
                select(func.count()).select_from(ArenaTable)
                .where(ArenaTable.tournament_id == tournament_id,
                       ArenaTable.status == TableStatus.RUNNING,
                       col(ArenaTable.lease_until) >= now)
            ).one()
            bots = session.exec(
                select(TableSeat.bot_id).distinct()
                .join(ArenaTable, col(ArenaTable.id) == col(TableSeat.table_id))
                .where(ArenaTable.tournament_id == tournament_id, claimable_at(now))
            ).all()
        cancelled = self.tournament(tournament_id).status is TournamentStatus.CANCELLED
        return OpenWork(int(claimable), int(live), frozenset(bots), cancelled)

    def settle_status(self, tournament_id: str) -> TournamentStatus:
        """Finished once every table is done; back to created (resumable) when nothing is
        being played anywhere: a tournament is never left running with nothing playing.
        A cancelled one stays cancelled."""
        work = self.open_work(tournament_id)
        with Session(self.engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is None:
                raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
            if row.status is TournamentStatus.CANCELLED:
                return row.status
            if work.finished and row.status is not TournamentStatus.FINISHED:
                row.status = TournamentStatus.FINISHED
                row.finished_at = _now()
            elif work.live == 0 and row.status is TournamentStatus.RUNNING:
                row.status = TournamentStatus.CREATED
            session.add(row)
            session.commit()
            return row.status

    def bot_names(self, bot_ids: Collection[str]) -> dict[str, str]:
        """Registered names by id (the id itself for a bot no longer registered)."""
        with Session(self.engine) as session:
            rows = session.exec(select(Bot.id, Bot.name).where(col(Bot.id).in_(list(bot_ids))))
            names = dict(rows.all())
        return {bot_id: names.get(bot_id, bot_id) for bot_id in bot_ids}

    def finish(self, table_id: str, worker: str, outcome: TableOutcome) -> bool:
        """Commit a played deal with its full log, atomically; False if the claim was lost."""
        with Session(self.engine) as session:
            if not self.store_outcome(session, table_id, worker, outcome):
                return False
            session.commit()
        return True

    def store_outcome(self, session: Session, table_id: str, worker: str,
                      outcome: TableOutcome) -> bool:
        """Write a played deal with its full log in ``session`` (the caller commits: a
        worker's group of tables commits at once); False, nothing written, if the claim
        ``worker`` no longer holds the table."""
        result = outcome.result
        infractions: dict[int, int] = {}
        for infraction in outcome.infractions:
            infractions[infraction.seat] = infractions.get(infraction.seat, 0) + 1
        # Plain statements, one for the table (its row locked by the UPDATE itself, only if
        # the claim still holds it) and one for all its seats: an ORM object per row cost a
        # query and a flush each, 40 ms a board of five tables on a busy PostgreSQL.
        won = session.execute(
            update(ArenaTable)
            .where(col(ArenaTable.id) == table_id, ArenaTable.claimed_by == worker,
                   ArenaTable.status == TableStatus.RUNNING)
            .values(status=TableStatus.DONE, finished_at=_now(),
                    outcome=result.outcome.value, record_json=outcome.record.dumps(),
                    lease_until=None)
            .execution_options(synchronize_session=False)
        ).rowcount  # type: ignore[attr-defined]
        if won != 1:
            return False
        seats = TableSeat.__table__  # type: ignore[attr-defined]
        session.execute(
            update(seats)
            .where(seats.c.table_id == bindparam("b_table"), seats.c.seat == bindparam("b_seat"))
            .values(score=bindparam("b_score"), infractions=bindparam("b_infractions")),
            [{"b_table": table_id, "b_seat": seat, "b_score": score,
              "b_infractions": infractions.get(seat, 0)}
             for seat, score in enumerate(result.scores)])
        session.execute(delete(Decision).where(col(Decision.table_id) == table_id))
        # One multi-row insert of plain rows: a model object per decision cost more than
        # the whole deal's play (about 0.4 ms each, 78 of them a deal).
        if outcome.decisions:
            session.execute(insert(Decision), [
                {"table_id": table_id, "index": d.index, "seat": d.seat,
                 "action": outcome.game.format_action(d.action),
                 "seconds": round(d.seconds, 6),
                 "infraction": d.infraction.kind.value if d.infraction else None,
                 "reason": d.infraction.message if d.infraction else None}
                for d in outcome.decisions
            ])
        return True

    def set_status(self, tournament_id: str, status: TournamentStatus) -> None:
        with Session(self.engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is None:
                raise UnknownTournamentError(f"no tournament with id {tournament_id!r}")
            row.status = status
            if status is TournamentStatus.FINISHED:
                row.finished_at = _now()
            session.add(row)
            session.commit()

    # ---------------------------------------------------------------------------- export
    def boards(self, tournament_id: str) -> list[Board]:
        with Session(self.engine) as session:
            rows = list(session.exec(
                select(Board).where(Board.tournament_id == tournament_id)
                .order_by(col(Board.number))
            ))
            for row in rows:
                session.expunge(row)
            return rows

    def tables(self, tournament_id: str) -> list[tuple[ArenaTable, list[TableSeat]]]:
        with Session(self.engine) as session:
            tables = list(session.exec(
                select(ArenaTable).where(ArenaTable.tournament_id == tournament_id)
                .order_by(col(ArenaTable.board_number), col(ArenaTable.number))
            ))
            seats = list(session.exec(
                select(TableSeat)
                .join(ArenaTable, col(ArenaTable.id) == col(TableSeat.table_id))
                .where(ArenaTable.tournament_id == tournament_id)
                .order_by(col(TableSeat.table_id), col(TableSeat.seat))
            ))
            for row in [*tables, *seats]:
                session.expunge(row)
        by_table: dict[str, list[TableSeat]] = {}
        for seat in seats:
            by_table.setdefault(seat.table_id, []).append(seat)
        return [(t, by_table.get(t.id, [])) for t in tables]

    def seat_bots(self, table_id: str) -> list[str]:
        """The bot id of each seat of the table, by seat."""
        with Session(self.engine) as session:
            return list(session.exec(
                select(TableSeat.bot_id).where(TableSeat.table_id == table_id)
                .order_by(col(TableSeat.seat))
            ).all())

    def decisions(self, table_id: str) -> list[Decision]:
        with Session(self.engine) as session:
            rows = list(session.exec(
                select(Decision).where(Decision.table_id == table_id)
                .order_by(col(Decision.index))
            ))
            for row in rows:
                session.expunge(row)
            return rows

    def record_texts(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        """The records' JSON of these tables, by id (None for a table not played)."""
        out: dict[str, str | None] = {}
        with Session(self.engine) as session:
            for start in range(0, len(table_ids), 500):
                out.update(session.exec(
                    select(ArenaTable.id, ArenaTable.record_json)
                    .where(col(ArenaTable.id).in_(list(table_ids[start:start + 500])))
                ).all())
        return out

    def record(self, table_id: str) -> Any:
        """The played deal's record, as its game reads it (French Tarot: a
        :class:`~arena.games.french_tarot.DealRecord`)."""
        with Session(self.engine) as session:
            table = session.get(ArenaTable, table_id)
            if table is None:
                raise LookupError(f"no table with id {table_id!r}")
            if table.record_json is None:
                raise LookupError(f"table {table_id} has not been played yet")
            game = self._game_of(session, table.tournament_id)
            return game.load_record(json.loads(table.record_json))

    def _game_of(self, session: Session, tournament_id: str) -> Game:
        tournament = session.get(Tournament, tournament_id)
        if tournament is None:
            raise LookupError(f"no tournament with id {tournament_id!r}")
        return TournamentSettings.from_json(tournament.settings_json).rules


def table_id_for(tournament_id: str, board: int, number: int) -> str:
    """The id of a table of an unsafe seating: readable, and it names the board."""
    return f"{tournament_id}-b{board:04d}-t{number}"


def new_table_ids(tournament_id: str, plans: list[TablePlan], opaque: bool) -> list[str]:
    """Table ids for ``plans``, in order. ``opaque`` (safe seatings): 64 random bits after the
    tournament id, so that a bot cannot tell a table's board from its id, nor guess another
    table's id."""
    if not opaque:
        return [table_id_for(tournament_id, plan.board, plan.number) for plan in plans]
    ids: set[str] = set()
    while len(ids) < len(plans):
        ids.add(f"{tournament_id}-{secrets.token_hex(8)}")
    return list(ids)


def _claim_order(settings: TournamentSettings) -> tuple[Any, ...]:
    """The order tables are claimed in. A safe seating's tables go by their opaque ids, i.e.
    in an order drawn at random when the tournament was created (the same on every arena and
    every resume, with no random number asked of the database): a bot seated at a table
    cannot tell its board from when it was seated. Other seatings play board after board, so
    that boards complete, and show, as early as possible."""
    if settings.seating.safe:
        return (col(ArenaTable.id),)
    return (col(ArenaTable.board_number), col(ArenaTable.number))


def claimable_at(now: datetime) -> ColumnElement[bool]:
    """Pending, or claimed with a lease that ran out (its holder is gone or stuck)."""
    return (col(ArenaTable.status) == TableStatus.PENDING) | (
        (col(ArenaTable.status) == TableStatus.RUNNING) & (col(ArenaTable.lease_until) < now)
    )
