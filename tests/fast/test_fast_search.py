"""The compiled search (septet.fast.search): its determinizations keep everything the seat may
know, sample what it cannot like the engines do, and the agent spec uses it."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numba")

import numpy as np

from septet.bots import make_agent
from septet.bots.ismcts import ISMCTSAgent
from septet.core.play import seat_view
from septet.fast import kernel_for
from septet.fast import seven_shot as SSK
from septet.fast.rng import make_rng
from septet.fast.search import GAME_IDS, determinize
from septet.games import get
from septet.games.seven_shot.cards import names_of


def _positions(name: str, players: int, seed: int, every: int = 7) -> list[Any]:
    """Player-node positions of a few random games (a copy every ``every`` steps)."""
    game = get(name)
    rng = random.Random(seed)
    out = []
    for _ in range(3):
        state = game.new_state(players)
        step = 0
        while not state.is_terminal:
            if state.current_player >= 0 and step % every == 0:
                out.append(state.clone())
            if state.current_player < 0:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            step += 1
    return out


def _decode(state: Any, arr: np.ndarray) -> Any:
    """The engine state of a kernel determinization of ``state``: the hidden fields (racks and
    pile, or hands, choices to pass and undealt cards) taken from ``arr``."""
    game = state.game
    d = state.state_dict()
    n = state.num_players
    if game.name == "double-seven":
        from septet.fast import double_seven as K

        d["pile"] = [int(x) for x in arr[K.O_PILE : K.O_PILE + 9]]
        for p in range(n):
            b = K.O_SEATS + p * K.SEAT
            d["racks"][p] = [int(x) for x in arr[b : b + 9]]
    else:
        for p in range(n):
            b = SSK.O_SEATS + p * SSK.SEAT
            d["hands"][p] = names_of(int(arr[b + SSK.S_HAND]))
            d["pass_sel"][p] = names_of(int(arr[b + SSK.S_PASSSEL]))
        d["undealt"] = names_of(int(arr[SSK.H_UNDEALT]))
    new = game.new_state(n)
    new.load_state_dict(d)  # Double Seven checks that the 91 tiles add up
    return new


@pytest.mark.parametrize(
    ("name", "players"), [("double-seven", 3), ("seven-shot", 4), ("seven-shot", 3)]
)
def test_determinizations_keep_the_information_set(name: str, players: int) -> None:
    # what the seat sees (its view) and its legal actions are unchanged; the rest is resampled
    k = kernel_for(get(name))
    g = GAME_IDS[name]
    rng = make_rng(5)
    changed = 0
    for state in _positions(name, players, seed=2):
        arr = k.encode(state)
        out = np.zeros_like(arr)
        for seat in range(players):
            determinize(g, arr, seat, rng, out)
            det = _decode(state, out)
            assert det.view(seat) == state.view(seat)
            if seat == state.current_player:
                assert det.legal_actions() == state.legal_actions()
            changed += not np.array_equal(out, arr)
    assert changed > 0  # hidden cards really are redealt


def test_seven_shot_determinization_respects_voids_like_the_engine() -> None:
    # SS-3.1: a seat that did not follow suit holds none of it; the kernel's deals are uniform
    # over the consistent ones, like the engine's (frequencies of "seat s holds card c" agree)
    game = get("seven-shot")
    k = kernel_for(game)
    state = None
    for cand in _positions("seven-shot", 4, seed=11, every=3):
        if cand.phase == 3 and sum(1 for v in cand.voids if v) >= 2 and len(cand.tricks) >= 3:
            state = cand
            break
    assert state is not None
    seat = state.current_player
    arr = k.encode(state)
    out = np.zeros_like(arr)
    rng = make_rng(1)
    samples = 1500
    kern = np.zeros((4, 49))
    py = np.zeros((4, 49))
    r = random.Random(1)
    for _ in range(samples):
        determinize(2, arr, seat, rng, out)
        det = state.determinize(seat, r)
        for p in range(4):
            h = int(out[SSK.O_SEATS + p * SSK.SEAT + SSK.S_HAND])
            for c in range(49):
                kern[p, c] += (h >> c) & 1
                py[p, c] += (det.hands[p] >> c) & 1
            for su in range(7):
                if state.voids[p] >> su & 1:
                    assert h & (0x7F << (7 * su)) == 0
    # binomial standard error at 1,500 samples is at most 0.013 per frequency
    assert np.abs(kern / samples - py / samples).max() < 0.07


def test_the_agent_spec_uses_the_compiled_search() -> None:
    game = get("flip7")
    agent = make_agent("ismcts:iterations=300", game)
    assert isinstance(agent, ISMCTSAgent) and agent.engine == "fast"
    assert make_agent("ismcts:iterations=5,engine=python", game).engine == "python"  # type: ignore[attr-defined]
    state = _positions("flip7", 3, seed=4)[2]
    action = agent.act(
        seat_view(state, state.current_player), state.legal_actions(), random.Random(0)
    )
    assert action in state.legal_actions()
    values = agent.action_values()
    assert sum(v for v, _ in values.values()) == 300 == agent.last_iterations
    # the same rng gives the same search
    again = make_agent("ismcts:iterations=300", game)
    again.act(seat_view(state, state.current_player), state.legal_actions(), random.Random(0))
    assert again.action_values() == values  # type: ignore[attr-defined]


def test_the_compiled_search_stays_before_a_sure_bust() -> None:
    # Flip 7 classic, 2 players: seat 1 holds 12 and 11 and the deck holds only 12s and 11s,
    # so a hit busts for sure (F7V-2) and loses the 23 points; the search stays
    from tests.bots.test_bots_engines import _flip7_sure_bust

    state: Any = _flip7_sure_bust((10, 20))
    seat = state.current_player
    agent = make_agent("ismcts:iterations=400", state.game)
    action = agent.act(state.view(seat), state.legal_actions(), random.Random(0))
    assert str(action) == "stay"


def test_engine_fast_without_a_kernel_is_a_clear_error() -> None:
    from tests.bots.bots_toy import ToyTricks

    with pytest.raises(ValueError, match="engine=fast"):
        ISMCTSAgent(ToyTricks(deck=6, hand=2), iterations=5, engine="fast")


@pytest.mark.parametrize(("name", "players"), [("seven-shot", 3), ("double-seven", 2)])
def test_root_parallel_search_adds_up_the_single_searches(name: str, players: int) -> None:
    # Root parallelisation (Chaslot et al. 2008): threads=2 runs the searches of seeds s and
    # s + 1 at once; the root's statistics are their sums, and each tree is the one a single
    # search of that seed grows (the threads share nothing).
    from septet.fast.search import search, search_trees

    state = _positions(name, players, seed=9)[3]
    kernel = kernel_for(state.game)
    arr = kernel.encode(state)
    settings: dict[str, Any] = dict(
        game_name=name, root=arr, seat=state.current_player, iterations=300, time_limit=None,
        seed=41, c=0.7, scale=1.5, bias=0.0, chance="observed", rollout="greedy",
        horizon_round=True, depth=None, tree_limit=None, utility="win", prior=-1,
        greedy_params=kernel.params, players=players,
    )  # fmt: skip
    trees, done = search_trees(2, **settings)
    assert done == 600 and len(trees) == 2
    for i, tree in enumerate(trees):
        alone, n_alone = search(**{**settings, "seed": 41 + i})
        assert n_alone == 300
        assert tree.children(0) == alone.children(0)
        kids = list(tree.children(0).values())
        assert np.array_equal(tree.visits[kids], alone.visits[kids])
        assert np.allclose(tree.reward[kids], alone.reward[kids])
    # The agent adds the roots up: every iteration of either tree visits one root child.
    agent = make_agent("ismcts:iterations=300,threads=2,rollout=greedy", state.game)
    agent.act(seat_view(state, state.current_player), state.legal_actions(), random.Random(2))
    values = agent.action_values()  # type: ignore[attr-defined]
    assert agent.last_iterations == 600  # type: ignore[attr-defined]
    assert sum(v for v, _ in values.values()) == 600
    with pytest.raises(ValueError):
        search_trees(0, **settings)


def test_threads_need_the_compiled_search() -> None:
    from septet.bots import AgentSpecError

    with pytest.raises(AgentSpecError, match="threads"):
        make_agent("ismcts:iterations=5,engine=python,threads=2", get("seven-shot"))
