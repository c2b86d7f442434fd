"""Compact actions in the PettingZoo environment (issue 18 item 4): PettingZoo's API and seed
tests pass, the sizes are those of the Gymnasium environment, and a game played as choices is
the same game as played with flat ids."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install 'septet[rl]'")
np = pytest.importorskip("numpy", reason="needs the rl extra: pip install 'septet[rl]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from septet.core import IllegalActionError, OptionError  # noqa: E402
from septet.envs.pettingzoo import env, raw_env  # noqa: E402

from .envs_support import TINY  # noqa: E402

# game, players, flat ids, choices per step, steps at most (docs/rl.md, "Compact actions")
SIZES = [
    ("double-seven", 2, 36_579, 11, 8),
    ("flip7", 3, 1_593, 22, 5),
    ("seven-shot", 3, 98, 49, 2),
]


@pytest.mark.parametrize(("name", "n", "flat", "width", "steps"), SIZES)
def test_pettingzoo_compact_api_seed_and_sizes(
    name: str, n: int, flat: int, width: int, steps: int
) -> None:
    e = raw_env(name, n, actions="compact")
    assert (e.metadata["flat_actions"], e.metadata["compact_actions"]) == (flat, width)
    assert e.metadata["compact_steps"] == steps
    assert e.action_space("player_0").n == width
    assert e.observation_space("player_0")["action_mask"].shape == (width,)
    enc = e.game.action_encoding(n)
    size = e.game.observation_size(n) + enc.choice_tensor_size
    assert e.observation_space("player_0")["observation"].shape == (size,)
    assert raw_env(name, n).action_space("player_0").n == flat  # flat stays the default
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's warnings on dict spaces (see the tests)
        api_test(env(name, n, actions="compact"), num_cycles=100_000)
        seed_test(lambda: env(name, n, actions="compact"), num_cycles=100_000)


def _play(name: str, n: int, actions: str, seed: int) -> list[str]:
    """A seeded game where each seat plays its smallest legal flat id: as ids or as choices."""
    e = env(name, n, actions=actions)
    e.reset(seed=seed)
    raw: Any = e.unwrapped
    for _agent in e.agent_iter():
        _, _, term, _, _ = e.last()
        if term:
            e.step(None)
            continue
        if actions == "flat" or raw._choice.prefix == []:
            target = min(raw.legal_actions())
        choices = raw.choices_of(target)
        e.step(choices[0] if actions == "compact" else target)
    return [str(a) for a in raw.game_state.history]


@pytest.mark.parametrize(("name", "n"), [("double-seven", 2), ("flip7", 3)])
def test_pettingzoo_compact_game_is_the_flat_game(name: str, n: int) -> None:
    flat = _play(name, n, "flat", seed=5)
    assert len(flat) > 20
    assert _play(name, n, "compact", seed=5) == flat


def test_pettingzoo_compact_choices_and_mask() -> None:
    e = raw_env("double-seven", 2, actions="compact")
    e.reset(seed=3)
    agent = e.agent_selection
    enc = e.game.action_encoding(2)
    obs = e.observe(agent)
    # the first choice is the kind: the mask is exactly the kinds of the legal actions
    kinds = sorted({enc.compact_path(i)[0] for i in e.legal_actions()})
    assert list(np.flatnonzero(obs["action_mask"])) == kinds
    other = next(a for a in e.agents if a != agent)
    assert not e.observe(other)["action_mask"].any()
    target = max(e.legal_actions())
    choices = e.choices_of(target)
    assert choices[0] == enc.compact_path(target)[0]
    before = len(e.game_state.history)
    with pytest.raises(IllegalActionError, match="allowed"):
        e.step(enc.compact_size - 1 if enc.compact_size - 1 not in kinds else -1)
    for c in choices[:-1]:
        e.step(c)
        assert e.agent_selection == agent  # still choosing: the game has not moved
        assert len(e.game_state.history) == before
    e.step(choices[-1])
    assert len(e.game_state.history) > before
    assert str(e.game_state.history[before]) == str(enc.action(target))


def test_pettingzoo_compact_needs_an_encoding() -> None:
    with pytest.raises(OptionError, match="actions must be"):
        raw_env("flip7", 3, actions="tiny")
    try:
        raw_env(TINY, 2, actions="compact")
    except OptionError as exc:
        assert "declares no action encoding" in str(exc)
