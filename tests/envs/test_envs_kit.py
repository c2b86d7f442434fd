"""The researchers' kit: ``SeptetEnv.action_masks()`` (sb3-contrib's MaskablePPO with no
wrapper), a valid mask on the autoreset step, and ``septet.envs.run`` (every seat's trajectory
and payoff, as RLCard's ``env.run``)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
gym = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from septet import games  # noqa: E402
from septet.bots import make_agent  # noqa: E402
from septet.core import play_game  # noqa: E402
from septet.core.errors import IllegalActionError, OptionError  # noqa: E402
from septet.envs.gymnasium import SeptetEnv  # noqa: E402
from septet.envs.run import run  # noqa: E402


def _finish(env: SeptetEnv, seed: int) -> tuple[dict, dict]:
    obs, info = env.reset(seed=seed)
    term = False
    while not term:
        legal = np.flatnonzero(env.action_masks())
        obs, _, term, _, info = env.step(int(legal[-1]))
    return obs, info


@pytest.mark.parametrize("game,n", [("flip7", 2), ("seven-shot", 3), ("double-seven", 2)])
def test_action_masks_are_the_legal_ids(game: str, n: int) -> None:
    env = SeptetEnv(game, n)
    obs, _ = env.reset(seed=5)
    for _ in range(30):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        assert sorted(np.flatnonzero(mask)) == sorted(env.legal_actions())
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        obs, _, term, _, _ = env.step(int(np.flatnonzero(mask)[0]))
        if term:
            break


def test_terminal_mask_is_a_single_placeholder_and_flagged() -> None:
    env = SeptetEnv("flip7", 2, edition="classic")
    obs, info = _finish(env, seed=2)
    assert info["episode_over"] is True
    assert list(np.flatnonzero(obs["action_mask"])) == [0]
    assert list(np.flatnonzero(env.action_masks())) == [0]
    assert env.legal_actions() == {}  # nothing is legal: the placeholder is only a mask entry
    with pytest.raises(RuntimeError):
        env.step(0)
    empty = SeptetEnv("flip7", 2, edition="classic", terminal_mask="empty")
    obs, info = _finish(empty, seed=2)
    assert info["episode_over"] and not obs["action_mask"].any()
    with pytest.raises(OptionError):
        SeptetEnv("flip7", 2, terminal_mask="zeros")


def test_vector_autoreset_masks_are_never_empty() -> None:
    envs = gym.make_vec(
        "septet/Flip7-v0", num_envs=2, vectorization_mode="sync", num_players=2, edition="classic"
    )
    try:
        obs, _ = envs.reset(seed=7)
        ends = 0
        for _ in range(300):
            masks = obs["action_mask"].astype(bool)
            assert masks.any(axis=1).all()  # a masked softmax stays finite on every row
            logits = np.where(masks, 0.0, -np.inf)
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            assert np.isfinite(probs / probs.sum(axis=1, keepdims=True)).all()
            obs, _, term, _, _ = envs.step(masks.argmax(axis=1))
            ends += int(term.sum())
        assert ends >= 2
    finally:
        envs.close()


def test_run_gives_every_seat_its_trajectory_and_payoff() -> None:
    game = games.get("flip7", edition="classic")
    ep = run(game, ["greedy", "random", "greedy"], seed=4)
    ref = play_game(game, [make_agent(s, game) for s in ("greedy", "random", "greedy")], seed=4)
    assert ep.record.actions == ref.record.actions  # same streams as play_game
    assert ep.payoffs == [float(x) for x in ref.state.returns()]
    assert sorted(ep.payoffs, reverse=True)[0] == 1.0
    decisions = sum(len(t) - 1 for t in ep.trajectories)
    chance = sum(1 for _ in ep.record.actions) - decisions
    assert decisions > 0 and chance > 0  # the record holds both, the trajectories the moves
    for seat, traj in enumerate(ep.trajectories):
        *steps, last = traj
        assert last.done and last.action is None and last.reward == ep.payoffs[seat]
        for s in steps:
            assert not s.done and s.reward == 0.0 and s.action_mask[s.action] == 1
            assert s.observation.shape == (game.observation_size(3),)


def test_run_with_a_policy_and_an_illegal_choice() -> None:
    def last_legal(obs, mask):
        return int(np.flatnonzero(mask)[-1])

    ep = run("seven-shot", [last_legal, "greedy", "random"], seed=9)
    assert all(s.action_mask[s.action] for s in ep.trajectories[0][:-1])

    def illegal(obs, mask):
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(IllegalActionError):
        run("seven-shot", [illegal, "greedy", "random"], seed=9)


@pytest.mark.slow
def test_maskable_ppo_trains_without_a_wrapper() -> None:
    sb3 = pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib) is missing")
    env = SeptetEnv("flip7", 2, edition="classic", opponents="greedy")
    model = sb3.MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0)
    model.learn(total_timesteps=2_000)
    assert model.num_timesteps >= 2_000
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


def test_run_module_examples() -> None:
    import doctest

    import septet.envs.run as module

    assert doctest.testmod(module).failed == 0
