"""The FastAPI application: REST lobby, WebSocket play, replays and the static browser client.

Endpoints (JSON; errors are ``{"error": code, "message": sentence}``):

- ``GET /api/health``, ``GET /api/games`` (games, options with their kinds, choices and help in
  both languages: see :mod:`septet.server.options`, bots offered)
- ``GET /api/config`` (the public URL for invite links)
- ``GET /api/me``, ``POST /api/guest`` (sets the ``septet_token`` cookie: the guest's secret)
- ``GET /api/tables``, ``POST /api/tables``, ``GET /api/tables/{id}``,
  ``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/leave``
- ``GET /api/tables/{id}/record`` (finished games: the record, same format as the CLI's)
- ``GET /api/tables/{id}/replay`` (finished: every step) and ``.../replay/{step}`` (the views
  after that step)
- ``WS /ws/tables/{id}`` (``?render=en|ja`` adds the engine's text rendering)
- ``/``, ``/t/{id}``, ``/r/{id}``: the browser client; ``/static/...``: its files.

A seat's view is only sent over a WebSocket whose cookie holds that seat's guest token.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from septet import games
from septet.core import GameRecord, RecordError, SeptetError, replay, replay_steps
from septet.server.config import Settings
from septet.server.live import Conn, LiveTable, LobbyError, TableManager, available_bots, event_json
from septet.server.options import describe_options
from septet.server.schemas import CLIENT_MESSAGE, GuestIn, JoinIn, TableIn
from septet.server.score.api import make_router as make_score_router
from septet.server.store import Store, TableData

log = logging.getLogger("septet.server")

COOKIE = "septet_token"
CLIENT_HEADERS = {
    # The client is our own modules only: no inline script, nothing from elsewhere.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
WEB_DIR = Path(str(resources.files("septet") / "web"))


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


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
        for key, value in scope.get("headers", []):
            if key == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _error(413, "too_large", "The request is too large.")(scope, receive, send)
                return
        declared = any(key == b"content-length" for key, _ in scope.get("headers", []))
        limited = receive
        if not declared and scope.get("method") in ("POST", "PUT", "PATCH"):
            # A body of unknown length (chunked): read it up to the limit before the app runs,
            # so an oversized one gets a 413, not a failure half-way through the app.
            buffered: list[Any] = []
            seen = 0
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    await _error(413, "too_large", "The request is too large.")(
                        scope, receive, send
                    )
                    return
                buffered.append(message)
                if not message.get("more_body"):
                    break
            pending = iter(buffered)

            async def replayed() -> Any:
                for message in pending:
                    return message
                return await receive()

            limited = replayed

        if scope.get("path", "").startswith("/static/"):
            inner = send

            async def send(message: Any) -> None:
                if message["type"] == "http.response.start":
                    headers = list(message.get("headers", []))
                    headers += [(k.lower().encode(), v.encode()) for k, v in CLIENT_HEADERS.items()]
                    message = {**message, "headers": headers}
                await inner(message)

        await self.app(scope, limited, send)


def _same_origin(origin: str, host: str | None) -> bool:
    return bool(host) and urlsplit(origin).netloc == host


def create_app(settings: Settings | None = None) -> FastAPI:
    """A server application for ``settings`` (defaults: see :class:`Settings`). The database is
    created and migrated, and live tables revived, when the application starts."""
    settings = settings or Settings()
    store = Store(settings.database_url)
    manager = TableManager(store, settings)
    identities: dict[str, tuple[str, str]] = {}
    bots_cache: dict[str, list[str]] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        revived = await manager.load()
        log.info("septet server ready: %d live tables (%s)", revived, store.engine.url.drivername)
        yield
        await manager.close()
        store.close()

    app = FastAPI(
        title="Septet",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.manager = manager
    app.state.store = store
    app.state.settings = settings
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        where = ".".join(str(x) for x in errors[0]["loc"][1:]) if errors else ""
        what = errors[0]["msg"] if errors else "invalid request"
        return _error(422, "invalid", f"{where}: {what}" if where else what)

    @app.exception_handler(LobbyError)
    async def _lobby(request: Request, exc: LobbyError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(SeptetError)
    async def _septet(request: Request, exc: SeptetError) -> JSONResponse:
        return _error(400, "invalid", str(exc))

    async def identity(token: str | None) -> tuple[str, str] | None:
        if not token or len(token) > 100:
            return None
        key = hashlib.sha256(token.encode()).hexdigest()
        found = identities.get(key)
        if found is None:
            found = await asyncio.to_thread(store.player_by_token, token)
            if found is not None:
                if len(identities) > 50_000:
                    identities.clear()
                identities[key] = found
        return found

    async def require_player(request: Request) -> tuple[str, str]:
        player = await identity(request.cookies.get(COOKIE))
        if player is None:
            raise LobbyError("no_identity", "Choose a display name first.", status=401)
        return player

    async def live(table_id: str) -> LiveTable:
        table = await manager.get_or_load(table_id[:40])
        if table is None:
            raise LobbyError("not_found", "No such table.", status=404)
        return table

    def bots_for(name: str) -> list[str]:
        if name not in bots_cache:
            bots_cache[name] = available_bots(games.get(name))
        return bots_cache[name]

    # ----- identity ------------
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "db": store.engine.url.get_backend_name(), "live": len(manager.tables)}

    @app.get("/api/config")
    async def client_config() -> dict[str, Any]:
        """What the browser client needs to know of this server: the public URL for invite
        links (empty: use the page's own address)."""
        return {"public_url": settings.public_url}

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        player = await identity(request.cookies.get(COOKIE))
        return {"player": {"id": player[0], "name": player[1]} if player else None}

    @app.post("/api/guest")
    async def guest(body: GuestIn, request: Request, response: Response) -> dict[str, Any]:
        token = request.cookies.get(COOKIE)
        player = await identity(token)
        if player is not None and token is not None:
            await store.write(store.rename_player, player[0], body.name)
            identities[hashlib.sha256(token.encode()).hexdigest()] = (player[0], body.name)
            return {"player": {"id": player[0], "name": body.name}}
        pid, new_token = await store.write(store.create_player, body.name)
        response.set_cookie(
            COOKIE,
            new_token,
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return {"player": {"id": pid, "name": body.name}}

    # ----- lobby ------------
    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        out = []
        for name in games.names():
            try:
                cls = games.game_class(name)
                bots = bots_for(name)
            except Exception:  # an engine not installed or broken: leave it out of the lobby
                continue
            out.append(
                {
                    "name": name,
                    "titles": dict(cls.titles),
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": describe_options(name, cls.options_type),
                    "bots": bots,
                }
            )
        return out

    @app.get("/api/games/{name}/rules")
    async def rules(name: str, lang: str = "en") -> dict[str, Any]:
        """The engine's rules summary (with the project's rulings) in ``lang``."""
        try:
            cls = games.game_class(name[:40])
        except SeptetError:
            raise LobbyError("not_found", "No such game.", status=404) from None
        text = cls().rules_text("ja" if lang == "ja" else "en")
        return {"game": cls.name, "lang": "ja" if lang == "ja" else "en", "text": text}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        live_tables = list(manager.tables.values())
        finished = await asyncio.to_thread(store.finished_tables, 30)
        return {
            "open": [t.summary() for t in live_tables if t.status == "waiting"],
            "playing": [t.summary() for t in live_tables if t.status == "playing"],
            "finished": [_finished_summary(d) for d in finished],
        }

    @app.post("/api/tables")
    async def create_table(body: TableIn, request: Request) -> dict[str, Any]:
        owner = await require_player(request)
        # An empty value (a cleared form field) means "the default": leave the option out.
        options = {
            k: v for k, v in body.options.items() if not (isinstance(v, str) and not v.strip())
        }
        try:
            game = games.get(body.game, **options)
        except SeptetError as exc:
            raise LobbyError("bad_game", str(exc), status=400) from None
        n = len(body.seats)
        try:
            game.check_num_players(n)
        except SeptetError as exc:
            raise LobbyError("bad_seats", str(exc), status=400) from None
        offered = bots_for(game.name)
        bots: list[str | None] = []
        for s in body.seats:
            if s.kind == "bot":
                if s.bot not in offered:
                    raise LobbyError(
                        "bad_bot",
                        f"Unknown bot {s.bot!r}; choose one of {', '.join(offered)}.",
                        status=400,
                    )
                bots.append(s.bot)
            else:
                bots.append(None)
        table = await manager.create(game, n, bots, owner if None in bots else None)
        return {**table.summary(), "invite": f"/t/{table.id}"}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        table = await live(table_id)
        player = await identity(request.cookies.get(COOKIE))
        return {**table.summary(), "my_seat": table.seat_of(player[0] if player else None)}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        player = await require_player(request)
        table = await live(table_id)
        seat = await table.join(player[0], player[1], body.seat)
        return {**table.summary(), "my_seat": seat}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        player = await require_player(request)
        table = await live(table_id)
        await table.leave(player[0])
        return {**table.summary(), "my_seat": None}

    # ----- records and replays ------------
    async def finished_data(table_id: str) -> TableData:
        data = await asyncio.to_thread(store.get_table, table_id[:40], True)
        if data is None:
            raise LobbyError("not_found", "No such table.", status=404)
        if data.status != "finished":
            # A record holds every hidden card and tile: it is published only after the end.
            raise LobbyError("not_finished", "The game is still being played.", status=409)
        return data

    def record_of(data: TableData) -> GameRecord:
        return GameRecord(
            game=data.game,
            options=data.options,
            num_players=data.num_players,
            players=[s.name or (s.bot or f"seat {s.seat}") for s in data.seats],
            actions=list(data.moves or []),
            result=data.result,
            meta={"table": data.id, "played_at": data.created_at, "source": "septet serve"},
        )

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> JSONResponse:
        data = await finished_data(table_id)
        return JSONResponse(
            record_of(data).to_json(),
            headers={"Content-Disposition": f'attachment; filename="septet-{data.id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay_all_steps(table_id: str) -> dict[str, Any]:
        data = await finished_data(table_id)

        def build() -> dict[str, Any]:
            rec = record_of(data)
            game = games.get(rec.game, **rec.options)
            steps = [
                {
                    "i": step.index + 1,
                    "seat": step.seat if step.seat >= 0 else None,
                    "a": step.text,
                    "en": game.describe_action(step.action, "en"),
                    "ja": game.describe_action(step.action, "ja"),
                    "events": [event_json(game, step.index + 1, e) for e in step.events],
                }
                for step in replay_steps(game.new_state(rec.num_players), rec.actions)
            ]
            return {
                "id": data.id,
                "game": data.game,
                "title": dict(game.titles),
                "players": rec.players,
                # who sat where, for display names as on the table page ("Bot 1 (greedy)")
                "seats": [
                    {
                        "seat": x.seat,
                        "kind": "bot" if x.bot else "human",
                        "bot": x.bot,
                        "name": x.name,
                    }
                    for x in data.seats
                ],
                "result": data.result,
                "steps": steps,
            }

        try:
            return await asyncio.to_thread(build)
        except RecordError as exc:
            raise LobbyError("corrupt", f"Damaged record: {exc}", 500) from None

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(table_id: str, step: int) -> dict[str, Any]:
        data = await finished_data(table_id)
        rec = record_of(data)
        if not 0 <= step <= len(rec.actions):
            raise LobbyError("bad_step", f"Steps go from 0 to {len(rec.actions)}.", 400)

        def build() -> dict[str, Any]:
            state = replay(rec, upto=step)
            return {
                "step": step,
                "total": len(rec.actions),
                "views": [state.view(s) for s in range(state.num_players)],
                "spectator": state.view(None),
                "scores": list(state.scores()),
            }

        try:
            return await asyncio.to_thread(build)
        except RecordError as exc:
            raise LobbyError("corrupt", str(exc), 500) from None

    # ----- real-time play ------------
    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        origin = ws.headers.get("origin")
        if origin and not _same_origin(origin, ws.headers.get("host")):
            await ws.close(code=1008)  # another site's page may not play with our cookie
            return
        table = await manager.get_or_load(table_id[:40])
        if table is None:
            await ws.close(code=4404)
            return
        player = await identity(ws.cookies.get(COOKIE))
        pid = player[0] if player else None
        lang = ws.query_params.get("render")
        conn = Conn(
            table.seat_of(pid),
            pid,
            lang if lang in ("en", "ja") else None,
            rate=settings.rate_per_second,
            burst=settings.rate_burst,
        )
        await ws.accept()
        writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
        await table.attach(conn)
        strikes = 0
        try:
            while not conn.closed:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None:
                    data = raw.get("bytes") or b""
                    text = data.decode("utf-8", "replace") if len(data) <= 65536 else "x" * 65536
                if len(text.encode("utf-8")) > settings.max_message_bytes:
                    conn.error("too_large", "Message too large; the connection is closed.")
                    conn.close()
                    break
                if not conn.allow():
                    strikes += 1
                    conn.error("rate_limited", "Too many messages; slow down.")
                    if strikes > 50:
                        conn.close()
                    continue
                try:
                    msg = CLIENT_MESSAGE.validate_json(text)
                except ValidationError as exc:
                    first = exc.errors()[0] if exc.errors() else {"msg": "invalid"}
                    conn.error("bad_message", f"Invalid message: {first['msg']}")
                    continue
                if msg.type == "move":
                    await table.move(conn, msg.version, msg.action)
                elif msg.type == "replace":
                    await table.replace(conn, msg.seat)
                else:
                    conn.send({"type": "pong"})
        except WebSocketDisconnect:
            pass
        finally:
            await table.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)

    # ----- the browser client ------------
    index = WEB_DIR / "index.html"

    async def page(_: Request) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache", **CLIENT_HEADERS})

    app.include_router(make_score_router(CLIENT_HEADERS))  # /score, /api/score, /ws/score
    for path in ("/", "/t/{table_id}", "/r/{table_id}"):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def _finished_summary(data: TableData) -> dict[str, Any]:
    try:
        titles = dict(games.game_class(data.game).titles)
    except Exception:
        titles = {"en": data.game, "ja": data.game}
    return {
        "id": data.id,
        "game": data.game,
        "title": titles,
        "num_players": data.num_players,
        "status": data.status,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in data.seats],
        "result": data.result,
        "version": data.version,
        "created_at": data.created_at,
    }


async def _writer(ws: WebSocket, conn: Conn) -> None:
    send: Callable[[str], Awaitable[None]] = ws.send_text
    try:
        while True:
            msg = await conn.queue.get()
            if msg is None:
                break
            await send(msg)
    except Exception:  # the peer went away
        conn.closed = True
    with contextlib.suppress(Exception):
        await ws.close()
