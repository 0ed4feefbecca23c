"""Registering, authenticating and revoking bots.

A token is ``tka_`` followed by 32 random bytes in URL-safe base64: shown once at registration,
stored as its SHA-256 hash (a slow password hash buys nothing for 256 random bits), compared in
constant time.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import re
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from .models import Bot, BotVersion, utcnow

TOKEN_PREFIX = "tka_"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,63}$")


class UnknownBotError(LookupError):
    pass


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class BotSummary:
    id: str
    name: str
    owner: str
    revoked: bool
    created_at: str


def _summary(bot: Bot) -> BotSummary:
    return BotSummary(bot.id, bot.name, bot.owner, bot.revoked, bot.created_at.isoformat())


HELLO_TEXT_MAX = 100
"""The longest ``bot_name`` or ``bot_version`` a Hello may carry (the transport refuses
longer ones; the columns are that wide)."""
VERSIONS_KEPT = 64
"""Distinct (version, name) rows kept per bot, the most recently seen: a bot that sends a new
version at every connection cannot grow the database without bound."""


@dataclass(frozen=True, slots=True)
class VersionSummary:
    """A version a bot said it runs: ``version`` and ``name`` as its Hello sent them."""

    version: str
    name: str
    first_seen: str
    last_seen: str
    connections: int


def _version(row: BotVersion) -> VersionSummary:
    return VersionSummary(row.version, row.name, row.first_seen.isoformat(),
                          row.last_seen.isoformat(), row.connections)


class BotRegistry:
    """Bots in the database. Synchronous: call it from a worker thread, never the trio loop.

    It is the arena's authenticator (:class:`arena.transport.authenticator.Authenticator`,
    matched by shape: storage does not import the transport): whoever builds the server hands
    it over. ``revoke`` raises :class:`UnknownBotError`, a LookupError, as that interface asks.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def register(self, name: str, owner: str = "") -> tuple[BotSummary, str]:
        """A new bot and its token (the only time the token exists in clear)."""
        if not _NAME.match(name):
            raise ValueError(
                f"bad bot name {name!r}: 1 to 64 letters, digits, spaces or ._+- characters"
            )
        if len(owner) > 100:
            raise ValueError("the owner is at most 100 characters")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        bot = Bot(id="bot_" + secrets.token_hex(8), name=name, owner=owner,
                  token_hash=hash_token(token))
        with Session(self.engine) as session:
            session.add(bot)
            session.commit()
            session.refresh(bot)
            return _summary(bot), token

    def authenticate(self, token: str) -> BotSummary | None:
        """The bot a token belongs to, or None for an unknown or revoked token."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        digest = hash_token(token)
        with Session(self.engine) as session:
            bot = session.exec(select(Bot).where(Bot.token_hash == digest)).first()
            if bot is None or bot.revoked or not hmac.compare_digest(bot.token_hash, digest):
                return None
            return _summary(bot)

    def get(self, bot_id: str) -> BotSummary:
        with Session(self.engine) as session:
            bot = session.get(Bot, bot_id)
            if bot is None:
                raise UnknownBotError(f"no bot with id {bot_id!r}")
            return _summary(bot)

    def list(self) -> list[BotSummary]:
        with Session(self.engine) as session:
            return [_summary(b) for b in session.exec(select(Bot).order_by(Bot.created_at))]

    def record_hello(self, bot_id: str, name: str, version: str,
                     when: datetime | None = None) -> None:
        """Count an accepted Hello under the version and name it sent: one statement (an
        insert that adds to the row already there), so that arenas sharing a database, or one
        bot's simultaneous connections, never lose a count."""
        for label, text in (("bot_name", name), ("bot_version", version)):
            if len(text) > HELLO_TEXT_MAX:
                raise ValueError(f"{label} is at most {HELLO_TEXT_MAX} characters, "
                                 f"got {len(text)}")
        now = when or utcnow()
        table = BotVersion.__table__  # type: ignore[attr-defined]
        row = {"bot_id": bot_id, "version": version, "name": name, "first_seen": now,
               "last_seen": now, "connections": 1}
        dialect = self.engine.dialect.name
        statement: postgresql.Insert | sqlite.Insert
        if dialect == "postgresql":
            statement = postgresql.insert(table).values(row)
        elif dialect == "sqlite":
            statement = sqlite.insert(table).values(row)
        else:
            raise ValueError(f"bot versions are stored on SQLite or PostgreSQL, "
                             f"not {dialect}")
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.bot_id, table.c.version, table.c.name],
            set_={
                # the earlier first seen, the later last seen: arenas sharing a database
                # may not agree on the time
                "first_seen": case((statement.excluded.first_seen < table.c.first_seen,
                                    statement.excluded.first_seen), else_=table.c.first_seen),
                "last_seen": case((statement.excluded.last_seen > table.c.last_seen,
                                   statement.excluded.last_seen), else_=table.c.last_seen),
                "connections": table.c.connections + 1,
            },
        )
        with Session(self.engine) as session:
            if session.get(Bot, bot_id) is None:
                raise UnknownBotError(f"no bot with id {bot_id!r}")
            session.execute(statement)
            stale = session.exec(
                select(BotVersion.version, BotVersion.name)
                .where(BotVersion.bot_id == bot_id)
                .order_by(col(BotVersion.last_seen).desc(), col(BotVersion.version))
                .offset(VERSIONS_KEPT)
            ).all()
            for old_version, old_name in stale:
                session.execute(
                    delete(BotVersion).where(
                        col(BotVersion.bot_id) == bot_id, col(BotVersion.version) == old_version,
                        col(BotVersion.name) == old_name,
                    )
                )
            session.commit()

    def versions(self, bot_id: str) -> builtins.list[VersionSummary]:
        """The versions a bot has connected with, the latest seen first."""
        with Session(self.engine) as session:
            if session.get(Bot, bot_id) is None:
                raise UnknownBotError(f"no bot with id {bot_id!r}")
            rows = session.exec(
                select(BotVersion).where(BotVersion.bot_id == bot_id)
                .order_by(col(BotVersion.last_seen).desc(), col(BotVersion.version),
                          col(BotVersion.name))
            )
            return [_version(r) for r in rows]

    def versions_by_bot(self) -> dict[str, builtins.list[VersionSummary]]:
        """Every bot's versions (as :meth:`versions`) in one query; a bot that never connected
        has none."""
        out: dict[str, builtins.list[VersionSummary]] = defaultdict(builtins.list)
        with Session(self.engine) as session:
            rows = session.exec(
                select(BotVersion).order_by(col(BotVersion.bot_id),
                                            col(BotVersion.last_seen).desc(),
                                            col(BotVersion.version), col(BotVersion.name))
            )
            for row in rows:
                out[row.bot_id].append(_version(row))
        return dict(out)

    def revoke(self, bot_id: str) -> bool:
        """Revoke a bot's token; False when it was already revoked."""
        with Session(self.engine) as session:
            bot = session.get(Bot, bot_id)
            if bot is None:
                raise UnknownBotError(f"no bot with id {bot_id!r}")
            if bot.revoked:
                return False
            bot.revoked_at = utcnow()
            session.add(bot)
            session.commit()
            return True
