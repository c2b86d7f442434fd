"""The score keeper's sheets (``/score``): one row per sheet and one per operation, keyed by
sheet and index so an operation is never stored twice at the same index.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "septet_score_sheets",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "septet_score_ops",
        sa.Column("sheet_id", sa.String(32), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("op", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sheet_id"], ["septet_score_sheets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("sheet_id", "idx"),
    )


def downgrade() -> None:
    op.drop_table("septet_score_ops")
    op.drop_table("septet_score_sheets")
