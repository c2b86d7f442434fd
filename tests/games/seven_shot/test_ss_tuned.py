"""The tuned greedy (``TunedGreedyAgent``, the ``tuned`` rollout of ISMCTS in Seven Shot, issue
30): where its weights make it play otherwise than greedy, in hand-built positions."""

from __future__ import annotations

import random

import pytest
from ss_helpers import fill_hands, game, play

from septet.bots import AgentSpecError, make_agent
from septet.bots.greedy.seven_shot import (
    GREEDY_WEIGHTS,
    TUNED_WEIGHTS,
    WEIGHT_NAMES,
    GreedyAgent,
    TunedGreedyAgent,
)
from septet.games.seven_shot.actions import Play
from septet.games.seven_shot.cards import parse_card


def test_weight_tables_name_every_weight() -> None:
    assert len(GREEDY_WEIGHTS) == len(TUNED_WEIGHTS) == len(WEIGHT_NAMES) == 36
    # SS-4.2: both avoid winning tricks from 6 tricks on (a 7th loses the deal)
    assert GREEDY_WEIGHTS[WEIGHT_NAMES.index("danger_at")] == 6.0
    assert TUNED_WEIGHTS[WEIGHT_NAMES.index("danger_at")] == 6.0


def test_keeps_its_seven_off_the_partners_trick_when_an_opponent_can_still_win_it() -> None:
    # 4 players, trump E (indicator E13), no pass. Seat 0 leads W8, seat 1 follows W5; seat 2
    # (seat 0's partner, SS-2.1) has no Water and may play any card (SS-3.1). Seat 3, still to
    # play, may hold W9 or W10 (unseen by seat 2), so the partner's W8 is not sure (SS-3.2).
    # Greedy drops M7 anyway (3 x 0.4 = 1.2 for a 7 on an unsure partner's trick); the tuned
    # weights count a 7 only on a sure trick (duck_partner_unsure = 0), so it sheds its highest
    # plain card, T9 (rank 9 > M7's 7), and keeps the 7 that SS-4.1 counts.
    seat2 = ["M7", "T9", "S2", "S3", "S4", "M2", "M3", "F3", "F4", "G6", "M4", "S5"]
    hands = fill_hands(4, [["W8"], ["W5"], seat2, ["W9", "W10"]], "E13", voids={2: "WE"})
    state = game(pass_cards=0).deal_state(hands, "E13", first_leader=0)
    play(state, "W8 W5")
    assert state.current_player == 2
    view, legal, rng = state.view(2), state.legal_actions(), random.Random(0)
    assert GreedyAgent(state.game).act(view, legal, rng) == Play(parse_card("M7"))
    assert TunedGreedyAgent(state.game).act(view, legal, rng) == Play(parse_card("T9"))


def test_greedy_weights_spec() -> None:
    g = game()
    agent = make_agent("greedy:weights=tuned", g)
    assert isinstance(agent, GreedyAgent) and agent.w == TUNED_WEIGHTS
    assert make_agent("greedy", g).w == GREEDY_WEIGHTS  # type: ignore[attr-defined]
    with pytest.raises(AgentSpecError, match="weights"):
        make_agent("greedy:weights=heavy", g)
    with pytest.raises(AgentSpecError):
        make_agent("greedy:depth=2", g)
