"""work queue: pinned bots, failed boards, workers

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 16:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    op.create_table(
        "work_pin",
        sa.Column("tournament_id", text(length=40), nullable=False),
        sa.Column("bot_id", text(length=40), nullable=False),
        sa.Column("spec", text(length=200), nullable=False),
        sa.Column("code_hash", text(length=64), nullable=False),
        sa.Column("files", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "bot_id"),
    )
    op.create_table(
        "work_failure",
        sa.Column("tournament_id", text(length=40), nullable=False),
        sa.Column("board_number", sa.Integer(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("retry_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("given_up", sa.Boolean(), nullable=False),
        sa.Column("worker", text(length=120), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "board_number"),
    )
    op.create_table(
        "work_worker",
        sa.Column("id", text(length=120), nullable=False),
        sa.Column("name", text(length=100), nullable=False),
        sa.Column("host", text(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("last_seen", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("groups", sa.Integer(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("busy_seconds", sa.Float(), nullable=False),
        sa.Column("last_report", sa.Text(), nullable=False),
        sa.Column("stopped", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("work_worker")
    op.drop_table("work_failure")
    op.drop_table("work_pin")
