"""Synchronous data access for the server (called from worker threads by the live tables).

Every write is one transaction; :meth:`Store.append_moves` is the heart of persistence: it
stores the new moves of a table and bumps its version only if the version is still the one the
moves were made on, so an accepted move is committed before anyone is told about it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import hashlib
import json
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from queue import SimpleQueue
from typing import Any, TypeVar, cast

from sqlalchemy import Table, bindparam, delete, exists, func, insert, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from septet.core.registry import recorded_options
from septet.server.db import (
    ChatRow,
    MoveRow,
    PlayerRow,
    SeatOfferRow,
    SeatRow,
    SessionRow,
    TableRow,
    in_chunks,
    make_engine,
    migrate,
    utcnow,
)
from septet.server.metrics import DATABASE_ERRORS
from septet.server.turns.models import TimeoutRow

T = TypeVar("T")


class StaleWriteError(RuntimeError):
    """The table's stored version moved on: another writer got there first."""


class PlayerGoneError(RuntimeError):
    """The player a write is for has deleted their account meanwhile (another process may still
    trust their session for up to ``--session-cache`` seconds)."""


class CapError(RuntimeError):
    """A guest is at one of their caps (``code``: ``too_many_open`` or ``too_many_bot_tables``;
    ``limit``: the cap)."""

    def __init__(self, code: str, limit: int) -> None:
        super().__init__(f"{code} (limit {limit})")
        self.code = code
        self.limit = limit


@dataclass(frozen=True)
class ChatMessage:
    """One stored chat message: ``id`` grows with time within the database, ``at`` is
    ISO-8601 UTC, ``text`` plain text."""

    id: int
    table_id: str
    seat: int | None
    name: str
    text: str
    at: str

    def to_json(self) -> dict[str, Any]:
        """The message as clients receive it: ``{id, seat, name, text, at}``."""
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text,
                "at": self.at}  # fmt: skip


def hash_token(token: str) -> str:
    """SHA-256 hex digest of a guest token (only the digest is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatData:
    """A seat as stored: guest (``player_id``) or bot (``bot`` spec)."""

    seat: int
    player_id: str | None = None
    name: str = ""
    bot: str | None = None
    replaced: bool = False
    missed: int = 0  # deadlines missed at a turn-based table (issue 28)
    warming: bool = False  # a Strong bot played Normal's move, its search warming (issue 27)


@dataclass
class TableData:
    """A table as stored, with its seats and (when loaded) its record's notations."""

    id: str
    game: str
    options: dict[str, Any]
    num_players: int
    status: str
    seed: str
    owner_id: str | None
    version: int
    result: dict[str, Any] | None
    created_at: str
    seats: list[SeatData] = field(default_factory=list)
    moves: list[str] | None = None
    updated_at: str = ""
    created_by: str | None = None
    to_move: int | None = None
    # turn-based tables (issue 28, septet.server.turns): pace, hours per move, what a missed
    # deadline does, the deadline due (ISO-8601, "" for none), the timeout log [(idx, seat)]
    pace: str = "live"
    turn_hours: int = 0
    on_timeout: str = "move"
    deadline: str = ""
    timeouts: list[tuple[int, int]] = field(default_factory=list)


_STOP = object()


class Writers:
    """The store's writer threads: ``count`` threads taking calls from one queue in order (one
    thread, as for SQLite: the calls run one after the other in the order they were made).

    What :meth:`run` costs the event loop is a queue put and, when the call returns, one
    ``call_soon_threadsafe``: no ``concurrent.futures`` future chained to an asyncio one, as
    ``run_in_executor`` makes (bench_server.py --cprofile, docs/server.md).
    """

    def __init__(self, count: int) -> None:
        self._queue: SimpleQueue[Any] = SimpleQueue()
        self._threads = [
            threading.Thread(target=self._work, name=f"septet-db-{i}", daemon=True)
            for i in range(count)
        ]
        self._closed = False
        for t in self._threads:
            t.start()
        # Daemon threads, so that a store nobody closed does not hold the process at exit; a
        # store still open at exit runs what was queued first (as a ThreadPoolExecutor does).
        atexit.register(self.close)

    async def run(self, call: Callable[[], T]) -> T:
        """``call()`` on a writer thread; its result, or its exception raised here.

        Raises:
            RuntimeError: the writers were closed.
        """
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((call, loop, future))
        return await future

    def _work(self) -> None:
        while (item := self._queue.get()) is not _STOP:
            call, loop, future = item
            try:
                result, error = call(), None
            except BaseException as exc:  # handed to the caller's coroutine
                result, error = None, exc
            with contextlib.suppress(RuntimeError):  # (the caller's loop closed: nobody waits)
                loop.call_soon_threadsafe(_settle, future, result, error)

    def close(self) -> None:
        """Run the calls already queued, then stop the threads (waits for them). Again: nothing."""
        if self._closed:
            return
        atexit.unregister(self.close)
        self._closed = True
        for _ in self._threads:
            self._queue.put(_STOP)
        for t in self._threads:
            t.join()


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Store:
    """The server's database: open with a URL, migrate, then read and write.

    Args:
        url: SQLAlchemy URL.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time and makes the others sleep and retry: one writer
        # thread queues the commits instead (shorter tails); PostgreSQL takes several.
        # Bound parameter names start with "b_": a name equal to a column's is reserved by
        # SQLAlchemy for that column's SET value.
        t_tables = cast(Table, TableRow.__table__)
        t_moves = cast(Table, MoveRow.__table__)
        t_seats = cast(Table, SeatRow.__table__)
        tables = t_tables.c
        self._bump = (
            update(t_tables)
            .where(tables.id == bindparam("b_tid"), tables.version == bindparam("b_start"))
            .values(
                version=bindparam("b_newv"),
                updated_at=bindparam("b_now"),
                to_move=bindparam("b_to_move"),
                bot_turn=bindparam("b_bot_turn"),
                deadline=bindparam("b_deadline"),
            )
        )
        self._bump_status = self._bump.values(
            status=func.coalesce(bindparam("b_status"), tables.status),
            result=func.coalesce(bindparam("b_result"), tables.result),
        )
        # A bot worker's move: only while a bot is to move (a person who came back took the
        # seat: the worker's copy of the seats is old).
        self._bump_bot = self._bump.where(tables.bot_turn.is_(True))
        self._bump_bot_status = self._bump_status.where(tables.bot_turn.is_(True))
        self._insert_move = insert(t_moves).values(
            table_id=bindparam("b_tid"),
            idx=bindparam("b_idx"),
            notation=bindparam("b_n"),
            seat=bindparam("b_seat"),
            created_at=bindparam("b_now"),
        )
        seats = t_seats.c
        self._seat_update = (
            update(t_seats)
            .where(seats.table_id == bindparam("b_tid"), seats.seat == bindparam("b_seat"))
            .values(
                player_id=bindparam("b_player"),
                name=bindparam("b_name"),
                bot=bindparam("b_bot"),
                replaced=bindparam("b_replaced"),
                missed=bindparam("b_missed"),
            )
        )
        self._warming_update = (
            update(t_seats)
            .where(seats.table_id == bindparam("b_tid"), seats.seat == bindparam("b_seat"))
            .values(warming=bindparam("b_warm"))
        )
        self._writer = Writers(1 if url.startswith("sqlite") else 8)

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run the write method ``fn(*args, **kwargs)`` on the writer thread(s) and await it."""
        return await self._writer.run(functools.partial(fn, *args, **kwargs))

    def migrate(self) -> str | None:
        """Create/upgrade the schema under the migration lock; returns the revision found
        before (``None`` for an empty database). See :func:`septet.server.db.migrate`."""
        return migrate(self.engine)

    def close(self) -> None:
        """Stop the writer threads and release the connection pool."""
        self._writer.close()
        self.engine.dispose()

    # ----- guests ------------
    def create_player(self, name: str, user_agent: str = "") -> tuple[str, str]:
        """A new guest named ``name`` holding one new session; returns
        ``(player_id, secret_token)``."""
        token = secrets.token_urlsafe(32)
        pid = secrets.token_hex(8)
        with self._session.begin() as s:
            s.add(PlayerRow(id=pid, name=name))
            s.add(SessionRow(token_hash=hash_token(token), player_id=pid,
                             user_agent=user_agent[:64]))  # fmt: skip
        return pid, token

    def player_by_token(self, token: str) -> tuple[str, str, bool] | None:
        """``(player_id, name, is_account)`` of the player whose session holds ``token``, or
        ``None`` (no such session, or the player was deleted)."""
        with self._session() as s:
            row = s.execute(
                select(PlayerRow.id, PlayerRow.name, PlayerRow.password_hash.is_not(None))
                .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .where(SessionRow.token_hash == hash_token(token), PlayerRow.deleted_at.is_(None))
            ).first()
        return (row[0], row[1], bool(row[2])) if row else None

    def rename_player(self, player_id: str, name: str) -> None:
        """Change a guest's display name (seats already taken keep theirs)."""
        with self._session.begin() as s:
            s.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name))

    # ----- tables ------------
    def create_table(
        self, data: TableData, *, max_open: int | None = None, max_bot_tables: int | None = None
    ) -> None:
        """Insert a new table with its seats. With ``data.created_by`` and caps, first check in
        the same transaction (the guest's row locked on PostgreSQL, so two requests of one guest
        cannot both pass) that the guest has fewer than ``max_open`` waiting tables and, for a
        table of bots only (no owner seated), fewer than ``max_bot_tables`` such tables in play.

        Raises:
            CapError: a cap is reached (nothing is written).
        """
        with self._session.begin() as s:
            if data.created_by is not None:
                self._check_caps(s, data, max_open, max_bot_tables)
            s.add(
                TableRow(
                    id=data.id,
                    game=data.game,
                    options=json.dumps(data.options),
                    num_players=data.num_players,
                    status=data.status,
                    seed=data.seed,
                    owner_id=data.owner_id,
                    version=0,
                    created_by=data.created_by,
                    pace=data.pace,
                    turn_hours=data.turn_hours,
                    on_timeout=data.on_timeout,
                )
            )
            s.flush()
            for seat in data.seats:
                s.add(
                    SeatRow(
                        table_id=data.id,
                        seat=seat.seat,
                        player_id=seat.player_id,
                        name=seat.name,
                        bot=seat.bot,
                        replaced=seat.replaced,
                    )
                )

    def _check_caps(
        self, s: Session, data: TableData, max_open: int | None, max_bot_tables: int | None
    ) -> None:
        if self.engine.dialect.name == "postgresql":
            s.execute(select(PlayerRow.id).where(PlayerRow.id == data.created_by).with_for_update())
        mine = select(func.count()).where(TableRow.created_by == data.created_by)
        if max_open is not None and data.owner_id is not None:
            waiting = s.scalar(
                mine.where(TableRow.status == "waiting", TableRow.owner_id.is_not(None))
            )
            waiting = waiting or 0
            if waiting >= max_open:
                raise CapError("too_many_open", max_open)
        if max_bot_tables is not None and data.owner_id is None:
            bot_only = s.scalar(
                mine.where(TableRow.owner_id.is_(None), TableRow.status.in_(("waiting", "playing")))
            )
            if (bot_only or 0) >= max_bot_tables:
                raise CapError("too_many_bot_tables", max_bot_tables)

    def claim_seat(self, table_id: str, seat: SeatData) -> bool:
        """Give a free seat of a waiting table to ``seat.player_id``: done only if the seat is
        still free and the table still waiting (another process may have been quicker).
        Returns whether it was given."""
        now = utcnow()
        with self._session.begin() as s:
            waiting = _rowcount(
                s.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.status == "waiting")
                    .values(updated_at=now)
                )
            )
            if waiting != 1:
                return False
            done = _rowcount(
                s.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.table_id == table_id,
                        SeatRow.seat == seat.seat,
                        SeatRow.player_id.is_(None),
                        SeatRow.bot.is_(None),
                        ~_offered_to_another(table_id, seat, now),
                    )
                    .values(player_id=seat.player_id, name=seat.name)
                )
            )
            if done != 1:
                s.rollback()
                return False
        return True

    def tables_attended(self, table_ids: Sequence[str]) -> set[str]:
        """Those of ``table_ids`` somebody is at, for the lobby's games in play: a person
        still holds a seat (not handed to a bot after they left), or the table is one of bots
        only (it was never anyone's to leave)."""
        if not table_ids:
            return set()
        with self._session() as s:
            rows = [row for chunk in in_chunks(table_ids) for row in s.execute(
                select(SeatRow.table_id, SeatRow.replaced).where(
                    SeatRow.table_id.in_(chunk), SeatRow.player_id.is_not(None)
                )
            ).all()]  # fmt: skip
        people = {r[0] for r in rows}
        held = {r[0] for r in rows if not r[1]}
        return {t for t in table_ids if t not in people} | held

    def save_seat(self, table_id: str, seat: SeatData, bot_turn: bool | None = None) -> None:
        """Store a seat's holder (and note the table's change time; ``bot_turn``: whether a
        bot is to move now, if that changed)."""
        values: dict[str, Any] = {"updated_at": utcnow()}
        if bot_turn is not None:
            values["bot_turn"] = bot_turn
        with self._session.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
                .values(
                    player_id=seat.player_id,
                    name=seat.name,
                    bot=seat.bot,
                    replaced=seat.replaced,
                    missed=seat.missed,
                )
            )

    def append_moves(
        self,
        table_id: str,
        start: int,
        moves: Sequence[tuple[str, int]],
        *,
        status: str | None = None,
        result: dict[str, Any] | None = None,
        seats: Sequence[SeatData] = (),
        to_move: int | None = None,
        bot_turn: bool = False,
        by_bot: bool = False,
        deadline: datetime | None = None,
        timeout_seat: int | None = None,
        warming: Mapping[int, bool] | None = None,
    ) -> None:
        """Store ``moves`` (``(notation, seat)``; seat -1 for chance) at indices ``start`` ...,
        and optionally a new status, result and seat holders, in one transaction; ``to_move``
        and ``bot_turn`` describe the position after them (the seat to move, or ``None``, and
        whether a bot holds it). ``by_bot``: the first step is a bot's move, stored only if a
        bot is still to move. ``deadline``: the next move's (turn-based tables, else ``None``);
        ``timeout_seat``: the first step is a bot's at that seat's missed deadline (logged in
        ``septet_timeouts``; the seat's new ``missed`` count in ``seats``). ``warming``: seat ->
        whether that Strong bot's move was Normal's, its search still warming up (issue 27; the
        bot workers write it, so that every server process's players are told).

        A connection the database dropped (a restarted server, ``pg_terminate_backend``) is
        tried once more on a fresh one: the first try wrote nothing, or its commit landed,
        which the second try finds (the same steps stored at those indices) and takes as done.

        Raises:
            StaleWriteError: the stored version is not ``start`` (or, ``by_bot``, no bot is to
                move any more): nothing is written.
            sqlalchemy.exc.DBAPIError: the database failed twice (or not by a dropped
                connection).
        """
        upd, params = self._bump_for(table_id, start, len(moves), status, result, by_bot)
        params.update(b_to_move=to_move, b_bot_turn=bot_turn, b_deadline=deadline)
        for again in (False, True):
            try:
                with self.engine.begin() as conn:
                    if conn.execute(upd, params).rowcount != 1:
                        raise StaleWriteError(f"table {table_id} is no longer at version {start}")
                    self._insert_steps(conn, table_id, start, moves, params["b_now"])
                    self._write_seats(conn, table_id, seats)
                    self._write_marks(conn, table_id, start, warming, timeout_seat, params["b_now"])
                return
            except DBAPIError as exc:
                if again or not exc.connection_invalidated:
                    raise
                DATABASE_ERRORS.inc()
            except StaleWriteError:  # after a dropped commit: were these steps stored?
                if not again or self._stored_steps(table_id, start, len(moves)) != [
                    n for n, _ in moves
                ]:
                    raise
                return

    def _write_marks(
        self,
        conn: Any,
        table_id: str,
        start: int,
        warming: Mapping[int, bool] | None,
        timeout_seat: int | None,
        now: datetime,
    ) -> None:
        """The seats' warming marks and a missed deadline of :meth:`append_moves`, in ``conn``'s
        transaction."""
        for seat, warm in (warming or {}).items():
            conn.execute(self._warming_update, {"b_tid": table_id, "b_seat": seat, "b_warm": warm})
        if timeout_seat is not None:  # a turn-based table's missed deadline
            conn.execute(insert(cast(Table, TimeoutRow.__table__)),
                         {"table_id": table_id, "idx": start, "seat": timeout_seat,
                          "created_at": now})  # fmt: skip

    def _bump_for(
        self, table_id: str, start: int, count: int, status: str | None,
        result: dict[str, Any] | None, by_bot: bool,
    ) -> tuple[Any, dict[str, Any]]:  # fmt: skip
        """The prebuilt version bump of :meth:`append_moves` and its parameters (Core
        statements with bound parameters: building ORM statements for every move cost several
        times the SQLite commit itself)."""
        params: dict[str, Any] = {"b_tid": table_id, "b_start": start, "b_newv": start + count,
                                  "b_now": utcnow()}  # fmt: skip
        upd = self._bump_bot if by_bot else self._bump
        if status is not None or result is not None:
            upd = self._bump_bot_status if by_bot else self._bump_status
            params["b_status"] = status
            params["b_result"] = json.dumps(result) if result is not None else None
        return upd, params

    def _insert_steps(
        self, conn: Any, table_id: str, start: int, moves: Sequence[tuple[str, int]], now: Any
    ) -> None:
        if moves:
            rows = [{"b_tid": table_id, "b_idx": start + i, "b_n": notation, "b_seat": seat,
                     "b_now": now} for i, (notation, seat) in enumerate(moves)]  # fmt: skip
            conn.execute(self._insert_move, rows)

    def _stored_steps(self, table_id: str, start: int, count: int) -> list[str]:
        with self._session() as s:
            return list(s.scalars(
                select(MoveRow.notation).where(
                    MoveRow.table_id == table_id, MoveRow.idx >= start,
                    MoveRow.idx < start + count,
                ).order_by(MoveRow.idx)
            ).all())  # fmt: skip

    def _write_seats(self, conn: Any, table_id: str, seats: Sequence[SeatData]) -> None:
        for x in seats:
            conn.execute(
                self._seat_update,
                {"b_tid": table_id, "b_seat": x.seat, "b_player": x.player_id,
                 "b_name": x.name, "b_bot": x.bot, "b_replaced": x.replaced,
                 "b_missed": x.missed},
            )  # fmt: skip

    def _table_data(
        self, s: Session, row: TableRow, with_moves: bool, moves_from: int = 0
    ) -> TableData:
        seats = s.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
        ).all()
        moves = None
        if with_moves:
            query = select(MoveRow.notation).where(MoveRow.table_id == row.id)
            if moves_from:
                query = query.where(MoveRow.idx >= moves_from)
            moves = list(s.scalars(query.order_by(MoveRow.idx)).all())
        timeouts: list[tuple[int, int]] = []
        if row.pace != "live":
            found = s.execute(
                select(TimeoutRow.idx, TimeoutRow.seat)
                .where(TimeoutRow.table_id == row.id)
                .order_by(TimeoutRow.idx)
            ).all()
            timeouts = [(r[0], r[1]) for r in found]
        return TableData(
            id=row.id,
            game=row.game,
            options=recorded_options(row.game, json.loads(row.options or "{}"), row.num_players),
            num_players=row.num_players,
            status=row.status,
            seed=row.seed,
            owner_id=row.owner_id,
            version=row.version,
            result=json.loads(row.result) if row.result else None,
            created_at=_iso(row.created_at),
            updated_at=_iso(row.updated_at),
            created_by=row.created_by,
            to_move=row.to_move,
            pace=row.pace,
            turn_hours=row.turn_hours,
            on_timeout=row.on_timeout,
            deadline=_iso(row.deadline),
            timeouts=timeouts,
            seats=[
                SeatData(
                    seat=x.seat,
                    player_id=x.player_id,
                    name=x.name,
                    bot=x.bot,
                    replaced=x.replaced,
                    missed=x.missed,
                    warming=x.warming,
                )
                for x in seats
            ],
            moves=moves,
        )

    def get_table(
        self, table_id: str, with_moves: bool = False, moves_from: int = 0
    ) -> TableData | None:
        """One table (with its record's notations if ``with_moves``: those from index
        ``moves_from`` on), or ``None``."""
        with self._session() as s:
            row = s.get(TableRow, table_id)
            return self._table_data(s, row, with_moves, moves_from) if row else None

    def active_tables(self) -> list[TableData]:
        """Every waiting or playing table, with its moves: what a starting server revives."""
        with self._session() as s:
            rows = s.scalars(
                select(TableRow).where(TableRow.status.in_(("waiting", "playing")))
            ).all()
            return [self._table_data(s, r, True) for r in rows]

    def finished_tables(
        self, limit: int = 50, offset: int = 0, game: str | None = None
    ) -> list[TableData]:
        """The most recently finished tables (of ``game``, if given), newest first (for the
        replay list), ``limit`` of them from ``offset``."""
        with self._session() as s:
            query = select(TableRow).where(TableRow.status == "finished")
            if game is not None:
                query = query.where(TableRow.game == game)
            rows = s.scalars(
                query.order_by(TableRow.updated_at.desc(), TableRow.id).offset(offset).limit(limit)
            ).all()
            return [self._table_data(s, r, False) for r in rows]

    def tables_page(
        self, status: str, game: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[TableData]:
        """Tables with ``status`` (and ``game``), oldest first, ``limit`` from ``offset``, with
        their seats and without their moves (the lobby of several processes)."""
        with self._session() as s:
            query = select(TableRow).where(TableRow.status == status)
            if game is not None:
                query = query.where(TableRow.game == game)
            rows = s.scalars(
                query.order_by(TableRow.created_at, TableRow.id).offset(offset).limit(limit)
            ).all()
            return [self._table_data(s, r, False) for r in rows]

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` (those that exist)."""
        if not table_ids:
            return {}
        with self._session() as s:
            rows = [row for chunk in in_chunks(table_ids) for row in s.execute(
                select(TableRow.id, TableRow.version).where(TableRow.id.in_(chunk))
            ).all()]  # fmt: skip
        return {r[0]: r[1] for r in rows}

    def statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The status of each of ``table_ids`` (those that exist)."""
        if not table_ids:
            return {}
        with self._session() as s:
            rows = [row for chunk in in_chunks(table_ids) for row in s.execute(
                select(TableRow.id, TableRow.status).where(TableRow.id.in_(chunk))
            ).all()]  # fmt: skip
        return {r[0]: r[1] for r in rows}

    def count_tables(self, status: str, game: str | None = None) -> int:
        """How many tables have ``status`` (and ``game``, if given)."""
        query = select(func.count()).select_from(TableRow).where(TableRow.status == status)
        if game is not None:
            query = query.where(TableRow.game == game)
        with self._session() as s:
            return int(s.scalar(query) or 0)

    def expire_waiting(self, before: datetime) -> list[str]:
        """Mark every waiting table unchanged since ``before`` as ``expired`` (kept, out of the
        lobby); returns their ids. Guarded row by row, so a join committed meanwhile wins."""
        with self._session.begin() as s:
            ids = s.scalars(
                select(TableRow.id).where(
                    TableRow.status == "waiting", TableRow.updated_at < before
                )
            ).all()
            done = []
            for tid in ids:
                n = _rowcount(
                    s.execute(
                        update(TableRow)
                        .where(
                            TableRow.id == tid,
                            TableRow.status == "waiting",
                            TableRow.updated_at < before,
                        )
                        .values(status="expired")
                    )
                )
                if n == 1:
                    done.append(tid)
        return done

    def stalled_bot_tables(
        self, before: datetime | None, limit: int = 100
    ) -> list[tuple[str, int]]:
        """``(table_id, version)`` of tables in play where a bot has been to move since before
        ``before`` (``None``: every one): bot turns that nobody took (a worker died, a job was
        lost)."""
        query = select(TableRow.id, TableRow.version).where(
            TableRow.status == "playing", TableRow.bot_turn.is_(True)
        )
        if before is not None:
            query = query.where(TableRow.updated_at < before)
        with self._session() as s:
            rows = s.execute(query.limit(limit)).all()
        return [(r[0], r[1]) for r in rows]

    # ----- chat ------------
    def add_chat(
        self, table_id: str, seat: int | None, player_id: str | None, name: str, text: str
    ) -> ChatMessage:
        """Store one chat message; returns it with its id and time.

        Raises:
            PlayerGoneError: ``player_id`` names a deleted player (the deletion blanks the
                names of the chat lines stored before it; this keeps a later one from
                escaping it). The player's row is locked for the check (PostgreSQL), so a
                deletion running at once waits and then blanks this line too.
        """
        now = utcnow()
        with self._session.begin() as s:
            if player_id is not None:
                gone = s.execute(
                    select(PlayerRow.deleted_at).where(PlayerRow.id == player_id).with_for_update()
                ).scalar()
                if gone is not None:
                    raise PlayerGoneError(player_id)
            row = ChatRow(
                table_id=table_id, seat=seat, player_id=player_id, name=name, text=text,
                created_at=now,
            )  # fmt: skip
            s.add(row)
            s.flush()
            return ChatMessage(row.id, table_id, seat, name, text, _iso(now))

    def recent_chat(self, table_id: str, limit: int = 100) -> list[ChatMessage]:
        """The last ``limit`` chat messages of a table, oldest first."""
        with self._session() as s:
            rows = s.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
        return [
            ChatMessage(r.id, r.table_id, r.seat, r.name, r.text, _iso(r.created_at))
            for r in reversed(rows)
        ]

    def delete_table(self, table_id: str) -> None:
        """Remove a table and everything of it (tests and tools; the server never deletes)."""
        with self._session.begin() as s:
            for model in (ChatRow, MoveRow, SeatRow, TimeoutRow):
                s.execute(delete(model).where(model.table_id == table_id))
            s.execute(delete(TableRow).where(TableRow.id == table_id))

    def count_moves(self, table_id: str) -> int:
        """Number of stored moves of a table."""
        with self._session() as s:
            return int(s.scalar(select(func.count()).where(MoveRow.table_id == table_id)) or 0)


def _offered_to_another(table_id: str, seat: SeatData, now: datetime) -> Any:
    """A live rematch offer of this seat to someone else (issue 24, septet.server.players)."""
    return exists().where(
        SeatOfferRow.table_id == table_id,
        SeatOfferRow.seat == seat.seat,
        SeatOfferRow.player_id != seat.player_id,
        SeatOfferRow.expires_at > now,
    )


def _iso(when: datetime | None) -> str:
    """ISO-8601 of a stored time, always with a UTC offset (SQLite gives naive times back)."""
    if when is None:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.isoformat()


def _rowcount(result: Any) -> int:
    """Rows matched by an UPDATE run through a Session (a ``CursorResult``)."""
    return int(result.rowcount)


# ----- connections the database dropped (issue 26) ------------
def _retry_dropped(method: Callable[..., T]) -> Callable[..., T]:
    """``method`` tried again once when the database dropped its connection (the pool
    renews it): for reads, and for writes that may run twice."""

    @functools.wraps(method)
    def retried(*args: Any, **kwargs: Any) -> T:
        try:
            return method(*args, **kwargs)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            DATABASE_ERRORS.inc()
        return method(*args, **kwargs)

    return retried


for _name in ("player_by_token", "rename_player", "save_seat", "get_table", "active_tables",
              "finished_tables", "tables_page", "versions", "count_tables", "expire_waiting",
              "stalled_bot_tables", "recent_chat", "count_moves", "statuses"):  # fmt: skip
    setattr(Store, _name, _retry_dropped(getattr(Store, _name)))
