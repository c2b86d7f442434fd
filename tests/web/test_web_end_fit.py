"""The end screen fits a phone (issue 27): Double Seven's final table at 390 and 320 px wide
has no sideways scrolling (neither the page nor the table inside it) and breaks no name
inside a word. The page is fed a finished game by a stand-in server (test_web_browser's
``_stand_in_table``): a real engine game played at random to its end."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import check_player_words
from tests.web.test_web_browser import _state_msg
from tests.web.test_web_moments import LINES

pytestmark = pytest.mark.timeout(300)


def _finished(game: str, players: int, seed: int) -> tuple[Any, Any]:
    """A game played at random from ``seed`` to its end: the game and the terminal state."""
    from septet import games
    from septet.core import CHANCE

    g = games.get(game)
    rng = random.Random(seed)
    st = g.new_state(players)
    while not st.is_terminal:
        if st.current_player == CHANCE:
            acts, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply(rng.choices(acts, ps)[0])
        else:
            st.apply(rng.choice(st.legal_actions()))
    return g, st


def open_end(browser: Any, base: str, lang: str, width: int, g: Any, st: Any, tid: str) -> Any:
    """A page ``width`` wide (a phone below 860 px: x 844; else 1280x900) on table ``tid``
    whose stand-in server sends the finished game ``st`` (seat 0 is me, bots elsewhere)."""
    msg = _state_msg(g, st, lang, tid)
    msg["table"].update(
        status="finished", to_move=None,
        result={"scores": list(st.scores()), "winners": list(st.winners())},
    )  # fmt: skip
    summary = msg["table"]
    page = new_page(browser, phone=width < 860, lang=lang, width=width)
    page.route(
        f"**/api/tables/{tid}",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(summary)
        ),
    )
    page.route_web_socket(re.compile(f"/ws/tables/{tid}"), lambda ws: ws.send(json.dumps(msg)))
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#final .ds-breakdown")
    page.wait_for_timeout(300)
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width", [320, 390, 1280])
def test_double_seven_end_table_fits_a_phone(
    browser: Any, live_server: str, lang: str, width: int
) -> None:
    g, st = _finished("double-seven", 4, 3)
    page = open_end(browser, live_server, lang, width, g, st, f"dsend{width}{lang}")
    # no sideways scrolling: the page, and the table inside its box
    sizes = page.evaluate(
        """() => ({doc: document.documentElement.scrollWidth,
        view: document.documentElement.clientWidth,
        boxes: [...document.querySelectorAll('#final, #final .end-double-seven')].map(
          (e) => [e.className, e.scrollWidth, e.clientWidth])})"""
    )
    assert sizes["doc"] <= sizes["view"], sizes
    for name, scroll, client in sizes["boxes"]:
        assert scroll <= client, (name, scroll, client)
    table = page.query_selector("#final .ds-breakdown").bounding_box()
    assert table is not None and table["x"] >= 0 and table["x"] + table["width"] <= width, table
    # every name on one line (no ボッ/ト1), every column heading's words whole
    for th in page.query_selector_all("#final tbody th"):
        lines = th.evaluate(LINES)
        assert lines <= 1, (th.inner_text(), lines)
    assert len(page.query_selector_all("#final tbody tr")) == 4
    check_player_words(page, lang, "end")
    name = f"ds-end-{'desktop' if width >= 860 else 'phone'}{width}-{lang}"
    path = shot(page, name)
    assert path.exists()
    assert page.console.errors == []
    page.context.close()
