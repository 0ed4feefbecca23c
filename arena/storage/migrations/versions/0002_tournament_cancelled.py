"""tournament status cancelled

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 10:30:00.000000
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # PostgreSQL keeps the status as an enum type, which must learn the new value (inside a
    # transaction since PostgreSQL 12); SQLite stores the name as text without a constraint.
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TYPE tournamentstatus ADD VALUE IF NOT EXISTS 'CANCELLED'")


def downgrade() -> None:
    # PostgreSQL cannot drop a value from an enum type; a cancelled tournament becomes finished.
    op.execute("UPDATE tournament SET status = 'FINISHED' WHERE status = 'CANCELLED'")
