"""Scaled out, a Strong bot playing at Normal while its compiled search warms up says so too
(issue 27): the bot worker (``septet bots``) stores the mark on the seat with its move and
sends it with the steps, so the players of every server process see the seat ``warming`` in
the table data until the bot plays a Strong move again. Two apps of one site (A, B) and a
worker in a thread of this process (tests/server/test_server_scaled.py's site)."""

from __future__ import annotations

import queue
from typing import Any

import pytest

from septet.server.botpool import BotMove
from septet.server.worker import BotWorker
from tests.server.conftest import new_guest
from tests.server.server_clients import WsClient
from tests.server.test_server_scaled import site

__all__ = ["site"]  # (the fixture, imported)

pytestmark = pytest.mark.timeout(120)


def test_worker_carries_the_warming_mark_to_every_process(
    site: tuple[Any, Any, BotWorker],
) -> None:
    a, b, worker = site
    real = worker.pool.choose
    warming = [True]
    answered: list[BotMove] = []

    async def choose(*args: Any, **kwargs: Any) -> BotMove:  # as a warming pool answers
        move = BotMove(str(await real(*args, **kwargs)), warming=warming[0])
        answered.append(move)
        return move

    worker.pool.choose = choose  # type: ignore[method-assign]
    aki = new_guest(a, "Aki")
    body = {"game": "tiny-sevens", "options": {"target": 60}, "seats": ["human", "bot:random"]}
    r = a.post("/api/tables", json=body, headers={"cookie": aki})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    inbox: queue.Queue[Any] = queue.Queue()
    me = WsClient(a, tid, aki, inbox, "A@0")  # my socket in process A
    watcher = WsClient(b, tid, None, inbox, "spectator@B")  # a spectator's in process B

    def bot_moved(want: bool, version: int) -> Any:
        return lambda m: (
            m["type"] == "state" and m["table"]["to_move"] == 0 and m["version"] > version
            and m["table"]["seats"][1]["warming"] is want
        )  # fmt: skip

    first = me.wait_for(lambda m: m["type"] == "state" and m["legal"])
    assert [s["warming"] for s in first["table"]["seats"]] == [False, False]  # before its move
    me.send({"type": "move", "version": first["version"], "action": first["legal"][0]["a"]})
    after = me.wait_for(bot_moved(True, first["version"]))  # Normal's move: the seat says so
    watcher.wait_for(bot_moved(True, first["version"]))  # ... in the other process too
    assert answered and answered[-1].warming is True
    stored = a.app.state.store.get_table(tid)
    assert [s.warming for s in stored.seats] == [False, True]  # as stored: any process's view
    assert b.get(f"/api/tables/{tid}").json()["seats"][1]["warming"] is True
    warming[0] = False  # warm now: the bot's next move is Strong's
    me.send({"type": "move", "version": after["version"], "action": after["legal"][0]["a"]})
    me.wait_for(bot_moved(False, after["version"]))  # the mark is gone
    watcher.wait_for(bot_moved(False, after["version"]))
    assert [s.warming for s in a.app.state.store.get_table(tid).seats] == [False, False]
    me.close()
    watcher.close()
