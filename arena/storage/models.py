"""The tables. Bot tokens are never stored: only their SHA-256 hash."""

from __future__ import annotations

from datetime import UTC, datetime

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
