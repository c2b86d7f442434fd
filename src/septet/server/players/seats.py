"""Seats kept for a player (a rematch's offers) and seats given to bots (Play now), in the
database so that every process agrees.

An offer keeps seat ``seat`` of a waiting table for ``player_id`` until ``expires_at``
(:data:`OFFER_SECONDS` after the rematch was made, the setting ``offer_seconds``): nobody else
may take it (:meth:`Store.claim_seat` checks it in the same statement), the player takes it by
asking for the rematch too, or declines it; after that it is a free seat anyone invited may
take.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select, update

from septet.server.db import SeatOfferRow, SeatRow, TableRow, utcnow
from septet.server.store import Store

OFFER_SECONDS = 60.0
"""How long a rematch keeps each old player's seat for them."""


def offers(store: Store, table_id: str, now: datetime | None = None) -> dict[int, tuple[str, str]]:
    """The live offers of a table: seat -> ``(player_id, name)``."""
    now = now or utcnow()
    with store._session() as s:
        rows = s.scalars(
            select(SeatOfferRow).where(
                SeatOfferRow.table_id == table_id, SeatOfferRow.expires_at > now
            )
        ).all()
    return {r.seat: (r.player_id, r.name) for r in rows}


def offers_to(store: Store, player_id: str, now: datetime | None = None) -> list[tuple[str, int]]:
    """``(table_id, seat)`` of the live offers made to ``player_id`` at waiting tables."""
    now = now or utcnow()
    with store._session() as s:
        rows = s.execute(
            select(SeatOfferRow.table_id, SeatOfferRow.seat)
            .join(TableRow, TableRow.id == SeatOfferRow.table_id)
            .where(
                SeatOfferRow.player_id == player_id,
                SeatOfferRow.expires_at > now,
                TableRow.status == "waiting",
            )
        ).all()
    return [(r[0], r[1]) for r in rows]


def decline(store: Store, table_id: str, player_id: str) -> bool:
    """Withdraw the offers to ``player_id`` at ``table_id`` (the seat becomes free); whether
    there was a live one."""
    now = utcnow()
    with store._session.begin() as s:
        done = s.execute(
            delete(SeatOfferRow).where(
                SeatOfferRow.table_id == table_id,
                SeatOfferRow.player_id == player_id,
                SeatOfferRow.expires_at > now,
            )
        )
        if int(done.rowcount):  # type: ignore[attr-defined]
            s.execute(update(TableRow).where(TableRow.id == table_id).values(updated_at=now))
            return True
    return False


def seat_bots(store: Store, table_id: str, spec: str) -> int:
    """Give every seat still free (no person, no bot) of a waiting table to bot ``spec``, each
    only if still free (a person may be taking one at this moment); returns how many."""
    with store._session.begin() as s:
        waiting = s.execute(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.status == "waiting")
            .values(updated_at=utcnow())
        )
        if int(waiting.rowcount) != 1:  # type: ignore[attr-defined]
            return 0
        done = s.execute(
            update(SeatRow)
            .where(
                SeatRow.table_id == table_id,
                SeatRow.player_id.is_(None),
                SeatRow.bot.is_(None),
            )
            .values(bot=spec, name=spec)
        )
        return int(done.rowcount)  # type: ignore[attr-defined]
