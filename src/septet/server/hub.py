"""Redis for a Septet site of several processes: pub/sub fan-out of each table's changes, the
bot-turn queue, and who is at which seat.

Every key and channel starts with the site's prefix (``Settings.redis_prefix``):

- ``<p>:t:<table>``: a table's channel. Messages (JSON, ``src`` = the sending process):
  ``{"k": "steps", "from": 17, "n": [notations]}`` (steps committed from version 17),
  ``{"k": "seats"}`` (seats or status changed: reload the table), ``{"k": "chat", "m": {...}}``,
  ``{"k": "presence", "seat": 2, "on": true}``.
- ``<p>:bots``: the stream of bot turns, read by the consumer group ``workers``
  (``septet bots``): entries ``{"t": table, "v": version, "at": unix time to move at}``.
  A turn is acknowledged once its move is committed (or found moot); a worker that dies leaves it
  pending, and another claims it after ``claim_idle`` seconds.
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

log = logging.getLogger("septet.server")

GROUP = "workers"
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
            url, decode_responses=True, max_connections=64, timeout=10
        )
        self.redis: Any = aioredis.Redis(connection_pool=pool)
        self._listener: asyncio.Task[None] | None = None
        self.stream = f"{prefix}:bots"

    def channel(self, table_id: str) -> str:
        """The channel of a table."""
        return f"{self.prefix}:t:{table_id}"

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every process that listens (this one ignores its own)."""
        await self.redis.publish(
            self.channel(table_id), json.dumps({**message, "src": self.process})
        )

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
            except Exception:
                log.exception("lost the Redis subscription; reconnecting")
                await asyncio.sleep(1.0)

    # ----- the bot queue ------------
    async def ensure_group(self) -> None:
        """Create the stream and its consumer group if they are not there."""
        with contextlib.suppress(Exception):  # BUSYGROUP: it exists
            await self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)

    async def enqueue(self, table_id: str, version: int, delay: float = 0.0) -> None:
        """Queue the bot turn of ``table_id`` at ``version``, to be played ``delay`` seconds
        from now at the earliest."""
        entry = {"t": table_id, "v": str(version), "at": f"{time.time() + delay:.3f}"}
        await self.redis.xadd(self.stream, entry, maxlen=100_000, approximate=True)

    async def take(
        self, consumer: str, count: int, block_ms: int
    ) -> list[tuple[str, dict[str, str]]]:
        """Up to ``count`` new bot turns for ``consumer`` (waits ``block_ms`` for one)."""
        got = await self.redis.xreadgroup(
            GROUP, consumer, {self.stream: ">"}, count=count, block=block_ms
        )
        return [(eid, fields) for _, entries in got or [] for eid, fields in entries]

    async def claim_stale(
        self, consumer: str, idle: float, count: int = 50
    ) -> list[tuple[str, dict[str, str]]]:
        """Bot turns taken by a consumer that has not acknowledged them for ``idle`` seconds
        (a dead worker), now ``consumer``'s."""
        got = await self.redis.xautoclaim(
            self.stream, GROUP, consumer, int(idle * 1000), "0-0", count=count
        )
        return [(eid, fields) for eid, fields in got[1] if fields]

    async def done(self, entry_id: str) -> None:
        """Acknowledge a bot turn."""
        await self.redis.xack(self.stream, GROUP, entry_id)
        await self.redis.xdel(self.stream, entry_id)

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
        await pipe.execute()

    async def release(self, table_id: str, seat: int) -> None:
        """This process holds no socket of the seat any more."""
        await self.redis.hdel(f"{self.prefix}:pres:{table_id}:{seat}", self.process)

    async def present(self, table_id: str, seat: int) -> bool:
        """Whether some live process holds a socket of the seat."""
        held = await self.redis.hgetall(f"{self.prefix}:pres:{table_id}:{seat}")
        now = time.time()
        return any(float(until) > now for until in held.values())

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        await self.redis.aclose()
        await self.redis.connection_pool.disconnect()
