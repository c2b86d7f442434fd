"""Rulings of issue 25 against the Japanese source (docs/rulings.md): the 77 token by two
families of 7 or more by default (DS-5.3), an empty rack with nothing to draw ends the turn
(DS-6.1), and records written before those rulings still replay as they were played."""

from __future__ import annotations

import pytest

from septet.bots import make_agent
from septet.core.errors import RecordError
from septet.core.play import play_game
from septet.core.record import GameRecord, replay
from septet.games import get
from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state
from septet.games.double_seven.state import PH_ACT


def test_two_families_is_the_default() -> None:
    # DS-5.3: 「あなたが7タイル以上の2つ目の家族を最初に手に入れた場合は、「7 7」トークン1枚も取り」
    assert get("double-seven").options.double_seven == "two_families"
    # expanding a second family to 7 takes the 77 (with one 7 token: the other family was
    # started at 7, which earns no token, DS-5.3)
    st = build_state(
        2, racks=["fox", "bird"], families=[["fox6", "swan7"], []], sevens=[0, 0], phase="actions"
    )
    events = st.apply(st.game.parse_action(st, "expand fox6 with fox1"))
    kinds = [e.kind for e in events]
    assert "seven" in kinds and "double_seven" in kinds
    assert st.holder77 == 0 and st.sevens[0] == 1


def _last_turns(clears: bool):
    # Seat 2 triggered the end (DS-7.1); the reserve is empty; seat 1's rack is empty.
    game = DoubleSeven(empty_rack_clears=clears)
    return build_state(3, racks=["fox", "", "bird"], pile="", trigger=2, phase="actions", game=game)


def test_empty_rack_with_nothing_to_draw_ends_the_turn() -> None:
    # DS-6.1: 「あなたのスタンドが空です」 ends the turn at once, also when nothing was left to
    # draw: seat 1 starts its turn with an empty rack and no tile to draw, so Clear! and the
    # turns run out at the trigger (DS-7.2).
    st = _last_turns(True)
    events = st.apply(st.game.parse_action(st, "pass"))
    assert [(e.kind, e.seat) for e in events][:3] == [("pass", 0), ("turn", 1), ("clear", 1)]
    assert st.is_terminal
    # the old behaviour, kept for old records: seat 1 is asked to act with an empty rack
    st = _last_turns(False)
    st.apply(st.game.parse_action(st, "pass"))
    assert st.current_player == 1 and st.phase == PH_ACT and not sum(st.racks[1])
    assert [str(a) for a in st.legal_actions()] == ["pass"]


def test_twin_follows_the_empty_rack_ruling() -> None:
    pytest.importorskip("numba", reason="the fast extra (numba) is not installed")
    np = pytest.importorskip("numpy")
    from septet.fast import double_seven as fast

    for clears in (True, False):
        st = _last_turns(clears)
        s = fast.encode(st)
        buf = np.zeros(4096, dtype=np.int64)
        fast.apply_action(s, 3, buf)  # 3: pass
        st.apply(st.game.parse_action(st, "pass"))
        assert (fast.canonical(s) == fast.canonical(fast.encode(st))).all()


def test_old_records_replay_as_played() -> None:
    # A game recorded before issue 25 (no empty_rack_clears option, the old second_token
    # default recorded): seed 145, three greedy players, meets an empty rack with nothing to
    # draw, where the old engine asked for a pass. Its record replays to the same end.
    old = DoubleSeven(double_seven="second_token", empty_rack_clears=False)
    seen = []

    def on_event(st, action, events):
        if st.phase == PH_ACT and st.current_player >= 0 and not sum(st.racks[st.current_player]):
            seen.append(st.current_player)

    result = play_game(old, [make_agent("greedy", old) for _ in range(3)], 145, on_event=on_event)
    assert seen  # the case of the ruling happened
    data = result.record.to_json()
    del data["options"]["empty_rack_clears"]
    record = GameRecord.from_json(data)
    assert record.options["empty_rack_clears"] is False
    assert replay(record).scores() == result.scores
    # read with today's rule instead, the record's last pass comes after the end
    record.options["empty_rack_clears"] = True
    with pytest.raises(RecordError, match="game is over"):
        replay(record)
