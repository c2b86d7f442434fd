"""The playout path (no legal-action array, no chance step) plays the step path's games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from septet.games import get

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from septet.fast import flip7 as F
from septet.fast import kernel_for
from septet.fast.batch import play_games, playouts
from septet.fast.rng import seed_streams


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"edition": "classic"}, 2),
        ({"edition": "classic"}, 4),
        ({}, 2),
        ({}, 5),
        ({"brutal": True}, 3),
    ],
)
def test_same_seeds_same_games(options: dict[str, object], players: int) -> None:
    # Whole games from the same seeds with every mix of random, greedy and risk seats: the
    # same scores, winners and lengths by either path.
    game = get("flip7", **options)
    k = kernel_for(game, {"p": "0.3"})
    names = ("random", "greedy", "risk")
    rng = random.Random(players)
    rows = [[names[rng.randrange(3)] for _ in range(players)] for _ in range(400)]
    seeds = list(range(1000, 1400))
    fast = play_games(game, players, seeds, rows, kernel=k, fast=True)
    step = play_games(game, players, seeds, rows, kernel=k, fast=False)
    assert np.array_equal(fast.scores, step.scores)
    assert np.array_equal(fast.wins, step.wins)
    assert np.array_equal(fast.lengths, step.lengths)
    assert fast.wins.sum() >= 400  # every game finished with a winner
    assert len({tuple(r) for r in fast.scores}) > 300  # and they differ


def test_same_positions_mid_game() -> None:
    # From positions of seeded random games, cut after a number of steps or at the end of the
    # round: the whole encoded position is the same by either path, every time.
    game = get("flip7")
    k = kernel_for(game)
    rng = random.Random(5)
    legal = np.zeros(F.max_actions(4) + 8, dtype=np.int64)
    buf = np.zeros(F.BUF, dtype=np.int64)
    pol = np.array([2, 1, 0, 2], dtype=np.int64)
    checked = 0
    for g in range(30):
        s = game.new_state(4)
        for _ in range(rng.randrange(0, 60)):
            if s.is_terminal:
                break
            if s.current_player < 0:
                s.apply(s.sample_chance(rng))
            else:
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])
        start = k.encode(s)
        for horizon, depth in ((False, 7), (True, -1), (False, -1)):
            a, b = start.copy(), start.copy()
            ra, rb = seed_streams(g, 1)[0], seed_streams(g, 1)[0]
            na = F.playout_fast(a, ra, pol, horizon, depth, k.params, legal, buf)
            nb = F.playout(b, rb, pol, horizon, depth, k.params, legal, buf)
            assert na == nb and np.array_equal(a, b) and np.array_equal(ra, rb)
            checked += 1
    assert checked == 90


def test_playouts_by_either_path() -> None:
    game = get("flip7", edition="classic")
    s = game.new_state(3)
    a = playouts(s, 200, ["risk", "greedy", "random"], seed=4, fast=True)
    b = playouts(s, 200, ["risk", "greedy", "random"], seed=4, fast=False)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)


def test_risk_is_flip7_only() -> None:
    with pytest.raises(ValueError, match="Flip 7 only"):
        play_games(get("seven-shot"), 3, [1], [["risk", "greedy", "greedy"]])
