"""The lobby: list tables (paged, filtered), create one, look at one, join and leave."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import Query, Request

from septet import games
from septet.core import Game, SeptetError
from septet.server.deps import (
    LiveTableDep,
    ManagerDep,
    OptionalPlayer,
    RequiredPlayer,
    ServicesDep,
    StoreDep,
)
from septet.server.levels import level_of, levels_for, spec_of_level
from septet.server.live import LobbyError
from septet.server.players.ratings import mark_unrated
from septet.server.routes import router
from septet.server.routes.meta import bots_for
from septet.server.schemas import JoinIn, SeatIn, TableIn
from septet.server.store import TableData
from septet.server.turns.deadlines import PaceError, TablePace

api = router(tags=["tables"])

SECTIONS = ("open", "playing", "finished")
LIVE_STATUS = {"open": "waiting", "playing": "playing"}


@api.get("/api/tables")
async def list_tables(
    manager: ManagerDep,
    store: StoreDep,
    status: Literal["open", "playing", "finished"] | None = None,
    game: Annotated[str | None, Query(max_length=40)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """The lobby: ``{"open": [...], "playing": [...], "finished": [...]}`` (each section up to
    ``limit`` tables from ``offset``), ``total`` (each section's size), ``limit`` and
    ``offset``. ``status`` keeps one section (the others are empty), ``game`` one game."""
    out: dict[str, Any] = {name: [] for name in SECTIONS}
    total = dict.fromkeys(SECTIONS, 0)
    for section, wanted in LIVE_STATUS.items():
        if status in (None, section):
            out[section], total[section] = await manager.lobby(wanted, game, limit, offset)
    if status in (None, "finished"):
        finished, total["finished"] = await asyncio.gather(
            asyncio.to_thread(store.finished_tables, min(limit, 30 if status is None else limit),
                              offset, game),
            asyncio.to_thread(store.count_tables, "finished", game),
        )  # fmt: skip
        out["finished"] = [finished_summary(d) for d in finished]
    return {**out, "total": total, "limit": limit, "offset": offset}


def _bot_spec(seat: SeatIn, game: Game[Any]) -> str:
    """The agent spec of a bot seat: a level's, or a spec the lobby offers.

    Raises:
        LobbyError: ``bad_bot`` (400).
    """
    name = seat.bot or "normal"
    spec = spec_of_level(name, game)
    if spec is not None:
        return spec
    offered = bots_for(game.name)
    levels = levels_for(game)
    if name in offered or any(name == x["spec"] for x in levels):
        return name
    names = ", ".join(x["level"] for x in levels)
    raise LobbyError(
        "bad_bot",
        f"Unknown bot {name!r}; choose a level ({names}) or one of {', '.join(offered)}.",
        status=400,
        message_ja=f"{name!r} というボットはありません。強さ（{names}）か "
        f"{', '.join(offered)} から選んでください。",
    )


def _new_game(body: TableIn) -> Game[Any]:
    # An empty value (a cleared form field) means "the default": leave the option out.
    options = {k: v for k, v in body.options.items() if not (isinstance(v, str) and not v.strip())}
    try:
        game = games.get(body.game, **options)
    except SeptetError as exc:
        raise LobbyError("bad_game", str(exc), status=400) from None
    try:
        game.check_num_players(len(body.seats))
    except SeptetError as exc:
        raise LobbyError("bad_seats", str(exc), status=400) from None
    return game


@api.post("/api/tables")
async def create_table(
    body: TableIn, manager: ManagerDep, owner: RequiredPlayer, svc: ServicesDep, request: Request
) -> dict[str, Any]:
    """A new table: the game, its options, the seats (``human``, or a bot by level or spec).
    The creator takes the first human seat; a table of bots only starts at once. The table
    option ``"rated": false`` (in ``options``) keeps the game out of the ratings; ``"pace":
    "turn-based"`` with ``turn_hours`` and ``on_timeout`` makes a turn-based table (issue 28).

    Errors: ``no_identity`` (401), ``bad_game``/``bad_seats``/``bad_bot`` (400),
    ``too_many_open``/``too_many_bot_tables`` (429: the guest's caps, or the address's),
    ``bad_pace`` (400).
    """
    rated = body.options.pop("rated", True) is not False  # a table option (issue 24)
    pace = _pace(body.options)  # table options (issue 28)
    game = _new_game(body)
    bots = [_bot_spec(s, game) if s.kind == "bot" else None for s in body.seats]
    seated = (owner.id, owner.name) if None in bots else None
    table = await manager.create(
        game, len(bots), bots, seated, created_by=owner.id, pace=pace,
        address=svc.client_address(request),
    )  # fmt: skip
    if not rated:
        await manager.store.write(mark_unrated, manager.store, table.id)
    return {**table.summary(), "invite": f"/t/{table.id}"}


def _pace(options: dict[str, Any]) -> TablePace:
    """The table options ``pace``, ``turn_hours`` and ``on_timeout`` taken out of ``options``.

    Raises:
        LobbyError: ``bad_pace`` (400).
    """
    given = [options.pop(name, None) for name in ("pace", "turn_hours", "on_timeout")]
    try:
        return TablePace.parse(*given)
    except PaceError as exc:
        raise LobbyError(exc.code, exc.message, status=400, message_ja=exc.message_ja) from None


@api.get("/api/tables/{table_id}")
async def get_table(table: LiveTableDep, player: OptionalPlayer) -> dict[str, Any]:
    """The table's public summary and the asking guest's seat (``my_seat``)."""
    return {**table.summary(), "my_seat": table.seat_of(player.id if player else None)}


@api.post("/api/tables/{table_id}/join")
async def join(table: LiveTableDep, body: JoinIn, player: RequiredPlayer) -> dict[str, Any]:
    """Take a seat (``seat``, or the first free one); the game starts when the last is taken.

    Errors: ``already_seated``, ``started``, ``expired``, ``full``, ``seat_taken`` (409).
    """
    seat = await table.join(player.id, player.name, body.seat)
    return {**table.summary(), "my_seat": seat}


@api.post("/api/tables/{table_id}/leave")
async def leave(table: LiveTableDep, player: RequiredPlayer) -> dict[str, Any]:
    """Give up one's seat before the game starts. Errors: ``not_seated``, ``started`` (409)."""
    await table.leave(player.id)
    return {**table.summary(), "my_seat": None}


def finished_summary(data: TableData) -> dict[str, Any]:
    """A finished table as the lobby lists it (from its stored row)."""
    try:
        game: Game[Any] | None = games.get(data.game, **data.options)
        titles = dict(game.titles)  # type: ignore[union-attr]
    except Exception:  # an engine no longer installed
        game, titles = None, {"en": data.game, "ja": data.game}
    return {
        "id": data.id,
        "game": data.game,
        "title": titles,
        "num_players": data.num_players,
        "status": data.status,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "level": level_of(s.bot, game) if game else None,
            }
            for s in data.seats
        ],
        "result": data.result,
        "version": data.version,
        "created_at": data.created_at,
    }
