"""Rematch and Play now across two server processes of one site (PostgreSQL and Redis,
issue 24): both processes answer with the same new table, and Play now's bots are seated once.
Skipped without PostgreSQL or Redis (unless SEPTET_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import make_client, new_guest, postgres_schema_url
from tests.server.multiproc import drop_redis_prefix, redis_or_skip, redis_prefix
from tests.server.players_kit import finished_table

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def site() -> Iterator[tuple[Any, Any]]:
    """Two apps (A, B) of one site."""
    redis_url = redis_or_skip()
    url, drop = postgres_schema_url()
    prefix = redis_prefix()
    common = dict(redis_url=redis_url, redis_prefix=prefix, sweep_interval=0.5)
    try:
        with make_client(url, **common) as a, make_client(url, **common) as b:
            yield a, b
    finally:
        drop()
        drop_redis_prefix(prefix)


def test_rematch_asked_on_two_processes_at_once_is_one_table(site: tuple[Any, Any]) -> None:
    a, b = site
    aki, ben = new_guest(a, "Aki"), new_guest(b, "Ben")
    ids = [c.get("/api/me", headers={"cookie": k}).json()["player"]["id"]
           for c, k in ((a, aki), (b, ben))]  # fmt: skip
    old = finished_table(a.app.state.store, "tiny-sevens",
                         [(ids[0], "Aki", None), (ids[1], "Ben", None), (None, "random", "random")],
                         [1, 0, 0], [0])  # fmt: skip
    got: dict[str, Any] = {}
    barrier = threading.Barrier(2)

    def ask(client: Any, cookie: str, who: str) -> None:
        barrier.wait()
        got[who] = client.post(f"/api/tables/{old}/rematch", json={}, headers={"cookie": cookie})

    threads = [threading.Thread(target=ask, args=x) for x in ((a, aki, "a"), (b, ben, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ta, tb = got["a"].json()["table"], got["b"].json()["table"]
    assert ta["id"] == tb["id"]
    end = time.monotonic() + 20
    while True:  # both seated (one join may come after the other's): the game starts
        now = a.get(f"/api/tables/{ta['id']}").json()
        if now["status"] == "playing" or time.monotonic() > end:
            break
        time.sleep(0.05)
    assert now["status"] == "playing"
    assert [s["name"] for s in now["seats"]] == ["Aki", "Ben", "random"]


def test_play_now_on_two_processes_meets_and_bots_come_once(site: tuple[Any, Any]) -> None:
    a, b = site
    aki, ben, cho = new_guest(a, "Aki"), new_guest(b, "Ben"), new_guest(a, "Cho")
    body = {"game": "tiny-sevens", "players": 2, "bots_after": 600}
    first = a.post("/api/play-now", json=body, headers={"cookie": aki}).json()["table"]
    second = b.post("/api/play-now", json=body, headers={"cookie": ben}).json()["table"]
    assert first["id"] == second["id"] and second["my_seat"] == 1
    # Bots after 0 s: both processes' loops look for it; the seat gets one bot, once.
    body = {**body, "players": 3, "bots_after": 0}
    tid = a.post("/api/play-now", json=body, headers={"cookie": cho}).json()["table"]["id"]
    end = time.monotonic() + 20
    while True:
        now = b.get(f"/api/tables/{tid}").json()
        if now["status"] != "waiting" or time.monotonic() > end:
            break
        time.sleep(0.05)
    assert [(s["kind"], s["bot"]) for s in now["seats"]] == [
        ("human", None), ("bot", "random"), ("bot", "random")]  # fmt: skip
    assert now["status"] in ("playing", "finished")
