"""Memory soak (issue 26): a few hundred tables played to their end through a real uvicorn
server (WebSockets, the bench's churn: bench/bench_soak.py), then every per-table structure of
the server is empty again, and the process's Python heap grew by no more than a bound after
the warm-up (RSS is measured by the benchmark itself over minutes)."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> Any:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("bench_soak", ROOT / "bench" / "bench_soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def per_table_sizes(app: Any) -> dict[str, int]:
    """The sizes of the server's structures that hold something per table, socket or guest."""
    svc = app.state.services
    manager = svc.manager
    return {
        "tables": len(manager.tables),
        "sockets": len(svc.sockets),
        "identities": len(svc.identities),
        "identities_used": len(svc.used),
        "address_caps": sum(len(v) for v in manager.address_caps.recent.values()),
        "me_sockets": len(manager.notifier.sockets),
        "bot_sent": sum(len(sent) for sent in manager.bots._sent),
        "bot_waiters": sum(len(g) for gates in manager.bots._gates.values() for g in gates),
    }


@pytest.mark.slow
def test_soak_table_churn_leaves_nothing_behind(tmp_path: Any, monkeypatch: Any) -> None:
    import uvicorn

    from septet.server import Settings, create_app, deps

    bench = _bench()
    monkeypatch.setattr(deps, "SESSION_KEEP", 1.0)  # (cached sessions age out within the test)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'soak.sqlite3'}", bot_delay=0.0, bot_workers=1,
        guest_burst=1e6, guests_per_minute=1e6, rate_per_second=1000.0, rate_burst=1000.0,
    )  # fmt: skip
    app = create_app(settings)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    base = f"http://127.0.0.1:{port}"

    async def run() -> tuple[dict[str, int], int, int, int]:
        task = asyncio.get_running_loop().create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.05)
        try:
            done: list[int] = []

            async def tables(n: int, seed: int) -> None:
                got: list[int] = []
                await bench.churn_count(base, "flip7", n, 10, got, seed)
                done.extend(got)

            await tables(40, 0)  # warm-up: imports, caches, the SQLite page cache
            await asyncio.sleep(1.5)
            await app.state.services.refresh_sessions()
            gc.collect()
            warm = sys.getallocatedblocks()
            await tables(200, 10_000)
            await asyncio.sleep(1.5)  # sockets closed, sessions unused past SESSION_KEEP
            await app.state.services.refresh_sessions()
            gc.collect()
            return per_table_sizes(app), warm, sys.getallocatedblocks(), len(done)
        finally:
            server.should_exit = True
            await task

    sizes, warm, end, played = asyncio.run(run())
    assert played == 240
    assert sizes == dict.fromkeys(sizes, 0), sizes
    # Python objects left per table after the warm-up (a table's state, record, views and
    # sockets are thousands of blocks: one kept per table would be far above this).
    assert (end - warm) / 200 < 100, (warm, end)
