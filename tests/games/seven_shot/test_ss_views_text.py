"""Seven Shot views, observation tensor and text (English and Japanese)."""

from __future__ import annotations

import random

import pytest
from ss_helpers import SEVEN_TRICKS_HANDS, SEVEN_TRICKS_PLAYS, fill_hands, game, play

from septet.core.types import CHANCE, Event
from septet.games.seven_shot.actions import FirstLeader, Pass, Play
from septet.games.seven_shot.cards import parse_card
from septet.games.seven_shot.state import SevenShotState


def _random_state(num_players: int, steps: int, seed: int = 0) -> SevenShotState:
    g = game()
    rng = random.Random(seed)
    state = g.new_state(num_players)
    for _ in range(steps):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("num_players", [3, 4])
def test_views_show_only_the_own_hand(num_players: int) -> None:
    state = _random_state(num_players, 49 + 3 * num_players + 1 + 5)
    for seat in range(num_players):
        view = state.view(seat)
        assert len(view["hand"]) == view["hand_sizes"][seat]
        others = set()
        for s in range(num_players):
            if s != seat:
                others |= set(state.view(s)["hand"])
        assert not others & set(view["hand"])
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["received"] is None


@pytest.mark.parametrize("num_players", [3, 4])
def test_observation_has_the_documented_size_and_no_hidden_information(num_players: int) -> None:
    g = game()
    rng = random.Random(1)
    for steps in (0, 30, 49 + 5, 49 + 3 * num_players + 1 + 7, 200):
        state = _random_state(num_players, steps, seed=steps)
        for seat in range(num_players):
            obs = state.observation_tensor(seat)
            assert len(obs) == g.observation_size(num_players) == 208 + 113 * num_players
            det = state.determinize(seat, rng)
            assert det.observation_tensor(seat) == obs


def test_observation_encodes_hand_indicator_and_trick() -> None:
    hands = fill_hands(4, [["W4", "W5"], ["E8"], ["S1"], ["W7"]], "E13", voids={1: "W", 2: "W"})
    state = game(pass_cards=0).deal_state(hands, "E13")
    play(state, "W5 E8")
    obs = state.observation_tensor(2)
    own = [c for c in range(49) if obs[c] == 1.0]
    assert own == sorted(parse_card(c) for c in hands[2])
    assert obs[147 + parse_card("E13")] == 1.0
    n = 4
    trick = 196 + 49 * n
    # Seat 0 (relative 2 from seat 2) played W5; seat 1 (relative 3) played E8.
    assert obs[trick + 49 * 2 + parse_card("W5")] == 1.0
    assert obs[trick + 49 * 3 + parse_card("E8")] == 1.0
    assert obs[196 + 98 * n + 3] == 1.0  # Water led
    voids = 203 + 98 * n
    assert obs[voids + 7 * 3 + 3] == 1.0  # relative seat 3 (seat 1) is void in Water
    phase = 203 + 110 * n
    assert obs[phase : phase + 5] == [0.0, 0.0, 0.0, 1.0, 0.0]
    to_move = 208 + 110 * n
    assert obs[to_move : to_move + n] == [1.0, 0.0, 0.0, 0.0]  # seat 2 itself


def test_render_in_english_and_japanese() -> None:
    hands = fill_hands(4, [["W4", "W5"], ["E8"], ["S1"], ["W7"]], "E13", voids={1: "W", 2: "W"})
    g = game(pass_cards=0)
    state = g.deal_state(hands, "E13")
    play(state, "W5 E8")
    en = g.render(state.view(2), "en").splitlines()
    assert en[0] == "Seven Shot — deal 1 — tricks — P2 (you) to play"
    assert en[1] == "Score (first to 7): Team 1 (P0 & P2) 0 · Team 2 (P1 & P3) 0"
    assert en[2] == "Trump: ■ Earth (brown, 7–13); the indicator is the 13 of Earth"
    assert en[4] == "  P1: 11 cards in hand, 0 tricks, 0 sevens; has no Water"
    assert "Trick led by P0 (Water): 5 of Water (P0), 8 of Earth (P1)" in en
    assert "Your hand: ☀Sun A 3 7  ☾Moon 5  ▲Fire 3 7  ♣Tree 6 8 10  ◆Gold 8 12  ■Earth 11" in en
    ja = g.render(state.view(2), "ja").splitlines()
    assert ja[0] == "セブンショット — 第1ディール — トリック — P2（あなた）の番"
    assert ja[2] == "切り札：■土（茶・7〜13）。切り札表示カード：土の13"
    assert ja[4] == "  P1：手札11枚、トリック0回、7を0枚、持っていないシンボル：水"
    assert "場のトリック（P0のリード、水）：水の5（P0）、土の8（P1）" in ja
    assert "手札：☀日 A 3 7  ☾月 5  ▲火 3 7  ♣木 6 8 10  ◆金 8 12  ■土 11" in ja


def test_describe_actions_and_events() -> None:
    # Player words: the card by its number and suit, the A as the A (SS-1.2), seats as P{n}.
    g = game()
    assert g.describe_action(Play(parse_card("E8")), "en") == "Play the 8 of Earth"
    assert g.describe_action(Play(parse_card("E8")), "ja") == "土の8を出す"
    assert g.describe_action(Pass(parse_card("M4")), "en") == "Pass the 4 of Moon"
    assert g.describe_action(Pass(parse_card("M4")), "ja") == "月の4を渡す"
    assert g.describe_action(Play(0), "en") == "Play the A"
    assert g.describe_action(Pass(0), "ja") == "Aを渡す"
    assert g.describe_action(FirstLeader(2), "en") == "P2 leads first"
    assert g.describe_action(FirstLeader(2), "ja") == "P2が最初にリードする"
    played = Event("card_played", 1, {"card": "E8", "position": 1})
    assert g.describe_event(played, "en") == "P1 plays the 8 of Earth"
    assert g.describe_event(played, "ja") == "P1が土の8を出した"
    # SS-3.2: the A wins; the winning card is the one of the winner's seat.
    won = Event(
        "trick_won",
        2,
        {
            "leader": 0,
            "cards": ["W5", "E8", "S1", "W7"],
            "seats": [0, 1, 2, 3],
            "how": "ace",
            "sevens": ["W7"],
        },
    )
    assert g.describe_event(won, "en") == ("P2 wins the trick with the A, taking the 7 of Water")
    assert g.describe_event(won, "ja") == "P2がAでトリックを取り、水の7を獲得した"
    trump = Event("trick_won", 1, {"leader": 0, "cards": ["W5", "E8", "W6", "W7"], "how": "trump"})
    assert g.describe_event(trump, "en") == "P1 wins the trick with the 8 of Earth, a trump"
    assert g.describe_event(trump, "ja") == "P1が切り札の土の8でトリックを取った"
    got = Event("cards_received", 2, {"from": 0, "cards": ["M4", "F5", "W9"]})
    assert g.describe_event(got, "en") == (
        "P2 receives the 4 of Moon, the 5 of Fire and the 9 of Water from P0"
    )
    assert g.describe_event(got, "ja") == "P2がP0から月の4、火の5、水の9を受け取った"
    ready = Event("pass_ready", 3, {"count": 3, "to": 1})
    assert g.describe_event(ready, "en") == "P3 has chosen 3 cards to pass"
    assert g.describe_event(ready, "ja") == "P3が渡す3枚を選んだ"
    ind = Event("trump_indicator", None, {"card": "G12", "trump": "G"})
    assert g.describe_event(ind, "en") == "The trump indicator is the 12 of Gold: Gold is trump"
    assert g.describe_event(ind, "ja") == "切り札表示カードは金の12。切り札は金"


def test_deal_end_is_described_with_the_formula() -> None:
    # SS-4.1 and SS-4.4: team 1 takes 4 sevens in one trick; 4 - 0 + 1 = 5.
    hands = fill_hands(
        4,
        [["W4", "W5", "W6", "W7", "W8", "W9", "W10"], ["M7"], ["F7"], ["T7"]],
        "E13",
        voids={1: "W", 2: "W", 3: "W"},
    )
    g = game(pass_cards=0)
    state = g.deal_state(hands, "E13")
    play(state, "W7 M7 F7")
    events = state.apply(Play(parse_card("T7")))
    won = next(e for e in events if e.kind == "trick_won")
    assert g.describe_event(won, "en") == (
        "P0 wins the trick with the 7 of Water, taking the 7 of Moon, the 7 of Fire, the 7 of "
        "Water and the 7 of Tree"
    )
    end = next(e for e in events if e.kind == "deal_end")
    assert g.describe_event(end, "en") == (
        "Deal 1 over: Team 1 (P0 & P2) wins the deal with 4 sevens. "
        "Points: 4 − 0 + 1 = 5 → Team 1 (P0 & P2) +5"
    )
    assert g.describe_event(end, "ja") == (
        "第1ディール終了：チーム1（P0・P2）が7を4枚獲得してディールに勝った。"
        "得点：4 − 0 + 1 = 5 → チーム1（P0・P2） +5点"
    )
    assert g.render(state.view(0), "en").splitlines()[-1] == g.describe_event(end, "en")


def test_seven_tricks_transfer_is_described() -> None:
    # SS-4.2: team 2 takes 7 tricks; W7 (seat 1), T7 and E7 (seat 3) in hand and the G7
    # indicator go to team 1; SS-4.4: 4 - 1 + 1 = 4.
    g = game(pass_cards=0)
    state = g.deal_state(SEVEN_TRICKS_HANDS, "G7", first_leader=1)
    plays = SEVEN_TRICKS_PLAYS.split()
    play(state, " ".join(plays[:-1]))
    events = state.apply(g.parse_action(state, plays[-1]))
    end = next(e for e in events if e.kind == "deal_end")
    assert g.describe_event(end, "en") == (
        "Deal 1 over: Team 2 (P1 & P3) took 7 tricks, so Team 1 (P0 & P2) wins the deal; the 7s "
        "left in its hands (7 of Water, 7 of Tree and 7 of Earth) and the trump indicator (7 of "
        "Gold) go to Team 1 (P0 & P2). Points: 4 − 1 + 1 = 4 → Team 1 (P0 & P2) +4"
    )
    assert g.describe_event(end, "ja") == (
        "第1ディール終了：チーム2（P1・P3）がトリックを7回取ったので、チーム1（P0・P2）がディールに"
        "勝った。チーム2（P1・P3）の手札の7（水の7、木の7、土の7）と切り札表示カード（金の7）は"
        "チーム1（P0・P2）のものになる。得点：4 − 1 + 1 = 4 → チーム1（P0・P2） +4点"
    )


def test_points_below_one_and_the_second_place_are_described() -> None:
    # SS-4.4 ruling: 0 - 3 + 1 = -2, at least 1. SS-5.4: second place gets half.
    g = game()
    low = Event(
        "deal_end",
        None,
        {
            "deal": 2,
            "condition": "seven_tricks",
            "side": 1,
            "winning_sides": [0],
            "transferred": [],
            "indicator": "G11",
            "sevens": [0, 3],
            "gains": [1, 0],
            "formula": "0 - 3 + 1 = -2",
        },
    )
    assert g.describe_event(low, "en") == (
        "Deal 2 over: Team 2 (P1 & P3) took 7 tricks, so Team 1 (P0 & P2) wins the deal. "
        "Points: 0 − 3 + 1 = −2, at least 1 → Team 1 (P0 & P2) +1"
    )
    assert g.describe_event(low, "ja").endswith(
        "得点：0 − 3 + 1 = −2（最低1点） → チーム1（P0・P2） +1点"
    )
    half = Event(
        "deal_end",
        None,
        {
            "deal": 1,
            "condition": "hands_empty",
            "side": 0,
            "last_trick_winner": 0,
            "sevens": [3, 2, 2],
            "gains": [2, 1, 1],
            "terms": {"sevens": 3, "other_sevens": 2, "raw": 2},
            "second": [1, 2],
        },
    )
    assert g.describe_event(half, "en") == (
        "Deal 1 over: the hands are empty; P0 took the last trick and the trump indicator, so P0 "
        "wins the deal. Points: 3 − 2 + 1 = 2 → P0 +2, P1 +1, P2 +1 (P1 and P2, second in 7s, "
        "get half, rounded down)"
    )
    assert g.describe_event(half, "ja") == (
        "第1ディール終了：手札がなくなり、最後のトリックを取ったP0が切り札表示カードも獲得。P0の勝ち。"
        "得点：3 − 2 + 1 = 2 → P0 +2点、P1 +1点、P2 +1点（7の枚数が2位のP1とP2は半分、切り捨て）"
    )


def test_rules_text_lists_suits_with_rank_ranges() -> None:
    g = game()
    en = g.rules_text("en")
    assert "- ▲ Fire (red, 3–9)" in en and "## End of a deal" in en and "SS-" not in en
    ja = g.rules_text("ja")
    assert "- ▲火（赤・3〜9）" in ja and "切り札" in ja and "## ディールの終了" in ja


def test_deal_end_text_for_the_two_point_rule() -> None:
    # SS-5.5: no formula, 2 points each.
    from ss_helpers import cards

    fixed = [
        cards("M8 F9 W10 T11 E13 G12 M6"),
        cards("M2 F3 W4 T5 E8 G6 M4"),
        cards("M3 F4 W5 T6 E9 G8 M5"),
    ]
    g = game(pass_cards=0)
    state = g.deal_state(fill_hands(3, fixed, "S2"), "S2")
    play(state, "M8 M2 M3  F9 F3 F4  W10 W4 W5  T11 T5 T6  E13 E8 E9  G12 G6 G8  M6 M4 M5")
    assert g.render(state.view(1), "en").endswith(
        "Deal 1 over: P0 took 7 tricks, so P1 and P2 win the deal. 2 points each → P1 +2, P2 +2"
    )
    assert g.render(state.view(1), "ja").endswith(
        "第1ディール終了：P0がトリックを7回取ったので、P1とP2がディールに勝った。"
        "2点ずつ → P1 +2点、P2 +2点"
    )


def test_game_end_line_names_the_winning_side() -> None:
    g = game()
    three = Event("game_end", None, {"winners": [1], "points": [3, 8, 2]})
    assert g.describe_event(three, "en") == "Game over. Winner: P1"
    assert g.describe_event(three, "ja") == "ゲーム終了。勝者：P1"
    team = Event("game_end", None, {"winners": [1, 3], "points": [4, 7]})
    assert g.describe_event(team, "en") == "Game over. Winner: Team 2 (P1 & P3)"
    assert g.describe_event(team, "ja") == "ゲーム終了。勝者：チーム2（P1・P3）"
    shared = Event("game_end", None, {"winners": [0, 2], "points": [8, 2, 8]})
    assert g.describe_event(shared, "en") == "Game over. Winners: P0 and P2"


def test_japanese_rules_text_has_no_breaks_inside_sentences() -> None:
    text = game().rules_text("ja")
    for line in text.splitlines():
        whole = line.endswith(("。", "：")) or line.startswith(("- ", "#"))  # suits, headings
        assert not line.strip() or whole, line
    assert "直前のディール" in text and "直前 の" not in text


def test_the_final_table_lists_the_deals_and_the_winning_team() -> None:
    # SS-2.1: team 1 had 6 points; 4 sevens in deal 2 (SS-4.1, 4 - 0 + 1 = 5) ends the game.
    hands = fill_hands(
        4,
        [["W4", "W5", "W6", "W7", "W8", "W9", "W10"], ["M7"], ["F7"], ["T7"]],
        "E13",
        voids={1: "W", 2: "W", 3: "W"},
    )
    g = game(pass_cards=0)
    state = g.deal_state(hands, "E13", points=[6, 0], deal_number=2)
    play(state, "W7 M7 F7 T7")
    assert state.is_terminal
    en = g.render(state.view(None), "en").splitlines()
    assert en[-2:] == [
        "Deal 2 over: Team 1 (P0 & P2) wins the deal with 4 sevens. "
        "Points: 4 − 0 + 1 = 5 → Team 1 (P0 & P2) +5",
        "Winner: Team 1 (P0 & P2)",
    ]
    ja = g.render(state.view(None), "ja").splitlines()
    assert ja[-1] == "勝者：チーム1（P0・P2）"
