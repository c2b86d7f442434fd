"""What a client asks of the server before playing: health, configuration, the games (with
their options, bots and bot levels) and their rules; and what an operator asks: readiness
(``/api/ready``), the Prometheus metrics (``/metrics``), and the error answers every operation
declares in the OpenAPI schema (:func:`declare_errors`)."""

from __future__ import annotations

import asyncio
import contextlib
from functools import cache
from typing import Any

from fastapi import Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from septet import games
from septet.core import SeptetError
from septet.server.deps import ManagerDep, ServicesDep, SettingsDep, StoreDep
from septet.server.levels import levels_for
from septet.server.live import LobbyError, available_bots
from septet.server.metrics import BOT_QUEUE, LIVE_TABLES, SOCKETS, is_outage, render
from septet.server.options import TABLE_OPTIONS, describe_options
from septet.server.routes import router
from septet.server.store import Store

api = router(tags=["meta"])


@cache
def bots_for(name: str) -> tuple[str, ...]:
    """Agent specs (no parameters) that play game ``name`` (cached: it builds each bot)."""
    return tuple(available_bots(games.get(name)))


@cache
def game_entry(name: str) -> dict[str, Any]:
    """One game as ``GET /api/games`` lists it.

    Raises:
        Exception: the engine is not installed or broken (the caller leaves it out).
    """
    cls = games.game_class(name)
    return {
        "name": name,
        "titles": dict(cls.titles),
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "options": describe_options(name, cls.options_type),
        "bots": list(bots_for(name)),
        "levels": levels_for(games.get(name)),
        "table_options": TABLE_OPTIONS,
    }


@api.get("/api/health")
async def health(store: StoreDep, manager: ManagerDep) -> dict[str, Any]:
    """Whether the server answers (always ``ok``: the process is up; whether it can serve
    players is ``/api/ready``), its database kind and how many tables it holds."""
    return {"ok": True, "db": store.engine.url.get_backend_name(), "live": len(manager.tables)}


@api.get("/api/config")
async def client_config(settings: SettingsDep) -> dict[str, Any]:
    """What the browser client needs to know of this server: the public URL for invite
    links (empty: use the page's own address)."""
    return {"public_url": settings.public_url}


@api.get("/api/games")
async def list_games() -> list[dict[str, Any]]:
    """Every game: titles, player counts, options (see :mod:`septet.server.options`), the bots
    offered by spec and the bot ``levels`` (``[{"level": "easy", "spec": ...}, ...]``)."""
    out = []
    for name in games.names():
        try:
            out.append(game_entry(name))
        except Exception:  # an engine not installed or broken: leave it out of the lobby
            continue
    return out


@api.get("/api/games/{name}/rules")
async def rules(name: str, lang: str = "en") -> dict[str, Any]:
    """The engine's rules summary (with the project's rulings) in ``lang``."""
    try:
        cls = games.game_class(name[:40])
    except SeptetError:
        raise LobbyError("not_found", "No such game.", status=404,
                         message_ja="そのゲームはありません。") from None  # fmt: skip
    body = cls().rules_text("ja" if lang == "ja" else "en")
    return {"game": cls.name, "lang": "ja" if lang == "ja" else "en", "text": body}


class ErrorOut(BaseModel):
    """An error answer: a stable ``error`` code and the sentence in English (``message``) and,
    where the server has it, in Japanese (``message_ja``)."""

    error: str
    message: str
    message_ja: str | None = None


ERRORS = {
    400: "Bad input (``bad_text``: the path or query holds a character that cannot be stored; "
    "``bad_game``, ``bad_seats``, ``bad_bot``, ``invalid``)",
    401: "No guest yet (``no_identity``)",
    404: "No such table, game or step (``not_found``)",
    409: "Not possible now (``already_seated``, ``started``, ``full``, ``seat_taken``, ...)",
    413: "The request body is too large (``too_large``)",
    429: "A cap or rate reached (``too_many_open``, ``too_many_bot_tables``, ``guest_rate``)",
    503: "The database or Redis cannot be reached for a moment (``unavailable``; try again)",
}


def declare_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """Declare on every operation of the OpenAPI ``schema`` (changed in place, and returned)
    the error answers it can give: 400 and 503 everywhere (the text check, storage away), 413
    for a body, 404 for a path naming something, and 401/409/429 where the operation's
    description names them (``(409 ...`` or ``... 409)``)."""
    schema.setdefault("components", {}).setdefault("schemas", {})["ErrorOut"] = (
        ErrorOut.model_json_schema()
    )
    ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            codes = {400, 503}
            if method in ("post", "put", "patch"):
                codes.add(413)
            if "{" in path:
                codes.add(404)
            described = f"{operation.get('description', '')} {operation.get('summary', '')}"
            codes |= {c for c in (401, 404, 409, 429)
                      if f"({c}" in described or f"{c})" in described}  # fmt: skip
            answers = operation.setdefault("responses", {})
            for code in sorted(codes):
                answers.setdefault(str(code), {"description": ERRORS[code], **ref})
    return schema


@api.get("/api/ready", responses={503: {"model": ErrorOut, "description": "Not ready"}})
async def ready(svc: ServicesDep) -> JSONResponse:
    """Whether this process can serve players now: the database answers a query and, scaled
    out, Redis answers a ping and a bot worker beat within the last 15 seconds. 200
    ``{"ready": true, "checks": {...}}``, or 503 ``{"error": "not_ready", "message": why,
    "message_ja", "checks"}``."""
    checks: dict[str, bool] = {}
    reasons: list[tuple[str, str]] = []
    try:
        await asyncio.wait_for(asyncio.to_thread(_query, svc.store), 3.0)
        checks["database"] = True
    except Exception as exc:
        is_outage(exc)
        checks["database"] = False
        reasons.append(("the database does not answer", "データベースが応答しません"))
    hub = getattr(svc.manager, "hub", None)
    if hub is not None:
        checks["redis"] = await hub.ping()
        if not checks["redis"]:
            reasons.append(("Redis does not answer", "Redis が応答しません"))
        try:
            checks["bot_worker"] = await hub.workers_alive() > 0
        except Exception:
            checks["bot_worker"] = False
        if checks["redis"] and not checks["bot_worker"]:
            reasons.append(("no bot worker was heard from in 15 seconds",
                            "15秒以内に応答したボットワーカーがありません"))  # fmt: skip
    if not reasons:
        return JSONResponse({"ready": True, "checks": checks})
    body = {
        "error": "not_ready",
        "ready": False,
        "checks": checks,
        "message": "Not ready: " + "; ".join(en for en, _ in reasons) + ".",
        "message_ja": "準備ができていません: " + "、".join(ja for _, ja in reasons) + "。",
    }
    return JSONResponse(body, status_code=503)


def _query(store: Store) -> None:
    with store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


@api.get("/metrics", include_in_schema=False)
async def metrics(svc: ServicesDep) -> Response:
    """Prometheus metrics of this process (see :mod:`septet.server.metrics`)."""
    manager = svc.manager
    LIVE_TABLES.set(len(manager.tables))
    SOCKETS.set(sum(len(t.conns) for t in list(manager.tables.values())))
    hub = getattr(manager, "hub", None)
    if hub is None:
        BOT_QUEUE.set(manager.bots.asked)
    else:
        with contextlib.suppress(Exception):  # (an outage is counted and logged once)
            BOT_QUEUE.set(await hub.queue_depth())
    body, content_type = render()
    return Response(body, media_type=content_type)
