"""Ratings of rated tables: openskill per game, through the arena's code
(:func:`septet.arena.skill.rate_teams`), so a game rates the same in a tournament and online.

Who is rated at a finished table:

- each person (by player id; a guest or an account, the same row);
- each bot seat whose agent is a level (Easy, Normal, Strong): the level is one rated player of
  its own per game (``"bot:easy"`` ...), so a newcomer's first games against bots place them.
  A level holding several seats counts once: in the team with the fewest people (then the best
  placed), as the arena counts an agent holding several seats;
- a person whose seat a bot finished after they left (``SeatRow.replaced``) takes the loss:
  they are ranked below everyone else, alone (the bot that finished for them is not rated).

Places come from the result: the winners first, then by score (:func:`ranks_from_result`).
Teams are the engine's: a view's ``teams`` (four-player Seven Shot: seats 0+2 and 1+3, SS-2.1)
make the partners one openskill team ranked together; otherwise each seat is its own team.

A table counts when it finished, was ``rated`` (the table option, on by default) and had at
least one person and two rated sides. Each table is settled exactly once, whichever and however
many processes see it finish: the first to insert its ``septet_rated_tables`` row (primary key)
rates it, in the same transaction; the others find the row and do nothing. The ratings of the
players involved are read under ``FOR UPDATE`` on PostgreSQL (SQLite has one writer at a time).

Shown as one number, :func:`display`: ``1000 + 40 x (mu - 3 sigma)`` rounded (a newcomer shows
1000; each point of openskill's conservative estimate is 40), "provisional" until
:data:`PROVISIONAL_GAMES` rated games.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from septet import games
from septet.arena.skill import Skill, new_skill, ordinal, ranks_from_result, rate_teams
from septet.core import Game
from septet.server.db import (
    RatedTableRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    TableRow,
    padded,
    utcnow,
)
from septet.server.levels import level_of
from septet.server.store import Store

BOT_PREFIX = "bot:"
"""Rated id of a bot level: ``bot:easy``, ``bot:normal``, ``bot:strong``."""

PROVISIONAL_GAMES = 10
"""Rated games before a rating stops being provisional (and a player enters the leaderboard)."""

BASE, SCALE = 1000, 40
""":func:`display`: ``BASE + SCALE x ordinal``."""


def display(skill: Skill) -> int:
    """The rating players see: ``1000 + 40 x (mu - 3 sigma)``, rounded (newcomer: 1000).

    Example: ``(25, 25/3)`` gives 1000; ``(30, 2)`` gives 1960.
    """
    return round(BASE + SCALE * ordinal(skill))


def rating_json(mu: float, sigma: float, games_played: int) -> dict[str, Any]:
    """``{"rating", "provisional", "mu", "sigma", "games"}`` of one stored rating."""
    return {
        "rating": display((mu, sigma)),
        "provisional": games_played < PROVISIONAL_GAMES,
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "games": games_played,
    }


def is_bot_id(player_id: str) -> bool:
    """Whether a rated id is a bot level's."""
    return player_id.startswith(BOT_PREFIX)


@dataclass
class Side:
    """One openskill team at a table: its rated ids, its rank, whether it won, whether it is a
    leaver (alone, ranked last)."""

    ids: list[str]
    rank: int
    won: bool
    left: bool = False
    people: int = 0


def sides_of(game: Game[Any], seats: Sequence[SeatRow], result: dict[str, Any]) -> list[Side]:
    """The rated sides of a finished table (see the module docstring), best first. Sides with
    nobody rated are left out."""
    n = len(seats)
    scores = [float(x) for x in result.get("scores", [0.0] * n)]
    winners = [int(x) for x in result.get("winners", [])]
    ranks = ranks_from_result(scores, winners)
    teams = _teams(game, n)
    by_seat = {s.seat: s for s in seats}
    sides: list[Side] = []
    leavers: list[str] = []
    bot_homes: dict[str, list[Side]] = {}
    for team in teams:
        side = Side([], min(ranks[s] for s in team), any(s in winners for s in team))
        for seat in team:
            row = by_seat.get(seat)
            if row is None:
                continue
            if row.player_id is not None:
                if row.replaced:
                    leavers.append(row.player_id)
                else:
                    side.ids.append(row.player_id)
                    side.people += 1
                continue
            level = level_of(row.bot, game)
            if level is not None:
                bot_homes.setdefault(BOT_PREFIX + level, []).append(side)
        sides.append(side)
    for bot_id, homes in bot_homes.items():
        home = min(homes, key=lambda x: (x.people, x.rank))
        if bot_id not in home.ids:
            home.ids.append(bot_id)
    out = sorted((x for x in sides if x.ids), key=lambda x: x.rank)
    places = {r: i + 1 for i, r in enumerate(sorted({x.rank for x in out}))}
    for x in out:  # places among the rated: 1, 2, ... (a leaver's seat may have won)
        x.rank = places[x.rank]
    last = len(places) + 1
    out += [Side([pid], last, False, left=True, people=1) for pid in leavers]
    return out


def _teams(game: Game[Any], n: int) -> list[list[int]]:
    """The engine's teams (a view's ``teams``), else one seat each."""
    try:
        found = game.new_state(n).view(None).get("teams")
    except Exception:  # an engine whose opening view fails: no teams known
        found = None
    if isinstance(found, list) and found and all(isinstance(t, list) for t in found):
        return [[int(s) for s in t] for t in found]
    return [[s] for s in range(n)]


def mark_unrated(store: Store, table_id: str) -> None:
    """Settle ``table_id`` as unrated (the table option ``rated`` off): it never counts."""
    with store._session.begin() as s:
        if s.get(RatedTableRow, table_id) is None:
            s.add(RatedTableRow(table_id=table_id, counted=False, rated_at=utcnow()))


def rate_table(store: Store, table_id: str) -> bool | None:
    """Settle the ratings of a finished table once: ``True`` if this call rated it, ``False``
    if it was settled without counting (here), ``None`` if there was nothing to do (not
    finished, or settled already by someone). Safe to call from any number of processes.
    """
    try:
        with store._session.begin() as s:
            if not _claim(s, table_id):
                return None
            row = s.get(TableRow, table_id)
            if row is None or row.status != "finished" or not row.result:
                s.rollback()
                return None
            seats = s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
            sides = _rated_sides(row, list(seats))
            counted = len(sides) >= 2 and any(not is_bot_id(i) for side in sides for i in side.ids)
            s.execute(
                RatedTableRow.__table__.update()  # type: ignore[attr-defined]
                .where(RatedTableRow.table_id == table_id)
                .values(counted=counted)
            )
            if counted:
                _apply(s, row.game, table_id, sides)
            return counted
    except IntegrityError:  # a new rating row inserted by another process at once: next sweep
        return None


def _rated_sides(row: TableRow, seats: list[SeatRow]) -> list[Side]:
    try:
        game = games.get(row.game, **json.loads(row.options or "{}"))
    except Exception:  # an engine no longer installed: nothing to rate
        return []
    return sides_of(game, sorted(seats, key=lambda x: x.seat), json.loads(row.result or "{}"))


def _insert(s: Session) -> Any:
    return pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert


def _claim(s: Session, table_id: str) -> bool:
    """Insert the table's settled row first (the write lock on SQLite, the key on PostgreSQL);
    whether this transaction got it."""
    stmt = (
        _insert(s)(RatedTableRow)
        .values(table_id=table_id, counted=False, rated_at=utcnow())
        .on_conflict_do_nothing()
        .returning(RatedTableRow.table_id)
    )
    return s.execute(stmt).first() is not None


def _apply(s: Session, game: str, table_id: str, sides: list[Side]) -> None:
    """Rate ``sides`` (at least two) and store the new ratings and their history."""
    ids = sorted({i for side in sides for i in side.ids})
    now = utcnow()
    fresh = new_skill()
    s.execute(
        _insert(s)(RatingRow)
        .values(
            [
                {"game": game, "player_id": i, "mu": fresh[0], "sigma": fresh[1],
                 "ordinal": ordinal(fresh), "games": 0, "wins": 0, "updated_at": now}
                for i in ids
            ]
        )
        .on_conflict_do_nothing()
    )  # fmt: skip
    query = select(RatingRow).where(RatingRow.game == game, RatingRow.player_id.in_(padded(ids)))
    if s.get_bind().dialect.name == "postgresql":
        query = query.order_by(RatingRow.player_id).with_for_update()
    rows = {r.player_id: r for r in s.scalars(query).all()}
    rated = rate_teams(
        [[(rows[i].mu, rows[i].sigma) for i in side.ids] for side in sides],
        [side.rank for side in sides],
    )
    for side, after in zip(sides, rated, strict=True):
        for pid, (mu, sigma) in zip(side.ids, after, strict=True):
            r = rows[pid]
            r.mu, r.sigma, r.ordinal = mu, sigma, ordinal((mu, sigma))
            r.games += 1
            r.wins += int(side.won)
            r.updated_at = now
            s.add(
                RatingHistoryRow(
                    table_id=table_id, player_id=pid, game=game, mu=mu, sigma=sigma,
                    rank=side.rank, won=side.won, left=side.left, created_at=now,
                )
            )  # fmt: skip


def rate_pending(store: Store, limit: int = 50) -> int:
    """Rate the finished tables nobody has settled yet (a process died between the finish and
    its rating, or the table finished in a bot worker), oldest first; returns how many counted.
    """
    with store._session() as s:
        ids = s.scalars(
            select(TableRow.id)
            .outerjoin(RatedTableRow, RatedTableRow.table_id == TableRow.id)
            .where(TableRow.status == "finished", RatedTableRow.table_id.is_(None))
            .order_by(TableRow.updated_at, TableRow.id)
            .limit(limit)
        ).all()
    return sum(1 for tid in ids if rate_table(store, tid))
