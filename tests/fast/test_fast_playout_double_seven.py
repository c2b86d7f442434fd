"""Double Seven's playout path (no legal-action array) plays the step path's games (issue 29).

``playout_fast`` draws a random seat's move from counts per kind of action and scores the
greedy over the candidates that can be its choice; ``playout`` lists the legal ids at every
step. The same seed must give the same game: same position, generator state and step count.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from septet.games import get

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from septet.fast import double_seven as D
from septet.fast import kernel_for
from septet.fast.batch import play_games, playouts
from septet.fast.rng import randbelow, seed_streams

OFF = {"rainbow": False, "two_for_one": False, "double_seven": "second_token"}


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({}, 2),
        ({}, 3),
        ({}, 4),
        (OFF, 2),  # DS-4.3 Rainbow and DS-5.6 two for one off, DS-5.3 77 on a second 7 token
        (OFF, 4),
        ({"empty_rack_clears": False}, 3),  # DS-6.1 as recorded before the ruling
        ({"double_seven": "second_token"}, 3),
    ],
)
def test_same_seeds_same_games(options: dict[str, object], players: int) -> None:
    # Whole games from 350 seeds with random mixes of random and greedy seats: the same scores
    # (DS-8.1), winners (DS-8.2) and lengths by either path.
    game = get("double-seven", **options)
    k = kernel_for(game)
    names = ("random", "greedy")
    rng = random.Random(players * 7 + len(options))
    rows = [[names[rng.randrange(2)] for _ in range(players)] for _ in range(350)]
    seeds = list(range(2000, 2350))
    fast = play_games(game, players, seeds, rows, kernel=k, fast=True)
    step = play_games(game, players, seeds, rows, kernel=k, fast=False)
    assert np.array_equal(fast.scores, step.scores)
    assert np.array_equal(fast.wins, step.wins)
    assert np.array_equal(fast.lengths, step.lengths)
    assert (fast.wins.sum(axis=1) >= 1).all()  # every game finished with a winner
    assert len({tuple(r) for r in fast.scores}) > 150  # and they differ
    assert len(set(fast.lengths.tolist())) > 100


def _positions(game: object, players: int, count: int, seed: int) -> list[object]:
    """Positions of seeded random Python-engine games, cut after 0 to 250 steps."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = game.new_state(players)  # type: ignore[attr-defined]
        for _ in range(rng.randrange(0, 250)):
            if s.is_terminal:
                break
            if s.current_player < 0:
                s.apply(s.sample_chance(rng))
            else:
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])
        out.append(s)
    return out


@pytest.mark.parametrize(("options", "players"), [({}, 2), ({}, 4), (OFF, 3)])
def test_same_positions_mid_game(options: dict[str, object], players: int) -> None:
    # From mid-game positions (the deal, draw and actions phases among them), cut after 7
    # steps, at the round horizon (the whole game: one round) or not at all: the whole encoded
    # position, the generator and the step count agree; uncut, the game ends (DS-7.2).
    game = get("double-seven", **options)
    k = kernel_for(game)
    legal = np.zeros(D.max_actions(players), dtype=np.int64)
    buf = np.zeros(D.BUF, dtype=np.int64)
    pick = random.Random(players)
    phases = set()
    checked = 0
    for g, state in enumerate(_positions(game, players, 40, seed=players * 100 + 3)):
        start = k.encode(state)
        phases.add(int(start[D.H_PHASE]))
        pol = np.array([pick.randrange(2) for _ in range(players)], dtype=np.int64)
        for horizon, depth in ((False, 7), (True, -1), (False, -1)):
            a, b = start.copy(), start.copy()
            ra, rb = seed_streams(g, 1)[0], seed_streams(g, 1)[0]
            na = D.playout_fast(a, ra, pol, horizon, depth, k.params, legal, buf)
            nb = D.playout(b, rb, pol, horizon, depth, k.params, legal, buf)
            assert na == nb, (g, horizon, depth)
            assert np.array_equal(a, b), (g, horizon, depth)
            assert np.array_equal(ra, rb), (g, horizon, depth)
            if depth == 7 and nb == 7:
                assert not np.array_equal(a, start)  # the cut playout moved
            if depth < 0:
                assert D.current_player(a) == D.TERMINAL  # DS-7.2 the game ended
            checked += 1
    assert checked == 120
    assert {D.PH_DEAL, D.PH_DRAW, D.PH_ACT} <= phases


def test_playouts_by_either_path() -> None:
    # Batches from one mid-game position, to the end and cut at 30 steps.
    game = get("double-seven")
    (s,) = _positions(game, 3, 1, seed=11)
    for depth in (None, 30):
        a = playouts(s, 200, ["greedy", "random", "greedy"], seed=4, depth=depth, fast=True)
        b = playouts(s, 200, ["greedy", "random", "greedy"], seed=4, depth=depth, fast=False)
        assert np.array_equal(a.scores, b.scores)
        assert np.array_equal(a.wins, b.wins)
        assert np.array_equal(a.lengths, b.lengths)
        assert len({tuple(r) for r in a.scores}) > 20  # the playouts differ
        if depth is None:
            assert len(set(a.lengths.tolist())) > 50


def test_the_greedy_choice_is_the_step_paths() -> None:
    # The greedy's choice in the actions phase (DS-5.1 .. DS-5.6) without the legal list is
    # greedy_action's over legal_actions, at every actions-phase position of random games.
    game = get("double-seven")
    k = kernel_for(game)
    legal = np.zeros(D.max_actions(4), dtype=np.int64)
    seen = 0
    for state in _positions(game, 4, 60, seed=5):
        s = k.encode(state)
        if D.current_player(s) < 0 or s[D.H_PHASE] != D.PH_ACT:
            continue
        cnt = D.legal_actions(s, legal)
        a = D._act_greedy(s)
        if cnt == 1:
            assert a < 0  # Pass alone: the caller draws from the one-entry list
        else:
            assert a == D.greedy_action(s, legal, cnt, k.params)
        seen += 1
    assert seen > 10


def test_the_small_pair_tables_are_pair_index() -> None:
    # DS-5.4 exchange ids: PAIR_BASE + SIZE_RANK (the playout path) == PAIR_INDEX (the step
    # path) for every pair of families of one size; FAM_SIZE and FAM_ANIMAL are the families'.
    f = np.arange(D.NF)
    assert np.array_equal(D.FAM_SIZE, (f % 44) // 4 + 1 + f % 4)
    assert np.array_equal(D.FAM_ANIMAL, f // 44)
    same = D.FAM_SIZE[:, None] == D.FAM_SIZE[None, :]
    small = D.PAIR_BASE[:, None] + D.SIZE_RANK[None, :]
    assert np.array_equal(np.where(same, small, -1), D.PAIR_INDEX)


def test_many_families_of_one_size() -> None:
    # A seat with 16 distinct families of 2 tiles (every (animal, 2, 0) and (animal, 1, 1)):
    # the per-size counts overflow their 4 bits, and the exchanges (DS-5.4) are counted pair
    # by pair instead; the draws and the greedy still pick the step path's actions.
    game = get("double-seven")
    k = kernel_for(game)
    s = k.encode(game.new_state(3))
    s[D.H_PHASE] = D.PH_ACT
    s[D.H_TURN] = 0
    for p, fams in (
        (
            0,
            [D.family_index(a, 2, 0) for a in range(8)]
            + [D.family_index(a, 1, 1) for a in range(8)],
        ),
        (1, [D.family_index(a, 2, 0) for a in (1, 3)] + [D.family_index(5, 1, 1)]),
        (2, [D.family_index(a, 1, 1) for a in range(8)] + [D.family_index(2, 3, 0)]),
    ):
        b = D.O_SEATS + p * D.SEAT
        s[b + D.S_NFAM] = len(fams)
        s[b + D.S_FAMS : b + D.S_FAMS + len(fams)] = sorted(fams)
    b0 = D.O_SEATS
    s[b0 + D.S_RACK + 1] = 2
    s[b0 + D.S_RACK + 4] = 1
    s[b0 + D.S_RACK + D.CLOVER] = 1
    s[D.H_NGIVEN] = 1
    s[D.O_GIVEN] = D.family_index(5, 1, 1)  # given away this turn: not received back
    legal = np.zeros(D.max_actions(3), dtype=np.int64)
    cnt = D.legal_actions(s, legal)
    assert cnt > 100
    ids = set()
    for seed in range(300):
        ra, rb = seed_streams(seed, 1)[0], seed_streams(seed, 1)[0]
        a = D._act_random(s, ra, np.zeros(D.SCRATCH, dtype=np.int64))
        assert a == legal[randbelow(rb, cnt)] and np.array_equal(ra, rb)
        ids.add(a)
    assert len(ids) > 80
    assert D._act_greedy(s) == D.greedy_action(s, legal, cnt, k.params)
