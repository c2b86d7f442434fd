"""The ``ppo`` agent: checkpoints play legal moves from views in every game (flat and compact
actions), refuse other games, options and player counts, and match the trainer's network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from septet import games
from septet.bots import AgentSpecError, make_agent
from septet.bots.ppo import PPOPolicy, save_checkpoint, shipped_checkpoint
from septet.core import play_game


def _random_checkpoint(tmp: Path, name: str, n: int, actions: str = "flat", **options: Any) -> Path:
    game = games.get(name, **options)
    enc = game.action_encoding(n)
    size = game.observation_size(n)
    if actions == "compact":
        size += enc.choice_tensor_size
    n_out = enc.compact_size if actions == "compact" else enc.size
    rng = np.random.default_rng(0)
    layers = [
        (rng.normal(size=(size, 16)), rng.normal(size=16)),
        (rng.normal(size=(16, 16)), rng.normal(size=16)),
        (rng.normal(size=(16, n_out)), rng.normal(size=n_out)),
    ]
    meta = {
        "game": name,
        "options": game.options_dict(),
        "num_players": n,
        "actions": actions,
        "normalize": True,
        "action_encoding": enc.version,
    }
    return save_checkpoint(tmp / f"{name}-{actions}.npz", layers, meta)


@pytest.mark.parametrize(
    ("name", "n", "actions"),
    [("flip7", 3, "flat"), ("seven-shot", 3, "flat"), ("double-seven", 2, "compact")],
)
def test_ppo_checkpoint_plays_whole_games(tmp_path: Path, name: str, n: int, actions: str) -> None:
    path = _random_checkpoint(tmp_path, name, n, actions)
    game = games.get(name)
    agent = make_agent(f"ppo:checkpoint={path}", game)
    sampler = make_agent(f"ppo:checkpoint={path},sample=true", game)
    others = [make_agent("random", game) for _ in range(n - 2)]
    result = play_game(game, [agent, sampler, *others], seed=1)  # raises on an illegal move
    assert result.state.is_terminal
    # the same seed, the same (deterministic) policy: the same game
    again = play_game(game, [agent, sampler, *others], seed=1)
    assert again.record.actions == result.record.actions


def test_ppo_refuses_what_it_was_not_trained_for(tmp_path: Path) -> None:
    path = _random_checkpoint(tmp_path, "flip7", 3)
    with pytest.raises(AgentSpecError, match="trained for flip7"):
        make_agent(f"ppo:checkpoint={path}", games.get("flip7", edition="classic"))
    with pytest.raises(AgentSpecError, match="trained for flip7"):
        make_agent(f"ppo:checkpoint={path}", games.get("seven-shot"))
    game = games.get("flip7")
    agent = make_agent(f"ppo:checkpoint={path}", game)
    with pytest.raises(ValueError, match="plays 3 players, not 4"):
        play_game(game, [agent] + [make_agent("random", game)] * 3, seed=0)
    bad = tmp_path / "bad.npz"
    np.savez(bad, meta=np.asarray("{}"))
    with pytest.raises(AgentSpecError, match="not a Septet PPO checkpoint"):
        make_agent(f"ppo:checkpoint={bad}", game)
    with pytest.raises(AgentSpecError, match="no PPO checkpoint"):
        make_agent(f"ppo:checkpoint={tmp_path / 'missing.npz'}", game)


def test_ppo_policy_matches_the_trainers_network(tmp_path: Path) -> None:
    torch = pytest.importorskip(
        "torch", reason="needs the train extra: pip install 'septet[train]'"
    )
    pytest.importorskip("gymnasium", reason="needs the rl extra")
    from septet.envs.ppo_train import Net

    torch.manual_seed(0)
    net = Net(7, 5, 8)
    path = save_checkpoint(tmp_path / "n.npz", net.layers(), {"game": "x"})
    policy = PPOPolicy(path)
    x = np.linspace(-1, 1, 7).astype(np.float32)
    with torch.no_grad():
        logits, _ = net(torch.as_tensor(x).unsqueeze(0), torch.ones(1, 5, dtype=torch.bool))
    assert np.allclose(policy.logits(x), logits.numpy()[0], atol=1e-5)


# Every shipped checkpoint is trained for its game's default options; Double Seven's was
# retrained under the default two_families ruling of the 77 (DS-5.3, issue 25, docs/rl.md) and
# refuses the old second_token (test_ppo_refuses_options_its_checkpoint_was_not_trained_for).
TRAINED_OPTIONS: dict[str, dict[str, object]] = {}


def test_ppo_shipped_checkpoints_play() -> None:
    for name, n in (("flip7", 3), ("seven-shot", 3), ("double-seven", 2)):
        assert shipped_checkpoint(name).exists(), name
        game = games.get(name, **TRAINED_OPTIONS.get(name, {}))
        agents = [make_agent("ppo", game)] + [make_agent("greedy", game) for _ in range(n - 1)]
        assert play_game(game, agents, seed=3).state.is_terminal


def test_ppo_shipped_checkpoints_are_small_and_double_seven_beats_random() -> None:
    for name in ("flip7", "seven-shot", "double-seven"):
        assert shipped_checkpoint(name).stat().st_size <= 1_000_000, name  # issue 18: small
    # docs/rl.md: the shipped Double Seven policy won 400 of 400 duplicate games against random
    game = games.get("double-seven", **TRAINED_OPTIONS.get("double-seven", {}))
    for seed in range(4):
        agents = [make_agent("ppo", game), make_agent("random", game)]
        if seed % 2:
            agents.reverse()
        result = play_game(game, agents, seed=seed)
        assert result.state.winners() == [seed % 2], seed


def test_ppo_refuses_options_its_checkpoint_was_not_trained_for() -> None:
    # DS-5.3: the checkpoint names two_families (the default, issue 25): the old ruling is refused
    game = games.get("double-seven", double_seven="second_token")
    with pytest.raises(AgentSpecError, match="two_families"):
        make_agent("ppo", game)
    make_agent("ppo", games.get("double-seven"))  # the default options are its own
