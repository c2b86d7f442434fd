"""Table chat, who created each table (per-guest caps), the seat to move and whether it
is a bot's (lobby lists and bot-turn sweepers read them without replaying a game).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it): a batch copy of septet_tables would drop the old table,
    # and with foreign keys on, its seats and moves with it.
    op.add_column("septet_tables", sa.Column("created_by", sa.String(32), nullable=True))
    op.add_column(
        "septet_tables",
        sa.Column("bot_turn", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("septet_tables", sa.Column("to_move", sa.Integer(), nullable=True))
    op.create_index("ix_septet_tables_created_by_status", "septet_tables", ["created_by", "status"])
    # Tables made before this revision: the owner (seated creator) created them.
    op.execute("UPDATE septet_tables SET created_by = owner_id")
    op.create_table(
        "septet_chat",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["septet_tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_septet_chat_table_id", "septet_chat", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_septet_chat_table_id", table_name="septet_chat")
    op.drop_table("septet_chat")
    op.drop_index("ix_septet_tables_created_by_status", table_name="septet_tables")
    with op.batch_alter_table("septet_tables") as batch:
        batch.drop_column("to_move")
        batch.drop_column("bot_turn")
        batch.drop_column("created_by")
