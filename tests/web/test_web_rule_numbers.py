"""The web client and the score keeper write Flip 7's bonus from the engine, never restated
(issue 25): the view and the score keeper's card list carry it, and the client's Flip 7 texts
hold no literal ``+15``/``−15`` (browser-free: the static files are read as text)."""

from __future__ import annotations

import re
from importlib import resources

from septet import games
from septet.games.flip7.rules import FLIP7_BONUS

WEB = resources.files("septet") / "web"
FLIP7_TEXTS = ["games/flip7.js", "score/text.js", "score/flip7_entry.js"]
# a sign (ASCII, Unicode minus, full-width plus/minus) right before the number 15
RESTATED_BONUS = re.compile(r"[+\-−＋－]\s*15(?!\d)")


def test_flip7_view_carries_the_bonus() -> None:  # F7V-7.2, F7V-8.3
    state = games.get("flip7").new_state(3)
    assert state.view(0)["flip7_bonus"] == FLIP7_BONUS == 15
    assert state.view(None)["flip7_bonus"] == 15
    classic = games.get("flip7", edition="classic").new_state(2)
    assert classic.view(1)["flip7_bonus"] == 15


def test_web_flip7_texts_restate_no_bonus() -> None:  # F7V-7.2, F7V-8.3
    for name in FLIP7_TEXTS:
        text = (WEB / name).read_text(encoding="utf-8")
        found = RESTATED_BONUS.findall(text)
        assert not found, f"{name} restates the Flip 7 bonus: {found}"
    # the texts do write the engine's number: from the view, the card list, the scored row
    flip7 = (WEB / "games/flip7.js").read_text(encoding="utf-8")
    assert "view.flip7_bonus" in flip7 and "st.next.flip7_bonus" in flip7
    entry = (WEB / "score/flip7_entry.js").read_text(encoding="utf-8")
    assert "data.flip7_bonus" in entry and "{ bonus: r.bonus }" in entry
    assert "{bonus}" in (WEB / "score/text.js").read_text(encoding="utf-8")


def test_double_seven_view_marks_seven_families() -> None:  # DS-5.3
    from septet.games.double_seven.rules import SEVEN
    from septet.games.double_seven.state import DoubleSevenState

    state = games.get("double-seven").new_state(2)
    assert isinstance(state, DoubleSevenState)
    state.families[0] = ((0, 5, 2),)  # 5 animals + 2 clovers: 7 tiles, earns a 7 token
    state.families[1] = ((1, 6, 0),)  # 6 tiles: not yet
    fams = state.view(0)["families"]
    assert [f["size"] for f in fams[0]] == [7] and fams[0][0]["seven"] is True
    assert [f["size"] for f in fams[1]] == [6] and fams[1][0]["seven"] is False
    assert SEVEN == 7
    js = (WEB / "games/double_seven.js").read_text(encoding="utf-8")
    assert "f.seven" in js and not re.search(r"size >= 7", js)


def _code(text: str) -> str:
    """A JS file without its comments (a comment may name a rule's number)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def test_double_seven_entry_restates_no_family_figure() -> None:  # DS-5.1, DS-5.3, DS-1.2
    # the family sizes, the 7-token size and the token count come from the sheet (the engine's
    # rules/tiles modules, server/score/sheet.py), never written in ds_entry.js (issue 25)
    code = _code((WEB / "score/ds_entry.js").read_text(encoding="utf-8"))
    assert "sheet.family_sizes" in code and "sheet.seven" in code
    assert "sheet.seven_tokens" in code
    # no comparison with (0 aside: a count cannot go below it) or range built from a number
    found = [
        m
        for m in re.findall(r"(?:[<>]=?|===?)\s*\d+|\blength:\s*\d+|\bi\s*\+\s*\d+", code)
        if not re.fullmatch(r"[<>=]+\s*0", m)
    ]
    assert not found, f"ds_entry.js restates a rule number: {found}"


def test_seven_shot_entry_restates_no_seven_count() -> None:  # SS-1.1, SS-4.1, SS-5.3
    code = _code((WEB / "score/ss_entry.js").read_text(encoding="utf-8"))
    assert "sheet.deck_sevens" in code and "sheet.threshold" in code
    # no cap or threshold from a number (0 aside: a count cannot go below it); ``=== 2`` /
    # ``=== 3`` tell the 2 teams from the 3 players by the sheet's sides, and stay
    found = [m for m in re.findall(r"[<>]=?\s*(\d+)", code) if m != "0"]
    assert not found, f"ss_entry.js restates a rule number: {found}"
