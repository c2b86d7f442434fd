"""Strict JSON for everything a client sends (HTTP bodies and WebSocket messages).

Python's ``json`` module reads ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON) and turns
``1e999`` into an infinite float; a game option then fails deep inside an engine. Here each of
them is a :class:`json.JSONDecodeError`, which FastAPI answers with a 422 and the WebSocket with
a ``bad_message`` error, as are integers of more than :data:`MAX_INT_DIGITS` digits, nesting
too deep to parse, and strings with a lone surrogate (``"\ud800"``: no UTF-8 text, so nothing
could store or send it on).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

MAX_INT_DIGITS = 30
"""Longest integer accepted (no Septet number needs more; Python refuses over 4,300)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits is out of range")
    return int(text)


_DECODER = json.JSONDecoder(
    parse_constant=_no_constant, parse_float=_finite_float, parse_int=_bounded_int
)


def loads(data: str | bytes) -> Any:
    """Parse strict JSON (RFC 8259 numbers only, finite, bounded).

    Raises:
        json.JSONDecodeError: not strict JSON (the message says why).
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = _DECODER.decode(text)
        if "\\u" in text:  # only an escape can make a lone surrogate
            _check_text(value)
        return value
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:  # our refusals, nesting too deep, bad UTF-8
        reason = str(exc) if isinstance(exc, ValueError) else "nested too deeply"
        raise json.JSONDecodeError(reason, "", 0) from None


def _check_text(value: Any) -> None:
    """Raise ValueError for a string (key or value) that is no UTF-8 text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a string holds a lone surrogate") from None
    elif isinstance(value, list):
        for item in value:
            _check_text(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)


class StrictRequest(Request):
    """A request whose ``json()`` is :func:`loads`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """An ``APIRoute`` whose handlers read bodies with :class:`StrictRequest` (every router of
    the server is built with ``route_class=StrictJSONRoute``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(StrictRequest(request.scope, request.receive))

        return strict_handler
