"""The deadline sweeper: every process that sweeps (each ``septet serve``, each ``septet
bots`` worker) looks for turn-based tables whose deadline has passed and plays the table's
policy (see :mod:`septet.server.turns.deadlines`). The move goes through
:meth:`Store.append_moves` with the version it was made on, so when several see the same
deadline one commits and the others are refused as stale: the move is made exactly once, by
whoever is first, and a process killed at the deadline leaves it to the others (or to itself,
restarted), since the deadline lives in the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from septet import games
from septet.server.botpool import BotJob, BotPool, fallback_move
from septet.server.steps import Advance, advance, follow
from septet.server.store import StaleWriteError, Store, TableData
from septet.server.turns.clock import Clock
from septet.server.turns.deadlines import TablePace, date_undated, due_turns, normal_spec

log = logging.getLogger("septet.server")

Play = Callable[[str, int], Awaitable[bool]]
"""``play(table_id, version)``: make the move of the missed deadline; whether this call did."""


async def sweep_deadlines(store: Store, clock: Clock, play: Play, limit: int = 100) -> int:
    """Date the turn-based tables that lack a deadline, then play every missed deadline (by
    the clock) with ``play``; returns how many moves this call made. A failing table is logged
    and left for the next sweep."""
    await asyncio.to_thread(date_undated, store, clock, limit)
    made = 0
    for table_id, version in await asyncio.to_thread(due_turns, store, clock.now(), limit):
        try:
            made += bool(await play(table_id, version))
        except Exception:
            log.exception("table %s: the move of the missed deadline was not made", table_id)
    return made


async def play_stored_timeout(
    store: Store, pool: BotPool, clock: Clock, table_id: str, version: int, budget: float
) -> tuple[TableData, Advance] | None:
    """The move of the missed deadline of ``table_id`` at ``version``, made from the stored
    record (a bot worker, which holds no live table): a Normal bot's move computed by ``pool``
    within ``budget`` seconds (a random legal one after), committed with the version check.
    Returns the table (as read) and the steps committed, or ``None`` when the move is moot or
    another process made it first."""
    data = await asyncio.to_thread(store.get_table, table_id, True)
    if data is None or data.status != "playing" or data.version != version:
        return None
    pace = TablePace.of(data)
    game = games.get(data.game, **data.options)
    state = game.new_state(data.num_players)
    follow(game, state, data.moves or [])
    seat = state.current_player
    if not pace.turn_based or seat < 0 or data.seats[seat].bot is not None:
        return None
    spec = normal_spec(game)
    job = BotJob(
        data.id,
        data.game,
        data.options,
        data.num_players,
        tuple(data.moves or ()),
        seat,
        spec,
        data.seed,
    )
    notation = await pool.choose(job, budget)
    action = game.parse_action(state, notation or fallback_move(job, state))
    after = pace.after_timeout(data.seats[seat], spec)
    bots = [s.bot is not None for s in data.seats]
    bots[seat] = after.bot is not None
    done = advance(state, data.seed, bots, action, seat)
    try:
        await asyncio.to_thread(
            store.append_moves,
            table_id,
            version,
            done.steps,
            status=done.status if done.status != "playing" else None,
            seats=[after],
            timeout_seat=seat,
            deadline=pace.deadline(clock, done.to_move, done.bot_turn),
            **done.store_kwargs(),
        )
    except StaleWriteError:
        return None
    data.seats[seat] = after
    return data, done
