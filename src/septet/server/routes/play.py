"""Real-time play: ``WS /ws/tables/{id}``.

A connection receives its seat's ``state`` messages (see docs/server.md), ``ack`` for its moves,
``chat`` messages and ``error`` messages; it sends ``move``, ``replace``, ``chat`` and ``ping``
messages (:mod:`septet.server.schemas`), read as strict JSON with strict types. A seat's view is
only sent over a WebSocket whose cookie holds that seat's guest token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from septet.server import strictjson
from septet.server.config import Settings
from septet.server.deps import COOKIE, OptionalPlayer, Services, ServicesDep
from septet.server.live import Conn, LiveTable, LobbyError
from septet.server.origin import same_origin
from septet.server.routes import router
from septet.server.schemas import CLIENT_MESSAGE, ChatMsg, MoveMsg, ReplaceMsg

api = router(tags=["play"])

CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429


@api.websocket("/ws/tables/{table_id}")
async def ws_table(ws: WebSocket, table_id: str, svc: ServicesDep, player: OptionalPlayer) -> None:
    """One player's or spectator's connection to a table (``?render=en|ja`` adds the engine's
    text rendering to each state)."""
    origin = ws.headers.get("origin")
    if origin and not same_origin(origin, ws, svc.client_scheme(ws), svc.settings.public_url):
        await ws.close(code=1008)  # another site's page may not play with our cookie
        return
    try:
        table = await svc.manager.get_or_load(table_id[:40])
    except LobbyError:
        table = None
    if table is None:
        await ws.close(code=CLOSE_NOT_FOUND)
        return
    conn = _new_conn(ws, svc, table, player)
    await ws.accept()
    if refusal := _over_cap(svc, table, conn.key):
        await ws.send_text(json.dumps(refusal, ensure_ascii=False))
        await ws.close(code=CLOSE_TOO_MANY)
        return
    svc.sockets[conn.key] += 1
    writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
    try:
        table = await table.attach(conn)
        await _read_loop(ws, conn, table, svc.settings, _session_check(ws, svc, conn))
    except WebSocketDisconnect:
        pass
    finally:
        svc.sockets[conn.key] -= 1
        if svc.sockets[conn.key] <= 0:
            del svc.sockets[conn.key]
        # shielded: a handler cancelled (shutdown, a test client) still lets the seat go and
        # tells the other processes, instead of leaving them to find out when a claim expires
        await asyncio.shield(table.detach(conn))
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


def _new_conn(ws: WebSocket, svc: Services, table: LiveTable, player: OptionalPlayer) -> Conn:
    settings = svc.settings
    pid = player.id if player else None
    lang = ws.query_params.get("render")
    return Conn(
        table.seat_of(pid),
        pid,
        lang if lang in ("en", "ja") else None,
        rate=settings.rate_per_second,
        burst=settings.rate_burst,
        chat_burst=settings.chat_burst,
        chat_interval=settings.chat_interval,
        key=pid or f"addr:{svc.client_address(ws)}",
        name=player.name if player else "",
    )


def _over_cap(svc: Services, table: LiveTable, key: str) -> dict[str, str] | None:
    """The error that refuses one more socket of ``table`` for ``key``, or ``None``."""
    settings = svc.settings
    if len(table.conns) >= settings.max_sockets_per_table:
        return {
            "type": "error",
            "code": "too_many_sockets",
            "message": "This table has too many connections; try again later.",
            "message_ja": "このテーブルへの接続が多すぎます。しばらくしてからどうぞ。",
        }
    if svc.sockets[key] >= settings.max_sockets_per_guest:
        return {
            "type": "error",
            "code": "too_many_sockets",
            "message": "You have too many connections open; close some tabs.",
            "message_ja": "開いている接続が多すぎます。タブをいくつか閉じてください。",
        }
    return None


async def _receive_text(ws: WebSocket) -> str | None:
    """The next message as text (binary decoded as UTF-8), or ``None`` when the peer left."""
    raw = await ws.receive()
    if raw["type"] == "websocket.disconnect":
        return None
    text = raw.get("text")
    if text is None:
        data = raw.get("bytes") or b""
        text = data.decode("utf-8", "replace") if len(data) <= 65536 else "x" * 65536
    return str(text)


def _session_check(ws: WebSocket, svc: Services, conn: Conn) -> Callable[[], Awaitable[bool]]:
    """Whether the session the socket was opened with still holds its player: a socket opened
    before a logout, a password change or the account's deletion may no longer act as them
    (sessions are read again every ``session_cache_s`` seconds, so within that time across
    processes and at once on this one)."""
    token = ws.cookies.get(COOKIE)

    async def still_signed_in() -> bool:
        if conn.player_id is None:
            return True  # a spectator without a session has nothing to lose
        found = await svc.identity(token)
        return found is not None and found.id == conn.player_id

    return still_signed_in


SESSION_ENDED = "Your session has ended (signed out elsewhere?); reload the page."
SESSION_ENDED_JA = (
    "セッションが終了しました（別の場所でログアウトしましたか？）。ページを再読み込みしてください。"
)


async def _read_loop(
    ws: WebSocket,
    conn: Conn,
    table: LiveTable,
    settings: Settings,
    signed_in: Callable[[], Awaitable[bool]],
) -> None:
    """Read, check and dispatch the client's messages until it leaves or is closed; a move,
    a replacement or a chat from a socket whose session has ended closes it (``no_identity``)."""
    strikes = 0
    while not conn.closed:
        text = await _receive_text(ws)
        if text is None:
            return
        if len(text.encode("utf-8")) > settings.max_message_bytes:
            conn.error("too_large", "Message too large; the connection is closed.")
            conn.close()
            return
        if not conn.allow():
            strikes += 1
            # the message is dropped: the answer says when to send it again (issue 26)
            conn.error("rate_limited", "Too many messages; slow down.",
                       retry_after=round(conn.retry_after() + 0.01, 3))  # fmt: skip
            if strikes > 50:
                conn.close()
            continue
        try:
            msg = CLIENT_MESSAGE.validate_python(strictjson.loads(text), strict=True)
        except json.JSONDecodeError as exc:
            conn.error("bad_message", f"Invalid message: not strict JSON ({exc.msg})")
            continue
        except ValidationError as exc:
            first = exc.errors()[0] if exc.errors() else {"msg": "invalid"}
            conn.error("bad_message", f"Invalid message: {first['msg']}")
            continue
        if isinstance(msg, (MoveMsg, ReplaceMsg, ChatMsg)) and not await signed_in():
            conn.error("no_identity", SESSION_ENDED, message_ja=SESSION_ENDED_JA)
            conn.close()
            return
        if isinstance(msg, MoveMsg):
            await table.move(conn, msg.version, msg.action)
        elif isinstance(msg, ReplaceMsg):
            await table.replace(conn, msg.seat)
        elif isinstance(msg, ChatMsg):
            await table.say(conn, msg.text)
        else:
            conn.send({"type": "pong"})


async def _writer(ws: WebSocket, conn: Conn) -> None:
    """Send ``conn``'s queued messages until it is closed, then close the socket."""
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
