"""The greedy Seven Shot bot: sensible choices in hand-built positions, legal play throughout."""

from __future__ import annotations

import random

from ss_helpers import SEVEN_TRICKS_HANDS, SEVEN_TRICKS_PLAYS, fill_hands, game, play

from septet.bots import make_agent
from septet.bots.greedy.seven_shot import GreedyAgent
from septet.core.game import Action
from septet.core.play import play_game
from septet.games.seven_shot.actions import Pass, Play
from septet.games.seven_shot.cards import SEVEN_MASK, parse_card
from septet.games.seven_shot.state import SevenShotState


def _choose(state: SevenShotState) -> Action:
    seat = state.current_player
    return GreedyAgent(state.game).act(state.view(seat), state.legal_actions(), random.Random(0))


def _three_player_m_deal() -> SevenShotState:
    hands = fill_hands(
        3, [["M7", "M3"], ["M8", "M2"], ["M4", "M5", "M6"]], "E13", voids={0: "M", 1: "M"}
    )
    return game(pass_cards=0).deal_state(hands, "E13", first_leader=0)


def test_wins_a_trick_holding_a_seven() -> None:
    # M7 led; seat 1 holds M8 (the top Moon) and M2: it takes the 7.
    state = _three_player_m_deal()
    play(state, "M7")
    assert _choose(state) == Play(parse_card("M8"))


def test_ducks_a_trick_without_sevens() -> None:
    state = _three_player_m_deal()
    play(state, "M3")
    assert _choose(state) == Play(parse_card("M2"))


def test_drops_a_seven_on_the_partners_sure_trick() -> None:
    # Seat 0 leads W10 (the top Water); seat 2, its partner, holds W7 and W4 and drops the 7.
    hands = fill_hands(
        4,
        [["W10"], ["W5"], ["W7", "W4"], ["W6", "W8", "W9"]],
        "E13",
        voids={0: "W", 1: "W", 2: "W"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13", first_leader=0)
    play(state, "W10 W5")
    assert _choose(state) == Play(parse_card("W7"))


def test_avoids_the_seventh_trick() -> None:
    # SS-4.2: team B has won 6 tricks and leads; G12 (the top trump) would win the 7th and lose
    # the deal, so the bot leads a card that others can beat.
    state = game(pass_cards=0).deal_state(SEVEN_TRICKS_HANDS, "G7", first_leader=1)
    play(state, SEVEN_TRICKS_PLAYS[: -len("  G12 G6 G8 G9")])
    assert state.view(1)["side_tricks"] == [0, 6]
    choice = _choose(state)
    assert isinstance(choice, Play)
    assert choice.card not in (parse_card("G12"), parse_card("S1"), parse_card("G10"))
    assert not SEVEN_MASK >> choice.card & 1


def test_passes_neither_the_ace_nor_sevens_to_an_opponent() -> None:
    # SS-5.2: three players pass to the left neighbour, an opponent.
    hands = fill_hands(3, [["S1", "S7", "M7", "E7"]], "G12")
    state = game().deal_state(hands, "G12")
    kept = {parse_card(c) for c in ("S1", "S7", "M7", "E7")}
    for _ in range(3):
        a = _choose(state)
        assert isinstance(a, Pass) and a.card not in kept
        state.apply(a)


def test_plays_whole_games_legally_and_beats_random() -> None:
    g = game()
    wins = 0
    for i in range(12):
        names = ["greedy", "random", "random"]
        r = i % 3
        names = names[r:] + names[:r]
        result = play_game(g, [make_agent(x, g) for x in names], seed=i)
        wins += any(names[w] == "greedy" for w in result.winners)
    # A third would be chance; the bot wins about 90% of such games against two random players.
    assert wins >= 7


def test_trumps_in_to_take_a_seven() -> None:
    # Trump Earth; M7 led; seat 1 has no Moon: it trumps (rather than throw a plain card away).
    hands = fill_hands(
        3,
        [["M7", "M2"], ["E8", "E12", "T5", "T6"], ["M3", "M4", "M5", "M6", "M8"]],
        "E13",
        voids={1: "M"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13", first_leader=0)
    play(state, "M7")
    choice = _choose(state)
    assert choice in (Play(parse_card("E8")), Play(parse_card("E12")))


def test_does_not_trump_a_trick_without_sevens() -> None:
    hands = fill_hands(
        3,
        [["M3", "M2"], ["E8", "E12", "T5", "T6"], ["M7", "M4", "M5", "M6", "M8"]],
        "E13",
        voids={1: "M"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13", first_leader=0)
    play(state, "M2")
    choice = _choose(state)
    assert isinstance(choice, Play) and choice.card not in (parse_card("E8"), parse_card("E12"))
