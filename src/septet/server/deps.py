"""What the routes share, and the FastAPI dependencies that hand it to them.

:class:`Services` is built once by :func:`septet.server.app.create_app` and kept on
``app.state.services``; a route asks for what it needs with ``Depends``: the settings, the store,
the table manager, the guest behind the request (optional or required), a live table by id. The
dependencies take an ``HTTPConnection``, so the same ones serve HTTP routes and WebSockets.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from septet.server.config import Settings
from septet.server.live import LiveTable, LobbyError, TableManager, TokenBucket
from septet.server.store import Store

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
        guest_buckets: client address -> its bucket of new guests.
        sockets: sockets-cap key (guest id or address) -> open WebSockets in this process.
        accounts: sign-in, claiming, passwords, deletion (:mod:`septet.server.accounts`).
    """

    settings: Settings
    store: Store
    manager: TableManager
    identities: dict[str, tuple[Player, float]] = field(default_factory=dict)
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
            return found[0]
        row = await asyncio.to_thread(self.accounts.data.session, token)
        if row is None:
            self.identities.pop(key, None)
            return None
        if len(self.identities) > 50_000:
            self.identities.clear()
        player = Player(*row)
        self.identities[key] = (player, now)
        return player

    def remember(self, token: str, player: Player) -> None:
        """Cache ``player`` as the holder of ``token`` (after a rename, a sign-in)."""
        self.identities[hashlib.sha256(token.encode()).hexdigest()] = (player, time.monotonic())

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
