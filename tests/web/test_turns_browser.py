"""Turn-based tables in the browser (issue 28): the pace in the create form, the deadline under
the table's status line, and "your turn" pushed to another open page of the site (/ws/me): the
lobby's section and the count in the tab's title. Screenshots in artifacts/ (phone ja, desktop
en)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import enter_lobby, my_moves, play

pytestmark = pytest.mark.timeout(300)


def test_turns_browser_your_turn_is_pushed_to_the_lobby(browser: Any, live_server: str) -> None:
    aki = new_page(browser)
    ben = new_page(browser, phone=True, lang="ja")
    enter_lobby(aki, live_server, "Aki")
    aki.select_option("#game", "tiny-sevens")
    aki.select_option("#players", "2")
    aki.select_option("#seat-1", "human")
    aki.click("form.create details > summary")  # the table's options (pace among them)
    aki.select_option("#opt-pace", "turn-based")
    aki.fill("#opt-turn_hours", "48")
    aki.dispatch_event("#opt-turn_hours", "change")
    aki.click("#create")
    aki.wait_for_url(re.compile(r"/t/[\w-]+$"))
    invite = aki.input_value("#invite")
    ben.goto(invite)
    ben.fill("#name", "ベン")
    ben.click("#name-ok")
    ben.click("[data-join='1']")
    ben.wait_for_selector("#seats li:has-text('あなた')", state="attached")  # (a drawer)
    assert "手番制: 1手48時間" in ben.text_content("#deadline")
    # Ben waits: the deadline names who is to move
    assert re.search(r"Akiの期限: .*（あと(47時間59分|48時間)）", ben.text_content("#deadline"))
    # Ben goes to the lobby: nothing waits for him yet (Aki, seat 1, moves first)
    ben.goto(live_server + "/")
    ben.wait_for_selector("#my-turns", state="hidden")
    assert not ben.title().startswith("(")
    moves = my_moves(aki)
    assert "Turn-based: 48 h a move" in aki.text_content("#deadline")
    shot(aki, "web-turns-table-desktop-en")
    play(aki, moves[0])
    # pushed to Ben's open lobby: the section, the title's count and a toast
    ben.wait_for_selector("#my-turns h2:has-text('あなたの番（1）')")
    line = ben.text_content("#my-turns .turn-line")
    assert "ちいさなセブン" in line and re.search(r"あと(47|48)時間", line)
    ben.wait_for_function("() => document.title.startsWith('(1) ')")
    assert "ちいさなセブンであなたの番です。" in ben.text_content("#toast")
    shot(ben, "web-turns-lobby-phone-ja")
    ben.click("#my-turns a.button")
    ben.wait_for_url(re.compile(r"/t/[\w-]+$"))
    moves = my_moves(ben)
    shot(ben, "web-turns-table-phone-ja")
    play(ben, moves[0])
    ben.wait_for_function("() => !document.title.startsWith('(')")
    # and back to Aki: his table page's title counts it
    aki.wait_for_function("() => document.title.startsWith('(1) ')")
    aki.goto(live_server + "/")
    aki.wait_for_selector("#my-turns h2:has-text('Your turn (1)')")
    shot(aki, "web-turns-lobby-desktop-en")
    assert aki.console.errors == [] and ben.console.errors == []
    aki.context.close()
    ben.context.close()
