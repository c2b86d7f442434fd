"""Real processes for the many-process tests and benchmarks: ``septet serve`` and
``septet bots`` children (with the tiny test game registered), on loopback."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.server_clients import WsClient

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("SEPTET_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CODE = "import tests.server.server_tiny; from septet.cli import main; main()"


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_prefix() -> str:
    """A Redis key prefix of its own for one test run (the shared Redis is never flushed)."""
    return f"septet-test-{secrets.token_hex(5)}"


def redis_or_skip() -> str:
    """The test Redis URL; skips (fails under SEPTET_REQUIRE_SERVICES=1) when none answers."""
    import pytest

    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:
        msg = f"Redis not reachable at {REDIS_URL} ({type(exc).__name__}). To run these "
        msg += "tests: start a Redis (.ci/run does; or apt-get install redis-server), or "
        msg += "point SEPTET_TEST_REDIS_URL=redis://HOST:PORT/DB at one"
        if os.environ.get("SEPTET_REQUIRE_SERVICES") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return REDIS_URL


def drop_redis_prefix(prefix: str) -> None:
    """Delete the keys of one test run (only those)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


def _env() -> dict[str, str]:
    # The tree under test first (a worktree or a clone run with the venv of another checkout).
    path = [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}


def start_server(db_url: str, port: int, *args: str) -> subprocess.Popen[bytes]:
    """``septet serve`` on ``port`` (extra ``args``: ``--redis URL`` ...), once it answers."""
    cmd = [sys.executable, "-c", CODE, "serve", "--port", str(port), "--db", db_url]
    cmd += ["--bot-delay", "0.02", "--log-level", "warning", *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=_env())
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


def start_worker(db_url: str, redis_url: str, prefix: str, *args: str) -> subprocess.Popen[bytes]:
    """``septet bots`` on the site's queue."""
    cmd = [sys.executable, "-c", CODE, "bots", "--redis", redis_url, "--db", db_url]
    cmd += ["--redis-prefix", prefix, "--bot-delay", "0.02", "--log-level", "warning", *args]
    return subprocess.Popen(cmd, cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL)


def stop(proc: subprocess.Popen[bytes], kill: bool = False) -> None:
    """Stop a child (SIGKILL with ``kill``) and reap it."""
    if proc.poll() is None:
        proc.kill() if kill else proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class RealWs(WsClient):
    """A WebSocket of a real server process, read by a background thread (the same interface
    as ``WsClient``: ``messages``, ``inbox``, ``send``, ``wait_for``, ``states``)."""

    def __init__(
        self, port: int, table_id: str, cookie: str | None, inbox: queue.Queue[Any], label: str
    ) -> None:
        from websockets.sync.client import connect

        headers = {"Cookie": cookie} if cookie else None
        self.label = label
        self.port = port
        self.cm: Any = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
                               additional_headers=headers, max_size=2**22)  # fmt: skip
        self.ws: Any = self.cm.__enter__()
        self.inbox = inbox
        self.messages: list[dict[str, Any]] = []
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                msg = json.loads(self.ws.recv())
                self.messages.append(msg)
                self.inbox.put((self, msg))
        except Exception:
            self.closed.set()
            self.inbox.put((self, None))

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.cm.__exit__(None, None, None)
        self.closed.wait(5)
