"""Turn-based tables: their options, when a move is due, and the database queries of the
deadlines (on :class:`~septet.server.store.Store`'s engine).

A table's *pace* is ``live`` (the default: a player gone for ``replace_after`` seconds may be
handed to a bot by the others) or ``turn-based``: nobody is replaced for being away, and each
move due from a person has a deadline ``turn_hours`` after the position arose, stored on the
table's row (``septet_tables.deadline``) in the same transaction as the steps that led to it.
At the deadline, whichever process or worker sees it first plays the table's policy
(``on_timeout``) through the same versioned step as any move (:mod:`septet.server.steps`,
:meth:`Store.append_moves`), so the others are refused as stale and it happens exactly once:

- ``move`` (the default): a Normal bot makes that one move; the seat stays the player's.
- ``replace``: the same at the first missed deadline; at the second, a Normal bot takes the
  seat for the rest of the game.

Every move made at a deadline is logged in ``septet_timeouts`` and counted on the seat
(``missed``), so every seat's view can say so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, and_, select, update
from sqlalchemy.orm import Session

from septet.core import Game
from septet.server.db import SeatRow, TableRow
from septet.server.store import SeatData, Store, TableData
from septet.server.turns.clock import Clock

PACES = ("live", "turn-based")
ON_TIMEOUT = ("move", "replace")
DEFAULT_TURN_HOURS = 24
MAX_TURN_HOURS = 24 * 14
"""Hours per move a turn-based table may have: 1 to two weeks."""


class PaceError(ValueError):
    """Table options of the pace that cannot be granted (``code`` ``bad_pace``, a sentence in
    English and in Japanese)."""

    def __init__(self, message: str, message_ja: str) -> None:
        super().__init__(message)
        self.code = "bad_pace"
        self.message = message
        self.message_ja = message_ja


@dataclass(frozen=True)
class TablePace:
    """A table's pace: ``pace`` (``live`` / ``turn-based``), ``turn_hours`` (hours per move, 0
    for a live table) and ``on_timeout`` (``move`` / ``replace``, see the module)."""

    pace: str = "live"
    turn_hours: int = 0
    on_timeout: str = "move"

    @property
    def turn_based(self) -> bool:
        """Whether moves have deadlines (and nobody is replaced for being away)."""
        return self.pace == "turn-based"

    @classmethod
    def of(cls, data: TableData) -> TablePace:
        """The pace of a stored table."""
        return cls(data.pace, data.turn_hours, data.on_timeout)

    @classmethod
    def parse(cls, pace: Any = None, turn_hours: Any = None, on_timeout: Any = None) -> TablePace:
        """The pace a new table asks for, from its table options (``None``: the defaults:
        live; 24 hours a move and ``move`` for a turn-based table).

        Raises:
            PaceError: an unknown pace or policy, hours that are not a whole number in 1-336,
                or hours for a live table.
        """
        pace = pace or "live"
        if turn_hours is not None and (
            isinstance(turn_hours, bool) or not isinstance(turn_hours, int)
        ):
            raise PaceError(
                f"Hours per move must be a whole number, not {turn_hours!r}.",
                f"1手あたりの時間は整数で指定してください（{turn_hours!r} ではなく）。",
            )
        if pace not in PACES:
            raise PaceError(
                f"Unknown pace {pace!r}: choose live or turn-based.",
                f"{pace!r} という進め方はありません。リアルタイムか手番制を選んでください。",
            )
        policy = on_timeout or "move"
        if policy not in ON_TIMEOUT:
            raise PaceError(
                f"Unknown policy {policy!r} for a missed deadline: choose move or replace.",
                f"期限切れの扱い {policy!r} はありません。move か replace を選んでください。",
            )
        if pace == "live":
            if turn_hours:
                raise PaceError(
                    "Hours per move are for turn-based tables only.",
                    "1手あたりの時間は手番制のテーブルだけのものです。",
                )
            return cls()
        hours = DEFAULT_TURN_HOURS if turn_hours is None else turn_hours
        if not 1 <= hours <= MAX_TURN_HOURS:
            raise PaceError(
                f"Hours per move must be between 1 and {MAX_TURN_HOURS}.",
                f"1手あたりの時間は1から{MAX_TURN_HOURS}時間までです。",
            )
        return cls("turn-based", hours, policy)

    def to_json(self) -> dict[str, Any]:
        """``{"pace", "turn_hours", "on_timeout"}``."""
        # (built here: dataclasses.asdict deep-copies field by field, 3% of a move's server
        # time, as the table summary is sent with every move)
        return {"pace": self.pace, "turn_hours": self.turn_hours, "on_timeout": self.on_timeout}

    def deadline(self, clock: Clock, to_move: int | None, bot_turn: bool) -> datetime | None:
        """The deadline of the move due after a commit: ``turn_hours`` from the clock's now when
        a person is to move at a turn-based table, else ``None``."""
        if not self.turn_based or to_move is None or bot_turn:
            return None
        return clock.now() + timedelta(hours=self.turn_hours)

    def after_timeout(self, seat: SeatData, spec: str) -> SeatData:
        """The seat once its player missed a deadline: one more ``missed``; with ``replace``,
        from the second miss on, the bot ``spec`` holds it for the rest of the game."""
        missed = seat.missed + 1
        if self.on_timeout == "replace" and missed >= 2:
            return dataclasses.replace(seat, missed=missed, bot=spec, replaced=True)
        return dataclasses.replace(seat, missed=missed)

    def keeps_bot(self, seat: SeatData) -> bool:
        """Whether a bot holds ``seat`` for the rest of the game (its player, back, does not
        take it back): a seat replaced at its second missed deadline."""
        return self.turn_based and self.on_timeout == "replace" and seat.missed >= 2


def normal_spec(game: Game[Any], fallback: str = "random") -> str:
    """The agent spec of the Normal bot of ``game`` (``fallback`` if no Normal bot plays it):
    the bot that makes the move of a missed deadline."""
    from septet.server.levels import spec_of_level

    return spec_of_level("normal", game) or fallback


def parse_time(text: str) -> datetime | None:
    """A stored ISO-8601 time, or ``None`` for ``""``."""
    if not text:
        return None
    from datetime import UTC

    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


# ----- queries ------------
def due_turns(store: Store, now: datetime, limit: int = 100) -> list[tuple[str, int]]:
    """``(table_id, version)`` of turn-based tables in play whose deadline is ``now`` or
    earlier, oldest deadline first."""
    with Session(store.engine) as s:
        rows = s.execute(
            select(TableRow.id, TableRow.version)
            .where(
                TableRow.status == "playing",
                TableRow.deadline.is_not(None),
                TableRow.deadline <= now,
            )
            .order_by(TableRow.deadline)
            .limit(limit)
        ).all()
    return [(r[0], r[1]) for r in rows]


def date_undated(store: Store, clock: Clock, limit: int = 100) -> int:
    """Give a deadline to every turn-based table in play where a person is to move and none is
    set (a commit by a Septet that did not set it): ``turn_hours`` from now, guarded by the
    version. Returns how many were dated."""
    with Session(store.engine) as s:
        rows = s.execute(
            select(TableRow.id, TableRow.version, TableRow.turn_hours)
            .where(
                TableRow.status == "playing",
                TableRow.pace == "turn-based",
                TableRow.deadline.is_(None),
                TableRow.to_move.is_not(None),
                TableRow.bot_turn.is_(False),
            )
            .limit(limit)
        ).all()
    done = 0
    tables = cast(Table, TableRow.__table__)
    with store.engine.begin() as conn:
        for tid, version, hours in rows:
            done += conn.execute(
                update(tables)
                .where(tables.c.id == tid, tables.c.version == version, tables.c.deadline.is_(None))
                .values(deadline=clock.now() + timedelta(hours=hours))
            ).rowcount
    return done


def my_turns(store: Store, player_id: str) -> list[dict[str, Any]]:
    """The tables in play where ``player_id`` holds the seat to move: ``{"id", "game",
    "options", "seat", "version", "pace", "turn_hours", "deadline"}`` (ISO-8601 or ``None``),
    those with the oldest deadline first, then the live ones, oldest change first."""
    with Session(store.engine) as s:
        rows = s.execute(
            select(
                TableRow.id,
                TableRow.game,
                TableRow.options,
                SeatRow.seat,
                TableRow.version,
                TableRow.pace,
                TableRow.turn_hours,
                TableRow.deadline,
                TableRow.updated_at,
            )
            .join(
                SeatRow,
                and_(SeatRow.table_id == TableRow.id, SeatRow.seat == TableRow.to_move),
            )
            .where(
                SeatRow.player_id == player_id,
                SeatRow.bot.is_(None),
                TableRow.status == "playing",
                TableRow.bot_turn.is_(False),
            )
            .limit(200)
        ).all()
    from septet.server.store import _iso

    out = [
        {
            "id": r[0],
            "game": r[1],
            "options": r[2],
            "seat": r[3],
            "version": r[4],
            "pace": r[5],
            "turn_hours": r[6],
            "deadline": _iso(r[7]) or None,
            "updated_at": _iso(r[8]),
        }
        for r in rows
    ]
    out.sort(key=lambda x: (x["deadline"] is None, x["deadline"] or "", x["updated_at"]))
    return out
