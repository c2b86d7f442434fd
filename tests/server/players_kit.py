"""Finished tables written straight into the database, for the tests of ratings, profiles and
rematches (issue 24): the seats and result are chosen by hand, the record left empty."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from septet.server.db import SeatRow, TableRow
from septet.server.store import Store


def finished_table(
    store: Store,
    game: str,
    seats: list[tuple[str | None, str, str | None] | tuple[str | None, str, str | None, bool]],
    scores: list[float],
    winners: list[int],
    *,
    at: int = 0,
    status: str = "finished",
) -> str:
    """A table of ``game`` with ``seats`` (``(player_id, name, bot spec[, replaced])``) and the
    result ``scores``/``winners``; ``at``: minutes after a fixed time (its finish order)."""
    tid = secrets.token_hex(6)
    when = datetime(2026, 12, 1, 12, 0, tzinfo=UTC) + timedelta(minutes=at)
    result: dict[str, Any] = {"scores": scores, "winners": winners}
    with store._session.begin() as s:
        s.add(TableRow(id=tid, game=game, options="{}", num_players=len(seats), status=status,
                       seed="0" * 32, owner_id=None, version=0,
                       result=json.dumps(result) if status == "finished" else None,
                       created_at=when, updated_at=when))  # fmt: skip
        s.flush()
        for i, x in enumerate(seats):
            pid, name, bot = x[0], x[1], x[2]
            replaced = bool(x[3]) if len(x) > 3 else False  # type: ignore[misc]
            s.add(SeatRow(table_id=tid, seat=i, player_id=pid, name=name, bot=bot,
                          replaced=replaced))  # fmt: skip
    return tid


def add_player(store: Store, name: str) -> str:
    """A guest named ``name``; returns its id."""
    pid, _ = store.create_player(name)
    return pid
