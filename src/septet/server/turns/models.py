"""The timeout log of turn-based tables (Alembic revision 0006): one row per move that a bot
made because its player let the deadline pass, keyed by ``(table_id, idx)`` like the move it
marks, so the table's view and its log can say "played by a Normal bot (time ran out)"."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from septet.server.db import Base, utcnow


class TimeoutRow(Base):
    """A move made at a missed deadline: the move's index ``idx``, the ``seat`` whose player
    missed it, and when (the clock's time)."""

    __tablename__ = "septet_timeouts"
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
