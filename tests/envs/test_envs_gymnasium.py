"""Gymnasium environments (septet.envs.gymnasium): Gymnasium's own checker, vector envs, rewards
worked out by hand, compact actions equal to flat ones, seeding, bounds, rendering."""

from __future__ import annotations

import random
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install 'septet[rl]'")
np = pytest.importorskip("numpy", reason="needs the rl extra: pip install 'septet[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from septet import games  # noqa: E402
from septet.core import IllegalActionError, OptionError  # noqa: E402
from septet.envs.gymnasium import ENV_IDS, SeptetEnv  # noqa: E402


def _play(env: Any, seed: int, policy: str = "first") -> tuple[list[Any], float, int]:
    """Play one game with a masked policy; returns (observations, total reward, steps)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen, total, steps, done = [obs], 0.0, 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        a = legal[0] if policy == "first" else rng.choice(legal)
        obs, r, done, truncated, info = env.step(a)
        assert not truncated
        seen.append(obs)
        total += r
        steps += 1
    return seen, total, steps


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("septet/Flip7-v0", {"num_players": 3}),
        ("septet/Flip7-v0", {"num_players": 2, "edition": "classic", "actions": "compact"}),
        ("septet/SevenShot-v0", {"num_players": 4, "normalize": True}),
        ("septet/DoubleSeven-v0", {"num_players": 2, "actions": "compact"}),
        ("septet/SevenShot-v0", {"num_players": 3, "observation": "infostate"}),
    ],
)
def test_gymnasium_check_env_and_a_whole_game(
    env_id: str, kwargs: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped)  # also makes it with render_mode human and ansi
    capsys.readouterr()
    seen, _, steps = _play(env, seed=5, policy="random")
    assert steps > 0 and all(env.observation_space.contains(o) for o in seen)
    meta = env.unwrapped.metadata
    assert meta["action_encoding"] == {"game": ENV_IDS[env_id], "version": 1}


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec(mode: str) -> None:
    envs = gym.make_vec(
        "septet/Flip7-v0", num_envs=2, vectorization_mode=mode, num_players=2, edition="classic"
    )
    try:
        obs, _ = envs.reset(seed=3)
        assert obs["observation"].shape == (
            2,
            envs.single_observation_space["observation"].shape[0],
        )
        finished = 0
        for _ in range(400):
            # Always stay; after a game's end (an empty mask) the next step only resets it.
            acts = np.array([(list(np.flatnonzero(m)) or [0])[-1] for m in obs["action_mask"]])
            obs, reward, term, trunc, _ = envs.step(acts)
            finished += int(term.sum())
            assert not trunc.any() and set(np.unique(reward)) <= {0.0, 1.0}
        assert finished >= 2  # games end and restart on their own
    finally:
        envs.close()


def test_gymnasium_seeding_replays_the_same_game() -> None:
    env = SeptetEnv("seven-shot", 3)
    a, ra, na = _play(env, seed=11, policy="random")
    b, rb, nb = _play(env, seed=11, policy="random")
    assert (ra, na) == (rb, nb)
    assert all(
        np.array_equal(x["observation"], y["observation"]) for x, y in zip(a, b, strict=True)
    )
    env.reset(seed=11, options={"seat": 2})
    assert env.seat == 2


def test_gymnasium_rewards_worked_out_from_the_final_state() -> None:
    for seed in range(3):
        win, margin, rnd = (
            SeptetEnv("flip7", 3, reward=k, seat=1, edition="classic")
            for k in ("win", "margin", "round")
        )
        _, r_win, _ = _play(win, seed)
        _, r_margin, _ = _play(margin, seed)
        _, r_round, _ = _play(rnd, seed)
        state = win.game_state  # the three envs played the same game (same seed and policy)
        assert state.history == margin.game_state.history == rnd.game_state.history
        scores = state.scores()
        assert r_win == (1.0 if 1 in state.winners() else 0.0)
        assert r_margin == scores[1] - max(scores[0], scores[2])
        assert r_round == scores[1]  # every round's points, paid as each round is scored


def test_gymnasium_margin_counts_teams_in_seven_shot() -> None:
    # SS-2.1: partners (seats 0 and 2) share their points; the margin is against the other team.
    env = SeptetEnv("seven-shot", 4, reward="margin", seat=0)
    _, r, _ = _play(env, 2)
    side = env.game_state.scores()
    assert r == side[0] - side[1] and side[0] == side[2]


def test_gymnasium_compact_actions_play_the_same_games_as_flat_ids() -> None:
    flat = SeptetEnv("double-seven", 2, seat=0, opponents="random")
    compact = SeptetEnv("double-seven", 2, seat=0, opponents="random", actions="compact")
    enc = flat.encoding
    assert compact.action_space.n == enc.compact_size == 11
    assert flat.action_space.n == 36579
    fo, _ = flat.reset(seed=1)
    co, cinfo = compact.reset(seed=1)
    rng = random.Random(0)
    sub_steps = decisions = 0
    while not flat.game_state.is_terminal:
        legal = list(flat.legal_actions())
        target = legal[rng.randrange(len(legal))]
        path = enc.compact_path(target)
        decisions += 1
        while True:
            choice = path[len(compact._choice.prefix)]
            assert cinfo["action_mask"][choice] == 1
            co, _, _, _, cinfo = compact.step(choice)
            sub_steps += 1
            if "action_id" in cinfo:
                assert cinfo["action_id"] == target
                break
        fo, _, _, _, _ = flat.step(target)
        assert np.array_equal(fo["observation"], co["observation"][: fo["observation"].shape[0]])
    assert compact.game_state.history == flat.game_state.history
    assert decisions <= sub_steps <= decisions * (1 + enc.max_args)


def test_gymnasium_normalized_observations_lie_in_the_unit_box() -> None:
    env = SeptetEnv("double-seven", 3, normalize=True)
    seen, _, _ = _play(env, seed=3, policy="random")
    box = env.observation_space["observation"]
    assert box.low.min() == 0.0 and box.high.max() == 1.0
    assert all(o["observation"].min() >= 0.0 and o["observation"].max() <= 1.0 for o in seen)
    raw = SeptetEnv("double-seven", 3)
    assert raw.observation_space["observation"].high.max() == 91.0  # tiles in the pile (DS-1.1)


def test_gymnasium_illegal_actions() -> None:
    env = SeptetEnv("flip7", 2, edition="classic", seat=0)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    moves = len(env.game_state.history)
    _, r, term, _, info = env.step(illegal)
    assert (r, term, info["illegal_action"]) == (-1.0, False, True)
    assert len(env.game_state.history) == moves
    strict = SeptetEnv("flip7", 2, edition="classic", seat=0, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal now"):
        strict.step(illegal)


def test_gymnasium_opponents_by_seat_and_bad_options() -> None:
    game = games.get("seven-shot")
    from septet.bots import make_agent

    env = SeptetEnv(game, 3, opponents=["random", make_agent("greedy", game)], seat=0)
    env.reset(seed=4)
    assert [getattr(a, "name", "") for a in env.opponents] == ["random", "greedy"]
    for kwargs, match in (
        ({"opponents": ["random"]}, "2 opponents"),
        ({"reward": "points"}, "reward must be one of"),
        ({"actions": "tree"}, "actions must be one of"),
        ({"seat": 3}, "seat must be"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ):
        with pytest.raises(OptionError, match=match):
            SeptetEnv("seven-shot", 3, **kwargs)


def test_gymnasium_render_shows_only_the_learners_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = SeptetEnv("seven-shot", 3, seat=1, render_mode="ansi", lang="ja")
    env.reset(seed=1)
    state = env.game_state
    assert env.render() == env.game.render(state.view(1), "ja")
    human = SeptetEnv("seven-shot", 3, seat=1, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == human.game.render(human.game_state.view(1)).strip()


def test_gymnasium_plug_in_game_without_declarations() -> None:
    """A plug-in engine with an observation tensor but no pieces or encoding still gets flat
    actions and the raw observation; the options that need the declarations say so."""
    from .envs_support import TINY

    env = SeptetEnv(TINY, 2, opponents="random")
    check_env(env, skip_render_check=True)
    assert env.metadata["action_encoding"]["version"] is None
    for kwargs in ({"actions": "compact"}, {"observation": "infostate"}):
        with pytest.raises(OptionError, match="declares no action encoding"):
            SeptetEnv(TINY, 2, opponents="random", **kwargs)
    with pytest.raises(OptionError, match="no observation bounds"):
        SeptetEnv(TINY, 2, opponents="random", normalize=True)
