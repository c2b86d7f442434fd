"""Screenshots of turn-based tables on real games (issue 28), at 390x844 and 1280x900 in English
and Japanese: the lobby's "Your turn" section with two tables (a day and three days a move),
and a turn-based Flip 7 table with its deadline, seen by the player to move and by the one
waiting. The pages are checked as they are shot: the count in the tab title, the deadline on
both seats' pages, nothing wider than the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import new_page
from tests.web.driver import enter_lobby
from tests.web.turns_shots import four_shots

pytestmark = pytest.mark.timeout(300)


def post(page: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST path`` from ``page`` (its cookie), the JSON answer."""
    script = """([path, body]) => fetch(path, {method: 'POST', body: JSON.stringify(body),
      headers: {'Content-Type': 'application/json'}}).then((r) => r.json())"""
    return dict(page.evaluate(script, [path, body]))


def turn_based(aki: Any, ben: Any, game: str, hours: int) -> dict[str, Any]:
    """A turn-based table of Aki and Ben at ``hours`` a move; its summary once both sit."""
    body = {"game": game, "seats": ["human", "human"],
            "options": {"pace": "turn-based", "turn_hours": hours}}  # fmt: skip
    tid = post(aki, "/api/tables", body)["id"]
    return post(ben, f"/api/tables/{tid}/join", {})


def test_turns_screens_lobby_and_table(browser: Any, live_server: str) -> None:
    aki = new_page(browser)
    ben = new_page(browser)
    try:
        enter_lobby(aki, live_server, "Aki")
        enter_lobby(ben, live_server, "Ben")
        tables = [turn_based(aki, ben, "flip7", 24), turn_based(aki, ben, "double-seven", 72)]
        for t in tables:
            assert t["status"] == "playing" and t["deadline"], t
        # each table waits for one of them: whoever it is sees it in the lobby
        pages = {0: aki, 1: ben}
        waiting: dict[int, list[str]] = {0: [], 1: []}
        for t in tables:
            waiting[t["to_move"]].append(t["id"])
        who = max(waiting, key=lambda s: len(waiting[s]))
        me = pages[who]
        me.goto(live_server + "/")
        n = len(waiting[who])
        me.wait_for_selector(f"#my-turns h2:has-text('Your turn ({n})')")
        me.wait_for_function(f"() => document.title.startsWith('({n}) ')")
        lines = me.query_selector_all("#my-turns .turn-line")
        assert len(lines) == n
        assert all(re.search(r"move by .*\(in \d+ h", x.inner_text()) for x in lines)
        four_shots(me, "web-turns-lobby", "#my-turns .turn-line")
        # the Flip 7 table: the deadline on the page of the one to move and of the one waiting
        flip = tables[0]
        mover, other = pages[flip["to_move"]], pages[1 - flip["to_move"]]
        name = ["Aki", "Ben"][flip["to_move"]]
        for pg, says in ((mover, "move by"), (other, f"{name} moves by")):
            pg.goto(f"{live_server}/t/{flip['id']}")
            pg.wait_for_selector("#deadline")
            # the line is written again once the page knows who it is (GET /api/me)
            pg.wait_for_function(
                "(s) => (document.querySelector('#deadline')?.innerText || '').includes(s)",
                arg=f"· {says} ",
            )
            assert "Turn-based: 24 h a move" in pg.inner_text("#deadline")
            assert re.search(rf"· {says} .*\(in (23 h 59 min|24 h)\)", pg.inner_text("#deadline"))
        four_shots(mover, "web-turns-table-mover", "#deadline")
        four_shots(other, "web-turns-table-waiting", "#deadline")
        assert aki.console.errors == [] and ben.console.errors == []
    finally:
        aki.context.close()
        ben.context.close()
