"""The Seven Shot Expert's ``passing`` and ``rollout`` (issue 30): the pass by ISMCTS (Strong's,
the default), by the greedy bot's rules or by the tuned greedy's; the search's rollout policy."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from septet.bots import AgentSpecError, make_agent
from septet.bots.expert.seven_shot import SevenShotExpert
from septet.games import get
from septet.games.seven_shot.actions import Pass
from septet.games.seven_shot.cards import parse_card

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "seven_shot"))
from ss_helpers import fill_hands


@pytest.mark.parametrize("passing", ["greedy", "tuned"])
def test_expert_passes_by_the_greedy_rules(passing: str) -> None:
    # SS-5.2: three players pass 3 cards to the left neighbour, an opponent. Seat 0 holds the
    # A (S1), three 7s, the short Water suit W4 W5 (two cards) and suits of 3 and 4 cards;
    # trump is E (indicator E13). Both weight tables empty the shortest plain suit first (2 or
    # 4 points a card fewer than 7 in the suit), high card first (W5 over W4), and never pass
    # the A (-100) or a 7 to an opponent (-50): the first card passed is W5, then W4.
    game = get("seven-shot")
    seat0 = [
        "S1",
        "S7",
        "M7",
        "F7",
        "W4",
        "W5",
        "S2",
        "S3",
        "M2",
        "M3",
        "F3",
        "F4",
        "G6",
        "G8",
        "G9",
        "G10",
    ]
    hands = fill_hands(3, [seat0], "E13")
    state = game.deal_state(hands, "E13", first_leader=0)  # type: ignore[attr-defined]
    expert = make_agent(f"expert:time=0.05,passing={passing}", game)
    rng = random.Random(0)
    for want in ("W5", "W4"):
        assert state.current_player == 0
        move = expert.act(state.view(0), state.legal_actions(), rng)
        assert move == Pass(parse_card(want))
        state.apply(move)


def test_bad_passing() -> None:
    with pytest.raises(AgentSpecError, match="passing"):
        make_agent("expert:passing=never", get("seven-shot"))


def test_expert_rollout_sets_its_searchs_rollout() -> None:
    game = get("seven-shot")
    plain, tuned = make_agent("expert:time=0.05", game), make_agent("expert:rollout=tuned", game)
    assert isinstance(plain, SevenShotExpert) and isinstance(tuned, SevenShotExpert)
    assert plain.search.rollout == "greedy"  # type: ignore[attr-defined]  # Strong's
    assert tuned.search.rollout == "tuned"  # type: ignore[attr-defined]
    with pytest.raises(AgentSpecError, match="rollout"):
        make_agent("expert:rollout=random", game)
