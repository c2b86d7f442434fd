"""PettingZoo AEC environments: PettingZoo's own API and seed tests on every game, and the
observation, mask, reward and render contract worked out on the tiny test game."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install 'septet[rl]'")
pytest.importorskip("gymnasium", reason="needs the rl extra: pip install 'septet[rl]'")
np = pytest.importorskip("numpy", reason="needs the rl extra: pip install 'septet[rl]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from septet.core import IllegalActionError, OptionError  # noqa: E402
from septet.envs.pettingzoo import env, raw_env  # noqa: E402

from .envs_support import (  # noqa: E402
    ALL_CONFIGS,
    LARGE_CONFIGS,
    REAL_CONFIGS,
    TINY,
    checked_game,
    config_id,
    env_games,
)

# PettingZoo warns about every dict observation space that is not one of its own environments;
# the issue asks for dict observations with an action mask, so these two are expected.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


@pytest.mark.parametrize("config", ALL_CONFIGS + LARGE_CONFIGS, ids=config_id)
def test_envs_pettingzoo_api_and_seed(config: tuple[str, int, dict[str, Any]]) -> None:
    name, n, options = config
    checked_game(name, n, options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(env_games(1)):
            api_test(env(name, n, **options), num_cycles=100_000)
        seed_test(lambda: env(name, n, **options), num_cycles=100_000)
    unexpected = [
        str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)
    ]
    assert unexpected == []


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=config_id)
def test_envs_pettingzoo_full_games_match_engine(config: tuple[str, int, dict[str, Any]]) -> None:
    """Random masked play to the end: spaces hold every observation, the mask is exactly the
    engine's legal actions for the agent to move (zeros for the others), rewards are returns."""
    name, n, options = config
    game = checked_game(name, n, options)
    e = env(name, n, **options)
    raw = e.unwrapped
    rng = random.Random(1)
    num_actions = game.num_distinct_actions(n)
    for g in range(env_games(2)):
        e.reset(seed=g)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            total[agent] += reward
            assert not truncated
            assert e.observation_space(agent).contains(obs)
            if terminated:
                e.step(None)
                continue
            seat = raw.seat(agent)
            state = raw.game_state
            assert state.current_player == seat
            expected = np.zeros(num_actions, dtype=np.int8)
            for a in state.legal_actions():
                expected[game.action_to_id(a, n)] = 1
            assert np.array_equal(obs["action_mask"], expected)
            assert np.array_equal(
                obs["observation"], np.asarray(state.observation_tensor(seat), dtype=np.float32)
            )
            other = e.possible_agents[(seat + 1) % n]
            assert not e.observe(other)["action_mask"].any()
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        assert raw.game_state.is_terminal
        assert [total[a] for a in e.possible_agents] == raw.game_state.returns()


def test_envs_pettingzoo_tiny_observation_by_hand() -> None:
    # Tiny sevens, 2 seats: after the deal seat 0 holds one card c; its observation is
    # [count per rank / 2] + [total / 7] + per seat [cards / 7, stood, bust, to move, is me].
    e = raw_env(TINY, 2)
    e.reset(seed=3)
    c0 = e.game_state.hands[0][0]
    obs = e.observe("player_0")
    expected = [0.0] * 16
    expected[c0 - 1] = 0.5
    expected[5] = c0 / 7
    expected[6:11] = [1 / 7, 0, 0, 1, 1]
    expected[11:16] = [1 / 7, 0, 0, 0, 0]
    assert obs["observation"].dtype == np.float32
    assert obs["observation"].tolist() == pytest.approx(expected)
    assert obs["action_mask"].tolist() == [1, 1]  # stand, draw
    assert e.observe("player_1")["action_mask"].tolist() == [0, 0]
    assert e.agent_selection == "player_0"


def test_envs_pettingzoo_observation_hides_other_hands() -> None:
    e = raw_env(TINY, 2)
    e.reset(seed=5)
    before0 = e.observe("player_0")["observation"].copy()
    before1 = e.observe("player_1")["observation"].copy()
    hidden = e.game_state.hands[1][0]
    e.game_state.hands[1] = [1 if hidden != 1 else 2]  # another card for seat 1, unseen by seat 0
    assert np.array_equal(e.observe("player_0")["observation"], before0)
    assert not np.array_equal(e.observe("player_1")["observation"], before1)


def test_envs_pettingzoo_rewards_when_both_stand() -> None:
    # Both stand on their first card: the higher card wins, equal cards share the win.
    for seed in range(6):
        e = env(TINY, 2)
        e.reset(seed=seed)
        c0, c1 = (h[0] for h in e.unwrapped.game_state.hands)
        e.step(0)  # player_0 stands
        e.step(0)  # player_1 stands
        want = {"player_0": float(c0 >= c1), "player_1": float(c1 >= c0)}
        got = {}
        for agent in e.agent_iter():
            _, reward, terminated, _, _ = e.last()
            assert terminated
            got[agent] = reward
            e.step(None)
        assert got == want
        assert e.agents == []


def test_envs_pettingzoo_bust_scores_zero() -> None:
    # player_0 draws until it busts (it must: the other 8 cards add up to far more than 7), then
    # player_1 stands and wins alone.
    e = env(TINY, 2)
    e.reset(seed=11)
    while e.agent_selection == "player_0":
        e.step(1)
    assert e.unwrapped.game_state.bust == [True, False]
    e.step(0)
    assert e.unwrapped.rewards == {"player_0": 0.0, "player_1": 1.0}
    assert all(e.unwrapped.terminations.values())


def test_envs_pettingzoo_illegal_action_leaves_game_unchanged() -> None:
    e = raw_env(TINY, 3)
    e.reset(seed=0)
    before = e.game_state.to_json()
    with pytest.raises(IllegalActionError, match=r"legal ids: 0 \(stand\), 1 \(draw\)"):
        e.step(2)
    assert e.game_state.to_json() == before
    assert e.agent_selection == "player_0"


def test_envs_pettingzoo_seeding() -> None:
    e = raw_env(TINY, 3)
    e.reset(seed=42)
    first = e.game_state.to_json()
    e.reset(seed=42)
    assert e.game_state.to_json() == first
    deals = set()
    for seed in range(10):
        e.reset(seed=seed)
        deals.add(str(e.game_state.hands))
    assert len(deals) > 1


def test_envs_pettingzoo_render_ansi() -> None:
    e = env(TINY, 2, render_mode="ansi")
    e.reset(seed=3)
    c0 = e.unwrapped.game_state.hands[0][0]
    assert e.render() == "* seat 0: ?\n  seat 1: ?\ndeck: 8"
    seat_env = env(TINY, 2, render_mode="ansi", render_seat=0)
    seat_env.reset(seed=3)
    assert seat_env.render() == f"* seat 0: {c0}\n  seat 1: ?\ndeck: 8"
    silent = env(TINY, 2)
    silent.reset(seed=3)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert silent.render() is None


def test_envs_pettingzoo_bad_arguments() -> None:
    with pytest.raises(OptionError, match="2 to 4 players"):
        env(TINY, 5)
    with pytest.raises(OptionError, match="render_mode"):
        env(TINY, 2, render_mode="rgb_array")
    with pytest.raises(OptionError, match="limit"):
        env(TINY, 2, limit=3)
    with pytest.raises(OptionError, match="Game object"):
        env(raw_env(TINY, 2).game, 2, limit=6)


def test_envs_pettingzoo_spaces() -> None:
    e = env(TINY, 4)
    assert e.action_space("player_3").n == 2
    obs_space = e.observation_space("player_3")
    assert obs_space["observation"].shape == (26,)  # 6 + 5 * 4
    assert obs_space["action_mask"].shape == (2,)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert str(e.unwrapped) == "septet_envs_tiny_v0"


@pytest.mark.parametrize("config", REAL_CONFIGS, ids=config_id)
def test_envs_pettingzoo_render_each_game(config: tuple[str, int, dict[str, Any]]) -> None:
    """``render()`` is the engine's text renderer on the spectator's view, in the asked language,
    and the seat's own view with ``render_seat``."""
    name, n, options = config
    game = checked_game(name, n, options)
    for lang in ("en", "ja"):
        e = env(name, n, render_mode="ansi", lang=lang, **options)
        e.reset(seed=4)
        text = e.render()
        assert isinstance(text, str) and text.strip()
        assert text == game.render(e.unwrapped.game_state.view(None), lang)
        mine = env(name, n, render_mode="ansi", render_seat=1, lang=lang, **options)
        mine.reset(seed=4)
        assert mine.render() == game.render(mine.unwrapped.game_state.view(1), lang)


@pytest.mark.parametrize(
    "config", [("seven-shot", 4, {}), ("double-seven", 2, {}), ("flip7", 3, {})], ids=config_id
)
def test_envs_pettingzoo_render_test_state_and_bounds(
    config: tuple[str, int, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from pettingzoo.test import render_test

    name, n, options = config
    game = checked_game(name, n, options)
    render_test(lambda render_mode=None: env(name, n, render_mode=render_mode, **options))
    capsys.readouterr()
    e = env(name, n, **options)
    raw = e.unwrapped
    assert raw.metadata["render_modes"] == ["human", "ansi"]
    assert raw.metadata["action_encoding"] == {"game": name, "version": 1}
    spec = game.observation_spec(n)
    box = e.observation_space("player_0")["observation"]
    assert np.array_equal(box.low, np.asarray(spec.low, np.float32))
    assert np.array_equal(box.high, np.asarray(spec.high, np.float32))
    e.reset(seed=2)
    rng = random.Random(2)
    for _ in zip(range(60), e.agent_iter(), strict=False):
        obs, _, terminated, _, _ = e.last()
        assert box.contains(obs["observation"])
        st = raw.state()
        assert raw.state_space.contains(st) and st.shape == (n * spec.size,)
        # the global state is every seat's observation, seat 0 first
        for s in range(n):
            seat_obs = raw.game_state.observation_tensor(s)
            assert np.allclose(st[s * spec.size : (s + 1) * spec.size], seat_obs)
        if terminated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    norm = env(name, n, normalize=True, **options)
    norm.reset(seed=2)
    o = norm.observe(norm.agent_selection)["observation"]
    assert o.min() >= 0.0 and o.max() <= 1.0
