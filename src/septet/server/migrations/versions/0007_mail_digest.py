"""The daily digest of turn-based tables' mail (issue 28): whether an address wants one mail a
day listing every table waiting for it (instead of one mail per table), and when the last one
was queued.

Revision ID: 0007_mail_digest
Revises: 0006_turn_based
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_mail_digest"
down_revision = "0006_turn_based"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "septet_mail_addresses",
        sa.Column("digest", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "septet_mail_addresses",
        sa.Column("digest_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    with op.batch_alter_table("septet_mail_addresses") as batch:
        batch.drop_column("digest_at")
        batch.drop_column("digest")
