"""The Flip 7 training example (examples/train_flip7.py): its policy gradient, and a tiny run."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy", reason="needs the rl extra: pip install 'septet[rl]'")
pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install 'septet[rl]'")

from septet import games  # noqa: E402
from septet.bots import make_agent  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_flip7.py"


def _example() -> ModuleType:
    name = "septet_example_train_flip7"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, EXAMPLE)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules[name]


def _flip7_or_skip() -> games.Game:  # type: ignore[name-defined]
    return games.get("flip7", edition="classic")


def test_envs_example_policy_gradient_is_exact() -> None:
    """``act`` returns d log pi(a) / dW: checked against finite differences by hand."""
    ex = _example()
    policy = ex.LinearPolicy(num_obs=3, num_actions=4)
    policy.w = np.arange(16, dtype=float).reshape(4, 4) / 10
    obs = np.array([0.5, -1.0, 2.0])
    mask = np.array([1, 0, 1, 1], dtype=np.int8)
    action, grad = policy.act(obs, mask, np.random.default_rng(0))
    assert mask[action] == 1
    x = np.append(obs, 1.0)

    def logp(w: np.ndarray) -> float:
        logits = w @ x
        legal = [0, 2, 3]
        return float(logits[action] - math.log(sum(math.exp(logits[i]) for i in legal)))

    eps = 1e-6
    numeric = np.zeros_like(policy.w)
    for i in range(4):
        for j in range(4):
            w = policy.w.copy()
            w[i, j] += eps
            numeric[i, j] = (logp(w) - logp(policy.w)) / eps
    assert np.allclose(grad, numeric, atol=1e-4)
    assert not grad[1].any()  # the masked action gets no gradient
    # Probabilities: softmax over the legal logits only.
    p = policy.probs(x, mask.astype(bool))
    assert p[1] == 0.0
    assert p.sum() == pytest.approx(1.0)


def test_envs_example_tiny_run_against_greedy() -> None:
    game = _flip7_or_skip()
    make_agent("greedy", game)
    ex = _example()
    lines: list[str] = []
    result = ex.train(games_total=40, players=3, batch=10, block=20, seed=1, log=lines.append)
    assert len(result.win_rates) == 2
    assert all(0.0 <= r <= 1.0 for r in result.win_rates)
    assert lines[0].startswith("games      1-20     win rate")
    assert lines[1].startswith("games     21-40     win rate")


class _Hitter:
    """A scripted Flip 7 player: hits 4 times out of 5 when it may choose, else random."""

    name = "hitter"

    def __init__(self, game: object = None) -> None:
        pass

    def act(self, view: object, legal: list[object], rng: random.Random) -> object:
        names = [str(a) for a in legal]
        if "hit" in names and "stay" in names:
            return legal[names.index("hit" if rng.random() < 0.8 else "stay")]
        return legal[rng.randrange(len(legal))]


def test_envs_example_learns_against_a_scripted_player() -> None:
    """The learner starts as a coin flip between hit and stay; against a player that hits 80% of
    the time it must learn to win more: the last block's win rate beats the first."""
    game = _flip7_or_skip()
    ex = _example()
    result = ex.train(
        games_total=400,
        players=2,
        batch=20,
        block=200,
        seed=1,
        opponent=_Hitter,
        game=game,
        log=None,
    )
    assert len(result.win_rates) == 2
    assert result.win_rates[-1] > result.win_rates[0] + 0.05
