"""Ladders in the database: the ladder, its members and entries, and the tables it seats.

A ladder plays on a tournament of its own (``Ladder.tournament_id``), made once it has two bots
per seat: its boards are drawn on demand from the ladder's seed (board ``k`` deals as board
``k`` of a tournament of that seed would), its tables are seated by the ladder service as bots
come, and the one tournament runner claims, plays, renews and replays them as any tournament's.
That tournament's status stays *finished*: ``serve``'s tournament loop and ``tournament run``
leave it to the ladder service, and its own seed is 0 (the ladder's is kept on the ladder, out
of every page). Each seat of a ladder table has a :class:`LadderSeat` naming the entry that
held it, written with the table: a crash between seating and playing loses nothing.

A board is *closed* once it has :attr:`LadderSettings.tables_per_board` tables, all played: only
then may a page show anything of it (its deal, its tables, who held which seat); until then the
tournament's pages do not know its tables at all (:mod:`.pages`).
"""

from __future__ import annotations

import itertools
import secrets
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import case, delete, func, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from arena.storage.bots import BotRegistry, UnknownBotError
from arena.storage.models import (
    ArenaTable,
    Board,
    Bot,
    Decision,
    Ladder,
    LadderEntry,
    LadderMember,
    LadderRating,
    LadderSeat,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)

from ..duplicate.seatings import board_seed
from ..duplicate.settings import SettingsError
from ..ladder.rating import Rating
from ..ladder.settings import MAX_BOARDS, LadderSettings, VersionPolicy


class UnknownLadderError(LookupError):
    pass


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Member:
    bot_id: str
    name: str
    joined_at: datetime
    left_at: datetime | None
    revoked: bool

    @property
    def active(self) -> bool:
        return self.left_at is None and not self.revoked


@dataclass(frozen=True, slots=True)
class EntryRow:
    id: int
    bot_id: str
    name: str
    version: str
    first_seen: datetime


@dataclass(frozen=True, slots=True)
class PlayRow:
    """One finished seat of a ladder table."""

    table_id: str
    board: int
    seat: int
    entry_id: int
    bot_id: str
    score: int
    infractions: int
    finished_at: datetime


@dataclass(slots=True)
class FieldState:
    """What the matchmaker needs to know of a ladder, read at once."""

    boards: dict[int, tuple[int, set[str]]] = field(default_factory=dict)
    """Every board not closed -> (tables seated, bots seated)."""
    next_board: int = 0
    seats: dict[str, list[int]] = field(default_factory=dict)
    """bot -> how often it held each seat."""
    entry_boards: dict[int, int] = field(default_factory=dict)
    """entry -> boards it was seated at."""
    busy: set[str] = field(default_factory=set)
    """Bots seated at a table not yet played."""
    unplayed: int = 0
    """Tables seated and not yet played."""
    meets: dict[frozenset[str], int] = field(default_factory=dict)
    """How often each pair of bots met at a table."""
    last_hour: dict[str, int] = field(default_factory=dict)
    """bot -> tables it was seated at in the last hour."""
    pending: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Tables not claimed yet, or whose claim's lease ran out -> their bots (withdrawn when
    a bot is gone)."""


class LadderStore:
    def __init__(self, engine: Engine, clock: Callable[[], datetime] = _now) -> None:
        self.engine = engine
        self.clock = clock

    # ---------------------------------------------------------------------------- ladders
    def create(self, settings: LadderSettings, seed: int | None = None) -> Ladder:
        """A new ladder; its seed secret and random unless given (tests)."""
        with Session(self.engine) as session:
            if session.exec(select(Ladder).where(Ladder.name == settings.name)).first():
                raise SettingsError(f"a ladder named {settings.name!r} exists already")
            row = Ladder(id="lad_" + secrets.token_hex(6), name=settings.name,
                         seed=str(secrets.randbits(64) if seed is None else seed),
                         settings_json=settings.to_json())
            session.add(row)
            session.commit()
            session.refresh(row)
            session.expunge(row)
            return row

    def ladder(self, name: str) -> Ladder:
        """The ladder by name (or id)."""
        with Session(self.engine) as session:
            row = session.exec(select(Ladder).where(
                (col(Ladder.name) == name) | (col(Ladder.id) == name))).first()
            if row is None:
                raise UnknownLadderError(f"no ladder named {name!r} (tarot-arena ladder list "
                                         "shows them)")
            session.expunge(row)
            return row

    def ladders(self) -> list[Ladder]:
        with Session(self.engine) as session:
            rows = list(session.exec(select(Ladder).order_by(col(Ladder.created_at))))
            for row in rows:
                session.expunge(row)
            return rows

    @staticmethod
    def settings(ladder: Ladder) -> LadderSettings:
        return LadderSettings.from_json(ladder.settings_json)

    def backing(self) -> set[str]:
        """The tournaments ladders play on."""
        with Session(self.engine) as session:
            return {t for t in session.exec(select(Ladder.tournament_id)).all() if t}

    # ---------------------------------------------------------------------------- members
    def join(self, name: str, bot_id: str) -> bool:
        """Join ``bot_id`` to the ladder (again, if it left); False if it was a member. Makes
        the ladder's tournament once two bots per seat have joined."""
        ladder = self.ladder(name)
        try:
            bot = BotRegistry(self.engine).get(bot_id)
        except UnknownBotError as exc:
            raise SettingsError(str(exc)) from exc
        if bot.revoked:
            raise SettingsError(f"bot {bot_id} ({bot.name}) is revoked: it cannot join")
        with Session(self.engine) as session:
            member = session.get(LadderMember, (ladder.id, bot_id))
            if member is not None and member.left_at is None:
                return False
            if member is None:
                member = LadderMember(ladder_id=ladder.id, bot_id=bot_id)
            else:
                member.left_at = None
                member.joined_at = _now()
            session.add(member)
            session.commit()
        self.sync_tournament(ladder.id)
        return True

    def leave(self, name: str, bot_id: str) -> bool:
        """The bot leaves the ladder (its results stay); False if it was no member. Its tables
        not yet claimed are withdrawn."""
        ladder = self.ladder(name)
        with Session(self.engine) as session:
            member = session.get(LadderMember, (ladder.id, bot_id))
            if member is None or member.left_at is not None:
                return False
            member.left_at = _now()
            session.add(member)
            session.commit()
        state = self.field(ladder.id)
        self.withdraw([t for t, bots in state.pending.items() if bot_id in bots])
        return True

    def members(self, ladder_id: str) -> list[Member]:
        with Session(self.engine) as session:
            rows = session.exec(
                select(LadderMember, Bot).join(Bot, col(Bot.id) == col(LadderMember.bot_id))
                .where(LadderMember.ladder_id == ladder_id)
                .order_by(col(LadderMember.joined_at), col(LadderMember.bot_id))
            ).all()
            return [Member(m.bot_id, b.name, m.joined_at, m.left_at, b.revoked_at is not None)
                    for m, b in rows]

    def sync_tournament(self, ladder_id: str) -> str | None:
        """Make the ladder's tournament, or add new members to its bots: the runner seats the
        bots its settings name."""
        with Session(self.engine) as session:
            ladder = session.get(Ladder, ladder_id)
            assert ladder is not None
            settings = LadderSettings.from_json(ladder.settings_json)
            bots = list(session.exec(
                select(LadderMember.bot_id).where(LadderMember.ladder_id == ladder_id)
                .order_by(col(LadderMember.joined_at), col(LadderMember.bot_id))
            ).all())
            if ladder.tournament_id is None:
                if len(bots) < 2 * settings.players:
                    return None
                tid = "tour_" + secrets.token_hex(6)
                session.add(Tournament(
                    id=tid, name=f"ladder {ladder.name}", seed="0",
                    settings_json=settings.tournament(tuple(bots)).to_json(),
                    status=TournamentStatus.FINISHED, finished_at=_now()))
                session.flush()
                ladder.tournament_id = tid
                session.add(ladder)
                session.commit()
                return tid
            tournament = session.get(Tournament, ladder.tournament_id)
            assert tournament is not None
            known = settings.tournament(tuple(bots))
            if tournament.settings_json != known.to_json():
                tournament.settings_json = known.to_json()
                session.add(tournament)
                session.commit()
            return ladder.tournament_id

    # ---------------------------------------------------------------------------- entries
    def entry_for(self, ladder_id: str, bot_id: str, version: str,
                  policy: VersionPolicy) -> int:
        """The entry ``bot_id`` plays for with ``version`` (made if new)."""
        with Session(self.engine) as session:
            query = select(LadderEntry).where(LadderEntry.ladder_id == ladder_id,
                                              LadderEntry.bot_id == bot_id)
            if policy is VersionPolicy.NEW_ENTRY:
                query = query.where(LadderEntry.version == version)
            found = session.exec(query.order_by(col(LadderEntry.id))).first()
            if found is not None and found.id is not None:
                return found.id
            entry = LadderEntry(ladder_id=ladder_id, bot_id=bot_id, version=version)
            session.add(entry)
            try:
                session.commit()
            except IntegrityError:  # made meanwhile by another arena
                session.rollback()
                return self.entry_for(ladder_id, bot_id, version, policy)
            assert entry.id is not None
            return entry.id

    def entries(self, ladder_id: str) -> list[EntryRow]:
        with Session(self.engine) as session:
            rows = session.exec(
                select(LadderEntry, Bot.name).join(Bot, col(Bot.id) == col(LadderEntry.bot_id))
                .where(LadderEntry.ladder_id == ladder_id).order_by(col(LadderEntry.id))
            ).all()
            return [EntryRow(e.id or 0, e.bot_id, name, e.version, e.first_seen)
                    for e, name in rows]

    # ---------------------------------------------------------------------------- tables
    def field(self, ladder_id: str) -> FieldState:
        ladder = self.get(ladder_id)
        cap = LadderSettings.from_json(ladder.settings_json).tables_per_board
        state = FieldState()
        if ladder.tournament_id is None:
            return state
        hour_ago = self.clock() - timedelta(hours=1)
        with Session(self.engine) as session:
            rows = session.exec(
                select(LadderSeat.table_id, LadderSeat.board, LadderSeat.seat,
                       LadderSeat.bot_id, LadderSeat.entry_id, LadderSeat.seated_at,
                       ArenaTable.status, ArenaTable.claimed_by, ArenaTable.lease_until)
                .join(ArenaTable, col(ArenaTable.id) == col(LadderSeat.table_id))
                .where(LadderSeat.ladder_id == ladder_id)
            ).all()
            boards = session.exec(
                select(func.max(Board.number)).where(Board.tournament_id == ladder.tournament_id)
            ).one()
        state.next_board = 0 if boards is None else int(boards) + 1
        tables: dict[int, set[str]] = defaultdict(set)
        undone: set[int] = set()
        bots: dict[int, set[str]] = defaultdict(set)
        entry_boards: dict[int, set[int]] = defaultdict(set)
        pending: dict[str, list[tuple[int, str]]] = defaultdict(list)
        unplayed: set[str] = set()
        now = self.clock()
        for table_id, board, seat, bot, entry, seated_at, status, claimed, lease in rows:
            tables[board].add(table_id)
            bots[board].add(bot)
            entry_boards[entry].add(board)
            counts = state.seats.setdefault(bot, [])
            counts.extend([0] * (seat + 1 - len(counts)))
            counts[seat] += 1
            if status != TableStatus.DONE:
                undone.add(board)
                unplayed.add(table_id)
                state.busy.add(bot)
                if (status == TableStatus.PENDING and claimed is None) or (
                        status == TableStatus.RUNNING and lease is not None
                        and _aware(lease) < now):
                    pending[table_id].append((seat, bot))
            if _aware(seated_at) >= hour_ago:
                state.last_hour[bot] = state.last_hour.get(bot, 0) + 1
        for board, ids in tables.items():
            if len(ids) < cap or board in undone:
                state.boards[board] = (len(ids), bots[board])
        state.unplayed = len(unplayed)
        at_table: dict[str, set[str]] = defaultdict(set)
        for table_id, _, _, bot, *_ in rows:
            at_table[table_id].add(bot)
        for seated in at_table.values():
            for pair in itertools.combinations(sorted(seated), 2):
                key = frozenset(pair)
                state.meets[key] = state.meets.get(key, 0) + 1
        state.entry_boards = {e: len(b) for e, b in entry_boards.items()}
        state.pending = {t: tuple(b for _, b in sorted(s)) for t, s in pending.items()}
        return state

    def seat(self, ladder_id: str, tables: Sequence[tuple[int, Sequence[tuple[str, int]]]]
             ) -> list[str]:
        """Store tables to play, each (board, (bot, entry) by seat), with the boards they are
        the first to deal; their ids. All or none: a clash (another arena seated one of these
        bots on that board meanwhile) stores nothing."""
        ladder = self.get(ladder_id)
        tid = ladder.tournament_id
        if tid is None:
            raise SettingsError(f"ladder {ladder.name} has too few bots to play yet")
        settings = LadderSettings.from_json(ladder.settings_json)
        game, options = settings.rules, settings.table_options
        ids = []
        with Session(self.engine) as session:
            known = set(session.exec(select(Board.number).where(
                Board.tournament_id == tid,
                col(Board.number).in_(sorted({b for b, _ in tables})))).all())
            numbers = dict(session.exec(
                select(ArenaTable.board_number, func.max(ArenaTable.number))
                .where(ArenaTable.tournament_id == tid,
                       col(ArenaTable.board_number).in_(sorted({b for b, _ in tables})))
                .group_by(ArenaTable.board_number)).all())
            for board, seats in tables:
                if not 0 <= board < MAX_BOARDS:
                    raise SettingsError(f"ladder {ladder.name} has drawn all its boards")
                if board not in known:
                    seed = board_seed(int(ladder.seed), board)
                    dealer = game.dealer_of(options, board)
                    record = game.record(game.new_deal(seed, options, dealer), seed)
                    session.add(Board(tournament_id=tid, number=board, deal_seed=str(seed),
                                      dealer=dealer, deal_json=record.dumps()))
                    known.add(board)
                    session.flush()
                number = numbers.get(board, -1) + 1
                numbers[board] = number
                table_id = f"{tid}-{secrets.token_hex(8)}"
                ids.append(table_id)
                session.add(ArenaTable(id=table_id, tournament_id=tid, board_number=board,
                                       number=number))
                session.flush()
                for index, (bot, entry) in enumerate(seats):
                    session.add(TableSeat(table_id=table_id, seat=index, bot_id=bot))
                    session.add(LadderSeat(table_id=table_id, seat=index, ladder_id=ladder_id,
                                           board=board, entry_id=entry, bot_id=bot,
                                           seated_at=self.clock()))
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
                return []
        return ids

    def withdraw(self, table_ids: Collection[str]) -> int:
        """Remove tables not claimed yet, or whose claim's lease ran out (their arena is gone),
        because a bot of theirs is; how many were. A table claimed meanwhile is left to its
        runner."""
        removed = 0
        for table_id in sorted(table_ids):
            with Session(self.engine) as session:
                now = self.clock()
                won = session.execute(
                    update(ArenaTable)
                    .where(col(ArenaTable.id) == table_id,
                           ((col(ArenaTable.status) == TableStatus.PENDING)
                            & col(ArenaTable.claimed_by).is_(None))
                           | ((col(ArenaTable.status) == TableStatus.RUNNING)
                              & (col(ArenaTable.lease_until) < now)))
                    .values(claimed_by="ladder:withdrawn")
                    .execution_options(synchronize_session=False)
                ).rowcount  # type: ignore[attr-defined]
                if won != 1:
                    session.rollback()
                    continue
                session.execute(delete(LadderSeat).where(col(LadderSeat.table_id) == table_id))
                session.execute(delete(TableSeat).where(col(TableSeat.table_id) == table_id))
                session.execute(delete(Decision).where(col(Decision.table_id) == table_id))
                session.execute(delete(ArenaTable).where(col(ArenaTable.id) == table_id))
                session.commit()
                removed += 1
        return removed

    # ---------------------------------------------------------------------------- results
    def plays(self, ladder_id: str) -> list[PlayRow]:
        """Every seat of every finished table of the ladder, in the order they ended."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(LadderSeat.table_id, LadderSeat.board, LadderSeat.seat,
                       LadderSeat.entry_id, LadderSeat.bot_id, TableSeat.score,
                       TableSeat.infractions, ArenaTable.finished_at)
                .join(TableSeat, (col(TableSeat.table_id) == col(LadderSeat.table_id))
                      & (col(TableSeat.seat) == col(LadderSeat.seat)))
                .join(ArenaTable, col(ArenaTable.id) == col(LadderSeat.table_id))
                .where(LadderSeat.ladder_id == ladder_id,
                       ArenaTable.status == TableStatus.DONE)
                .order_by(col(ArenaTable.finished_at), col(LadderSeat.table_id),
                          col(LadderSeat.seat))
            ).all()
        return [PlayRow(t, b, s, e, bot, score or 0, n, _aware(at) if at else _now())
                for t, b, s, e, bot, score, n, at in rows]

    def stored_ratings(self, ladder_id: str) -> tuple[dict[int, Rating], int]:
        """The ratings as last fitted, and how many results that fit read (0: none yet)."""
        with Session(self.engine) as session:
            rows = session.exec(select(LadderRating)
                                .where(LadderRating.ladder_id == ladder_id)).all()
        ratings = {r.entry_id: Rating(r.entry_id, r.rating, r.low, r.high, r.comparisons)
                   for r in rows}
        return ratings, max((r.results for r in rows), default=0)

    def store_ratings(self, ladder_id: str, ratings: dict[int, Rating], results: int) -> None:
        """Replace the ladder's stored ratings with a fit of ``results`` results."""
        with Session(self.engine) as session:
            session.execute(delete(LadderRating).where(col(LadderRating.ladder_id) == ladder_id))
            for r in ratings.values():
                session.add(LadderRating(entry_id=r.entry, ladder_id=ladder_id, rating=r.rating,
                                         low=r.low, high=r.high, comparisons=r.comparisons,
                                         results=results))
            session.commit()

    def tables_done(self, ladder_id: str) -> int:
        """How many of the ladder's tables were played."""
        with Session(self.engine) as session:
            return int(session.exec(
                select(func.count(func.distinct(LadderSeat.table_id)))
                .join(ArenaTable, col(ArenaTable.id) == col(LadderSeat.table_id))
                .where(LadderSeat.ladder_id == ladder_id, ArenaTable.status == TableStatus.DONE)
            ).one())

    def closed_boards(self, ladder_id: str) -> set[int]:
        """The boards that may be shown: played at all their tables, and full."""
        ladder = self.get(ladder_id)
        if ladder.tournament_id is None:
            return set()
        cap = LadderSettings.from_json(ladder.settings_json).tables_per_board
        return closed_boards(self.engine, ladder.tournament_id, cap)

    def last_seen(self, ladder_id: str) -> dict[int, datetime]:
        """entry -> when its last table ended."""
        out: dict[int, datetime] = {}
        for play in self.plays(ladder_id):
            out[play.entry_id] = play.finished_at
        return out

    def table_ids(self, ladder_id: str, entry_id: int) -> list[tuple[int, str, int]]:
        """(board, table id, seat) of the entry's finished tables."""
        return [(p.board, p.table_id, p.seat) for p in self.plays(ladder_id)
                if p.entry_id == entry_id]

    def get(self, ladder_id: str) -> Ladder:
        with Session(self.engine) as session:
            row = session.get(Ladder, ladder_id)
            if row is None:
                raise UnknownLadderError(f"no ladder with id {ladder_id!r}")
            session.expunge(row)
            return row


def closed_boards(engine: Engine, tournament_id: str, cap: int) -> set[int]:
    with Session(engine) as session:
        rows = session.exec(
            select(ArenaTable.board_number, func.count(),
                   func.sum(case((col(ArenaTable.status) != TableStatus.DONE, 1), else_=0)))
            .where(ArenaTable.tournament_id == tournament_id)
            .group_by(ArenaTable.board_number)
        ).all()
    return {board for board, n, undone in rows if n >= cap and not undone}


def ladder_boards(engine: Engine) -> dict[str, int]:
    """The tournaments ladders play on -> the tables a board of theirs has once closed."""
    with Session(engine) as session:
        rows = session.exec(select(Ladder.tournament_id, Ladder.settings_json)).all()
    return {tid: LadderSettings.from_json(text).tables_per_board for tid, text in rows if tid}


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive times (stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
