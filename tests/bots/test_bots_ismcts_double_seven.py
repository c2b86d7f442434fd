"""ISMCTS on a hand-built Double Seven position: the expansion that completes a seventh tile,
takes the second 7 token and with it the 77 token, and so wins the game (issue 6)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable

import pytest

from septet.bots.ismcts import ISMCTSAgent
from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state
from septet.games.double_seven.state import DoubleSevenState

WINNING = "expand fox6 with fox1"
ALTERNATIVES = ["pass", "exchange fox6 with 1:deer6", "two-for-one fox swan"]

# The position (2 players, options: double_seven="second_token", two-for-one on).
# Seat 0 is in its action phase (DS-5), its draws done.
#
#   seat 0: families bird7, fox6; one 7 token (from the birds); rack fox, swan.  14 points.
#   seat 1: families rabbit8, deer6; one 7 token; rack 2 tiles, one of them a deer everyone
#           knows about (taken face up earlier); the other is hidden.            15 points.
#   reserve: a frog face up in the display and 1 tile face down in the pile. The tiles seat 0
#           cannot see are a squirrel and a butterfly (seat 1's hidden tile and the pile tile,
#           in some order); every other tile is out of the game.
#
# Seat 0's legal actions: pass, expand fox6 with the fox, exchange fox6 for seat 1's deer6
# (DS-5.4, equal sizes), two-for-one fox + swan (DS-5.6). No start (DS-5.1 needs 2 tiles of one
# animal), no retrieval (DS-5.5: no clover on the table).
#
# Expanding (the move): fox6 -> fox7 earns a 7 token (DS-5.3 Seven!), seat 0's second, so seat 0
# also takes the 77 token (DS-5.3 Double Seven!, ruling "second_token") and triggers the end
# (DS-7.1). Seat 0 scores 7 + 7 + 2 + 2 = 18 (DS-8.1) and has no more turns; seat 1 plays one
# last turn (DS-7.2): it draws the 2 reserve tiles (DS-4.1) and can add at most its deer (deer7,
# +1 tile and a 7 token, but the 77 token is gone); frog, squirrel and butterfly are three
# different animals without a clover, so they start nothing (DS-5.1) and expand nothing. Seat 1
# ends with at most 15 + 2 = 17 < 18: seat 0 wins whatever happens (DS-8.2).
#
# Every alternative loses against seat 1's best play:
# - pass: seat 1 takes the frog and the pile tile, which empties the reserve and triggers the
#   end (DS-7.1), then expands deer6 with its deer: its second 7 token and the 77 token.
#   19 points. Seat 0's final turn has nothing to draw (DS-7.2): fox7 and a 7 token, 16 points.
# - exchange fox6 for deer6: seat 1 swaps them back at once (its own exchange, DS-5.4) and plays
#   as after a pass.
# - two-for-one fox + swan: the fox is gone; seat 1 expands deer6 with its deer and takes the 77
#   token; seat 0 cannot catch up (fox7 at best, if the fox is still in the display).


def _position() -> DoubleSevenState:
    return build_state(
        2,
        racks=["fox swan", "deer squirrel"],
        known=["", "deer"],
        families=[["bird7", "fox6"], ["rabbit8", "deer6"]],
        display="frog",
        pile="butterfly",
        sevens=[1, 1],
        phase="actions",
        game=DoubleSeven(double_seven="second_token"),
    )


def step(state: DoubleSevenState, text: str) -> None:
    state.apply(state.game.parse_action(state, text))


def legal(state: DoubleSevenState) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


def _key(state: DoubleSevenState) -> str:
    data = state.state_dict()
    data.pop("log")
    return json.dumps(data, sort_keys=True)


def _wins(
    state: DoubleSevenState,
    seat: int,
    luck: Callable[[Iterable[object]], bool],
    memo: dict[str, bool],
) -> bool:
    """Whether ``seat`` wins against the other seat's best play, with chance outcomes chosen by
    ``luck`` (``all``: whatever the draws, ``any``: with the best draws); full game tree."""
    if state.is_terminal:
        return seat in state.winners()
    key = _key(state)
    if key in memo:
        return memo[key]
    player = state.current_player
    moves = [o for o, _ in state.chance_outcomes()] if player < 0 else state.legal_actions()
    results = []
    for move in moves:
        child = state.clone()
        child.apply(move)
        results.append(_wins(child, seat, luck, memo))
    # chance: ``luck``; seat: its best action; the other seat: its best reply
    pick = luck if player < 0 else any if player == seat else all
    value = pick(results)
    memo[key] = value
    return value


def test_the_position() -> None:
    state = _position()
    assert state.current_player == 0
    assert state.scores() == [14.0, 15.0]
    assert legal(state) == sorted([WINNING, *ALTERNATIVES])
    # DS-5.3 / DS-7.1: the expansion takes a 7 token, then the 77 token, and triggers the end.
    step(state, WINNING)
    assert state.sevens == [2, 1] and state.holder77 == 0 and state.trigger == 0
    assert state.scores() == [18.0, 15.0]  # DS-8.1: 7 + 7 + 2 + 2
    # DS-7.2: seat 1 plays its last turn with everything it can: the deer makes deer7 (+1 tile,
    # +1 token; DS-5.3), the other tiles place nothing; the game ends, seat 0 wins (DS-8.2).
    step(state, "pass")
    assert state.current_player == 1
    for text in ("take frog", "pile butterfly", "expand deer6 with deer1", "pass"):
        step(state, text)
    assert state.is_terminal
    assert state.scores() == [18.0, 17.0] and state.winners() == [0]


def test_passing_lets_seat_1_take_the_77_token() -> None:
    state = _position()
    step(state, "pass")
    # seat 1 draws the last 2 tiles (DS-7.1 end trigger) and takes the 77 token (DS-5.3)
    for text in ("take frog", "pile butterfly", "expand deer6 with deer1"):
        step(state, text)
    assert state.holder77 == 1 and state.trigger == 1
    step(state, "pass")
    # DS-7.2: seat 0's last turn draws nothing; its best is fox7 and a second 7 token.
    assert state.current_player == 0 and state.view(0)["phase"] == "actions"
    step(state, WINNING)
    assert state.sevens == [2, 2] and state.holder77 == 1
    step(state, "pass")
    assert state.is_terminal
    assert state.scores() == [16.0, 19.0] and state.winners() == [1]


@pytest.mark.parametrize("k", range(4))
def test_only_the_expansion_wins_by_force(k: int) -> None:
    # Exhaustive search of the rest of the game in determinizations of seat 0's view: the
    # expansion wins against any reply and any draw; every alternative loses to seat 1's best
    # reply even with the best draws for seat 0.
    state = _position()
    game = state.game
    det = game.sample_state(state.view(0), random.Random(k))
    assert legal(det) == legal(state)
    verdict = {}
    for action in det.legal_actions():
        child = det.clone()
        child.apply(action)
        luck = all if str(action) == WINNING else any
        verdict[str(action)] = _wins(child, 0, luck, {})
    assert verdict == {WINNING: True} | dict.fromkeys(ALTERNATIVES, False)


@pytest.mark.parametrize(("rollout", "seed"), [("random", 0), ("random", 1), ("greedy", 2)])
def test_ismcts_makes_the_double_seven(rollout: str, seed: int) -> None:
    state = _position()
    game = state.game
    agent = ISMCTSAgent(game, iterations=200, rollout=rollout)
    action = agent.act(state.view(0), state.legal_actions(), random.Random(seed))
    assert str(action) == WINNING
    values = agent.action_values()
    assert set(values) == {WINNING, *ALTERNATIVES}
    best_mean = values[WINNING][1]
    assert best_mean == 1.0  # every playout after it is a win (see the comment above)
    assert all(values[a][1] < best_mean for a in ALTERNATIVES)
