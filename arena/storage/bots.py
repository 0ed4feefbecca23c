"""Registering, authenticating and revoking bots.

A token is ``tka_`` followed by 32 random bytes in URL-safe base64: shown once at registration,
stored as its SHA-256 hash (a slow password hash buys nothing for 256 random bits), compared in
constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from .models import Bot, utcnow

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


class BotRegistry:
    """Bots in the database. Synchronous: call it from a worker thread, never the trio loop."""

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
