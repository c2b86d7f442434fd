"""Redis for a Septet site of several processes: pub/sub fan-out of each table's changes, the
bot-turn queue, and who is at which seat.

Every key and channel starts with the site's prefix (``Settings.redis_prefix``):

- ``<p>:t:<table>``: a table's channel. Messages (JSON, ``src`` = the sending process):
  ``{"k": "steps", "from": 17, "n": [notations]}`` (steps committed from version 17; from a
  bot worker also ``"w": [seats]``, the Strong bots playing at Normal while their search
  warms up, issue 27),
  ``{"k": "seats"}`` (seats or status changed: reload the table), ``{"k": "chat", "m": {...}}``,
  ``{"k": "presence", "seat": 2, "on": true}``.
- ``<p>:bots``: the stream of bot turns, read by the consumer group ``workers``
  (``septet bots``): entries ``{"t": table, "v": version, "at": unix time to move at, "o":
  owner}`` (the owner, a digest of the creating address or guest, is whom the workers share
  their processes fairly among). A turn is acknowledged once its move is committed (or found
  moot); a worker that dies leaves it pending, and another claims it after the move's budget
  plus 2 seconds. A Redis restarted without its data loses the stream and the group: a worker
  recreates them (and queues again every bot turn the database says is due).
- ``<p>:workers``: sorted set of workers by their last heartbeat (unix time).
- ``<p>:pres:<table>:<seat>``: hash process -> unix time until which that process holds a
  socket of the seat (refreshed while it does).

Needs the ``redis`` extra (redis-py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from septet.server.metrics import REDIS, is_redis_error, redis_errors

log = logging.getLogger("septet.server")

GROUP = "workers"
HEARTBEAT_TTL = 15.0
"""Seconds a worker's heartbeat counts as recent (it beats every 5)."""
PRESENCE_TTL = 15.0
"""Seconds a process's claim to hold a seat's socket lasts unless refreshed."""


class Hub:
    """One process's connection to the site's Redis.

    Args:
        url: ``redis://host:port/db``.
        prefix: the site's key prefix.
    """

    def __init__(self, url: str, prefix: str) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.prefix = prefix
        self.process = secrets.token_hex(6)
        # A bounded pool that waits for a free connection (a burst of publishes must queue,
        # not fail with "too many connections").
        pool = aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=64, timeout=10,
            socket_connect_timeout=3, socket_timeout=10,  # a Redis gone silent is an error
        )  # fmt: skip
        self.redis: Any = aioredis.Redis(connection_pool=pool)
        self._listener: asyncio.Task[None] | None = None
        self.stream = f"{prefix}:bots"

    def channel(self, table_id: str) -> str:
        """The channel of a table."""
        return f"{self.prefix}:t:{table_id}"

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every process that listens (this one ignores its own)."""
        await self._do(
            self.redis.publish(self.channel(table_id), json.dumps({**message, "src": self.process}))
        )

    async def _do(self, pending: Awaitable[Any]) -> Any:
        """Await one Redis command, noting an outage (logged once) or its end."""
        try:
            out = await pending
        except Exception as exc:
            if is_redis_error(exc):
                REDIS.failed(exc)
            raise
        REDIS.ok()
        return out

    async def ping(self) -> bool:
        """Whether Redis answers (within 2 seconds)."""
        errors: tuple[type[BaseException], ...] = (TimeoutError, *redis_errors())
        try:
            return bool(await asyncio.wait_for(self._do(self.redis.ping()), 2.0))
        except errors:
            return False

    async def listen(self, handle: Callable[[str, dict[str, Any]], Awaitable[None]]) -> None:
        """Start handing every table message of the other processes to ``handle(table_id,
        message)``, until :meth:`close`. Reconnects after a lost connection."""
        ready = asyncio.Event()
        self._listener = asyncio.get_running_loop().create_task(self._listen(handle, ready))
        await asyncio.wait_for(ready.wait(), 10)

    async def _listen(
        self, handle: Callable[[str, dict[str, Any]], Awaitable[None]], ready: asyncio.Event
    ) -> None:
        start = len(self.prefix) + 3
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.psubscribe(f"{self.prefix}:t:*")
                REDIS.ok()
                ready.set()
                async for raw in pubsub.listen():
                    if raw.get("type") != "pmessage":
                        continue
                    message = json.loads(raw["data"])
                    if message.get("src") == self.process:
                        continue
                    try:
                        await handle(raw["channel"][start:], message)
                    except Exception:
                        log.exception("table message not handled: %s", raw["data"][:200])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if is_redis_error(exc):  # logged once per outage, not once a second
                    REDIS.failed(exc)
                else:
                    log.exception("lost the Redis subscription; reconnecting")
                await asyncio.sleep(1.0)

    # ----- the bot queue ------------
    async def ensure_group(self) -> bool:
        """Create the stream and its consumer group if they are not there; returns whether it
        had to (a new site, or a Redis that lost its data).

        Raises:
            redis.exceptions.ConnectionError: Redis cannot be reached.
        """
        from redis.exceptions import ResponseError

        try:
            await self._do(self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True))
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
            return False
        return True

    async def enqueue(
        self, table_id: str, version: int, delay: float = 0.0, owner: str = ""
    ) -> None:
        """Queue the bot turn of ``table_id`` at ``version``, to be played ``delay`` seconds
        from now at the earliest; ``owner`` is whose share of the workers it takes."""
        entry = {"t": table_id, "v": str(version), "at": f"{time.time() + delay:.3f}"}
        if owner:
            entry["o"] = owner
        await self._do(self.redis.xadd(self.stream, entry, maxlen=100_000, approximate=True))

    async def _grouped(self, command: Callable[[], Awaitable[Any]]) -> Any:
        """Run a command of the consumer group, recreating the group once if Redis lost it
        (``NOGROUP``: restarted without its data); :attr:`group_lost` then says so."""
        from redis.exceptions import ResponseError

        try:
            return await self._do(command())
        except ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
        log.warning("the bot queue's consumer group was gone (Redis lost its data); recreated")
        await self.ensure_group()
        self.group_lost = True
        return await self._do(command())

    group_lost = False
    """Set when :meth:`_grouped` had to recreate the group (the worker then queues again the
    bot turns the database says are due, and clears it)."""

    async def take(
        self, consumer: str, count: int, block_ms: int
    ) -> list[tuple[str, dict[str, str]]]:
        """Up to ``count`` new bot turns for ``consumer`` (waits ``block_ms`` for one)."""
        got = await self._grouped(lambda: self.redis.xreadgroup(
            GROUP, consumer, {self.stream: ">"}, count=count, block=block_ms
        ))  # fmt: skip
        return [(eid, fields) for _, entries in got or [] for eid, fields in entries]

    async def claim_stale(
        self, consumer: str, idle: float, count: int = 50
    ) -> list[tuple[str, dict[str, str]]]:
        """Bot turns taken by a consumer that has not acknowledged them for ``idle`` seconds
        (a dead worker), now ``consumer``'s."""
        got = await self._grouped(lambda: self.redis.xautoclaim(
            self.stream, GROUP, consumer, int(idle * 1000), "0-0", count=count
        ))  # fmt: skip
        return [(eid, fields) for eid, fields in got[1] if fields]

    async def done(self, entry_id: str) -> None:
        """Acknowledge a bot turn."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xack(self.stream, GROUP, entry_id)
        pipe.xdel(self.stream, entry_id)
        await self._do(pipe.execute())

    async def queue_depth(self) -> int:
        """Bot turns not yet acknowledged: waiting (the group's lag) and being played
        (pending); the stream's length when the group is not there."""
        groups = await self._do(self.redis.xinfo_groups(self.stream))
        for group in groups:
            if group.get("name") == GROUP:
                return int(group.get("pending") or 0) + int(group.get("lag") or 0)
        return int(await self._do(self.redis.xlen(self.stream)))

    async def heartbeat(self, consumer: str) -> None:
        """Say that worker ``consumer`` is alive (and forget workers silent for a minute)."""
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(f"{self.prefix}:workers", {consumer: now})
        pipe.zremrangebyscore(f"{self.prefix}:workers", "-inf", now - 60)
        await self._do(pipe.execute())

    async def workers_alive(self, within: float = HEARTBEAT_TTL) -> int:
        """How many workers beat within the last ``within`` seconds."""
        key = f"{self.prefix}:workers"
        return int(await self._do(self.redis.zcount(key, time.time() - within, "+inf")))

    # ----- the cap on bot tables per address (septet.server.addresscap) ------------
    async def address_tables(self, key: str, table_id: str, now: float) -> dict[str, float]:
        """Add ``table_id`` to the tables created from address ``key``; returns them all
        (table id -> unix time)."""
        name = f"{self.prefix}:addr:{key}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.zadd(name, {table_id: now})
        pipe.expire(name, 86400)
        pipe.zrange(name, 0, -1, withscores=True)
        got = (await self._do(pipe.execute()))[2]
        return {str(t): float(at) for t, at in got}

    async def address_forget(self, key: str, table_ids: list[str]) -> None:
        """Remove finished (or refused) tables from address ``key``'s."""
        await self._do(self.redis.zrem(f"{self.prefix}:addr:{key}", *table_ids))

    # ----- presence ------------
    async def hold(self, seats: list[tuple[str, int]]) -> None:
        """Say that this process holds a socket of each ``(table, seat)`` (for a while)."""
        if not seats:
            return
        until = time.time() + PRESENCE_TTL
        pipe = self.redis.pipeline(transaction=False)
        for table_id, seat in seats:
            key = f"{self.prefix}:pres:{table_id}:{seat}"
            pipe.hset(key, self.process, f"{until:.3f}")
            pipe.expire(key, int(PRESENCE_TTL) + 5)
        await self._do(pipe.execute())

    async def release(self, table_id: str, seat: int) -> None:
        """This process holds no socket of the seat any more."""
        await self._do(self.redis.hdel(f"{self.prefix}:pres:{table_id}:{seat}", self.process))

    async def present(self, table_id: str, seat: int) -> bool:
        """Whether some live process holds a socket of the seat."""
        held = await self._do(self.redis.hgetall(f"{self.prefix}:pres:{table_id}:{seat}"))
        now = time.time()
        return any(float(until) > now for until in held.values())

    async def holders(self, table_id: str, seats: int) -> dict[int, set[str]]:
        """The other live processes holding sockets of each of the table's ``seats`` seats:
        seat -> their process ids (seats nobody else holds are left out)."""
        pipe = self.redis.pipeline(transaction=False)
        for seat in range(seats):
            pipe.hgetall(f"{self.prefix}:pres:{table_id}:{seat}")
        found = await self._do(pipe.execute())
        now = time.time()
        out: dict[int, set[str]] = {}
        for seat, held in enumerate(found):
            procs = {p for p, until in held.items() if p != self.process and float(until) > now}
            if procs:
                out[seat] = procs
        return out

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        await self.redis.aclose()
        await self.redis.connection_pool.disconnect()
