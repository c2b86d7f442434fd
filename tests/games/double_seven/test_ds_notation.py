"""Notation, integer encoding, events text and the agreement of legal_actions with apply's
validation over the whole action space."""

from __future__ import annotations

import random

import pytest

from septet.bots import RandomAgent
from septet.core.errors import IllegalActionError, NotationError
from septet.core.play import play_game
from septet.core.types import CHANCE
from septet.games.double_seven import DoubleSeven
from septet.games.double_seven import actions as A


def test_every_id_round_trips():
    game = DoubleSeven()
    for n in (2, 3, 4):
        size = game.num_distinct_actions(n)
        for i in range(size):
            a = game.id_to_action(i, n)
            assert game.action_to_id(a, n) == i
            assert game.action_from_str(str(a)) == a
    assert game.num_distinct_actions(4) == 67 + 352 + 352 * 44 + 9984 * 4 + 352 * 4
    with pytest.raises(ValueError):
        game.id_to_action(game.num_distinct_actions(2), 2)
    with pytest.raises(ValueError):
        game.action_to_id(A.Deal(2), 2)


@pytest.mark.parametrize(
    "text, want",
    [
        ("draw", A.Draw()),
        ("take fox", A.Take(2)),
        ("take キツネ", A.Take(2)),
        ("start fox3+1", A.Start((2, 3, 1))),
        ("expand fox2 with fox1+1", A.Expand((2, 2, 0), 1, 1)),
        ("expand fox2 with clover1", A.Expand((2, 2, 0), 0, 1)),
        ("exchange swan2 with 1:fox2", A.Exchange((4, 2, 0), 1, (2, 2, 0))),
        ("retrieve 2:swan2+1", A.Retrieve(2, (4, 2, 1))),
        ("two-for-one rabbit deer", A.TwoForOne(6, 7)),
        ("discard clover", A.Discard(8)),
        ("pile swan", A.PileDraw(4)),
        ("first 1", A.FirstPlayer(1)),
    ],
)
def test_notation(text, want):
    assert A.action_from_str(text) == want


@pytest.mark.parametrize(
    "text",
    ["", "jump", "take lion", "start clover2", "expand fox2 with swan1", "start fox12", "pass 2"],
)
def test_bad_notation(text):
    with pytest.raises(NotationError):
        A.action_from_str(text)


def _random_positions(n, count, seed):
    game = DoubleSeven()
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = game.new_state(n)
        stop = rng.randrange(20, 300)
        for _ in range(stop):
            if st.is_terminal:
                break
            if st.current_player == CHANCE:
                st.apply(st.sample_chance(rng))
            else:
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
        if st.current_player >= 0:
            out.append(st)
    return out


def test_validation_agrees_with_legal_actions_on_every_id():
    for n in (2, 4):
        for st in _random_positions(n, 3, seed=n):
            legal = set(st.legal_actions())
            for i in range(st.game.num_distinct_actions(n)):
                a = st.game.id_to_action(i, n)
                try:
                    st.check_action(a)
                    ok = True
                except IllegalActionError as exc:
                    ok = False
                    assert exc.rule or "chance" in str(exc) or "phase" in str(exc)
                assert ok == (a in legal), (str(a), st.phase)


def test_events_and_text_in_both_languages():
    game = DoubleSeven()
    seen = set()

    def on_event(state, action, events):
        for e in events:
            seen.add(e.kind)
            assert game.describe_event(e, "en") and game.describe_event(e, "ja")
        assert game.describe_action(action, "ja") != str(action)

    result = play_game(
        game, [RandomAgent(), RandomAgent(), RandomAgent()], seed=5, on_event=on_event
    )
    assert result.state.is_terminal
    assert {"turn", "flip", "draw", "drew", "start", "pass", "game_over"} <= seen
    for lang in ("en", "ja"):
        assert game.render(result.state.view(0), lang)
        assert game.rules_text(lang)
    assert "鳥" in game.rules_text("ja") and "Rainbow" in game.rules_text("en")


def test_game_over_line_names_the_winners() -> None:
    from septet.core.types import Event

    g = DoubleSeven()
    one = Event("game_over", None, {"winners": [1], "scores": [22, 30, 20]})
    assert g.describe_event(one, "en") == "Game over: P1 wins with 30 points (P0 22, P1 30, P2 20)"
    assert g.describe_event(one, "ja") == "ゲーム終了：P1が30点で勝ち（P0 22点、P1 30点、P2 20点）"
    two = Event("game_over", None, {"winners": [0, 2], "scores": [9, 5, 9]})
    assert g.describe_event(two, "en") == (
        "Game over: P0 and P2 tie on 9 points and share the win (P0 9, P1 5, P2 9)"
    )
    # DS-8.2: a tie settled by the 77 token says so.
    by77 = Event("game_over", None, {"winners": [2], "scores": [9, 5, 9]})
    assert g.describe_event(by77, "en") == (
        "Game over: P0 and P2 tie on 9 points; the 77 token gives P2 the win (P0 9, P1 5, P2 9)"
    )
    assert g.describe_event(by77, "ja") == (
        "ゲーム終了：P0とP2が9点で同点。「77」トークンを持つP2の勝ち（P0 9点、P1 5点、P2 9点）"
    )


def test_japanese_rules_text_has_no_breaks_inside_sentences() -> None:
    # Each line is a whole paragraph, heading or list item: the terminal wraps it, so a hard break
    # must not leave half a sentence (or a stray space) behind. The rack is ラック throughout.
    text = DoubleSeven().rules_text("ja")
    for line in text.splitlines():
        assert not line.strip() or line.startswith("#") or line.endswith(("。", "：")), line
    assert "スタンド" not in text and "ラックが空なら3枚" in text
    assert "「77」トークン" in text and "「7 7」" not in text


def test_final_table_names_the_winner() -> None:
    from septet.core.types import TERMINAL

    g = DoubleSeven()
    rng = random.Random(1)
    st = g.new_state(3)
    while st.current_player != TERMINAL:
        legal = st.chance_outcomes() if st.current_player == CHANCE else None
        st.apply(st.sample_chance(rng) if legal else rng.choice(st.legal_actions()))
    (winner,) = st.winners()  # seed 1: a single winner
    assert f"Winner: P{winner}" in g.render(st.view(None), "en").splitlines()
    assert f"勝者：P{winner}" in g.render(st.view(None), "ja").splitlines()
