"""The mail tables (Alembic revisions 0006 and 0007).

- ``septet_mail_addresses``: one address per player, its language, whether it is confirmed,
  the SHA-256 of the confirmation token (the token itself is only in the mail), the random
  unsubscribe token every mail's link carries (it works without logging in), and the site
  address the links point at; whether it wants a daily digest instead of one mail per table
  (revision 0007) and when the last digest was queued.
- ``septet_mail_notices``: per player and table, the version and time of the last "your turn"
  mail (at most one per table per ``mail_every`` hours).
- ``septet_outbox``: every mail to send, until sent: ``pending`` (due at ``next_at``),
  ``sending`` (claimed by a process until ``next_at``; a process that died leaves it to be
  claimed again), ``sent`` or ``failed`` (after the last attempt, ``last_error`` says why).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from septet.server.db import Base, utcnow


class MailAddressRow(Base):
    """A player's e-mail address (one per player)."""

    __tablename__ = "septet_mail_addresses"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    lang: Mapped[str] = mapped_column(String(8), default="en")
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    confirm_hash: Mapped[str] = mapped_column(String(64), unique=True)
    unsub_token: Mapped[str] = mapped_column(String(64), unique=True)
    base_url: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MailNoticeRow(Base):
    """The last "your turn" mail of a player about a table."""

    __tablename__ = "septet_mail_notices"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OutboxRow(Base):
    """One mail to send (see the module's description of ``status``)."""

    __tablename__ = "septet_outbox"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
