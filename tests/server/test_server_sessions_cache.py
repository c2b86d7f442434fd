"""The cache of sessions (``Services.identities``): entries in use are read again in one
query (``refresh_sessions``) instead of one query per request, a session ended elsewhere is
forgotten at the next read, and entries nobody asked for within ``SESSION_KEEP`` are dropped
(a churning site does not keep every guest it ever saw)."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from sqlalchemy import delete

from septet.server.db import SessionRow
from septet.server.deps import SESSION_KEEP
from tests.server.conftest import make_client, new_guest


def _key(cookie: str) -> str:
    return hashlib.sha256(cookie.split("=", 1)[1].encode()).hexdigest()


def _me(client: Any, cookie: str) -> str | None:
    player = client.get("/api/me", headers={"Cookie": cookie}).json()["player"]
    return player["name"] if player else None


def _age(svc: Any, key: str, seconds: float) -> None:
    player, at = svc.identities[key]
    svc.identities[key] = (player, at - seconds)


def test_sessions_cache_refreshes_in_batches_and_forgets(tmp_path: Any) -> None:
    with make_client(f"sqlite:///{tmp_path / 's.sqlite3'}", session_cache_s=400.0) as client:
        svc = client.app.state.services
        cookies = [new_guest(client, f"p{i}") for i in range(3)]
        for c in cookies:
            assert _me(client, c)
        keys = [_key(c) for c in cookies]
        assert set(keys) <= set(svc.identities)
        # Nothing is due while every entry is younger than half of session_cache_s (the
        # background refresh, every 100 s here, does not run within the test).
        assert asyncio.run(svc.refresh_sessions()) == 0
        for k in keys:
            _age(svc, k, 300)
        # Another process ends p1's session (its row goes): one query reads all three,
        # keeps p0 and p2 (fresh again) and forgets p1.
        with svc.store.engine.begin() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.token_hash == keys[1]))
        assert asyncio.run(svc.refresh_sessions()) == 3
        assert keys[1] not in svc.identities
        assert asyncio.run(svc.refresh_sessions()) == 0  # p0, p2 fresh
        assert _me(client, cookies[1]) is None
        # An entry nobody asked for within SESSION_KEEP is dropped, not read again.
        svc.used[keys[0]] -= SESSION_KEEP + 1
        _age(svc, keys[2], 300)
        assert asyncio.run(svc.refresh_sessions()) == 1
        assert keys[0] not in svc.identities and keys[0] not in svc.used
        assert keys[2] in svc.identities
        # ... and comes back at its next request (read alone).
        assert _me(client, cookies[0]) == "p0"
