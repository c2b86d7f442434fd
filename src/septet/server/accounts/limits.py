"""Failed sign-in attempts, counted per account and per client address in fixed windows: in
memory for one process, in Redis when the site is scaled out (``septet serve --redis``), so that
every process sees the same counts.

A key over its limit is refused (HTTP 429 with ``Retry-After``) before any password is hashed, so
guessing costs the server nothing once the limit is reached. Only failures count: people behind
one address (a school, a café) who type their passwords right are never held up.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from typing import Any

WINDOW_S = 900.0
"""Length of a counting window, seconds (15 minutes)."""

PER_ACCOUNT = 5
"""Failed attempts one account name may take in a window."""

PER_ADDRESS = 20
"""Failed attempts one client address may make in a window (any names)."""


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


class Attempts:
    """Failure counts in memory (one process).

    Args:
        window_s: window length, seconds.
        clock: monotonic seconds (tests move it instead of sleeping).
    """

    def __init__(self, window_s: float = WINDOW_S, clock: Callable[[], float] = time.monotonic):
        self.window_s = window_s
        self.clock = clock
        self._counts: dict[str, tuple[float, int]] = {}  # key -> (window start, failures)

    async def retry_after(self, key: str, limit: int) -> int:
        """Seconds (at least 1) until ``key`` may try again, or 0 if it is under ``limit``."""
        found = self._counts.get(_digest(key))
        if found is None:
            return 0
        start, count = found
        left = start + self.window_s - self.clock()
        if left <= 0 or count < limit:
            return 0
        return max(1, math.ceil(left))

    async def fail(self, key: str) -> None:
        """Count one failure of ``key``."""
        now = self.clock()
        digest = _digest(key)
        start, count = self._counts.get(digest, (now, 0))
        if now - start >= self.window_s:
            start, count = now, 0
        if len(self._counts) > 100_000:  # forget windows that are over
            self._counts = {k: v for k, v in self._counts.items() if now - v[0] < self.window_s}
        self._counts[digest] = (start, count + 1)

    async def clear(self, key: str) -> None:
        """Forget ``key``'s failures (after a successful sign-in)."""
        self._counts.pop(_digest(key), None)

    async def close(self) -> None:
        """Release what the counter holds."""


class RedisAttempts(Attempts):
    """Failure counts in Redis (``INCR`` and ``EXPIRE`` on ``{prefix}:login:{digest}``), shared
    by every process of the site.

    Args:
        url: the site's Redis.
        prefix: the site's key prefix.
        window_s: window length, seconds.
    """

    def __init__(self, url: str, prefix: str, window_s: float = WINDOW_S) -> None:
        super().__init__(window_s)
        import redis.asyncio as aioredis

        self._redis: Any = aioredis.Redis.from_url(url)
        self._prefix = f"{prefix}:login:"

    async def retry_after(self, key: str, limit: int) -> int:
        name = self._prefix + _digest(key)
        count = await self._redis.get(name)
        if count is None or int(count) < limit:
            return 0
        ttl = int(await self._redis.ttl(name))
        return max(1, ttl) if ttl != -2 else 0

    async def fail(self, key: str) -> None:
        name = self._prefix + _digest(key)
        pipe = self._redis.pipeline()
        pipe.incr(name)
        pipe.expire(name, math.ceil(self.window_s), nx=True)
        await pipe.execute()

    async def clear(self, key: str) -> None:
        await self._redis.delete(self._prefix + _digest(key))

    async def close(self) -> None:
        await self._redis.aclose()
