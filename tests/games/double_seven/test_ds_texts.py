"""Double Seven texts in player words, checked by hand in both languages: actions, events and
the final table with its tie-break (DS-8.2). Names follow the Japanese rulebook
(shared/rules/source/000): 家族, 「7」トークン, 「77」トークン, 空っぽ！, パス！, 2対1のトレード."""

from __future__ import annotations

import pytest

from septet.core.types import Event
from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state

ACTIONS = [
    ("draw", "Draw a face-down tile", "裏向きのタイルを引く"),
    ("take fox", "Take the face-up fox", "表向きのキツネを取る"),
    ("rainbow", "Declare Rainbow!", "レインボー！を宣言する"),
    ("start fox3", "Start a family of 3 foxes", "キツネ3枚で家族を作る"),
    (
        "start swan2+1",
        "Start a family of 2 swans and 1 clover",
        "白鳥2枚＋クローバー1枚で家族を作る",
    ),
    (
        "expand fox2 with fox1+1",
        "Add 1 fox and 1 clover to your family of 2 foxes",
        "キツネ2枚の家族にキツネ1枚とクローバー1枚を加える",
    ),
    (
        "exchange fox4 with 2:frog4",
        "Exchange your 4 foxes for P2's 4 frogs",
        "自分の家族（キツネ4枚）をP2の家族（カエル4枚）と交換する",
    ),
    (
        "retrieve 1:swan2+1",
        "Take the clover from P1's family of 2 swans and 1 clover, putting your swan in its place",
        "P1の家族（白鳥2枚＋クローバー1枚）のクローバーを自分の白鳥と取り替える",
    ),
    (
        "two-for-one deer rabbit",
        "Two for one: put out a deer and a rabbit",
        "2対1のトレード：鹿とウサギを出す",
    ),
    ("pass", "Pass! (end your turn)", "パス！（手番を終える）"),
    ("discard bird", "Discard a bird (out of the game)", "鳥を1枚捨てる（ゲームから除外）"),
]


@pytest.mark.parametrize(("notation", "en", "ja"), ACTIONS)
def test_actions_in_player_words(notation: str, en: str, ja: str) -> None:
    g = DoubleSeven()
    action = g.action_from_str(notation)
    assert g.describe_action(action, "en") == en
    assert g.describe_action(action, "ja") == ja


EVENTS = [
    (Event("take", 1, {"tile": "frog"}), "P1 takes the face-up frog", "P1が表向きのカエルを取った"),
    (
        Event("start", 0, {"family": "fox3+1"}),
        "P0 starts a family of 3 foxes and 1 clover",
        "P0が家族を作った：キツネ3枚＋クローバー1枚",
    ),
    (
        Event("expand", 2, {"family": "frog5", "new_family": "frog6+1"}),
        "P2 adds 1 frog and 1 clover to their 5 frogs: now 6 frogs and 1 clover",
        "P2が家族にカエル1枚とクローバー1枚を加えた：カエル5枚 → カエル6枚＋クローバー1枚",
    ),
    (
        Event("seven", 2, {"family": "frog6+1"}),
        "Seven! P2's family reaches 6 frogs and 1 clover and P2 takes a 7 token",
        "セブン！P2の家族がカエル6枚＋クローバー1枚になり、P2が「7」トークンを獲得",
    ),
    (
        Event("double_seven", 2, {}),
        "Double Seven! P2 takes the 77 token",
        "ダブルセブン！P2が「77」トークンを獲得",
    ),
    (
        Event("exchange", 0, {"family": "swan2", "with_seat": 1, "other": "fox2"}),
        "P0 exchanges their 2 swans for P1's 2 foxes",
        "P0が自分の家族（白鳥2枚）をP1の家族（キツネ2枚）と交換した",
    ),
    (
        Event("retrieve", 1, {"from_seat": 2, "family": "swan3+1"}),
        "P1 takes the clover from P2's family of 3 swans and 1 clover, putting a swan in its place",
        "P1がP2の家族（白鳥3枚＋クローバー1枚）のクローバーを白鳥と取り替えて回収した",
    ),
    (
        Event("rainbow", 0, {"rack": {"bird": 1, "fox": 1, "swan": 1, "frog": 1, "deer": 1}}),
        "Rainbow! P0 shows their rack (bird, fox, swan, frog and deer) to draw one more tile",
        "レインボー！P0がラックを公開し（鳥、キツネ、白鳥、カエル、鹿）、もう1枚引く",
    ),
    (Event("clear", 0, {}), "Clear! P0's rack is empty", "空っぽ！P0のラックが空になった"),
    (Event("pass", 1, {}), "Pass! P1 ends their turn", "パス！P1が手番を終えた"),
    (
        Event("two_for_one", 1, {"tiles": ["deer", "deer"]}),
        "P1 puts 2 deer face up to draw another tile (two for one)",
        "P1が2対1のトレードで鹿2枚を表向きに出し、別のタイルを1枚引く",
    ),
    (
        Event("end_triggered", 2, {"reason": "reserve"}),
        "P2 drew the last tile: after this turn everyone else plays one last turn",
        "P2が最後のタイルを引いたので、この手番の後、他のプレイヤーが最後の手番を1回ずつ行う",
    ),
]


@pytest.mark.parametrize(("event", "en", "ja"), EVENTS)
def test_events_as_sentences(event: Event, en: str, ja: str) -> None:
    g = DoubleSeven()
    assert g.describe_event(event, "en") == en
    assert g.describe_event(event, "ja") == ja


def test_final_table_explains_the_tie_break() -> None:
    # DS-8.2 / DS-8.3: 21 - 21, seat 0 holds the 77 token.
    st = build_state(
        3,
        racks=["butterfly swan", "", "fox"],
        families=[["bird7", "squirrel8", "fox2"], ["frog7+1", "deer6", "rabbit5"], ["swan5+1"]],
        sevens=[2, 2, 0],
        holder77=0,
        phase="over",
    )
    g = st.game
    en = g.render(st.view(1), "en").splitlines()
    assert en[0] == "Double Seven — game over"
    assert "  P0: 21 points, 2 × 7 tokens, the 77 token · rack: 2 tiles" in en
    assert "     families: 7 birds | 8 squirrels | 2 foxes" in en
    assert en[-6:] == [
        "Points by source:",
        "  P0: 17 for family tiles (7 birds, 8 squirrels, 2 foxes) + 2 for 7 tokens + 2 for the "
        "77 token = 21",
        "  P1: 19 for family tiles (7 frogs and 1 clover, 6 deer, 5 rabbits) + 2 for 7 tokens = 21",
        "  P2: 6 for family tiles (5 swans and 1 clover) = 6",
        "Winner: P0",
        "P0 and P1 tie on 21 points; the 77 token gives P0 the win",
    ]
    ja = g.render(st.view(1), "ja").splitlines()
    assert "  P0：21点、「7」トークン2枚、「77」トークン・ラック：2枚" in ja
    assert "     家族：鳥7枚 | リス8枚 | キツネ2枚" in ja
    assert ja[-5:] == [
        "  P0：家族のタイル17点（鳥7枚、リス8枚、キツネ2枚）＋「7」トークン2点＋「77」トークン2点"
        "＝21点",
        "  P1：家族のタイル19点（カエル7枚＋クローバー1枚、鹿6枚、ウサギ5枚）＋「7」トークン2点"
        "＝21点",
        "  P2：家族のタイル6点（白鳥5枚＋クローバー1枚）＝6点",
        "勝者：P0",
        "P0とP1が21点で同点。「77」トークンを持つP0の勝ち",
    ]
