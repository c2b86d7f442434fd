"""Persistence: a real server process killed with SIGKILL in the middle of games and started
again has lost nothing; the games, bots included, carry on (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from septet.core import GameRecord, replay
from septet.server.store import Store

pytestmark = pytest.mark.timeout(180)
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int) -> subprocess.Popen[bytes]:
    """``septet serve`` in a child process (with the tiny test game registered)."""
    code = "import tests.server.server_tiny; from septet.cli import main; main()"
    cmd = [sys.executable, "-c", code, "serve", "--port", str(port), "--db", db_url]
    cmd += ["--bot-delay", "0.02", "--log-level", "warning"]
    # The tree under test first (a worktree or a clone run with the venv of another checkout).
    path = [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, "the server exited"
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def recv(ws: Any, pred: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if pred(msg):
            return msg  # type: ignore[no-any-return]


def test_server_sigkill_and_restart_loses_nothing(db_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db_url, port)
    try:
        http = httpx.Client(base_url=base, timeout=10)
        r = http.post("/api/guest", json={"name": "Aki"})
        cookie = f"septet_token={r.cookies['septet_token']}"
        seats_x = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        x = http.post(
            "/api/tables",
            json={"game": "tiny-sevens", "options": {"target": 200}, "seats": seats_x},
        ).json()["id"]
        seats_y = [{"kind": "bot", "bot": "random"}] * 3
        y = http.post(
            "/api/tables",
            json={"game": "tiny-sevens", "options": {"target": 500}, "seats": seats_y},
        ).json()["id"]
        acked: list[dict[str, Any]] = []
        with connect(
            f"ws://127.0.0.1:{port}/ws/tables/{x}", additional_headers={"Cookie": cookie}
        ) as ws:
            for _ in range(5):
                st = recv(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
                ws.send(json.dumps({"type": "move", "version": st["version"], "action": "add 1"}))
                acked.append(recv(ws, lambda m: m["type"] in ("ack", "error")))
        assert [a["type"] for a in acked] == ["ack"] * 5
        while http.get(f"/api/tables/{y}").json()["version"] < 20:
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    store = Store(db_url)
    before_x = store.get_table(x, with_moves=True)
    before_y = store.get_table(y, with_moves=True)
    store.close()
    assert before_x is not None and before_y is not None
    assert before_y.status == "playing" and before_y.version >= 20
    assert len(before_y.moves or []) == before_y.version
    # every acknowledged move was committed
    for a in acked:
        assert (before_x.moves or [])[a["at"]] == a["action"]
    assert before_x.version >= acked[-1]["version"]

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db_url, port)
    try:
        http = httpx.Client(base_url=base, timeout=10)
        # the bots of Y carry on to the end
        end = time.monotonic() + 120
        while (info := http.get(f"/api/tables/{y}").json())["status"] != "finished":
            assert time.monotonic() < end, info
            time.sleep(0.1)
        rec_y = GameRecord.from_json(http.get(f"/api/tables/{y}/record").json())
        assert rec_y.actions[: before_y.version] == before_y.moves
        assert replay(rec_y).is_terminal
        # Aki comes back to X and finishes it
        with connect(
            f"ws://127.0.0.1:{port}/ws/tables/{x}", additional_headers={"Cookie": cookie}
        ) as ws:
            st = recv(ws, lambda m: m["type"] == "state")
            assert st["seat"] == 0 and st["version"] >= before_x.version
            while st["table"]["status"] != "finished":
                if st["legal"]:
                    time.sleep(0.15)  # a person's pace: under the 10 messages/s rate limit
                    move = {"type": "move", "version": st["version"], "action": "add 3"}
                    ws.send(json.dumps(move))
                st = recv(ws, lambda m: m["type"] == "state")
        rec_x = GameRecord.from_json(http.get(f"/api/tables/{x}/record").json())
        assert rec_x.actions[: before_x.version] == before_x.moves
        assert rec_x.result is not None
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
