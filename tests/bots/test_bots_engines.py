"""The generic bots on the real engines: legal moves only, determinism, hand-built positions."""

from __future__ import annotations

import random

import pytest

from septet.bots import make_agent
from septet.bots.flip7_ev import Flip7EVAgent, fresh_pool
from septet.bots.ismcts import ISMCTSAgent
from septet.core.play import play_game
from septet.games import get
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import STAY


@pytest.mark.parametrize(
    ("name", "options", "players", "iterations"),
    [
        ("flip7", {}, 3, 20),
        ("flip7", {"edition": "classic"}, 2, 20),
        ("seven-shot", {}, 3, 10),
        ("seven-shot", {}, 4, 10),
        ("double-seven", {}, 2, 6),
    ],
)
def test_bots_play_only_legal_actions(
    name: str, options: dict[str, str], players: int, iterations: int
) -> None:
    game = get(name, **options)
    specs = [f"ismcts:iterations={iterations}", "random", "greedy", "ismcts:iterations=5"]
    if name == "flip7":
        specs[1] = "flip7-ev"
    agents = [make_agent(specs[i], game) for i in range(players)]
    result = play_game(game, agents, seed=7)  # raises if any agent returns an illegal action
    assert result.state.is_terminal


def test_ismcts_is_deterministic_on_an_engine() -> None:
    game = get("seven-shot")
    runs = []
    for _ in range(2):
        agents = [make_agent("ismcts:iterations=15", game) for _ in range(3)]
        runs.append([str(a) for a in play_game(game, agents, seed=5, max_steps=90).state.history])
    assert runs[0] == runs[1] and len(runs[0]) == 90


def _flip7_sure_bust(totals: tuple[int, int]) -> object:
    """Classic, 2 players. Seat 1 to move with 12 and 11; the deck holds only 12s and 11s, so a
    hit busts for sure (F7V-2). Seat 0 is active with an 8. Every other card is in the discard."""
    game = get("flip7", edition="classic")
    state = game.new_state(2)
    rows = [["8"], ["12", "11"]]
    deck = {C.TOKENS[k]: 0 for k in C.CLASSIC_KINDS}
    deck.update({"12": 3, "11": 2})
    full = fresh_pool("classic")
    discard = {}
    for k in C.CLASSIC_KINDS:
        tok = C.TOKENS[k]
        discard[tok] = full[k] - deck[tok] - sum(r.count(tok) for r in rows)
    data = {
        "game": "flip7",
        "edition": "classic",
        "brutal": False,
        "target": 200,
        "num_players": 2,
        "round": 5,
        "dealer": 0,
        "to_move": 1,
        "decision": {"kind": "hit_stay", "player": 1, "card": None},
        "draw": None,
        "players": [
            {"row": rows[p], "status": "active", "after_bust": [], "total": totals[p]}
            | {"round_score": 0, "numbers": len(rows[p])}
            for p in range(2)
        ],
        "flip7": None,
        "flip7_choice": None,
        "stack": [{"kind": "turn", "next": 1}],
        "deck": deck,
        "deck_size": 5,
        "discard": discard,
        "discard_size": sum(discard.values()),
        "round_draws": 3,
        "round_over": False,
        "last_round": None,
        "winners": [],
    }
    state.load_state_dict(data)
    return state


def test_staying_on_a_sure_bust() -> None:
    state = _flip7_sure_bust((150, 180))
    view = state.view(1)  # type: ignore[attr-defined]
    legal = state.legal_actions()  # type: ignore[attr-defined]
    assert STAY in legal and len(legal) == 2
    game = get("flip7", edition="classic")
    # flip7-ev: the round-score programme says stay (and 180 + 23 >= 200 ahead: race says stay)
    ev = make_agent("flip7-ev", game)
    assert isinstance(ev, Flip7EVAgent)
    assert ev.decide(view) == "stay"
    assert ev.act(view, legal, random.Random(0)) == STAY
    # ISMCTS over determinizations: hitting loses the 23 points that would win the game
    agent = ISMCTSAgent(game, iterations=150)
    assert agent.act(view, legal, random.Random(1)) == STAY
    visits = agent.action_values()
    assert visits["stay"][1] > visits["hit"][1]
