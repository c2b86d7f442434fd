"""``septet serve`` with a probe, for the memory soak (``bench/bench_soak.py --probe``).

    python bench/soak_server.py serve --port 8123 --db sqlite:///x.sqlite3 [serve's options]
    SOAK_TRACE=1 python bench/soak_server.py serve ...   # tracemalloc on from the start

The same command line as ``septet serve`` (the CLI of the tree on ``PYTHONPATH``, so a soak
can run an older tree's server with the same probe); the application gets one more route,
``GET /_soak/probe``, whose JSON says what the process holds: ``rss_mb`` (VmRSS),
``traced_mb`` (tracemalloc's traced Python heap, ``null`` without ``SOAK_TRACE``), SQLite's own
heap (``sqlite_mb``: ``sqlite3_memory_used``), the open SQLite connections with their prepared
statements (``sqlite_stmts``: ``sqlite3_next_stmt`` counted on each; ``sqlite_stmt_mb``:
``SQLITE_DBSTATUS_STMT_USED``; ``sqlite_cache_mb``: ``SQLITE_DBSTATUS_CACHE_USED``), the
entries of SQLAlchemy's compiled cache, the asyncio tasks, and the sizes of the server's
per-table maps. Only for benchmarks: the route answers anyone.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import os
import sqlite3
import sys
import tracemalloc
from pathlib import Path
from typing import Any

SQLITE_DBSTATUS_CACHE_USED = 1
SQLITE_DBSTATUS_STMT_USED = 3
MB = 1024 * 1024


def _libsqlite() -> ctypes.CDLL:
    import _sqlite3

    lib = ctypes.CDLL(_sqlite3.__file__)  # its libsqlite3 is searched through it
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    lib.sqlite3_next_stmt.restype = ctypes.c_void_p
    lib.sqlite3_next_stmt.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    pint = ctypes.POINTER(ctypes.c_int)
    lib.sqlite3_db_status.argtypes = [ctypes.c_void_p, ctypes.c_int, pint, pint, ctypes.c_int]
    return lib


def _handle(conn: sqlite3.Connection) -> int | None:
    """The ``sqlite3 *`` of a Python connection: CPython's ``pysqlite_Connection`` keeps it
    right after the object header (3.8–3.13); ``None`` for a closed one."""
    ptr = ctypes.c_void_p.from_address(id(conn) + object.__basicsize__).value
    return ptr or None


def _db_status(lib: ctypes.CDLL, db: int, op: int) -> int:
    """The current value of ``sqlite3_db_status(db, op)`` (bytes)."""
    cur, high = ctypes.c_int(0), ctypes.c_int(0)
    lib.sqlite3_db_status(db, op, ctypes.byref(cur), ctypes.byref(high), 0)
    return cur.value


def sqlite_probe(lib: ctypes.CDLL) -> dict[str, Any]:
    """SQLite's heap and, over every open ``sqlite3.Connection`` of the process, the prepared
    statements (count, bytes) and the page cache (bytes)."""
    conns = [o for o in gc.get_objects() if isinstance(o, sqlite3.Connection)]
    stmts = stmt_bytes = cache_bytes = 0
    open_conns = 0
    for conn in conns:
        db = _handle(conn)
        if db is None:
            continue
        open_conns += 1
        stmt = lib.sqlite3_next_stmt(db, None)
        while stmt:
            stmts += 1
            stmt = lib.sqlite3_next_stmt(db, stmt)
        stmt_bytes += _db_status(lib, db, SQLITE_DBSTATUS_STMT_USED)
        cache_bytes += _db_status(lib, db, SQLITE_DBSTATUS_CACHE_USED)
    return {
        "sqlite_mb": round(lib.sqlite3_memory_used() / MB, 2),
        "sqlite_connections": open_conns,
        "sqlite_stmts": stmts,
        "sqlite_stmt_mb": round(stmt_bytes / MB, 2),
        "sqlite_cache_mb": round(cache_bytes / MB, 2),
    }


def rss_mb() -> float:
    """This process's resident set size in MB (Linux ``/proc``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def install() -> None:
    """Wrap ``septet.server.app.create_app`` so that every application it makes has the
    probe route."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    import septet.server.app as app_module

    lib = _libsqlite()
    make = app_module.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        app = make(*args, **kwargs)

        async def probe(_request: Request) -> JSONResponse:
            gc.collect()
            svc = app.state.services
            manager = svc.manager
            cache = getattr(svc.store.engine, "_compiled_cache", None)
            body: dict[str, Any] = {
                "rss_mb": rss_mb(),
                "traced_mb": round(tracemalloc.get_traced_memory()[0] / MB, 2)
                if tracemalloc.is_tracing()
                else None,
                **sqlite_probe(lib),
                "sqlalchemy_compiled": len(cache) if cache is not None else None,
                "asyncio_tasks": len(asyncio.all_tasks()),
                "live_tables": len(manager.tables),
                "sockets": sum(svc.sockets.values()),
                "sessions_cached": len(svc.identities),
                "gc_objects": len(gc.get_objects()),
            }
            return JSONResponse(body)

        app.router.routes.insert(0, Route("/_soak/probe", probe, methods=["GET"]))
        return app

    app_module.create_app = create_app


def main() -> None:
    if os.environ.get("SOAK_TRACE"):
        tracemalloc.start()
    install()
    from septet.cli import main as septet_main

    sys.argv = ["septet", *sys.argv[1:]]
    septet_main()


if __name__ == "__main__":
    main()
