"""Logging of ``septet serve`` and ``septet bots``: plain lines or one JSON object a line
(``--log-format json``), and the access log (logger ``septet.access``).

The access log is its own stream: one line per HTTP request (method, path, status, duration,
client address) and per WebSocket (when it closes, with how long it was open), written whatever
``--log-level`` says (a site run at ``--log-level warning`` to keep its diagnostics quiet still
has its access log); ``--no-access-log`` turns it off. uvicorn's own access log is off (it
would say the same twice).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import MutableMapping
from datetime import UTC, datetime
from typing import Any

ACCESS = logging.getLogger("septet.access")

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (ISO-8601 UTC), ``level``, ``logger``, ``message``,
    the record's extra fields (an access line's ``method``, ``path``, ``status``, ``ms``,
    ``client``), and ``exc`` (the traceback) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_") and key != "color_message":
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure(level: str = "info", fmt: str = "text", access: bool = True) -> None:
    """Send every log (Septet's, uvicorn's) to stderr at ``level`` in ``fmt`` (``text`` or
    ``json``), the access log at INFO whatever ``level`` is (unless ``access`` is false)."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    from septet.server.metrics import OutageFilter

    handler.addFilter(OutageFilter())  # an outage is one line, not a traceback per attempt
    root.addHandler(handler)
    root.setLevel(level.upper().replace("TRACE", "DEBUG"))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    ACCESS.setLevel(logging.INFO if access else logging.CRITICAL + 1)
    ACCESS.propagate = False
    ACCESS.handlers = [handler] if access else []


class AccessLog:
    """ASGI middleware writing the access log (see the module): one line per request once
    its answer is sent, one per WebSocket when it closes (status 101 when it was accepted)."""

    def __init__(self, app: Any, trust_proxy: bool = False) -> None:
        self.app = app
        self.trust_proxy = trust_proxy

    def _client(self, scope: MutableMapping[str, Any]) -> str | None:
        if self.trust_proxy:
            for key, value in scope.get("headers", []):
                if key == b"x-forwarded-for" and value.strip():
                    return str(value.decode("latin-1").split(",")[0].strip()[:64])
        client = scope.get("client")
        return str(client[0]) if client else None

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or not ACCESS.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = [0]

        async def sending(message: Any) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                status[0] = message.get("status", 101)
            elif message["type"] == "websocket.close" and not status[0]:
                status[0] = message.get("code", 1000)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = self._client(scope)
            path = scope.get("path", "")[:200]
            ms = round((time.perf_counter() - began) * 1000, 1)
            method = scope.get("method", "WS")
            ACCESS.info("%s %s %s %.1f ms %s", method, path, status[0] or 500, ms, client or "-",
                        extra={"method": method, "path": path, "status": status[0] or 500,
                               "ms": ms, "client": client})  # fmt: skip
