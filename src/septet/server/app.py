"""The FastAPI application: REST lobby, WebSocket play, replays and the static browser client.

Endpoints (JSON; errors are ``{"error": code, "message": sentence}``, plus ``message_ja`` where
the server has the sentence in Japanese), one router module each (:mod:`septet.server.routes`):

- ``meta``: ``GET /api/health``, ``GET /api/config`` (the public URL for invite links),
  ``GET /api/games`` (options with their kinds, choices and help in both languages, bots and bot
  levels), ``GET /api/games/{name}/rules``
- ``guests``: ``GET /api/me``, ``POST /api/guest`` (sets the ``septet_token`` cookie)
- ``accounts``: ``POST /api/account``, ``/api/login``, ``/api/logout``, ``/api/me/password``,
  ``DELETE /api/me``, ``GET /api/me/export`` (docs/accounts.md)
- ``tables``: ``GET /api/tables`` (paged, filtered), ``POST /api/tables``,
  ``GET /api/tables/{id}``, ``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/leave``
- ``replays``: ``GET /api/tables/{id}/record``, ``.../replay``, ``.../replay/{step}``
- ``play``: ``WS /ws/tables/{id}``
- ``client``: ``/``, ``/t/{id}``, ``/r/{id}``; ``/static/...``: the client's files.

Request bodies and WebSocket messages are strict JSON (:mod:`septet.server.strictjson`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from septet.core import SeptetError
from septet.server import players
from septet.server.accounts import install as install_accounts
from septet.server.config import Settings
from septet.server.deps import Services
from septet.server.live import LobbyError, TableManager
from septet.server.metrics import install as install_operations
from septet.server.routes import all_routers
from septet.server.routes.client import CLIENT_HEADERS, WEB_DIR
from septet.server.store import Store
from septet.server.turns import background as turns_background

log = logging.getLogger("septet.server")


def _error(status: int, code: str, message: str, message_ja: str | None = None) -> JSONResponse:
    body = {"error": code, "message": message}
    if message_ja:
        body["message_ja"] = message_ja
    return JSONResponse(body, status_code=status)


class BodyLimit:
    """ASGI middleware: refuse HTTP request bodies over ``limit`` bytes (413), and add the
    client's security headers to its static files. (Plain ASGI: Starlette's
    ``BaseHTTPMiddleware`` costs a task per request.)"""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", [])
        for key, value in headers:
            if key == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._too_large(scope, receive, send)
                return
        declared = any(key == b"content-length" for key, _ in headers)
        if not declared and scope.get("method") in ("POST", "PUT", "PATCH"):
            buffered = await self._buffer(receive)
            if buffered is None:
                await self._too_large(scope, receive, send)
                return
            if not buffered:
                return  # the client went away
            receive = _replaying(buffered, receive)
        if scope.get("path", "").startswith("/static/"):
            send = _with_client_headers(send)
        await self.app(scope, receive, send)

    async def _buffer(self, receive: Any) -> list[Any] | None:
        """A body of unknown length (chunked), read up to the limit before the app runs so an
        oversized one gets a 413, not a failure half-way through the app. ``None``: too large;
        ``[]``: the client went away."""
        buffered: list[Any] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return []
            seen += len(message.get("body", b""))
            if seen > self.limit:
                return None
            buffered.append(message)
            if not message.get("more_body"):
                return buffered

    @staticmethod
    async def _too_large(scope: Any, receive: Any, send: Any) -> None:
        await _error(413, "too_large", "The request is too large.",
                     "リクエストが大きすぎます。")(scope, receive, send)  # fmt: skip


def _replaying(buffered: list[Any], receive: Any) -> Any:
    pending = iter(buffered)

    async def replayed() -> Any:
        for message in pending:
            return message
        return await receive()

    return replayed


def _with_client_headers(inner: Any) -> Any:
    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            headers += [(k.lower().encode(), v.encode()) for k, v in CLIENT_HEADERS.items()]
            message = {**message, "headers": headers}
        await inner(message)

    return send


VALIDATION_JA: dict[str, str] = {
    "": "リクエストの形式が正しくありません。",
    "missing": "「{where}」がありません。",
    "extra_forbidden": "「{where}」という項目は使えません。",
    "string_type": "「{where}」は文字列にしてください。",
    "string_too_long": "「{where}」が長すぎます。",
    "string_too_short": "「{where}」が短すぎます。",
    "int_type": "「{where}」は整数にしてください。",
    "int_parsing": "「{where}」は整数にしてください。",
    "float_type": "「{where}」は数にしてください。",
    "bool_type": "「{where}」は true か false にしてください。",
    "list_type": "「{where}」は配列にしてください。",
    "literal_error": "「{where}」の値は選べるもののどれかにしてください。",
    "model_attributes_type": "本文はJSONのオブジェクトにしてください。",
    "dict_type": "本文はJSONのオブジェクトにしてください。",
    "model_type": "本文はJSONのオブジェクトにしてください。",
}
"""Japanese sentences for pydantic's error types (``{where}``: the field's path), so that a
malformed request is refused in both languages like every other refusal (issue 24)."""


def validation_ja(error: Any, where: str) -> str:
    """The Japanese sentence for one pydantic validation ``error`` at field path ``where``."""
    kind = str(error.get("type", ""))
    if not where and kind not in ("model_attributes_type", "dict_type", "model_type"):
        return VALIDATION_JA[""]
    return VALIDATION_JA.get(kind, "「{where}」の値が正しくありません。").format(where=where)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if errors and errors[0].get("type") == "json_invalid":
            why = (errors[0].get("ctx") or {}).get("error", "")
            return _error(422, "invalid", f"The body is not strict JSON: {why}".rstrip(": "),
                          "本文が正しいJSONではありません。")  # fmt: skip
        where = ".".join(str(x) for x in errors[0]["loc"][1:]) if errors else ""
        what = errors[0]["msg"] if errors else "invalid request"
        ja = validation_ja(errors[0], where) if errors else VALIDATION_JA[""]
        return _error(422, "invalid", f"{where}: {what}" if where else what, ja)

    @app.exception_handler(LobbyError)
    async def _lobby(request: Request, exc: LobbyError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message, exc.message_ja)

    @app.exception_handler(SeptetError)
    async def _septet(request: Request, exc: SeptetError) -> JSONResponse:
        return _error(400, "invalid", str(exc))


def _manager(store: Store, settings: Settings) -> TableManager:
    """The table manager: one process with its own bot pool, or one of several on Redis."""
    if not settings.redis_url:
        return TableManager(store, settings)
    from septet.server.scale import ScaledTableManager

    return ScaledTableManager(store, settings)


def _warm_levels() -> None:
    """:func:`septet.server.levels.warm_levels`, logging (not raising) what goes wrong."""
    from septet.server.levels import warm_levels

    try:
        warm_levels()
    except Exception:  # a plug-in game that fails to build: its requests will say so
        log.exception("finding the bot levels at start failed")


def create_app(settings: Settings | None = None, routers: Iterable[APIRouter] = ()) -> FastAPI:
    """A server application for ``settings`` (defaults: see :class:`Settings`): the routers of
    :mod:`septet.server.routes`, then ``routers`` (more parts of the API). The database is
    migrated (Alembic, under a lock), live tables revived and the expiry sweeper started when
    the application starts; its :class:`~septet.server.deps.Services` are on
    ``app.state.services`` (and ``app.state.store`` / ``.manager`` / ``.settings``)."""
    settings = settings or Settings()
    store = Store(settings.database_url)
    manager = _manager(store, settings)
    players.install(manager)  # issue 24: rate each table as its game ends
    svc = Services(settings, store, manager)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        revived = await manager.load()  # starts the bot processes (before any other thread)
        # The bot levels of every game, found off the event loop: building Strong's agent the
        # first time imports the compiled kernels (seconds), which a table's creation would
        # otherwise wait for with every other request.
        levels_warm = asyncio.get_running_loop().run_in_executor(None, _warm_levels)
        sweeper = asyncio.get_running_loop().create_task(manager.sweep_forever())
        stop_turns = await turns_background.start(manager, store, settings)  # issue 28
        # Ratings, Play now's bots, tables nobody is at (issue 24).
        players_loop = asyncio.get_running_loop().create_task(players.run_forever(manager))
        sessions_loop = asyncio.get_running_loop().create_task(svc.refresh_sessions_forever())
        log.info("septet server ready: %d live tables (%s)", revived, store.engine.url.drivername)
        yield
        levels_warm.cancel()
        sessions_loop.cancel()
        players_loop.cancel()
        await stop_turns()
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        await manager.close()
        await svc.accounts.close()
        store.close()

    app = FastAPI(
        title="Septet",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.services = svc
    app.state.manager, app.state.store, app.state.settings = manager, store, settings
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    _install_error_handlers(app)
    install_operations(app, settings.trust_proxy)  # text check, access log, 503s (issue 26)
    install_accounts(app)  # the cross-origin middleware (outermost), 429 with Retry-After
    for part in [*all_routers(), *routers]:
        app.include_router(part)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app
