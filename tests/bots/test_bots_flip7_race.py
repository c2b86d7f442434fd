"""The race objective of flip7-ev: the programme under a utility of the round score, the
win-probability estimate of the race to 200 (F7V-3.7), and the agent that uses them."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.flip7_ev import EVSolver, Flip7EVAgent, pool_from_counts, row_from_tokens
from septet.bots.flip7_race import (
    MAX_ROUND_SCORE,
    race_is_on,
    round_score_distribution,
    win_utility,
)
from septet.core.play import play_game
from septet.games import get


def _seat(
    total: int, round_score: int = 0, status: str = "active", row: Any = ()
) -> dict[str, Any]:
    return {"row": list(row), "status": status, "total": total, "round_score": round_score}


def _view(*players: dict[str, Any], edition: str = "vengeance") -> dict[str, Any]:
    return {"edition": edition, "target": 200, "decision": {"player": 0}, "players": list(players)}


def test_identity_utility_gives_the_round_score_values() -> None:
    # A utility u[s] = s is the round-score objective itself.
    pool = pool_from_counts({"1": 2, "2": 1, "5": 2, "9": 1, "x2": 1, "+4": 1, "second": 1})
    for tokens in ([], ["9"], ["5", "2"], ["9", "x2"]):
        row = row_from_tokens(tokens, "classic")
        plain = EVSolver("classic", "single")
        same = EVSolver("classic", "single", utility=range(MAX_ROUND_SCORE + 1))
        assert same.value(row, pool) == pytest.approx(plain.value(row, pool))
        assert same.hit_value(row, pool) == pytest.approx(plain.hit_value(row, pool))


def test_step_utility_hits_for_the_points_it_needs() -> None:
    # Row 12 10 3 = 25 (classic), deck {5, 12}: a hit draws the 5 (30 points, then the 12 would
    # bust, so stay) or the 12 (bust), each 1/2. Round score: hit 15 < stay 25. Needing 30
    # (utility 1 at 30 or more): stay 0 < hit 1/2.
    row = row_from_tokens(["12", "10", "3"], "classic")
    pool = pool_from_counts({"5": 1, "12": 1})
    plain = EVSolver("classic", "single")
    assert plain.hit_value(row, pool) == 15 and plain.value(row, pool) == 25
    need30 = EVSolver("classic", "single", utility=[1.0 if s >= 30 else 0.0 for s in range(60)])
    assert need30.payoff(row) == 0
    assert need30.hit_value(row, pool) == 0.5 and need30.value(row, pool) == 0.5


def test_utility_is_relative_to_a_bust() -> None:
    solver = EVSolver("classic", "single", utility=[0.3 + 0.01 * s for s in range(100)])
    row = row_from_tokens(["4", "6"], "classic")
    assert solver.payoff(row) == pytest.approx(0.10)
    assert solver.utility is not None and solver.utility[0] == 0
    with pytest.raises(ValueError, match="exact"):
        EVSolver("classic", "single", exact=True, utility=[0.0, 1.0])


def test_round_score_distributions() -> None:
    for edition in ("classic", "vengeance"):
        for n in (2, 3, 4, 6):
            dist = round_score_distribution(edition, n)
            assert dist.shape == (MAX_ROUND_SCORE + 1,) and dist.sum() == pytest.approx(1.0)
            assert 0.25 < dist[0] < 0.45  # busts (and the Zero) score 0, F7V-7.1
            assert 15 < float(dist @ np.arange(MAX_ROUND_SCORE + 1)) < 22
    with pytest.raises(ValueError, match="edition"):
        round_score_distribution("deluxe", 2)


def test_win_utility_when_the_other_has_passed_the_target() -> None:
    # F7V-3.7: the other stayed at 170 + 40 = 210. Below 60 points you lose at once; exactly 60
    # ties, so the game plays on; above 60 you lead alone at the target and win.
    u = win_utility(_view(_seat(150), _seat(170, 40, "stayed")))
    assert u.shape == (MAX_ROUND_SCORE + 1,)
    assert np.all(u[:60] == 0) and np.all(u[61:] == 1)
    assert 0.2 < u[60] < 0.8
    assert np.all(np.diff(u) >= 0)


def test_win_utility_when_the_other_is_one_round_away() -> None:
    # The other stayed at 195, short of the target: 50 points put you at 200 ahead (a win);
    # fewer leave a race that the other, 5 points away, most likely wins next round.
    u = win_utility(_view(_seat(150), _seat(195, 0, "stayed")))
    assert np.all(u[50:] == 1)
    assert 0 < u[0] < u[30] < u[49] < 1
    assert u[30] < 0.5


def test_win_utility_shared_lead_plays_on() -> None:
    # Two others tied at 205: nobody leads alone, so the game goes on even if you score 0
    # (F7V-3.7 ruling); 106 points put you alone at the top.
    u = win_utility(_view(_seat(100), _seat(180, 25, "stayed"), _seat(190, 15, "stayed")))
    assert 0 < u[0] < 0.2
    assert np.all(u[106:] == 1) and u[104] < 1


def test_busted_players_score_nothing() -> None:
    # The other busted with 150: after this round it is 150 against your 190 + s.
    u = win_utility(_view(_seat(190), _seat(150, 0, "busted")))
    assert np.all(u[10:] == 1) and 0.5 < u[0] < 1


def test_race_is_on() -> None:
    assert not race_is_on(_view(_seat(100, 30), _seat(120, 10)))
    assert race_is_on(_view(_seat(100, 30), _seat(130, 10)))
    assert race_is_on(_view(_seat(100, 30), _seat(120, 10)), margin=80)


def _real_view() -> dict[str, Any]:
    """A vengeance hit/stay view from a real 2-player game, to edit into positions."""
    game = get("flip7")
    state = game.new_state(2)
    agents = [make_agent("greedy", game)] * 2
    result = play_game(game, agents, seed=3, state=state, max_steps=12)
    view: dict[str, Any] = json.loads(json.dumps(result.state.view(0)))
    return view


def test_race_objective_takes_the_risk_when_the_other_is_about_to_win() -> None:
    # You hold 12 11 10 (33) at 150; the other stayed at 195. For the round, staying on 33 is
    # right (a 10, 11 or 12 busts you, about 3 cards in 10). For the game, 183 against 195
    # loses next round most of the time: hit for the 50 that wins now.
    view = _real_view()
    deck = {k: 0 for k in view["deck"]}
    deck.update({str(v): v for v in range(1, 13)})
    deck.update({"13": 13, "10": 8, "11": 9, "12": 10})
    view.update(deck=deck, deck_size=sum(deck.values()), target=200)
    view["decision"] = {"kind": "hit_stay", "player": 0, "card": None}
    view["players"][0].update(row=["12", "11", "10"], status="active", total=150, round_score=33)
    view["players"][1].update(row=["9", "8", "7", "6"], status="stayed", total=165, round_score=30)
    game = get("flip7")
    round_bot = make_agent("flip7-ev", game)
    race_bot = make_agent("flip7-ev:objective=race", game)
    assert isinstance(round_bot, Flip7EVAgent) and isinstance(race_bot, Flip7EVAgent)
    assert round_bot.race_override(view) is None
    assert round_bot.decide(view) == "stay"
    assert race_bot.decide(view) == "hit"
    assert race_bot.stats["win_utility"] == 1
    # Far from the end the two objectives are the same programme.
    view["players"][1].update(total=20)
    view["players"][0].update(total=20)
    assert race_bot.decide(view) == "stay" and race_bot.stats["win_utility"] == 1


def test_race_agent_plays_whole_games_deterministically() -> None:
    for edition, runs in (("vengeance", 2), ("classic", 1)):
        game = get("flip7", edition=edition)
        histories = []
        for _ in range(runs):
            agents = [make_agent("flip7-ev:objective=race", game), make_agent("greedy", game)]
            result = play_game(game, agents, seed=5)
            assert result.state.is_terminal
            histories.append([str(a) for a in result.state.history])
            assert agents[0].stats["win_utility"] > 0  # type: ignore[attr-defined]
        assert all(h == histories[0] for h in histories)


def test_objective_spec_error() -> None:
    with pytest.raises(AgentSpecError, match="objective"):
        make_agent("flip7-ev:objective=glory", get("flip7"))
