"""IllegalActionError.message(lang): the player's language, English fallback, the rule id."""

from __future__ import annotations

import pickle

from septet.core.errors import IllegalActionError, NotationError


def test_message_in_japanese_with_the_rule_id() -> None:
    exc = IllegalActionError(
        "those tiles are not on your rack", "DS-5.1", reason_ja="ラックにそのタイルがありません"
    )
    assert exc.message("ja") == "ラックにそのタイルがありません [DS-5.1]"
    assert exc.message("ja-JP") == "ラックにそのタイルがありません [DS-5.1]"
    assert exc.message("en") == "those tiles are not on your rack [DS-5.1]"
    assert exc.message() == "those tiles are not on your rack [DS-5.1]"
    # str() stays English, as before.
    assert str(exc) == "those tiles are not on your rack [DS-5.1]"
    assert exc.reason_ja == "ラックにそのタイルがありません"


def test_message_falls_back_to_english() -> None:
    # No Japanese reason (the old two-argument form): Japanese players get the English one.
    old = IllegalActionError("choose hit or stay", rule="F7V-3.3")
    assert old.reason_ja == ""
    assert old.message("ja") == "choose hit or stay [F7V-3.3]"
    # No rule id: no brackets.
    plain = NotationError("empty action", reason_ja="アクションが入力されていません")
    assert plain.message("ja") == "アクションが入力されていません"
    assert plain.message("fr") == "empty action"
    assert str(plain) == "empty action"


def test_error_still_pickles() -> None:
    exc = IllegalActionError("no tile left to draw", "DS-5.6", reason_ja="残っていません")
    back = pickle.loads(pickle.dumps(exc))
    assert isinstance(back, IllegalActionError)
    assert str(back) == "no tile left to draw [DS-5.6]"
