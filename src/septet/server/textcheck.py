"""Text that cannot be stored: a NUL (PostgreSQL's text refuses it) or a lone surrogate (no
UTF-8 text). Whatever a client sends is checked before it reaches a query or storage, and
refused with a 4xx in player words (English and Japanese), never a 500:

- the path and query of every request and WebSocket: :class:`TextCheck` (400 ``bad_text``; a
  WebSocket is closed with code :data:`CLOSE_BAD_TEXT` before it opens);
- a chat message: :func:`check_text` in the table's chat;
- anything else on its way into the database (a name, an option): the engine's guard
  (:func:`guard_engine`) raises :class:`UnstorableText`, which the app answers with 400.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import unquote

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""A character no database column of Septet's can hold."""

CLOSE_BAD_TEXT = 4400
"""WebSocket close code for an address holding unstorable text."""

MESSAGE = "The text holds a character that cannot be stored (a NUL or a broken character)."
MESSAGE_JA = "保存できない文字（NUL や壊れた文字）が含まれています。"


class UnstorableText(ValueError):
    """A value on its way to the database holds a character no column can store
    (see :data:`UNSTORABLE`). ``code`` is ``bad_text``; ``message`` and ``message_ja`` the
    sentence in English and Japanese."""

    code = "bad_text"
    message = MESSAGE
    message_ja = MESSAGE_JA

    def __init__(self) -> None:
        super().__init__(MESSAGE)


def storable(text: str) -> bool:
    """Whether ``text`` holds no NUL and no lone surrogate."""
    return UNSTORABLE.search(text) is None


def check_text(text: str) -> None:
    """Raise :class:`UnstorableText` unless ``text`` is :func:`storable`."""
    if not storable(text):
        raise UnstorableText


def _check_params(params: Any) -> None:
    if isinstance(params, str):
        check_text(params)
    elif isinstance(params, dict):
        for value in params.values():
            if isinstance(value, str):
                check_text(value)
    elif isinstance(params, list | tuple):
        for value in params:
            _check_params(value)


def guard_engine(engine: Any) -> None:
    """Check every string parameter of every statement ``engine`` runs (:class:`UnstorableText`
    before the statement reaches the database: PostgreSQL would fail the transaction, and an
    SQLite site must refuse what a PostgreSQL one does)."""
    from sqlalchemy import event

    @event.listens_for(engine, "before_cursor_execute", retval=False)
    def _guard(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        _check_params(parameters)


class TextCheck:
    """ASGI middleware: refuse a request or WebSocket whose path or query holds unstorable
    text (400 ``bad_text`` with both sentences; a WebSocket closed with
    :data:`CLOSE_BAD_TEXT`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind in ("http", "websocket") and not self._clean(scope):
            if kind == "websocket":
                await send({"type": "websocket.close", "code": CLOSE_BAD_TEXT})
                return
            from fastapi.responses import JSONResponse

            body = {"error": "bad_text", "message": MESSAGE, "message_ja": MESSAGE_JA}
            await JSONResponse(body, status_code=400)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _clean(scope: MutableMapping[str, Any]) -> bool:
        if not storable(scope.get("path", "")):
            return False
        query = scope.get("query_string", b"")
        if b"%" not in query:
            return b"\x00" not in query
        return storable(unquote(query.decode("latin-1"), errors="replace"))
