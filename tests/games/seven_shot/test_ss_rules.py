"""Seven Shot rules, one scenario per rule id, on hand-built deals (rules/seven-shot.md)."""

from __future__ import annotations

import json

import pytest
from ss_helpers import SEVEN_TRICKS_HANDS, SEVEN_TRICKS_PLAYS, cards, fill_hands, game, play

from septet.core.errors import IllegalActionError, NotationError, OptionError
from septet.core.types import CHANCE, TERMINAL
from septet.games.seven_shot.actions import Deal, FirstLeader, Pass, Play
from septet.games.seven_shot.cards import (
    ACE,
    CARD_NAMES,
    RANK_OF,
    SEVENS,
    SUIT_OF,
    card_id,
    parse_card,
)


# ----- SS-1 cards ------------------------------------------------------------------------------
def test_deck_has_49_cards_7_suits_of_consecutive_ranks() -> None:
    # SS-1.1: suit s holds ranks s+1 .. s+7; one 7 per suit.
    assert len(set(CARD_NAMES)) == 49
    for s in range(7):
        ranks = sorted(RANK_OF[c] for c in range(49) if SUIT_OF[c] == s)
        assert ranks == list(range(s + 1, s + 8))
    assert [CARD_NAMES[c] for c in SEVENS] == ["S7", "M7", "F7", "W7", "T7", "G7", "E7"]
    assert CARD_NAMES[0] == "S1" and CARD_NAMES[48] == "E13"
    assert card_id(6, 13) == 48 and card_id(2, 7) == parse_card("f7")


def test_the_ace_is_rank_1_of_the_first_suit() -> None:
    # SS-1.2
    assert ACE == parse_card("S1") == 0


def test_card_notation_rejects_ranks_outside_the_suit() -> None:
    # SS-1.1: Fire has ranks 3-9 only.
    with pytest.raises(NotationError, match="3–9"):
        parse_card("F2")
    with pytest.raises(NotationError):
        parse_card("X5")


def test_options_are_validated() -> None:
    with pytest.raises(OptionError):
        game(target=0)
    with pytest.raises(OptionError):
        game(pass_cards=9)
    with pytest.raises(OptionError):
        game().new_state(5)


# ----- SS-2 the deal -----------------------------------------------------------------------------
def test_deal_is_49_uniform_chance_nodes_then_the_indicator() -> None:
    # SS-2.2: all 48 cards to the hands, the 49th face up as the trump indicator.
    state = game().new_state(4)
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 49 and all(p == pytest.approx(1 / 49) for _, p in outcomes)
    for c in range(48):
        (dealt,) = state.apply(Deal(c))
        # Each card is seen by its receiver only (card c goes to seat c % 4 here).
        assert dealt.kind == "card_dealt" and dealt.seat == c % 4
        assert dealt.is_visible(c % 4) and not dealt.is_visible((c + 1) % 4)
    assert state.chance_outcomes() == [(Deal(48), 1.0)]
    events = state.apply(Deal(48))
    assert [e.kind for e in events] == ["trump_indicator"]
    assert state.view(None)["trump_indicator"] == "E13"
    assert state.view(None)["trump"] == "E"
    assert state.view(1)["hand"] == [CARD_NAMES[c] for c in range(1, 48, 4)]
    assert state.view(None)["hand_sizes"] == [12, 12, 12, 12]


def test_a_dealt_card_cannot_be_dealt_again() -> None:
    # SS-2.2
    state = game().new_state(3)
    state.apply(Deal(5))
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError) as err:
        state.apply(Deal(5))
    assert err.value.rule == "SS-2.2"
    assert json.dumps(state.to_json()) == before


def test_four_players_pass_three_cards_to_the_partner_unseen() -> None:
    # SS-2.3: simultaneous: nobody sees another's choice before all have chosen.
    hands = fill_hands(4, [], "E13")
    state = game().deal_state(hands, "E13")
    assert state.view(None)["phase"] == "pass" and state.current_player == 0
    view1 = state.view(1)
    spectator = state.view(None)
    for text in hands[0][:3]:
        state.apply(Pass(parse_card(text)))
    # Seat 1's view changed only in whose turn it is and how many cards seat 0 has chosen.
    changed = {k for k, v in state.view(1).items() if view1[k] != v}
    assert changed == {"to_move", "pass_counts"}
    assert state.view(1)["pass_counts"] == [3, 0, 0, 0]
    changed = {k for k, v in state.view(None).items() if spectator[k] != v}
    assert changed == {"to_move", "pass_counts"}
    assert state.view(0)["passing"] == hands[0][:3]
    assert state.view(0)["hand"] == sorted(hands[0][3:], key=parse_card)
    # Seat 2 chooses without having received anything.
    assert state.view(2)["hand"] == sorted(hands[2], key=parse_card)
    for s in (1, 2, 3):
        for text in hands[s][-3:]:
            state.apply(Pass(parse_card(text)))
    assert state.view(None)["phase"] == "first_leader"
    v0 = state.view(0)
    assert v0["passed"] == hands[0][:3] and v0["passed_to"] == 2
    assert v0["received"] == sorted(hands[2][-3:], key=parse_card)
    assert v0["received_from"] == 2
    assert v0["hand"] == sorted(hands[0][3:] + hands[2][-3:], key=parse_card)
    assert state.view(2)["received"] == hands[0][:3]
    assert state.view(None)["passed"] is None


def test_pass_events_are_private() -> None:
    # SS-2.3
    state = game().deal_state(fill_hands(4, [], "E13"), "E13")
    events = state.apply(Pass(parse_card(state.view(0)["hand"][0])))
    assert [e.kind for e in events] == ["pass_chosen"]
    assert events[0].is_visible(0) and not events[0].is_visible(1)
    assert not events[0].is_visible(None)


def test_three_players_pass_to_the_left() -> None:
    # SS-5.2: seat s passes to seat s+1.
    hands = fill_hands(3, [], "S2")
    state = game().deal_state(hands, "S2", passes=[h[:3] for h in hands])
    assert state.view(1)["received"] == sorted(hands[0][:3], key=parse_card)
    assert state.view(1)["received_from"] == 0
    assert state.view(0)["received"] == sorted(hands[2][:3], key=parse_card)
    assert state.view(2)["passed_to"] == 0


def test_a_card_passed_cannot_be_played_or_passed_twice() -> None:
    # SS-2.3
    hands = fill_hands(4, [], "E13")
    state = game().deal_state(hands, "E13")
    card = parse_card(hands[0][0])
    state.apply(Pass(card))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Pass(card))
    assert err.value.rule == "SS-2.3"
    with pytest.raises(IllegalActionError):
        state.apply(Play(parse_card(hands[0][1])))


def test_first_leader_is_random_then_rotates_left() -> None:
    # SS-2.4: chance in deal 1; then left of the previous deal's first leader.
    hands = fill_hands(3, [], "S2")
    state = game().deal_state(hands, "S2", passes=[h[:3] for h in hands], first_leader=2)
    assert state.history[-1] == FirstLeader(2)
    assert state.current_player == 2
    fresh = game(pass_cards=0).new_state(4)
    for c in range(49):
        fresh.apply(Deal(c))
    assert fresh.current_player == CHANCE
    assert fresh.chance_outcomes() == [(FirstLeader(s), 0.25) for s in range(4)]


# ----- SS-3 tricks -------------------------------------------------------------------------------
def _four_player_trick_deal(indicator: str = "E13") -> list[list[str]]:
    # Seat 0 holds every Water card but W7; seats 1-3 are void in Water.
    fixed = [
        ["W4", "W5", "W6", "W8", "W9", "W10"],
        ["E8", "T11", "M2"],
        ["S1", "E7", "T10"],
        ["E9", "W7"],
    ]
    return fill_hands(4, fixed, indicator, voids={1: "W", 2: "W"})


def test_the_ace_wins_even_when_trumps_are_played() -> None:
    # SS-3.2: the A beats trumps. Trump Earth; W5 led, E8 and E9 trumped, S1 (the A) wins.
    state = game(pass_cards=0).deal_state(_four_player_trick_deal(), "E13")
    state.apply(Play(parse_card("W5")))
    # Seat 1 is void in Water: any card is legal.
    assert len(state.legal_actions()) == 12
    state.apply(Play(parse_card("E8")))
    state.apply(Play(parse_card("S1")))
    # Seat 3 holds W7 and must follow suit.
    assert state.legal_actions() == [Play(parse_card("W7"))]
    events = state.apply(Play(parse_card("W7")))
    won = next(e for e in events if e.kind == "trick_won")
    assert won.seat == 2 and won.data["how"] == "ace"
    assert state.current_player == 2
    assert state.view(None)["taken"][2] == ["S1", "W5", "W7", "E8"]
    assert state.view(None)["tricks_won"] == [0, 0, 1, 0]


def test_the_highest_trump_wins() -> None:
    # SS-3.2: no A; two trumps; the higher (E8 over E7) wins although W10 is higher in rank.
    state = game(pass_cards=0).deal_state(_four_player_trick_deal(), "E13")
    play(state, "W10 E8")
    play(state, "E7 W7")
    assert state.view(None)["tricks"][0] == {
        "leader": 0,
        "cards": ["W10", "E8", "E7", "W7"],
        "seats": [0, 1, 2, 3],
        "winner": 1,
        "how": "trump",
    }


def test_without_trump_the_highest_card_of_the_led_suit_wins() -> None:
    # SS-3.2: T11 is off-suit (Tree is not trump) and loses to W7 of the led suit.
    state = game(pass_cards=0).deal_state(_four_player_trick_deal(), "E13")
    play(state, "W5 T11 T10 W7")
    assert state.view(None)["tricks"][0]["winner"] == 3
    assert state.current_player == 3  # SS-3.3: the winner leads


def test_must_follow_suit_when_able() -> None:
    # SS-3.1: seat 3 holds W7, so a Water lead must be followed; the state is unchanged.
    state = game(pass_cards=0).deal_state(_four_player_trick_deal(), "E13")
    play(state, "W5 E8 S1")
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("E9")))
    assert err.value.rule == "SS-3.1"
    assert "follow suit" in err.value.reason
    assert json.dumps(state.to_json()) == before
    with pytest.raises(IllegalActionError):
        state.apply(Play(parse_card("W4")))  # not in seat 3's hand


def test_failure_to_follow_reveals_a_void() -> None:
    # SS-3.1: a seat that does not follow has no card of the led suit.
    state = game(pass_cards=0).deal_state(_four_player_trick_deal(), "E13")
    play(state, "W5 E8")
    assert state.view(3)["voids"] == [[], ["W"], [], []]


# ----- SS-4 end of a deal (4 players) -----------------------------------------------------------
def test_four_sevens_end_the_deal() -> None:
    # SS-4.1: W7 led, M7 F7 T7 discarded by void seats: team A (0 & 2) has 4 7s after one trick.
    # SS-4.4: 4 - 0 + 1 = 5 points.
    hands = fill_hands(
        4,
        [["W4", "W5", "W6", "W7", "W8", "W9", "W10"], ["M7"], ["F7"], ["T7"]],
        "E13",
        voids={1: "W", 2: "W", 3: "W"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13")
    events = []
    for text in ["W7", "M7", "F7", "T7"]:
        events = state.apply(Play(parse_card(text)))
    end = next(e for e in events if e.kind == "deal_end").data
    assert end["condition"] == "sevens" and end["rule"] == "SS-4.1"
    assert end["sevens"] == [4, 0] and end["gains"] == [5, 0]
    assert end["formula"] == "4 - 0 + 1 = 5"
    assert state.scores() == [5.0, 0.0, 5.0, 0.0]
    assert state.deal_number == 2 and state.current_player == CHANCE


def test_seven_tricks_lose_and_the_losers_sevens_are_transferred() -> None:
    # SS-4.2: team B (1 & 3) leads and wins 7 tricks, taking M7 on the way. Its 7s in hand (W7,
    # T7, E7) and the 7 indicator (G7) go to team A, which wins: 4 - 1 + 1 = 4 points (SS-4.4).
    state = game(pass_cards=0).deal_state(SEVEN_TRICKS_HANDS, "G7", first_leader=1)
    play(state, SEVEN_TRICKS_PLAYS[: -len(" G9")])
    assert state.view(None)["side_tricks"] == [0, 6]
    events = state.apply(Play(parse_card("G9")))
    end = next(e for e in events if e.kind == "deal_end").data
    assert end["condition"] == "seven_tricks" and end["rule"] == "SS-4.2"
    assert end["winning_sides"] == [0]
    assert end["transferred"] == ["W7", "T7", "G7", "E7"]
    assert end["sevens"] == [4, 1]
    assert end["gains"] == [4, 0]
    assert state.scores() == [4.0, 0.0, 4.0, 0.0]


_MIN_ONE_HANDS = [
    cards("S4 M3 F7 W6 T8 E10 G9 S7 T7 E7 F5 W9"),
    cards("S6 M8 F9 W10 T11 E13 G12 S1 W4 M4 F6 G10"),
    cards("S2 M2 F3 W7 T5 E8 G6 T9 T10 G7 E11 E12"),
    cards("S3 M7 F4 W5 T6 E9 G8 S5 M6 M5 F8 W8"),
]
_MIN_ONE_PLAYS = "S6 S2 S3 S4  M8 M2 M7 M3  F9 F3 F4 F7  W10 W7 W5 W6  T11 T5 T6 T8  E13 E8 E9 E10"


def test_points_are_at_least_one() -> None:
    # SS-4.4 ruling: team B takes 7 tricks holding M7 F7 W7 among them and no 7 in hand; team A
    # wins with 0 7s: 0 - 3 + 1 = -2, so 1 point.
    state = game(pass_cards=0).deal_state(_MIN_ONE_HANDS, "G11", first_leader=1)
    play(state, _MIN_ONE_PLAYS + "  G12 G6 G8 G9")
    end = state.deal_log[-1]
    assert end["condition"] == "seven_tricks"
    assert end["transferred"] == []
    assert end["sevens"] == [0, 3]
    assert end["formula"] == "0 - 3 + 1 = -2"
    assert end["gains"] == [1, 0]
    assert state.points == [1, 0]


def test_four_sevens_come_before_seven_tricks() -> None:
    # SS-4 order: team B takes its 7th trick with its 4th 7 (G7 on G12): SS-4.1 applies, not
    # SS-4.2, and team B wins 4 - 0 + 1 = 5.
    state = game(pass_cards=0).deal_state(_MIN_ONE_HANDS, "G11", first_leader=1)
    play(state, _MIN_ONE_PLAYS + "  G12 G7 G8 G9")
    end = state.deal_log[-1]
    assert end["condition"] == "sevens" and end["tricks"] == [0, 7]
    assert end["sevens"] == [0, 4] and end["gains"] == [0, 5]


# ----- SS-4.3 and SS-5 (3 players) ---------------------------------------------------------------
_EMPTY_HANDS = [
    cards("S2 S1 S6 M7 M3 W5 W6 T5 T9 G9 G10 E7 E12 E11 F4 F8"),
    cards("S5 S4 M8 M6 M5 W4 W8 T6 T11 T10 G7 G6 E13 E8 F3 F5"),
    cards("S3 S7 M2 M4 W7 W10 W9 T7 T8 G8 G12 G11 E9 E10 F9 F6"),
]
_EMPTY_PLAYS = (
    "S2 S5 S3  M8 M2 M7  W4 W7 W5  T7 T5 T6  G8 G9 G7  E7 E13 E9  F3 F9 F4  S7 S1 S4"
    "  M3 M6 M4  W8 W10 W6  T8 T9 T11  G6 G12 G10  E10 E12 E8  F8 F5 F6  S6 M5 W9  E11 T10 G11"
)


def test_exhausted_hands_give_the_indicator_to_the_last_trick_and_half_points() -> None:
    # SS-4.3: 16 tricks, nobody reaches 3 7s or 7 tricks; seat 0 wins the last trick and takes
    # the F7 indicator: 7s are 3 / 2 / 2. SS-5.4: 3 - 2 + 1 = 2 points; seats 1 and 2 share the
    # second-highest count and get 2 // 2 = 1 each.
    state = game(pass_cards=0).deal_state(_EMPTY_HANDS, "F7", first_leader=0)
    play(state, _EMPTY_PLAYS)
    end = state.deal_log[-1]
    assert end["condition"] == "hands_empty" and end["rule"] == "SS-4.3"
    assert end["indicator_to"] == 0
    assert end["tricks"] == [6, 5, 5]
    assert end["sevens"] == [3, 2, 2]
    assert end["gains"] == [2, 1, 1]
    assert state.scores() == [2.0, 1.0, 1.0]
    assert state.last_tricks[7] == (2, (parse_card("S7"), 0, parse_card("S4")), 0)  # the A
    # SS-2.4: the next deal is led first by seat 1.
    assert state.first_leader == 1 and state.deal_number == 2


def test_three_sevens_end_a_three_player_deal_with_half_points() -> None:
    # SS-5.3 and SS-5.4: seat 0 takes S7 M7 F7 in one trick (A led, two void seats discard 7s)
    # ... then 3 - 0 + 1 = 4 points; seats 1 and 2 both have 0 (the second-highest count) and
    # get 4 // 2 = 2 each.
    hands = fill_hands(
        3,
        [["S1", "S2", "S3", "S4", "S5", "S6", "S7"], ["M7"], ["F7"]],
        "E13",
        voids={1: "S", 2: "S"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "S7 M7 F7")
    end = state.deal_log[-1]
    assert end["condition"] == "sevens" and end["sevens"] == [3, 0, 0]
    assert end["gains"] == [4, 2, 2]


def _seven_trick_three_player_deal() -> list[list[str]]:
    fixed = [
        cards("M8 F9 W10 T11 E13 G12 M6"),
        cards("M2 F3 W4 T5 E8 G6 M4"),
        cards("M3 F4 W5 T6 E9 G8 M5"),
    ]
    return fill_hands(3, fixed, "S2")


_SEVEN_TRICK_PLAYS = "M8 M2 M3  F9 F3 F4  W10 W4 W5  T11 T5 T6  E13 E8 E9  G12 G6 G8  M6 M4 M5"


def test_seven_tricks_give_the_two_others_two_points_each() -> None:
    # SS-5.5: seat 0 wins 7 tricks in a row; seats 1 and 2 win the deal with 2 points each.
    state = game(pass_cards=0).deal_state(_seven_trick_three_player_deal(), "S2")
    play(state, _SEVEN_TRICK_PLAYS)
    end = state.deal_log[-1]
    assert end["condition"] == "seven_tricks" and end["winning_sides"] == [1, 2]
    assert end["gains"] == [0, 2, 2]
    assert state.scores() == [0.0, 2.0, 2.0]
    assert not state.is_terminal


@pytest.mark.parametrize(
    ("before", "after", "winners"),
    [
        ([0, 6, 6], [0, 8, 8], [1, 2]),  # SS-5.6: both reach 7 with equal totals: shared win
        ([0, 6, 5], [0, 8, 7], [1]),  # SS-5.6: both reach 7; the highest total wins
        ([6, 4, 0], [6, 6, 2], []),  # nobody at 7: the game goes on
    ],
)
def test_game_end_and_ties_with_three_players(
    before: list[int], after: list[int], winners: list[int]
) -> None:
    state = game(pass_cards=0).deal_state(
        _seven_trick_three_player_deal(), "S2", points=before, deal_number=3
    )
    play(state, _SEVEN_TRICK_PLAYS)
    assert state.points == after
    assert state.winners() == winners
    assert state.is_terminal == bool(winners)
    if winners:
        assert state.current_player == TERMINAL
        assert state.returns() == [1.0 if s in winners else 0.0 for s in range(3)]
        assert state.legal_actions() == []


def test_team_game_ends_at_seven_points() -> None:
    # SS-2.1: team A has 3 and wins 5 points: 8 >= 7, seats 0 and 2 win.
    hands = fill_hands(
        4,
        [["W4", "W5", "W6", "W7", "W8", "W9", "W10"], ["M7"], ["F7"], ["T7"]],
        "E13",
        voids={1: "W", 2: "W", 3: "W"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13", points=[3, 6], deal_number=4)
    play(state, "W7 M7 F7 T7")
    assert state.is_terminal
    assert state.winners() == [0, 2]
    assert state.scores() == [8.0, 6.0, 8.0, 6.0]


def test_notation_round_trips_and_actions_have_ids() -> None:
    g = game()
    for a in [Play(0), Pass(48), Deal(17), FirstLeader(3)]:
        assert g.action_from_str(str(a)) == a
    assert g.action_from_str("play f7") == Play(parse_card("F7"))
    assert g.action_to_id(Pass(0), 4) == 49 and g.id_to_action(97, 4) == Pass(48)
    with pytest.raises(ValueError):
        g.action_to_id(Deal(0), 4)
    with pytest.raises(NotationError):
        g.action_from_str("first 9")
