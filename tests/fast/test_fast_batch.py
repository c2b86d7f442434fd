"""Batch playouts and ``septet simulate --engine fast``."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

pytest.importorskip("numba")

import numpy as np
from typer.testing import CliRunner

from septet.arena.runner import make_job, run
from septet.arena.schedule import Schedule
from septet.cli import app
from septet.fast.batch import play_games, playouts
from septet.games import get


def _first_decision(name: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    state = get(name).new_state(players)
    rng = random.Random(seed)
    while state.current_player < 0:
        state.apply(state.sample_chance(rng))
    return state


def test_round_horizon_playouts_stop_when_the_deal_is_scored() -> None:
    # SS-4.4: a deal's winning side scores at least 1 point, the losing side nothing
    state = _first_decision("seven-shot", 4, seed=1)
    out = playouts(state, 200, "greedy", horizon="round", seed=3)
    assert out.scores.shape == (200, 4) and out.wins.sum() == 0  # no game finished
    side0, side1 = out.scores[:, 0], out.scores[:, 1]
    assert np.all((side0 >= 1) ^ (side1 >= 1))
    assert np.all(out.scores[:, 0] == out.scores[:, 2])  # partners share the points
    # to the end of the game instead: a side reaches 7 (SS-2.1) and wins
    full = playouts(state, 50, "random", seed=3)
    assert np.all(full.scores.max(axis=1) >= 7) and np.all(full.wins.sum(axis=1) == 2)


def test_depth_cuts_playouts_and_seeds_reproduce_them() -> None:
    state = _first_decision("flip7", 3, seed=2)
    cut = playouts(state, 30, "random", depth=5, seed=9)
    assert np.all(cut.lengths == 5)
    a = play_games(get("double-seven"), 3, [1, 2, 3], [["greedy", "random", "random"]] * 3)
    b = play_games(get("double-seven"), 3, [1, 2, 3], [["greedy", "random", "random"]] * 3)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    # DS-8.2: one winner unless tied without the 77 token
    assert np.all(a.wins.sum(axis=1) >= 1)


def _mean_and_se(x: list[float]) -> tuple[float, float]:
    m = sum(x) / len(x)
    var = sum((v - m) ** 2 for v in x) / (len(x) - 1)
    return m, math.sqrt(var / len(x))


@pytest.mark.parametrize(
    ("name", "options", "agents", "python_games"),
    [
        ("flip7", {"edition": "classic"}, ("greedy", "random"), 300),
        ("seven-shot", {}, ("greedy", "random", "random"), 150),
    ],
)
def test_fast_engine_plays_like_the_python_engine(
    name: str, options: dict[str, object], agents: tuple[str, ...], python_games: int
) -> None:
    # the same agents on both engines: mean score per agent and win share agree within the
    # sampling error (the random streams differ, the rules and the decisions do not)
    game = get(name, **options)
    k = len(agents)
    results = {}
    for engine, games in (("python", python_games), ("fast", 3000)):
        sched = Schedule(agents, k, games, seed=4)
        outcome = run(make_job(game, sched, engine))
        assert len(outcome.results) == games and not any(r.error for r in outcome.results)
        score = [r.scores[r.seating.index(0)] for r in outcome.results]
        won = [float(any(r.seating[w] == 0 for w in r.winners)) for r in outcome.results]
        results[engine] = (_mean_and_se(score), _mean_and_se(won))
    for i in range(2):
        (m1, se1), (m2, se2) = results["python"][i], results["fast"][i]
        assert abs(m1 - m2) < 4.5 * math.hypot(se1, se2) + 1e-9


def test_simulate_cli_engine_fast(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "res"
    done = runner.invoke(
        app,
        [
            "simulate",
            "double-seven",
            "--agents",
            "greedy,random",
            "--games",
            "40",
            "--engine",
            "fast",
            "--no-plots",
            "--no-progress",
            "--out",
            str(out),
        ],
    )
    assert done.exit_code == 0, done.output
    assert "engine fast" in done.output and (out / "results.json").exists()
    bad = runner.invoke(
        app,
        [
            "simulate",
            "flip7",
            "--agents",
            "ismcts,random",
            "--games",
            "4",
            "--engine",
            "fast",
            "--out",
            str(tmp_path / "x"),
        ],
    )
    assert bad.exit_code == 2 and "random, greedy and (Flip 7) risk agents" in bad.output


def test_kernel_generator_is_uniform_and_reproducible() -> None:
    from numba import njit

    from septet.fast.rng import make_rng, randbelow, seed_streams

    @njit(cache=False)
    def draws(rng: np.ndarray, k: int, count: int) -> np.ndarray:
        out = np.zeros(k, dtype=np.int64)
        for _ in range(count):
            out[randbelow(rng, k)] += 1
        return out

    for k in (1, 3, 7, 49):
        counts = draws(make_rng(3), k, 70_000)
        assert counts.sum() == 70_000 and counts.min() > 0
        expected = 70_000 / k
        # chi-square with k-1 degrees of freedom: far below the 0.001 critical values
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < 3 * k + 10
    assert np.array_equal(draws(make_rng(9), 5, 100), draws(make_rng(9), 5, 100))
    streams = seed_streams(4, 3)
    assert len({tuple(int(x) for x in row) for row in streams}) == 3
    assert np.array_equal(streams, seed_streams(4, 3))


def test_compiled_seeding_matches_make_rng() -> None:
    from septet.fast.rng import make_rng, rngs_for_seeds

    seeds = [0, 1, 2**62 + 5, 123456789]
    rows = rngs_for_seeds(seeds)
    for i, sd in enumerate(seeds):
        assert np.array_equal(rows[i], make_rng(sd))
