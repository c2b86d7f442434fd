"""The Expert level: Seven Shot's trick solver against brute force, its samples against the
information set, and the ``expert`` spec in every game."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.expert.inference import follow_probability, play_likelihood
from septet.bots.expert.seven_shot import SevenShotExpert
from septet.bots.expert.ss_solver import MAX_GAIN, Solver, match_utility, position_from_state
from septet.core.types import CHANCE
from septet.games import get
from septet.games.seven_shot.cards import SUIT_MASK
from septet.games.seven_shot.state import PH_PLAY, SevenShotState

NEEDS_NUMBA = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="the fast extra (numba) is not installed"
)
"""Tests of the compiled search's pool hook (``septet.fast``): skipped without numba."""


def _cards(state: SevenShotState) -> list[int]:
    """The cards of the legal plays of the seat to move."""
    return [int(a.card) for a in state.legal_actions()]  # type: ignore[attr-defined]


def _brute(state: SevenShotState, side: int, deal: int) -> float:
    """Paranoid minimax over the engine's own states to the deal's end (SS-4): the deal's
    gains (``deal_log``) as ``gain[side] - mean of the others'``."""
    if state.is_terminal or state.round_index() != deal:
        g = state.deal_log[-1]["gains"]
        assert isinstance(g, list)
        if len(g) == 2:
            return float(g[side] - g[1 - side])
        return float(g[side]) - float(sum(g) - g[side]) / 2
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(_brute(child, side, deal))
    mine = state.side_of(state.current_player) == side
    return max(values) if mine else min(values)


def _ending(n: int, cards: int, rng: random.Random) -> SevenShotState:
    """A first-deal position of random play with at most ``cards`` cards in the hand to move."""
    game = get("seven-shot")
    while True:
        state: Any = game.new_state(n)
        while state.deal_number == 1 and not state.is_terminal:
            p = state.current_player
            if p == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if state.phase == PH_PLAY and state.hands[p].bit_count() <= cards:
                assert isinstance(state, SevenShotState)
                return state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("n", "cards"), [(3, 2), (3, 3), (3, 4), (4, 2), (4, 3)])
def test_solver_equals_brute_force_on_small_endings(n: int, cards: int) -> None:
    # SS-3 … SS-5: every card's solved value is the exact minimax value over the engine.
    rng = random.Random(100 * n + cards)
    solver = Solver()
    for _ in range(6):
        state = _ending(n, cards, rng)
        side = state.side_of(state.current_player)
        legal = state.legal_actions()
        solver.reset()
        got = solver.values(position_from_state(state), _cards(state), side)
        want = []
        for action in legal:
            child = state.clone()
            child.apply(action)
            want.append(_brute(child, side, state.round_index()))
        assert got is not None
        assert list(got) == pytest.approx(want)


def _brute_table(state: SevenShotState, side: int, deal: int, table: np.ndarray) -> float:
    """Paranoid minimax over the engine's states to the deal's end, valued by ``table`` at
    the deal's gains per side (``deal_log``)."""
    if state.is_terminal or state.round_index() != deal:
        g = state.deal_log[-1]["gains"]
        assert isinstance(g, list)
        return float(table[g[0], g[1], g[2] if len(g) == 3 else 0])
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(_brute_table(child, side, deal, table))
    mine = state.side_of(state.current_player) == side
    return max(values) if mine else min(values)


@pytest.mark.parametrize(("n", "cards"), [(3, 3), (4, 3)])
def test_solver_with_a_utility_table_equals_brute_force(n: int, cards: int) -> None:
    # SS-4, SS-5.4: valued by an arbitrary table of the deal's gains, the solver's values are
    # the minimax values of that table over the engine's own play.
    rng = random.Random(7 * n)
    table = np.random.default_rng(n).uniform(-1, 1, size=(MAX_GAIN,) * 3)
    solver = Solver()
    for _ in range(5):
        state = _ending(n, cards, rng)
        side = state.side_of(state.current_player)
        solver.reset()
        got = solver.values(position_from_state(state), _cards(state), side, utility=table)
        want = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            want.append(_brute_table(child, side, state.round_index(), table))
        assert got is not None
        assert list(got) == pytest.approx(want, abs=1e-9)
    with pytest.raises(ValueError):
        solver.values(position_from_state(state), _cards(state), side, utility=2 * table)


def test_match_utility_worked_by_hand() -> None:
    # SS-2.1: 5 to 6 with target 7. Gains (2, 0) make 7 to 6: side 0 wins (+1); (0, 1) makes
    # 5 to 7: side 1 wins (-1); (1, 0) makes 6 to 6, no winner: both at the mean, 0.
    t = match_utility([5, 6], 7, 0)
    assert t[2, 0, 0] == 1.0 and t[0, 1, 0] == -1.0 and t[1, 0, 0] == 0.0
    # (0, 0) leaves 5 to 6: u0 = 1 / (1 + e^(0.5 / 1.5)), u1 = 1 - u0.
    u0 = 1 / (1 + math.exp(0.5 / 1.5))
    assert t[0, 0, 0] == pytest.approx(u0 - (1 - u0))
    # SS-5.6, three players at 6, 6, 0: gains (1, 1, 0) tie at 7, a shared win: the root
    # (side 0) gets 1, the others 1 and 0, so 1 - 1/2.
    t3 = match_utility([6, 6, 0], 7, 0)
    assert t3[1, 1, 0] == pytest.approx(0.5)
    assert t3[0, 0, 1] == pytest.approx(
        1 / (1 + math.exp(-(6 - 13 / 3) / 1.5))
        - (1 / (1 + math.exp(-(6 - 13 / 3) / 1.5)) + 1 / (1 + math.exp(-(1 - 13 / 3) / 1.5))) / 2
    )


def test_solver_node_limit_aborts_and_depth_one_is_the_trick() -> None:
    state = _ending(4, 8, random.Random(3))
    solver = Solver()
    pos = position_from_state(state)
    cards = _cards(state)
    side = state.side_of(state.current_player)
    assert solver.values(pos, cards, side, node_limit=10) is None
    assert solver.values(pos, cards, side, depth=1) is not None


_PY = """
import json, random, sys
sys.path.insert(0, "tests/bots")
from test_expert import _ending
from septet.bots.expert.ss_solver import Solver, position_from_state, COMPILED
state = _ending(3, 2, random.Random(8))
cards = [a.card for a in state.legal_actions()]
v = Solver().values(position_from_state(state), cards, state.side_of(state.current_player))
print(json.dumps([COMPILED] + [float(x) for x in v]))
"""


def test_pure_python_solver_agrees_with_the_compiled_one() -> None:
    # NUMBA_DISABLE_JIT runs the same functions as plain Python (the fallback without numba).
    out = subprocess.run(
        [sys.executable, "-c", _PY],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    python_values = json.loads(out.stdout)[1:]
    state = _ending(3, 2, random.Random(8))
    cards = _cards(state)
    got = Solver().values(position_from_state(state), cards, state.side_of(state.current_player))
    assert got is not None
    assert python_values == pytest.approx(list(got))


@pytest.mark.parametrize("n", [3, 4])
def test_every_expert_sample_is_consistent_with_the_view(n: int) -> None:
    game = get("seven-shot")
    agent = SevenShotExpert(game, time=0.01, nodes=200, min_samples=3, endgame="always")
    seen: list[tuple[SevenShotState, SevenShotState]] = []
    rng = random.Random(n)
    for _ in range(3):
        state = _ending(n, rng.randrange(3, 11), rng)
        seat = state.current_player
        view = state.view(seat)

        def record(v: object, r: random.Random, real: SevenShotState = state) -> SevenShotState:
            sample: Any = game.sample_state(v, r)  # type: ignore[arg-type]
            seen.append((real, sample))
            return sample  # type: ignore[no-any-return]

        agent.sample = record  # type: ignore[assignment]
        action = agent.act(view, state.legal_actions(), rng)
        assert action in state.legal_actions()
        assert len(agent.last_weights) == agent.last_samples >= 3
        assert all(0 < w <= 1 for w in agent.last_weights)  # likelihoods of the plays
    assert len(seen) >= 9
    for real, sample in seen:
        seat = real.current_player
        assert json.dumps(sample.view(seat), sort_keys=True) == json.dumps(
            real.view(seat), sort_keys=True
        )
        assert sample.hands[seat] == real.hands[seat]
        assert sample.indicator == real.indicator  # SS-2.2: the trump indicator
        assert sample.played == real.played and sample.trick == real.trick
        # SS-2.3 / SS-5.2: the cards the seat passed, unplayed, are in the receiver's hand.
        target = real.pass_target(seat)
        assert sample.passed[seat] == real.passed[seat]
        kept = real.passed[seat] & ~real.played[target]
        assert sample.hands[target] & kept == kept
        seen_cards = real.hands[seat] | 1 << real.indicator
        for m in (*real.played, *real.taken):
            seen_cards |= m
        for s in range(n):  # the hidden cards are dealt among the others only
            if s != seat:
                assert not sample.hands[s] & seen_cards
        for s in range(n):  # SS-3.1: a void shown stays void in the sample
            assert sample.hands[s].bit_count() == real.hands[s].bit_count()
            for suit in range(7):
                if real.voids[s] >> suit & 1:
                    assert not sample.hands[s] & SUIT_MASK[suit]


@pytest.mark.parametrize("name", ["seven-shot", "flip7", "double-seven"])
def test_expert_spec_builds_in_every_game(name: str) -> None:
    game = get(name)
    agent = make_agent("expert:time=0.05", game)
    assert agent.name == "expert:time=0.05"
    with pytest.raises(AgentSpecError):
        make_agent("expert:bogus=1", game)


def test_expert_solver_values_are_shaped_per_card() -> None:
    state = _ending(4, 3, random.Random(2))
    cards = _cards(state)
    got = Solver().values(position_from_state(state), cards, 0)
    assert got is not None and got.shape == (len(cards),) and np.all(np.abs(got) <= 8)


def test_follow_probability_worked_by_hand() -> None:
    # F7 (card 18) led by an opponent, trump Earth; the follower holds F9 (20) and F3 (14).
    # F9 wins the 7: score 1 - 0.3 - 0.2 = 0.5; F3 gives it away: -1. Softmax at beta 2:
    # P(F9) = 1 / (1 + e^-3), mixed with a quarter uniform over the 2 legal cards (SS-3.1).
    hand = 1 << 20 | 1 << 14
    win = follow_probability(20, hand, [18], [0], 1, 6)
    duck = follow_probability(14, hand, [18], [0], 1, 6)
    assert win == pytest.approx(0.75 / (1 + math.exp(-3)) + 0.125)
    assert win + duck == pytest.approx(1.0)
    # With the partner (same side) winning the 7, overtaking only spends F9 (height 1): scores
    # -0.2 (F9) and 0 (F3), so P(F3) = 0.75 / (1 + e^-0.4) + 0.125.
    assert follow_probability(14, hand, [18], [1], 1, 6) == pytest.approx(
        0.75 / (1 + math.exp(-0.4)) + 0.125
    )
    with pytest.raises(ValueError):  # SS-3.1: a Moon card while holding Fire is no follow
        follow_probability(7, hand | 1 << 7, [18], [0], 1, 6)


@pytest.mark.parametrize("n", [3, 4])
def test_play_likelihood_is_the_product_over_the_others_follows(n: int) -> None:
    # The hands rebuilt backwards from the end equal the engine's hands at each play.
    rng = random.Random(40 + n)
    state = _ending(n, 49, rng)  # the deal's first card play
    observer = state.current_player
    assert play_likelihood(state, observer) == 1.0 and not state.tricks
    want = 1.0
    sides = [state.side_of(p) for p in range(n)]
    for _ in range(6 * n):
        p = state.current_player
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        child = state.clone()
        child.apply(action)
        if child.phase != PH_PLAY:  # the deal ended: stop in it
            break
        card = int(action.card)  # type: ignore[attr-defined]
        if state.trick and p != observer:
            before = list(state.trick)
            before_sides = [sides[(state.leader + j) % n] for j in range(len(before))]
            want *= follow_probability(
                card, state.hands[p], before, before_sides, sides[p], state.indicator // 7
            )
        state = child
    assert len(state.tricks) >= 2 and want < 1.0
    assert play_likelihood(state, observer) == pytest.approx(want)


def test_weighted_mean_counts_samples_by_their_likelihood(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _ending(3, 6, random.Random(11))
    game = get("seven-shot")
    values = iter([np.array([1.0]), np.array([0.0])])
    weights = iter([0.3, 0.1])
    agent = SevenShotExpert(game, time=1e-6, min_samples=2)
    agent.solve = lambda *a, **k: (next(values), 1)  # type: ignore[method-assign]
    monkeypatch.setattr("septet.bots.expert.seven_shot.play_likelihood", lambda *a: next(weights))
    view = state.view(state.current_player)
    got = agent.mean_values(view, state.legal_actions()[:1], random.Random(1))
    assert list(got) == pytest.approx([0.75])  # (0.3 * 1 + 0.1 * 0) / 0.4
    assert agent.last_weights == [0.3, 0.1]


_CACHED = """
import random, sys
sys.path.insert(0, "tests/bots")
from test_expert import _ending
from septet.bots.expert.ss_solver import MAX_GAIN, Solver, match_utility, position_from_state
state = _ending(3, 4, random.Random(8))
cards = [a.card for a in state.legal_actions()]
print(list(Solver().values(position_from_state(state), cards, state.side_of(state.current_player))))
"""


@pytest.mark.slow
def test_compiled_search_loads_from_numbas_cache_in_a_second_process() -> None:
    # The recursive search used to crash (SIGSEGV) once loaded from the disk cache.
    outs = [
        subprocess.run(
            [sys.executable, "-c", _CACHED], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    ]
    assert outs[0] == outs[1] and outs[0].startswith("[")


def test_expert_solves_endgames_and_searches_before() -> None:
    game = get("seven-shot")
    agent = SevenShotExpert(game, time=0.06, nodes=2000, min_samples=2, endgame="exact")
    rng = random.Random(5)
    state = _ending(3, 2, rng)  # two tricks left: one sample solves exactly in 6,000 nodes
    action = agent.act(state.view(state.current_player), state.legal_actions(), rng)
    assert agent.last_mode == "solver" and action in state.legal_actions()
    assert agent.last_samples >= 2 and max(agent.last_depths) == 3  # exact: tricks left + 1
    tight = SevenShotExpert(game, time=0.06, nodes=1, min_samples=2, endgame="exact")
    state = _ending(4, 12, rng)  # a whole deal left does not solve in 3 positions
    action = tight.act(state.view(state.current_player), state.legal_actions(), rng)
    assert tight.last_mode == "search" and action in state.legal_actions()
    # The default: Strong's search at every card play, two searches at once.
    plain = SevenShotExpert(game, time=0.06)
    state = _ending(3, 2, rng)
    action = plain.act(state.view(state.current_player), state.legal_actions(), rng)
    assert plain.last_mode == "search" and action in state.legal_actions()
    # two threads where the compiled search runs; the Python search (no numba) runs one
    fast = plain.search.engine == "fast"  # type: ignore[attr-defined]
    assert plain.search.threads == (2 if fast else 1)  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        SevenShotExpert(game, endgame="sometimes")
    with pytest.raises(ValueError):
        SevenShotExpert(game, threads=0)


@NEEDS_NUMBA
def test_weighted_pool_resamples_the_samples_by_their_likelihood(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Systematic resampling: with k = 10 samples weighted 6:3:1:0:…, the pool holds the first
    # sample 6 times, the second 3 times, the third once and no other (k * w / sum(w) each).
    from septet.bots.expert.seven_shot import weighted_pool
    from septet.fast import kernel_for

    game = get("seven-shot")
    state = _ending(4, 6, random.Random(21))
    view = state.view(state.current_player)
    drawn: list[Any] = []

    game_sample = type(game).sample_state

    def record(self: Any, v: Any, r: random.Random) -> Any:
        drawn.append(game_sample(self, v, r))
        return drawn[-1]

    monkeypatch.setattr(type(game), "sample_state", record)  # Game objects are immutable
    weights = iter([0.6, 0.3, 0.1] + [0.0] * 7)
    monkeypatch.setattr("septet.bots.expert.seven_shot.play_likelihood", lambda *a: next(weights))
    rows = weighted_pool(game, view, random.Random(3), 10)
    assert rows.shape == (10, len(kernel_for(game).encode(state))) and rows.dtype == np.int64
    encoded = [kernel_for(game).encode(x) for x in drawn]
    counts = [sum(bool(np.array_equal(r, e)) for r in rows) for e in encoded]
    assert len(drawn) == 10 and counts[:3] == [6, 3, 1] and sum(counts) == 10
    with pytest.raises(ValueError):
        weighted_pool(game, view, random.Random(3), 0)


@NEEDS_NUMBA
def test_the_compiled_search_determinizes_from_the_pool_it_is_given() -> None:
    # With the tree cut at the root (tree=1) and greedy rollouts to the deal's end, a search
    # over a pool of one determinization scores each card by one greedy playout of that deal:
    # the same means from any seed and any number of copies, and other means from another deal.
    game = get("seven-shot")
    state = _ending(4, 4, random.Random(4))
    seat = state.current_player
    view = state.view(seat)
    legal = state.legal_actions()
    from septet.fast import kernel_for

    kernel = kernel_for(game)
    spec = "ismcts:iterations=120,rollout=greedy,horizon=round,tree=1,utility=score,engine=fast"

    def means(samples: list[Any], copies: int, seed: int) -> dict[Any, float]:
        agent: Any = make_agent(spec, game)
        pool = np.stack([kernel.encode(x) for x in samples for _ in range(copies)])
        agent.pool_for = lambda _v, _r: pool
        root = agent.search(view, legal, random.Random(seed))
        return {a: c.reward / c.visits for a, c in root.children.items()}

    rng = random.Random(9)
    one = game.sample_state(view, rng)
    base = means([one], 1, 1)
    assert set(base) == set(legal)
    assert means([one], 3, 2) == pytest.approx(base)
    others = [means([game.sample_state(view, rng)], 1, 1) for _ in range(6)]
    assert any(o != pytest.approx(base) for o in others)
    free: Any = make_agent(spec, game)  # no pool: fresh uniform determinizations
    root = free.search(view, legal, random.Random(1))
    assert {a: c.reward / c.visits for a, c in root.children.items()} != pytest.approx(base)
