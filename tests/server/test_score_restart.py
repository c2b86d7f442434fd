"""A real server process killed with SIGKILL right after score-sheet changes were acknowledged,
started again on the same database: every acknowledged change is there (SQLite and
PostgreSQL)."""

from __future__ import annotations

import json
import signal

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.test_server_restart import free_port, start_server

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_score_sheet_survives_sigkill(db_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db_url, port)
    try:
        s = httpx.post(
            f"{base}/api/score/sheets", json={"game": "flip7", "players": ["Aki", "Ben"]}
        ).json()
        with connect(f"ws://127.0.0.1:{port}/ws/score/{s['id']}") as ws:
            assert json.loads(ws.recv(timeout=10))["sheet"]["version"] == 0
            for points in range(1, 9):
                entry = {"rows": [{"points": points}, {"cards": ["12", str(points)]}]}
                got = httpx.post(
                    f"{base}/api/score/sheets/{s['id']}/ops",
                    json={"version": s["version"], "op": {"op": "add", "entry": entry}},
                )
                assert got.status_code == 200, got.text
                s = got.json()
                assert json.loads(ws.recv(timeout=10))["sheet"]["version"] == s["version"]
            s = httpx.post(
                f"{base}/api/score/sheets/{s['id']}/ops",
                json={"version": s["version"], "op": {"op": "undo"}},
            ).json()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = start_server(db_url, port)
        again = httpx.get(f"{base}/api/score/sheets/{s['id']}").json()
        assert again == s
        # 1 + … + 7 (the 8th round undone) and 12 + n for n = 1 … 7.
        assert again["totals"] == [28, 7 * 12 + 28] and again["redo"] == {"op": "add", "index": 7}
    finally:
        proc.kill()
        proc.wait(10)
