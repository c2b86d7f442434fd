"""Seven Shot view data for the browser's moments and end screens (issue 15): every finished
trick with the seat of each card, the last completed trick, the deal summaries with the 7s by
card, the formula's terms and the second place, and ``forced_public``. Values worked out by hand
from the hand-built deals of ``test_ss_rules``."""

from __future__ import annotations

import random

from ss_helpers import SEVEN_TRICKS_HANDS, SEVEN_TRICKS_PLAYS, game, play
from test_ss_rules import _EMPTY_HANDS, _EMPTY_PLAYS

from septet.core.types import CHANCE


def test_four_player_seven_trick_deal_summary_and_last_trick() -> None:
    # SS-4.2: team B (seats 1 & 3) takes 7 tricks, all led and won by seat 1; the 7s in its
    # hands (W7 of seat 1, T7 and E7 of seat 3) and the G7 indicator go to team A.
    # SS-4.4: 4 - 1 + 1 = 4 points for team A.
    state = game(pass_cards=0).deal_state(SEVEN_TRICKS_HANDS, "G7", first_leader=1)
    play(state, SEVEN_TRICKS_PLAYS)
    view = state.view(0)
    deal = view["deals"][-1]
    assert deal["condition"] == "seven_tricks" and deal["side"] == 1
    assert deal["winning_sides"] == [0] and deal["last_trick_winner"] == 1
    assert deal["transferred"] == ["W7", "T7", "G7", "E7"]
    assert deal["seven_cards"] == [["W7", "T7", "G7", "E7"], ["M7"]]
    assert deal["sevens"] == [4, 1] and deal["threshold"] == 4
    assert deal["terms"] == {"sevens": 4, "other_sevens": 1, "raw": 4}
    assert deal["gains"] == [4, 0] and deal["second"] == [] and deal["points"] == [4, 0]
    # The next deal is being dealt: this deal's tricks moved to last_deal_tricks, seats in play
    # order from the leader (seat 1), the last one won with a trump (Gold, the G7 indicator's
    # suit, although the new deal has no indicator yet).
    assert view["tricks"] == [] and view["deal_number"] == 2
    tricks = view["last_deal_tricks"]
    assert len(tricks) == 7
    assert tricks[0] == {
        "leader": 1,
        "cards": ["S6", "S2", "S3", "S4"],
        "seats": [1, 2, 3, 0],
        "winner": 1,
        "how": "suit",
    }
    assert view["last_trick"] == {
        "leader": 1,
        "cards": ["G12", "G6", "G8", "G9"],
        "seats": [1, 2, 3, 0],
        "winner": 1,
        "how": "trump",
        "deal": 1,
    }


def test_three_player_exhausted_hands_summary_and_forced_last_card() -> None:
    # SS-4.3: after 16 tricks seat 0 wins the last one and takes the F7 indicator. 7s: seat 0
    # S7 (won with the A), F7 (indicator), G7 (G9 over G8 and G7); seat 1 M7, E7; seat 2 W7, T7.
    # SS-5.4: 3 - 2 + 1 = 2; seats 1 and 2 share the second count and get 2 // 2 = 1 each.
    state = game(pass_cards=0).deal_state(_EMPTY_HANDS, "F7", first_leader=0)
    plays = _EMPTY_PLAYS.split()
    play(state, " ".join(plays[:-3]))
    # Before the last trick everyone holds one card: the leader's play is forced and everybody
    # knows it (SS-3.1), so it may be auto-played; nobody else's view says so.
    assert state.current_player == 0
    assert state.view(0)["hand"] == ["E11"] and state.view(0)["forced_public"] is True
    assert state.view(1)["forced_public"] is False and state.view(None)["forced_public"] is False
    assert state.view(0)["last_trick"] == {
        "leader": 0,
        "cards": ["S6", "M5", "W9"],
        "seats": [0, 1, 2],
        "winner": 0,
        "how": "suit",
        "deal": 1,
    }
    events = []
    for card in plays[-3:]:
        events += state.apply(state.game.parse_action(state, card))
    won = next(e for e in events if e.kind == "trick_won")
    assert won.data["seats"] == [0, 1, 2] and won.data["winner"] == 0 == won.seat
    deal = state.view(2)["deals"][-1]
    assert deal["condition"] == "hands_empty" and deal["indicator_to"] == 0
    assert deal["seven_cards"] == [["S7", "F7", "G7"], ["M7", "E7"], ["W7", "T7"]]
    assert deal["sevens"] == [3, 2, 2] and deal["threshold"] == 3
    assert deal["terms"] == {"sevens": 3, "other_sevens": 2, "raw": 2}
    assert deal["gains"] == [2, 1, 1] and deal["second"] == [1, 2]
    # The A trick of the deal (the 8th): S7 led by seat 2, the A from seat 0 wins (SS-3.2).
    assert state.view(2)["last_deal_tricks"][7] == {
        "leader": 2,
        "cards": ["S7", "S1", "S4"],
        "seats": [2, 0, 1],
        "winner": 0,
        "how": "ace",
    }


def test_forced_public_only_for_a_last_card_over_random_games() -> None:
    # A follow with the only card of the led suit is forced but not public (SS-3.1): such
    # positions occur and are never flagged; a one-card hand always is (random deals seldom last
    # that long: the hand-built deal above checks it).
    g = game()
    hidden_forced = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = g.new_state(3 + seed % 2)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            legal = state.legal_actions()
            view = state.view(seat)
            single = len(legal) == 1
            assert view["forced_public"] == (single and view["hand_sizes"][seat] == 1)
            hidden_forced += single and not view["forced_public"]
            for other in range(state.num_players):
                if other != seat:
                    assert state.view(other)["forced_public"] is False
            state.apply(legal[rng.randrange(len(legal))])
    assert hidden_forced > 0


def test_pass_ready_is_public_and_names_no_card() -> None:
    # SS-2.3: the choice is simultaneous and secret; that a seat has chosen is public.
    state = game().deal_state(SEVEN_TRICKS_HANDS, "G7")
    for card in ("S4", "M3"):
        events = state.apply(state.game.parse_action(state, f"pass {card}"))
        assert [e.kind for e in events] == ["pass_chosen"]
    events = state.apply(state.game.parse_action(state, "pass F5"))
    assert [e.kind for e in events] == ["pass_chosen", "pass_ready"]
    ready = events[1]
    assert ready.visible_to is None and ready.seat == 0
    assert dict(ready.data) == {"count": 3, "to": 2}
