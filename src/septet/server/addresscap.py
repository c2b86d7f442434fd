"""The cap on tables of bots only per client address, for the whole site, and the owner key
by which the bot processes are shared fairly.

The per-guest cap (``max_bot_tables``) is the database's; a client that makes fresh guests
meets this one instead: at most ``max_bot_tables_per_address`` tables of bots only created
from one address may be unfinished at once. Embedded, the tables created lately are remembered
in memory; scaled out, in a Redis sorted set per address (``<p>:addr:<owner key>``: table id ->
unix time), and the database says which of them are still unfinished. Addresses are kept only
as digests.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from septet.server.live import TableManager

PENDING = 60.0
"""Seconds a table id counts while the database does not know it yet (being created)."""


def owner_key(address: str | None, fallback: str) -> str:
    """Who a table's bots count as for the fair share of the bot processes: ``a:`` and a
    digest of the creating client's address, or ``g:`` and ``fallback`` (its guest, or the
    table) when the address is not known."""
    if address:
        return "a:" + hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:16]
    return "g:" + fallback


class AddressCaps:
    """The per-address cap of one process (see the module).

    Args:
        limit: unfinished tables of bots only per address (0: no cap).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.recent: dict[str, dict[str, float]] = {}  # owner key -> table id -> unix time

    async def admit(self, manager: TableManager, address: str, table_id: str) -> None:
        """Count ``table_id`` against ``address``, or refuse it.

        Raises:
            LobbyError: ``too_many_bot_tables`` (429), the address is at its cap.
        """
        if self.limit <= 0:
            return
        key = owner_key(address, "")
        now = time.time()
        hub: Any = getattr(manager, "hub", None)
        if hub is None:
            if len(self.recent) > 10_000:
                self.recent.clear()
            ids = self.recent.setdefault(key, {})
            ids[table_id] = now
        else:
            try:
                ids = await hub.address_tables(key, table_id, now)
            except Exception:  # Redis away (logged once): the guest's cap still holds
                return
        others = {t: at for t, at in ids.items() if t != table_id}
        statuses = await asyncio.to_thread(manager.store.statuses, list(others))
        active = [t for t, at in others.items()
                  if statuses.get(t) in ("waiting", "playing")
                  or (t not in statuses and now - at < PENDING)]  # fmt: skip
        gone = [t for t in others if t not in active]
        if gone:
            await self._drop(hub, key, gone)
        if len(active) >= self.limit:
            await self._drop(hub, key, [table_id])
            from septet.server.live import LobbyError

            raise LobbyError(
                "too_many_bot_tables",
                f"Your address already has {self.limit} tables of bots only in play; let one "
                "finish first.",
                status=429,
                message_ja=f"このアドレスからのボットだけのテーブルがすでに{self.limit}つ"
                "進行中です。終わるまでお待ちください。",
            )

    def forget(self, address: str, table_id: str) -> None:
        """``table_id`` was not created after all (embedded; scaled out it ages out)."""
        self.recent.get(owner_key(address, ""), {}).pop(table_id, None)

    async def _drop(self, hub: Any, key: str, ids: list[str]) -> None:
        if hub is None:
            for t in ids:
                self.recent.get(key, {}).pop(t, None)
            return
        try:
            await hub.address_forget(key, ids)
        except Exception:
            return
