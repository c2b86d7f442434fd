"""Profiles (``/u/{name}``), the leaderboard and "My games", read from the database.

A profile is found by an account's name (``/u/Aki``, compared as accounts are, by
:func:`septet.server.accounts.names.name_key`), else by the name of exactly one guest, else by
id: ``/u/~<player id>`` works for every player (the profile's ``path`` is the one to link). Per
game: games played and won (finished tables, rated or not), the current rating with its history
(one point per rated table), and the results against each bot level that sat at the player's
tables (once per game); then the recent games with links to their replays.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from septet import games
from septet.server.db import (
    PlayerRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    TableRow,
    in_chunks,
    padded,
)
from septet.server.levels import level_of
from septet.server.players.ratings import (
    BOT_PREFIX,
    PROVISIONAL_GAMES,
    display,
    is_bot_id,
    rating_json,
)
from septet.server.store import Store, _iso

RECENT = 20
"""Recent games a profile lists."""

HISTORY = 200
"""Rating points a profile's chart shows per game (the latest)."""

BOT_NAMES = {
    "easy": {"en": "Easy bot", "ja": "弱いボット"},
    "normal": {"en": "Normal bot", "ja": "普通のボット"},
    "strong": {"en": "Strong bot", "ja": "強いボット"},
    "expert": {"en": "Expert bot", "ja": "達人ボット"},
}
"""How a bot level is named on the leaderboard."""


def _keys(name: str) -> list[str]:
    from septet.server.accounts.names import name_keys

    return list(name_keys(name))


def find_player(store: Store, ref: str) -> PlayerRow | None:
    """The player ``ref`` names: ``~<id>``, an account's name, or a unique guest's name (no name
    begins with ``~``: :data:`septet.server.accounts.names.ID_MARK`)."""
    from septet.server.accounts.names import ID_MARK

    with store._session() as s:
        if ref.startswith(ID_MARK):
            return s.get(PlayerRow, ref[1:33])
        keys = padded(_keys(ref))
        found = s.scalars(select(PlayerRow).where(PlayerRow.name_key.in_(keys))).first()
        if found is not None:
            return found
        guests = s.scalars(
            select(PlayerRow).where(PlayerRow.name == ref, PlayerRow.deleted_at.is_(None)).limit(2)
        ).all()
        return guests[0] if len(guests) == 1 else None


def path_of(row: PlayerRow) -> str:
    """The profile page of a player: ``/u/<account name>`` or ``/u/~<id>``."""
    return f"/u/{row.name}" if row.name_key else f"/u/~{row.id}"


def _titles(name: str) -> dict[str, str]:
    try:
        return dict(games.game_class(name).titles)
    except Exception:  # an engine no longer installed
        return {"en": name, "ja": name}


def _finished_of(s: Any, player_id: str) -> list[TableRow]:
    return list(
        s.scalars(
            select(TableRow)
            .join(SeatRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.player_id == player_id, TableRow.status == "finished")
            .order_by(TableRow.updated_at.desc(), TableRow.id)
        ).all()
    )


def _seats_of(s: Any, table_ids: Sequence[str]) -> dict[str, list[SeatRow]]:
    out: dict[str, list[SeatRow]] = {}
    for chunk in in_chunks(table_ids):
        for row in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(chunk))).all():
            out.setdefault(row.table_id, []).append(row)
    return out


def seat_json(row: SeatRow, game: Any) -> dict[str, Any]:
    """A seat of a listed game: ``{seat, name, bot, level, player}`` (``player``: the profile
    path's id part, for people)."""
    return {
        "seat": row.seat,
        "name": row.name,
        "bot": row.bot if row.player_id is None else None,
        "level": level_of(row.bot, game) if row.player_id is None and game else None,
        "player": row.player_id,
        "left": bool(row.replaced),
    }


def _game_of(name: str, options: str) -> Any:
    try:
        return games.get(name, **json.loads(options or "{}"))
    except Exception:
        return None


def profile(store: Store, row: PlayerRow) -> dict[str, Any]:
    """The profile of ``row`` (see the module docstring)::

    {"player": {"id", "name", "account", "deleted", "path"},
     "games": [{"game", "title", "played", "won", "rating": {rating, provisional, mu,
                sigma, games} | null, "history": [{"table", "rating", "at"}],
                "vs_bots": [{"level", "games", "wins"}]}],
     "recent": [{"id", "game", "title", "at", "won", "left", "seats", "replay"}]}
    """
    with store._session() as s:
        tables = _finished_of(s, row.id)
        seats = _seats_of(s, [t.id for t in tables])
        ratings = {r.game: r for r in s.scalars(
            select(RatingRow).where(RatingRow.player_id == row.id)).all()}  # fmt: skip
        history = s.scalars(
            select(RatingHistoryRow)
            .where(RatingHistoryRow.player_id == row.id)
            .order_by(RatingHistoryRow.created_at, RatingHistoryRow.table_id)
        ).all()
    per: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    for t in tables:
        game = _game_of(t.game, t.options)
        mine = [x for x in seats.get(t.id, []) if x.player_id == row.id]
        result = json.loads(t.result or "{}")
        won = bool(mine) and not mine[0].replaced and mine[0].seat in result.get("winners", [])
        entry = per.setdefault(t.game, {"game": t.game, "title": _titles(t.game), "played": 0,
                                        "won": 0, "vs": {}})  # fmt: skip
        entry["played"] += 1
        entry["won"] += int(won)
        levels = {level_of(x.bot, game) for x in seats.get(t.id, []) if x.player_id is None}
        for level in sorted(lv for lv in levels if lv) if game else ():
            vs = entry["vs"].setdefault(level, [0, 0])  # once per game, however many seats
            vs[0] += 1
            vs[1] += int(won)
        if len(recent) < RECENT:
            recent.append({
                "id": t.id, "game": t.game, "title": _titles(t.game), "at": _iso(t.updated_at),
                "won": won, "left": bool(mine and mine[0].replaced),
                "seats": [seat_json(x, game) for x in sorted(seats.get(t.id, []),
                                                              key=lambda x: x.seat)],
                "replay": f"/r/{t.id}",
            })  # fmt: skip
    out_games = _per_game(per, ratings, history)
    return {
        "player": {
            "id": row.id,
            "name": row.name,
            "account": row.name_key is not None,
            "deleted": row.deleted_at is not None,
            "path": path_of(row),
        },
        "games": out_games,
        "recent": recent,
    }


def _per_game(
    per: dict[str, dict[str, Any]], ratings: dict[str, RatingRow], history: Sequence[Any]
) -> list[dict[str, Any]]:
    """The profile's per-game entries: counts, the rating, its history, the bot levels."""
    points: dict[str, list[dict[str, Any]]] = {}
    for h in history:
        points.setdefault(h.game, []).append(
            {"table": h.table_id, "rating": display((h.mu, h.sigma)), "at": _iso(h.created_at)}
        )
    for name in ratings:
        per.setdefault(name, {"game": name, "title": _titles(name), "played": 0, "won": 0,
                              "vs": {}})  # fmt: skip
    order = ("easy", "normal", "strong", "expert")
    out_games = []
    for name, entry in sorted(per.items()):
        r = ratings.get(name)
        vs = entry.pop("vs")
        out_games.append({
            **entry,
            "rating": rating_json(r.mu, r.sigma, r.games) if r else None,
            "history": points.get(name, [])[-HISTORY:],
            "vs_bots": [{"level": lv, "games": vs[lv][0], "wins": vs[lv][1]}
                        for lv in order if lv in vs],
        })  # fmt: skip
    return out_games


def leaderboard(store: Store, game: str, page: int, size: int) -> dict[str, Any]:
    """Page ``page`` (from 1) of ``size`` of the rated players of ``game`` with at least
    :data:`PROVISIONAL_GAMES` rated games, best first (by ``mu - 3 sigma``)::

        {"game", "title", "page", "size", "total", "min_games",
         "players": [{"rank", "id", "name", "names", "bot", "level", "path", "rating", "games",
                      "wins"}]}

    Bots (``bot: true``, ``level``, ``names``: ``{"en": "Normal bot", "ja": "普通のボット"}``)
    are listed among the people; deleted players are not.
    """
    with store._session() as s:
        base = (
            select(RatingRow, PlayerRow)
            .outerjoin(PlayerRow, PlayerRow.id == RatingRow.player_id)
            .where(
                RatingRow.game == game,
                RatingRow.games >= PROVISIONAL_GAMES,
                (PlayerRow.deleted_at.is_(None)) | RatingRow.player_id.like(BOT_PREFIX + "%"),
            )
        )
        total = int(s.scalar(select(func.count()).select_from(base.subquery())) or 0)
        rows = s.execute(
            base.order_by(RatingRow.ordinal.desc(), RatingRow.player_id)
            .offset((page - 1) * size)
            .limit(size)
        ).all()
    players = []
    for i, (r, p) in enumerate(rows):
        bot = is_bot_id(r.player_id)
        level = r.player_id[len(BOT_PREFIX) :] if bot else None
        names = BOT_NAMES.get(level or "", {"en": str(level), "ja": str(level)})
        players.append({
            "rank": (page - 1) * size + i + 1,
            "id": r.player_id,
            "name": names["en"] if bot else (p.name if p else ""),
            "names": names if bot else None,
            "bot": bot,
            "level": level,
            "path": None if bot or p is None else path_of(p),
            "rating": display((r.mu, r.sigma)),
            "games": r.games,
            "wins": r.wins,
        })  # fmt: skip
    return {"game": game, "title": _titles(game), "page": page, "size": size, "total": total,
            "min_games": PROVISIONAL_GAMES, "players": players}  # fmt: skip
