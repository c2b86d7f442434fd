"""Whole games of the real engines over WebSocket, two people, bots and a spectator: every
message each connection received is checked to carry only its own seat's view and the events it
may see (no rack, hand, passed card or deck order of another seat)."""

from __future__ import annotations

import queue
from typing import Any

import pytest

from septet import games
from septet.core import GameRecord
from tests.server.conftest import new_guest
from tests.server.server_clients import WsClient, check_messages, play_through

pytestmark = pytest.mark.timeout(300)

CASES = [
    ("flip7", {"target": 60}, 3),
    ("double-seven", {}, 3),
    ("seven-shot", {"target": 2}, 4),
]


@pytest.fixture(params=["sqlite"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """The engines' security run uses SQLite only (the storage paths are covered elsewhere)."""
    return f"sqlite:///{tmp_path / 'septet.sqlite3'}"


@pytest.mark.parametrize(("game", "options", "players"), CASES, ids=[c[0] for c in CASES])
def test_server_engine_whole_game_leaks_nothing(
    client: Any, game: str, options: dict[str, Any], players: int
) -> None:
    games.get(game, **options)  # every engine is installed: a failure here is a broken engine
    a, b = new_guest(client, "Aki"), new_guest(client, "Ben")
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (
        players - 2
    )
    r = client.post(
        "/api/tables",
        json={"game": game, "options": options, "seats": seats},
        headers={"cookie": a},
    )
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    inbox: queue.Queue[Any] = queue.Queue()
    ca = WsClient(client, tid, a, inbox, "A")
    spec = WsClient(client, tid, None, inbox, "spectator")
    ca.wait_for(lambda m: m["type"] == "state")
    spec.wait_for(lambda m: m["type"] == "state")
    assert client.post(f"/api/tables/{tid}/join", json={}, headers={"cookie": b}).status_code == 200
    cb = WsClient(client, tid, b, inbox, "B")
    play_through([ca, cb, spec], inbox, seed=11, timeout=240)
    for c in (ca, cb, spec):
        c.close()
    rec = GameRecord.from_json(client.get(f"/api/tables/{tid}/record").json())
    assert rec.result is not None
    checked = check_messages(rec, [(ca, 0), (cb, 1), (spec, None)])
    assert checked > 20
    # the people really played: their acknowledged moves are in the record at their versions
    acks = [m for m in ca.messages + cb.messages if m["type"] == "ack"]
    assert acks and all(rec.actions[m["at"]] == m["action"] for m in acks)
