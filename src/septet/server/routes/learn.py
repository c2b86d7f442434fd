"""Learn to play: the guided first games (:mod:`septet.server.learn`).

``GET /api/learn`` lists them; ``POST /api/learn/{game}`` opens the newcomer's table (a new one,
or their own one still in play: a return resumes it); ``GET /api/learn/{game}`` gives the steps
and texts the client shows over the table.
"""

from __future__ import annotations

from typing import Any

from septet import games
from septet.server.deps import ManagerDep, RequiredPlayer
from septet.server.learn import TUTORIALS, NoTutorial, bot_spec, lesson_payload, tutorial
from septet.server.live import LiveTable, LobbyError
from septet.server.routes import router

api = router(tags=["learn"])


def _no_tutorial(game: str) -> LobbyError:
    return LobbyError(
        "no_tutorial",
        f"There is no guided game for {game!r}; choose one of {', '.join(TUTORIALS)}.",
        status=404,
        message_ja=f"{game!r} のガイド付きゲームはありません。{'、'.join(TUTORIALS)} から"
        "選んでください。",
    )


@api.get("/api/learn")
async def list_tutorials() -> dict[str, Any]:
    """``{"games": [{"game", "title": {"en", "ja"}}, ...]}``: the games with a guided game."""
    out = []
    for name in TUTORIALS:
        try:
            data = tutorial(name)
        except NoTutorial:
            continue
        g = games.get(name, **data["options"])
        out.append({"game": name, "title": dict(g.titles)})
    return {"games": out}


@api.get("/api/learn/{game}")
async def get_tutorial(game: str) -> dict[str, Any]:
    """The steps and texts of ``game``'s guided game (:func:`septet.server.learn.lesson_payload`).

    Errors: ``no_tutorial`` (404).
    """
    try:
        return lesson_payload(game)
    except NoTutorial:
        raise _no_tutorial(game) from None


def _own_tutorial(manager: Any, player_id: str, game: str) -> LiveTable | None:
    """The player's guided game of ``game`` still in play here, if any (the newest)."""
    spec = bot_spec(game)
    found = [
        t for t in manager.tables.values()
        if t.created_by == player_id and t.game.name == game and t.status == "playing"
        and any(s.bot == spec for s in t.seats) and t.seat_of(player_id) is not None
    ]  # fmt: skip
    return max(found, key=lambda t: t.created_at, default=None)


@api.post("/api/learn/{game}")
async def start_tutorial(game: str, manager: ManagerDep, owner: RequiredPlayer) -> dict[str, Any]:
    """Open the guided game of ``game`` for the asking guest: their own one still in play
    (``resumed``: true), else a new table with the tutorial's seed and scripted bots, the guest
    at seat 0. Returns the table summary and ``invite`` (``/t/{id}``).

    Errors: ``no_identity`` (401), ``no_tutorial`` (404), ``too_many_open`` /
    ``too_many_bot_tables`` (429).
    """
    try:
        data = tutorial(game)
    except NoTutorial:
        raise _no_tutorial(game) from None
    table = _own_tutorial(manager, owner.id, game)
    resumed = table is not None
    if table is None:
        g = games.get(game, **data["options"])
        n = int(data["num_players"])
        bots = [None if i == data["human"] else bot_spec(game) for i in range(n)]
        table = await manager.create(
            g, n, bots, (owner.id, owner.name), created_by=owner.id, seed=str(data["seed"])
        )
    return {**table.summary(), "invite": f"/t/{table.id}", "resumed": resumed}
