"""The risk bot (``risk:p=0.26``): hand-worked positions; its compiled twin at every decision."""

from __future__ import annotations

import random

import numpy as np
import pytest

from septet.bots import AgentSpecError, make_agent
from septet.core.play import seat_view
from septet.games import get
from septet.games.flip7.actions import HIT, STAY, dealer_action, draw_action

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from septet.fast import flip7 as F
from septet.fast import kernel_for


def _position(draws: list[int]) -> object:
    """Classic, 2 players, dealer 0: seat 1 dealt 12, seat 0 dealt 5 (F7V-3.3); then seat 1
    and seat 0 alternate, seat 1 hitting and drawing ``draws`` in turn, seat 0 hitting on 3."""
    game = get("flip7", edition="classic")
    s = game.new_state(2)
    s.apply(dealer_action(0))
    s.apply(draw_action(12))
    s.apply(draw_action(5))
    for i, k in enumerate(draws):
        assert s.current_player == 1
        s.apply(HIT)
        s.apply(draw_action(k))
        assert s.current_player == 0
        if i == 0:
            s.apply(HIT)
            s.apply(draw_action(3))
        else:
            s.apply(STAY)
    return s


def test_hand_worked_bust_chances() -> None:
    # F7V-2: a duplicate value busts. Seat 1 holds 12 11; cards seen 12 5 11 3: 90 left, the
    # 11 other 12s and 10 other 11s bust: 21/90 = 0.233 <= 0.26, hit.
    s = _position([11])
    agent = make_agent("risk:p=0.26", s.game)
    view = seat_view(s, 1)
    assert agent.bust_probability(view) == 21 / 90
    assert agent.act(view, s.legal_actions(), random.Random(0)) == HIT
    # then 10: 12 11 10 with 89 left, 11 + 10 + 9 bust: 30/89 = 0.337, stay; p=0.34 hits
    s = _position([11, 10])
    view = seat_view(s, 1)
    assert agent.bust_probability(view) == 30 / 89
    assert agent.act(view, s.legal_actions(), random.Random(0)) == STAY
    bolder = make_agent("risk:p=0.34", s.game)
    assert bolder.act(view, s.legal_actions(), random.Random(0)) == HIT
    # the compiled twin reads the same position
    k = kernel_for(s.game)
    arr = k.encode(s)
    assert F.bust_probability(arr, 1) == 30 / 89
    legal = np.zeros(8, dtype=np.int64)
    cnt = k.legal_actions(arr, legal)
    params = F.greedy_params({"p": "0.26"})
    assert F.risk_action(arr, legal, cnt, params) == s.game.action_to_id(STAY, 2)
    params = F.greedy_params({"p": "0.34"})
    assert F.risk_action(arr, legal, cnt, params) == s.game.action_to_id(HIT, 2)


def test_specs() -> None:
    flip7 = get("flip7")
    assert make_agent("risk", flip7).p == 0.26
    assert make_agent("risk:p=0.5", flip7).name == "risk:p=0.5"
    with pytest.raises(AgentSpecError):
        make_agent("risk", get("double-seven"))
    with pytest.raises(AgentSpecError):
        make_agent("risk:p=1.5", flip7)


@pytest.mark.parametrize(
    ("options", "players"),
    [({"edition": "classic"}, 2), ({"edition": "classic"}, 4), ({}, 3), ({"brutal": True}, 4)],
)
def test_compiled_risk_twins_the_bot(options: dict[str, object], players: int) -> None:
    # At every player decision of whole games played by the Python risk bots (chance drawn by
    # the engine), the compiled risk_action on the encoded position chooses the same action.
    game = get("flip7", **options)
    k = kernel_for(game, {"p": "0.26"})
    agent = make_agent("risk:p=0.26", game)
    rng = random.Random(11)
    legal = np.zeros(F.max_actions(players) + 8, dtype=np.int64)
    decisions = hit_stay = 0
    for _ in range(12):
        s = game.new_state(players)
        while not s.is_terminal:
            if s.current_player < 0:
                s.apply(s.sample_chance(rng))
                continue
            acts = s.legal_actions()
            choice = agent.act(seat_view(s, s.current_player), acts, rng)
            arr = k.encode(s)
            cnt = k.legal_actions(arr, legal)
            mine = int(F.risk_action(arr, legal, cnt, k.params))
            assert game.id_to_action(mine, players) == choice
            if len(acts) > 1:
                decisions += 1
                hit_stay += int(s.state_dict()["decision"]["kind"] == "hit_stay")
            s.apply(choice)
    assert decisions > 100 and decisions > hit_stay > 0
    if not options.get("edition"):
        assert decisions > hit_stay  # Vengeance: target decisions were the greedy's


def test_risk_plays_in_the_arena_kernels() -> None:
    from septet.arena.runner import fast_engine_problem

    flip7 = get("flip7", edition="classic")
    assert fast_engine_problem(flip7, ["risk:p=0.26", "greedy"]) is None
    assert fast_engine_problem(flip7, ["risk:p=0.2", "risk:p=0.3"]) is not None
    assert fast_engine_problem(get("seven-shot"), ["risk", "greedy"]) is not None
