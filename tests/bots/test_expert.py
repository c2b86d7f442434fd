"""The Expert level: Seven Shot's trick solver against brute force, its samples against the
information set, and the ``expert`` spec in every game."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.expert.seven_shot import SevenShotExpert
from septet.bots.expert.ss_solver import Solver, position_from_state
from septet.core.types import CHANCE
from septet.games import get
from septet.games.seven_shot.cards import SUIT_MASK
from septet.games.seven_shot.state import PH_PLAY, SevenShotState


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
    agent = SevenShotExpert(game, time=0.01, nodes=200, min_samples=3)
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
    assert len(seen) >= 9
    for real, sample in seen:
        seat = real.current_player
        assert json.dumps(sample.view(seat), sort_keys=True) == json.dumps(
            real.view(seat), sort_keys=True
        )
        assert sample.hands[seat] == real.hands[seat]
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
