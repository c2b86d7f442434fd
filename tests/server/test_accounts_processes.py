"""Sessions are rows: an account signed in on one ``septet serve`` process is signed in on
another; signing out, a password change or deletion on one ends the session on the other (SQLite
file and PostgreSQL; no Redis needed, the database is the truth)."""

from __future__ import annotations

import httpx
import pytest

from tests.server.multiproc import free_port, start_server, stop

PW = "correct horse"


def _me(base: str, cookie: str) -> object:
    return httpx.get(f"{base}/api/me", headers={"cookie": cookie}, timeout=10).json()["player"]


# Real processes cost seconds to start: SQLite in the default run, PostgreSQL with -m slow.
@pytest.mark.parametrize(
    "db_url", ["sqlite", pytest.param("postgres", marks=pytest.mark.slow)], indirect=True
)
def test_accounts_sessions_across_processes(db_url: str) -> None:
    ports = [free_port(), free_port()]
    procs = []
    try:
        for port in ports:  # one after the other: the first migrates
            procs.append(start_server(db_url, port, "--session-cache", "0"))
        a, b = (f"http://127.0.0.1:{p}" for p in ports)
        guest = httpx.post(f"{a}/api/guest", json={"name": "Aki"}, timeout=10)
        r = httpx.post(f"{b}/api/account", json={"name": "Aki", "password": PW},
                       cookies=guest.cookies, timeout=10)  # fmt: skip
        assert r.status_code == 200, r.text
        assert r.json()["player"]["id"] == guest.json()["player"]["id"]  # claimed on B
        old = f"septet_token={guest.cookies['septet_token']}"
        assert _me(a, old) is None  # the guest's token ended everywhere
        r = httpx.post(f"{a}/api/login", json={"name": "aki", "password": PW}, timeout=10)
        cookie = f"septet_token={r.cookies['septet_token']}"
        assert _me(b, cookie) == {"id": r.json()["player"]["id"], "name": "Aki", "account": True}
        r = httpx.request("DELETE", f"{a}/api/me", json={"password": PW},
                          headers={"cookie": cookie}, timeout=10)  # fmt: skip
        assert r.json() == {"ok": True}
        assert _me(b, cookie) is None  # a deleted account's cookie stopped working on B
        r = httpx.post(f"{b}/api/login", json={"name": "Aki", "password": PW}, timeout=10)
        assert r.status_code == 401 and r.json()["error"] == "bad_login"
    finally:
        for proc in procs:
            stop(proc)
