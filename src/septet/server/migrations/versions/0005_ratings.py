"""Ratings, profiles, rematches and Play now (issue 24): openskill ratings per game and player
(people and bot levels) with their history, the tables already rated (once each, whichever
process finishes them), the rematch of each finished table, seats kept for a rematch's players,
and the tables Play now opened.

Revision ID: 0005_ratings
Revises: 0004_accounts
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_ratings"
down_revision = "0004_accounts"
branch_labels = None
depends_on = None

_TABLE_FK = ("septet_tables.id",)


def upgrade() -> None:
    _ratings()
    _tables()


def _ratings() -> None:
    op.create_table(
        "septet_ratings",
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "player_id"),
    )
    op.create_index("ix_septet_ratings_game_ordinal", "septet_ratings", ["game", "ordinal"])
    op.create_table(
        "septet_rating_history",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], list(_TABLE_FK), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "player_id"),
    )
    op.create_index(
        "ix_septet_rating_history_player",
        "septet_rating_history",
        ["player_id", "game", "created_at"],
    )


def _tables() -> None:
    op.create_table(
        "septet_rated_tables",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], list(_TABLE_FK), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_table(
        "septet_rematches",
        sa.Column("old_table_id", sa.String(32), nullable=False),
        sa.Column("new_table_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["old_table_id"], list(_TABLE_FK), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("old_table_id"),
        sa.UniqueConstraint("new_table_id"),
    )
    op.create_table(
        "septet_seat_offers",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], list(_TABLE_FK), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_table(
        "septet_play_now",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("fill_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("filled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], list(_TABLE_FK), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_septet_play_now_open", "septet_play_now", ["game", "num_players", "filled"])


def downgrade() -> None:
    op.drop_index("ix_septet_play_now_open", table_name="septet_play_now")
    op.drop_table("septet_play_now")
    op.drop_table("septet_seat_offers")
    op.drop_table("septet_rematches")
    op.drop_table("septet_rated_tables")
    op.drop_index("ix_septet_rating_history_player", table_name="septet_rating_history")
    op.drop_table("septet_rating_history")
    op.drop_index("ix_septet_ratings_game_ordinal", table_name="septet_ratings")
    op.drop_table("septet_ratings")
