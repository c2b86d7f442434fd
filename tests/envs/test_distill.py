"""Distillation of a teacher bot into the ``ppo`` network (septet.envs.distill)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="needs the train extra: pip install 'septet[train]'")

from septet.bots import make_agent
from septet.core.play import choose_action
from septet.envs._common import legal_ids
from septet.envs.distill import (
    Decisions,
    DistillSettings,
    distill,
    fit,
    gather,
    play_and_label,
)
from septet.envs.ppo_train import Net
from septet.games import get


def _settings(**kw: object) -> DistillSettings:
    base = dict(game="seven-shot", num_players=3, teacher="greedy", epochs=2, eval_games=0)
    base.update(kw)
    return DistillSettings(**base)  # type: ignore[arg-type]


def test_labels_are_the_teachers_legal_choices() -> None:
    """Every label is legal under its mask, and is the flat id of the move the teacher (the
    deterministic greedy) makes in a position with that observation: replaying the same seed's
    game and asking greedy at each decision gives the same ids in the same order."""
    s = _settings()
    data = play_and_label(s, 0, [0, 1], None)
    assert len(data) > 100
    assert data.mask[np.arange(len(data)), data.action].all()
    assert ((data.x >= 0) & (data.x <= 1)).all()  # normalised by the observation spec
    # The same games again: identical data (seeded per round and game).
    again = play_and_label(s, 0, [0, 1], None)
    assert np.array_equal(again.action, data.action) and np.array_equal(again.x, data.x)
    # Round 1's games are other deals.
    other = play_and_label(s, 1, [0, 1], None)
    assert not (len(other) == len(data) and np.array_equal(other.action, data.action))


def test_labels_match_greedy_on_the_recorded_states() -> None:
    """Walk one teacher game by hand: greedy's choice at each decision is the label."""
    s = _settings()
    g = get("seven-shot")
    data = play_and_label(s, 0, [3], None)
    greedy = make_agent("greedy", g)
    state = g.new_state(3)
    from septet.core.rng import derive_rng
    from septet.core.types import CHANCE

    chance = derive_rng(s.seed, "distill", 0, 3, "chance")
    rngs = [derive_rng(s.seed, "distill", 0, 3, "seat", i) for i in range(3)]
    k = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        p = state.current_player
        action = choose_action(greedy, state, rngs[p])
        assert g.action_to_id(action, 3) == int(data.action[k])
        assert legal_ids(state)[int(data.action[k])] == action
        state.apply(action)
        k += 1
    assert k == len(data)


def test_fit_learns_a_fixed_rule_and_dagger_labels_the_learner_seat(tmp_path: Path) -> None:
    """Fitting greedy's Seven Shot choices: the held-out agreement rises far above the
    share a uniformly random legal choice would get; the checkpoint plays through
    ``make_agent('ppo:checkpoint=...')``; a DAgger round labels only the learner's seat."""
    s = _settings(games=40, dagger=1, dagger_games=10, epochs=10, hidden=64, batch=64, lr=3e-3)
    results = distill(s, tmp_path)
    r0, r1 = results["rounds"]
    data = gather(s, 0, 40, None)
    legal_counts = data.mask.sum(axis=1)
    chance_agreement = float(np.mean(1.0 / legal_counts))
    assert r0["agreement"] > chance_agreement + 0.2
    # A DAgger game records the learner's decisions only: about a third of a game's.
    assert r1["decisions"] < r0["decisions"] * 10 / 40 * 0.6
    assert r1["decisions_total"] == r0["decisions"] + r1["decisions"]
    ckpt = tmp_path / "ppo_seven_shot.npz"
    agent = make_agent(f"ppo:checkpoint={ckpt}", get("seven-shot"))
    g = get("seven-shot")
    state = g.new_state(3)
    rng = random.Random(0)
    while not state.is_terminal:
        if state.current_player < 0:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(choose_action(agent, state, rng))
    assert sum(state.returns()) >= 1


def test_fit_agreement_on_a_known_rule() -> None:
    """A rule the network can represent exactly (the teacher always plays the lowest legal
    id): after training, agreement on held-out decisions is near 1."""
    rng = np.random.default_rng(0)
    n, d, k = 3000, 20, 6
    x = rng.random((n, d), dtype=np.float32)
    mask = rng.random((n, k)) < 0.6
    mask[np.arange(n), rng.integers(0, k, n)] = True
    action = mask.argmax(axis=1)
    net = Net(d, k, 32)
    out = fit(net, Decisions(x, mask, action), _settings(epochs=20, batch=128, lr=3e-3), log=str)
    assert out["agreement"] > 0.95


def test_compact_games_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="compact"):
        distill(_settings(game="double-seven", num_players=2), tmp_path)
