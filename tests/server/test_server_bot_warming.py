"""A Strong bot playing at Normal while its compiled search warms up says so (issue 27): the
worker marks such a move (``BotMove.warming``), the server marks the seat ``warming`` in the
table's summary until the bot plays a Strong move again, and the client words it."""

from __future__ import annotations

import pickle
import queue
from typing import Any

import pytest

from septet.server import botpool
from septet.server.botpool import BotMove
from tests.server.conftest import make_client, new_guest
from tests.server.server_clients import WsClient
from tests.server.test_server_api import create

pytestmark = pytest.mark.timeout(120)


def test_server_bot_move_keeps_its_warming_mark_across_processes() -> None:
    move = BotMove("add 2", warming=True)
    back = pickle.loads(pickle.dumps(move))  # as a worker process answers it
    assert back == "add 2" and isinstance(back, BotMove) and back.warming is True
    assert BotMove("add 1").warming is False


def test_server_summary_says_a_strong_bot_plays_at_normal_while_warming(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = botpool.compute_move
    warming = [True]

    def answer(job: Any) -> BotMove:  # the worker's move, marked as a warming worker marks it
        return BotMove(str(real(job)), warming=warming[0])

    monkeypatch.setattr(botpool, "compute_move", answer)
    with make_client(db_url, bot_workers=0) as client:
        me = new_guest(client, "Aki")
        r = create(client, me, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], target=60)
        assert r.status_code == 200, r.text
        tid = r.json()["id"]
        inbox: queue.Queue[Any] = queue.Queue()
        ws = WsClient(client, tid, me, inbox, "aki")

        def bot_moved(want: bool) -> Any:
            return lambda m: (
                m["type"] == "state" and m["table"]["seats"][1]["warming"] is want
                and m["table"]["to_move"] == 0
            )  # fmt: skip

        def my_move(m: dict[str, Any]) -> None:
            ws.send({"type": "move", "version": m["version"], "action": m["legal"][0]["a"]})

        first = ws.wait_for(lambda m: m["type"] == "state" and m["legal"])
        assert first["table"]["seats"][1]["warming"] is False  # nothing said before its move
        assert first["table"]["seats"][0]["warming"] is False
        my_move(first)
        after = ws.wait_for(bot_moved(True))  # the bot's move was Normal's: the seat says so
        warming[0] = False
        my_move(after)
        ws.wait_for(bot_moved(False))  # a Strong move again: the mark is gone
        ws.close()
