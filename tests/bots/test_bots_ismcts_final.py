"""ISMCTS options of issue 30: the move played by mean value (``final=value``) and Seven Shot's
tuned rollout policy (``rollout=tuned``)."""

from __future__ import annotations

import random

import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.greedy.seven_shot import TunedGreedyAgent
from septet.bots.ismcts import ISMCTSAgent, _final_move, _Node
from septet.core.types import CHANCE
from septet.games import get


def _root(stats: dict[str, tuple[int, float]]) -> _Node:
    root = _Node(CHANCE)
    for action, (visits, mean) in stats.items():
        child = _Node(0)
        child.visits, child.reward = visits, mean * visits
        root.children[action] = child
    return root


def test_final_move_by_visits_or_by_value_worked_by_hand() -> None:
    # a: 100 visits, mean 0.50; b: 60, 0.58; c: 9, 0.90 (under a tenth of a's 100 visits)
    root = _root({"a": (100, 0.50), "b": (60, 0.58), "c": (9, 0.90)})
    legal = ["a", "b", "c"]
    assert _final_move(root, legal, by_value=False) == "a"  # the most visited
    assert _final_move(root, legal, by_value=True) == "b"  # c has too few visits to count
    root = _root({"a": (100, 0.50), "b": (60, 0.58), "c": (10, 0.90)})
    assert _final_move(root, legal, by_value=True) == "c"  # exactly a tenth counts
    assert _final_move(_root({}), legal, by_value=True) == "a"  # nothing searched


def test_final_and_tuned_rollout_specs() -> None:
    game = get("seven-shot")
    agent = make_agent("ismcts:iterations=50,final=value,rollout=tuned,engine=python", game)
    assert isinstance(agent, ISMCTSAgent)
    assert agent.final == "value" and agent.rollout == "tuned"
    assert isinstance(agent._policy, TunedGreedyAgent)
    state = game.new_state(3)
    rng = random.Random(1)
    while state.current_player < 0:
        state.apply(state.sample_chance(rng))
    seat = state.current_player
    legal = state.legal_actions()
    assert agent.act(state.view(seat), legal, rng) in legal


@pytest.mark.parametrize(
    ("game", "spec", "message"),
    [
        ("seven-shot", "ismcts:final=best", "final"),
        ("flip7", "ismcts:rollout=tuned", "tuned"),
        ("double-seven", "ismcts:rollout=tuned", "tuned"),
        ("seven-shot", "ismcts:rollout=smart", "rollout"),
    ],
)
def test_bad_final_or_rollout(game: str, spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, get(game))
