"""A scaled-out site on loopback: two ``septet serve --redis`` processes and a ``septet bots``
worker on one PostgreSQL database and one Redis. People connected to different processes play
whole games of each game against each other and bots, every connection's messages audited; a
server process and the bot worker are killed with SIGKILL at random moments (10 trials each):
nothing acknowledged is lost and every game finishes; a guest asking for 40 tables of bots is
refused past the cap. Long: ``pytest -m slow``."""

from __future__ import annotations

import queue
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from septet import games
from septet.core import GameRecord
from septet.server.store import Store
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
from tests.server.server_clients import check_messages, play_through

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

CASES = [
    ("flip7", {"target": 60}, 3),
    ("double-seven", {}, 3),
    ("seven-shot", {"target": 2}, 4),
]


class Site:
    """The processes of one site; everything started is stopped by :meth:`close`."""

    def __init__(self) -> None:
        self.redis = redis_or_skip()
        self.url, self._drop = postgres_schema_url()
        self.prefix = redis_prefix()
        self.procs: list[subprocess.Popen[bytes]] = []

    def server(self) -> tuple[subprocess.Popen[bytes], int]:
        port = free_port()
        proc = start_server(self.url, port, "--redis", self.redis, "--redis-prefix", self.prefix,
                            "--bot-timeout", "2")  # fmt: skip
        self.procs.append(proc)
        return proc, port

    def worker(self) -> subprocess.Popen[bytes]:
        proc = start_worker(self.url, self.redis, self.prefix, "--bot-timeout", "2")
        self.procs.append(proc)
        return proc

    def guest(self, port: int, name: str) -> str:
        r = httpx.post(f"http://127.0.0.1:{port}/api/guest", json={"name": name}, timeout=10)
        return f"septet_token={r.cookies['septet_token']}"

    def table(self, port: int, cookie: str, game: str, options: Any, seats: Any) -> str:
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=10,
                       json={"game": game, "options": options, "seats": seats},
                       headers={"cookie": cookie})  # fmt: skip
        assert r.status_code == 200, r.text
        return str(r.json()["id"])

    def info(self, port: int, table_id: str) -> dict[str, Any]:
        r = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}", timeout=10)
        return dict(r.json())

    def wait_finished(self, port: int, table_id: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while (info := self.info(port, table_id))["status"] != "finished":
            assert time.monotonic() < end, info
            time.sleep(0.1)

    def stored(self, table_id: str) -> list[str]:
        store = Store(self.url)
        try:
            data = store.get_table(table_id, with_moves=True)
            assert data is not None
            return list(data.moves or [])
        finally:
            store.close()

    def close(self) -> None:
        for proc in self.procs:
            stop(proc)
        self._drop()
        drop_redis_prefix(self.prefix)


@pytest.fixture
def site() -> Iterator[Site]:
    s = Site()
    try:
        yield s
    finally:
        s.close()


@pytest.mark.parametrize(("game", "options", "players"), CASES, ids=[c[0] for c in CASES])
def test_many_processes_whole_games_audited(
    site: Site, game: str, options: dict[str, Any], players: int
) -> None:
    games.get(game, **options)
    (_, pa), (_, pb) = site.server(), site.server()
    site.worker()
    aki, ben = site.guest(pa, "Aki"), site.guest(pb, "Ben")
    seats = ["human", "human"] + ["bot:easy"] * (players - 2)
    tid = site.table(pa, aki, game, options, seats)
    inbox: queue.Queue[Any] = queue.Queue()
    ca = RealWs(pa, tid, aki, inbox, "Aki@A")
    spec_a, spec_b = RealWs(pa, tid, None, inbox, "S@A"), RealWs(pb, tid, None, inbox, "S@B")
    for c in (ca, spec_a, spec_b):
        c.wait_for(lambda m: m["type"] == "state")
    r = httpx.post(f"http://127.0.0.1:{pb}/api/tables/{tid}/join", json={},
                   headers={"cookie": ben}, timeout=10)  # fmt: skip
    assert r.json()["my_seat"] == 1
    cb = RealWs(pb, tid, ben, inbox, "Ben@B")
    clients = [ca, cb, spec_a, spec_b]
    play_through(clients, inbox, seed=7, timeout=600, pace=0.12)  # under 10 moves a second
    for c in clients:
        c.close()
    rec = GameRecord.from_json(httpx.get(f"http://127.0.0.1:{pb}/api/tables/{tid}/record").json())
    assert rec.result is not None
    checked = check_messages(rec, [(ca, 0), (cb, 1), (spec_a, None), (spec_b, None)])
    assert checked > 40
    acks = [m for m in ca.messages + cb.messages if m["type"] == "ack"]
    assert acks and all(rec.actions[m["at"]] == m["action"] for m in acks)


def _play_until(
    ws: RealWs, acks: list[dict[str, Any]], stop_after: int, rng: random.Random
) -> bool:
    """Answer ``ws``'s turns until ``stop_after`` acks (or the end); returns whether finished."""
    seen = 0
    while len(acks) < stop_after:
        while seen < len(ws.messages):
            msg = ws.messages[seen]
            seen += 1
            if msg["type"] == "ack":
                acks.append(msg)
            elif msg["type"] == "state":
                if msg["table"]["status"] == "finished":
                    return True
                if msg["legal"]:
                    choice = rng.choice(msg["legal"])["a"]
                    time.sleep(0.11)  # a person's pace: under the 10 messages a second
                    ws.send({"type": "move", "version": msg["version"], "action": choice})
        if ws.closed.is_set():
            return False
        time.sleep(0.01)
    return False


def test_many_processes_kill9_a_server(site: Site) -> None:
    _, survivor = site.server()
    site.worker()
    rng = random.Random(20)
    for trial in range(10):
        victim, port = site.server()
        cookie = site.guest(survivor, f"p{trial}")
        tid = site.table(port, cookie, "tiny-sevens", {"target": 70}, ["human", "bot:random"])
        inbox: queue.Queue[Any] = queue.Queue()
        acks: list[dict[str, Any]] = []
        ws = RealWs(port, tid, cookie, inbox, f"trial{trial}@victim")
        _play_until(ws, acks, rng.randint(1, 8), rng)
        if rng.random() < 0.5:  # a move in flight when the process dies
            st = ws.states()[-1]
            if st["legal"]:
                ws.send({"type": "move", "version": st["version"], "action": "add 1"})
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        acks += [m for m in ws.messages if m["type"] == "ack" and m not in acks]
        ws.close()
        # the player reconnects to the other process and plays on to the end
        again = RealWs(survivor, tid, cookie, inbox, f"trial{trial}@survivor")
        assert _play_until(again, [], 10**6, rng), f"trial {trial}: did not finish"
        again.close()
        moves = site.stored(tid)
        for ack in acks:  # every acknowledged move was kept, where it was acknowledged
            assert moves[ack["at"]] == ack["action"], (trial, ack)
        assert site.info(survivor, tid)["status"] == "finished"


def test_many_processes_kill9_the_bot_worker(site: Site) -> None:
    _, port = site.server()
    worker = site.worker()
    rng = random.Random(21)
    for trial in range(10):
        cookie = site.guest(port, f"w{trial}")
        tids = [site.table(port, cookie, "tiny-sevens", {"target": 90}, ["bot:random"] * 3)
                for _ in range(2)]  # fmt: skip
        time.sleep(rng.uniform(0.2, 1.5))
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        before = {t: site.stored(t) for t in tids}
        worker = site.worker()
        for tid in tids:
            site.wait_finished(port, tid, timeout=120)
            after = site.stored(tid)
            assert after[: len(before[tid])] == before[tid], trial  # nothing committed was lost
            rec = GameRecord.from_json(
                httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}/record").json()
            )
            assert rec.result is not None and rec.actions == after


def test_many_processes_bot_table_guest_refused_past_the_cap(site: Site) -> None:
    (_, pa), (_, pb) = site.server(), site.server()
    site.worker()
    cookie = site.guest(pa, "Greedy guest")
    codes = []
    for i in range(40):
        port = pa if i % 2 else pb  # both processes hold the same cap: the database's
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=10,
                       json={"game": "flip7", "seats": ["bot:strong"] * 4},
                       headers={"cookie": cookie})  # fmt: skip
        codes.append(r.status_code)
    assert codes.count(200) == 3 and codes.count(429) == 37
    # the bots think in the worker; the servers keep answering (timings: bench_server.py)
    for _ in range(20):
        assert httpx.get(f"http://127.0.0.1:{pa}/api/health", timeout=5).status_code == 200
