"""ISMCTS options added for strength on the real engines: the round horizon (and
``State.round_index``), the cut evaluation, the shallow tree, the progressive bias towards
greedy's move, and the score utility."""

from __future__ import annotations

import math
import random

import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.ismcts import ISMCTSAgent, cut_utilities
from septet.core.game import State
from septet.core.play import seat_view
from septet.core.types import CHANCE
from septet.games import get


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class _Scored:
    """Just enough of a State for cut_utilities."""

    def __init__(self, scores: list[float]) -> None:
        self._scores = scores

    def scores(self) -> list[float]:
        return self._scores


def test_cut_utilities_by_hand() -> None:
    # two seats 10 apart at scale 10: +-5 from the mean -> sigmoid(+-0.5)
    u = cut_utilities(_Scored([10.0, 0.0]), 10.0)  # type: ignore[arg-type]
    assert u == pytest.approx([_sig(0.5), _sig(-0.5)]) and u[0] == pytest.approx(0.6224593)
    # Seven Shot teams (seats 0 & 2 share 3 points, 1 & 3 share 5): partners are equal
    u = cut_utilities(_Scored([3.0, 5.0, 3.0, 5.0]), 1.5)  # type: ignore[arg-type]
    assert u[0] == u[2] == pytest.approx(_sig(-1 / 1.5)) and u[1] == u[3] == pytest.approx(
        _sig(1 / 1.5)
    )
    assert cut_utilities(_Scored([7.0, 7.0, 7.0]), 2.0) == [0.5, 0.5, 0.5]  # type: ignore[arg-type]
    # a gap far beyond the scale saturates instead of overflowing math.exp
    u = cut_utilities(_Scored([1000.0, 0.0]), 0.05)  # type: ignore[arg-type]
    assert u[0] == pytest.approx(1.0) and u[1] == pytest.approx(0.0, abs=1e-20)


def _rounds_of_player_steps(start: State, end: State) -> set[int]:
    """The rounds in which the player actions of ``end.history`` after ``start`` were taken
    (replayed from ``start``)."""
    replay = start.clone()
    rounds = set()
    for a in end.history[len(start.history) :]:
        if replay.current_player >= 0:
            rounds.add(replay.round_index())
        replay.apply(a)
    return rounds


def _first_decision(name: str, players: int, seed: int) -> State:
    state = get(name).new_state(players)
    rng = random.Random(seed)
    while state.current_player < 0:
        state.apply(state.sample_chance(rng))
    return state


@pytest.mark.parametrize(("name", "players"), [("flip7", 3), ("seven-shot", 4), ("seven-shot", 3)])
def test_round_horizon_stops_when_the_round_is_scored(name: str, players: int) -> None:
    # F7V-3 rounds and SS-2.1 deals count from 1; a round-horizon rollout ends with the round
    state = _first_decision(name, players, seed=3)
    assert state.round_index() == 1
    agent = ISMCTSAgent(state.game, horizon="round", rollout="greedy")
    for k in range(5):
        rolled = state.clone()
        before = rolled.scores()
        agent._rollout(rolled, random.Random(k), rolled.round_index())
        if rolled.is_terminal:
            continue
        assert rolled.round_index() == 2
        # the round was scored (someone gained points; in Flip 7 all may bust, so >=)
        assert sum(rolled.scores()) >= sum(before)
        if name == "seven-shot":
            assert sum(rolled.scores()) > sum(before)  # SS-4.4: the deal winner scores >= 1
        # and the rollout went no further than the step that ended the round: in Flip 7 the
        # next step is the new round's first deal, in Seven Shot the new deal's shuffle (both
        # chance); no player has acted in round 2
        assert rolled.current_player == CHANCE
        assert _rounds_of_player_steps(state, rolled) == {1}
    # a game of one round keeps index 0
    assert get("double-seven").new_state(2).round_index() == 0


@pytest.mark.parametrize(("name", "players"), [("seven-shot", 4), ("flip7", 3)])
def test_tree_one_keeps_only_the_root_moves(name: str, players: int) -> None:
    # in Flip 7 a hit is followed by a draw (chance): tree=1 keeps no chance node either
    state = _first_decision(name, players, seed=1)
    agent = ISMCTSAgent(state.game, iterations=60, tree=1)
    view = seat_view(state, state.current_player)
    root = agent.search(view, state.legal_actions(), random.Random(0))
    assert sum(ch.visits for ch in root.children.values()) == 60
    assert all(not ch.children and not ch.chance_children for ch in root.children.values())
    deep = ISMCTSAgent(state.game, iterations=60)
    root = deep.search(view, state.legal_actions(), random.Random(0))
    assert any(ch.children or ch.chance_children for ch in root.children.values())


def test_round_horizon_stops_the_tree_walk_too() -> None:
    # Flip 7, 2 players: seat 1 has busted, so seat 0 staying ends the round; with the round
    # horizon the stay child is a leaf (nothing of the next round is stored in the tree)
    from tests.bots.test_bots_engines import _flip7_sure_bust

    state = _flip7_sure_bust((10, 20))
    data = state.state_dict()  # type: ignore[attr-defined]
    data["players"][0]["status"] = "busted"
    state.load_state_dict(data)  # type: ignore[attr-defined]
    legal = state.legal_actions()  # type: ignore[attr-defined]
    game = get("flip7", edition="classic")
    agent = ISMCTSAgent(game, iterations=200, horizon="round")
    root = agent.search(state.view(1), legal, random.Random(0))  # type: ignore[attr-defined]
    stay = root.children[game.action_from_str("stay")]
    assert stay.visits > 0 and not stay.children and not stay.chance_children
    whole = ISMCTSAgent(game, iterations=200)
    root = whole.search(state.view(1), legal, random.Random(0))  # type: ignore[attr-defined]
    stay = root.children[game.action_from_str("stay")]
    assert stay.children or stay.chance_children


def test_progressive_bias_keeps_greedys_move_at_a_small_budget() -> None:
    # Chaslot et al. 2008: the bias w/(n+1) favours greedy's move; with a large w and few
    # iterations the search plays greedy's move in every position, and tries it first
    game = get("double-seven")
    greedy = make_agent("greedy", game)
    rng = random.Random(4)
    state = game.new_state(2)
    checked = 0
    while not state.is_terminal and checked < 6:
        seat = state.current_player
        if seat < 0:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        view = seat_view(state, seat)
        want = greedy.act(view, legal, random.Random(0))
        if len(legal) >= 3:
            agent = ISMCTSAgent(game, iterations=len(legal) + 4, rollout="greedy", bias=100)
            assert agent.act(view, legal, random.Random(checked)) == want
            checked += 1
        state.apply(want)
    assert checked == 6


def test_score_utility_still_stays_on_a_sure_bust() -> None:
    from tests.bots.test_bots_engines import _flip7_sure_bust

    state = _flip7_sure_bust((150, 180))
    view = state.view(1)  # type: ignore[attr-defined]
    legal = state.legal_actions()  # type: ignore[attr-defined]
    game = get("flip7", edition="classic")
    for spec in ("utility=score", "horizon=round", "horizon=round,tree=1,rollout=greedy,bias=1"):
        agent = make_agent(f"ismcts:iterations=120,{spec}", game)
        assert isinstance(agent, ISMCTSAgent)
        assert str(agent.act(view, legal, random.Random(2))) == "stay", spec
        values = agent.action_values()
        assert values["stay"][1] > values["hit"][1]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:horizon=week", "horizon"),
        ("ismcts:utility=fun", "utility"),
        ("ismcts:tree=0", "tree"),
        ("ismcts:bias=-1", "bias"),
        ("ismcts:scale=0", "scale"),
    ],
)
def test_new_spec_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, get("flip7"))
