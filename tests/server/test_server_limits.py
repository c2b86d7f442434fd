"""What a client may send and how much of it: strict JSON and types (4xx, never a 500), the
per-guest caps, the guest rate per address, the lobby's pages, sockets caps, and a new socket
costing the others nothing (SQLite and PostgreSQL)."""

from __future__ import annotations

import queue
import time
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(120)
TWO = [{"kind": "human"}, {"kind": "human"}]


def create(client: Any, cookie: str, seats: Any, game: str = "tiny-sevens", **options: Any) -> Any:
    return client.post(
        "/api/tables",
        json={"game": game, "options": options, "seats": seats},
        headers={"cookie": cookie},
    )


def test_server_strict_json_bodies(client: Any) -> None:
    cookie = new_guest(client, "Aki")
    seats = '[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]'
    for bad in ("Infinity", "-Infinity", "NaN", "1e999", "-1e999", "1" * 40):
        body = f'{{"game": "flip7", "options": {{"target": {bad}}}, "seats": {seats}}}'
        r = client.post(
            "/api/tables",
            content=body,
            headers={"cookie": cookie, "content-type": "application/json"},
        )
        assert r.status_code == 422, (bad, r.status_code, r.text)
        assert r.json()["error"] == "invalid"
    # finite but absurd: refused by the schema, not by an OverflowError in the engine
    r = create(client, cookie, [{"kind": "human"}] * 2, game="flip7", target=1e300)
    assert r.status_code == 422
    # strict types: a string is not a number, a number is not a boolean
    tid = create(client, cookie, [{"kind": "human"}] * 3).json()["id"]
    other = new_guest(client, "Ben")
    r = client.post(f"/api/tables/{tid}/join", json={"seat": "1"}, headers={"cookie": other})
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 1.0}, headers={"cookie": other})
    assert r.status_code == 422
    assert client.post("/api/guest", json={"name": 7}).status_code == 422
    r = client.post("/api/guest", content=b"[[[[", headers={"content-type": "application/json"})
    assert r.status_code == 422
    # a lone surrogate is no text: nothing could store it (PostgreSQL) or send it on
    lone = b'{"name": "Aki \\ud800"}'
    r = client.post("/api/guest", content=lone, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "surrogate" in r.json()["message"]
    pair = b'{"name": "Aki \\ud83d\\ude00"}'  # an escaped pair is a character: fine
    r = client.post("/api/guest", content=pair, headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Aki \U0001f600"
    # nothing was created by the refused requests
    assert [t["id"] for t in client.get("/api/tables").json()["open"]] == [tid]


def test_server_strict_json_websocket(client: Any) -> None:
    a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
    tid = create(client, a, TWO).json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    first = ca.wait_for(lambda m: m["type"] == "state" and m["legal"])
    v = first["version"]
    for raw in (
        f'{{"type": "move", "version": "{v}", "action": "add 1"}}',  # "8" is not 8
        f'{{"type": "move", "version": {v}.0, "action": "add 1"}}',
        '{"type": "move", "version": NaN, "action": "add 1"}',
        '{"type": "move", "version": Infinity, "action": "add 1"}',
        '{"type": "move", "version": 1e999, "action": "add 1"}',
        '{"type": "replace", "seat": true}',
        '["move"]',
        '"ping"',
    ):
        n = len(ca.messages)
        ca.send(raw)
        err = ca.wait_for(
            lambda m, n=n: m["type"] == "error" and any(x is m for x in ca.messages[n:])
        )
        assert err["code"] == "bad_message", raw
    assert client.get(f"/api/tables/{tid}").json()["version"] == v  # nothing was played
    ca.send({"type": "move", "version": v, "action": "add 1"})
    assert ca.wait_for(lambda m: m["type"] == "ack")["version"] == v + 1
    ca.close()


def test_server_caps_per_guest(db_url: str) -> None:
    with make_client(db_url, max_open_tables=2, max_bot_tables=1, bot_delay=30.0) as client:
        a = new_guest(client, "Aki")
        assert create(client, a, TWO).status_code == 200
        assert create(client, a, TWO).status_code == 200
        r = create(client, a, TWO)
        assert r.status_code == 429 and r.json()["error"] == "too_many_open"
        assert "2 tables" in r.json()["message"] and "2つ" in r.json()["message_ja"]
        # another guest is not held to Aki's cap
        assert create(client, new_guest(client, "Ben"), TWO).status_code == 200
        # tables of bots only: one in play at a time (the 40-bot-table guest is refused)
        bots = [{"kind": "bot", "bot": "random"}] * 4
        assert create(client, a, bots, target=500).status_code == 200
        refused = [create(client, a, bots, target=500) for _ in range(39)]
        assert {r.status_code for r in refused} == {429}
        assert refused[0].json()["error"] == "too_many_bot_tables"
        listed = client.get("/api/tables").json()
        assert listed["total"] == {"open": 3, "playing": 1, "finished": 0}


def test_server_guest_rate_per_address(db_url: str) -> None:
    with make_client(db_url, guest_burst=3, guests_per_minute=1) as client:
        cookies = [new_guest(client, f"g{i}") for i in range(3)]
        client.cookies.clear()
        r = client.post("/api/guest", json={"name": "one too many"})
        assert r.status_code == 429 and r.json()["error"] == "guest_rate"
        assert "septet_token" not in r.cookies
        # a guest renaming itself is no new guest
        r = client.post("/api/guest", json={"name": "Aki"}, headers={"cookie": cookies[0]})
        assert r.status_code == 200 and r.json()["player"]["name"] == "Aki"


def test_server_lobby_pages_and_filters(db_url: str) -> None:
    with make_client(db_url, max_open_tables=10) as client:
        a = new_guest(client, "Aki")
        ids = [create(client, a, TWO).json()["id"] for _ in range(5)]
        page = client.get("/api/tables?limit=2").json()
        assert [t["id"] for t in page["open"]] == ids[:2]
        assert page["total"]["open"] == 5 and (page["limit"], page["offset"]) == (2, 0)
        last = client.get("/api/tables?limit=2&offset=4").json()
        assert [t["id"] for t in last["open"]] == ids[4:]
        assert client.get("/api/tables?status=playing").json()["open"] == []
        assert client.get("/api/tables?game=flip7").json()["total"]["open"] == 0
        assert client.get("/api/tables?game=tiny-sevens").json()["total"]["open"] == 5
        for bad in ("limit=0", "limit=201", "offset=-1", "status=nope", "limit=x"):
            r = client.get(f"/api/tables?{bad}")
            assert r.status_code == 422, bad
        # the default answer keeps the shape the client reads
        assert set(client.get("/api/tables").json()) == {
            "open", "playing", "finished", "total", "limit", "offset",
        }  # fmt: skip


def test_server_sockets_caps(db_url: str) -> None:
    with make_client(db_url, max_sockets_per_table=3, max_sockets_per_guest=2) as client:
        a = new_guest(client, "Aki")
        tid = create(client, a, TWO).json()["id"]
        inbox: queue.Queue[Any] = queue.Queue()
        mine = [WsClient(client, tid, a, inbox, f"A{i}") for i in range(2)]
        for c in mine:
            c.wait_for(lambda m: m["type"] == "state")
        third = WsClient(client, tid, a, inbox, "A2")  # Aki's third socket
        err = third.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == "too_many_sockets" and "タブ" in err["message_ja"]
        assert third.closed.wait(5) and not third.states()
        watcher = WsClient(client, tid, None, inbox, "S0")
        watcher.wait_for(lambda m: m["type"] == "state")
        full = WsClient(client, tid, None, inbox, "S1")  # the table's fourth socket
        assert full.wait_for(lambda m: m["type"] == "error")["code"] == "too_many_sockets"
        assert full.closed.wait(5)
        mine[0].close()  # a socket closed frees its place
        again = WsClient(client, tid, a, inbox, "A3")
        assert again.wait_for(lambda m: m["type"] == "state")["seat"] == 0


def test_server_new_socket_costs_the_others_nothing(client: Any) -> None:
    a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
    tid = create(client, a, TWO).json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    ca.wait_for(lambda m: m["type"] == "state")
    spectators = [WsClient(client, tid, None, inbox, f"S{i}") for i in range(20)]
    for s in spectators:
        assert s.wait_for(lambda m: m["type"] == "state")["seat"] is None
    time.sleep(0.2)
    assert len(ca.messages) == 1  # twenty spectators came: Aki heard nothing
    for s in spectators:
        s.close()
    time.sleep(0.2)
    assert len(ca.messages) == 1  # nor when they left
    # Ben comes to the table: his seat is back, and the others are told
    cb = WsClient(client, tid, b, inbox, "B")
    cb.wait_for(lambda m: m["type"] == "state")
    back = ca.wait_for(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])
    assert back["seat"] == 0 and "chat" not in back
    ca.close()
    cb.close()


def test_server_ws_unknown_table_is_closed(client: Any) -> None:
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws/tables/nope") as ws,
    ):
        ws.receive_text()
