"""The score sheets' storage (models in :mod:`.models`): synchronous reads and guarded
appends (called from worker threads, like :mod:`septet.server.store`).

A sheet is its row in ``septet_score_sheets`` and its operations in ``septet_score_ops``, one
row per operation keyed by ``(sheet_id, idx)``. :meth:`ScoreStore.append_op` stores an operation
and bumps the sheet's version only if the version is still the one the operation was made on,
in one transaction: an accepted operation is committed before anyone is told, and of two writers
on the same version exactly one wins.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import sessionmaker

from septet.server.db import utcnow
from septet.server.score.models import ScoreOpRow, ScoreSheetRow
from septet.server.score.sheet import SheetMeta
from septet.server.store import StaleWriteError


@dataclass
class StoredSheet:
    """A sheet as stored: what it is and its operations in order."""

    meta: SheetMeta
    version: int
    ops: list[Any]


class ScoreStore:
    """Reads and writes score sheets on ``engine`` (the server's; schema version 2 or later).

    Args:
        engine: the SQLAlchemy engine of the server's :class:`~septet.server.store.Store`.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)

    def create(self, game: str, options: dict[str, Any], players: list[str]) -> SheetMeta:
        """A new sheet with an unguessable id (the link is the key: 12 random bytes)."""
        sid = secrets.token_urlsafe(12)
        now = utcnow()
        with self._session.begin() as s:
            s.add(
                ScoreSheetRow(
                    id=sid,
                    game=game,
                    options=json.dumps(options),
                    players=json.dumps(players, ensure_ascii=False),
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
            )
        return SheetMeta(sid, game, options, players, now.isoformat())

    def load(self, sheet_id: str) -> StoredSheet | None:
        """A sheet with its operations, or ``None``.

        Raises:
            ValueError: a stored row that is not JSON (a damaged database).
        """
        with self._session() as s:
            row = s.get(ScoreSheetRow, sheet_id)
            if row is None:
                return None
            ops = s.scalars(
                select(ScoreOpRow.op)
                .where(ScoreOpRow.sheet_id == sheet_id)
                .order_by(ScoreOpRow.idx)
            ).all()
            meta = SheetMeta(
                row.id,
                row.game,
                json.loads(row.options),
                json.loads(row.players),
                row.created_at.isoformat() if row.created_at else "",
            )
            return StoredSheet(meta, row.version, [json.loads(o) for o in ops])

    def append_op(self, sheet_id: str, start: int, op: Any) -> None:
        """Store ``op`` at index ``start`` and bump the version to ``start + 1``.

        Raises:
            StaleWriteError: the sheet is no longer at version ``start`` (nothing is written).
        """
        now = utcnow()
        with self.engine.begin() as conn:
            bumped = conn.execute(
                update(ScoreSheetRow)
                .where(ScoreSheetRow.id == sheet_id, ScoreSheetRow.version == start)
                .values(version=start + 1, updated_at=now)
            )
            if bumped.rowcount != 1:
                raise StaleWriteError(f"sheet {sheet_id} is no longer at version {start}")
            conn.execute(
                ScoreOpRow.__table__.insert().values(  # type: ignore[attr-defined]
                    sheet_id=sheet_id,
                    idx=start,
                    op=json.dumps(op, ensure_ascii=False),
                    created_at=now,
                )
            )


__all__ = ["ScoreOpRow", "ScoreSheetRow", "ScoreStore", "StoredSheet"]
