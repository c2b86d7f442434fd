"""Memory soak (issue 26): a few hundred tables played to their end through a real uvicorn
server (WebSockets, the bench's churn: bench/bench_soak.py), then every per-table structure of
the server is empty again, the asyncio tasks and SQLite connections are as many as after the
warm-up, the prepared statements SQLite holds are bounded (the session refresh reads in padded
IN lists: :func:`septet.server.db.in_chunks`), and the process's Python heap grew by no more
than a bound after the warm-up (RSS is measured by the benchmark itself over minutes)."""

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


def _bench(name: str = "bench_soak") -> Any:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
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


def held(app: Any, probe: Any, lib: Any) -> dict[str, int]:
    """What the process holds beyond the per-table maps: asyncio tasks, open SQLite
    connections and the prepared statements on them (bench/soak_server.py's probe)."""
    sqlite = probe.sqlite_probe(lib)
    return {"tasks": len(asyncio.all_tasks()), "connections": sqlite["sqlite_connections"],
            "statements": sqlite["sqlite_stmts"]}  # fmt: skip


@pytest.mark.slow
def test_soak_table_churn_leaves_nothing_behind(tmp_path: Any, monkeypatch: Any) -> None:
    import uvicorn
    from sqlalchemy import event

    from septet.server import Settings, create_app, deps

    bench = _bench()
    probe = _bench("soak_server")
    lib = probe._libsqlite()
    monkeypatch.setattr(deps, "SESSION_KEEP", 1.0)  # (cached sessions age out within the test)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'soak.sqlite3'}", bot_delay=0.0, bot_workers=1,
        guest_burst=1e6, guests_per_minute=1e6, rate_per_second=1000.0, rate_burst=1000.0,
        session_cache_s=0.4,  # (refreshed every 0.1 s: many lengths of the sessions' IN list)
    )  # fmt: skip
    app = create_app(settings)
    texts: set[str] = set()

    def seen_sql(_conn: Any, _cur: Any, statement: str, *_args: Any) -> None:
        texts.add(statement)

    event.listen(app.state.services.store.engine, "before_cursor_execute", seen_sql)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    base = f"http://127.0.0.1:{port}"

    async def run() -> tuple[dict[str, int], dict[str, int], dict[str, int], int, int, int]:
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
            warm, warm_held = sys.getallocatedblocks(), held(app, probe, lib)
            await tables(200, 10_000)
            await asyncio.sleep(1.5)  # sockets closed, sessions unused past SESSION_KEEP
            await app.state.services.refresh_sessions()
            gc.collect()
            end_held = held(app, probe, lib)
            return (per_table_sizes(app), warm_held, end_held, warm, sys.getallocatedblocks(),
                    len(done))  # fmt: skip
        finally:
            server.should_exit = True
            await task

    sizes, warm_held, end_held, warm, end, played = asyncio.run(run())
    assert played == 240
    assert sizes == dict.fromkeys(sizes, 0), sizes
    assert end_held["tasks"] <= warm_held["tasks"], (warm_held, end_held)
    assert end_held["connections"] <= max(warm_held["connections"], settings_pool_size()), end_held
    # The session refresh read lists of many lengths, in at most 7 shapes (1, 2, 4, ... 64):
    # one prepared statement per shape and connection, not one per length.
    shapes = {t for t in texts if t.lstrip().startswith("SELECT") and "septet_sessions" in t
              and " IN (" in t}  # fmt: skip
    assert 2 <= len(shapes) <= 7, len(shapes)
    assert end_held["statements"] - warm_held["statements"] <= 7 * end_held["connections"], (
        warm_held, end_held)  # fmt: skip
    # Python objects left per table after the warm-up (a table's state, record, views and
    # sockets are thousands of blocks: one kept per table would be far above this).
    assert (end - warm) / 200 < 100, (warm, end)


def settings_pool_size() -> int:
    """The SQLite pool's kept connections (:func:`septet.server.db.make_engine`)."""
    return 8
