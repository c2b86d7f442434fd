"""Two server applications on one PostgreSQL database and one Redis (scaled out), with a bot
worker: people connected to different processes play a whole game against each other and a
bot, every message audited; chat and seats fan out; a seat and a move are each given once."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from septet.core import GameRecord
from septet.server import Settings
from septet.server.live import LiveTable
from septet.server.worker import BotWorker
from tests.server.conftest import make_client, new_guest, postgres_schema_url
from tests.server.multiproc import drop_redis_prefix, redis_or_skip, redis_prefix
from tests.server.server_clients import WsClient, check_messages, play_through

pytestmark = pytest.mark.timeout(180)


@contextlib.contextmanager
def running_worker(db_url: str, redis_url: str, prefix: str) -> Iterator[BotWorker]:
    """A bot worker playing in a thread of this process (its moves in its own pool)."""
    settings = Settings(database_url=db_url, redis_url=redis_url, redis_prefix=prefix,
                        bot_delay=0.0, bot_timeout=20.0)  # fmt: skip
    worker = BotWorker(settings, processes=1)
    thread = threading.Thread(target=asyncio.run, args=(worker.run(),), daemon=True)
    thread.start()
    try:
        yield worker
    finally:
        worker.stopping = True
        thread.join(15)


@pytest.fixture
def site() -> Iterator[tuple[Any, Any, BotWorker]]:
    """Two apps (A, B) of one site and its bot worker."""
    redis_url = redis_or_skip()
    url, drop = postgres_schema_url()
    prefix = redis_prefix()
    common = dict(redis_url=redis_url, redis_prefix=prefix, sweep_interval=0.5)
    try:
        with (
            make_client(url, **common) as a,
            make_client(url, **common) as b,
            running_worker(url, redis_url, prefix) as worker,
        ):
            yield a, b, worker
    finally:
        drop()
        drop_redis_prefix(prefix)


def test_server_scaled_whole_game_across_processes(site: tuple[Any, Any, BotWorker]) -> None:
    a, b, worker = site
    aki, ben = new_guest(a, "Aki"), new_guest(b, "Ben")
    seats = ["human", "bot:random", "human"]
    r = a.post("/api/tables", json={"game": "tiny-sevens", "options": {"target": 40},
                                    "seats": seats}, headers={"cookie": aki})  # fmt: skip
    tid = r.json()["id"]
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(a, tid, aki, inbox, "A@1")
    spec_b = WsClient(b, tid, None, inbox, "spectator@2")
    ca.wait_for(lambda m: m["type"] == "state")
    # Ben joins through process B; process A hears of it
    assert (
        b.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": ben}).json()["my_seat"] == 2
    )
    ca.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    cb = WsClient(b, tid, ben, inbox, "B@2")
    # chat crosses processes too
    ca.send({"type": "chat", "text": "よろしく"})
    heard = cb.wait_for(lambda m: m["type"] == "chat")
    assert heard["message"]["text"] == "よろしく" and heard["message"]["seat"] == 0
    play_through([ca, cb, spec_b], inbox, seed=5, timeout=120)
    for c in (ca, cb, spec_b):
        c.close()
    rec = GameRecord.from_json(b.get(f"/api/tables/{tid}/record").json())
    assert rec.players == ["Aki", "random", "Ben"]
    checked = check_messages(rec, [(ca, 0), (cb, 2), (spec_b, None)])
    assert checked > 30
    assert worker.played >= 1  # the bot's turns were the worker's
    acks = [m for m in ca.messages + cb.messages if m["type"] == "ack"]
    assert acks and all(rec.actions[m["at"]] == m["action"] for m in acks)


def test_server_scaled_seat_and_move_given_once(site: tuple[Any, Any, BotWorker]) -> None:
    a, b, _ = site
    aki, ben, cho = new_guest(a, "Aki"), new_guest(b, "Ben"), new_guest(a, "Cho")
    body = {"game": "tiny-sevens", "options": {"target": 60}, "seats": ["human", "human"]}
    r = a.post("/api/tables", json=body, headers={"cookie": aki})
    tid = r.json()["id"]
    b.get(f"/api/tables/{tid}")  # B holds the table too
    results: list[int] = []

    def join(client: Any, cookie: str) -> None:
        results.append(
            client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": cookie}).status_code
        )

    threads = [threading.Thread(target=join, args=x) for x in ((a, cho), (b, ben))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409]  # one seat, one guest
    # the same move from two processes at the same version: exactly one is accepted
    inbox: queue.Queue[Any] = queue.Queue()
    c1, c2 = WsClient(a, tid, aki, inbox, "A@1"), WsClient(b, tid, aki, inbox, "A@2")
    st = c1.wait_for(lambda m: m["type"] == "state" and m["legal"])
    c2.wait_for(lambda m: m["type"] == "state" and m["version"] == st["version"])
    for c in (c1, c2):
        c.send({"type": "move", "version": st["version"], "action": "add 1"})
    answers = [c.wait_for(lambda m: m["type"] in ("ack", "error")) for c in (c1, c2)]
    assert sorted(m["type"] for m in answers) == ["ack", "error"]
    assert next(m for m in answers if m["type"] == "error")["code"] == "stale"
    stored = a.app.state.store.get_table(tid, with_moves=True)
    assert stored.version == st["version"] + 1 and stored.moves[-1] == "add 1"
    for c in (c1, c2):
        c.close()


def test_server_scaled_lobby_and_caps(site: tuple[Any, Any, BotWorker]) -> None:
    a, b, _ = site
    aki = new_guest(a, "Aki")
    bots = ["bot:random", "bot:random"]
    made = [a.post("/api/tables", json={"game": "tiny-sevens", "options": {"target": 40},
                                         "seats": bots}, headers={"cookie": aki}).status_code
            for _ in range(4)]  # fmt: skip
    assert made.count(429) >= 1  # at most three tables of bots in play per guest
    open_id = a.post("/api/tables", json={"game": "tiny-sevens", "seats": ["human", "human"]},
                     headers={"cookie": aki}).json()["id"]  # fmt: skip
    lobby = b.get("/api/tables").json()  # B never held these tables: from the database
    assert [t["id"] for t in lobby["open"]] == [open_id]
    assert lobby["open"][0]["seats"][0]["name"] == "Aki" and "expires_at" in lobby["open"][0]
    end = time.monotonic() + 60
    while b.get("/api/tables").json()["total"]["finished"] < 1:  # the worker plays them
        assert time.monotonic() < end
        time.sleep(0.2)


def test_server_scaled_socket_attached_while_its_table_is_let_go(
    site: tuple[Any, Any, BotWorker], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process lets go of a table without sockets (its sweep); when that happens between a
    socket's load of the table and its attach, the socket is still attached to the table the
    process holds, and hears the moves made through another process (CI once saw a spectator
    that never heard another message)."""
    a, b, _ = site
    aki, ben = new_guest(a, "Aki"), new_guest(a, "Ben")
    body = {"game": "tiny-sevens", "options": {"target": 60}, "seats": ["human", "human"]}
    tid = a.post("/api/tables", json=body, headers={"cookie": aki}).json()["id"]
    assert a.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": ben}).status_code == 200
    manager = b.app.state.manager
    real_load_chat = LiveTable.load_chat

    async def let_go_first(self: LiveTable) -> None:
        manager.tables.pop(self.id, None)  # what the sweep does to a table without sockets
        await real_load_chat(self)

    monkeypatch.setattr(LiveTable, "load_chat", let_go_first)
    inbox: queue.Queue[Any] = queue.Queue()
    spectator = WsClient(b, tid, None, inbox, "spectator@B")
    first = spectator.wait_for(lambda m: m["type"] == "state")
    monkeypatch.setattr(LiveTable, "load_chat", real_load_chat)
    held = manager.tables[tid]
    assert spectator.wait_for(lambda m: True) is first and len(held.conns) == 1
    player = WsClient(a, tid, aki, inbox, "A@1")
    st = player.wait_for(lambda m: m["type"] == "state" and m["legal"])
    player.send({"type": "move", "version": st["version"], "action": st["legal"][0]["a"]})
    heard = spectator.wait_for(lambda m: m["type"] == "state" and m["version"] > first["version"])
    assert heard["version"] == st["version"] + 1
    for c in (spectator, player):
        c.close()


def test_server_scaled_a_process_loading_a_table_knows_who_is_at_it_elsewhere(
    site: tuple[Any, Any, BotWorker],
) -> None:
    """Aki's socket is on process A before B ever held the table: B, loading it for Ben, shows
    Aki connected (from the seats' presence in Redis), not gone; when Aki leaves, B hears it."""
    a, b, _ = site
    aki, ben = new_guest(a, "Aki"), new_guest(b, "Ben")
    body = {"game": "tiny-sevens", "options": {"target": 60}, "seats": ["human", "human"]}
    tid = a.post("/api/tables", json=body, headers={"cookie": aki}).json()["id"]
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(a, tid, aki, inbox, "A@1")
    ca.wait_for(lambda m: m["type"] == "state")
    import redis  # (the redis extra: the site fixture skips without it)

    settings = a.app.state.settings  # A claims the seat in Redis just after the state is sent
    claims = redis.Redis.from_url(settings.redis_url)
    end = time.monotonic() + 30
    while not claims.hgetall(f"{settings.redis_prefix}:pres:{tid}:0"):
        assert time.monotonic() < end
        time.sleep(0.05)
    claims.close()
    assert b.app.state.manager.get(tid) is None  # B has not held it yet
    assert b.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": ben}).status_code == 200
    cb = WsClient(b, tid, ben, inbox, "B@1")
    st = cb.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    aki_seat = st["table"]["seats"][0]
    assert aki_seat["name"] == "Aki" and aki_seat["connected"] is True, aki_seat
    assert aki_seat["gone_for"] is None
    ca.close()
    gone = cb.wait_for(lambda m: m["type"] == "state" and not m["table"]["seats"][0]["connected"])
    assert gone["table"]["seats"][0]["gone_for"] is not None
    cb.close()
