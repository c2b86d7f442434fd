"""A Strong bot seat playing at Normal while its compiled search warms up (issue 27): the bot
workers of a scaled-out site store the mark on the seat, so that every server process's
players are told (the standalone server keeps it in memory).

Revision ID: 0008_seat_warming
Revises: 0007_mail_digest
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_seat_warming"
down_revision = "0007_mail_digest"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "septet_seats",
        sa.Column("warming", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("septet_seats") as batch:
        batch.drop_column("warming")
