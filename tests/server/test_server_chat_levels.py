"""Bot levels in the lobby, the table chat (kept across restarts, plain text) and waiting
tables that expire (SQLite and PostgreSQL)."""

from __future__ import annotations

import queue
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(120)


def create(client: Any, cookie: str, seats: Any, game: str = "tiny-sevens", **options: Any) -> Any:
    return client.post(
        "/api/tables",
        json={"game": game, "options": options, "seats": seats},
        headers={"cookie": cookie},
    )


def test_server_bot_levels(client: Any) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["flip7"]["levels"] == [
        {"level": "easy", "spec": "epsilon-greedy:epsilon=0.3"},
        {"level": "normal", "spec": "greedy"},
        {"level": "strong", "spec": "ismcts:time=0.5,rollout=greedy,horizon=round,tree=1,bias=1"},
    ]
    # a game without a greedy bot: random is its Easy, it has no Normal
    assert games["tiny-sevens"]["levels"] == [
        {"level": "easy", "spec": "random"},
        {"level": "strong", "spec": "ismcts:time=1.0"},
    ]
    a = new_guest(client, "Aki")
    seats = ["human", "bot:easy", {"kind": "bot", "bot": "normal"}, "bot:random"]
    r = create(client, a, seats, game="flip7")
    assert r.status_code == 200, r.text
    got = [(s["kind"], s["bot"], s["level"]) for s in r.json()["seats"]]
    assert got == [
        ("human", None, None),
        ("bot", "epsilon-greedy:epsilon=0.3", "easy"),
        ("bot", "greedy", "normal"),
        ("bot", "random", None),  # an old spec seat: no level of Flip 7's
    ]
    r = create(client, a, ["human", "bot:strong"], game="double-seven")
    assert [s["level"] for s in r.json()["seats"]] == [None, "strong"]
    strong = "ismcts:time=0.5,rollout=greedy,tree=1,bias=1,utility=score"  # issue 19 item 6
    assert r.json()["seats"][1]["bot"] == strong
    r = create(client, a, ["human", "bot:ismcts"], game="seven-shot")
    assert r.status_code == 400  # seven-shot needs 3 or 4 players
    r = create(client, a, ["human", "bot:normal"])  # tiny-sevens has no Normal
    assert r.status_code == 400 and r.json()["error"] == "bad_bot"
    assert "easy, strong" in r.json()["message"]
    for bad in (["human", "bot:"], ["human", "robot"], ["human", 3]):
        assert create(client, a, bad).status_code == 422, bad


def chat(c: WsClient, text: str) -> dict[str, Any]:
    """Send ``text``; the answer: the chat message echoed to everyone, or an error."""
    n = len(c.messages)
    c.send({"type": "chat", "text": text})
    return c.wait_for(
        lambda m: m["type"] in ("chat", "error") and any(x is m for x in c.messages[n:])
    )


def test_server_chat(db_url: str) -> None:
    with make_client(db_url, chat_burst=3, chat_interval=3.0) as client:
        a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
        tid = create(client, a, [{"kind": "human"}, {"kind": "human"}]).json()["id"]
        client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
        inbox: queue.Queue[Any] = queue.Queue()
        ca, cb = WsClient(client, tid, a, inbox, "A"), WsClient(client, tid, b, inbox, "B")
        spec = WsClient(client, tid, None, inbox, "S")
        assert ca.wait_for(lambda m: m["type"] == "state")["chat"] == []
        said = chat(ca, "  <b>よろしく</b> & good luck  ")
        assert said["type"] == "chat"
        msg = said["message"]
        assert (msg["seat"], msg["name"], msg["text"]) == (0, "Aki", "<b>よろしく</b> & good luck")
        assert datetime.fromisoformat(msg["at"]).tzinfo is not None
        for c in (cb, spec):  # everyone at the table hears it, as plain text
            assert c.wait_for(lambda m: m["type"] == "chat")["message"] == msg
        err = chat(spec, "hi")
        assert err["code"] == "chat_spectator" and err["message_ja"]
        assert chat(cb, "   ")["code"] == "chat_empty"
        assert chat(cb, "x" * 201)["code"] == "chat_too_long"
        assert chat(cb, "y" * 200)["type"] == "chat"
        assert chat(cb, "two")["type"] == "chat"
        assert chat(cb, "three")["type"] == "chat"
        # burst of 3, then one per 3 s (a long interval: a slow machine's three messages must
        # not earn a fourth before it is sent)
        assert chat(cb, "four")["code"] == "chat_rate"
        time.sleep(3.1)
        assert chat(cb, "five")["type"] == "chat"
        # the first state of a new connection carries the chat so far, oldest first
        late = WsClient(client, tid, None, inbox, "late")
        first = late.wait_for(lambda m: m["type"] == "state")
        texts = [m["text"] for m in first["chat"]]
        assert texts == ["<b>よろしく</b> & good luck", "y" * 200, "two", "three", "five"]
        ids = [m["id"] for m in first["chat"]]
        assert ids == sorted(ids)
        for c in (ca, cb, spec, late):
            c.close()
    # kept through a restart
    with make_client(db_url) as client:
        inbox = queue.Queue()
        again = WsClient(client, tid, None, inbox, "again")
        first = again.wait_for(lambda m: m["type"] == "state")
        assert [m["text"] for m in first["chat"]][-1] == "five"
        assert first["chat"][0]["name"] == "Aki"
        again.close()


def test_server_chat_keeps_the_last_hundred(db_url: str) -> None:
    with make_client(db_url, chat_burst=1000) as client:
        a = new_guest(client, "Aki")
        tid = create(client, a, [{"kind": "human"}, {"kind": "human"}]).json()["id"]
        inbox: queue.Queue[Any] = queue.Queue()
        ca = WsClient(client, tid, a, inbox, "A")
        for i in range(105):
            ca.send({"type": "chat", "text": f"m{i}"})
        ca.wait_for(lambda m: m["type"] == "chat" and m["message"]["text"] == "m104")
        late = WsClient(client, tid, None, inbox, "late")
        texts = [m["text"] for m in late.wait_for(lambda m: m["type"] == "state")["chat"]]
        assert texts == [f"m{i}" for i in range(5, 105)]
        ca.close()
        late.close()


def test_server_waiting_tables_expire(db_url: str) -> None:
    with make_client(db_url, waiting_ttl=1.5, sweep_interval=0.1) as client:
        a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
        r = create(client, a, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
        info = r.json()
        tid = info["id"]
        left = datetime.fromisoformat(info["expires_at"]) - datetime.now(UTC)
        assert 0 < left.total_seconds() <= 1.5
        # a join puts the clock back
        time.sleep(1.0)
        joined = client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b}).json()
        assert joined["expires_at"] > info["expires_at"]
        inbox: queue.Queue[Any] = queue.Queue()
        ca = WsClient(client, tid, a, inbox, "A")
        ca.wait_for(lambda m: m["type"] == "state")
        time.sleep(0.8)
        assert client.get("/api/tables").json()["open"] != []  # 1.8 s old, joined 0.8 s ago
        gone = ca.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "expired")
        assert "expires_at" not in gone["table"]
        lobby = client.get("/api/tables").json()
        assert lobby["open"] == [] and lobby["total"]["open"] == 0
        assert client.get(f"/api/tables/{tid}").json()["status"] == "expired"
        c = new_guest(client, "Cho")
        r = client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": c})
        assert r.status_code == 409 and r.json()["error"] == "expired"
        ca.close()
        stored = client.app.state.store.get_table(tid)
        assert stored is not None and stored.status == "expired"  # kept in the database
        # a table in play never expires
        d = new_guest(client, "Dai")
        tid2 = create(client, d, [{"kind": "human"}, {"kind": "bot", "bot": "random"}]).json()
        assert tid2["status"] == "playing" and "expires_at" not in tid2
        time.sleep(1.0)
        assert client.get(f"/api/tables/{tid2['id']}").json()["status"] != "expired"
