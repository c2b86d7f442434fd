"""Players between games (issue 24): ratings, profiles, the leaderboard, rematches, Play now,
and the sweeps that keep the lobby true.

- :mod:`.ratings`: openskill per game through the arena's code, each finished rated table once;
- :mod:`.profiles`: ``/u/{name}``, the leaderboard, the bot levels' names;
- :mod:`.seats`: seats kept for a rematch's players, seats given to Play now's bots;
- :mod:`.tables`: rematch, Play now, tables nobody is at, "My games".

:func:`install` hooks them into a server's table manager (a finished table is rated at once)
and :func:`run_forever` is the background loop every server process runs (Play now's bots,
abandoned tables, ratings a dead process left undone). The routes are in
:mod:`septet.server.routes.players`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from septet.server.live import LiveTable, TableManager

log = logging.getLogger("septet.server")

TICK = 1.0
"""Seconds between the background loop's checks for Play now tables due."""

RELIEVE_EVERY = 5
"""Ticks between the checks for tables nobody is at."""

RATE_EVERY = 30
"""Ticks between the catch-up ratings of tables nobody rated."""


def install(manager: TableManager) -> None:
    """Rate each table when its game ends in this process (the rating row makes it once)."""
    tasks: set[asyncio.Task[Any]] = set()

    def finished(table: LiveTable) -> None:
        from septet.server.players.ratings import rate_table

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a tool replaying tables): the sweep rates it
            return
        task = loop.create_task(manager.store.write(rate_table, manager.store, table.id))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    manager.finish_hooks.append(finished)


async def tick(manager: TableManager, n: int) -> None:
    """One pass of the background loop (``n``: its count, choosing the slower checks)."""
    from septet.server.players.ratings import rate_pending
    from septet.server.players.tables import fill_due, relieve_abandoned

    await fill_due(manager)
    if n % RELIEVE_EVERY == 0:
        await relieve_abandoned(manager)
    if n % RATE_EVERY == 0:
        await manager.store.write(rate_pending, manager.store)


async def run_forever(manager: TableManager) -> None:
    """Run :func:`tick` every :data:`TICK` seconds until the manager closes."""
    n = 0
    while not manager.closing:
        try:
            await tick(manager, n)
        except Exception:  # the database away for a moment: next time
            log.exception("players sweep failed")
        n += 1
        await asyncio.sleep(TICK)
