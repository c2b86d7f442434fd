"""What the accounts tests share: an app whose argon2 costs almost nothing (the parameters are
not what these tests check; test_accounts_passwords.py measures the real ones), and a look at
the database to check that a refusal changed nothing."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from sqlalchemy import text

from septet.server.accounts.passwords import Passwords
from tests.server.conftest import make_client

CHEAP = {"time_cost": 1, "memory_cost": 64, "parallelism": 1, "hash_len": 32, "salt_len": 16}
"""argon2id parameters that cost well under a millisecond."""


@contextlib.contextmanager
def accounts_client(db_url: str, **overrides: Any) -> Iterator[Any]:
    """A TestClient (:func:`make_client`) whose passwords hash with :data:`CHEAP`."""
    with make_client(db_url, **overrides) as client:
        client.app.state.services.accounts.passwords = Passwords(parameters=CHEAP)
        yield client


def snapshot(client: Any) -> dict[str, list[tuple[Any, ...]]]:
    """The players and sessions rows, sorted: compare before and after a refused request."""
    engine = client.app.state.store.engine
    with engine.connect() as conn:
        return {
            "players": sorted(tuple(r) for r in conn.execute(text(
                "SELECT id, name, name_key, password_hash, deleted_at FROM septet_players"))),
            "sessions": sorted(tuple(r) for r in conn.execute(text(
                "SELECT token_hash, player_id FROM septet_sessions"))),
        }  # fmt: skip


def cookie_of(response: Any) -> str:
    """The ``Cookie`` header value for the session a response set."""
    return f"septet_token={response.cookies['septet_token']}"
