"""The score keeper's tables as SQLAlchemy models on the server's declarative base (created by
Alembic revision 0003).

- ``septet_score_sheets``: one row per sheet (game, options and players as JSON, ``version`` =
  operations stored).
- ``septet_score_ops``: the sheet's operations in order, keyed by ``(sheet_id, idx)``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from septet.server.db import Base, utcnow


class ScoreSheetRow(Base):
    """A score sheet: game, options and players (JSON), ``version`` = operations stored."""

    __tablename__ = "septet_score_sheets"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)
    players: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreOpRow(Base):
    """One operation of a sheet (JSON), at index ``idx``."""

    __tablename__ = "septet_score_ops"
    sheet_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_score_sheets.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    op: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


__all__ = ["ScoreOpRow", "ScoreSheetRow"]
