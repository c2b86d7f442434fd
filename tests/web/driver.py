"""Driving the browser client as a player does, and checking what a player sees.

Helpers shared by the quick browser tests and the whole-game ones: enter the lobby, create a
table against bots, wait for my turn, play a move by clicking the piece or the button the page
offers, and the checks of visible text (no rule id or notation, Japanese only in ja mode),
the phone viewport, overflow and the moments recorded as they happened (conftest.RECORDER).
"""

from __future__ import annotations

import re
from typing import Any

# Every move the page offers now: the pieces that are the buttons (a card in the hand, a
# face-up tile, the pile) and the move buttons; picks already staged (a multi-pick move waiting
# for Confirm) left out.
MOVES = (
    "#board .legal[data-action]:not(.staged), #dock .legal[data-action]:not(.staged), "
    "#actions button.move[data-action]:not([disabled]):not(.staged)"
)
READY = f"""() => document.querySelector('#final') !== null ||
  document.querySelector({MOVES!r}) !== null"""

# A rule id ("SS-4.2", "DS-5.3", "F7V-6.1") or an action's notation ("E8", "fox3+1",
# "2:frog4", "two-for-one", "target 0", "swap 0:9") or an engine seat reference ("P1").
RULE_ID = re.compile(r"\b(?:DS|SS|F7V|F7)-\d")
NOTATION = re.compile(
    r"\b(?:[SMFWTGE](?:1[0-3]|[1-9])|[a-z]+\d+\+\d+|\d:[a-z0-9]+|two-for-one|no-rainbow"
    r"|target \d|swap \d|steal \d|P\d)\b"
)
# Latin-letter words a Japanese page may show: the Seven Shot A (the rulebook's name) and the
# button that switches to English.
JA_ALLOW = {"A", "EN"}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


def enter_lobby(page: Any, base: str, name: str = "Aki") -> None:
    """Open the lobby and choose a display name."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.click("#name-ok")
    page.wait_for_selector("#create")


def create_table(
    page: Any,
    game: str,
    players: int,
    options: dict[str, str] | None = None,
    bot: str | None = None,
) -> str:
    """Fill the lobby form (seat 1 is me, the others bots: `bot` or the form's default bot)
    and create the table; returns its id."""
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    if bot is not None:
        for i in range(1, players):
            page.select_option(f"#seat-{i}", bot)
    if options:
        page.click("details > summary")
        for key, value in options.items():
            page.fill(f"#opt-{key}", value)
            page.dispatch_event(f"#opt-{key}", "change")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return str(page.url.rsplit("/", 1)[1])


def my_moves(page: Any, timeout: float = 90000) -> list[str]:
    """The notations of the moves offered now, waiting until it is my turn or the game is over
    ([] then)."""
    page.wait_for_function(READY, timeout=timeout)
    if page.query_selector("#final") is not None:
        return []
    out: list[str] = []
    for el in page.query_selector_all(MOVES):
        a = el.get_attribute("data-action")
        if a and a not in out:
            out.append(a)
    return out


def play(page: Any, action: str) -> None:
    """Play `action` by clicking its button, or the piece that is its button."""
    el = page.query_selector(f'#actions button.move[data-action="{action}"]:not([disabled])')
    if el is not None and not el.is_visible():  # in a folded group of moves: open it first
        page.click(f'#actions details.group:has(button[data-action="{action}"]) > summary')
    if el is None:
        el = page.query_selector(f'.legal[data-action="{action}"]')
    assert el is not None, f"no button or piece plays {action!r}"
    el.click()
    # A multi-pick move (the Seven Shot pass, a Flip 7 swap tapped on the cards) is staged:
    # once every pick is made, confirm it.
    confirm = page.query_selector("#confirm-picks:not([disabled])")
    if confirm is not None:
        confirm.click()


def visible_text(page: Any) -> str:
    """What the page shows now (innerText: hidden drawers and tooltips left out)."""
    return str(page.evaluate("() => document.body.innerText"))


def check_player_words(page: Any, lang: str, where: str = "") -> None:
    """No rule id, notation or seat reference in the visible text; in Japanese, no Latin word
    outside JA_ALLOW."""
    text = visible_text(page)
    assert not RULE_ID.search(text), (where, RULE_ID.search(text), text[-1500:])
    m = NOTATION.search(text)
    assert m is None, (
        where,
        m.group(0) if m else None,
        text[max(0, (m.start() if m else 0) - 200) :][:600],
    )
    if lang == "ja":
        latin = sorted({w for w in LATIN_WORD.findall(text) if w not in JA_ALLOW})
        assert not latin, (where, latin, text[-1500:])


def check_moves_in_view(page: Any) -> None:
    """On a phone: my status and every move the page offers are on screen without scrolling
    (the sticky area), each at least 44 px square; where a turn offers many moves, each group
    of them is a chip on screen that opens its moves; the page is no wider than the screen."""
    size = page.viewport_size
    status = page.query_selector("#status").bounding_box()
    assert status and status["y"] >= 0 and status["y"] + status["height"] <= size["height"], status
    dock = page.query_selector("#dock").bounding_box()
    assert dock and dock["y"] >= 0 and dock["y"] + dock["height"] <= size["height"] + 1, dock
    buttons = {
        el.get_attribute("data-action") for el in page.query_selector_all("#actions button.move")
    }
    shown = [
        el
        for el in page.query_selector_all(MOVES)
        if el.is_visible()
        # a piece on the board whose move is also a button below may be scrolled away
        and not (
            el.evaluate("(e) => !e.closest('#dock')") and el.get_attribute("data-action") in buttons
        )
    ]
    shown += page.query_selector_all("#actions details.group > summary")
    assert shown, "no move on screen"
    for el in shown:
        box = el.bounding_box()
        what = el.get_attribute("data-action") or el.inner_text()
        assert box is not None, what
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (what, box)
        assert box["height"] >= 43.5 and box["width"] >= 43.5, (what, box)
    check_no_overflow(page)


def check_no_overflow(page: Any) -> None:
    """Nothing wider than the viewport (no sideways scrolling)."""
    width = page.viewport_size["width"]
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"page is {scroll}px wide in a {width}px viewport"


def recorded(page: Any) -> dict[str, Any]:
    """What the page showed for a moment since it loaded (conftest.RECORDER)."""
    return dict(page.evaluate("() => window.__rec"))


def serve_fake_table(page: Any, base: str, table_id: str, first: dict[str, Any]) -> list[Any]:
    """Route ``page`` so that ``/api/tables/<table_id>`` answers ``first["table"]`` and its
    table socket sends ``first`` on connecting; returns the list the sockets are put in (send
    later updates on ``sockets[-1]``). The caller then opens ``{base}/t/<table_id>``."""
    import json

    sockets: list[Any] = []

    def on_ws(ws: Any) -> None:
        sockets.append(ws)
        ws.send(json.dumps(first))

    page.route(
        f"**/api/tables/{table_id}",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(first["table"])
        ),
    )
    page.route_web_socket(re.compile(f"/ws/tables/{table_id}"), on_ws)
    return sockets
