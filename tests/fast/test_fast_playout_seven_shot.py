"""Seven Shot's playout path (cards dealt and picked from masks, no legal-action array, no
chance step) plays the step path's games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from septet.games import get

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from septet.fast import kernel_for
from septet.fast import seven_shot as S
from septet.fast.batch import play_games, playouts
from septet.fast.rng import seed_streams


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 3), ({}, 4), ({"pass_cards": 0}, 3), ({"pass_cards": 3, "target": 5}, 4)],
)
def test_same_seeds_same_games(options: dict[str, object], players: int) -> None:
    # SS-2.2 (the deal), SS-2.3 / SS-5.2 (passing), SS-3.1 (follow suit): whole games from the
    # same seeds with every mix of random and greedy seats give the same scores, winners and
    # lengths by either path.
    game = get("seven-shot", **options)
    rng = random.Random(players * 7 + len(options))
    names = ("random", "greedy")
    rows = [[names[rng.randrange(2)] for _ in range(players)] for _ in range(300)]
    seeds = list(range(500, 800))
    fast = play_games(game, players, seeds, rows, fast=True)
    step = play_games(game, players, seeds, rows, fast=False)
    assert np.array_equal(fast.scores, step.scores)
    assert np.array_equal(fast.wins, step.wins)
    assert np.array_equal(fast.lengths, step.lengths)
    assert (fast.wins.sum(axis=1) >= 1).all()  # every game finished with a winning side
    assert len({tuple(r) for r in fast.scores}) > 5
    assert len(set(fast.lengths.tolist())) > 50  # and they differ


@pytest.mark.parametrize("players", [3, 4])
def test_same_positions_mid_game(players: int) -> None:
    # From positions of seeded random games (mid-deal, mid-pass, mid-trick), cut after a
    # number of steps, at the end of the deal or at the end of the game: the whole encoded
    # position, the generator's state and the steps are the same by either path, every time.
    game = get("seven-shot")
    k = kernel_for(game)
    rng = random.Random(players)
    legal = np.zeros(S.LEGAL_BUF, dtype=np.int64)
    buf = np.zeros(S.BUF, dtype=np.int64)
    pol = np.array([1, 0, 1, 0][:players], dtype=np.int64)
    checked = 0
    phases: set[int] = set()
    for g in range(40):
        s = game.new_state(players)
        for _ in range(rng.randrange(0, 160)):
            if s.is_terminal:
                break
            if s.current_player < 0:
                s.apply(s.sample_chance(rng))
            else:
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])
        start = k.encode(s)
        phases.add(int(start[S.H_PHASE]))
        for horizon, depth in ((False, 7), (False, 60), (True, -1), (False, -1)):
            a, b = start.copy(), start.copy()
            ra, rb = seed_streams(g, 1)[0], seed_streams(g, 1)[0]
            na = S.playout_fast(a, ra, pol, horizon, depth, k.params, legal, buf)
            nb = S.playout(b, rb, pol, horizon, depth, k.params, legal, buf)
            assert na == nb
            assert np.array_equal(a, b), S.field_name(int(np.flatnonzero(a != b)[0]), players)
            assert np.array_equal(ra, rb)
            checked += 1
    assert checked == 160
    assert {S.PH_DEAL, S.PH_PASS, S.PH_PLAY} <= phases  # cut in every phase


def test_playouts_by_either_path() -> None:
    s = get("seven-shot").new_state(4)
    a = playouts(s, 200, ["greedy", "random", "greedy", "random"], seed=4, fast=True)
    b = playouts(s, 200, ["greedy", "random", "greedy", "random"], seed=4, fast=False)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.lengths, b.lengths)
    c = playouts(s, 200, "greedy", seed=4, horizon="round", fast=True)
    d = playouts(s, 200, "greedy", seed=4, horizon="round", fast=False)
    assert np.array_equal(c.scores, d.scores) and np.array_equal(c.lengths, d.lengths)
    assert (c.lengths < a.lengths.max()).all()
