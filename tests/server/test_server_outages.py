"""A scaled-out site through outages, as docs/deploy.md deploys it (``septet serve --redis`` and
``septet bots`` processes on PostgreSQL, on loopback), with a ``redis-server`` of the test's own
on a free port:

- Redis killed and started again empty under a worker: the worker stays up, recreates the
  queue's consumer group, queues again the due bot turns, and the bots move on without a
  restart; its log says one line when the outage starts and one when it ends, no traceback;
- a worker started while Redis is down waits for it, then plays;
- a worker killed in the middle of a turn: another takes the turn within the move's budget
  plus 2 seconds (and the poll of :data:`septet.server.worker.CLAIM_EVERY`);
- ``pg_terminate_backend`` of every connection of the site, 20 rounds while a person plays:
  no answer ``server``, no 500.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import PG_URL, postgres_schema_url
from tests.server.multiproc import CODE, ROOT, RealWs, _env, free_port, start_server, stop

pytestmark = pytest.mark.timeout(300)
BUDGET = 2.0


def _need_redis_server() -> str:
    path = shutil.which("redis-server")
    if path is None:
        msg = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("SEPTET_REQUIRE_SERVICES") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return path


class OwnRedis:
    """A ``redis-server`` of this test only, without persistence (a restart loses its data)."""

    def __init__(self) -> None:
        self.binary = _need_redis_server()
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no"]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            with contextlib.suppress(Exception):
                if redis.Redis(port=self.port, socket_connect_timeout=0.5).ping():
                    return
            time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None:
            stop(self.proc, kill=True)
            self.proc = None

    def client(self) -> Any:
        import redis

        return redis.Redis(port=self.port, decode_responses=True, socket_connect_timeout=2)


class Site:
    """Servers and workers of one test on ``db_url``; :meth:`close` stops them all."""

    def __init__(self, db_url: str, redis_url: str, tmp: Path) -> None:
        self.db_url, self.redis_url, self.tmp = db_url, redis_url, tmp
        self.prefix = f"septet-test-{secrets.token_hex(4)}"
        self.procs: list[subprocess.Popen[bytes]] = []

    def server(self, *args: str) -> int:
        port = free_port()
        self.procs.append(start_server(self.db_url, port, "--redis", self.redis_url,
                                       "--redis-prefix", self.prefix, *args))  # fmt: skip
        return port

    def worker(self, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
        """A worker in its own process group (its bot processes die with it); its log file."""
        log = self.tmp / f"worker-{len(self.procs)}.log"
        cmd = [sys.executable, "-c", CODE, "bots", "--redis", self.redis_url, "--db", self.db_url,
               "--redis-prefix", self.prefix, "--bot-timeout", str(BUDGET), "--processes", "1",
               "--log-level", "warning", *args]  # fmt: skip
        with log.open("wb") as out:
            proc = subprocess.Popen(cmd, cwd=ROOT, env=_env(), stdout=out, stderr=out,
                                    start_new_session=True)  # fmt: skip
        self.procs.append(proc)
        return proc, log

    def bot_table(self, port: int, name: str, target: int = 300) -> str:
        r = httpx.post(f"http://127.0.0.1:{port}/api/guest", json={"name": name}, timeout=10)
        cookie = f"septet_token={r.cookies['septet_token']}"
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=10,
                       json={"game": "tiny-sevens", "options": {"target": target},
                             "seats": ["bot:random"] * 3}, headers={"cookie": cookie})  # fmt: skip
        assert r.status_code == 200, r.text
        return str(r.json()["id"])

    def version(self, port: int, table_id: str) -> int:
        return int(httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}", timeout=10)
                   .json()["version"])  # fmt: skip

    def wait_version(self, port: int, table_id: str, above: int, timeout: float) -> float:
        """Seconds until the table's version passes ``above``."""
        start = time.monotonic()
        while self.version(port, table_id) <= above:
            assert time.monotonic() - start < timeout, f"{table_id} stuck at {above}"
            time.sleep(0.05)
        return time.monotonic() - start

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGTERM)
            stop(proc)


@pytest.fixture
def redis_own() -> Iterator[OwnRedis]:
    own = OwnRedis()
    try:
        yield own
    finally:
        own.kill()


@pytest.fixture
def pg_url() -> Iterator[str]:
    url, drop = postgres_schema_url()
    try:
        yield url
    finally:
        drop()


def _outage_lines(log: Path) -> tuple[list[str], list[str], str]:
    text = log.read_text(errors="replace")
    lines = text.splitlines()
    return ([x for x in lines if "Redis unreachable" in x],
            [x for x in lines if "Redis is back" in x], text)  # fmt: skip


def test_outages_worker_outlives_a_redis_restart(
    redis_own: OwnRedis, pg_url: str, tmp_path: Path
) -> None:
    redis_own.start()
    site = Site(pg_url, redis_own.url, tmp_path)
    try:
        port = site.server("--bot-delay", "0.05")
        worker, log = site.worker("--bot-delay", "0.05")
        tid = site.bot_table(port, "Before")
        site.wait_version(port, tid, 5, 30)
        redis_own.kill()
        time.sleep(2.5)  # the worker sees the outage
        stalled = site.version(port, tid)
        time.sleep(1.0)
        assert site.version(port, tid) <= stalled + 1  # (a turn in flight may still commit)
        redis_own.start()  # empty: no stream, no group
        site.wait_version(port, tid, site.version(port, tid), 20)  # the bots move on
        after = site.bot_table(port, "After", target=30)
        site.wait_version(port, after, 3, 20)
        groups = redis_own.client().xinfo_groups(f"{site.prefix}:bots")
        assert [g["name"] for g in groups] == ["workers"]
        assert worker.poll() is None
        down, back, text = _outage_lines(log)
        assert len(down) == 1 and len(back) == 1, text
        assert "Traceback" not in text, text
    finally:
        site.close()


def test_outages_worker_starts_while_redis_is_down(
    redis_own: OwnRedis, pg_url: str, tmp_path: Path
) -> None:
    site = Site(pg_url, redis_own.url, tmp_path)
    try:
        worker, log = site.worker("--bot-delay", "0.05")
        end = time.monotonic() + 60
        while not _outage_lines(log)[0]:  # it started, and waits for Redis
            assert worker.poll() is None and time.monotonic() < end, log.read_text()
            time.sleep(0.1)
        time.sleep(2.0)
        assert worker.poll() is None, log.read_text()
        redis_own.start()
        port = site.server("--bot-delay", "0.05")
        tid = site.bot_table(port, "Late", target=30)
        site.wait_version(port, tid, 3, 30)
        down, back, text = _outage_lines(log)
        assert len(down) == 1 and len(back) == 1 and "Traceback" not in text, text
    finally:
        site.close()


def test_outages_dead_workers_turn_taken_within_budget(
    redis_own: OwnRedis, pg_url: str, tmp_path: Path
) -> None:
    redis_own.start()
    site = Site(pg_url, redis_own.url, tmp_path)
    r = redis_own.client()
    try:
        port = site.server("--bot-delay", "1.5")  # the first turn waits 1.5 s in a worker
        workers = {site.worker()[0].pid for _ in range(2)}
        end = time.monotonic() + 60
        while r.zcard(f"{site.prefix}:workers") < 2:
            assert time.monotonic() < end, "the workers did not start"
            time.sleep(0.1)
        tid = site.bot_table(port, "Orphan", target=30)
        while not (pending := r.xpending(f"{site.prefix}:bots", "workers"))["pending"]:
            time.sleep(0.01)
        holder = int(pending["consumers"][0]["name"].rsplit("-", 2)[1])
        assert holder in workers
        version = site.version(port, tid)
        os.killpg(holder, signal.SIGKILL)  # before its turn's time: the turn is left pending
        taken = site.wait_version(port, tid, version, 30)
        # idle for the budget plus 2 s since the dead worker read it, then claimed (0.5 s poll)
        print(f"dead worker's turn taken after {taken:.2f} s (budget {BUDGET} s)")
        assert taken <= BUDGET + 2.0 + 1.0, taken
    finally:
        site.close()


@pytest.fixture
def own_database() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database (its URL, its name): its connections are only this test's."""
    from sqlalchemy import create_engine, text

    postgres_schema_url()[1]()  # (skips, or fails under SEPTET_REQUIRE_SERVICES, without one)
    name = f"septet_i26_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_URL.rsplit("/", 1)[0] + f"/{name}", name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _terminate_all(name: str) -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            return len(conn.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"
            ), {"n": name}).all())  # fmt: skip
    finally:
        engine.dispose()


def _poll_http(ports: list[int], tid: str, stop_at: threading.Event, bad: list[Any]) -> None:
    """Ask the servers what a lobby asks, until ``stop_at``; every 5xx goes to ``bad`` but a 503
    of /api/ready and the 503 ``unavailable`` (in player words, "try again") of a request that
    met the dropped connection: issue 26 asks for no ``server`` answer and no 500, and a move's
    own retry is checked by the person's acknowledgements."""
    while not stop_at.is_set():
        for port in ports:
            for method, path, body in (("GET", f"/api/tables/{tid}", None),
                                       ("GET", "/api/tables", None),
                                       ("POST", "/api/guest", {"name": "Poller"}),
                                       ("GET", "/api/ready", None)):  # fmt: skip
                r = httpx.request(method, f"http://127.0.0.1:{port}{path}", json=body, timeout=10)
                allowed = r.status_code == 503 and (
                    path == "/api/ready" or '"unavailable"' in r.text
                )
                if r.status_code >= 500 and not allowed:
                    bad.append((path, r.status_code, r.text[:200]))
        time.sleep(0.05)


def _acks(ws: RealWs) -> int:
    """How many of the person's moves the server has acknowledged so far."""
    return sum(1 for m in list(ws.messages) if m["type"] == "ack")


def _person(ws: RealWs, rng: random.Random, stop_at: threading.Event) -> None:
    """Play the seat's turns at a person's pace until the game ends or ``stop_at``."""
    seen = 0
    while not stop_at.is_set() and not ws.closed.is_set():
        while seen < len(ws.messages):
            msg = ws.messages[seen]
            seen += 1
            if msg["type"] == "state" and msg["table"]["status"] == "finished":
                return
            if msg["type"] == "state" and msg["legal"]:
                time.sleep(0.11)
                ws.send({"type": "move", "version": msg["version"],
                         "action": rng.choice(msg["legal"])["a"]})  # fmt: skip
        time.sleep(0.01)


def test_outages_pg_terminate_backend_reaches_no_player(
    redis_own: OwnRedis, own_database: tuple[str, str], tmp_path: Path
) -> None:
    url, name = own_database
    redis_own.start()
    site = Site(url, redis_own.url, tmp_path)
    try:
        ports = [site.server("--bot-delay", "0.05"), site.server("--bot-delay", "0.05")]
        site.worker("--bot-delay", "0.05")
        r = httpx.post(f"http://127.0.0.1:{ports[0]}/api/guest", json={"name": "Aki"}, timeout=10)
        cookie = f"septet_token={r.cookies['septet_token']}"
        body = {"game": "tiny-sevens", "options": {"target": 200}, "seats": ["human", "bot:random"]}
        r = httpx.post(f"http://127.0.0.1:{ports[0]}/api/tables", json=body, timeout=10,
                       headers={"cookie": cookie})  # fmt: skip
        tid = r.json()["id"]
        ws = RealWs(ports[1], tid, cookie, queue.Queue(), "Aki@B")
        stop_at, bad = threading.Event(), []
        threads = [
            threading.Thread(target=_person, args=(ws, random.Random(3), stop_at)),
            threading.Thread(target=_poll_http, args=(ports, tid, stop_at, bad)),
        ]
        for t in threads:
            t.start()
        # At least 20 rounds of terminations, on until the person has had 15 moves acknowledged
        # through them (a loaded machine plays fewer moves in the same 8 s: CI saw 13); a server
        # that loses moves to the outages never gets there and fails at the deadline.
        killed, rounds, deadline = 0, 0, time.monotonic() + 60
        while rounds < 20 or (_acks(ws) < 15 and time.monotonic() < deadline):
            time.sleep(0.4)
            killed += _terminate_all(name)
            rounds += 1
        time.sleep(1.0)
        stop_at.set()
        for t in threads:
            t.join(20)
        ws.close()
        acks = [m for m in ws.messages if m["type"] == "ack"]
        errors = [m for m in ws.messages if m["type"] == "error" and m["code"] != "stale"]
        assert killed >= 40 and len(acks) >= 15, (killed, len(acks))
        assert errors == [] and bad == [], (errors[:5], bad[:5])
    finally:
        site.close()
