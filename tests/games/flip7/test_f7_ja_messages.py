"""Flip 7: illegal actions explain themselves in Japanese, with the rule id."""

from __future__ import annotations

import json

import pytest
from f7_helpers import play, position

from septet.core.errors import IllegalActionError, NotationError


def test_invalid_target_for_a_modifier_in_japanese() -> None:
    # F7V-5.1: a −4 goes to a player not busted; seat 2 is busted and seat 7 does not exist.
    s = position(3, [["3"], ["4"], ["4", "4"]], to_move=0, status=["active", "active", "busted"])
    play(s, "hit", "draw -4")
    before = json.dumps(s.to_json())
    for text in ("target 2", "target 7"):
        with pytest.raises(IllegalActionError) as err:
            s.game.parse_action(s, text)
        assert err.value.rule == "F7V-5.1"
        assert err.value.message("ja") == f"{text}: その席は−4の対象に選べません [F7V-5.1]"
        assert str(err.value) == f"{text} is not a valid target for -4 [F7V-5.1]"
    assert json.dumps(s.to_json()) == before


def test_hit_or_stay_and_zero_in_japanese() -> None:
    s = position(2, [["3"], ["4"]], to_move=0)
    with pytest.raises(IllegalActionError) as err:
        s.game.parse_action(s, "target 1")  # F7V-3.3: a turn is hit or stay
    assert err.value.message("ja") == "ヒットかステイを選んでください [F7V-3.3]"
    z = position(2, [["zero"], ["4"]], to_move=0)
    with pytest.raises(IllegalActionError) as err:
        z.game.parse_action(z, "stay")  # F7V-6.1: the Zero holder may only hit
    assert err.value.message("ja") == "ゼロを持っているとヒットしか選べません [F7V-6.1]"


def test_notation_error_in_japanese() -> None:
    s = position(2, [["3"], ["4"]], to_move=0)
    with pytest.raises(NotationError) as err:
        s.game.action_from_str("jump")
    assert err.value.message("ja").startswith("'jump'はフリップ7のアクションではありません")
