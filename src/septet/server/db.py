"""Database models (SQLAlchemy 2) and the schema migrations (Alembic).

Five tables, all prefixed ``septet_``:

- ``septet_players``: guest identities (the secret token is stored only as its SHA-256).
- ``septet_tables``: one row per game table (game, options, seats count, status, chance seed,
  ``version`` = number of moves stored, who created it, whether a bot is to move).
- ``septet_seats``: who holds each seat (a guest or a bot spec).
- ``septet_moves``: the game record, one row per action or chance outcome in notation, keyed by
  ``(table_id, idx)`` so a move can never be stored twice at the same index: the database is
  the arbiter of moves, whichever process proposes them.
- ``septet_chat``: the table chat, plain text.

The schema is changed only by Alembic revisions (``septet/server/migrations/versions``), run on
start by :func:`migrate` under a lock (a PostgreSQL advisory lock; a file lock beside an SQLite
file), so several processes starting together do not race. The first revision is the schema that
Septet's built-in migration 1 made (recorded in ``septet_schema``); such a database is stamped
with it and upgraded in place. The models below describe the head revision; a test checks that
the two agree.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from septet.server.textcheck import guard_engine


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
    """A game table. ``status`` is ``waiting``, ``playing``, ``finished`` or ``expired`` (a
    waiting table nobody joined in time). ``updated_at`` is the last change (a join, a move);
    ``created_by`` the guest who created it (for the per-guest caps); ``to_move`` the seat to
    move and ``bot_turn`` whether it is a bot's (for the lobby, and for the sweepers that make
    sure every bot turn is taken)."""

    __tablename__ = "septet_tables"
    __table_args__ = (Index("ix_septet_tables_created_by_status", "created_by", "status"),)
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
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot_turn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)


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


class ChatRow(Base):
    """One chat message of a table: who said it (``seat``, or None for someone not seated)
    under which name, and the plain text (never HTML)."""

    __tablename__ = "septet_chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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

        guard_engine(engine)
        return engine
    # A ping before each use: a connection the server dropped (restarted, pg_terminate_backend)
    # is renewed before a player's request meets it (the store also tries a dropped move once
    # more). Unstorable text is refused before it reaches the database (textcheck).
    engine = create_engine(url, pool_size=10, max_overflow=10, pool_recycle=600,
                           pool_pre_ping=True)  # fmt: skip
    guard_engine(engine)
    return engine


# ----- migrations ------------

LEGACY_REVISION = "0001"
"""The Alembic revision equal to the schema of Septet's built-in migration 1."""

ADVISORY_LOCK_KEY = 0x5E97E7
"""The PostgreSQL advisory lock held while migrating (one migrating process per database)."""


def alembic_config(conn: Connection | None = None) -> object:
    """The Alembic ``Config`` of the server's revisions (shipped in the package); with
    ``conn``, the revisions run on that connection."""
    from alembic.config import Config

    cfg = Config()
    location = resources.files("septet.server") / "migrations"
    cfg.set_main_option("script_location", str(location))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def head_revision() -> str:
    """The newest revision this Septet knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()  # type: ignore[arg-type]
    assert head is not None
    return head


def current_revision(conn: Connection) -> str | None:
    """The revision recorded in the database: ``None`` for an empty database,
    :data:`LEGACY_REVISION` for one made by the built-in migration 1 (``septet_schema``)."""
    from alembic.migration import MigrationContext

    found = MigrationContext.configure(conn).get_current_revision()
    if found is None and inspect(conn).has_table("septet_schema"):
        row = conn.execute(text("SELECT version FROM septet_schema")).first()
        if row and int(row[0]) >= 1:
            if int(row[0]) > 1:
                raise RuntimeError(
                    f"the database schema is version {row[0]}, newer than this Septet; "
                    "upgrade Septet"
                )
            return LEGACY_REVISION
    return found


@contextlib.contextmanager
def _migration_lock(engine: Engine) -> Iterator[Connection]:
    """A connection on which to migrate, held under the database's migration lock."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": ADVISORY_LOCK_KEY})
            conn.commit()
            try:
                yield conn
            finally:
                conn.rollback()
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_LOCK_KEY})
                conn.commit()
        return
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        from filelock import FileLock

        with (
            FileLock(str(Path(database).with_name(Path(database).name + ".migrate-lock"))),
            engine.connect() as conn,
        ):
            # No cascades while a revision copies a table (SQLite's way to alter one).
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            try:
                yield conn
            finally:
                conn.rollback()
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        return
    with engine.connect() as conn:
        yield conn


def migrate(engine: Engine) -> str | None:
    """Bring the schema to the head revision under the migration lock; returns the revision
    found before (``None``: an empty database). A database made by the built-in migration 1 is
    stamped :data:`LEGACY_REVISION` first, then upgraded in place.

    Raises:
        RuntimeError: the database was written by a newer Septet (a revision unknown here).
    """
    from alembic import command
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    with _migration_lock(engine) as conn:
        before = current_revision(conn)
        conn.commit()
        script = ScriptDirectory.from_config(alembic_config())  # type: ignore[arg-type]
        if before is not None:
            try:
                script.get_revision(before)
            except CommandError:
                raise RuntimeError(
                    f"the database schema is at revision {before!r}, newer than this Septet "
                    f"(head {script.get_current_head()!r}); upgrade Septet"
                ) from None
        cfg = alembic_config(conn)
        if before == LEGACY_REVISION and not _has_alembic_version(conn):
            command.stamp(cfg, LEGACY_REVISION)  # type: ignore[arg-type]
            conn.commit()
        command.upgrade(cfg, "head")  # type: ignore[arg-type]
        conn.commit()
    return before


def _has_alembic_version(conn: Connection) -> bool:
    return inspect(conn).has_table("alembic_version")


# The score keeper's models live in their own module on this base; importing it here registers
# them wherever the schema is read (Alembic's env, the schema tests). Last: it imports Base.
from septet.server.score import models as _score_models  # noqa: E402, F401
