"""Several server processes on one database and one Redis (``septet serve --redis URL``).

:class:`ScaledTableManager` is the table manager of such a process. Any process accepts any
connection for any table: it loads the table from the database when a socket or a request needs
it, and lets it go when its last socket leaves. The database arbitrates (one row per table and
move index; a move on a stale version is refused), so two processes can never both commit a move
at one index. After a commit the process publishes the steps on the table's Redis channel; every
other process holding sockets of that table applies them (:func:`septet.server.steps.follow`) and
sends its sockets their views. Seat changes make the others reload the table; chat and presence
travel the same way. Bot turns go to the Redis queue, for ``septet bots`` workers
(:mod:`septet.server.worker`); a sweeper re-queues turns nobody took. A process that dies loses
nothing that was acknowledged: its players reconnect to another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from septet.server.config import Settings
from septet.server.hub import Hub
from septet.server.live import LiveTable, TableManager
from septet.server.metrics import is_outage
from septet.server.steps import Advance, follow
from septet.server.store import ChatMessage, Store, TableData

log = logging.getLogger("septet.server")

SHEET_CHANNEL = "score:"
"""Channels ``<p>:t:score:<sheet>`` carry the score keeper's sheet updates
(:mod:`septet.server.score.api`) on the tables' subscription; they go to
:attr:`ScaledTableManager.sheet_listener`."""

HEARTBEAT = 5.0
"""Seconds between renewals of this process's claims to hold seats' sockets."""


class ScaledTableManager(TableManager):
    """The live tables of one process of several (see the module's description).

    Args:
        store: the database (PostgreSQL).
        settings: server settings, with ``redis_url``.
    """

    def __init__(self, store: Store, settings: Settings) -> None:
        super().__init__(store, settings)
        self.hub = Hub(settings.redis_url, settings.redis_prefix)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        self._seen_ahead: dict[str, int] = {}  # table -> stored version ahead of ours
        self.sheet_listener: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None
        """Where messages of the score sheets' channels go (set by the score keeper)."""

    @property
    def runs_bots(self) -> bool:
        return False

    async def load(self) -> int:
        """Subscribe to the tables' channels; tables themselves load when needed."""
        await self.hub.ensure_group()
        await self.hub.listen(self.on_message)
        self._heartbeat = asyncio.get_running_loop().create_task(self._hold_forever())
        return 0

    # ----- what this process tells the others ------------
    async def committed(self, table: LiveTable, at: int, done: Advance) -> None:
        await self._publish(table.id, {"k": "steps", "from": at, "n": [n for n, _ in done.steps]})

    async def seats_changed(self, table: LiveTable) -> None:
        await self._publish(table.id, {"k": "seats"})

    async def published_chat(self, table: LiveTable, message: ChatMessage) -> None:
        await self._publish(table.id, {"k": "chat", "m": message.to_json()})

    async def presence(self, table: LiveTable, seat: int, here: bool) -> None:
        try:
            if here:
                await self.hub.hold([(table.id, seat)])
            else:
                await self.hub.release(table.id, seat)
        except Exception as exc:
            if not is_outage(exc):
                log.exception("presence of table %s seat %s not stored", table.id, seat)
        await self._publish(table.id, {"k": "presence", "seat": seat, "on": here})

    async def present_elsewhere(self, table: LiveTable, seat: int) -> bool:
        try:
            return await self.hub.present(table.id, seat)
        except Exception:  # Redis away: do not hand a seat to a bot on a guess
            return True

    async def held_elsewhere(self, table: LiveTable) -> None:
        """Take the seats other processes hold sockets of from Redis (their presence messages
        came before this process held the table), so its players here do not see a seated
        player connected elsewhere as gone; Redis away, the messages to come tell."""
        try:
            held = await self.hub.holders(table.id, table.num_players)
        except Exception as exc:
            if not is_outage(exc):
                log.exception("table %s: presence not read", table.id)
            return
        for seat, processes in held.items():
            table.remote.setdefault(seat, set()).update(processes)
            table.gone_since.pop(seat, None)

    def request_bot(self, table: LiveTable) -> None:
        self._spawn(self._enqueue(table.id, table.version, table.owner_key))

    async def _enqueue(self, table_id: str, version: int, owner: str) -> None:
        # Redis away: the sweeper queues the turn again once it is back (it is in the database)
        try:
            await self.hub.enqueue(table_id, version, self.settings.bot_delay, owner)
        except Exception as exc:
            if not is_outage(exc):
                log.exception("table %s: bot turn not queued", table_id)

    async def _publish(self, table_id: str, message: dict[str, Any]) -> None:
        # What was committed is kept: a lost message only delays the others, who reload on
        # their next mismatch (or a client's reconnect).
        try:
            await self.hub.publish(table_id, message)
        except Exception as exc:
            if not is_outage(exc):
                log.exception("table %s: not published", table_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- what the others tell this process ------------
    async def on_message(self, table_id: str, message: dict[str, Any]) -> None:
        """A message of another process about ``table_id`` (see :mod:`septet.server.hub`),
        handled in a task of its own so that a table waiting for its lock (or a reload) does not
        hold up the messages of the others; a table's messages still take its lock in the
        order they came."""
        if table_id.startswith(SHEET_CHANNEL):
            if self.sheet_listener is not None:
                await self.sheet_listener(table_id[len(SHEET_CHANNEL) :], message)
            return
        table = self.tables.get(table_id)
        if table is None:
            return
        self._spawn(self._handle(table, table_id, message))

    async def _handle(self, table: LiveTable, table_id: str, message: dict[str, Any]) -> None:
        try:
            await self._handle_one(table, table_id, message)
        except Exception:
            log.exception("table %s: message not handled: %s", table_id, str(message)[:200])

    async def _handle_one(self, table: LiveTable, table_id: str, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "chat":
            table.hear(ChatMessage(table_id=table_id, **message["m"]))
        elif kind == "presence":
            table.heard_presence(int(message["seat"]), str(message["src"]), bool(message["on"]))
        elif kind == "steps":
            w = message.get("w")  # a bot worker's Strong seats playing Normal (issue 27)
            warming = None if w is None else {int(seat) for seat in w}
            await self._follow(table, int(message["from"]), list(message["n"]), warming)
        else:
            async with table.lock:
                await table.reload()
                table.broadcast()

    async def _follow(
        self, table: LiveTable, start: int, notations: list[str], warming: set[int] | None = None
    ) -> None:
        """Take the steps another process committed from ``start`` (reloading the table when
        one was missed); ``warming``: the Strong bot seats playing Normal's moves, as the bot
        worker sent them (issue 27), or ``None`` when the message had none."""
        async with table.lock:
            if warming is not None:
                table.warming = warming
            if start + len(notations) <= table.version:
                return  # known already
            if start != table.version or table.state is None:
                await table.reload()  # a step was missed: take the record as stored
            else:
                try:
                    table.took_steps(follow(table.game, table.state, notations))
                except Exception:
                    log.exception("table %s: steps do not follow; reloading", table.id)
                    await table.reload()
            table.broadcast()

    # ----- the lobby, sweeps, memory ------------
    async def lobby(
        self, status: str, game: str | None, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """The lobby from the database (tables live in whichever processes hold them)."""
        rows, total = await asyncio.gather(
            asyncio.to_thread(self.store.tables_page, status, game, limit, offset),
            asyncio.to_thread(self.store.count_tables, status, game),
        )
        if status == "playing":  # only tables somebody is at (issue 24)
            at = await asyncio.to_thread(self.store.tables_attended, [d.id for d in rows])
            total -= sum(1 for d in rows if d.id not in at)
            rows = [d for d in rows if d.id in at]
        return [self.stored_summary(d) for d in rows], total

    def stored_summary(self, data: TableData) -> dict[str, Any]:
        """A table's summary from its stored row (presence is not known here)."""
        held = self.tables.get(data.id)
        if held is not None:
            return held.summary()
        out = LiveTable(self, data).summary()
        out["version"], out["to_move"] = data.version, data.to_move
        for seat in out["seats"]:
            seat["gone_for"] = None
        return out

    async def sweep(self) -> int:
        """Expire waiting tables (telling the processes that hold them), re-queue bot turns
        nobody took, and let go of tables without sockets."""
        expired = await super().sweep()
        before = datetime.now(UTC) - timedelta(seconds=self.settings.bot_timeout + 2)
        for table_id, version in await asyncio.to_thread(self.store.stalled_bot_tables, before):
            await self.hub.enqueue(table_id, version)
        for table_id, table in list(self.tables.items()):
            if not table.conns and (table.bot_task is None or table.bot_task.done()):
                self.tables.pop(table_id, None)
        return expired

    def expired(self, table_id: str) -> None:
        self._spawn(self._publish(table_id, {"k": "seats"}))

    async def _hold_forever(self) -> None:
        """Every :data:`HEARTBEAT` seconds: renew this process's claims to hold seats' sockets,
        and catch up with any table whose steps were committed but never heard of (their
        process died between the commit and the message)."""
        while not self.closing:
            await asyncio.sleep(HEARTBEAT)
            held = [(t.id, s) for t in self.tables.values() for s in {c.seat for c in t.conns}
                    if s is not None]  # fmt: skip
            with contextlib.suppress(Exception):
                await self.hub.hold(held)
            with contextlib.suppress(Exception):
                await self.resync()

    async def resync(self) -> int:
        """Reload every table held here with sockets that the database had moved past at the
        previous check already (a step whose message is on its way is no reason); returns how
        many."""
        watched = [t for t in self.tables.values() if t.conns]
        stored = await asyncio.to_thread(self.store.versions, [t.id for t in watched])
        behind = [t for t in watched if t.version < self._seen_ahead.get(t.id, -1)]
        self._seen_ahead = {t.id: stored[t.id] for t in watched
                            if stored.get(t.id, t.version) > t.version}  # fmt: skip
        for table in behind:
            async with table.lock:
                await table.reload()
                table.broadcast()
        return len(behind)

    async def close(self) -> None:
        await super().close()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.hub.close()
