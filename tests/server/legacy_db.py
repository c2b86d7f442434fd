"""A verbatim copy of the database code of Septet before Alembic (main at f131ff6:
src/septet/server/db.py): the tests build "a database made by main's code" with it and check that
today's server upgrades it in place."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


class PlayerRow(Base):
    """A guest identity: a display name and the hash of its secret token."""

    __tablename__ = "septet_players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableRow(Base):
    """A game table. ``status`` is ``waiting``, ``playing`` or ``finished``."""

    __tablename__ = "septet_tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text, default="{}")  # JSON object
    num_players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    seed: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON object
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """A seat: held by a guest (``player_id``) or a bot (``bot`` = agent spec). ``replaced``
    marks a guest's seat that a bot took over while the guest was gone."""

    __tablename__ = "septet_seats"
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64), default="")
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    replaced: Mapped[bool] = mapped_column(Boolean, default=False)


class MoveRow(Base):
    """One step of a table's game record: an action (``seat`` >= 0) or a chance outcome
    (``seat`` = -1), in the game's notation."""

    __tablename__ = "septet_moves"
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    notation: Mapped[str] = mapped_column(Text)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def _migration_1(conn: Connection) -> None:
    """Schema version 1: the four tables above."""
    Base.metadata.create_all(
        conn,
        tables=[
            PlayerRow.__table__,  # type: ignore[list-item]
            TableRow.__table__,  # type: ignore[list-item]
            SeatRow.__table__,  # type: ignore[list-item]
            MoveRow.__table__,  # type: ignore[list-item]
        ],
    )


MIGRATIONS: list[Callable[[Connection], None]] = [_migration_1]
"""Schema migrations in order; ``MIGRATIONS[i]`` brings the schema from version i to i + 1."""

SCHEMA_VERSION = len(MIGRATIONS)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL journaling, foreign keys and a busy timeout
    (WAL with ``synchronous=NORMAL`` keeps every committed transaction across a killed process).
    """
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=8
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def schema_version(conn: Connection) -> int:
    """The schema version recorded in the database (0 for an empty database)."""
    if not inspect(conn).has_table("septet_schema"):
        return 0
    row = conn.execute(text("SELECT version FROM septet_schema")).first()
    return int(row[0]) if row else 0


def migrate(engine: Engine) -> int:
    """Create or upgrade the schema to :data:`SCHEMA_VERSION`; returns the version before.

    Raises:
        RuntimeError: the database was written by a newer Septet (its schema is ahead).
    """
    with engine.begin() as conn:
        if not inspect(conn).has_table("septet_schema"):
            conn.execute(text("CREATE TABLE septet_schema (version INTEGER NOT NULL)"))
            conn.execute(text("INSERT INTO septet_schema (version) VALUES (0)"))
        before = schema_version(conn)
    if before > SCHEMA_VERSION:
        raise RuntimeError(
            f"the database schema is version {before}, newer than this Septet "
            f"({SCHEMA_VERSION}); upgrade Septet"
        )
    for version in range(before, SCHEMA_VERSION):
        with engine.begin() as conn:
            MIGRATIONS[version](conn)
            conn.execute(text("UPDATE septet_schema SET version = :v"), {"v": version + 1})
    return before
