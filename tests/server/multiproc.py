"""Real processes for the many-process tests and benchmarks: ``septet serve`` and
``septet bots`` children (with the tiny test game registered), on loopback."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

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
        msg = f"Redis not reachable at {REDIS_URL} ({type(exc).__name__}); .ci/run starts one"
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
