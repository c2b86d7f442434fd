"""Seven Shot views, observation tensor and text (English and Japanese)."""

from __future__ import annotations

import random

import pytest
from ss_helpers import fill_hands, game, play

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
    en = g.render(state.view(2), "en")
    assert "Trump: ■ Earth (brown, 7–13)" in en
    assert "Trick (led by seat 0, ≈ Water (blue, 4–10)): seat 0 ≈W5, seat 1 ■E8" in en
    assert "seat 2 (you)" in en and "Your hand: ☀S 1(A)" in en
    assert "Team A (seats 0 & 2) 0" in en
    ja = g.render(state.view(2), "ja")
    assert "切り札: ■土（茶・7〜13）" in ja
    assert "席2（あなた）" in ja and "手札: ☀日 1(A)" in ja
    assert "void in ≈" in en and "欠けているスート ≈" in ja


def test_describe_actions_and_events() -> None:
    g = game()
    assert g.describe_action(Play(parse_card("F7")), "en") == "play ▲F7"
    assert g.describe_action(Play(parse_card("F7")), "ja") == "▲火7を出す"
    assert g.describe_action(Pass(0), "ja") == "☀日1を渡す"
    assert g.describe_action(FirstLeader(2), "en") == "seat 2 leads first"
    won = Event("trick_won", 2, {"cards": ["W5", "E8", "S1", "W7"], "how": "ace", "sevens": ["W7"]})
    assert g.describe_event(won, "en") == (
        "seat 2 wins the trick with the A: ≈W5 ■E8 ☀S1 ≈W7 (7s: ≈W7)"
    )
    assert g.describe_event(won, "ja") == "席2がAでトリックを獲得: ≈水5 ■土8 ☀日1 ≈水7（7: ≈水7）"


def test_deal_end_is_described_with_the_formula() -> None:
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
    end = next(e for e in events if e.kind == "deal_end")
    assert g.describe_event(end, "en") == (
        "deal over: a side took 4 or more 7s (SS-4.1). points 4 - 0 + 1 = 5 → team A +5"
    )
    assert "計算 4 - 0 + 1 = 5" in g.describe_event(end, "ja")
    text = g.render(state.view(0), "en")
    assert (
        "Deal 1 over: Team A (seats 0 & 2)" in text and "(min 1) → Team A (seats 0 & 2) +5" in text
    )


def test_rules_text_lists_suits_with_rank_ranges() -> None:
    g = game()
    en = g.rules_text("en")
    assert "▲ Fire (red, 3–9)" in en and "SS-4" in en
    ja = g.rules_text("ja")
    assert "▲火（赤・3〜9）" in ja and "切り札" in ja


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
        "Deal 1 over: seat 0 — a side took 7 tricks and loses (SS-4.2); 2 points each → "
        "seat 1 +2, seat 2 +2"
    )
    assert "各2点 → 席1 +2, 席2 +2" in g.render(state.view(1), "ja")


def test_game_end_line_names_the_winning_seats() -> None:
    g = game()
    assert g.describe_event(Event("game_end", None, {"winners": [1]}), "en") == (
        "game over: seat 1 wins"
    )
    assert g.describe_event(Event("game_end", None, {"winners": [1, 3]}), "en") == (
        "game over: seats 1 and 3 win"
    )
    assert g.describe_event(Event("game_end", None, {"winners": [1, 3]}), "ja") == (
        "ゲーム終了: 席1・席3の勝ち"
    )


def test_japanese_rules_text_has_no_breaks_inside_sentences() -> None:
    text = game().rules_text("ja")
    for line in text.splitlines():
        whole = line.endswith(("。", "：")) or line.startswith("- ")  # the suits list
        assert not line.strip() or whole, line
    assert "直前のディール" in text and "直前 の" not in text
