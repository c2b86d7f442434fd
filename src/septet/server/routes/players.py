"""Profiles, ratings, the leaderboard, "My games", rematches and Play now (issue 24); the
work is in :mod:`septet.server.players`."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Query
from pydantic import Field, StringConstraints

from septet import games
from septet.server.deps import LiveTableDep, ManagerDep, RequiredPlayer, SettingsDep, StoreDep
from septet.server.live import LobbyError
from septet.server.players import profiles, tables
from septet.server.routes import router
from septet.server.schemas import _Strict

api = router(tags=["players"])


class PlayNowIn(_Strict):
    """``POST /api/play-now``: the game, how many players, and after how many seconds its free
    seats get Normal bots."""

    game: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    players: Annotated[int, Field(ge=1, le=12)]
    bots_after: Annotated[float, Field(ge=0, le=600)] = 30.0


def _no_player() -> LobbyError:
    return LobbyError("not_found", "No such player.", status=404,
                      message_ja="そのプレイヤーはいません。")  # fmt: skip


@api.get("/api/players/{ref}")
async def player_profile(
    ref: Annotated[str, StringConstraints(max_length=70)], store: StoreDep
) -> dict[str, Any]:
    """A player's profile: ``ref`` is an account's name, a unique guest's name, or ``~<id>``
    (see :func:`septet.server.players.profiles.profile` for the shape). Errors: ``not_found``
    (404)."""
    row = await asyncio.to_thread(profiles.find_player, store, ref[:70])
    if row is None:
        raise _no_player()
    return await asyncio.to_thread(profiles.profile, store, row)


@api.get("/api/me/games")
async def my_games(player: RequiredPlayer, store: StoreDep) -> dict[str, Any]:
    """The asker's tables in play, waiting and finished (20 newest), and seats offered to
    them by rematches. Errors: ``no_identity`` (401)."""
    return await asyncio.to_thread(tables.my_games, store, player.id)


@api.get("/api/leaderboard/{game}")
async def leaderboard(
    game: Annotated[str, StringConstraints(max_length=40)],
    store: StoreDep,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    size: Annotated[int, Query(ge=1, le=100)] = 25,
) -> dict[str, Any]:
    """The rated players of ``game`` with enough games, best first, ``size`` a page.
    Errors: ``not_found`` (404, no such game)."""
    if game not in games.names():
        raise LobbyError("not_found", "No such game.", status=404,
                         message_ja="そのゲームはありません。")  # fmt: skip
    return await asyncio.to_thread(profiles.leaderboard, store, game, page, size)


@api.post("/api/tables/{table_id}/rematch")
async def rematch(
    table: LiveTableDep, player: RequiredPlayer, manager: ManagerDep, settings: SettingsDep
) -> dict[str, Any]:
    """``{"table": <the new table, as GET /api/tables/{id}>}``: the same new table to every
    player who asks. Errors: ``not_finished`` (409), ``not_your_table`` (403),
    ``no_identity`` (401)."""
    new = await tables.rematch(manager, table, player.id, player.name, settings.offer_seconds)
    return {"table": {**new.summary(), "my_seat": new.seat_of(player.id)}}


@api.post("/api/tables/{table_id}/decline")
async def decline(
    table: LiveTableDep, player: RequiredPlayer, manager: ManagerDep
) -> dict[str, Any]:
    """Turn down the seat a rematch keeps for the asker; it becomes free at once.
    Errors: ``no_offer`` (409)."""
    await tables.decline(manager, table, player.id)
    return {**table.summary(), "my_seat": table.seat_of(player.id)}


@api.post("/api/play-now")
async def play_now(body: PlayNowIn, player: RequiredPlayer, manager: ManagerDep) -> dict[str, Any]:
    """``{"table": <as GET /api/tables/{id}>}``: a seat at the oldest waiting Play now table of
    that game and size, or a new one whose free seats get Normal bots after ``bots_after``
    seconds. Errors: ``bad_game`` (400), ``no_identity`` (401), the caps (429)."""
    table, seat = await tables.play_now(
        manager, player.id, player.name, body.game, body.players, body.bots_after
    )
    return {"table": {**table.summary(), "my_seat": seat}}
