"""The compiled search warms up in the bot worker (issue 27): the first Strong job of a game
starts the warm-up on a thread and its moves are Normal's (greedy's, within the budget) until
the warm-up is done; then the Strong agent plays."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

import pytest

from septet import fast
from septet.server import botpool
from septet.server.levels import STRONG
from tests.server.test_server_botpool import _job

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not fast.AVAILABLE, reason="the compiled search needs the fast extra"),
]


def test_server_strong_plays_normal_while_its_search_warms_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()
    warming: list[str] = []

    def slow_warm(name: str) -> None:  # the compiling, held until the test lets it end
        warming.append(name)
        gate.wait(60)
        botpool._WARMED.add(name)

    monkeypatch.setattr(botpool, "_warm_apart", slow_warm)
    monkeypatch.setattr(botpool, "_WARMERS", {})
    monkeypatch.setattr(botpool, "_WARMED", set())
    monkeypatch.setattr(botpool, "_TABLES", OrderedDict())
    job = _job(STRONG["flip7"])
    normal = botpool.compute_move(dataclasses.replace(job, spec="greedy", table_id="t-normal"))
    assert not normal.warming  # a Normal bot's own move
    move = botpool.compute_move(job)
    assert move == normal  # greedy's move, same seat, seed and version
    assert move.warming  # marked: the server tells the players (test_server_bot_warming)
    assert warming == ["flip7"]  # one warm-up per game, started by the first Strong job
    state, agents = botpool._TABLES["t1"]
    strong = agents[(job.seat, job.spec)]
    assert strong.engine == "fast" and (job.seat, "greedy") in agents
    assert botpool._still_warming(strong, state)
    gate.set()
    botpool._WARMERS["flip7"].join(10)
    assert not botpool._still_warming(strong, state)  # from now on the Strong agent plays
    assert warming == ["flip7"]


def test_server_warm_search_of_an_unknown_game_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(botpool, "_WARMED", set())
    botpool.warm_search("no-such-game")
    assert not botpool._WARMED


def test_server_warm_apart_runs_the_compile_in_a_child_then_loads_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the child (a fresh process) fails on an unknown game and logs it; this process then warms
    # too, fails the same way, and marks nothing warmed: no exception reaches the worker
    here: list[str] = []
    real = botpool.warm_search

    def counted(name: str) -> None:
        here.append(name)
        real(name)

    monkeypatch.setattr(botpool, "_WARMED", set())
    monkeypatch.setattr(botpool, "warm_search", counted)
    botpool._warm_apart("no-such-game")
    assert here == ["no-such-game"]  # once in this process, after the child ended
    assert not botpool._WARMED
