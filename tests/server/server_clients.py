"""Test helpers: WebSocket clients read by background threads, a driver that plays whole games
through the server, and the check that every message a seat received was its own."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import threading
import time
from typing import Any

from septet import games
from septet.core import GameRecord

ALLOWED_STATE_KEYS = {"type", "table", "seat", "version", "view", "legal", "events", "text", "chat"}
CHAT_KEYS = {"id", "seat", "name", "text", "at"}
_OPEN: list[WsClient] = []


def close_all() -> None:
    """Close every WsClient still open (fixture teardown)."""
    while _OPEN:
        _OPEN.pop().close()


class WsClient:
    """One WebSocket connection of a TestClient; every message is kept in ``messages`` and
    pushed to ``inbox`` as ``(self, message)``."""

    def __init__(
        self, client: Any, table_id: str, cookie: str | None, inbox: queue.Queue[Any], label: str
    ) -> None:
        headers = {"cookie": cookie} if cookie else {}
        self.label = label
        self.cm = client.websocket_connect(f"/ws/tables/{table_id}", headers=headers)
        self.ws = self.cm.__enter__()
        self.inbox = inbox
        self.messages: list[dict[str, Any]] = []
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        _OPEN.append(self)

    def _read(self) -> None:
        try:
            while True:
                msg = json.loads(self.ws.receive_text())
                self.messages.append(msg)
                self.inbox.put((self, msg))
        except Exception:
            self.closed.set()
            self.inbox.put((self, None))

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def close(self) -> None:
        if self in _OPEN:
            _OPEN.remove(self)
        with contextlib.suppress(Exception):
            self.cm.__exit__(None, None, None)
        self.closed.wait(5)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]

    def wait_for(self, pred: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until a message satisfying ``pred`` has arrived (returns it)."""
        end = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < end:
            while seen < len(self.messages):
                m = self.messages[seen]
                seen += 1
                if pred(m):
                    return m
            time.sleep(0.01)
        raise AssertionError(f"{self.label}: no such message; last: {self.messages[-3:]}")


def play_through(
    clients: list[WsClient],
    inbox: queue.Queue[Any],
    seed: int = 0,
    timeout: float = 60.0,
    pace: float = 0.0,
) -> None:
    """Answer every ``state`` offering legal moves with a random one (on that version) until
    every client has seen the table finished; ``pace``: seconds to wait before each move (a
    server with the default rate limit takes 10 messages a second)."""
    rng = random.Random(seed)
    done: set[str] = set()
    end = time.monotonic() + timeout
    while len(done) < len(clients):
        left = end - time.monotonic()
        assert left > 0, "game did not finish in time"
        client, msg = inbox.get(timeout=left)
        if msg is None:
            raise AssertionError(f"{client.label} was disconnected")
        if msg["type"] == "error":
            assert msg["code"] == "stale", msg  # only a move on an old version may fail here
            continue
        if msg["type"] != "state":
            continue
        if msg["table"]["status"] == "finished":
            done.add(client.label)
        elif msg["legal"]:
            choice = rng.choice(msg["legal"])["a"]
            if pace:
                time.sleep(pace)
            client.send({"type": "move", "version": msg["version"], "action": choice})


def _canon(x: Any) -> Any:
    return json.loads(json.dumps(x))


def check_messages(record: GameRecord, clients: list[tuple[WsClient, int | None]]) -> int:
    """Check every message each client received against the finished game's record: a state
    message carries exactly ``view(seat)`` at its version, legal moves only for the seat to move
    (exactly the engine's), only events visible to that seat, and all of them in order. Returns
    the number of messages checked.

    A client must have been connected since the start (its first state message with history).
    """
    game = games.get(record.game, **record.options)
    state = game.new_state(record.num_players)
    snapshots = [state.clone()]
    events_at: list[list[Any]] = [[]]
    for text in record.actions:
        events = state.apply(game.parse_action(state, text))
        snapshots.append(state.clone())
        events_at.append(events)
    checked = 0
    for client, seat in clients:
        received: list[tuple[int, str, Any, Any]] = []
        for msg in client.messages:
            checked += 1
            if msg["type"] == "ack":
                assert set(msg) == {"type", "version", "at", "action"}
                continue
            if msg["type"] in ("error", "pong"):
                assert set(msg) <= {"type", "code", "message", "message_ja", "rule", "action",
                                    "version"}  # fmt: skip
                continue
            if msg["type"] == "chat":  # said at the table: public, plain text
                assert set(msg) == {"type", "message"} and set(msg["message"]) == CHAT_KEYS
                continue
            assert msg["type"] == "state", msg
            # only the first state of a connection carries the chat so far
            assert ("chat" in msg) == (msg is client.states()[0]), client.label
            assert all(set(m) == CHAT_KEYS for m in msg.get("chat", []))
            assert set(msg) <= ALLOWED_STATE_KEYS, set(msg) - ALLOWED_STATE_KEYS
            assert msg["seat"] == seat
            v = msg["version"]
            snap = snapshots[v]
            if msg["view"] is None:
                assert msg["table"]["status"] == "waiting"
            else:
                assert msg["view"] == _canon(snap.view(seat)), (client.label, v)
            if msg["legal"]:
                assert snap.current_player == seat
                assert [x["a"] for x in msg["legal"]] == [str(a) for a in snap.legal_actions()]
            for e in msg["events"]:
                received.append((e["v"], e["kind"], e["seat"], e["data"]))
        expected = [
            (v, e.kind, e.seat, _canon(dict(e.data)))
            for v in range(len(events_at))
            for e in events_at[v]
            if e.is_visible(seat)
        ]
        assert received == expected, client.label
    return checked
