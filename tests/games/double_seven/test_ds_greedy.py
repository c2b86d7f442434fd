"""The greedy Double Seven bot: legal, view-only, and clearly better than random."""

from __future__ import annotations

import random

from septet.bots import RandomAgent, make_agent
from septet.core.play import play_game
from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state

GAME = DoubleSeven()


def choose(st):
    bot = make_agent("greedy", GAME)
    seat = st.current_player
    return str(bot.act(st.view(seat), st.legal_actions(), random.Random(0)))


def test_greedy_takes_the_seven():
    # DS-5.3: expanding fox5 with fox + clover reaches 7 (Seven!), worth more than anything else.
    st = build_state(2, racks=["fox clover swan", ""], families=[["fox5"], []], phase="actions")
    assert choose(st) == "expand fox5 with fox1+1"


def test_greedy_keeps_clovers_for_later_and_places_animals():
    st = build_state(2, racks=["fox*3 clover", ""], phase="actions")
    assert choose(st) == "start fox3"


def test_greedy_retrieves_a_clover_and_declares_rainbow():
    st = build_state(2, racks=["swan", ""], families=[[], ["swan2+1"]], phase="actions")
    assert choose(st) == "retrieve 1:swan2+1"
    st = build_state(2, racks=["fox swan frog deer", ""], display="bird")
    st.apply(GAME.action_from_str("take bird"))
    st.apply(GAME.action_from_str("pile rabbit"))
    assert choose(st) == "rainbow"  # DS-4.3


def test_greedy_exchanges_toward_its_rack_and_discards_least_useful():
    st = build_state(
        2,
        racks=["frog*2 bird deer rabbit butterfly squirrel", ""],
        families=[["fox3"], ["frog3"]],
        phase="actions",
    )
    assert choose(st) == "exchange fox3 with 1:frog3"  # DS-5.4: then expand with the frogs
    st = build_state(2, racks=["fox*2 clover bird deer swan", ""], phase="discard")
    assert choose(st) in {"discard bird", "discard deer", "discard swan"}  # DS-6.2


def test_greedy_beats_random():
    wins = 0
    for seed in range(12):
        agents = [make_agent("greedy", GAME), RandomAgent(), RandomAgent()]
        result = play_game(GAME, agents, seed=seed)
        wins += 0 in result.winners
    assert wins >= 10  # measured 12/12; random would win about 1 in 3
