"""Flip 7 view data for the round-end and end screens (issue 15): ``rounds``,
``last_round_detail`` and ``forced_public``, on hand-built positions worked out by hand."""

from __future__ import annotations

import json

from f7_helpers import game, kinds, play, position

from septet.core.game import State
from septet.core.types import Event
from septet.games.flip7 import Flip7State


def _flip7_round() -> tuple[Flip7State, list[Event]]:
    # P0 holds 1..6 and hits; P1 stayed with 10 5 ÷2 −2; P2 busted on a second 9.
    s = position(
        3,
        [["1", "2", "3", "4", "5", "6"], ["10", "5", "/2", "-2"], ["9", "9"]],
        to_move=0,
        status=["active", "stayed", "busted"],
        totals=[100, 20, 7],
    )
    events = play(s, "hit", "draw 7")
    return s, events


def test_rounds_and_last_round_detail_after_a_flip7() -> None:
    s, events = _flip7_round()
    # F7V-3.4: the 7th number card ends the round at once. F7V-7.2: P0 1+…+7 = 28, +15 = 43;
    # P1 10+5 = 15, ÷2 → 7, −2 → 5; P2 busted scores 0 (F7V-7.1).
    assert kinds(events)[:3] == ["hit", "draw", "flip7"]
    view = s.view(1)
    assert view["rounds"] == [
        {
            "round": 1,
            "scores": [43, 5, 0],
            "status": ["flip7", "stayed", "busted"],
            "flip7": 0,
            "totals": [143, 25, 7],
        }
    ]
    detail = view["last_round_detail"]
    assert detail == next(e for e in events if e.kind == "round_end").data
    assert detail["round"] == 1 and detail["flip7"] == 0 and detail["flip7_choice"] is None
    assert detail["rows"] == [
        ["1", "2", "3", "4", "5", "6", "7"],
        ["10", "5", "/2", "-2"],
        ["9", "9"],
    ]
    assert detail["status"] == ["active", "stayed", "busted"]
    assert detail["breakdown"][0] == {
        "busted": False,
        "numbers": 28,
        "after_multiplier": 28,
        "modifiers": 0,
        "zero": False,
        "bonus": 15,
        "penalty": 0,
        "score": 43,
    }
    assert detail["breakdown"][1] == {
        "busted": False,
        "numbers": 15,
        "after_multiplier": 7,
        "modifiers": -2,
        "zero": False,
        "bonus": 0,
        "penalty": 0,
        "score": 5,
    }
    assert detail["breakdown"][2]["busted"] is True and detail["breakdown"][2]["score"] == 0
    # The next round has begun: the rows are empty but the finished round stays in the view.
    assert view["round"] == 2 and all(p["row"] == [] for p in view["players"])
    assert view["last_round"] == [43, 5, 0]


def test_no_round_history_before_the_first_round_ends_and_json_round_trip() -> None:
    s = position(3, [["3"], ["5"], ["8"]], to_move=0)
    assert s.view(None)["rounds"] == [] and s.view(None)["last_round_detail"] is None
    s2, _ = _flip7_round()
    copy = State.from_json(json.loads(json.dumps(s2.to_json())))
    assert copy.view(0) == s2.view(0)
    # A view handed out shares nothing with the state.
    v = s2.view(0)
    v["rounds"][0]["scores"][0] = -1
    v["last_round_detail"]["rows"][0].append("13")
    assert s2.view(0)["rounds"][0]["scores"][0] == 43
    assert s2.view(0)["last_round_detail"]["rows"][0][-1] == "7"


def test_state_dicts_without_the_new_keys_still_load() -> None:
    s, _ = _flip7_round()
    data = s.state_dict()
    del data["rounds"], data["last_round_detail"]
    fresh = game().new_state(3)
    fresh.load_state_dict(data)
    assert fresh.view(0)["rounds"] == [] and fresh.view(0)["last_round_detail"] is None


def test_forced_public_for_the_zero_holder_only() -> None:
    # F7V-6.1: holding the Zero, the only legal action is Hit, and every row is public.
    s = position(3, [["zero", "4"], ["5"], ["8"]], to_move=0)
    assert [str(a) for a in s.legal_actions()] == ["hit"]
    assert s.view(0)["forced_public"] is True
    assert s.view(1)["forced_public"] is False and s.view(None)["forced_public"] is False
    t = position(3, [["3", "4"], ["5"], ["8"]], to_move=0)
    assert t.view(0)["forced_public"] is False
    assert "forced_public" not in t.state_dict()
