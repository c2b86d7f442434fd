"""Everything a live table has, on a turn-based table (issue 28): the deadline in every seat's
and a spectator's view, chat, a whole game played out at missed deadlines (the clock moved by
hand), its record and replay, the ratings of both people, and a rematch that keeps the pace."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from septet.server.turns.clock import ManualClock
from septet.server.turns.sweeper import sweep_deadlines
from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(180)
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def site(tmp_path: Any) -> Iterator[tuple[Any, ManualClock]]:
    """A TestClient on a fresh SQLite file deciding deadlines by a manual clock."""
    with make_client(f"sqlite:///{tmp_path / 'septet.sqlite3'}", sweep_interval=3600) as client:
        clock = ManualClock(START)
        client.app.state.manager.clock = clock
        yield client, clock


def sweep(client: Any, clock: ManualClock) -> int:
    manager = client.app.state.manager
    return int(client.portal.call(sweep_deadlines, manager.store, clock, manager.play_timeout))


def chat(c: WsClient, text: str) -> dict[str, Any]:
    n = len(c.messages)
    c.send({"type": "chat", "text": text})
    return c.wait_for(
        lambda m: m["type"] in ("chat", "error") and any(x is m for x in c.messages[n:])
    )


def player_id(client: Any, cookie: str) -> str:
    return str(client.get("/api/me", headers={"cookie": cookie}).json()["player"]["id"])


def test_turns_features_chat_spectators_replay_ratings_rematch(
    site: tuple[Any, ManualClock],
) -> None:
    client, clock = site
    ann, bob = new_guest(client, "Ann"), new_guest(client, "Bob")
    pace = {"pace": "turn-based", "turn_hours": 24, "on_timeout": "move"}
    body = {"game": "tiny-sevens", "options": {"target": 30, **pace}, "seats": ["human", "human"]}
    tid = client.post("/api/tables", json=body, headers={"cookie": ann}).json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": bob})
    inbox: queue.Queue[Any] = queue.Queue()
    socks = {"ann": WsClient(client, tid, ann, inbox, "ann"),
             "bob": WsClient(client, tid, bob, inbox, "bob"),
             "watcher": WsClient(client, tid, None, inbox, "watcher")}  # fmt: skip
    # every seat and the spectator see the same deadline, 24 hours after the deal
    due = START + timedelta(hours=24)
    for sock in socks.values():
        state = sock.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
        assert state["table"]["pace"] == "turn-based"
        assert datetime.fromisoformat(state["table"]["deadline"]) == due
    # chat: both people speak, everyone hears; the spectator may not speak
    said = chat(socks["ann"], "one move a day?")["message"]
    assert (said["seat"], said["name"]) == (0, "Ann")
    for name in ("bob", "watcher"):
        assert socks[name].wait_for(lambda m: m["type"] == "chat")["message"] == said
    assert chat(socks["watcher"], "hi")["code"] == "chat_spectator"
    # a whole game, each move made by a Normal bot at its missed deadline, a day apart
    made = 0
    while client.get(f"/api/tables/{tid}").json()["status"] == "playing":
        clock.advance(hours=24)
        made += sweep(client, clock)
        assert made <= 80, "the game did not end"
    done = client.get(f"/api/tables/{tid}").json()
    assert done["status"] == "finished" and done["deadline"] is None
    assert len(done["timeouts"]) == made >= 4
    assert all(s["bot"] is None and s["missed"] >= 1 for s in done["seats"])  # still theirs
    for sock in socks.values():  # everyone watched it end
        sock.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
    # the record and its replay hold every move, the timed-out ones among them
    record = client.get(f"/api/tables/{tid}/record").json()
    assert record["players"] == ["Ann", "Bob"] and record["result"] == done["result"]
    replay = client.get(f"/api/tables/{tid}/replay").json()
    assert len(replay["steps"]) == len(record["actions"]) == done["version"]
    total = len(record["actions"])
    last = client.get(f"/api/tables/{tid}/replay/{total}").json()
    assert last["total"] == total and last["scores"] == done["result"]["scores"]
    # both people are rated (the bot only made single moves for them: the seats stayed theirs)
    ids = {name: player_id(client, c) for name, c in (("ann", ann), ("bob", bob))}
    winners = set(done["result"]["winners"])
    end = time.monotonic() + 20
    for seat, name in enumerate(("ann", "bob")):
        while True:
            games = client.get(f"/api/players/~{ids[name]}").json()["games"]
            if games and games[0]["rating"]:
                break
            assert time.monotonic() < end, "not rated"
            time.sleep(0.2)
        assert (games[0]["played"], games[0]["won"]) == (1, int(seat in winners))
        assert games[0]["rating"]["games"] == 1
    # a rematch is turn-based too, at the same hours and policy
    r = client.post(f"/api/tables/{tid}/rematch", headers={"cookie": bob})
    assert r.status_code == 200, r.text
    again = r.json()["table"]
    assert (again["pace"], again["turn_hours"], again["on_timeout"]) == (
        "turn-based", 24, "move")  # fmt: skip
    r = client.post(f"/api/tables/{tid}/rematch", headers={"cookie": ann})
    started = r.json()["table"]
    assert started["id"] == again["id"] and started["status"] == "playing"
    assert datetime.fromisoformat(started["deadline"]) == clock.now() + timedelta(hours=24)
    for sock in socks.values():
        sock.close()


def bob_moves(ws: WsClient, v: int) -> None:
    st = ws.wait_for(lambda m: m["type"] == "state" and m["legal"] and m["version"] == v)
    ws.send({"type": "move", "version": v, "action": st["legal"][0]["a"]})
    ws.wait_for(lambda m: m["type"] == "ack" and m["at"] == v)


def test_turns_features_replaced_player_takes_the_loss(site: tuple[Any, ManualClock]) -> None:
    client, clock = site
    ann, bob = new_guest(client, "Ann"), new_guest(client, "Bob")
    pace = {"pace": "turn-based", "turn_hours": 1, "on_timeout": "replace"}
    body = {"game": "tiny-sevens", "options": {"target": 30, **pace}, "seats": ["human", "human"]}
    tid = client.post("/api/tables", json=body, headers={"cookie": ann}).json()["id"]
    client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": bob})
    ws = WsClient(client, tid, bob, queue.Queue(), "bob")
    # Ann never moves; Bob always does: Ann's seat is a bot's from her second missed deadline
    end = time.monotonic() + 60
    while (now := client.get(f"/api/tables/{tid}").json())["status"] == "playing":
        assert time.monotonic() < end, "the game did not end"
        if now["to_move"] == 1:
            bob_moves(ws, now["version"])
        elif now["seats"][0]["bot"] is None:
            clock.advance(hours=1)
            sweep(client, clock)
        else:
            time.sleep(0.05)  # the bot holding Ann's seat moves by itself
    done = client.get(f"/api/tables/{tid}").json()
    assert [t["seat"] for t in done["timeouts"]] == [0, 0]
    assert done["seats"][0]["replaced"] and done["seats"][0]["missed"] == 2
    assert not done["seats"][1]["replaced"] and done["seats"][1]["missed"] == 0
    # rated: Ann, who left, takes the loss whoever won at her seat
    ids = [player_id(client, c) for c in (ann, bob)]
    end = time.monotonic() + 20
    while (
        not (games := client.get(f"/api/players/~{ids[0]}").json()["games"])
        or not games[0]["rating"]
    ):
        assert time.monotonic() < end, "not rated"
        time.sleep(0.2)
    ann_games = client.get(f"/api/players/~{ids[0]}").json()
    bob_games = client.get(f"/api/players/~{ids[1]}").json()
    assert ann_games["recent"][0]["left"] and not ann_games["recent"][0]["won"]
    assert bob_games["games"][0]["rating"]["rating"] > ann_games["games"][0]["rating"]["rating"]
    ws.close()
