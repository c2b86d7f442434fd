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


def _game_winning_cards(game: object, view: dict, legal: list, seat: int) -> list:
    """The legal cards that end the game with ``seat`` among the winners in every one of 12
    determinizations (the rest of the trick and any forced plays applied)."""
    winning = []
    for action in legal:
        wins = 0
        for k in range(12):
            det = game.sample_state(view, random.Random(k))  # type: ignore[attr-defined]
            det.apply(action)
            for _ in range(10):
                if det.is_terminal or det.current_player < 0 or len(det.legal_actions()) != 1:
                    break
                det.apply(det.legal_actions()[0])
            wins += det.is_terminal and seat in det.winners()
        if wins == 12:
            winning.append(action)
        elif wins:
            return []  # not a clear-cut position
    return winning


def test_ismcts_plays_the_card_that_wins_the_trick_and_the_game() -> None:
    # Seven Shot, 3 players: scan seeded random games for the first position where the seat
    # playing last to a trick has exactly one card that takes the trick and ends the deal and
    # the game with that seat winning, whatever the hidden hands (SS-3.2, SS-4, SS-5.6).
    game = get("seven-shot")
    rng = random.Random(0)
    for _ in range(40):
        state = game.new_state(3)
        while not state.is_terminal:
            seat = state.current_player
            if seat < 0:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            view = state.view(seat)
            if len(legal) >= 3 and view["phase"] == "play" and len(view["trick"]) == 2:
                winning = _game_winning_cards(game, view, legal, seat)
                if len(winning) == 1:
                    agent = ISMCTSAgent(game, iterations=200)
                    assert agent.act(view, legal, random.Random(1)) == winning[0]
                    values = agent.action_values()
                    assert values[str(winning[0])][1] == 1.0
                    return
            state.apply(legal[rng.randrange(len(legal))])
    pytest.fail("no clear-cut position found")
