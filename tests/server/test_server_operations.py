"""What an operator relies on, in one process (SQLite and PostgreSQL): text no column can hold
is a 4xx in player words, never a 500 or ``server``; names without control or invisible
characters; ``/api/ready`` and ``/metrics``; the access log and ``--log-format json``; the
WebSocket Origin check with its scheme; the OpenAPI schema's error answers; the cap on tables
of bots per address; and the fair order of the bot processes among owners."""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import re
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from septet.server.botpool import FairGate
from septet.server.logs import JsonFormatter
from septet.server.textcheck import CLOSE_BAD_TEXT
from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(120)


def _table(client: Any, cookie: str, seats: list[str] | None = None) -> str:
    seats = seats or ["human", "bot:random"]
    r = client.post("/api/tables", json={"game": "tiny-sevens", "seats": seats},
                    headers={"cookie": cookie})  # fmt: skip
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_operations_unstorable_text_is_a_400(client: Any) -> None:
    r = client.post("/api/guest", json={"name": "a\u0000b"})
    assert r.status_code == 400 and r.json()["error"] in ("bad_name", "bad_text"), r.text
    assert r.json()["message"] and r.json()["message_ja"]
    for path in ("/api/tables?game=a%00b", "/api/tables/a%00b", "/api/tables/a%00b/record"):
        r = client.get(path)
        assert (r.status_code, r.json()["error"]) == (400, "bad_text"), (path, r.text)
    # a lone surrogate (no UTF-8 text) in a JSON body
    r = client.post("/api/guest", content=b'{"name": "A\\ud800"}',
                    headers={"content-type": "application/json"})  # fmt: skip
    assert 400 <= r.status_code < 500, r.text
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/tables/a%00b"):
        pass
    assert closed.value.code == CLOSE_BAD_TEXT
    cookie = new_guest(client, "Aki")
    r = client.post("/api/tables", json={"game": "tiny-sevens", "seats": ["human", "bot:random"],
                                         "options": {"target\u0000": 40}},
                    headers={"cookie": cookie})  # fmt: skip
    assert 400 <= r.status_code < 500, r.text
    tid = _table(client, cookie)
    ws = WsClient(client, tid, cookie, queue.Queue(), "Aki")
    ws.wait_for(lambda m: m["type"] == "state")
    ws.send({"type": "chat", "text": "hello\u0000there"})
    err = ws.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "bad_text" and err.get("message_ja"), err
    ws.send({"type": "chat", "text": "hello"})  # the socket still serves
    assert ws.wait_for(lambda m: m["type"] == "chat")["message"]["text"] == "hello"
    ws.close()


@pytest.mark.parametrize(
    "name",
    ["A\u202eki", "A\u200bki", "\u2066Aki\u2069", "A\u200dki", "Ak\u0007i", "\ufeffAki", "A\nki"],
    ids=["bidi-override", "zero-width-space", "bidi-isolate", "zwj", "bell", "bom", "newline"],
)
def test_operations_guest_names_refuse_invisible_characters(client: Any, name: str) -> None:
    r = client.post("/api/guest", json={"name": name})
    assert (r.status_code, r.json()["error"]) == (400, "bad_name"), r.text
    assert client.post("/api/guest", json={"name": "Aki"}).status_code == 200


def test_operations_ready_embedded(client: Any) -> None:
    r = client.get("/api/ready")
    assert r.status_code == 200 and r.json() == {"ready": True, "checks": {"database": True}}
    assert client.get("/api/health").json()["ok"] is True


def _series(client: Any) -> dict[str, float]:
    text = client.get("/metrics").text
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, value = line.rsplit(" ", 1)
            out[key] = float(value)
    return out


def test_operations_metrics_count_moves_and_refusals(client: Any) -> None:
    before = _series(client)
    cookie = new_guest(client, "Aki")
    tid = _table(client, cookie)
    ws = WsClient(client, tid, cookie, queue.Queue(), "Aki")
    state = ws.wait_for(lambda m: m["type"] == "state" and bool(m["legal"]))
    ws.send({"type": "move", "version": state["version"] + 7, "action": state["legal"][0]["a"]})
    assert ws.wait_for(lambda m: m["type"] == "error")["code"] == "stale"
    ws.send({"type": "move", "version": state["version"], "action": state["legal"][0]["a"]})
    ws.wait_for(lambda m: m["type"] == "ack")
    after = _series(client)
    assert after["septet_sockets"] == 1 and after["septet_live_tables"] >= 1
    ws.close()

    def grew(key: str) -> float:
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert grew('septet_moves_accepted_total{by="person"}') == 1
    assert grew('septet_moves_refused_total{reason="stale"}') == 1
    assert grew("septet_move_seconds_count") == 1
    for name in ("septet_bot_queue_depth", "septet_database_errors_total",
                 "septet_redis_errors_total"):  # fmt: skip
        assert name in after


def test_operations_access_log_lines(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="septet.access"):
        assert client.get("/api/games/nope/rules").status_code == 404
    lines = [r for r in caplog.records if r.name == "septet.access"]
    assert len(lines) == 1
    line = json.loads(JsonFormatter().format(lines[0]))
    assert line["logger"] == "septet.access" and line["status"] == 404
    assert line["method"] == "GET" and line["path"] == "/api/games/nope/rules"
    assert line["ms"] >= 0 and re.match(r"\d{4}-\d\d-\d\dT", line["time"])


@pytest.mark.parametrize("path", ["/ws/tables/{tid}", "/ws/me"])
def test_operations_websocket_origin_compares_scheme(client: Any, path: str) -> None:
    cookie = new_guest(client, "Aki")
    url = path.format(tid=_table(client, cookie))
    for foreign in ("https://testserver", "http://testserver:8080", "http://evil.example"):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(url, headers={"origin": foreign, "cookie": cookie}) as ws,
        ):
            ws.receive_text()
        assert closed.value.code == 1008, foreign
    with client.websocket_connect(url, headers={"origin": "http://testserver",
                                                "cookie": cookie}) as ws:  # fmt: skip
        assert json.loads(ws.receive_text())["type"] in ("state", "turns")


def test_operations_openapi_declares_error_answers(client: Any) -> None:
    paths = client.app.openapi()["paths"]
    declared = {(p, m): set(op["responses"]) for p, ops in paths.items() for m, op in ops.items()}
    assert {"400", "413", "429"} <= declared[("/api/tables", "post")]
    assert {"400", "413", "429"} <= declared[("/api/guest", "post")]
    assert {"404", "409"} <= declared[("/api/tables/{table_id}/join", "post")]
    assert "404" in declared[("/api/tables/{table_id}", "get")]
    assert "503" in declared[("/api/ready", "get")]
    assert all("400" in codes for codes in declared.values())


def test_operations_bot_tables_capped_per_address(db_url: str) -> None:
    # (bots slow enough that the tables stay in play)
    with make_client(
        db_url, max_bot_tables=5, max_bot_tables_per_address=3, bot_delay=5.0
    ) as client:
        codes = []
        for i in range(6):  # a fresh guest each time, from one address
            cookie = new_guest(client, f"Flood {i}")
            r = client.post("/api/tables", json={"game": "tiny-sevens",
                                                 "seats": ["bot:random", "bot:random"]},
                            headers={"cookie": cookie})  # fmt: skip
            codes.append((r.status_code, r.json().get("error")))
        assert codes[:3] == [(200, None)] * 3
        assert codes[3:] == [(429, "too_many_bot_tables")] * 3
        # a table with a person at it is not a bot table: still open to that address
        _table(client, new_guest(client, "Person"))


def test_operations_fair_gate_serves_owners_in_turn() -> None:
    async def run() -> list[str]:
        gate = FairGate(1)
        order: list[str] = []
        await gate.acquire("first")  # the process is busy

        async def one(owner: str, n: int) -> None:
            await gate.acquire(owner)
            order.append(f"{owner}{n}")
            await asyncio.sleep(0)
            gate.release()

        tasks = [asyncio.create_task(one("flood", n)) for n in range(20)]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(one("other", 0)), asyncio.create_task(one("third", 0))]
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*tasks)
        return order

    order = asyncio.run(run())
    # one flood waiter, then the others' each: 20 flood turns delay them by one turn at most
    assert order[:3] == ["flood0", "other0", "third0"]
    assert order[3:] == [f"flood{n}" for n in range(1, 20)]
