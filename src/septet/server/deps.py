"""What the routes share, and the FastAPI dependencies that hand it to them.

:class:`Services` is built once by :func:`septet.server.app.create_app` and kept on
``app.state.services``; a route asks for what it needs with ``Depends``: the settings, the store,
the table manager, the guest behind the request (optional or required), a live table by id. The
dependencies take an ``HTTPConnection``, so the same ones serve HTTP routes and WebSockets.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from septet.server.config import Settings
from septet.server.live import LiveTable, LobbyError, TableManager, TokenBucket
from septet.server.store import Store

log = logging.getLogger("septet.server")

SESSION_KEEP = 120.0
"""Seconds a cached session is kept (and read again) after it was last asked for."""

if TYPE_CHECKING:
    from septet.server.accounts.service import Accounts

COOKIE = "septet_token"
"""The cookie holding a guest's secret token."""


@dataclass(frozen=True)
class Player:
    """The player behind a request: ``id``, display ``name``, and ``account``: whether it is
    an account (signed in with a password) rather than a guest (issue 24)."""

    id: str
    name: str
    account: bool = False


@dataclass
class Services:
    """The server's shared parts.

    Attributes:
        settings: the server settings.
        store: the database.
        manager: the live tables.
        identities: token digest -> (player, when read), a cache of the sessions
            (:meth:`~septet.server.accounts.data.AccountData.session`).
            Entries in use are read again in batches by :meth:`refresh_sessions`; entries
            unused for :data:`SESSION_KEEP` seconds are dropped (a site's every guest ever
            seen is not kept).
        used: token digest -> when its cached session was last asked for (monotonic).
        guest_buckets: client address -> its bucket of new guests.
        sockets: sockets-cap key (guest id or address) -> open WebSockets in this process.
        accounts: sign-in, claiming, passwords, deletion (:mod:`septet.server.accounts`).
    """

    settings: Settings
    store: Store
    manager: TableManager
    identities: dict[str, tuple[Player, float]] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    guest_buckets: dict[str, TokenBucket] = field(default_factory=dict)
    sockets: Counter[str] = field(default_factory=Counter)
    accounts: Accounts = field(init=False)

    def __post_init__(self) -> None:
        from septet.server.accounts.service import Accounts

        self.accounts = Accounts(self)

    async def identity(self, token: str | None) -> Player | None:
        """The player whose session holds ``token``, or ``None``. A session found is cached
        for ``settings.session_cache_s`` seconds, then read again (so a session ended on
        another process stops working here within that time; at once on this one)."""
        if not token or len(token) > 100:
            return None
        key = hashlib.sha256(token.encode()).hexdigest()
        found = self.identities.get(key)
        now = time.monotonic()
        if found is not None and now - found[1] < self.settings.session_cache_s:
            self.used[key] = now
            return found[0]
        row = await asyncio.to_thread(self.accounts.data.session, token)
        if row is None:
            self.identities.pop(key, None)
            return None
        if len(self.identities) > 50_000:
            self.identities.clear()
        player = Player(*row)
        self.identities[key] = (player, now)
        self.used[key] = now
        return player

    async def refresh_sessions(self) -> int:
        """Read again, in one query, every cached session in use (asked for within the last
        :data:`SESSION_KEEP` seconds) that is older than half of ``session_cache_s``, so
        that a socket's move finds its session fresh instead of reading it alone (on a busy
        site: a query per two moves); forget those ended elsewhere, and the entries unused for
        :data:`SESSION_KEEP` seconds. A session ended on another process still stops working
        here within ``session_cache_s``. Returns how many were read."""
        cache = self.settings.session_cache_s
        now = time.monotonic()
        for key in [k for k, at in self.used.items() if now - at > SESSION_KEEP]:
            del self.used[key]
            self.identities.pop(key, None)
        for key in [k for k in self.identities if k not in self.used]:
            del self.identities[key]
        due = {k: v for k, v in self.identities.items() if now - v[1] > cache / 2}
        if not due:
            return 0
        rows = await asyncio.to_thread(self.accounts.data.sessions, list(due))
        for key, before in due.items():
            if self.identities.get(key) is not before:  # forgotten or replaced meanwhile
                continue
            row = rows.get(key)
            if row is None:
                self.identities.pop(key, None)
            else:
                self.identities[key] = (Player(*row), now)
        return len(due)

    async def refresh_sessions_forever(self) -> None:
        """Run :meth:`refresh_sessions` every quarter of ``session_cache_s`` (nothing when it
        is 0: every request reads its session)."""
        from septet.server.metrics import is_outage

        cache = self.settings.session_cache_s
        if cache <= 0:
            return
        while True:
            await asyncio.sleep(max(0.1, cache / 4))
            try:
                await self.refresh_sessions()
            except Exception as exc:  # the database away: the requests read for themselves
                if not is_outage(exc):
                    log.exception("sessions not refreshed")

    def remember(self, token: str, player: Player) -> None:
        """Cache ``player`` as the holder of ``token`` (after a rename, a sign-in)."""
        key = hashlib.sha256(token.encode()).hexdigest()
        self.identities[key] = (player, time.monotonic())
        self.used[key] = time.monotonic()

    def client_address(self, conn: HTTPConnection) -> str:
        """The client's address: the first ``X-Forwarded-For`` hop when ``trust_proxy`` is
        set, else the peer of the connection."""
        if self.settings.trust_proxy:
            forwarded = conn.headers.get("x-forwarded-for", "")
            if forwarded.strip():
                return forwarded.split(",")[0].strip()[:64]
        return conn.client.host if conn.client else "?"

    def client_scheme(self, conn: HTTPConnection) -> str:
        """``https`` or ``http`` as the client used it (``X-Forwarded-Proto`` when
        ``trust_proxy`` is set)."""
        if self.settings.trust_proxy:
            forwarded = conn.headers.get("x-forwarded-proto", "").strip().lower()
            if forwarded in ("http", "https"):
                return forwarded
        return conn.url.scheme

    def allow_new_guest(self, address: str) -> bool:
        """Take one token from ``address``'s bucket of new guests."""
        buckets = self.guest_buckets
        if len(buckets) > 10_000:  # forget addresses whose bucket has refilled
            for key in [k for k, b in buckets.items() if b.full()]:
                del buckets[key]
        bucket = buckets.get(address)
        if bucket is None:
            rate = self.settings.guests_per_minute / 60.0
            bucket = buckets[address] = TokenBucket(self.settings.guest_burst, rate)
        return bucket.take()


def services(conn: HTTPConnection) -> Services:
    """The application's :class:`Services`."""
    found: Services = conn.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]


def settings(svc: ServicesDep) -> Settings:
    """The server settings."""
    return svc.settings


def store(svc: ServicesDep) -> Store:
    """The database."""
    return svc.store


def manager(svc: ServicesDep) -> TableManager:
    """The live tables."""
    return svc.manager


async def optional_player(conn: HTTPConnection, svc: ServicesDep) -> Player | None:
    """The guest whose cookie came with the request, or ``None``."""
    return await svc.identity(conn.cookies.get(COOKIE))


async def require_player(player: Annotated[Player | None, Depends(optional_player)]) -> Player:
    """The guest whose cookie came with the request.

    Raises:
        LobbyError: ``no_identity`` (401), no guest yet.
    """
    if player is None:
        raise LobbyError(
            "no_identity",
            "Choose a display name first.",
            status=401,
            message_ja="まず表示名を決めてください。",
        )
    return player


async def live_table(table_id: str, mgr: Annotated[TableManager, Depends(manager)]) -> LiveTable:
    """The table ``table_id`` (live, or a finished one loaded from the database).

    Raises:
        LobbyError: ``not_found`` (404).
    """
    table = await mgr.get_or_load(table_id[:40])
    if table is None:
        raise LobbyError("not_found", "No such table.", status=404,
                         message_ja="そのテーブルはありません。")  # fmt: skip
    return table


SettingsDep = Annotated[Settings, Depends(settings)]
StoreDep = Annotated[Store, Depends(store)]
ManagerDep = Annotated[TableManager, Depends(manager)]
OptionalPlayer = Annotated[Player | None, Depends(optional_player)]
RequiredPlayer = Annotated[Player, Depends(require_player)]
LiveTableDep = Annotated[LiveTable, Depends(live_table)]
