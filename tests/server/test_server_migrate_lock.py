"""A migration lock left behind by a crash never blocks the next start (the SQLite file lock
is an OS lock, gone with its process; the PostgreSQL advisory lock is gone with its session)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from septet.server.db import current_revision, head_revision, make_engine, migrate


def _lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".migrate-lock")


def test_server_start_after_a_leftover_lock_file(tmp_path: Path) -> None:
    db = tmp_path / "septet.sqlite3"
    _lock_path(db).write_text("")  # the file a crashed start left behind
    engine = make_engine(f"sqlite:///{db}")
    started = time.monotonic()
    assert migrate(engine) is None  # an empty database brought to the head revision
    assert time.monotonic() - started < 30
    with engine.connect() as conn:
        assert current_revision(conn) == head_revision()
    engine.dispose()


def test_server_start_after_a_process_killed_holding_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "septet.sqlite3"
    holder = textwrap.dedent(
        f"""
        import sys, time
        from filelock import FileLock
        lock = FileLock({str(_lock_path(db))!r})
        lock.acquire()
        print("held", flush=True)
        time.sleep(120)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        os.kill(proc.pid, signal.SIGKILL)  # a crash: no chance to release the lock
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert _lock_path(db).exists()  # the file stays...
    engine = make_engine(f"sqlite:///{db}")
    assert migrate(engine) is None  # ...and does not block the next start
    with engine.connect() as conn:
        assert current_revision(conn) == head_revision()
    engine.dispose()


@pytest.mark.parametrize("db_url", ["postgres"], indirect=True)
def test_server_start_after_a_session_killed_holding_the_advisory_lock(db_url: str) -> None:
    # The advisory lock belongs to the session: a lost connection (a crash) frees it.
    from sqlalchemy import text

    from septet.server.db import ADVISORY_LOCK_KEY

    engine = make_engine(db_url)
    holder = engine.connect()
    holder.execute(text("SELECT pg_advisory_lock(:k)"), {"k": ADVISORY_LOCK_KEY})
    holder.commit()
    pid = holder.execute(text("SELECT pg_backend_pid()")).scalar_one()
    with engine.connect() as admin:
        admin.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        admin.commit()
    holder.invalidate()
    migrate(engine)
    with engine.connect() as conn:
        assert current_revision(conn) == head_revision()
    engine.dispose()
