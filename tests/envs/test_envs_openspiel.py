"""OpenSpiel registration: OpenSpiel's random_sim_test (with serialization) and its Python ISMCTS
bot on every game; chance nodes, strings and tensors worked out on the tiny test game."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the rl extra: pip install 'septet[rl]'")
np = pytest.importorskip("numpy", reason="needs the rl extra: pip install 'septet[rl]'")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from septet.envs import openspiel as sos  # noqa: E402

from .envs_support import (  # noqa: E402
    ALL_CONFIGS,
    REAL_CONFIGS,
    TINY,
    TINY_CONFIGS,
    checked_game,
    config_id,
    env_games,
    random_states,
)

# Options that keep whole games short enough for a search bot in a unit test.
SHORT_GAME_OPTIONS = {"flip7": {"target": 40}}
# The search bot plays every game (and edition) once; long games at their smallest table.
ISMCTS_CONFIGS = [
    *TINY_CONFIGS,
    ("double-seven", 2, {}),
    ("flip7", 3, {}),
    ("flip7", 6, {}),
    ("flip7", 3, {"edition": "classic"}),
    ("seven-shot", 3, {}),
    ("seven-shot", 4, {}),
]


def _load(config: tuple[str, int, dict[str, Any]], **extra: Any) -> Any:
    name, n, options = config
    checked_game(name, n, options)
    return sos.load(name, n, **options, **extra)


# Double Seven at 3 and 4 seats takes most of a minute each: the long runs check them.
@pytest.mark.parametrize(
    "config",
    [
        pytest.param(c, marks=pytest.mark.slow) if c[0] == "double-seven" and c[1] >= 3 else c
        for c in ALL_CONFIGS
    ],
    ids=config_id,
)
def test_envs_openspiel_random_sim_test(config: tuple[str, int, dict[str, Any]]) -> None:
    game = _load(config)
    pyspiel.random_sim_test(game, num_sims=env_games(2), serialize=True, verbose=False)


@pytest.mark.parametrize("config", ISMCTS_CONFIGS, ids=config_id)
def test_envs_openspiel_ismcts_plays_whole_games(config: tuple[str, int, dict[str, Any]]) -> None:
    name = config[0]
    game = _load(config, **SHORT_GAME_OPTIONS.get(name, {}))
    rs = np.random.RandomState(7)
    # OpenSpiel's own random-rollout evaluator on the tiny game; on the real games (hundreds of
    # steps a game) the same rollouts run at engine speed.
    evaluator = (
        mcts.RandomRolloutEvaluator(1, rs) if name == TINY else sos.RolloutEvaluator(1, seed=7)
    )
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        else:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert returns == state.septet_state.returns()
    assert sum(returns) >= 1.0 or name == TINY  # somebody wins (tiny: all may bust)


@pytest.mark.parametrize("config", REAL_CONFIGS, ids=config_id)
def test_envs_openspiel_resample_keeps_information_state(
    config: tuple[str, int, dict[str, Any]],
) -> None:
    """A state resampled from a seat's information set has that seat's information-state
    string, observation string and tensor, player to move and legal actions."""
    game = _load(config)
    septet_game, n = game.septet_game, game.num_players()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for s in random_states(septet_game, n, seed=3, every=7)[:-1]:
        state = sos.SeptetSpielState(game, s)
        p = state.current_player()
        det = state.resample_from_infostate(p, sampler)
        assert det.information_state_string(p) == state.information_state_string(p)
        assert det.observation_string(p) == state.observation_string(p)
        assert det.observation_tensor(p) == state.observation_tensor(p)
        assert det.legal_actions() == state.legal_actions()


# ----- the tiny game, by hand ----------------------------------------------------------------
def test_envs_openspiel_tiny_game_and_chance_nodes() -> None:
    game = sos.load(TINY, 3, limit=6)
    assert str(game) == "septet_envs_tiny(limit=6,players=3)"
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 2
    assert game.max_chance_outcomes() == 5  # ranks 1..5
    assert game.max_game_length() == 3 + 3 * (2 * 6 + 1)
    assert game.observation_tensor_shape() == [21]  # 6 + 5 * 3
    state = game.new_initial_state()
    assert state.is_chance_node()
    # Deck 1..5, two of each: every rank 2/10.
    assert state.chance_outcomes() == [(i, pytest.approx(0.2)) for i in range(5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "deal 5"
    for i in (4, 4, 0):  # deal 5, 5, 1
        state.apply_action(i)
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1]
    assert state.action_to_string(0, 1) == "draw"
    state.apply_action(1)  # seat 0 draws
    # Left: one 1, two each of 2, 3, 4, no 5: 7 cards; outcome i is the i-th rank present.
    assert state.chance_outcomes() == [
        (0, pytest.approx(1 / 7)),
        (1, pytest.approx(2 / 7)),
        (2, pytest.approx(2 / 7)),
        (3, pytest.approx(2 / 7)),
    ]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal 4"
    state.apply_action(0)  # a 1: total 6, not bust (limit 6)
    assert state.current_player() == 0
    state.apply_action(1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal 2"  # no 1 left
    state.apply_action(0)  # a 2: total 8 > 6, bust; seat 0's hand is shown to all
    assert state.current_player() == 1
    assert '"hands":[[1,2,5],[5],null]' in state.information_state_string(1)
    assert '"hands":[[1,2,5],null,[1]]' in state.information_state_string(2)
    state.apply_action(0)  # seat 1 stands on 5
    state.apply_action(0)  # seat 2 stands on 1
    assert state.is_terminal()
    assert state.returns() == [0.0, 1.0, 0.0]


def test_envs_openspiel_tiny_strings_and_tensors_hide_other_hands() -> None:
    game = sos.load(TINY, 2)
    a = game.new_initial_state()
    b = game.new_initial_state()
    for i in (0, 1):  # a: seat 0 gets 1, seat 1 gets 2
        a.apply_action(i)
    for i in (0, 4):  # b: seat 0 gets 1, seat 1 gets 5
        b.apply_action(i)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0) == "* seat 0: 1\n  seat 1: ?\ndeck: 8"
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_tensor(0) == a.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.observation_tensor(1) != b.observation_tensor(1)
    # Public observation: the spectator's view, no private card at all.
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    assert public.string_from(a, 0) == "* seat 0: ?\n  seat 1: ?\ndeck: 8"


def test_envs_openspiel_tiny_serialization_round_trip() -> None:
    game = sos.load(TINY, 3)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(7):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.septet_state.to_json() == state.septet_state.to_json()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state2) == str(state)  # the clone is independent


def test_envs_openspiel_errors() -> None:
    with pytest.raises(ValueError, match="2 to 4 players, not 9"):
        sos.load(TINY, 9)
    with pytest.raises(ValueError, match=r"limit must be 5\.\.9"):
        sos.load(TINY, 2, limit=4)
    with pytest.raises(Exception, match="unknown game"):
        sos.load("no-such-game", 2)
    assert sos.short_name("double-seven") == "septet_double_seven"
    assert sos.register(TINY) == "septet_envs_tiny"
    assert "septet_envs_tiny" in pyspiel.registered_names()
