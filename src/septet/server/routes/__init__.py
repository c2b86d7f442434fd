"""The server's routers, one module per part of the API; :func:`septet.server.app.create_app`
includes every router of :data:`ROUTERS` in order. A new part of the API adds its module here
(or passes its router to ``create_app(..., routers=...)``).

Every router is built with :func:`router`, so that its bodies are read as strict JSON.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from septet.server.strictjson import StrictJSONRoute


def router(**kwargs: Any) -> APIRouter:
    """An ``APIRouter`` whose routes read strict JSON bodies (``StrictJSONRoute``)."""
    return APIRouter(route_class=StrictJSONRoute, **kwargs)


def all_routers() -> list[APIRouter]:
    """The API's routers, in the order they are included."""
    from septet.server.routes import (
        accounts,
        client,
        guests,
        learn,
        meta,
        play,
        players,
        replays,
        tables,
        turns,  # /api/me/turns, /ws/me, /api/me/email (issue 28)
    )
    from septet.server.score import api as score  # /score, /api/score, /ws/score

    return [meta.api, guests.api, accounts.api, tables.api, learn.api, replays.api, play.api,
            score.api, players.api, turns.api, client.api]  # fmt: skip
