""" "Your turn" on every open page: the per-player sockets (``WS /ws/me``) of a process and
their fan-out.

When steps are committed at a table, the committing process calls
:meth:`TurnNotifier.changed` with the table's players and the one to move now. Each of those
players' ``/ws/me`` sockets in this process is woken (it reads the player's list again and
sends it, with ``your_turn`` naming the table when it is now theirs). Scaled out
(``--redis``), the notice is also published on the channel ``<prefix>:me`` and every other
process wakes its own sockets of those players; a ``septet bots`` worker only publishes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any

from septet.server.config import Settings

log = logging.getLogger("septet.server")


class MeSocket:
    """One open ``/ws/me`` of a player: the notices waiting for it (table id, whether it is
    now this player's turn there), drained by its socket's task."""

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self.queue: asyncio.Queue[tuple[str, bool]] = asyncio.Queue(maxsize=256)

    def wake(self, table_id: str, yours: bool) -> None:
        """Queue a notice (dropped when the socket is far behind: its next list is complete)."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait((table_id, yours))


class TurnNotifier:
    """The ``/ws/me`` sockets of this process and the Redis channel between processes.

    Args:
        settings: ``redis_url`` / ``redis_prefix`` (empty URL: this process only).
        listen: whether to hear the other processes (a bot worker only publishes).
    """

    def __init__(self, settings: Settings, listen: bool = True) -> None:
        self.settings = settings
        self.listen = listen
        self.sockets: dict[str, set[MeSocket]] = {}
        self.process = secrets.token_hex(6)
        self.channel = f"{settings.redis_prefix}:me"
        self._redis: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def add(self, sock: MeSocket) -> None:
        """Register an open socket."""
        self.sockets.setdefault(sock.player_id, set()).add(sock)

    def remove(self, sock: MeSocket) -> None:
        """Forget a closed socket."""
        held = self.sockets.get(sock.player_id)
        if held is not None:
            held.discard(sock)
            if not held:
                del self.sockets[sock.player_id]

    def deliver(self, table_id: str, players: list[str], mover: str | None) -> None:
        """Wake this process's sockets of ``players`` about ``table_id``."""
        for pid in players:
            for sock in list(self.sockets.get(pid, ())):
                sock.wake(table_id, pid == mover)

    def changed(self, table_id: str, players: list[str], mover: str | None) -> None:
        """Steps were committed at ``table_id``: ``players`` (ids) sit there and ``mover`` (or
        nobody) is to move. Wakes the sockets here and, scaled out, publishes the notice (in
        the background: a lost notice only delays a list, never a move)."""
        self.deliver(table_id, players, mover)
        if self.settings.redis_url and players:
            message = json.dumps({"t": table_id, "p": players, "m": mover, "src": self.process})
            with contextlib.suppress(RuntimeError):  # no running loop: nobody listens either
                task = asyncio.get_running_loop().create_task(self._publish(message))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _client(self) -> Any:
        if self._redis is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(self.settings.redis_url, decode_responses=True)
        return self._redis

    async def _publish(self, message: str) -> None:
        try:
            await (await self._client()).publish(self.channel, message)
        except Exception:
            log.exception("turn notice not published")

    async def start(self) -> None:
        """Scaled out: start hearing the other processes' notices."""
        if self.settings.redis_url and self.listen:
            task = asyncio.get_running_loop().create_task(self._hear())
            self._tasks.add(task)

    async def _hear(self) -> None:
        while True:
            try:
                pubsub = (await self._client()).pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.channel)
                async for raw in pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    msg = json.loads(raw["data"])
                    if msg.get("src") != self.process:
                        self.deliver(str(msg["t"]), [str(p) for p in msg["p"]], msg.get("m"))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the turn notices' subscription; reconnecting")
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Stop hearing and close the connection."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
