"""The tuned rollout policy of Seven Shot (ISMCTS ``rollout=tuned``, issue 30): the compiled
``tuned_action`` is an exact twin of the Python ``TunedGreedyAgent``, move by move."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from septet.bots.greedy.seven_shot import GreedyAgent, TunedGreedyAgent
from septet.fast import kernel_for
from septet.fast import seven_shot as K
from septet.games import get


@pytest.mark.parametrize("players", [3, 4])
def test_compiled_tuned_policy_twins_the_python_one(players: int) -> None:
    game = get("seven-shot")
    kernel = kernel_for(game)
    tuned, greedy = TunedGreedyAgent(game), GreedyAgent(game)
    rng = random.Random(30 + players)
    buf = np.zeros(K.LEGAL_BUF, dtype=np.int64)
    decisions = differ = 0
    for g in range(6):
        state = game.new_state(players)
        while not state.is_terminal:
            seat = state.current_player
            if seat < 0:
                state.apply(state.sample_chance(rng))
                continue
            legal = list(state.legal_actions())
            if len(legal) > 1:
                arr = kernel.encode(state)
                cnt = K.legal_actions(arr, buf)
                view = state.view(seat)
                mine = game.id_to_action(int(K.tuned_action(arr, buf, cnt)), players)
                theirs = tuned.act(view, legal, rng)
                assert mine == theirs, (g, seat, view)
                decisions += 1
                differ += theirs != greedy.act(view, legal, rng)
            # the tuned bot's games, with a random move one time in four for variety
            move = tuned.act(state.view(seat), legal, rng) if rng.random() < 0.75 else None
            state.apply(move if move is not None else rng.choice(legal))
    assert decisions > 200
    assert differ > 0  # the tuned weights do change moves
