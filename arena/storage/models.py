"""The tables. Bot tokens are never stored: only their SHA-256 hash.

A tournament's whole state lives here, its remaining work included: every table to play is a
row in ``arena_table`` with a status, so any worker sharing the database can claim the next one
(``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL) and a restarted server resumes where the
last one stopped.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class Bot(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=40)
    name: str = Field(index=True, max_length=100)
    owner: str = Field(default="", max_length=100)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


class TournamentStatus(StrEnum):
    CREATED = "created"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    """Stopped for good by ``tournament cancel``: no more tables are claimed; what was played
    is kept."""


class Tournament(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=40)
    name: str = Field(max_length=100)
    seed: str = Field(max_length=24)
    """The tournament seed (0 .. 2**64-1, wider than BIGINT) as a decimal string."""
    settings_json: str = Field(sa_column=Column(Text, nullable=False))
    """Every setting (variant, seating, boards, time control, penalties, bots) as JSON."""
    status: TournamentStatus = Field(default=TournamentStatus.CREATED)
    created_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None


class Board(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournament.id", index=True, max_length=40)
    number: int
    deal_seed: str = Field(max_length=24)
    """The deal's seed (0 .. 2**64-1) as a decimal string."""
    dealer: int
    deal_json: str = Field(sa_column=Column(Text, nullable=False))


class TableStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"


class ArenaTable(SQLModel, table=True):
    """One table of one board: the unit of work a worker claims, plays and commits."""

    __tablename__ = "arena_table"
    __table_args__ = (UniqueConstraint("tournament_id", "board_number", "number"),)

    id: str = Field(primary_key=True, max_length=80)
    tournament_id: str = Field(foreign_key="tournament.id", index=True, max_length=40)
    board_number: int
    number: int
    """The table's number within its board (0, 1, ...)."""
    status: TableStatus = Field(default=TableStatus.PENDING, index=True)
    claimed_by: str | None = Field(default=None, max_length=120)
    lease_until: datetime | None = None
    attempts: int = 0
    finished_at: datetime | None = None
    outcome: str | None = Field(default=None, max_length=20)
    record_json: str | None = Field(default=None, sa_column=Column(Text))


class TableSeat(SQLModel, table=True):
    __tablename__ = "table_seat"

    table_id: str = Field(foreign_key="arena_table.id", primary_key=True, max_length=80)
    seat: int = Field(primary_key=True)
    bot_id: str = Field(foreign_key="bot.id", index=True, max_length=40)
    scored: bool = True
    """Counted in its board's duplicate comparison (a gauntlet's filler seats are not)."""
    score: int | None = None
    infractions: int = 0


class Decision(SQLModel, table=True):
    table_id: str = Field(foreign_key="arena_table.id", primary_key=True, max_length=80)
    index: int = Field(primary_key=True)
    seat: int
    action: str = Field(max_length=40)
    seconds: float
    infraction: str | None = Field(default=None, max_length=40)
    reason: str | None = Field(default=None, sa_column=Column(Text))


class BotVersion(SQLModel, table=True):
    """A version of a bot's code, as its Hello names it (``bot_version`` and ``bot_name``):
    one row per bot, version and name, so that its page can tell which code played when.

    The registered bot (its token) is who plays; what it says in its Hello is its own account
    of what runs behind that token, kept as sent (the arena checks only its length and
    characters)."""

    __tablename__ = "bot_version"

    bot_id: str = Field(foreign_key="bot.id", primary_key=True, max_length=40)
    version: str = Field(primary_key=True, max_length=100)
    """``Hello.bot_version``; empty when the bot sent none."""
    name: str = Field(primary_key=True, max_length=100)
    """``Hello.bot_name``, which may differ from the name the bot was registered under."""
    first_seen: datetime = Field(default_factory=utcnow)
    last_seen: datetime = Field(default_factory=utcnow)
    connections: int = 1
    """Accepted Hellos with this version and name."""


class WorkPin(SQLModel, table=True):
    """The code of a bot that workers play in their own process (``tarot-arena worker``), as
    the tournament was queued with: a worker whose copy hashes differently refuses the
    tournament, so that one result never mixes two versions of a bot."""

    __tablename__ = "work_pin"

    tournament_id: str = Field(foreign_key="tournament.id", primary_key=True, max_length=40)
    bot_id: str = Field(foreign_key="bot.id", primary_key=True, max_length=40)
    spec: str = Field(max_length=200)
    """The bot as workers load it: a bundled bot's name or ``module:Class``."""
    code_hash: str = Field(max_length=64)
    """SHA-256 over the source files of the bot's own modules (:mod:`tournaments.work.pins`)."""
    files: str = Field(sa_column=Column(Text, nullable=False))
    """The modules hashed, as JSON: a refusal names them."""


class WorkFailure(SQLModel, table=True):
    """A board whose group of tables failed to be played by a worker: when it may be tried
    again (exponential backoff), and whether it was given up after too many failures."""

    __tablename__ = "work_failure"

    tournament_id: str = Field(foreign_key="tournament.id", primary_key=True, max_length=40)
    board_number: int = Field(primary_key=True)
    failures: int = 0
    retry_at: datetime = Field(default_factory=utcnow)
    given_up: bool = False
    worker: str = Field(default="", max_length=120)
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False))


class WorkWorker(SQLModel, table=True):
    """A worker process (``tarot-arena worker``), on any machine: who it is and what it last
    said, for the compare's page and for flagging."""

    __tablename__ = "work_worker"

    id: str = Field(primary_key=True, max_length=120)
    """``host:pid:nonce``, the prefix of its claims' worker ids."""
    name: str = Field(max_length=100)
    host: str = Field(max_length=255)
    pid: int
    started_at: datetime = Field(default_factory=utcnow)
    last_seen: datetime = Field(default_factory=utcnow)
    groups: int = 0
    tables: int = 0
    failures: int = 0
    busy_seconds: float = 0.0
    last_report: str = Field(default="", sa_column=Column(Text, nullable=False))
    stopped: bool = False


class Ladder(SQLModel, table=True):
    """A standing duplicate ladder: bots join and leave, boards are drawn on demand from its
    secret seed and played by its own tournament's tables (``tournament_id``), which the
    ladder service fills as bots come (see ``tournaments.ladder``)."""

    id: str = Field(primary_key=True, max_length=40)
    name: str = Field(max_length=100, unique=True)
    tournament_id: str | None = Field(default=None, foreign_key="tournament.id", max_length=40,
                                      unique=True)
    """The tournament whose boards and tables the ladder plays (never shown as one); made
    once the ladder has enough bots to compare (two per seat)."""
    seed: str = Field(max_length=24)
    """The ladder's secret seed (0 .. 2**64-1) as a decimal string: board ``k`` deals from
    ``board_seed(seed, k)``."""
    settings_json: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class LadderMember(SQLModel, table=True):
    """A bot joined to a ladder; ``left_at`` once it left (it may join again)."""

    __tablename__ = "ladder_member"

    ladder_id: str = Field(foreign_key="ladder.id", primary_key=True, max_length=40)
    bot_id: str = Field(foreign_key="bot.id", primary_key=True, max_length=40)
    joined_at: datetime = Field(default_factory=utcnow)
    left_at: datetime | None = None


class LadderEntry(SQLModel, table=True):
    """What the ladder rates: a bot, or one version of it when the ladder says a new
    ``Hello.bot_version`` is a new entry."""

    __tablename__ = "ladder_entry"
    __table_args__ = (UniqueConstraint("ladder_id", "bot_id", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    ladder_id: str = Field(foreign_key="ladder.id", index=True, max_length=40)
    bot_id: str = Field(foreign_key="bot.id", max_length=40)
    version: str = Field(default="", max_length=100)
    """The version it rates (a ladder whose versions continue the entry: the first seen)."""
    first_seen: datetime = Field(default_factory=utcnow)


class LadderSeat(SQLModel, table=True):
    """One seat of one ladder table: which entry held it (its score is the table seat's).
    A bot holds one seat of a board at most, whatever its entries: no bot plays a board
    twice, even when two arenas seat it at once."""

    __tablename__ = "ladder_seat"
    __table_args__ = (UniqueConstraint("ladder_id", "board", "bot_id"),)

    table_id: str = Field(foreign_key="arena_table.id", primary_key=True, max_length=80)
    seat: int = Field(primary_key=True)
    ladder_id: str = Field(foreign_key="ladder.id", index=True, max_length=40)
    board: int
    entry_id: int = Field(foreign_key="ladder_entry.id", index=True)
    bot_id: str = Field(foreign_key="bot.id", max_length=40)
    seated_at: datetime = Field(default_factory=utcnow)


class LadderRating(SQLModel, table=True):
    """An entry's rating as last fitted, with how many results the fit read: what the
    standings show without fitting again (``ladder refit`` fits the stored results anew)."""

    __tablename__ = "ladder_rating"

    entry_id: int = Field(foreign_key="ladder_entry.id", primary_key=True)
    ladder_id: str = Field(foreign_key="ladder.id", index=True, max_length=40)
    rating: float
    low: float
    high: float
    comparisons: float
    results: int
    """Seats of finished tables of the ladder the fit read."""
    fitted_at: datetime = Field(default_factory=utcnow)
