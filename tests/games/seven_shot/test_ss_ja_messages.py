"""Seven Shot: illegal actions explain themselves in Japanese, with the rule id."""

from __future__ import annotations

import json

import pytest
from ss_helpers import fill_hands, game, play

from septet.core.errors import IllegalActionError, NotationError
from septet.games.seven_shot.actions import Play
from septet.games.seven_shot.cards import parse_card


def _deal() -> list[list[str]]:
    # Seat 0 holds every Water card but W7; seats 1-3 are void in Water; seat 3 holds W7.
    fixed = [
        ["W4", "W5", "W6", "W8", "W9", "W10"],
        ["E8", "T11", "M2"],
        ["S1", "E7", "T10"],
        ["E9", "W7"],
    ]
    return fill_hands(4, fixed, "E13", voids={1: "W", 2: "W"})


def test_must_follow_suit_in_japanese() -> None:
    # SS-3.1: Water (W) led; seat 3 holds W7, so E9 is not allowed.
    state = game(pass_cards=0).deal_state(_deal(), "E13")
    play(state, "W5 E8 S1")
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("E9")))
    assert err.value.message("ja") == (
        "フォローしてください: リードは水（W）で、手札にW7があります [SS-3.1]"
    )
    assert "follow suit" in str(err.value)
    assert json.dumps(state.to_json()) == before
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("W4")))  # SS-3.1: W4 is in seat 0's hand, not seat 3's
    assert err.value.message("ja") == "W4は手札にありません [SS-3.1]"


def test_card_notation_in_japanese() -> None:
    # SS-1.1: the Water suit runs 4–10.
    with pytest.raises(NotationError) as err:
        game().action_from_str("W2")
    assert err.value.message("ja") == "'W2': 水（W）のスートの数字は4〜10だけです [SS-1.1]"
