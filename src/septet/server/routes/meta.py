"""What a client asks of the server before playing: health, configuration, the games (with
their options, bots and bot levels) and their rules."""

from __future__ import annotations

from functools import cache
from typing import Any

from septet import games
from septet.core import SeptetError
from septet.server.deps import ManagerDep, SettingsDep, StoreDep
from septet.server.levels import levels_for
from septet.server.live import LobbyError, available_bots
from septet.server.options import TABLE_OPTIONS, describe_options
from septet.server.routes import router

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
    """Whether the server answers, its database kind and how many tables it holds."""
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
    text = cls().rules_text("ja" if lang == "ja" else "en")
    return {"game": cls.name, "lang": "ja" if lang == "ja" else "en", "text": text}
