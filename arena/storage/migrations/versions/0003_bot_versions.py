"""bot versions

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 11:39:44.149715
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_version",
        sa.Column("bot_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("version", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("first_seen", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("last_seen", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["bot.id"],
        ),
        sa.PrimaryKeyConstraint("bot_id", "version", "name"),
    )


def downgrade() -> None:
    op.drop_table("bot_version")
