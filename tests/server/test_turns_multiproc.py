"""Turn-based tables across processes (issue 28): two ``septet serve --redis`` processes and a
``septet bots`` worker on one PostgreSQL database, their clocks moved together through the
test-only ``SEPTET_TEST_CLOCK_FILE`` (never slept). Two people on different processes play
moves hours apart; the "your turn" push crosses processes; at a missed deadline exactly one
Normal bot move is made though all three sweep for it; a process holding the table killed with
SIGKILL at the next deadline loses nothing and the others make that move once. Long (three
processes): ``pytest -m slow``."""

from __future__ import annotations

import json
import queue
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from septet.server.store import Store
from septet.server.turns.clock import ENV_CLOCK_FILE, OffsetFileClock
from tests.server.conftest import postgres_schema_url
from tests.server.multiproc import (
    RealWs,
    drop_redis_prefix,
    free_port,
    redis_or_skip,
    redis_prefix,
    start_server,
    start_worker,
    stop,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]  # about a minute on 2 cores
HOUR = 3600.0


class Site:
    """Two servers and a worker sharing a database, a Redis and a clock file."""

    def __init__(self, tmp: Path) -> None:
        self.redis = redis_or_skip()
        self.url, self._drop = postgres_schema_url()
        self.prefix = redis_prefix()
        self.clock_file = tmp / "clock-offset"
        OffsetFileClock.write(self.clock_file, 0)
        self.procs: list[subprocess.Popen[bytes]] = []

    def server(self, port: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
        port = port or free_port()
        proc = start_server(self.url, port, "--redis", self.redis, "--redis-prefix", self.prefix,
                            "--bot-timeout", "2", "--sweep-interval", "0.3")  # fmt: skip
        self.procs.append(proc)
        return proc, port

    def worker(self) -> subprocess.Popen[bytes]:
        proc = start_worker(self.url, self.redis, self.prefix, "--processes", "1",
                            "--sweep-interval", "0.3")  # fmt: skip
        self.procs.append(proc)
        return proc

    def hours(self, hours: float) -> None:
        """Move every process's clock to ``hours`` after the real time."""
        OffsetFileClock.write(self.clock_file, hours * HOUR)

    def close(self) -> None:
        for proc in self.procs:
            stop(proc)
        self._drop()
        drop_redis_prefix(self.prefix)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    s = Site(tmp_path)
    monkeypatch.setenv(ENV_CLOCK_FILE, str(s.clock_file))  # the children inherit it
    try:
        yield s
    finally:
        s.close()


def guest(port: int, name: str) -> str:
    r = httpx.post(f"http://127.0.0.1:{port}/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return f"septet_token={r.cookies['septet_token']}"


def table(port: int, tid: str) -> dict[str, Any]:
    return dict(httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}", timeout=10).json())


def wait(pred: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.1)


def move(ws: RealWs, version: int) -> int:
    """Play the first legal move offered to ``ws`` at ``version``; returns that version."""
    state = ws.wait_for(lambda m: m["type"] == "state" and m["legal"] and m["version"] == version)
    ws.send({"type": "move", "version": state["version"], "action": state["legal"][0]["a"]})
    ws.wait_for(lambda m: m["type"] == "ack" and m["at"] == state["version"])
    return int(state["version"])


def test_turns_two_processes_hours_apart_one_timeout_and_kill(site: Site) -> None:
    proc_a, port_a = site.server()
    _, port_b = site.server()
    site.worker()
    ann, bob = guest(port_a, "Ann"), guest(port_b, "Bob")
    options = {"target": 60, "pace": "turn-based", "turn_hours": 24}
    body = {"game": "tiny-sevens", "options": options, "seats": ["human", "human"]}
    r = httpx.post(f"http://127.0.0.1:{port_a}/api/tables", json=body, headers={"cookie": ann})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    r = httpx.post(f"http://127.0.0.1:{port_b}/api/tables/{tid}/join", json={},
                   headers={"cookie": bob})  # fmt: skip
    assert r.status_code == 200, r.text
    inbox: queue.Queue[Any] = queue.Queue()
    ws = {0: RealWs(port_a, tid, ann, inbox, "ann@A"), 1: RealWs(port_b, tid, bob, inbox, "bob@B")}
    me_cm = connect(f"ws://127.0.0.1:{port_b}/ws/me", additional_headers={"Cookie": bob})
    me_bob = me_cm.__enter__()
    first = json.loads(me_bob.recv(timeout=10))
    assert first["type"] == "turns"
    store = Store(site.url)
    try:
        # moves hours apart, each on its own process; each deadline 24 h after its move
        for hours in (0, 5, 20, 41):  # each before the deadline of the move before
            site.hours(hours)
            now = table(port_a, tid)
            seat = now["to_move"]
            move(ws[seat], now["version"])
            due = datetime.fromisoformat(table(port_b, tid)["deadline"])
            expect = OffsetFileClock(site.clock_file).now() + timedelta(hours=24)
            assert abs((due - expect).total_seconds()) < 30, (due, expect)
            if seat == 0:  # Ann moved on A: Bob's page on B hears that it is his turn
                pushed = json.loads(me_bob.recv(timeout=10))
                while pushed["your_turn"] != tid:
                    pushed = json.loads(me_bob.recv(timeout=10))
                assert [t["id"] for t in pushed["turns"]] == [tid]
        before = table(port_a, tid)
        moves_before = store.count_moves(tid)
        # the deadline passes for both processes and the worker at once
        site.hours(41 + 24.05)
        wait(lambda: table(port_a, tid)["version"] > before["version"])
        time.sleep(3)  # ten more sweeps each: nothing more may happen
        after = table(port_b, tid)
        assert after["version"] == before["version"] + 1
        assert store.count_moves(tid) == moves_before + 1
        assert after["timeouts"] == [{"v": before["version"], "seat": before["to_move"]}]
        assert after["seats"][before["to_move"]]["missed"] == 1
        for w in ws.values():  # both sockets (both processes) saw the bot's move
            w.wait_for(lambda m: m["type"] == "state" and m["version"] == after["version"])
        # the next deadline: A (holding Ann's socket) is killed with SIGKILL as it passes
        at_kill = table(port_b, tid)
        moves_kill = store.count_moves(tid)
        site.hours(41 + 24.05 + 24.1)
        proc_a.kill()
        proc_a.wait(10)
        wait(lambda: table(port_b, tid)["version"] > at_kill["version"])
        time.sleep(2)
        final = table(port_b, tid)
        assert final["version"] == at_kill["version"] + 1
        assert store.count_moves(tid) == moves_kill + 1
        assert [t["seat"] for t in final["timeouts"]] == [before["to_move"], at_kill["to_move"]]
        _, port_a2 = site.server(port_a)  # A again: the same table, nothing lost
        assert table(port_a2, tid)["version"] == final["version"]
    finally:
        store.close()
        me_cm.__exit__(None, None, None)
        for w in ws.values():
            w.close()
