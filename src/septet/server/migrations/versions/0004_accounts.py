"""Accounts and sessions as rows (issue 24): a player may become an account (a unique
``name_key``, an argon2id ``password_hash``, ``account_at``), may be deleted (``deleted_at``,
name and credentials gone, the row kept so seats in others' histories stay), and holds any
number of sessions (``septet_sessions``, one per signed-in browser, by the SHA-256 of its
token). Each guest's ``token_hash`` becomes its first session, so old guests' cookies keep
working; the column leaves ``septet_players``.

Revision ID: 0004_accounts
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004_accounts"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No foreign key to septet_players (as seats and chat have none): SQLite's batch copy of
    # septet_players below would otherwise cascade into the sessions.
    op.create_table(
        "septet_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_agent", sa.String(64), nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_septet_sessions_player_id", "septet_sessions", ["player_id"])
    op.execute(
        "INSERT INTO septet_sessions (token_hash, player_id, created_at, last_seen_at,"
        " user_agent) SELECT token_hash, id, created_at, created_at, '' FROM septet_players"
    )
    op.drop_index("ix_septet_players_token_hash", table_name="septet_players")
    with op.batch_alter_table("septet_players") as batch:
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("name_key", sa.String(128), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(sa.Column("account_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    # Unique among accounts: guests (and deleted players) have NULL, which never collides.
    op.create_index("ix_septet_players_name_key", "septet_players", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_septet_players_name_key", table_name="septet_players")
    with op.batch_alter_table("septet_players") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("account_at")
        batch.drop_column("password_hash")
        batch.drop_column("name_key")
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    # Each player keeps its newest session's token; one without a session gets a random one.
    conn = op.get_bind()
    rows = conn.execute(
        sa.text(
            "SELECT p.id, (SELECT s.token_hash FROM septet_sessions s WHERE s.player_id = p.id"
            " ORDER BY s.last_seen_at DESC LIMIT 1) FROM septet_players p"
        )
    ).all()
    for pid, digest in rows:
        conn.execute(
            sa.text("UPDATE septet_players SET token_hash = :h WHERE id = :p"),
            {"h": digest or secrets.token_hex(32), "p": pid},
        )
    with op.batch_alter_table("septet_players") as batch:
        batch.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
    op.create_index("ix_septet_players_token_hash", "septet_players", ["token_hash"], unique=True)
    op.drop_index("ix_septet_sessions_player_id", table_name="septet_sessions")
    op.drop_table("septet_sessions")
