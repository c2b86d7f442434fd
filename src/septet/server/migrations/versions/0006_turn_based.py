"""Turn-based tables (issue 28): the table's pace, hours per move, what a missed deadline does
and the deadline of the move due; each seat's missed deadlines; the timeout log; e-mail
addresses, the "your turn" notices sent and the outbox of mails.

Revision ID: 0006_turn_based
Revises: 0005_ratings
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_turn_based"
down_revision = "0005_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (see 0002: a batch copy of septet_tables would cascade to its seats).
    op.add_column(
        "septet_tables", sa.Column("pace", sa.String(16), nullable=False, server_default="live")
    )
    op.add_column(
        "septet_tables",
        sa.Column("turn_hours", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.add_column(
        "septet_tables",
        sa.Column("on_timeout", sa.String(16), nullable=False, server_default="move"),
    )
    op.add_column("septet_tables", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_septet_tables_deadline", "septet_tables", ["deadline"])
    op.add_column(
        "septet_seats",
        sa.Column("missed", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.create_index("ix_septet_seats_player_id", "septet_seats", ["player_id"])
    _timeouts_and_mail()


def _timeouts_and_mail() -> None:
    op.create_table(
        "septet_timeouts",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["septet_tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "idx"),
    )
    op.create_table(
        "septet_mail_addresses",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=False),
        sa.Column("unsub_token", sa.String(64), nullable=False),
        sa.Column("base_url", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id"),
        sa.UniqueConstraint("confirm_hash"),
        sa.UniqueConstraint("unsub_token"),
    )
    op.create_table(
        "septet_mail_notices",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "table_id"),
    )
    op.create_table(
        "septet_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_septet_outbox_status", "septet_outbox", ["status"])


def downgrade() -> None:
    op.drop_index("ix_septet_outbox_status", table_name="septet_outbox")
    op.drop_table("septet_outbox")
    op.drop_table("septet_mail_notices")
    op.drop_table("septet_mail_addresses")
    op.drop_table("septet_timeouts")
    op.drop_index("ix_septet_seats_player_id", table_name="septet_seats")
    op.drop_index("ix_septet_tables_deadline", table_name="septet_tables")
    with op.batch_alter_table("septet_seats") as batch:
        batch.drop_column("missed")
    with op.batch_alter_table("septet_tables") as batch:
        batch.drop_column("deadline")
        batch.drop_column("on_timeout")
        batch.drop_column("turn_hours")
        batch.drop_column("pace")
