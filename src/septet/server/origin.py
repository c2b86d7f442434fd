"""Cross-origin writes are refused in one place (DESIGN.md "Players and time").

:class:`SameOrigin` (ASGI middleware, wired once in :func:`septet.server.app.create_app`)
answers 403 ``cross_origin`` to every POST, PUT, PATCH and DELETE whose ``Origin`` (or, when a
browser sent none, ``Referer``) is not this site: the same scheme (``client_scheme``: behind a
trusted proxy, ``X-Forwarded-Proto``), host and port as the request's ``Host``, or as the
configured ``public_url``. A request with neither header is let through: browsers send
``Origin`` with every cross-origin write (and with same-origin ones too, today), so only
non-browser clients (the CLI, scripts, the tests) send none, and they carry no victim's cookie.
``Origin: null`` (a sandboxed frame, a privacy redirect) is refused. The WebSocket handshakes
ask :func:`same_origin` the same question (a browser always sends ``Origin`` there).
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_WEB_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an absolute http(s) URL or origin (ports filled in, host in
    lower case), or ``None`` for anything else (``null``, a relative URL, another scheme)."""
    try:
        parts = urlsplit(url.strip())
        scheme = _WEB_SCHEME.get(parts.scheme.lower())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return None
    if scheme is None or not host:
        return None
    return scheme, host, port or _DEFAULT_PORTS[scheme]


def site_origins(
    conn: HTTPConnection, scheme: str, public_url: str = ""
) -> set[tuple[str, str, int]]:
    """This site's origins as ``conn`` reached it: ``scheme`` + its ``Host`` header, and the
    origin of ``public_url`` when one is configured."""
    found: set[tuple[str, str, int]] = set()
    host = conn.headers.get("host")
    if host:
        mine = origin_of(f"{scheme}://{host}")
        if mine:
            found.add(mine)
    if public_url:
        configured = origin_of(public_url)
        if configured:
            found.add(configured)
    return found


def same_origin(origin: str, conn: HTTPConnection, scheme: str, public_url: str = "") -> bool:
    """Whether the ``origin`` a browser sent names this site (scheme, host and port alike).

    Args:
        origin: the ``Origin`` (or ``Referer``) header's value.
        conn: the request or WebSocket.
        scheme: how the client reached us (``http``/``https``, or ``ws``/``wss``).
        public_url: the configured public address, if any.
    """
    theirs = origin_of(origin)
    return theirs is not None and theirs in site_origins(
        conn, _WEB_SCHEME.get(scheme, scheme), public_url
    )


class SameOrigin:
    """ASGI middleware: refuse cross-origin writes with 403 ``cross_origin`` (see the module).

    Args:
        app: the application.
        services: the server's :class:`~septet.server.deps.Services` (its ``client_scheme``
            and settings).
    """

    def __init__(self, app: Any, services: Any) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method") in WRITES:
            conn = HTTPConnection(scope)
            claimed = conn.headers.get("origin") or conn.headers.get("referer")
            if claimed is not None and not same_origin(
                claimed,
                conn,
                self.services.client_scheme(conn),
                self.services.settings.public_url,
            ):
                await _refuse(send)
                return
        await self.app(scope, receive, send)


async def _refuse(send: Any) -> None:
    body = json.dumps(
        {
            "error": "cross_origin",
            "message": "This request came from another site; it was refused.",
            "message_ja": "別のサイトからのリクエストのため、受け付けませんでした。",
        },
        ensure_ascii=False,
    ).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})
