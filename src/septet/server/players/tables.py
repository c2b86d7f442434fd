"""Rematch, Play now, "My games", and the sweeps that keep the lobby true.

- Rematch (:func:`rematch`): the new table of a finished one is made once, whichever player
  and process asks first (``septet_rematches``: the old table is its primary key, inserted in
  the same transaction as the new table, so a second asker's transaction fails and reads the
  first's); the same game and options, the bots back in their seats, each person's seat offered
  to them for ``offer_seconds`` (:mod:`septet.server.players.seats`). The asker takes theirs.
- Play now (:func:`play_now`): the oldest waiting table Play now opened of that game and size
  with a free seat, else a new one; ``bots_after`` seconds after it opened, its free seats get
  Normal bots (:func:`fill_due`, run by every process; the one whose ``filled`` update matches
  seats them).
- Tables nobody is at (:func:`relieve_abandoned`): a table in play where every person has been
  gone ``replace_after`` seconds gets bots in their seats (as a player could ask today), so it
  finishes and leaves the lobby's games in play; those players take the loss in the ratings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from septet import games
from septet.core import Game, SeptetError
from septet.server.db import (
    PlayNowRow,
    RematchRow,
    SeatOfferRow,
    SeatRow,
    TableRow,
    padded,
    utcnow,
)
from septet.server.levels import spec_of_level
from septet.server.live import LiveTable, LobbyError, TableManager
from septet.server.players import seats as offers_db
from septet.server.store import StaleWriteError, Store, _iso


def _not_finished() -> LobbyError:
    return LobbyError(
        "not_finished", "A rematch can only be asked for once the game is over.", 409,
        message_ja="再戦はゲームが終わってから申し込めます。",
    )  # fmt: skip


def _not_yours() -> LobbyError:
    return LobbyError(
        "not_your_table", "Only the players of this table can ask for a rematch.", 403,
        message_ja="再戦を申し込めるのは、このテーブルで遊んだプレイヤーだけです。",
    )  # fmt: skip


def rematch_of(store: Store, table_id: str) -> str | None:
    """The id of the rematch of ``table_id``, if made."""
    with store._session() as s:
        row = s.get(RematchRow, table_id)
        return row.new_table_id if row else None


def _create_rematch(store: Store, old: LiveTable, asker: str, offer_seconds: float) -> str:
    """Insert the new table, its seats, the offers and the rematch row in one transaction;
    returns the new table's id (the one another asker made first, if so)."""
    new_id = secrets.token_urlsafe(9)
    now = utcnow()
    until = now + timedelta(seconds=offer_seconds)
    try:
        with store._session.begin() as s:
            s.add(RematchRow(old_table_id=old.id, new_table_id=new_id, created_at=now))
            s.flush()  # the guard: a second asker fails here
            s.add(TableRow(
                id=new_id, game=old.game.name, options=json.dumps(old.options),
                num_players=old.num_players, status="waiting", seed=secrets.token_hex(16),
                owner_id=asker, version=0, created_by=asker, created_at=now, updated_at=now,
                **old.pace.to_json(),  # a turn-based table's rematch is turn-based (issue 28)
            ))  # fmt: skip
            s.flush()
            for x in old.seats:
                person = x.player_id is not None
                s.add(SeatRow(table_id=new_id, seat=x.seat, player_id=None,
                              name="" if person else (x.bot or ""),
                              bot=None if person else x.bot, replaced=False))  # fmt: skip
                if person and x.player_id != asker:
                    s.add(SeatOfferRow(table_id=new_id, seat=x.seat, player_id=x.player_id,
                                       name=x.name, expires_at=until))  # fmt: skip
    except IntegrityError:
        found = rematch_of(store, old.id)
        if found is None:
            raise
        return found
    return new_id


async def rematch(
    manager: TableManager, old: LiveTable, player_id: str, name: str, offer_seconds: float
) -> LiveTable:
    """The rematch of the finished table ``old`` for ``player_id`` (made now if nobody asked
    yet); the asker takes their seat there if it is still theirs or free.

    Raises:
        LobbyError: ``not_finished`` (409) the game is not over; ``not_your_table`` (403) the
            asker did not sit at ``old``.
    """
    if old.status != "finished":
        raise _not_finished()
    seat = old.seat_of(player_id)
    if seat is None:
        raise _not_yours()
    store = manager.store
    new_id = await asyncio.to_thread(rematch_of, store, old.id)
    if new_id is None:
        new_id = await store.write(_create_rematch, store, old, player_id, offer_seconds)
    table = await manager.get_or_load(new_id)
    if table is None:  # removed by hand meanwhile
        raise LobbyError("not_found", "No such table.", status=404,
                         message_ja="そのテーブルはありません。")  # fmt: skip
    if table.status == "waiting" and table.seat_of(player_id) is None:
        free = table.seats[seat].player_id is None and table.seats[seat].bot is None
        # The seat may have gone to someone once the offer ran out: then the first free one,
        # or none (they watch).
        with contextlib.suppress(LobbyError):
            await table.join(player_id, name, seat if free else None)
    return table


async def decline(manager: TableManager, table: LiveTable, player_id: str) -> None:
    """Turn down the seat a rematch offered: it becomes a free seat at once.

    Raises:
        LobbyError: ``no_offer`` (409) no live offer to this player at ``table``.
    """
    if not await asyncio.to_thread(offers_db.decline, manager.store, table.id, player_id):
        raise LobbyError(
            "no_offer", "No seat is being kept for you at this table.", 409,
            message_ja="このテーブルにあなたのための席はありません。",
        )  # fmt: skip
    table.broadcast()
    await manager.seats_changed(table)


# ----- play now ------------
def _check_game(name: str, players: int) -> Game[Any]:
    try:
        game = games.get(name)
        game.check_num_players(players)
    except SeptetError as exc:
        raise LobbyError("bad_game", str(exc), status=400,
                         message_ja="そのゲームと人数では遊べません。") from None  # fmt: skip
    return game


def _open_play_now(store: Store, game: str, players: int) -> list[str]:
    with store._session() as s:
        return list(s.scalars(
            select(PlayNowRow.table_id)
            .join(TableRow, TableRow.id == PlayNowRow.table_id)
            .where(PlayNowRow.game == game, PlayNowRow.num_players == players,
                   PlayNowRow.filled.is_(False), TableRow.status == "waiting")
            .order_by(PlayNowRow.created_at, PlayNowRow.table_id).limit(20)
        ).all())  # fmt: skip


def _add_play_now(store: Store, table_id: str, game: str, players: int, bots_after: float) -> None:
    now = utcnow()
    with store._session.begin() as s:
        s.add(PlayNowRow(table_id=table_id, game=game, num_players=players,
                         fill_at=now + timedelta(seconds=bots_after), filled=False,
                         created_at=now))  # fmt: skip


async def play_now(
    manager: TableManager,
    player_id: str,
    name: str,
    game_name: str,
    players: int,
    bots_after: float,
) -> tuple[LiveTable, int]:
    """Seat the player at the oldest waiting Play now table of ``game_name`` for ``players``
    (the one they already sit at, if any), or open one whose free seats get Normal bots after
    ``bots_after`` seconds. Returns the table and the seat.

    Raises:
        LobbyError: ``bad_game`` (400); the caps of :meth:`TableManager.create` (429).
    """
    game = _check_game(game_name, players)
    store = manager.store
    for tid in await asyncio.to_thread(_open_play_now, store, game.name, players):
        table = await manager.get_or_load(tid)
        if table is None or table.status != "waiting":
            continue
        seat = table.seat_of(player_id)
        if seat is not None:
            return table, seat
        try:
            return table, await table.join(player_id, name)
        except LobbyError:
            continue  # full, or started meanwhile: the next one
    table = await manager.create(game, players, [None] * players, (player_id, name),
                                 created_by=player_id)  # fmt: skip
    await store.write(_add_play_now, store, table.id, game.name, players, bots_after)
    return table, 0


def _due(store: Store) -> list[str]:
    """Play now tables whose time to fill has come, each claimed by this call (exactly one
    caller gets each)."""
    now = utcnow()
    with store._session.begin() as s:
        ids = s.scalars(select(PlayNowRow.table_id).where(
            PlayNowRow.filled.is_(False), PlayNowRow.fill_at <= now).limit(50)).all()  # fmt: skip
        mine = []
        for tid in ids:
            done = s.execute(
                update(PlayNowRow)
                .where(PlayNowRow.table_id == tid, PlayNowRow.filled.is_(False))
                .values(filled=True)
            )
            if int(done.rowcount):  # type: ignore[attr-defined]
                mine.append(tid)
        return mine


async def fill_due(manager: TableManager) -> int:
    """Seat Normal bots at the Play now tables due (this process's share); returns how many
    tables got bots."""
    count = 0
    for tid in await manager.store.write(_due, manager.store):
        table = await manager.get_or_load(tid)
        if table is None or table.status != "waiting":
            continue
        spec = spec_of_level("normal", table.game) or "random"
        async with table.lock:
            if not await asyncio.to_thread(offers_db.seat_bots, manager.store, table.id, spec):
                continue
            await table.reload()
            if all(s.player_id is not None or s.bot is not None for s in table.seats):
                try:
                    await table._start()  # the table's own deal, lock held
                except StaleWriteError:
                    await table.reload()
            table.broadcast()
        await manager.seats_changed(table)
        table.schedule_bot()
        count += 1
    return count


# ----- tables nobody is at ------------
async def relieve_abandoned(manager: TableManager) -> int:
    """Hand the seats of every table in play here whose people have all been gone
    ``replace_after`` seconds to the replacement bot; returns how many tables."""
    count = 0
    now = time.monotonic()
    wait = manager.settings.replace_after
    for table in list(manager.tables.values()):
        people = [s for s in table.seats if s.player_id is not None and not s.replaced]
        if table.status != "playing" or not people:
            continue
        for s in people:  # never connected here: gone from now on, as far as known here
            if not table.connected(s.seat):
                table.gone_since.setdefault(s.seat, now)
        if any(table.connected(s.seat) or now - table.gone_since.get(s.seat, now) < wait
               for s in people):  # fmt: skip
            continue
        if any([await manager.present_elsewhere(table, s.seat) for s in people]):
            continue
        async with table.lock:
            if table.status != "playing":
                continue
            spec = manager.replacement_bot(table.game)
            for s in people:
                s.bot, s.replaced = spec, True
                await manager.store.write(manager.store.save_seat, table.id, s,
                                          bot_turn=table.to_move == s.seat)  # fmt: skip
            table.broadcast()
        await manager.seats_changed(table)
        table.schedule_bot()
        count += 1
    return count


# ----- my games ------------
def my_games(store: Store, player_id: str) -> dict[str, Any]:
    """The player's tables: ``{"playing": [...], "waiting": [...], "finished": [...],
    "offers": [...]}``, each ``{"id", "game", "title", "status", "seats", "my_seat", "at"}``
    (finished: the 20 newest; offers: waiting tables keeping a seat for them)."""
    from septet.server.players.profiles import _game_of, _seats_of, _titles, seat_json

    with store._session() as s:
        rows = s.execute(
            select(TableRow, SeatRow.seat)
            .join(SeatRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.player_id == player_id,
                   TableRow.status.in_(("waiting", "playing", "finished")))
            .order_by(TableRow.updated_at.desc(), TableRow.id).limit(300)
        ).all()  # fmt: skip
        offered = offers_db.offers_to(store, player_id)
        offer_ids = padded(tid for tid, _ in offered)
        offer_rows = {t.id: t for t in s.scalars(select(TableRow).where(
            TableRow.id.in_(offer_ids))).all()} if offered else {}  # fmt: skip
        seats = _seats_of(s, [t.id for t, _ in rows] + list(offer_rows))
    out: dict[str, list[dict[str, Any]]] = {"playing": [], "waiting": [], "finished": [],
                                            "offers": []}  # fmt: skip

    def item(t: TableRow, seat: int | None) -> dict[str, Any]:
        game = _game_of(t.game, t.options)
        return {"id": t.id, "game": t.game, "title": _titles(t.game), "status": t.status,
                "seats": [seat_json(x, game) for x in sorted(seats.get(t.id, []),
                                                             key=lambda x: x.seat)],
                "my_seat": seat, "at": _iso(t.updated_at)}  # fmt: skip

    for t, seat in rows:
        section = out[t.status]
        if t.status != "finished" or len(section) < 20:
            section.append(item(t, seat))
    for tid, seat in offered:
        if tid in offer_rows:
            out["offers"].append(item(offer_rows[tid], None) | {"offered_seat": seat})
    return out
