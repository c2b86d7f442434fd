"""Audit of the Flip 7 engine: card interactions, hand-built positions, answers worked by hand.

Each test names the rule ids it checks (``shared/rules/flip7-vengeance.md``, rulings in
``docs/rulings/flip7.md``).
"""

from __future__ import annotations

import pytest
from f7_helpers import kinds, play, position, rows, statuses

from septet.games import get


def legal(state):
    return [str(a) for a in state.legal_actions()]


def outcomes(state):
    return {str(a): p for a, p in state.chance_outcomes()}


def scores(state):
    return [p["round_score"] for p in state.view(None)["players"]]


# ----- bugs found by the audit ----------------------------------------------------------------
def test_flip4_card_in_play_stays_out_of_a_reshuffle():  # F7V-3.6 F7V-4.3 F7V-4.8
    # The deck runs out in the middle of a Flip 4: the new deck is the discard pile only; the
    # Flip 4 being resolved, its set-aside −4 and the busted row are all still in play.
    s = position(3, [["3"], ["5"], ["9", "9"]], to_move=0, status=["active", "active", "busted"])
    s.set_piles({"flip4": 1, "-4": 1}, {"6": 1, "2": 1, "8": 1})
    ev = play(s, "hit", "draw flip4", "target 1", "draw -4")
    assert "reshuffle" in kinds(ev)
    assert outcomes(s) == {f"draw {c}": pytest.approx(1 / 3) for c in ("2", "6", "8")}
    play(s, "draw 6", "draw 2", "draw 8")
    assert s.view(None)["decision"] == {"kind": "target", "player": 1, "card": "-4"}
    play(s, "target 0")
    # Resolution over: the Flip 4 goes to the discard pile now (F7V-4.3).
    v = s.view(None)
    assert v["discard"]["flip4"] == 1 and v["discard_size"] == 1 and v["deck_size"] == 0
    assert rows(s) == [["3", "-4"], ["5", "6", "2", "8"], ["9", "9"]]
    assert s.current_player == 1


def test_just_one_more_card_in_play_stays_out_of_a_reshuffle():  # F7V-3.6 F7V-4.3 F7V-4.4
    s = position(2, [["3"], ["5"]], to_move=0)
    s.set_piles({"jom": 1}, {"6": 2})
    ev = play(s, "hit", "draw jom", "target 1")
    assert "reshuffle" in kinds(ev)
    assert outcomes(s) == {"draw 6": 1.0}  # not the Just One More being resolved
    play(s, "draw 6")
    v = s.view(None)
    assert v["discard"]["jom"] == 1 and v["deck"]["6"] == 1
    assert statuses(s) == ["active", "stayed"]


def test_flip7_mid_flip4_discards_the_flip4_and_its_set_aside_cards():  # F7V-3.4 F7V-4.8
    s = position(3, [["3"], ["1", "2", "3", "4", "5"], ["6"]], to_move=0)
    ev = play(s, "hit", "draw flip4", "target 1", "draw jom", "draw -10", "draw 6", "draw 9")
    assert "flip7" in kinds(ev)
    v = s.view(None)
    assert v["last_round"] == [3, 1 + 2 + 3 + 4 + 5 + 6 + 9 + 15, 6]
    assert v["discard"]["jom"] == 1 and v["discard"]["-10"] == 1 and v["discard"]["flip4"] == 1
    assert v["discard_size"] == 1 + 7 + 1 + 3  # P0's row, P1's row, P2's row, the three actions


def test_swap_of_two_unlucky_7s_with_two_decks():  # F7V-1.5 F7V-4.5 F7V-4.9 F7V-6.2
    # With two decks each Unlucky 7 arriving by Swap discards its receiver's other cards, so
    # swapping two of them changes the table and is a legal move.
    others: list[list[str]] = [[] for _ in range(18)]
    s = position(20, [["u7", "3", "-2"], ["u7", "9"], *others], to_move=0)
    play(s, "hit", "draw swap")
    assert "swap 0:u7 1:u7" in legal(s)
    ev = play(s, "swap 0:u7 1:u7")
    assert kinds(ev).count("unlucky7") == 2
    assert rows(s)[:2] == [["u7"], ["u7"]]
    d = s.view(None)["discard"]
    assert (d["3"], d["-2"], d["9"], d["swap"]) == (1, 1, 1, 1)
    # Nothing would change when both rows hold only the Unlucky 7: not offered.
    s = position(20, [["u7"], ["u7"], ["5"], *others[1:]], to_move=2)
    play(s, "hit", "draw swap")
    assert legal(s) == ["swap 0:u7 2:5", "swap 1:u7 2:5"]


# ----- checked and right ----------------------------------------------------------------------
def test_flip4_reveals_steal_and_modifier_resolved_after_in_order():  # F7V-4.8 F7V-4.6 F7V-5.1
    s = position(3, [["3"], ["2"], ["6", "-2"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", "draw steal", "draw 9", "draw /2", "draw 4")
    assert rows(s)[1] == ["2", "9", "4"]
    assert legal(s) == ["steal 0:3", "steal 2:6", "steal 2:-2"]
    play(s, "steal 2:6")
    assert s.view(None)["decision"] == {"kind": "target", "player": 1, "card": "/2"}
    play(s, "target 2")
    assert rows(s) == [["3"], ["2", "9", "4", "6"], ["-2", "/2"]]
    assert scores(s) == [3, 21, 0]  # P2: 0 ÷ 2 = 0, −2 → not below 0
    assert s.current_player == 1


def test_unlucky7_during_flip4_discards_first_then_flips_the_rest():  # F7V-6.2 F7V-4.8
    s = position(2, [["3"], ["5", "9", "-4"]], to_move=0)
    ev = play(s, "hit", "draw flip4", "target 1", "draw 2", "draw u7", "draw 9", "draw 4")
    assert "bust" not in kinds(ev)  # the earlier 9 was discarded by the Unlucky 7
    assert rows(s)[1] == ["u7", "9", "4"] and scores(s)[1] == 20
    d = s.view(None)["discard"]
    assert (d["5"], d["9"], d["-4"], d["2"]) == (1, 1, 1, 1)


def test_lucky13_second_13_by_steal_third_by_swap_busts():  # F7V-6.3 F7V-4.9
    s = position(
        3,
        [["l13", "8"], ["13", "2"], ["13", "5"]],
        to_move=0,
        status=["active", "active", "stayed"],
    )
    play(s, "hit", "draw steal", "steal 1:13")
    assert rows(s)[0] == ["l13", "8", "13"] and statuses(s)[0] == "active"
    assert scores(s)[0] == 34
    ev = play(s, "hit", "draw swap", "swap 0:8 2:13")  # P1's turn: P0 gets a third 13
    assert "bust" in kinds(ev)
    assert statuses(s) == ["busted", "active", "stayed"]
    assert rows(s)[2] == ["5", "8"]


def test_lucky13_arriving_by_swap_next_to_a_13():  # F7V-6.3 F7V-4.9
    s = position(2, [["13", "4"], ["l13"]], to_move=0, status=["active", "stayed"])
    play(s, "hit", "draw swap", "swap 0:4 1:l13")
    assert rows(s) == [["13", "l13"], ["4"]] and statuses(s) == ["active", "stayed"]
    assert scores(s) == [26, 4]


def test_zero_only_hit_moved_by_swap_and_just_one_more_stay():  # F7V-6.1 F7V-4.4 F7V-4.9
    s = position(2, [["zero", "9"], ["5"]], to_move=0)
    assert legal(s) == ["hit"]
    play(s, "hit", "draw 4")
    assert scores(s) == [0, 5]
    play(s, "hit", "draw swap", "swap 0:zero 1:5")
    assert rows(s) == [["9", "4", "5"], ["zero"]]
    assert legal(s) == ["hit", "stay"] and scores(s) == [18, 0]  # the effect left with the card
    play(s, "stay")
    assert legal(s) == ["hit"]  # P1 now holds the Zero
    ev = play(s, "hit", "draw jom", "target 1", "draw 6")
    assert "round_end" in kinds(ev)  # Just One More forced the stay: nobody is active
    assert s.view(None)["last_round"] == [18, 0]


def test_unlucky7_by_swap_into_a_stayed_row_and_a_7_stolen_next_to_it():  # F7V-6.2 F7V-4.9
    s = position(
        3, [["3", "-2", "9"], ["u7", "5"], ["6"]], to_move=2, status=["stayed", "active", "active"]
    )
    play(s, "hit", "draw swap", "swap 0:9 1:u7")
    assert rows(s) == [["u7"], ["5", "9"], ["6"]]
    assert statuses(s) == ["stayed", "active", "active"] and scores(s) == [7, 14, 6]
    s = position(2, [["u7"], ["7", "5"]], to_move=0)
    ev = play(s, "hit", "draw steal", "steal 1:7")
    assert "bust" in kinds(ev) and statuses(s) == ["busted", "active"]


def test_no_target_discarded_and_a_valid_target_must_be_used():  # F7V-4.1 ruling
    s = get("flip7").new_state(3)
    ev = play(s, "dealer 0", "draw steal")  # P1: nobody has a card
    assert "no_target" in kinds(ev)
    ev = play(s, "draw 5", "draw discard")  # P0's Discard: P2's 5 is the only card
    assert "forced" in kinds(ev)
    assert rows(s) == [[], [], []]
    d = s.view(None)["discard"]
    assert (d["steal"], d["discard"], d["5"]) == (1, 1, 1)
    assert s.current_player == 1


def test_only_player_not_busted_plays_on_themselves():  # F7V-4.1
    s = position(
        3, [["3"], ["4", "4"], ["9", "9"]], to_move=0, status=["active", "busted", "busted"]
    )
    ev = play(s, "hit", "draw jom")
    assert "forced" in kinds(ev)
    ev = play(s, "draw 6")
    assert "round_end" in kinds(ev)
    assert s.view(None)["last_round"] == [9, 0, 0]


def test_deal_order_and_dealer_rotation():  # F7V-3.2 F7V-3.3 F7V-3.5
    s = get("flip7").new_state(4)
    play(s, "dealer 3")
    assert s.view(None)["draw"]["player"] == 0
    play(s, "draw 1", "draw 2", "draw 3", "draw 4")
    assert rows(s) == [["1"], ["2"], ["3"], ["4"]]
    assert s.current_player == 0
    play(s, "stay", "stay", "stay", "stay")
    v = s.view(None)
    assert v["last_round"] == [1, 2, 3, 4]
    assert v["dealer"] == 0 and v["round"] == 2 and v["draw"]["player"] == 1
    assert v["deck_size"] == 104  # the deck is kept


def test_highest_total_wins_not_the_first_past_the_target():  # F7V-3.7
    s = position(
        3,
        [["12"], ["1"], ["2"]],
        to_move=1,
        status=["stayed", "active", "stayed"],
        totals=[195, 205, 0],
    )
    play(s, "stay")
    assert s.scores() == [207.0, 206.0, 2.0] and s.winners() == [0]


def test_brutal_modifiers_and_penalty_on_a_busted_player():  # F7V-8.2 F7V-8.3
    six = ["1", "2", "3", "4", "5", "6"]
    s = position(
        3,
        [six, ["4", "4"], ["9"]],
        to_move=0,
        status=["active", "busted", "active"],
        brutal=True,
    )
    play(s, "hit", "draw -4", "target 1", "hit", "draw /2", "target 1")
    assert s.view(None)["players"][1]["after_bust"] == ["-4", "/2"]
    play(s, "hit", "draw 7")
    assert legal(s) == ["bonus", "penalty 1", "penalty 2"]
    play(s, "penalty 1")
    assert s.view(None)["last_round"] == [28, -4 - 15, 9]


def test_classic_flip_three_modifiers_to_drawer_freeze_after():  # F7V-9
    s = position(2, [["3"], ["5"]], to_move=0, edition="classic")
    play(s, "hit", "draw flip3", "target 1", "draw +4", "draw freeze", "draw x2")
    assert rows(s)[1] == ["5", "+4", "x2"]
    assert legal(s) == ["target 0", "target 1"]
    play(s, "target 0")
    assert statuses(s) == ["stayed", "active"]
    ev = play(s, "stay")
    assert "round_end" in kinds(ev)
    assert s.view(None)["last_round"] == [3, 5 * 2 + 4]


@pytest.mark.parametrize(
    ("row", "score", "after_multiplier"),
    [
        (["3", "4", "/2", "-2"], 1, 3),  # 7 → 3 (round down) → 1
        (["9", "/2", "-6"], 0, 4),  # 9 → 4 → −2 → not below 0
        (["5", "8", "-4"], 9, 13),
    ],
)
def test_halving_rounds_down_before_subtracting(row, score, after_multiplier):  # F7V-7.2
    s = position(2, [row, ["1"]], to_move=1, status=["stayed", "active"])
    ev = play(s, "stay")
    (end,) = [e for e in ev if e.kind == "round_end"]
    b = end.data["breakdown"][0]
    assert (b["score"], b["after_multiplier"]) == (score, after_multiplier)


def test_view_is_the_same_for_every_seat():  # model: only the deck order is hidden
    s = position(3, [["3", "-4"], ["zero"], ["9", "9"]], to_move=0)
    spectator = s.view(None)
    for seat in range(3):
        v = s.view(seat)
        assert v.pop("seat") == seat
        assert v == {k: x for k, x in spectator.items() if k != "seat"}
    assert sum(spectator["deck"].values()) == spectator["deck_size"]


def test_row_points_is_the_engine_scoring_rule_for_a_live_row():
    # F7V-7.2 / F7V-7.3: 3+11+5+7+10+8+4 = 48, ÷2 → 24, −4 → 20 (the +15 bonus is added apart).
    from septet.games.flip7 import cards as C

    row = [C.KIND_OF_TOKEN[t] for t in ("3", "11", "5", "7", "10", "8", "4", "/2", "-4")]
    assert C.row_points(row, vengeance=True) == 20
    # F7V-7.2: not below 0; F7V-8.1: brutal scores may go below 0.
    low = [C.KIND_OF_TOKEN[t] for t in ("2", "-10")]
    assert C.row_points(low, vengeance=True) == 0
    assert C.row_points(low, vengeance=True, brutal=True) == -8
    # F7V-6.1: the Zero makes it 0 unless the row achieved Flip 7.
    zero = [C.KIND_OF_TOKEN[t] for t in ("zero", "9", "12")]
    assert C.row_points(zero, vengeance=True) == 0
    assert C.row_points(zero, vengeance=True, flip7=True) == 21
    # F7V-9: classic ×2 doubles the number sum, then the + modifiers are added.
    classic = [C.KIND_OF_TOKEN[t] for t in ("5", "6", "x2", "+4")]
    assert C.row_points(classic, vengeance=False) == 26
