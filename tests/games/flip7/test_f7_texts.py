"""Flip 7 texts in player words, checked by hand in both languages: actions, events, the table.
Card names are the Japanese rulebook's (shared/rules/source/002): 「ジャスト・ワンモア！」,
「フリップ4！」, 「スワップ」, 「スティール」, 「ディスカード」, 「ゼロ」, 「アンラッキー7」,
「ラッキー13」."""

from __future__ import annotations

import pytest
from f7_helpers import game, play, position

from septet.core.types import Event

ACTIONS = [
    ("hit", "Hit", "ヒット"),
    ("stay", "Stay", "ステイ"),
    ("target 2", "Give to P2", "P2に渡す"),
    ("swap 0:5 2:-4", "Swap P0's 5 with P2's −4", "P0の5とP2の−4を交換する"),
    ("steal 1:l13", "Steal P1's Lucky 13", "P1のラッキー13を奪う"),
    ("discard 3:zero", "Make P3 discard the Zero", "P3にゼロを捨てさせる"),
    ("bonus", "Take +15 points", "自分に+15点"),
    ("penalty 2", "Give −15 points to P2", "P2に−15点"),
    ("draw 8", "An 8 is turned up", "8がめくられる"),
    ("draw jom", "Just One More! is turned up", "ジャスト・ワンモア！がめくられる"),
    ("dealer 1", "P1 deals first", "最初のディーラーはP1"),
]


@pytest.mark.parametrize(("notation", "en", "ja"), ACTIONS)
def test_actions_in_player_words(notation: str, en: str, ja: str) -> None:
    g = game(brutal=True)
    action = g.action_from_str(notation)
    assert g.describe_action(action, "en") == en
    assert g.describe_action(action, "ja") == ja


EVENTS = [
    (Event("draw", 1, {"card": "5"}), "P1 gets a 5", "P1が5をめくった"),
    (Event("draw", 1, {"card": "u7"}), "P1 gets the Unlucky 7", "P1がアンラッキー7をめくった"),
    (Event("bust", 2, {"card": "9"}), "P2 busts: another 9!", "P2がバースト！（9が2枚目）"),
    (
        Event("give", 1, {"card": "flip4", "to": 2}),
        "P1 plays Flip 4! on P2",
        "P1がP2にフリップ4！を出した",
    ),
    (
        Event("give", 1, {"card": "jom", "to": 1}),
        "P1 plays Just One More! on themselves",
        "P1が自分にジャスト・ワンモア！を出した",
    ),
    (Event("give", 0, {"card": "-4", "to": 2}), "P0 gives the −4 to P2", "P0がP2に−4を渡した"),
    (Event("give", 0, {"card": "/2", "to": 0}), "P0 keeps the ÷2", "P0は÷2を自分の列に置いた"),
    (
        Event("steal", 3, {"from": 0, "card": "l13"}),
        "P3 steals P0's Lucky 13",
        "P3がP0のラッキー13を奪った",
    ),
    (
        Event("discard", 3, {"from": 1, "card": "8"}),
        "P3 makes P1 discard an 8",
        "P3がP1に8を捨てさせた",
    ),
    (
        Event("swap", 0, {"seats": [0, 2], "cards": ["5", "-4"]}),
        "P0 swaps their 5 for P2's −4",
        "P0が自分の5とP2の−4を交換した",
    ),
    (
        Event("stay", 2, {"forced": True}),
        "P2 stays after Just One More!",
        "P2はジャスト・ワンモア！のあとステイした",
    ),
    (
        Event("flip7", 4),
        "Flip 7! P4 has seven number cards",
        "フリップ7！P4がナンバーカードを7枚そろえた",
    ),
    (
        Event("unlucky7", 1, {"discarded": ["3", "-2"]}),
        "Unlucky 7: P1 discards a 3 and the −2",
        "アンラッキー7：P1は3、−2を捨てた",
    ),
    (
        Event("set_aside", 2, {"card": "swap"}),
        "P2 sets Swap aside until the flips are done",
        "P2はスワップを保留した（めくり終えてから使う）",
    ),
    (
        Event("no_target", 0, {"card": "steal"}),
        "Steal has nothing to act on and is discarded",
        "スティールは対象がないので捨てられた",
    ),
    (Event("flip7_penalty", 1, {"to": 3}), "P1 gives −15 points to P3", "P1はP3に−15点を与えた"),
    (
        Event("second_chance", 2, {"card": "6"}),
        "P2's Second Chance cancels the second 6",
        "P2のセカンドチャンスが2枚目の6を打ち消した",
    ),
]


@pytest.mark.parametrize(("event", "en", "ja"), EVENTS)
def test_events_as_sentences(event: Event, en: str, ja: str) -> None:
    g = game()
    assert g.describe_event(event, "en") == en
    assert g.describe_event(event, "ja") == ja


def test_the_table_in_both_languages() -> None:
    g = game()
    s = position(3, [["zero", "9", "-4"], ["5", "8"], ["12"]], to_move=0, totals=[40, 0, 12])
    play(s)
    en = g.render(s.view(0), "en").splitlines()
    assert en == [
        "Flip 7: With a Vengeance — round 1, first to 200",
        "▶ P0 (you), dealer [playing] Zero 9 | −4  this round 0 (total 40)",
        "  P1 [playing] 5 8  this round 13 (total 0)",
        "  P2 [playing] 12  this round 12 (total 12)",
        "Deck: 108 cards · discard pile: 0",
        "P0 chooses hit or stay",
    ]
    ja = g.render(s.view(0), "ja").splitlines()
    assert ja == [
        "フリップ7：復讐心とともに — ラウンド1、200点先取",
        "▶ P0（あなた）（ディーラー）【プレイ中】ゼロ 9 | −4  今回0点（合計40点）",
        "  P1【プレイ中】5 8  今回13点（合計0点）",
        "  P2【プレイ中】12  今回12点（合計12点）",
        "山札108枚・捨て札0枚",
        "P0が選ぶ：ヒットかステイ",
    ]


def test_the_last_round_is_shown_with_its_arithmetic() -> None:
    # F7V-7.2: P0 3 + 4 = 7, −10 → 0 (not below 0); P1 holds the Zero: 0; P2 8 + 9 = 17,
    # ÷2 → 8 (rounded down), −2 → 6. Shown during the next deal, in both languages.
    g = game()
    s = position(
        3,
        [["3", "4", "-10"], ["zero", "5"], ["8", "9", "/2", "-2"]],
        to_move=0,
        status=["active", "stayed", "stayed"],
    )
    play(s, "stay")
    en = g.render(s.view(0), "en").splitlines()
    assert en[-4:] == [
        "Round 1 result:",
        "  P0: 3 4 | −10 — 7 − 10 = 0 (not below 0)",
        "  P1: Zero 5 — the Zero makes it 0",
        "  P2: 8 9 | ÷2 −2 — 17 ÷ 2 = 8, 8 − 2 = 6",
    ]
    ja = g.render(s.view(0), "ja").splitlines()
    assert ja[-4:] == [
        "ラウンド1の結果：",
        "  P0：3 4 | −10 — 7 − 10 = 0点（0未満にはならない）",
        "  P1：ゼロ 5 — ゼロがあるので0点",
        "  P2：8 9 | ÷2 −2 — 17 ÷ 2 = 8、8 − 2 = 6点",
    ]


def test_flip7_texts_format_the_engines_bonus() -> None:  # F7V-7.2, F7V-8.3
    # issue 25: the rules, events, decisions and option help write flip7.rules.FLIP7_BONUS; with
    # it changed (here to 21) no text says 15 any more, in English or Japanese
    import re
    from pathlib import Path

    from septet import games
    from septet.games.flip7 import game as game_mod
    from septet.games.flip7 import rules, text

    src = {m: Path(str(m.__file__)).read_text(encoding="utf-8") for m in (text, game_mod)}
    for mod, code in src.items():
        strings = re.findall(r'"[^"\n]*"', code)
        found = [s for s in strings if re.search(r"[+−-]15(?!\d)|15点|adds 15|score 15", s)]
        assert not found, f"{mod.__name__} restates the bonus: {found}"
    g = games.get("flip7", brutal=True)
    for lang in ("en", "ja"):
        words = text.rules_text(g, lang)  # type: ignore[arg-type]
        assert f"+{rules.FLIP7_BONUS}" in words and "{bonus}" not in words
        assert f"−{rules.FLIP7_BONUS}" in words
    assert text._EVENT_TEMPLATES["ja"]["flip7_bonus"] == "{who}は+15点を選んだ"
    assert "−15" in text._DECISIONS["en"]["flip7_choice"]
    assert rules.FLIP7_BONUS == 15
