"""The compiled search warms up in the bot worker (issue 27): the first Strong job of a game
starts the warm-up on a thread and its moves are Normal's (greedy's, within the budget) until
the warm-up is done; then the Strong agent plays."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from pathlib import Path

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
    # the Strong agent is not even built while the search warms (building it imports numba
    # and the kernels: seconds on a busy machine); the Normal bot's is
    assert (job.seat, job.spec) not in agents and (job.seat, "greedy") in agents
    assert botpool._cold_search(job.spec, state)
    gate.set()
    botpool._WARMERS["flip7"].join(10)
    assert not botpool._cold_search(job.spec, state)  # from now on the Strong agent plays
    from septet.bots import make_agent
    from septet.server.levels import server_spec

    strong = make_agent(server_spec(job.spec), state.game)
    assert strong.engine == "fast" and not botpool._still_warming(strong, state)
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


COLD = """
import json, sys, time
import septet.bots.ismcts  # what the worker imports at its start (botpool.init_worker)
from septet.server import botpool
from septet.server.levels import STRONG
from tests.server.test_server_botpool import _job
job = _job(STRONG[sys.argv[1]], game=sys.argv[1], n=3)
began = time.perf_counter()
import dataclasses
normal = botpool.compute_move(dataclasses.replace(job, spec="greedy", table_id="n"))
base = time.perf_counter() - began
began = time.perf_counter()
move = botpool.compute_move(job)  # the first Strong move: the kernels are not compiled yet
wall = time.perf_counter() - began
print(json.dumps({"wall": wall, "normal": base, "warming": move.warming, "same": move == normal}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("game", ["flip7", "seven-shot", "double-seven"])
def test_server_first_strong_move_after_a_cold_start_is_answered_within_2s(
    game: str, tmp_path: Path
) -> None:
    # issue 27: a fresh worker with an empty numba cache (NUMBA_CACHE_DIR, a temporary
    # directory) answers the first Strong move within 2 s wall, at Normal strength and marked
    # warming, while the search compiles apart; its own Normal move measured alongside
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": f"{root / 'src'}:{root}"}
    out = subprocess.run(
        [sys.executable, "-c", COLD, game], env=env, cwd=root, capture_output=True, text=True,
        timeout=110,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    print(game, got)
    assert got["warming"] is True and got["same"] is True, got
    assert got["wall"] < 2.0, got
