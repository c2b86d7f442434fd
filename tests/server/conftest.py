"""Fixtures of the server tests: a database per test (SQLite file, or a fresh PostgreSQL
schema), an app with its lifespan running, and guests with their secret tokens."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server import server_tiny  # noqa: F401  (registers "tiny-sevens")

PG_URL = os.environ.get(
    "SEPTET_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def _require_services() -> bool:
    return os.environ.get("SEPTET_REQUIRE_SERVICES") == "1"


def postgres_schema_url() -> tuple[str, Any]:
    """A URL on a fresh PostgreSQL schema (search_path) and a function that drops it.
    Skips (or fails under SEPTET_REQUIRE_SERVICES=1) when no server answers."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import OperationalError

    schema = f"septet_test_{secrets.token_hex(6)}"
    try:
        admin = create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except (OperationalError, ImportError) as exc:
        msg = f"PostgreSQL not reachable at {PG_URL} ({type(exc).__name__}). To run these "
        msg += "tests: start a PostgreSQL with a database named test that the user postgres "
        msg += "may use (.ci/run does; or apt-get install postgresql), or point "
        msg += "SEPTET_TEST_POSTGRES_URL=postgresql+psycopg://USER@HOST:PORT/DB at one"
        if _require_services():
            pytest.fail(msg)
        pytest.skip(msg)
    sep = "&" if "?" in PG_URL else "?"
    url = f"{PG_URL}{sep}options=-csearch_path%3D{schema}"

    def drop() -> None:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return url, drop


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """The database URL of one test: an SQLite file, then a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'septet.sqlite3'}"
        return
    url, drop = postgres_schema_url()
    try:
        yield url
    finally:
        drop()


@contextlib.contextmanager
def make_client(db_url: str, **overrides: Any) -> Iterator[Any]:
    """A TestClient of a fresh app (bots move at once, seats replaceable after 0.2 s, and a
    rate limit high enough for test clients that answer instantly), with ``overrides`` of the
    settings. WebSockets opened through ``WsClient`` are closed before the app stops, even when
    a test fails."""
    from fastapi.testclient import TestClient

    from septet.server import Settings, create_app
    from tests.server.server_clients import close_all

    fields: dict[str, Any] = dict(
        database_url=db_url,
        bot_delay=0.0,
        replace_after=0.2,
        rate_per_second=1000.0,
        rate_burst=1000.0,
        guest_burst=1000.0,
    )
    fields.update(overrides)
    with TestClient(create_app(Settings(**fields))) as c:
        try:
            yield c
        finally:
            close_all()


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    """A TestClient of a fresh app (see :func:`make_client`)."""
    with make_client(db_url) as c:
        yield c


def new_guest(client: Any, name: str) -> str:
    """Create a guest named ``name``; returns its cookie header value (the secret token)."""
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    token = r.cookies["septet_token"]
    client.cookies.clear()
    return f"septet_token={token}"
