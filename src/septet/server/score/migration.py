"""Schema revision 2: the score keeper's tables, frozen as created (explicit DDL, not the
current models, so that a later change of the models needs a revision of its own).

- ``septet_score_sheets``: one row per sheet (game, options and players as JSON, ``version`` =
  operations stored).
- ``septet_score_ops``: the sheet's operations in order, keyed by ``(sheet_id, idx)`` so an
  operation can never be stored twice at the same index (concurrent writers: one wins).
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)


def create_score_tables(conn: Connection) -> None:
    """Create ``septet_score_sheets`` and ``septet_score_ops`` (schema version 1 → 2)."""
    meta = MetaData()
    Table(
        "septet_score_sheets",
        meta,
        Column("id", String(32), primary_key=True),
        Column("game", String(64), nullable=False),
        Column("options", Text, nullable=False),
        Column("players", Text, nullable=False),
        Column("version", Integer, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("updated_at", DateTime(timezone=True), nullable=False),
    )
    Table(
        "septet_score_ops",
        meta,
        Column(
            "sheet_id",
            String(32),
            ForeignKey("septet_score_sheets.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("idx", Integer, primary_key=True),
        Column("op", Text, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
    )
    meta.create_all(conn)
