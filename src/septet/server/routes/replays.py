"""Finished games: the record (the CLI's format) and the replay (every step, every view).

A record holds every hidden card and tile, so nothing here is served before the game is over.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.responses import JSONResponse

from septet import games
from septet.core import GameRecord, RecordError, replay, replay_steps
from septet.server.deps import StoreDep
from septet.server.live import LobbyError, event_json
from septet.server.routes import router
from septet.server.store import Store, TableData

api = router(tags=["replays"])


async def finished_data(store: Store, table_id: str) -> TableData:
    """The stored finished table ``table_id`` with its moves.

    Raises:
        LobbyError: ``not_found`` (404), ``not_finished`` (409).
    """
    data = await asyncio.to_thread(store.get_table, table_id[:40], True)
    if data is None:
        raise LobbyError("not_found", "No such table.", status=404)
    if data.status != "finished":
        # A record holds every hidden card and tile: it is published only after the end.
        raise LobbyError("not_finished", "The game is still being played.", status=409)
    return data


def record_of(data: TableData) -> GameRecord:
    """The game record of a stored table (same format as the CLI's), with this server's action
    encoding version of the game (the moves are stored as notation, read with today's
    encoding)."""
    try:
        version: int | None = (
            games.get(data.game, **data.options).action_encoding(data.num_players).version
        )
    except Exception:  # a game that declares no encoding, or is no longer installed
        version = None
    return GameRecord(
        game=data.game,
        options=data.options,
        num_players=data.num_players,
        players=[s.name or (s.bot or f"seat {s.seat}") for s in data.seats],
        actions=list(data.moves or []),
        result=data.result,
        meta={"table": data.id, "played_at": data.created_at, "source": "septet serve"},
        action_encoding=version,
    )


@api.get("/api/tables/{table_id}/record")
async def record(table_id: str, store: StoreDep) -> JSONResponse:
    """The finished game's record, as a file to download."""
    data = await finished_data(store, table_id)
    return JSONResponse(
        record_of(data).to_json(),
        headers={"Content-Disposition": f'attachment; filename="septet-{data.id}.json"'},
    )


def _replay_json(data: TableData) -> dict[str, Any]:
    """Every step of a finished game with its texts and events, and who sat where."""
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
            {"seat": x.seat, "kind": "bot" if x.bot else "human", "bot": x.bot, "name": x.name}
            for x in data.seats
        ],
        "result": data.result,
        "steps": steps,
    }


@api.get("/api/tables/{table_id}/replay")
async def replay_all_steps(table_id: str, store: StoreDep) -> dict[str, Any]:
    """Every step of the finished game (``i``, ``seat``, notation, texts, events)."""
    data = await finished_data(store, table_id)
    try:
        return await asyncio.to_thread(_replay_json, data)
    except RecordError as exc:
        raise LobbyError("corrupt", f"Damaged record: {exc}", 500) from None


@api.get("/api/tables/{table_id}/replay/{step}")
async def replay_step(table_id: str, step: int, store: StoreDep) -> dict[str, Any]:
    """Every seat's view (and the spectator's) after ``step`` steps of the finished game."""
    data = await finished_data(store, table_id)
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
