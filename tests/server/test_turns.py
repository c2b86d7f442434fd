"""Turn-based tables in one process (issue 28): the pace options, the deadline on every move
decided by an injected clock (moved by hand, never slept), the move a Normal bot makes at a
missed deadline (once, however many sweeps see it), the seat replaced at a second miss with
``on_timeout=replace``, nobody replaced for being away, and "your turn" across tables
(``GET /api/me/turns``, ``WS /ws/me``)."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from septet.server.turns.clock import ManualClock
from septet.server.turns.sweeper import sweep_deadlines
from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(120)
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def site(tmp_path: Any) -> Iterator[tuple[Any, ManualClock]]:
    """A TestClient on a fresh SQLite file whose manager decides deadlines by a manual clock
    (the background sweeper is slowed down: the tests sweep by hand)."""
    with make_client(f"sqlite:///{tmp_path / 'septet.sqlite3'}", sweep_interval=3600) as client:
        clock = ManualClock(START)
        client.app.state.manager.clock = clock
        yield client, clock


def sweep(client: Any, clock: ManualClock) -> int:
    manager = client.app.state.manager
    return int(client.portal.call(sweep_deadlines, manager.store, clock, manager.play_timeout))


def turn_based_table(client: Any, **pace: Any) -> tuple[str, dict[str, str]]:
    """A Tiny Sevens table of two people at 24 hours a move (``pace`` overrides); returns its
    id and the cookies of the seats' guests (``"0"``, ``"1"``)."""
    ann, bob = new_guest(client, "Ann"), new_guest(client, "Bob")
    options = {"target": 40, "pace": "turn-based", "turn_hours": 24, **pace}
    body = {"game": "tiny-sevens", "options": options, "seats": ["human", "human"]}
    r = client.post("/api/tables", json=body, headers={"cookie": ann})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    assert (
        client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": bob}).status_code == 200
    )
    return tid, {"0": ann, "1": bob}


def summary(client: Any, tid: str) -> dict[str, Any]:
    return dict(client.get(f"/api/tables/{tid}").json())


def test_turns_pace_options_are_checked(site: tuple[Any, ManualClock]) -> None:
    client, _ = site
    ann = new_guest(client, "Ann")
    base = {"game": "tiny-sevens", "seats": ["human", "human"]}
    for extra, says in [
        ({"pace": "turn-based", "turn_hours": 0}, "between 1 and 336"),
        ({"pace": "turn-based", "turn_hours": 337}, "between 1 and 336"),
        ({"pace": "turn-based", "turn_hours": 2.5}, "a whole number"),
        ({"pace": "live", "turn_hours": 24}, "turn-based tables only"),
        ({"pace": "weekly"}, "choose live or turn-based"),
        ({"pace": "turn-based", "on_timeout": "wait"}, "choose move or replace"),
    ]:
        r = client.post("/api/tables", json={**base, "options": extra}, headers={"cookie": ann})
        assert r.status_code == 400 and r.json()["error"] == "bad_pace", r.text
        assert says in r.json()["message"] and r.json()["message_ja"]
    listed = client.get("/api/games").json()[0]["table_options"]
    assert [o["name"] for o in listed] == ["rated", "pace", "turn_hours", "on_timeout"]
    live = client.post("/api/tables", json=base, headers={"cookie": ann}).json()
    assert (live["pace"], live["turn_hours"], live["deadline"]) == ("live", 0, None)


def test_turns_deadline_then_one_normal_bot_move(site: tuple[Any, ManualClock]) -> None:
    client, clock = site
    tid, cookies = turn_based_table(client)
    s = summary(client, tid)
    mover = s["to_move"]
    assert s["pace"] == "turn-based" and s["turn_hours"] == 24 and s["replace_after"] is None
    assert datetime.fromisoformat(s["deadline"]) == START + timedelta(hours=24)
    mine = client.get("/api/me/turns", headers={"cookie": cookies[str(mover)]}).json()
    assert [(t["id"], t["deadline"], t["seat"]) for t in mine["turns"]] == [
        (tid, s["deadline"], mover)
    ]
    other = client.get("/api/me/turns", headers={"cookie": cookies[str(1 - mover)]}).json()
    assert other == {"turns": [], "count": 0}
    clock.advance(hours=23, seconds=59 * 60 + 59)
    assert sweep(client, clock) == 0 and summary(client, tid)["version"] == s["version"]
    clock.advance(seconds=1)  # the deadline itself
    assert sweep(client, clock) == 1
    assert sweep(client, clock) == 0  # seen again: nothing more (the next deadline is later)
    after = summary(client, tid)
    assert after["version"] == s["version"] + 1 and after["to_move"] == 1 - mover
    assert after["timeouts"] == [{"v": s["version"], "seat": mover}]
    seat = after["seats"][mover]
    assert (seat["missed"], seat["bot"], seat["kind"]) == (1, None, "human")  # still theirs
    assert datetime.fromisoformat(after["deadline"]) == START + timedelta(hours=48)
    # hours later the other player moves; the next deadline runs from then
    clock.advance(hours=5)
    ws = WsClient(client, tid, cookies[str(1 - mover)], queue.Queue(), "b")
    state = ws.wait_for(lambda m: m["type"] == "state" and m["legal"])
    ws.send({"type": "move", "version": state["version"], "action": state["legal"][0]["a"]})
    ws.wait_for(lambda m: m["type"] == "ack")
    moved = summary(client, tid)
    assert datetime.fromisoformat(moved["deadline"]) == START + timedelta(hours=53)
    ws.close()


def test_turns_nobody_replaced_for_being_away(site: tuple[Any, ManualClock]) -> None:
    client, _ = site
    tid, cookies = turn_based_table(client)
    mover = summary(client, tid)["to_move"]
    ws = WsClient(client, tid, cookies[str(1 - mover)], queue.Queue(), "waiting")
    ws.wait_for(lambda m: m["type"] == "state")
    ws.send({"type": "replace", "seat": mover})
    err = ws.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "turn_based" and "deadline" in err["message"] and err["message_ja"]
    assert summary(client, tid)["seats"][mover]["bot"] is None
    ws.close()


def test_turns_second_miss_replaces_for_the_rest(site: tuple[Any, ManualClock]) -> None:
    client, clock = site
    tid, cookies = turn_based_table(client, on_timeout="replace", turn_hours=1)
    first = summary(client, tid)["to_move"]
    made = 0
    while made < 2 or summary(client, tid)["seats"][first]["missed"] < 2:
        clock.advance(hours=1)
        made += sweep(client, clock)
        assert made <= 6
    s = summary(client, tid)
    seat = s["seats"][first]
    assert seat["missed"] == 2 and seat["replaced"] and seat["bot"]
    # the player comes back: the bot keeps the seat (a live table would hand it back)
    ws = WsClient(client, tid, cookies[str(first)], queue.Queue(), "back")
    ws.wait_for(lambda m: m["type"] == "state")
    assert summary(client, tid)["seats"][first]["bot"] == seat["bot"]
    ws.close()


def test_turns_ws_me_pushes_your_turn(site: tuple[Any, ManualClock]) -> None:
    client, _ = site
    tid, cookies = turn_based_table(client)
    mover = summary(client, tid)["to_move"]
    waiting = cookies[str(1 - mover)]
    with client.websocket_connect("/ws/me", headers={"cookie": waiting}) as me:
        first = json.loads(me.receive_text())
        assert first == {"type": "turns", "turns": [], "your_turn": None}
        ws = WsClient(client, tid, cookies[str(mover)], queue.Queue(), "mover")
        state = ws.wait_for(lambda m: m["type"] == "state" and m["legal"])
        ws.send({"type": "move", "version": state["version"], "action": state["legal"][0]["a"]})
        pushed = json.loads(me.receive_text())
        assert pushed["type"] == "turns" and pushed["your_turn"] == tid
        assert [t["id"] for t in pushed["turns"]] == [tid]
        assert pushed["turns"][0]["title"] == {"en": "Tiny Sevens", "ja": "ちいさなセブン"}
        ws.close()
    with (
        client.websocket_connect("/ws/me") as anonymous,  # no guest: closed with 4401
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        anonymous.receive_text()
    assert closed.value.code == 4401
