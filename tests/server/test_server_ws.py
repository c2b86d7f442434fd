"""Real-time play over WebSocket: whole games between people and bots, every message checked
for hidden information, rejected moves, limits, reconnects and bot replacement."""

from __future__ import annotations

import json
import queue
import re
import time
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from septet.core import GameRecord
from tests.server.conftest import new_guest
from tests.server.server_clients import WsClient, check_messages, play_through

pytestmark = pytest.mark.timeout(120)


def make_table(client: Any, cookie: str, seats: list[dict[str, Any]], **options: Any) -> str:
    r = client.post(
        "/api/tables",
        json={"game": "tiny-sevens", "options": options, "seats": seats},
        headers={"cookie": cookie},
    )
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_server_ws_whole_game_two_humans_bot_and_spectator(client: Any) -> None:
    a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}]
    tid = make_table(client, a, seats, target=40)
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    spec = WsClient(client, tid, None, inbox, "spectator")
    ca.wait_for(lambda m: m["type"] == "state")
    assert (
        client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b}).json()["my_seat"]
        == 2
    )
    cb = WsClient(client, tid, b, inbox, "B")
    play_through([ca, cb, spec], inbox, seed=3)
    for c in (ca, cb, spec):
        c.close()
    rec = GameRecord.from_json(client.get(f"/api/tables/{tid}/record").json())
    assert rec.players == ["Aki", "random", "Ben"]
    checked = check_messages(rec, [(ca, 0), (cb, 2), (spec, None)])
    assert checked > 30
    # each person received their own secret card and never another's
    assert ca.states()[-1]["view"]["hand"] == [int(rec.actions[0].split()[1])]
    assert cb.states()[-1]["view"]["hand"] == [int(rec.actions[2].split()[1])]
    # acknowledged moves are exactly A's moves in the record
    acks = [m for m in ca.messages if m["type"] == "ack"]
    assert acks and all(rec.actions[m["at"]] == m["action"] for m in acks)
    # action notations (a deal is a secret) never reach anyone but in their own ack
    for c in (ca, cb, spec):
        for m in c.states():
            assert not re.search(r"deal \d", json.dumps(m))
    final = spec.states()[-1]
    assert final["table"]["result"] == rec.result


def test_server_ws_rejected_moves_change_nothing(client: Any) -> None:
    a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
    tid = make_table(client, a, [{"kind": "human"}, {"kind": "human"}], target=50)
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    cb = WsClient(client, tid, b, inbox, "B")
    spec = WsClient(client, tid, None, inbox, "S")
    first = ca.wait_for(lambda m: m["type"] == "state")
    assert first["version"] == 2 and first["table"]["to_move"] == 0
    assert [x["a"] for x in first["legal"]] == ["add 1", "add 2", "add 3"]
    assert first["legal"][0]["ja"] == "1を足す"

    def err(c: WsClient, msg: Any) -> dict[str, Any]:
        n = len(c.messages)
        c.send(msg)
        return c.wait_for(lambda m: c.messages.index(m) >= n and m["type"] == "error")

    e = err(ca, {"type": "move", "version": 1, "action": "add 1"})
    assert e["code"] == "stale" and e["version"] == 2 and "version 2" in e["message"]
    e = err(ca, {"type": "move", "version": 2, "action": "add 4"})
    assert e["code"] == "illegal" and "not 'add 1|2|3'" in e["message"]
    e = err(ca, {"type": "move", "version": 2, "action": "deal 9"})  # a chance outcome
    assert e["code"] == "illegal"
    e = err(cb, {"type": "move", "version": 2, "action": "add 1"})
    assert e["code"] == "not_your_turn"
    e = err(spec, {"type": "move", "version": 2, "action": "add 1"})
    assert e["code"] == "spectator"
    e = err(ca, "not json")
    assert e["code"] == "bad_message"
    e = err(ca, {"type": "move", "version": 2, "action": "add 1", "extra": 1})
    assert e["code"] == "bad_message"
    e = err(ca, {"type": "move", "version": -1, "action": "add 1"})
    assert e["code"] == "bad_message"
    assert client.get(f"/api/tables/{tid}").json()["version"] == 2  # nothing changed
    store = client.app.state.store
    assert store.count_moves(tid) == 2
    # a legal move is acknowledged with the new version, then everyone gets a new view
    n = len(ca.messages)
    ca.send({"type": "move", "version": 2, "action": "add 3"})
    ack = ca.wait_for(lambda m: ca.messages.index(m) >= n and m["type"] == "ack")
    assert ack == {"type": "ack", "version": 3, "at": 2, "action": "add 3"}
    assert store.count_moves(tid) == 3  # committed before the ack
    # the mover hears the ack before the new view
    new_view = ca.wait_for(lambda m: m["type"] == "state" and m["version"] == 3)
    assert ca.messages.index(ack) < ca.messages.index(new_view)
    upd = cb.wait_for(lambda m: m["type"] == "state" and m["version"] == 3)
    assert upd["view"]["counter"] == 3 and [x["a"] for x in upd["legal"]] == [
        "add 1",
        "add 2",
        "add 3",
    ]
    assert upd["events"][0]["kind"] == "added" and upd["events"][0]["data"] == {
        "n": 3,
        "counter": 3,
    }
    e = err(ca, {"type": "move", "version": 2, "action": "add 1"})  # a double click
    assert e["code"] == "stale"
    for c in (ca, cb, spec):
        c.close()


def test_server_ws_limits(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from septet.server import Settings, create_app

    # the default limits: 10 messages/s, bursts of 30, 4096 bytes a message
    with TestClient(create_app(Settings(database_url=db_url))) as client:
        check_limits(client)


def check_limits(client: Any) -> None:
    a = new_guest(client, "Aki")
    tid = make_table(client, a, [{"kind": "human"}, {"kind": "human"}])
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    ca.wait_for(lambda m: m["type"] == "state")
    for _ in range(40):  # the burst is 30 messages
        ca.send({"type": "ping"})
    limited = ca.wait_for(lambda m: m["type"] == "error" and m["code"] == "rate_limited")
    # the refused message is dropped; the answer says when a token is back (10/s: 0.1 s at
    # most, and a little more)
    assert 0.01 <= limited["retry_after"] <= 0.111
    time.sleep(0.3)  # every answer to the 40 is in
    pongs = sum(m["type"] == "pong" for m in ca.messages)
    assert 30 <= pongs <= 31  # the others were dropped (each answered rate_limited)
    time.sleep(limited["retry_after"])
    ca.send({"type": "ping"})  # sent again after the advised delay: answered
    ca.wait_for(lambda m: sum(x["type"] == "pong" for x in ca.messages) > pongs)
    ca.send("x" * 5000)  # over 4096 bytes: refused and closed
    ca.wait_for(lambda m: m["type"] == "error" and m["code"] == "too_large")
    assert ca.closed.wait(5)
    ca.close()
    cb = WsClient(client, tid, None, inbox, "evil")
    cb.close()
    # a page of another site may not play with the cookie: refused before accepting
    evil = {"origin": "http://evil.example", "cookie": a}
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{tid}", headers=evil) as ws,
    ):
        ws.receive_text()


def test_server_ws_reconnect_replace_and_reclaim(client: Any) -> None:
    a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
    tid = make_table(client, a, [{"kind": "human"}, {"kind": "human"}], target=60)
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b})
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    cb = WsClient(client, tid, b, inbox, "B")
    ca.wait_for(lambda m: m["type"] == "state" and m["legal"])
    ca.send({"type": "move", "version": 2, "action": "add 1"})
    cb.wait_for(lambda m: m["type"] == "state" and m["version"] == 3)
    cb.close()  # Ben leaves while it is his turn
    gone = ca.wait_for(
        lambda m: m["type"] == "state" and m["table"]["seats"][1]["gone_for"] is not None
    )
    assert gone["table"]["seats"][1]["connected"] is False
    ca.send({"type": "replace", "seat": 1})
    e = ca.wait_for(lambda m: m["type"] == "error")
    assert e["code"] == "too_soon"
    time.sleep(0.3)
    ca.send({"type": "replace", "seat": 0})
    assert ca.wait_for(lambda m: m["type"] == "error" and m is not e)["code"] == "not_absent"
    ca.send({"type": "replace", "seat": 1})
    # the bot plays Ben's turn: it is A's turn again at version 4
    st = ca.wait_for(lambda m: m["type"] == "state" and m["version"] == 4 and m["legal"])
    assert st["table"]["seats"][1]["bot"] == "random" and st["table"]["seats"][1]["replaced"]
    # Ben comes back: he gets his seat, his secret and the log again
    inbox2: queue.Queue[Any] = queue.Queue()
    cb2 = WsClient(client, tid, b, inbox2, "B2")
    back = cb2.wait_for(lambda m: m["type"] == "state")
    assert back["seat"] == 1 and back["version"] == 4
    assert back["table"]["seats"][1]["bot"] is None
    assert [e["kind"] for e in back["events"]] == ["dealt", "added", "added"]
    ca.send({"type": "move", "version": 4, "action": "add 2"})
    mine = cb2.wait_for(lambda m: m["type"] == "state" and m["version"] == 5)
    assert mine["legal"]
    assert mine["view"]["counter"] == st["view"]["counter"] + 2
    ca.close()
    cb2.close()


def test_server_ws_a_left_seat_is_not_spoken_for_by_the_old_connection(client: Any) -> None:
    # Aki sits at seat 0 and connects, then leaves; Ben takes seat 0 and the game starts.
    # Aki's old connection must become a spectator's: no hidden card of Ben's, no moves.
    a, b, c = new_guest(client, "Aki"), new_guest(client, "Ben"), new_guest(client, "Cho")
    tid = make_table(client, a, [{"kind": "human"}, {"kind": "human"}], target=40)
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    ca.wait_for(lambda m: m["type"] == "state" and m["seat"] == 0)
    assert client.post(f"/api/tables/{tid}/leave", headers={"cookie": a}).status_code == 200
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 0}, headers={"cookie": b})
    assert r.status_code == 200 and r.json()["my_seat"] == 0
    assert client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": c}).status_code == 200
    started = ca.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
    assert started["seat"] is None and started["legal"] == []
    assert started["view"]["hand"] == [] or all(h is None for h in started["view"]["hand"])
    ca.send({"type": "move", "version": started["version"], "action": "add 1"})
    err = ca.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "spectator"
    ca.close()
