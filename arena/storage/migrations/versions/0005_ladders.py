"""ladders: ladders, their members, entries and seats

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 15:48:16.154918
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ladder",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("tournament_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
        sa.Column("seed", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("settings_json", sa.Text(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
        sa.UniqueConstraint("tournament_id"),
    )
    op.create_table(
        "ladder_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ladder_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("bot_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("version", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("first_seen", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["bot.id"],
        ),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladder.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("ladder_id", "bot_id", "version"),
    )
    with op.batch_alter_table("ladder_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ladder_entry_ladder_id"), ["ladder_id"], unique=False)

    op.create_table(
        "ladder_member",
        sa.Column("ladder_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("bot_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("joined_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("left_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["bot.id"],
        ),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladder.id"],
        ),
        sa.PrimaryKeyConstraint("ladder_id", "bot_id"),
    )
    op.create_table(
        "ladder_seat",
        sa.Column("table_id", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("ladder_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("seated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["bot.id"],
        ),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["ladder_entry.id"],
        ),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladder.id"],
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["arena_table.id"],
        ),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        sa.UniqueConstraint("ladder_id", "board", "bot_id"),
    )
    with op.batch_alter_table("ladder_seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ladder_seat_entry_id"), ["entry_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_ladder_seat_ladder_id"), ["ladder_id"], unique=False)
    op.create_table(
        "ladder_rating",
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("ladder_id", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("low", sa.Float(), nullable=False),
        sa.Column("high", sa.Float(), nullable=False),
        sa.Column("comparisons", sa.Float(), nullable=False),
        sa.Column("results", sa.Integer(), nullable=False),
        sa.Column("fitted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["ladder_entry.id"]),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladder.id"]),
        sa.PrimaryKeyConstraint("entry_id"),
    )
    with op.batch_alter_table("ladder_rating", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ladder_rating_ladder_id"), ["ladder_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("ladder_rating", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ladder_rating_ladder_id"))

    op.drop_table("ladder_rating")
    with op.batch_alter_table("ladder_seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ladder_seat_ladder_id"))
        batch_op.drop_index(batch_op.f("ix_ladder_seat_entry_id"))

    op.drop_table("ladder_seat")
    op.drop_table("ladder_member")
    with op.batch_alter_table("ladder_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ladder_entry_ladder_id"))

    op.drop_table("ladder_entry")
    op.drop_table("ladder")
