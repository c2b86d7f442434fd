"""Audit of the Seven Shot engine against ``shared/rules/seven-shot.md`` (SS-1 … SS-5) and the
Japanese source: hand-built deals with the answers worked out by hand."""

from __future__ import annotations

import json
import random

import pytest
from ss_helpers import SEVEN_TRICKS_HANDS, SEVEN_TRICKS_PLAYS, cards, fill_hands, game, play

from septet.core.errors import IllegalActionError
from septet.core.types import CHANCE
from septet.games.seven_shot.actions import Pass, Play
from septet.games.seven_shot.cards import SUIT_MASK, SUIT_OF, cards_of, parse_card
from septet.games.seven_shot.state import SevenShotState


def _legal_names(state: SevenShotState) -> list[str]:
    return sorted((str(a) for a in state.legal_actions()), key=parse_card)


def _sun_in_hand(state: SevenShotState, seat: int) -> list[str]:
    return sorted(
        (c for c in state.view(seat)["hand"] if SUIT_OF[parse_card(c)] == 0), key=parse_card
    )


# ----- SS-3.1 / SS-3.2: the A and following suit -----
def _ace_deal(indicator: str = "E13") -> list[list[str]]:
    # Seat 0: the A and W4; seat 1: S5 and E8 (must follow a Sun lead); seat 2: void in Sun, E12;
    # seat 3: S3 and W9.
    fixed = [["S1", "W4"], ["S5", "E8"], ["E12"], ["S3", "W9"]]
    return fill_hands(4, fixed, indicator, voids={2: "S"})


def test_a_led_makes_sun_the_led_suit_and_wins_over_trump() -> None:
    # SS-3.1: the A is a Sun card: led, it must be followed with Sun cards by whoever holds one.
    # SS-3.2: it wins although Earth (trump) is played.
    state = game(pass_cards=0).deal_state(_ace_deal(), "E13")
    state.apply(Play(parse_card("S1")))
    assert state.view(None)["led_suit"] == "S"
    assert _legal_names(state) == _sun_in_hand(state, 1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("E8")))
    assert err.value.rule == "SS-3.1"
    play(state, "S5")
    # Seat 2 is void in Sun: any card, a trump included.
    assert len(state.legal_actions()) == 12
    play(state, "E12")
    assert _legal_names(state) == _sun_in_hand(state, 3)
    play(state, "S3")
    assert state.view(None)["tricks"][0]["winner"] == 0
    assert state.current_player == 0


def test_the_a_cannot_be_discarded_when_holding_the_led_suit() -> None:
    # SS-3.1: seat 3 holds W9, so on a Water lead the A (a Sun card) is not playable.
    hands = fill_hands(4, [["W4"], [], [], ["S1", "W9"]], "E13", voids={1: "W", 2: "W"})
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "W4")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.current_player == 3
    assert "S1" not in _legal_names(state)
    assert all(SUIT_OF[parse_card(c)] == 3 for c in _legal_names(state))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("S1")))
    assert err.value.rule == "SS-3.1"


def test_the_a_is_the_only_sun_card_so_it_must_follow_and_wins() -> None:
    # SS-3.1: seat 1's only Sun card is the A: a Sun lead forces it. SS-3.2: it beats S7.
    hands = fill_hands(4, [["S2", "S7"], ["S1"], [], []], "E13", voids={1: "S"})
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "S2")
    assert _legal_names(state) == ["S1"]
    state.apply(state.legal_actions()[0])
    for _ in range(2):
        legal = state.legal_actions()
        state.apply(legal[-1])  # the highest legal card (Sun if they hold one)
    trick = state.view(None)["tricks"][0]
    assert trick["winner"] == 1, trick


def test_the_a_discarded_on_a_trump_lead_wins() -> None:
    # SS-3.2: Moon trump (indicator M8) is led; seat 1, void in Moon, discards the A and wins
    # over M6.
    hands = fill_hands(4, [["M3"], ["S1"], ["M6"], []], "M8", voids={1: "M"})
    state = game(pass_cards=0).deal_state(hands, "M8")
    play(state, "M3 S1 M6")
    state.apply(state.legal_actions()[0])
    assert state.view(None)["tricks"][0]["winner"] == 1


def test_with_sun_trump_the_highest_trump_wins_without_the_a() -> None:
    # SS-3.2: trump is Sun (indicator S4). Water led; seats 1 and 2, void in Water, play S3 and
    # S6: S6 (the highest trump) wins although W10 is the highest card played.
    hands = fill_hands(4, [["W5"], ["S3"], ["S6"], ["W10"]], "S4", voids={1: "W", 2: "W", 3: "S"})
    state = game(pass_cards=0).deal_state(hands, "S4")
    play(state, "W5 S3 S6 W10")
    assert state.view(None)["tricks"][0]["winner"] == 2


def test_a_trump_lead_is_won_by_the_highest_trump_not_the_highest_rank() -> None:
    # SS-3.2: Moon trump (indicator M8) led with M3; M4 follows; seat 2 (void in Moon) discards
    # G12, seat 3 M6: M6 wins (G12 is neither trump nor led).
    hands = fill_hands(4, [["M3"], ["M4"], ["G12"], ["M6"]], "M8", voids={2: "M"})
    state = game(pass_cards=0).deal_state(hands, "M8")
    play(state, "M3 M4 G12 M6")
    assert state.view(None)["tricks"][0]["winner"] == 3


# ----- SS-4.1: partners' 7s count together -----
def test_four_sevens_taken_by_both_partners_end_the_deal() -> None:
    # SS-4.1: team A (0 & 2) takes M7 F7 (trick 1, seat 0), W7 (trick 2, seat 2 trumps) and G7
    # (trick 3, seat 2): 4 7s after trick 3, split over both partners. SS-4.4: 4 - 0 + 1 = 5.
    hands = fill_hands(
        4,
        [
            ["W8", "W9", "W10", "G7"],
            ["M7", "S2", "E9"],
            ["F7", "E12", "E11"],
            ["W4", "W7", "E8", "E7"],
        ],
        "E13",
        voids={0: "E", 1: "W", 2: "W"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "W10 M7 F7 W4")
    assert state.view(None)["side_sevens"] == [2, 0]
    play(state, "W9 S2 E12 W7")
    assert state.view(None)["tricks"][1]["winner"] == 2
    assert state.view(None)["side_sevens"] == [3, 0] and state.deal_number == 1
    play(state, "E11 E8 G7 E9")
    end = state.deal_log[-1]
    assert end["condition"] == "sevens" and end["rule"] == "SS-4.1"
    assert end["sevens"] == [4, 0] and end["gains"] == [5, 0]
    assert end["tricks"] == [3, 0]
    # SS-2.4: deal 2 is first led by the seat left of deal 1's first leader (0).
    assert state.deal_number == 2 and state.first_leader == 1


# ----- SS-5.4: half points go to the second-highest count only, rounded down -----
def test_three_player_half_points_round_down_and_skip_the_lowest() -> None:
    # SS-5.3: seat 1 takes M7 (trick 1); seat 0 takes F7 with the A (trick 2), then S7 and G7
    # (trick 3): 3 7s. SS-5.4: 3 - 1 + 1 = 3; seat 1 (1 7, the second-highest count) gets
    # 3 // 2 = 1; seat 2 (no 7) gets nothing.
    hands = fill_hands(
        3,
        [["W5", "S1", "S7"], ["W10", "S2", "G7"], ["M7", "F7", "T11"]],
        "E13",
        voids={1: "S", 2: "SW"},
    )
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "W5 W10 M7")
    assert state.current_player == 1
    play(state, "S2 F7 S1")
    assert state.view(None)["tricks"][1]["winner"] == 0
    assert state.view(None)["sevens_taken"] == [1, 1, 0]
    play(state, "S7 G7 T11")
    end = state.deal_log[-1]
    assert end["condition"] == "sevens" and end["rule"] == "SS-4.1"
    assert end["sevens"] == [3, 1, 0]
    assert end["formula"] == "3 - 1 + 1 = 3"
    assert end["gains"] == [3, 1, 0]
    assert state.scores() == [3.0, 1.0, 0.0]


# ----- SS-4.3 with 4 players: the last trick takes a 7 indicator -----
# Twelve tricks, six per team; every suit is played in two tricks and a void player trumps the
# second; the 6 7s in hand split 3 / 3 (team A: M7 F7 W7; team B: T7 G7 S7). Seat 3 wins the last
# trick and takes the E7 indicator: team B has 4 7s but SS-4.1 is not checked again.
_EMPTY4_HANDS = [
    cards("M8 M4 F4 F6 W10 W6 T8 T10 G12 G10 S3 S5"),
    cards("M2 E8 F3 F8 W7 E10 T5 T7 G6 E12 S6 S7"),
    cards("M7 M5 F9 F5 W5 W8 T11 T9 G9 G11 S1 S4"),
    cards("M3 M6 F7 E9 W4 W9 T6 E11 G8 G7 S2 E13"),
]
_EMPTY4_PLAYS = (
    "M8 M2 M7 M3  M4 E8 M5 M6  F3 F9 F7 F4  F5 E9 F6 F8  W4 W10 W7 W5  W6 E10 W8 W9"
    "  T5 T11 T6 T8  T9 E11 T10 T7  G8 G12 G6 G9  G10 E12 G11 G7  S6 S1 S2 S3  S4 E13 S5 S7"
)


def test_four_player_empty_hands_give_the_indicator_to_the_last_trick() -> None:
    # SS-4.3, SS-4.4: team B 3 7s + the E7 indicator = 4, team A 3: 4 - 3 + 1 = 2 points.
    state = game(pass_cards=0).deal_state(_EMPTY4_HANDS, "E7")
    plays = _EMPTY4_PLAYS.split()
    play(state, " ".join(plays[:-1]))
    assert state.view(None)["side_sevens"] == [3, 2]  # S7 is in the last trick
    assert state.view(None)["side_tricks"] == [6, 5]
    winners = [t["winner"] for t in state.view(None)["tricks"]]
    assert winners == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2]
    assert state.view(None)["tricks"][10]["cards"] == ["S6", "S1", "S2", "S3"]  # the A wins
    play(state, plays[-1])
    end = state.deal_log[-1]
    assert end["condition"] == "hands_empty" and end["rule"] == "SS-4.3"
    assert end["last_trick_winner"] == 3 and end["indicator_to"] == 3
    assert end["tricks"] == [6, 6]
    assert end["sevens"] == [3, 4]
    assert end["gains"] == [0, 2]
    assert end["formula"] == "4 - 3 + 1 = 2"
    assert state.scores() == [0.0, 2.0, 0.0, 2.0]
    assert state.first_leader == 1 and state.deal_number == 2


# ----- SS-2.1: the game end with 4 players -----
def test_only_the_winning_team_scores_when_both_are_near_seven() -> None:
    # SS-2.1 / SS-4.2: at 6 - 6, team B takes 7 tricks and loses the deal; team A scores 4 and
    # wins the game; team B stays at 6.
    state = game(pass_cards=0).deal_state(
        SEVEN_TRICKS_HANDS, "G7", first_leader=1, points=[6, 6], deal_number=5
    )
    play(state, SEVEN_TRICKS_PLAYS)
    assert state.is_terminal
    assert state.points == [10, 6]
    assert state.winners() == [0, 2]
    assert state.returns() == [1.0, 0.0, 1.0, 0.0]


# ----- SS-2.4: the first leader rotates left, deal after deal -----
@pytest.mark.parametrize("num_players", [3, 4])
def test_first_leader_rotates_left_over_many_deals(num_players: int) -> None:
    # SS-2.4: deal 1 random; each later deal, the seat after the previous first leader; the
    # first trick of every deal is led by it.
    state = game(pass_cards=0, target=40).new_state(num_players)
    rng = random.Random(7)
    firsts: list[int] = []
    leaders: list[int] = []
    while not state.is_terminal and len(firsts) < 6:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            if not state.trick and not state.tricks:
                firsts.append(state.first_leader)
                leaders.append(state.current_player)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert len(firsts) == 6
    assert firsts == [(firsts[0] + i) % num_players for i in range(6)]
    assert leaders == firsts


# ----- SS-2.3 / SS-5.2: the simultaneous pass -----
def test_three_player_pass_is_simultaneous() -> None:
    # SS-5.2: seat 0 passes to seat 1 who must choose from the cards it was dealt: seat 0's
    # chosen cards are neither in seat 1's hand, nor in its legal actions, nor in its view or
    # observation, until all have chosen.
    hands = fill_hands(3, [], "E13")
    state = game().deal_state(hands, "E13")
    view1 = state.view(1)
    obs1 = state.observation_tensor(1)
    chosen = hands[0][:3]
    for c in chosen:
        state.apply(Pass(parse_card(c)))
    assert state.current_player == 1
    changed = {k for k, v in state.view(1).items() if view1[k] != v}
    assert changed == {"to_move", "pass_counts"}
    obs_after = state.observation_tensor(1)
    n = 3
    diff = {i for i, (a, b) in enumerate(zip(obs1, obs_after, strict=True)) if a != b}
    pass_count_index = 203 + 109 * n + 2  # relative seat 2 is seat 0
    to_move = 208 + 110 * n
    assert diff == {pass_count_index, to_move, to_move + 2}
    legal = {str(a) for a in state.legal_actions()}
    assert legal == {f"pass {c}" for c in hands[1]}
    with pytest.raises(IllegalActionError) as err:
        state.apply(Pass(parse_card(chosen[0])))
    assert err.value.rule == "SS-5.2"
    for c in hands[1][:3]:
        state.apply(Pass(parse_card(c)))
    # Seat 2 still sees nothing of seat 0's or seat 1's choices.
    assert state.view(2)["hand"] == sorted(hands[2], key=parse_card)
    assert state.view(2)["received"] == []
    for c in hands[2][:3]:
        state.apply(Pass(parse_card(c)))
    assert state.view(1)["received"] == sorted(chosen, key=parse_card)
    assert state.view(2)["received"] == sorted(hands[1][:3], key=parse_card)
    assert state.view(0)["received"] == sorted(hands[2][:3], key=parse_card)
    assert state.view(0)["passed"] == sorted(chosen, key=parse_card)


# ----- views carry no hidden card -----
def _swapped(hands: list[list[str]], a: int, b: int, ca: str, cb: str) -> list[list[str]]:
    out = [list(h) for h in hands]
    out[a][out[a].index(ca)] = cb
    out[b][out[b].index(cb)] = ca
    return out


@pytest.mark.parametrize("num_players", [3, 4])
def test_views_do_not_depend_on_hidden_cards(num_players: int) -> None:
    # Two deals that differ only by a swap of unplayed cards between seats 1 and 2 give seat 0
    # the same view and observation: during the pass (SS-2.3 / SS-5.2), after it, and through
    # two tricks of the same public plays.
    g = game()
    hands = fill_hands(num_players, [], "E13")
    a, b = hands[1][-1], hands[2][-1]
    s1 = g.deal_state(hands, "E13")
    s2 = g.deal_state(_swapped(hands, 1, 2, a, b), "E13")

    def same() -> None:
        assert json.dumps(s1.view(0), sort_keys=True) == json.dumps(s2.view(0), sort_keys=True)
        assert s1.observation_tensor(0) == s2.observation_tensor(0)

    same()
    for seat in range(num_players):
        for s in (s1, s2):
            for c in sorted(s.view(seat)["hand"], key=parse_card)[:3]:
                s.apply(Pass(parse_card(c)))
        same()
    for s in (s1, s2):
        s.apply(s.chance_outcomes()[0][0])  # seat 0 leads the first trick
    same()
    hidden = {parse_card(a), parse_card(b)}
    for _ in range(2 * num_players):
        both = [x for x in s1.legal_actions() if x in s2.legal_actions()]
        move = next(x for x in both if isinstance(x, Play) and x.card not in hidden)
        s1.apply(move)
        s2.apply(move)
        same()
    assert len(s1.view(0)["tricks"]) == 2


# ----- determinize: voids and passed cards -----
def test_determinize_keeps_passed_cards_and_voids_three_players() -> None:
    # SS-5.2: seat 0 passed W4 W5 W6 to seat 1, who keeps them until played; seat 2 revealed a
    # Water void. Every sample keeps the passed cards with seat 1 and gives seat 2 no Water.
    hands = fill_hands(3, [["W4", "W5", "W6", "W8"], ["W10"], []], "E13", voids={2: "W"})
    passes = [["W4", "W5", "W6"], hands[1][-3:], hands[2][-3:]]
    state = game().deal_state(hands, "E13", passes=passes)
    play(state, "W8")
    state.apply(Play(parse_card("W10")) if state.current_player == 1 else state.legal_actions()[0])
    while state.current_player != 0 and state.trick:
        state.apply(state.legal_actions()[0])
    assert state.voids[2] >> 3 & 1
    rng = random.Random(3)
    passed = state.passed[0]
    for _ in range(50):
        det = state.determinize(0, rng)
        assert det.hands[1] & passed == passed & ~state.played[1]
        assert not det.hands[2] & SUIT_MASK[3]
        assert det.view(0) == state.view(0)
        assert cards_of(det.received[1]) == cards_of(passed)


# ----- the rules summary players read ----------------------------------------------------------
def test_rules_text_says_the_a_follows_suit_and_names_the_partner() -> None:
    # SS-1.2 / SS-3.1 (ruling): the A is a Sun card for following suit; the summary must say so,
    # or players expect to play it on any lead. SS-2.3: the Japanese summary must say the cards
    # go to the partner (同じチームの相手), not "the opposite team" (向かいのチーム).
    g = game()
    en = g.rules_text("en")
    ja = g.rules_text("ja")
    assert "follows suit as a Sun card" in en
    assert "日のカードとしてフォロー" in ja
    assert "向かいのチームの相手" not in ja
    assert "同じチームの相手" in ja
