"""The epsilon-greedy bot (the server's Easy level): greedy's move with probability
1 - epsilon, a uniform random legal move otherwise."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from septet import games
from septet.bots import AgentSpecError, make_agent
from septet.core.play import seat_view


def _position() -> tuple[object, list[object], object]:
    game = games.get("flip7")
    state = game.new_state(2)
    rng = random.Random(3)
    while state.current_player < 0 or len(state.legal_actions()) < 2:
        if state.is_chance_node:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(state.legal_actions()[0])
    return game, state.legal_actions(), seat_view(state, state.current_player)


def test_epsilon_zero_is_greedy_and_one_is_uniform() -> None:
    game, legal, view = _position()
    greedy = make_agent("greedy", game)  # type: ignore[arg-type]
    never = make_agent("epsilon-greedy:epsilon=0", game)  # type: ignore[arg-type]
    for seed in range(20):
        want = greedy.act(view, legal, random.Random(seed))  # type: ignore[arg-type]
        assert never.act(view, legal, random.Random(seed)) == want  # type: ignore[arg-type]
    always = make_agent("epsilon-greedy:epsilon=1", game)  # type: ignore[arg-type]
    picks = Counter(str(always.act(view, legal, random.Random(s))) for s in range(2000))  # type: ignore[arg-type]
    assert set(picks) == {str(a) for a in legal}
    assert all(abs(n / 2000 - 1 / len(legal)) < 0.05 for n in picks.values())


def test_epsilon_greedy_mixes_at_the_given_rate() -> None:
    game, legal, view = _position()
    greedy = make_agent("greedy", game)  # type: ignore[arg-type]
    best = greedy.act(view, legal, random.Random(0))  # type: ignore[arg-type]
    agent = make_agent("epsilon-greedy:epsilon=0.3", game)  # type: ignore[arg-type]
    other = sum(agent.act(view, legal, random.Random(s)) != best for s in range(4000))  # type: ignore[arg-type]
    # a random move differs from greedy's with probability 0.3 * (1 - 1/len(legal))
    expected = 0.3 * (1 - 1 / len(legal))
    assert abs(other / 4000 - expected) < 0.03


def test_epsilon_greedy_bad_specs() -> None:
    game = games.get("flip7")
    with pytest.raises(AgentSpecError, match="epsilon"):
        make_agent("epsilon-greedy:epsilon=1.5", game)
    from tests.server import server_tiny  # noqa: F401  (a game without a greedy bot)

    with pytest.raises(AgentSpecError, match="no greedy bot"):
        make_agent("epsilon-greedy", games.get("tiny-sevens"))
