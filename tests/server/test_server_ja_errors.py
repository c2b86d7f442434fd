"""An illegal move over WebSocket comes back with the engine's reason in English and Japanese."""

from __future__ import annotations

import queue
from typing import Any

import pytest

from tests.server.conftest import new_guest
from tests.server.server_clients import WsClient

pytestmark = pytest.mark.timeout(120)


def _my_turn(client: Any, game: str, options: dict[str, Any]) -> tuple[WsClient, int]:
    """A table of one person (seat 0) and a random bot; returns the person's connection and the
    version of the first state where seat 0 is to move."""
    a = new_guest(client, "Aki")
    r = client.post(
        "/api/tables",
        json={
            "game": game,
            "options": options,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        },
        headers={"cookie": a},
    )
    assert r.status_code == 200, r.text
    ca = WsClient(client, str(r.json()["id"]), a, queue.Queue(), "A")
    m = ca.wait_for(lambda m: m["type"] == "state" and m["table"]["to_move"] == 0)
    return ca, int(m["version"])


def _error(ca: WsClient, version: int, action: str) -> dict[str, Any]:
    n = len(ca.messages)
    ca.send({"type": "move", "version": version, "action": action})
    e: dict[str, Any] = ca.wait_for(lambda m: ca.messages.index(m) >= n and m["type"] == "error")
    return e


def test_server_illegal_move_carries_the_japanese_reason(client: Any) -> None:
    # DS-6.2: a discard only ends a turn with 6 or more tiles; seat 0 is in its draw phase.
    ca, version = _my_turn(client, "double-seven", {})
    e = _error(ca, version, "discard fox")
    assert e["code"] == "illegal" and e["rule"] == "DS-6.2"
    assert e["message"] == "you discard only at the end of your turn with 6 or more tiles"
    assert e["message_ja"] == "捨てるのは、ターン終了時にラックが6枚以上あるときだけです"
    ca.close()


def test_server_illegal_move_without_japanese_falls_back_to_english(client: Any) -> None:
    # The test game gives no Japanese reason: message_ja repeats the English one.
    ca, version = _my_turn(client, "tiny-sevens", {})
    e = _error(ca, version, "add 4")
    assert e["code"] == "illegal"
    assert e["message_ja"] == e["message"] and "not 'add 1|2|3'" in e["message"]
    ca.close()
