"""Double Seven: illegal actions explain themselves in Japanese, with the rule id."""

from __future__ import annotations

import json
import random

import pytest

from septet.core.errors import IllegalActionError, NotationError
from septet.core.types import CHANCE
from septet.games import get
from septet.games.double_seven.state import DoubleSevenState


def _action_phase(seed: int = 0) -> DoubleSevenState:
    """A 2-player game played at random until a seat may act (its legal moves include 'pass')."""
    game = get("double-seven")
    state: DoubleSevenState = game.new_state(2)
    rng = random.Random(seed)
    while True:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if any(str(a) == "pass" for a in legal):
            return state
        state.apply(rng.choice(legal))


def test_start_with_tiles_not_on_the_rack_in_japanese() -> None:
    # DS-5.1: nobody holds 9 foxes in the first action phase (a rack starts with 3 tiles + draws).
    state = _action_phase()
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError) as err:
        state.apply(state.game.action_from_str("start fox9"))
    assert err.value.rule == "DS-5.1"
    assert err.value.message("ja") == "ラックにそのタイルがありません [DS-5.1]"
    assert str(err.value) == "those tiles are not on your rack [DS-5.1]"
    assert json.dumps(state.to_json()) == before


def test_discard_outside_the_discard_phase_in_japanese() -> None:
    # DS-6.2: a discard only ends a turn with 6 or more tiles.
    state = _action_phase()
    with pytest.raises(IllegalActionError) as err:
        state.game.parse_action(state, "discard fox")
    assert err.value.message("ja") == (
        "捨てるのは、ターン終了時にラックが6枚以上あるときだけです [DS-6.2]"
    )


def test_notation_errors_in_japanese() -> None:
    game = get("double-seven")
    # DS-5.7: a family is named by its animal.
    with pytest.raises(NotationError) as err:
        game.action_from_str("start clover2")
    assert err.value.message("ja") == (
        "'clover2': 家族は動物の名前で書きます（クローバーではなく） [DS-5.7]"
    )
    # DS-5.3: a fox family takes foxes and clovers only.
    with pytest.raises(NotationError) as err:
        game.action_from_str("expand fox2 with frog1")
    assert err.value.message("ja") == (
        "キツネの家族に加えられるのはキツネとクローバーだけです [DS-5.3]"
    )
