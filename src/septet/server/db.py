"""Database models (SQLAlchemy 2) and the schema migrations (Alembic).

Six tables, all prefixed ``septet_`` (and the score keeper's, in ``septet.server.score``):

- ``septet_players``: players, guests or accounts (``name_key``, argon2id ``password_hash``),
  deleted accounts kept as rows without a name (docs/accounts.md).
- ``septet_sessions``: who holds a player: one row per signed-in browser, by the SHA-256 of
  its secret token (the token itself is never stored).
- ``septet_tables``: one row per game table (game, options, seats count, status, chance seed,
  ``version`` = number of moves stored, who created it, whether a bot is to move).
- ``septet_seats``: who holds each seat (a guest or a bot spec).
- ``septet_moves``: the game record, one row per action or chance outcome in notation, keyed by
  ``(table_id, idx)`` so a move can never be stored twice at the same index: the database is
  the arbiter of moves, whichever process proposes them.
- ``septet_chat``: the table chat, plain text.
- ratings and what players do between games (issue 24, :mod:`septet.server.players`):
  ``septet_ratings``, ``septet_rating_history``, ``septet_rated_tables`` (each table rated once),
  ``septet_rematches``, ``septet_seat_offers``, ``septet_play_now``.

The schema is changed only by Alembic revisions (``septet/server/migrations/versions``), run on
start by :func:`migrate` under a lock (a PostgreSQL advisory lock; a file lock beside an SQLite
file), so several processes starting together do not race. The first revision is the schema that
Septet's built-in migration 1 made (recorded in ``septet_schema``); such a database is stamped
with it and upgraded in place. The models below describe the head revision; a test checks that
the two agree.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterable, Iterator
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TypeVar

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
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

IN_MOST = 512
"""The most values one ``IN (...)`` list of :func:`in_chunks` holds (a power of two)."""

_K = TypeVar("_K", bound=Hashable)


def padded(values: Iterable[_K]) -> list[_K]:
    """``values`` without repeats, padded to the next power-of-two length (1, 2, 4, 8, ...) by
    repeating the last value: the list of an ``IN (...)`` whose length varies with the load.
    Each length of an ``IN`` list is its own SQL text, and every pooled connection keeps a
    prepared statement per text it ran (sqlite3's cache of 128, psycopg's of 100): with the
    list's length rounded up, a query has ``log2`` as many shapes (7 up to 64 values), not one
    per length. The rows are those of the unpadded list (a repeat in ``IN`` matches nothing
    more). Empty in, empty out. Issue 26 (the server's memory under table churn)."""
    items = list(dict.fromkeys(values))
    if not items:
        return items
    size = 1 << (len(items) - 1).bit_length()
    return items + [items[-1]] * (size - len(items))


def in_chunks(values: Iterable[_K], most: int = IN_MOST) -> Iterator[list[_K]]:
    """``values`` without repeats, in lists of at most ``most`` (a power of two), each
    :func:`padded` to a power-of-two length: the lists of one ``IN (...)`` query per chunk, with
    ``log2(most) + 1`` statement shapes at most whatever the number of values. Nothing for no
    values.

    Raises:
        ValueError: ``most`` is not a power of two.
    """
    if most < 1 or most & (most - 1):
        raise ValueError(f"most must be a power of two, not {most}")
    items = list(dict.fromkeys(values))
    for start in range(0, len(items), most):
        yield padded(items[start : start + most])


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


class PlayerRow(Base):
    """A player: a guest, or an account (issue 24), or a deleted account.

    - a guest: a display ``name``; ``name_key``, ``password_hash`` and ``account_at`` are None;
    - an account: ``name_key`` (the name after NFKC and case folding, unique among accounts:
      :func:`septet.server.accounts.names.name_key`), ``password_hash`` (argon2id, PHC
      string) and ``account_at`` (when the guest became an account) are set;
    - deleted: ``deleted_at`` is set, ``name`` is ``""`` and the credentials are None; the row
      stays so that seats in others' histories still name a player ("deleted player").

    Who holds the player is in :class:`SessionRow` (one row per signed-in browser)."""

    __tablename__ = "septet_players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    name_key: Mapped[str | None] = mapped_column(
        String(128), nullable=True, unique=True, index=True
    )
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    account_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    @property
    def is_account(self) -> bool:
        """Whether this player is an account (not a guest, not deleted)."""
        return self.password_hash is not None and self.deleted_at is None


class SessionRow(Base):
    """One signed-in browser (or client) of a player: the SHA-256 hex of its secret token (the
    ``septet_token`` cookie; the token itself is never stored), when it was created and last
    seen (``last_seen_at`` is refreshed at most every few minutes), and the first 64 characters
    of its ``User-Agent``. Logging out, changing the password (the other sessions) and deleting
    the account delete these rows, which ends those sessions on every process."""

    __tablename__ = "septet_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    user_agent: Mapped[str] = mapped_column(String(64), default="", server_default="")


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
    # turn-based tables (issue 28, revision 0006): the pace, hours per move, what a missed
    # deadline does, and the deadline of the move due now (None: live, or no person to move)
    pace: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    turn_hours: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    on_timeout: Mapped[str] = mapped_column(String(16), default="move", server_default="move")
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )


class SeatRow(Base):
    """A seat: held by a guest (``player_id``) or a bot (``bot`` = agent spec). ``replaced``
    marks a guest's seat that a bot took over while the guest was gone; ``missed`` counts the
    deadlines its player let pass at a turn-based table; ``warming`` marks a Strong bot's seat
    whose last move was Normal's, its compiled search still warming up (issue 27: written by the
    bot workers of a scaled-out site, revision 0008)."""

    __tablename__ = "septet_seats"
    __table_args__ = (Index("ix_septet_seats_player_id", "player_id"),)  # issue 28: my turns
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64), default="")
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    replaced: Mapped[bool] = mapped_column(Boolean, default=False)
    missed: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))  # issue 28
    warming: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))


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


# ----- ratings, profiles, rematches, play now (issue 24; septet.server.players) ------------
class RatingRow(Base):
    """A rated player's openskill rating in one game: a person (``player_id`` = their id) or
    a bot level (``"bot:easy"``, ``"bot:normal"``, ``"bot:strong"``). ``ordinal`` is
    ``mu - 3 sigma`` (kept for the leaderboard's order); ``games``/``wins`` count rated games."""

    __tablename__ = "septet_ratings"
    __table_args__ = (Index("ix_septet_ratings_game_ordinal", "game", "ordinal"),)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistoryRow(Base):
    """One rated player's rating after one rated table (the profile's chart): ``rank`` at that
    table (1 = best), ``won``, ``left`` (the player left and a bot finished for them)."""

    __tablename__ = "septet_rating_history"
    __table_args__ = (Index("ix_septet_rating_history_player", "player_id", "game", "created_at"),)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rank: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatedTableRow(Base):
    """A table whose ratings were settled, exactly once (the primary key is the guard across
    processes): ``counted`` whether its game changed ratings (False for an unrated table, one
    of fewer than two rated players, or none of people)."""

    __tablename__ = "septet_rated_tables"
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    counted: Mapped[bool] = mapped_column(Boolean)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RematchRow(Base):
    """The rematch of a finished table: one per old table (primary key) and one old table per
    new one (unique), so every process and player gets the same new table."""

    __tablename__ = "septet_rematches"
    old_table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    new_table_id: Mapped[str] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatOfferRow(Base):
    """A seat of a waiting table kept for one player (a rematch) until ``expires_at``; after
    that, or once declined (the row removed), it is a free seat like any other."""

    __tablename__ = "septet_seat_offers"
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64), default="")
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayNowRow(Base):
    """A table opened by Play now: strangers of the same game and size are seated there, and
    at ``fill_at`` its free seats get Normal bots (``filled`` set by the one process that
    does it)."""

    __tablename__ = "septet_play_now"
    __table_args__ = (Index("ix_septet_play_now_open", "game", "num_players", "filled"),)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("septet_tables.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(64))
    num_players: Mapped[int] = mapped_column(Integer)
    fill_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    filled: Mapped[bool] = mapped_column(Boolean, default=False)
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
from septet.server.mail import models as _mail_models  # noqa: E402, F401
from septet.server.score import models as _score_models  # noqa: E402, F401
from septet.server.turns import models as _turn_models  # noqa: E402, F401
