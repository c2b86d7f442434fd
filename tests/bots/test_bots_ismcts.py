"""ISMCTS on a tiny hidden-card trick game (tests/bots/bots_toy.py): legality, the forced win,
the obvious best move under hidden cards, determinism, and the spec parameters."""

from __future__ import annotations

import functools
import random

import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.ismcts import ISMCTSAgent, SearchError, observation_key
from septet.core.game import State
from septet.core.play import play_game
from septet.core.testkit import check_game
from septet.core.types import Event
from tests.bots.bots_toy import Play, ToyState, ToyTricks, position


def test_toy_game_passes_the_kit() -> None:
    for n in (2, 3):
        report = check_game(ToyTricks(deck=9, hand=2, refill=True), n, num_games=10, seed=1)
        assert report.games == 10


@pytest.mark.parametrize("num_players", [2, 3])
def test_ismcts_plays_only_legal_actions(num_players: int) -> None:
    game = ToyTricks(deck=10, hand=2, refill=True)
    for seed in range(6):
        agents = [make_agent("ismcts:iterations=25", game) for _ in range(num_players)]
        result = play_game(game, agents, seed=seed)  # raises on an illegal action
        assert result.state.is_terminal


def _solve(state: State) -> float:
    """Exact value for seat 0 of a 2-player perfect-information toy position (no stock)."""
    if state.is_terminal:
        return state.returns()[0]
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        values.append(_solve(child))
    return max(values) if state.current_player == 0 else min(values)


def test_ismcts_finds_the_forced_win() -> None:
    # Every card is known by elimination (deck 6 = both hands). Seat 0 holds 6, 3, 2 against
    # 5, 4, 1 and leads the first of three tricks: leading the 6 loses (1 is thrown under it and
    # 5, 4 take the rest); leading the 3 or the 2 wins two tricks.
    game = ToyTricks(deck=6, hand=3)
    state = position(game, [[6, 3, 2], [5, 4, 1]], [], [], [0, 0], 0)
    wins = set()
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        if _solve(child) == 1.0:
            wins.add(a)
    assert wins == {Play(2), Play(3)}
    agent = ISMCTSAgent(game, iterations=400)
    for seed in range(3):
        action = agent.act(state.view(0), state.legal_actions(), random.Random(seed))
        assert action in wins


def test_ismcts_takes_the_trick_it_needs_under_hidden_cards() -> None:
    # Deck 1..7, three tricks. Seat 0 won trick 1 (7 over 3) and led the 5. Seat 1 holds 6 and 2;
    # seat 0's last card is 1 or 4 (hidden). Following with the 2 loses at once (0-2); the 6
    # wins this trick and then the 2 wins the last trick if seat 0 holds the 1: half the deals.
    game = ToyTricks(deck=7, hand=3)
    state = position(game, [[4], [6, 2]], [7, 3, 5], [(0, 5)], [1, 0], 1)
    agent = ISMCTSAgent(game, iterations=300)
    root_seen = agent.act(state.view(1), state.legal_actions(), random.Random(0))
    assert root_seen == Play(6)
    values = agent.action_values()
    assert values["p2"][1] == 0.0
    assert 0.3 < values["p6"][1] < 0.7  # about 1/2: seat 0 holds the 4 in half the samples


def test_ismcts_is_deterministic_for_a_seed() -> None:
    game = ToyTricks(deck=10, hand=3, refill=True)
    records = []
    for _ in range(2):
        agents = [make_agent("ismcts:iterations=40", game) for _ in range(3)]
        records.append([str(a) for a in play_game(game, agents, seed=11).state.history])
    assert records[0] == records[1]
    # the seed parameter fixes the search whatever rng the caller passes
    state = position(game, [[10, 4, 2], [9, 5, 1], [8, 7, 3]], [], [], [0, 0, 0], 0)
    a = make_agent("ismcts:iterations=60,seed=5", game)
    b = make_agent("ismcts:iterations=60,seed=5", game)
    assert a.act(state.view(0), state.legal_actions(), random.Random(1)) == b.act(
        state.view(0), state.legal_actions(), random.Random(2)
    )
    assert isinstance(a, ISMCTSAgent) and isinstance(b, ISMCTSAgent)
    assert a.action_values() == b.action_values()


def test_ismcts_time_budget_and_single_action() -> None:
    game = ToyTricks(deck=10, hand=3)
    state = position(game, [[10, 4, 2], [9, 5, 1], [8, 7, 3]], [], [], [0, 0, 0], 0)
    agent = ISMCTSAgent(game, time=0.05)
    agent.act(state.view(0), state.legal_actions(), random.Random(0))
    assert agent.last_iterations >= 1
    # one legal action: no search at all
    assert agent.act(state.view(0), [Play(10)], random.Random(0)) == Play(10)
    assert agent.last_iterations == 0


def test_ismcts_chance_branches_on_what_the_seat_observes() -> None:
    # a private card is keyed only by the seat that sees it
    private = [Event("dealt", 1), Event("card", 1, {"card": 5}, visible_to=frozenset({1}))]
    other = [Event("dealt", 1), Event("card", 1, {"card": 6}, visible_to=frozenset({1}))]
    assert observation_key(private, 0) == observation_key(other, 0)
    assert observation_key(private, 1) != observation_key(other, 1)
    game = ToyTricks(deck=9, hand=2, refill=True)
    for mode in ("observed", "outcome", "open"):
        agents = [make_agent(f"ismcts:iterations=20,chance={mode}", game) for _ in range(2)]
        assert play_game(game, agents, seed=3).state.is_terminal


def test_ismcts_spec_errors() -> None:
    game = ToyTricks()
    with pytest.raises(AgentSpecError, match="unknown ismcts parameter"):
        make_agent("ismcts:width=3", game)
    with pytest.raises(AgentSpecError, match="iterations"):
        make_agent("ismcts:iterations=0", game)
    with pytest.raises(AgentSpecError, match="rollout"):
        make_agent("ismcts:rollout=smart", game)
    with pytest.raises(AgentSpecError, match="time"):
        make_agent("ismcts:time=-1", game)
    agent = make_agent("ismcts:time=0.5,c=1.2", game)
    assert isinstance(agent, ISMCTSAgent)
    assert agent.time_limit == 0.5 and agent.c == 1.2 and agent.iterations is None
    assert agent.name == "ismcts:time=0.5,c=1.2"


def test_ismcts_needs_sample_state() -> None:
    class NoSampler(ToyTricks):
        name = "toy-no-sampler"

        sample_state = functools.partialmethod(  # type: ignore[assignment]
            lambda self, view, rng: (_ for _ in ()).throw(NotImplementedError("toy-no-sampler"))
        )

    game = NoSampler(deck=6, hand=3)
    state: ToyState = position(game, [[6, 3, 2], [5, 4, 1]], [], [], [0, 0], 0)
    with pytest.raises(SearchError, match="toy-no-sampler"):
        ISMCTSAgent(game, iterations=5).act(state.view(0), state.legal_actions(), random.Random())


def test_ismcts_depth_cuts_rollouts_and_scores_them_by_score() -> None:
    # Seat 1 must take the trick with the 6 (see the hidden-card test); with rollouts cut after
    # one step the scores decide (cut_utilities): p6 stands at 1-1 tricks, p2 trails 0-2.
    game = ToyTricks(deck=7, hand=3)
    state = position(game, [[4], [6, 2]], [7, 3, 5], [(0, 5)], [1, 0], 1)
    agent = make_agent("ismcts:iterations=100,depth=1", game)
    assert isinstance(agent, ISMCTSAgent) and agent.depth == 1
    assert agent.act(state.view(1), state.legal_actions(), random.Random(0)) == Play(6)
    with pytest.raises(AgentSpecError, match="depth"):
        make_agent("ismcts:depth=0", game)
