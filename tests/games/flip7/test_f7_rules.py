"""Scenario tests for Flip 7: With a Vengeance, one or more per rule id (hand-built decks)."""

from __future__ import annotations

import pytest
from f7_helpers import game, kinds, play, position, rows, statuses

from septet.core.errors import IllegalActionError, NotationError, OptionError
from septet.core.types import CHANCE, TERMINAL


def legal(state):
    return [str(a) for a in state.legal_actions()]


def outcomes(state):
    return {str(a): p for a, p in state.chance_outcomes()}


# ----- F7V-1 deck and players --------------------
def test_vengeance_deck_composition():  # F7V-1.1 F7V-1.2 F7V-1.3 F7V-1.4
    s = game().new_state(4)
    play(s, "dealer 0")
    v = s.view(None)
    assert v["deck_size"] == 108
    d = v["deck"]
    assert (d["1"], d["6"], d["7"], d["u7"], d["12"], d["13"], d["l13"]) == (1, 6, 6, 1, 12, 12, 1)
    assert d["zero"] == 1 and "0" not in d
    assert [d[t] for t in ("/2", "-2", "-4", "-6", "-8", "-10")] == [1] * 6
    assert [d[t] for t in ("jom", "flip4", "swap", "steal", "discard")] == [2] * 5
    assert sum(d.values()) == 108
    p = outcomes(s)
    assert p["draw 13"] == pytest.approx(12 / 108)
    assert p["draw zero"] == pytest.approx(1 / 108)
    assert "draw freeze" not in p


def test_two_decks_from_18_players_and_limits():  # F7V-1.5
    # 「18人以上でプレイする場合は、2つ目のデッキを使うことをおすすめします」: decks="auto"
    g = game()
    s17 = g.new_state(17)
    play(s17, "dealer 0")
    assert s17.view(None)["deck_size"] == 108
    s18 = g.new_state(18)
    play(s18, "dealer 0")
    assert s18.view(None)["deck_size"] == 216
    assert s18.view(None)["deck"]["zero"] == 2
    g.new_state(2)  # Ruling: 2 players allowed
    g.new_state(36)
    for bad in (1, 37):
        with pytest.raises(OptionError):
            g.new_state(bad)


def test_first_dealer_is_a_chance_node():  # F7V-3.1
    s = game().new_state(4)
    assert s.current_player == CHANCE
    assert outcomes(s) == {f"dealer {i}": 0.25 for i in range(4)}


# ----- F7V-3 round flow --------------------
def test_deal_order_actions_resolved_at_once_and_stayed_players_skipped():  # F7V-3.2 F7V-4.4
    s = game().new_state(3)
    play(s, "dealer 0", "draw 5")  # left of the dealer first: P1
    assert s.view(None)["draw"] == {"player": 2, "set_aside": False}
    play(s, "draw jom")  # P2's Just One More is resolved before the deal goes on
    assert s.current_player == 2 and legal(s) == ["target 0", "target 1", "target 2"]
    play(s, "target 0", "draw 9")  # P0 takes the next card, then must stay
    # The dealer (P0) has stayed, so is skipped; P2 ends the deal with no card.
    assert rows(s) == [["9"], ["5"], []]
    assert statuses(s) == ["stayed", "active", "active"]
    assert s.current_player == 1 and legal(s) == ["hit", "stay"]


def test_turn_order_and_round_end_when_nobody_is_active():  # F7V-3.3 F7V-3.4 F7V-3.5
    s = game().new_state(3)
    play(s, "dealer 0", "draw 5", "draw jom", "target 0", "draw 9")
    play(s, "hit", "draw 3")
    assert s.current_player == 2  # P0 stayed: skipped
    play(s, "stay")
    assert s.current_player == 1
    ev = play(s, "stay")
    assert "round_end" in kinds(ev)
    v = s.view(None)
    assert v["last_round"] == [9, 8, 0]
    assert [p["total"] for p in v["players"]] == [9, 8, 0]
    # F7V-3.5: the deck is kept, the cards go to the discard pile, the deck passes left.
    assert v["round"] == 2 and v["dealer"] == 1
    assert v["deck_size"] == 108 - 4
    assert v["discard"]["jom"] == 1 and v["discard"]["9"] == 1 and v["discard_size"] == 4
    assert v["draw"] == {"player": 2, "set_aside": False}
    assert rows(s) == [[], [], []]


def test_flip7_mid_deal_ends_the_round_at_once():  # F7V-3.4
    s = position(3, [[], ["1", "2", "3", "4", "5", "6"], []], to_move=1)
    data = s.state_dict()
    data["stack"] = [{"kind": "deal", "next": 2}]
    data["decision"] = None
    data["to_move"] = CHANCE
    data["draw"] = {"player": 1, "set_aside": False}
    s.load_state_dict(data)
    ev = play(s, "draw 7")
    assert kinds(ev)[:3] == ["draw", "flip7", "round_end"]
    assert s.view(None)["last_round"] == [0, 28 + 15, 0]


def test_flip7_mid_flip4_ends_the_round_and_drops_set_aside_cards():  # F7V-3.4 F7V-4.8
    s = position(3, [[], ["1", "2", "3", "4", "5"], []], to_move=1)
    play(s, "hit", "draw flip4", "target 1", "draw -2", "draw 6")
    assert s.current_player == CHANCE
    ev = play(s, "draw 7")
    assert "flip7" in kinds(ev) and "round_end" in kinds(ev)
    v = s.view(None)
    assert v["last_round"] == [0, 28 + 15, 0]  # the set-aside −2 never applied
    assert v["discard"]["-2"] == 1 and v["discard"]["flip4"] == 1


def test_reshuffle_mid_round_keeps_cards_in_play_out():  # F7V-3.6
    s = position(2, [["3"], ["9"]], to_move=0, deck={"5": 1})
    s.set_piles({"5": 1}, {"9": 2, "jom": 1})
    play(s, "hit", "draw 5")
    assert s.view(None)["deck_size"] == 0
    ev = play(s, "hit")
    assert "reshuffle" in kinds(ev)
    v = s.view(None)
    assert v["deck_size"] == 3 and v["discard_size"] == 0
    assert outcomes(s) == {"draw 9": pytest.approx(2 / 3), "draw jom": pytest.approx(1 / 3)}
    assert rows(s) == [["3", "5"], ["9"]]


def test_game_ends_at_target_with_a_lone_leader():  # F7V-3.7
    s = position(2, [["6"], ["2"]], to_move=0, status=["active", "stayed"], totals=[195, 190])
    play(s, "stay")
    assert s.current_player == TERMINAL
    assert s.scores() == [201.0, 192.0]
    assert s.winners() == [0]
    assert s.returns() == [1.0, 0.0]


def test_tie_at_the_top_plays_on():  # F7V-3.7 ruling
    s = position(2, [["6"], ["4"]], to_move=0, status=["active", "stayed"], totals=[194, 196])
    play(s, "stay")
    assert s.scores() == [200.0, 200.0]
    assert s.current_player == CHANCE and s.winners() == []
    assert s.view(None)["round"] == 2


# ----- F7V-4 action cards --------------------
def test_targets_are_players_not_busted_stayed_and_self_included():  # F7V-4.1 F7V-5.1
    s = position(
        4,
        [["3"], ["4"], ["4", "4"], ["5"]],
        to_move=0,
        status=["active", "stayed", "busted", "active"],
    )
    play(s, "hit", "draw -4")
    assert legal(s) == ["target 0", "target 1", "target 3"]
    play(s, "target 1")
    assert rows(s)[1] == ["4", "-4"]
    assert s.current_player == 3


def test_only_player_not_busted_targets_themselves():  # F7V-4.1 F7V-5.1
    s = position(2, [["3"], ["4", "4"]], to_move=0, status=["active", "busted"])
    ev = play(s, "hit", "draw -4")
    assert "forced" in kinds(ev)
    assert rows(s)[0] == ["3", "-4"]
    ev = play(s, "hit", "draw flip4")
    assert s.view(None)["stack"][-1] == {"kind": "flip", "player": 0, "left": 3, "set_aside": []}


def test_swap_steal_discard_without_cards_are_discarded():  # F7V-4.1 ruling
    s = game().new_state(3)
    ev = play(s, "dealer 0", "draw swap")
    assert "no_target" in kinds(ev)
    v = s.view(None)
    assert v["discard"]["swap"] == 1 and v["draw"] == {"player": 2, "set_aside": False}


def test_stayed_player_resolves_action_but_does_not_rejoin():  # F7V-4.2 F7V-4.3
    s = position(3, [["3"], ["9"], ["4"]], to_move=0, status=["active", "stayed", "active"])
    play(s, "hit", "draw jom", "target 1", "draw steal")
    assert s.current_player == 1  # the stayed player chooses the steal
    assert legal(s) == ["steal 0:3", "steal 2:4"]
    play(s, "steal 2:4")
    assert rows(s) == [["3"], ["9", "4"], []]
    assert statuses(s) == ["active", "stayed", "active"]
    assert s.current_player == 2  # turn order goes on; P1 does not rejoin
    v = s.view(None)
    assert v["discard"]["jom"] == 1 and v["discard"]["steal"] == 1  # F7V-4.3


def test_just_one_more_forces_a_stay_even_with_the_zero():  # F7V-4.4 F7V-6.1
    s = position(3, [["3"], ["zero"], ["4"]], to_move=0)
    play(s, "hit", "draw jom", "target 1", "draw 5")
    assert rows(s)[1] == ["zero", "5"]
    assert statuses(s) == ["active", "stayed", "active"]
    assert s.current_player == 2


def test_just_one_more_next_card_is_an_action_resolved_then_stay():  # F7V-4.4
    s = position(3, [["3"], ["8"], ["4"]], to_move=0)
    play(s, "hit", "draw jom", "target 1", "draw flip4")
    assert s.current_player == 1 and legal(s) == ["target 0", "target 1", "target 2"]
    play(s, "target 2", "draw 1", "draw 2", "draw 5", "draw 6")
    assert rows(s) == [["3"], ["8"], ["4", "1", "2", "5", "6"]]
    assert statuses(s) == ["active", "stayed", "active"]  # P1 stays after the Flip 4
    assert s.current_player == 2


def test_swap_choices_and_effect():  # F7V-4.5
    s = position(3, [["3"], ["5"], ["-4"]], to_move=0)
    play(s, "hit", "draw swap")
    assert legal(s) == ["swap 0:3 1:5", "swap 0:3 2:-4", "swap 1:5 2:-4"]
    play(s, "swap 1:5 2:-4")
    assert rows(s) == [["3"], ["-4"], ["5"]]
    assert s.view(None)["discard"]["swap"] == 1


def test_steal_takes_from_another_player_only():  # F7V-4.6
    s = position(3, [["3"], ["5", "-2"], []], to_move=0)
    play(s, "hit", "draw steal")
    assert legal(s) == ["steal 1:5", "steal 1:-2"]
    play(s, "steal 1:5")
    assert rows(s) == [["3", "5"], ["-2"], []]


def test_discard_any_player_you_choose_the_card():  # F7V-4.7
    s = position(
        3, [["3", "-4"], ["5"], ["7", "7"]], to_move=0, status=["active", "active", "busted"]
    )
    play(s, "hit", "draw discard")
    assert legal(s) == ["discard 0:3", "discard 0:-4", "discard 1:5"]
    play(s, "discard 0:-4")
    assert rows(s)[0] == ["3"]
    assert s.view(None)["discard"]["-4"] == 1


def test_flip4_defers_actions_and_modifiers_in_order():  # F7V-4.8
    s = position(3, [["3"], ["2"], ["6"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", "draw -4", "draw jom", "draw 5")
    assert s.view(None)["stack"][-1]["set_aside"] == ["-4", "jom"]
    play(s, "draw 8")
    # Flips done: P1 resolves the −4 first, then the Just One More.
    assert s.current_player == 1 and s.view(None)["decision"]["card"] == "-4"
    play(s, "target 0")
    assert s.view(None)["decision"]["card"] == "jom"
    play(s, "target 2", "draw 9")
    assert rows(s) == [["3", "-4"], ["2", "5", "8"], ["6", "9"]]
    assert statuses(s) == ["active", "active", "stayed"]
    assert s.current_player == 1


def test_flip4_bust_discards_set_aside_cards():  # F7V-4.8
    s = position(3, [["3"], ["2"], ["6"]], to_move=0)
    ev = play(s, "hit", "draw flip4", "target 1", "draw -4", "draw 2")
    assert "bust" in kinds(ev) and "set_aside_lost" in kinds(ev)
    v = s.view(None)
    assert v["discard"]["-4"] == 1 and v["discard"]["flip4"] == 1
    assert statuses(s) == ["active", "busted", "active"]
    assert s.current_player == 2  # two flips left undone


def test_nested_flip4_inside_flip4():  # F7V-4.8
    s = position(2, [["3"], ["2"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", "draw flip4", "draw 4", "draw 5", "draw 6")
    assert s.current_player == 1  # P1 resolves the set-aside Flip 4
    play(s, "target 0", "draw 7", "draw 8", "draw 9", "draw 10")
    assert rows(s) == [["3", "7", "8", "9", "10"], ["2", "4", "5", "6"]]
    assert s.current_player == 1


def test_stayed_player_busted_by_steal():  # F7V-4.9
    s = position(3, [["3"], ["9", "4"], ["9"]], to_move=0, status=["active", "stayed", "active"])
    ev = play(s, "hit", "draw jom", "target 1", "draw steal", "steal 2:9")
    assert "bust" in kinds(ev)
    assert statuses(s) == ["active", "busted", "active"]
    assert rows(s) == [["3"], ["9", "4", "9"], []]


def test_swap_can_bust_and_trigger_unlucky7():  # F7V-4.9 F7V-6.2
    s = position(3, [["3", "8"], ["8", "4", "-2"], ["u7"]], to_move=0)
    play(s, "hit", "draw swap", "swap 0:3 1:8")
    assert statuses(s)[0] == "busted" and rows(s)[1] == ["4", "-2", "3"]
    s = position(3, [["3", "8"], ["8", "4", "-2"], ["u7", "5"]], to_move=0)
    ev = play(s, "hit", "draw swap", "swap 1:4 2:u7")
    assert "unlucky7" in kinds(ev)
    assert rows(s) == [["3", "8"], ["u7"], ["5", "4"]]
    assert s.view(None)["discard"]["8"] == 1 and s.view(None)["discard"]["-2"] == 1


def test_steal_can_complete_a_flip7_for_a_stayed_player():  # F7V-4.9 F7V-3.4
    six = ["1", "2", "3", "4", "5", "6"]
    s = position(2, [six, ["3", "9"]], to_move=1, status=["stayed", "active"])
    ev = play(s, "hit", "draw jom", "target 0", "draw steal", "steal 1:9")
    assert "flip7" in kinds(ev)
    assert s.view(None)["last_round"] == [21 + 9 + 15, 3]


# ----- F7V-5 modifiers --------------------
def test_modifiers_never_count_toward_flip7_nor_bust():  # F7V-5.2
    s = position(2, [["1", "2", "3", "4", "5", "-2", "-4"], ["9"]], to_move=0)
    play(s, "hit", "draw -6", "target 0")
    v = s.view(None)["players"][0]
    assert v["numbers"] == 5 and v["status"] == "active"
    assert v["round_score"] == 3  # 15 − 12


# ----- F7V-6 special number cards --------------------
def test_zero_holder_may_only_hit_and_scores_zero():  # F7V-6.1
    s = position(2, [["zero", "9"], ["5"]], to_move=0)
    assert legal(s) == ["hit"]
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.game.action_from_str("stay"))
    assert info.value.rule == "F7V-6.1"
    assert s.view(None)["players"][0]["round_score"] == 0


def test_zero_with_a_flip7():  # F7V-6.1 F7V-7.2
    s = position(2, [["zero", "1", "2", "3", "4", "5"], ["9"]], to_move=0)
    ev = play(s, "hit", "draw 6")
    assert "flip7" in kinds(ev)
    assert s.view(None)["last_round"] == [21 + 15, 9]


def test_unlucky7_discards_and_never_busts_then_a_7_busts():  # F7V-6.2
    s = position(2, [["7", "3", "-2"], ["9"]], to_move=0)
    ev = play(s, "hit", "draw u7")
    assert "bust" not in kinds(ev)
    assert rows(s)[0] == ["u7"]
    assert s.view(None)["discard"]["7"] == 1 and s.view(None)["discard"]["-2"] == 1
    s = position(2, [["u7"], ["9"]], to_move=0)
    play(s, "hit", "draw 7")
    assert statuses(s)[0] == "busted"


def test_unlucky7_during_flip4_discards_first_then_flips_on():  # F7V-6.2 F7V-4.8
    s = position(2, [["3"], ["5", "9", "-4"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", "draw 2", "draw u7", "draw 4", "draw jom")
    assert s.current_player == 1  # P1 resolves the set-aside Just One More
    assert rows(s)[1] == ["u7", "4"]
    play(s, "target 1", "draw 9")
    assert rows(s)[1] == ["u7", "4", "9"] and statuses(s)[1] == "stayed"


def test_lucky13_allows_one_other_13():  # F7V-6.3
    s = position(2, [["13"], ["l13"]], to_move=0)
    play(s, "hit", "draw l13", "hit", "draw 13")
    assert statuses(s) == ["active", "active"]
    play(s, "hit", "draw 13")  # a third 13 busts
    assert statuses(s)[0] == "busted"
    s = position(2, [["13"], ["9"]], to_move=0)
    play(s, "hit", "draw 13")  # no Lucky 13: two 13s bust
    assert statuses(s)[0] == "busted"


def test_both_13s_count_toward_flip7():  # F7V-6.3 F7V-7.2
    s = position(2, [["13", "l13", "1", "2", "3", "4"], ["9"]], to_move=0)
    ev = play(s, "hit", "draw 5")
    assert "flip7" in kinds(ev)
    assert s.view(None)["last_round"] == [41 + 15, 9]


def test_specials_through_flip4_and_just_one_more():  # F7V-6.1 F7V-6.3 F7V-4.4 F7V-4.8
    # Zero and Lucky 13 arriving during a Flip 4: counted, no bust, the Zero then forces hits.
    s = position(2, [["3"], ["13"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", "draw zero", "draw l13", "draw 2", "draw 4")
    assert rows(s)[1] == ["13", "zero", "l13", "2", "4"] and statuses(s)[1] == "active"
    assert s.current_player == 1 and legal(s) == ["hit"]
    # Unlucky 7 by Just One More: discards, then the stay.
    s = position(2, [["3"], ["7", "5"]], to_move=0)
    play(s, "hit", "draw jom", "target 1", "draw u7")
    assert rows(s)[1] == ["u7"] and statuses(s)[1] == "stayed"


@pytest.mark.parametrize("card", ["swap", "steal", "discard", "-10", "/2"])
def test_each_special_card_set_aside_in_flip4(card):  # F7V-4.8 F7V-5.1
    s = position(3, [["3"], ["5"], ["6"]], to_move=0)
    play(s, "hit", "draw flip4", "target 1", f"draw {card}", "draw 1", "draw 2", "draw 4")
    assert s.current_player == 1 and s.view(None)["decision"]["card"] == card
    choice = {
        "swap": "swap 0:3 2:6",
        "steal": "steal 2:6",
        "discard": "discard 0:3",
        "-10": "target 2",
        "/2": "target 0",
    }[card]
    play(s, choice)
    want = {
        "swap": [["6"], ["5", "1", "2", "4"], ["3"]],
        "steal": [["3"], ["5", "1", "2", "4", "6"], []],
        "discard": [[], ["5", "1", "2", "4"], ["6"]],
        "-10": [["3"], ["5", "1", "2", "4"], ["6", "-10"]],
        "/2": [["3", "/2"], ["5", "1", "2", "4"], ["6"]],
    }[card]
    assert rows(s) == want
    assert s.current_player == 1


# ----- F7V-7 scoring --------------------
def test_scoring_example_from_the_rulebook():  # F7V-7.3
    s = position(2, [["3", "11", "5", "7", "10", "8", "/2", "-4"], ["9"]], to_move=0)
    ev = play(s, "hit", "draw 4")
    assert s.view(None)["last_round"] == [35, 9]  # 48 → 24 → 20 → +15
    (end,) = [e for e in ev if e.kind == "round_end"]
    assert end.data["breakdown"][0] == {
        "busted": False,
        "numbers": 48,
        "after_multiplier": 24,
        "modifiers": -4,
        "zero": False,
        "bonus": 15,
        "penalty": 0,
        "score": 35,
    }


def test_scores_not_below_zero_and_halving_rounds_down():  # F7V-7.1 F7V-7.2
    s = position(
        3, [["3", "-10"], ["5", "/2"], ["4", "4"]], to_move=0, status=["active", "active", "busted"]
    )
    assert [p["round_score"] for p in s.view(None)["players"]] == [0, 2, 0]


# ----- F7V-8 brutal --------------------
def test_brutal_scores_below_zero_and_modifiers_to_busted():  # F7V-8.1 F7V-8.2
    s = position(
        3,
        [["3", "-10"], ["4", "4"], ["5"]],
        to_move=0,
        status=["active", "busted", "active"],
        brutal=True,
    )
    assert s.view(None)["players"][0]["round_score"] == -7
    play(s, "hit", "draw -6")
    assert legal(s) == ["target 0", "target 1", "target 2"]
    play(s, "target 1")
    v = s.view(None)["players"][1]
    assert v["after_bust"] == ["-6"] and v["round_score"] == -6


def test_brutal_flip7_choice():  # F7V-8.3
    six = ["1", "2", "3", "4", "5", "6"]
    s = position(3, [six, ["9"], ["10"]], to_move=0, brutal=True)
    play(s, "hit", "draw 7")
    assert s.current_player == 0
    assert legal(s) == ["bonus", "penalty 1", "penalty 2"]
    play(s, "penalty 2")
    assert s.view(None)["last_round"] == [28, 9, 10 - 15]
    s = position(3, [six, ["9"], ["10"]], to_move=0, brutal=True)
    play(s, "hit", "draw 7", "bonus")
    assert s.view(None)["last_round"] == [43, 9, 10]


def test_brutal_is_vengeance_only_and_options_validated():  # F7V-8 F7V-9
    with pytest.raises(OptionError):
        game(edition="classic", brutal=True)
    with pytest.raises(OptionError):
        game(edition="deluxe")
    with pytest.raises(OptionError):
        game(target=0)
    assert game(brutal="true").options.brutal is True
    assert game(target="150").options.target == 150


# ----- F7V-9 classic --------------------
def test_classic_deck():  # F7V-9
    s = game(edition="classic").new_state(3)
    play(s, "dealer 0")
    v = s.view(None)
    assert v["deck_size"] == 94
    d = v["deck"]
    assert (d["0"], d["1"], d["2"], d["12"]) == (1, 1, 2, 12) and "13" not in d
    assert [d[t] for t in ("+2", "+4", "+6", "+8", "+10", "x2")] == [1] * 6
    assert [d[t] for t in ("freeze", "flip3", "second")] == [3] * 3


def test_classic_modifiers_go_to_the_drawer_and_scoring():  # F7V-9
    s = position(2, [["3", "5"], ["9"]], to_move=0, edition="classic")
    play(s, "hit", "draw x2")
    assert s.current_player == 1  # no choice
    play(s, "stay", "hit", "draw +4", "stay")
    assert s.view(None)["last_round"] == [(3 + 5) * 2 + 4, 9]


def test_classic_freeze_targets_active_players():  # F7V-9
    s = position(
        3,
        [["3"], ["5"], ["6"]],
        to_move=0,
        status=["active", "active", "stayed"],
        edition="classic",
    )
    play(s, "hit", "draw freeze")
    assert legal(s) == ["target 0", "target 1"]
    play(s, "target 1")
    assert statuses(s) == ["active", "stayed", "stayed"]
    assert s.current_player == 0


def test_classic_second_chance_saves_once():  # F7V-9
    s = position(2, [["5", "second"], ["9"]], to_move=0, edition="classic")
    ev = play(s, "hit", "draw 5")
    assert "second_chance" in kinds(ev) and "bust" not in kinds(ev)
    assert rows(s)[0] == ["5"] and statuses(s)[0] == "active"
    v = s.view(None)
    assert v["discard"]["second"] == 1 and v["discard"]["5"] == 1
    ev = play(s, "stay", "hit", "draw 5")  # no Second Chance left: bust, and the round ends
    assert "bust" in kinds(ev)
    assert s.view(None)["last_round"] == [0, 9]


def test_classic_second_chance_one_per_player():  # F7V-9
    s = position(4, [["3", "second"], ["5"], ["6", "second"], ["7"]], to_move=0, edition="classic")
    play(s, "hit", "draw second")
    assert legal(s) == ["target 1", "target 3"]  # active, without one, not yourself
    play(s, "target 3")
    assert rows(s)[3] == ["7", "second"]
    s = position(3, [["3", "second"], ["5"], ["6", "second"]], to_move=0, edition="classic")
    ev = play(s, "hit", "draw second")
    assert "forced" in kinds(ev) and rows(s)[1] == ["5", "second"]
    s = position(2, [["3", "second"], ["5", "second"]], to_move=0, edition="classic")
    ev = play(s, "hit", "draw second")
    assert "no_target" in kinds(ev) and s.view(None)["discard"]["second"] == 1


def test_classic_flip_three_second_chance_kept_at_once_freeze_deferred():  # F7V-9
    s = position(2, [["3"], ["5"]], to_move=0, edition="classic")
    play(s, "hit", "draw flip3", "target 1", "draw freeze", "draw second")
    ev = play(s, "draw 5")  # the Second Chance drawn in this Flip Three saves P1
    assert "second_chance" in kinds(ev)
    assert s.current_player == 1 and legal(s) == ["target 0", "target 1"]
    play(s, "target 0")
    assert statuses(s) == ["stayed", "active"]
    assert s.current_player == 1


def test_classic_flip7_bonus():  # F7V-9
    s = position(2, [["0", "1", "2", "3", "4", "5", "+2"], ["9"]], to_move=0, edition="classic")
    play(s, "hit", "draw 6")  # 0 counts as a number card toward the seven
    assert s.view(None)["last_round"] == [21 + 2 + 15, 9]


# ----- notation and errors --------------------
def test_notation_round_trip_and_errors():
    g = game()
    for text in [
        "hit",
        "stay",
        "target 3",
        "swap 0:5 2:-4",
        "steal 1:l13",
        "discard 3:zero",
        "bonus",
        "penalty 2",
        "draw /2",
        "dealer 1",
    ]:
        assert str(g.action_from_str(text)) == text
    assert str(g.action_from_str("Steal P1:L13")) == "steal 1:l13"
    for bad in ["", "jump", "swap 2:5 0:4", "steal 1", "draw 99", "target x"]:
        with pytest.raises(NotationError):
            g.action_from_str(bad)


def test_illegal_actions_leave_the_state_unchanged():  # F7V-3.6 F7V-4.1
    s = position(3, [["3"], ["5"], ["4", "4"]], to_move=0, status=["active", "active", "busted"])
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(s.game.action_from_str("draw 5"))
    assert s.to_json() == before
    play(s, "hit", "draw -4")
    before = s.to_json()
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.game.action_from_str("target 2"))
    assert info.value.rule == "F7V-5.1"
    assert s.to_json() == before
    s.set_piles({"5": 1})
    play(s, "target 0", "hit")
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.game.action_from_str("draw 6"))
    assert info.value.rule == "F7V-3.6"


def test_text_in_both_languages():
    g = game()
    s = position(2, [["zero", "9", "-4"], ["5"]], to_move=0)
    en = g.render(s.view(0), "en")
    ja = g.render(s.view(0), "ja")
    assert "Zero" in en and "hit or stay" in en
    assert "ゼロ" in ja and "ヒットかステイ" in ja
    assert g.describe_action(g.action_from_str("hit"), "ja") == "ヒット"
    assert "Flip 4" in g.rules_text("en") and "フリップ4" in g.rules_text("ja")
    assert "Freeze" in game(edition="classic").rules_text("en")


@pytest.mark.parametrize(
    ("card", "then", "want_rows", "want_status", "to_move"),
    [
        ("zero", [], [["3"], ["5", "zero"], ["6"]], ["active", "stayed", "active"], 2),
        ("l13", [], [["3"], ["5", "l13"], ["6"]], ["active", "stayed", "active"], 2),
        ("u7", [], [["3"], ["u7"], ["6"]], ["active", "stayed", "active"], 2),
        ("5", [], [["3"], ["5", "5"], ["6"]], ["active", "busted", "active"], 2),
        ("-4", ["target 2"], [["3"], ["5"], ["6", "-4"]], ["active", "stayed", "active"], 2),
        ("swap", ["swap 0:3 2:6"], [["6"], ["5"], ["3"]], ["active", "stayed", "active"], 2),
        ("steal", ["steal 2:6"], [["3"], ["5", "6"], []], ["active", "stayed", "active"], 2),
        ("discard", ["discard 0:3"], [[], ["5"], ["6"]], ["active", "stayed", "active"], 2),
        (
            "jom",
            ["target 2", "draw 1"],
            [["3"], ["5"], ["6", "1"]],
            ["active", "stayed", "stayed"],
            0,
        ),
        (
            "flip4",
            ["target 0", "draw 1", "draw 2", "draw 4", "draw 7"],
            [["3", "1", "2", "4", "7"], ["5"], ["6"]],
            ["active", "stayed", "active"],
            2,
        ),
    ],
)
def test_each_card_after_just_one_more(card, then, want_rows, want_status, to_move):
    # F7V-4.4: the target takes the next card, resolves it, then stays (unless busted).
    s = position(3, [["3"], ["5"], ["6"]], to_move=0)
    play(s, "hit", "draw jom", "target 1", f"draw {card}", *then)
    assert rows(s) == want_rows
    assert statuses(s) == want_status
    assert s.current_player == to_move


def test_guard_no_card_anywhere_ends_the_round():  # rulings: finite games
    s = position(2, [["3"], ["9"]], to_move=0, deck={})
    ev = play(s, "hit")
    assert "no_cards" in kinds(ev) and "round_end" in kinds(ev)
    assert s.view(None)["last_round"] == [3, 9]


def test_guard_draw_cap_and_round_cap():  # rulings: finite games
    g = game()
    assert g.round_draw_cap(4) == 324 and g.max_rounds() == 300
    assert g.max_game_length(4) == 1 + 300 * (3 * 324 + 4 + 2)
    s = position(2, [["3"], ["9"]], to_move=0, totals=[10, 5])
    data = s.state_dict()
    data["round_draws"] = 324
    data["round"] = 300
    s.load_state_dict(data)
    ev = play(s, "hit")
    assert "draw_limit" in kinds(ev)
    assert s.current_player == TERMINAL
    assert s.scores() == [13.0, 14.0] and s.winners() == [1]
