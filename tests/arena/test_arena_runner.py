"""Arena runners: the same results whatever the workers or the backend; errors and Ctrl-C."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import tests.arena.tiny_game  # noqa: F401  (registers test-tiny-sevens)
from septet import games
from septet.arena.runner import (
    GameResult,
    chunks,
    make_job,
    play_one,
    run,
    run_local,
)
from septet.arena.schedule import Schedule
from septet.bots import AGENT_FACTORIES, RandomAgent, make_agent
from septet.core.play import play_game
from tests.arena.tiny_game import NAME


class CrashAgent:
    """Raises on its first move (a bot bug the arena must survive)."""

    def __init__(self, game: Any = None) -> None:
        self.name = "test-crash"

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        raise RuntimeError("boom")


@pytest.fixture
def crash_agent() -> Iterator[None]:
    AGENT_FACTORIES["test-crash"] = lambda game, **params: CrashAgent(game)
    yield
    del AGENT_FACTORIES["test-crash"]


def _job(num_games: int, agents: tuple[str, ...] = ("random", "random", "random"), k: int = 3):
    game = games.get(NAME, target=9)
    return make_job(game, Schedule(agents, k, num_games, seed=11))


def test_arena_chunks_cover_every_game_once() -> None:
    parts = chunks(100, 2)
    assert [len(p) for p in parts] == [4] * 25  # ceil(100 / 32) = 4
    assert [i for p in parts for i in p] == list(range(100))
    assert chunks(0, 3) == []
    assert max(len(p) for p in chunks(100_000, 1)) == 64


def test_arena_play_one_replays_with_play_game() -> None:
    job = _job(5)
    r = play_one(job, 3)
    assert r.error is None and r.index == 3
    assert r.seed == job.schedule.game_seed(3)
    assert r.seating == job.schedule.seating(3) == (0, 2, 1)  # block 1, no rotation
    # The same game again, from its seed and seating alone.
    game = games.get(NAME, target=9)
    agents = [make_agent("random", game) for _ in range(3)]
    again = play_game(game, agents, r.seed).state
    assert tuple(again.scores()) == r.scores
    assert tuple(again.winners()) == r.winners
    assert len(again.history) == r.length
    # 3 deals + adds summing to 9 (between 5 and 9 adds)
    assert 3 + 5 <= r.length <= 3 + 9


def test_arena_results_do_not_depend_on_workers() -> None:
    job = _job(150)
    one = run_local(job, workers=1)
    two = run_local(job, workers=2)
    assert not one.interrupted and not two.interrupted
    assert len(one.results) == 150
    assert [r.index for r in two.results] == list(range(150))
    assert one.results == two.results


def test_arena_search_bot_is_reproducible_across_workers() -> None:
    # ISMCTS with a fixed iteration count draws only from the seat's RNG stream.
    job = _job(12, ("ismcts:iterations=10", "random"), 2)
    one = run_local(job, workers=1)
    assert all(r.error is None for r in one.results)
    assert run_local(job, workers=2).results == one.results


def test_arena_agent_errors_are_reported_per_game(crash_agent: None) -> None:
    out = run_local(_job(4, ("random", "test-crash"), 2), workers=1)
    assert len(out.results) == 4
    assert all(r.error == "RuntimeError: boom" for r in out.results)
    assert all(r.scores == () and r.winners == () for r in out.results)


def test_arena_ctrl_c_keeps_finished_games() -> None:
    calls: list[int] = []

    def progress(n: int) -> None:
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    job = _job(300)
    out = run_local(job, workers=1, on_progress=progress)
    assert out.interrupted
    size = len(chunks(300, 1)[0])  # 19 games per chunk
    assert len(out.results) == 2 * size
    assert [r.index for r in out.results] == list(range(2 * size))
    out2 = run_local(job, workers=2, on_progress=progress)  # third call: no raise
    assert not out2.interrupted


def test_arena_ctrl_c_with_workers_keeps_finished_games() -> None:
    seen = [0]

    def progress(n: int) -> None:
        seen[0] += n
        raise KeyboardInterrupt

    out = run_local(_job(400), workers=2, on_progress=progress)
    assert out.interrupted
    assert 0 < len(out.results) < 400
    full = {r.index: r for r in run_local(_job(400), workers=1).results}
    assert all(full[r.index] == r for r in out.results)


def test_arena_unknown_backend() -> None:
    with pytest.raises(ValueError, match="backend"):
        run(_job(1), backend="mpi")


def test_arena_game_result_json() -> None:
    r = GameResult(2, 5, (1, 0), (3.0, 4.0), (1,), 9)
    assert r.to_json() == {
        "index": 2,
        "seed": 5,
        "seating": [1, 0],
        "scores": [3.0, 4.0],
        "winners": [1],
        "length": 9,
        "error": None,
    }
    assert isinstance(RandomAgent().name, str)
