"""A Strong bot playing at Normal while its search warms up is said in player words (issue
27): when the server marks the seat ``warming`` (after a move the worker marked so), the log
gains a line and the status says it at that bot's turn, in English and Japanese. The page is
fed by a stand-in server on a real engine position (test_web_browser's helpers)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import check_player_words, serve_fake_table
from tests.web.test_web_browser import _position, _state_msg

pytestmark = pytest.mark.timeout(300)

WORDS = {
    "en": "Bot 1 plays at Normal strength while the Strong search warms up.",
    "ja": "ボット1は「強い」の探索の準備ができるまで「普通」の強さで打ちます。",
}


@pytest.mark.parametrize("phone", [True, False])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_strong_bot_warming_is_said(browser: Any, live_server: str, lang: str, phone: bool) -> None:
    g, st = _position("flip7", 2, lambda s: s.current_player == 1, mine=False)
    tid = f"warm{lang}{int(phone)}"
    first = _state_msg(g, st, lang, tid)
    for seat in first["table"]["seats"]:
        seat["warming"] = False
    first["table"]["seats"][1]["level"] = "strong"
    later = copy.deepcopy(first)
    later["table"]["seats"][1]["warming"] = True  # the server: its last move was Normal's
    page = new_page(browser, phone=phone, lang=lang)
    sockets = serve_fake_table(page, live_server, tid, first)
    page.goto(f"{live_server}/t/{tid}")
    page.wait_for_selector("#board > *")
    status = page.text_content("#status") or ""
    assert WORDS[lang] not in status, status  # nothing said before the server says so
    sockets[-1].send(json.dumps(later))
    page.wait_for_selector("#log li.ev-bot_warming", state="attached")
    assert page.text_content("#log li.ev-bot_warming") == WORDS[lang]
    status = page.text_content("#status") or ""
    assert status.startswith(WORDS[lang]), status
    thinking = "ボット1が考えています…" if lang == "ja" else "Bot 1 is thinking…"
    assert status.endswith(thinking), status  # (no full stop after the …)
    check_player_words(page, lang, "warming")
    if phone:
        page.click("#open-log")
        page.wait_for_timeout(300)
    name = f"warming-{'phone' if phone else 'desktop'}-{lang}"
    shot(page, name)
    assert page.console.errors == []
    page.context.close()
