"""The score keeper on a site of several server processes (``septet serve --redis URL``): a
sheet edited through one process reaches the phones connected to another, over the tables'
Redis fan-out. Needs Redis (127.0.0.1:6379) and PostgreSQL; skipped with a message without."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import postgres_schema_url
from tests.server.multiproc import (
    drop_redis_prefix,
    free_port,
    redis_or_skip,
    redis_prefix,
    start_server,
    stop,
)

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def two_servers() -> Iterator[tuple[int, int]]:
    """Two server processes on one PostgreSQL schema and one Redis prefix: their ports."""
    redis_url = redis_or_skip()
    url, drop = postgres_schema_url()
    prefix = redis_prefix()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        ports = []
        for _ in range(2):
            port = free_port()
            procs.append(start_server(url, port, "--redis", redis_url, "--redis-prefix", prefix))
            ports.append(port)
        yield ports[0], ports[1]
    finally:
        for proc in procs:
            stop(proc)
        drop()
        drop_redis_prefix(prefix)


def _next_sheet(ws: Any, version: int, timeout: float = 10.0) -> dict[str, Any]:
    """The first sheet message of ``ws`` at ``version`` or later."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, f"no sheet at version {version} within {timeout} s"
        msg = json.loads(ws.recv(timeout=left))
        if msg.get("type") == "sheet" and msg["sheet"]["version"] >= version:
            return dict(msg["sheet"])


def test_an_entry_posted_to_one_process_reaches_a_phone_on_another(
    two_servers: tuple[int, int],
) -> None:
    from websockets.sync.client import connect

    a, b = two_servers
    r = httpx.post(f"http://127.0.0.1:{a}/api/score/sheets", timeout=10,
                   json={"game": "flip7", "players": ["Aki", "Ben"], "options": {}})  # fmt: skip
    assert r.status_code == 200, r.text
    sheet = r.json()
    with (
        connect(f"ws://127.0.0.1:{b}/ws/score/{sheet['id']}") as ws_b,
        connect(f"ws://127.0.0.1:{a}/ws/score/{sheet['id']}") as ws_a,
    ):
        assert _next_sheet(ws_b, 0)["entries"] == []
        assert _next_sheet(ws_a, 0)["entries"] == []
        # F7V-7.3 on process A: 48 ÷ 2 = 24, −4 → 20, +15 for the Flip 7 → 35.
        row = {"cards": ["3", "11", "5", "7", "10", "8", "4", "/2", "-4"]}
        op = {"op": "add", "entry": {"rows": [row, {"points": 12}]}}
        r = httpx.post(f"http://127.0.0.1:{a}/api/score/sheets/{sheet['id']}/ops", timeout=10,
                       json={"version": sheet["version"], "op": op})  # fmt: skip
        assert r.status_code == 200, r.text
        seen = _next_sheet(ws_b, sheet["version"] + 1)
        assert seen["totals"] == [35, 12] and len(seen["entries"]) == 1
        # And back: an undo through process B reaches the phone on process A.
        r = httpx.post(f"http://127.0.0.1:{b}/api/score/sheets/{sheet['id']}/ops", timeout=10,
                       json={"version": seen["version"], "op": {"op": "undo"}})  # fmt: skip
        assert r.status_code == 200, r.text
        back = _next_sheet(ws_a, seen["version"] + 1)
        assert back["totals"] == [0, 0]
