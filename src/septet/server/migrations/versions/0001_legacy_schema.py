"""The schema of Septet's built-in migration 1, frozen: players, tables, seats, moves.

A database made by that migration (recorded as version 1 in ``septet_schema``) is stamped with
this revision instead of running it.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "septet_players",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_septet_players_token_hash", "septet_players", ["token_hash"], unique=True)
    op.create_table(
        "septet_tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("owner_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_septet_tables_status", "septet_tables", ["status"])
    op.create_table(
        "septet_seats",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(128), nullable=True),
        sa.Column("replaced", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["septet_tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_table(
        "septet_moves",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("notation", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["septet_tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "idx"),
    )


def downgrade() -> None:
    op.drop_table("septet_moves")
    op.drop_table("septet_seats")
    op.drop_index("ix_septet_tables_status", table_name="septet_tables")
    op.drop_table("septet_tables")
    op.drop_index("ix_septet_players_token_hash", table_name="septet_players")
    op.drop_table("septet_players")
