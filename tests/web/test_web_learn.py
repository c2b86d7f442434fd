"""Learn to play in the browser: each guided first game clicked through on a phone (390x844)
by tapping only what the guide points at, in English and Japanese, to the end and its "Play
against Easy bots" table. Screenshots of every step with a lesson go to artifacts/learn-*.png.

The Seven Shot tutorial (8 moves) runs in the default suite; the longer ones are slow."""

from __future__ import annotations

import re
from typing import Any

import pytest

from septet.server.learn import bot_spec, tutorial
from tests.web.conftest import ARTIFACTS, new_page
from tests.web.driver import check_player_words, enter_lobby

LEARN = "#learn"
STEP = """([v0, sent]) => {
  if (document.querySelector('#learn-easy')) return true;
  const el = document.querySelector('#learn');
  if (!el || !el.dataset.wanted) return false;
  const v = Number(el.dataset.version);
  const first = el.dataset.wanted.split('|')[0];
  if (v <= v0 || sent.includes(first)) return false;
  return [...document.querySelectorAll('.learn-target[data-action]')].some(
    (x) => x.offsetParent !== null && !x.disabled && !x.classList.contains('staged'));
}"""


def snap(page: Any, name: str) -> None:
    """Save what the phone's screen shows now (the viewport) as artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def tap_targets(page: Any) -> list[str]:
    """Tap what the guide points at: each highlighted move (a multi-pick's every pick, then
    Confirm), picking the highlighted pieces first where a move needs them; returns the moves
    tapped."""
    wanted = page.get_attribute(LEARN, "data-wanted").split("|")
    tapped: list[str] = []
    for action in wanted:
        sel = f'.learn-target[data-action="{action}"]:not(.staged)'
        el = page.query_selector(sel)
        if el is None or not el.is_visible():
            for piece in page.query_selector_all(".learn-target[data-pick]:not(.selected)"):
                piece.click()
            el = page.wait_for_selector(sel, state="visible")
        # Nothing else may be pressed: every other move is marked off.
        for other in page.query_selector_all("#actions button.move[data-action]"):
            if other.get_attribute("data-action") not in wanted:
                assert other.is_disabled(), other.get_attribute("data-action")
        el.click()
        tapped.append(action)
    confirm = page.query_selector("#confirm-picks:not([disabled])")
    if confirm is not None:
        confirm.click()
    return tapped


def click_through(browser: Any, base: str, game: str, lang: str, reload_at: int = 3) -> None:
    """Play ``game``'s guided game on a phone in ``lang`` from the lobby to the Easy table,
    reloading the page once on the way (the same step comes back)."""
    data = tutorial(game)
    page = new_page(browser, phone=True, lang=lang)
    try:
        enter_lobby(page, base, "アキ" if lang == "ja" else "Aki")
        page.click(f'#learn-entry button[data-learn="{game}"]')
        page.wait_for_url(re.compile(r"/t/[\w-]+$"))
        table_id = page.url.rsplit("/", 1)[1]
        version, sent, taps, shots = -1, [], 0, 0
        lessons_seen: set[str] = set()
        while True:
            page.wait_for_function(STEP, arg=[version, sent], timeout=120000)
            check_player_words(page, lang, f"{game} step {taps}")
            texts = [p.inner_text() for p in page.query_selector_all("#learn p.lesson")]
            if page.query_selector("#learn-easy") is not None:
                snap(page, f"learn-{game}-{lang}-end")
                break
            new = [x for x in texts if x not in lessons_seen]
            if new:
                lessons_seen.update(new)
                shots += 1
                snap(page, f"learn-{game}-{lang}-{shots:02d}")
            version = int(page.get_attribute(LEARN, "data-version"))
            assert str(version) in data["human_moves"], version
            if taps == reload_at:  # resumable: a reload shows the same step again
                wanted = page.get_attribute(LEARN, "data-wanted")
                page.reload()
                page.wait_for_function(STEP, arg=[version - 1, []], timeout=60000)
                assert page.get_attribute(LEARN, "data-version") == str(version)
                assert page.get_attribute(LEARN, "data-wanted") == wanted
            tapped = tap_targets(page)
            assert tapped[0] == data["human_moves"][str(version)]
            sent = tapped if len(tapped) > 1 else []
            taps += 1
        assert len(lessons_seen) >= 5, lessons_seen
        assert not page.console.errors, page.console.errors
        # The end: a table of the same game against Easy bots.
        page.click("#learn-easy")
        page.wait_for_url(lambda url: "/t/" in url and table_id not in url)
        easy_id = page.url.rsplit("/", 1)[1]
        assert easy_id != table_id
        summary = page.evaluate(f"() => fetch('/api/tables/{easy_id}').then((r) => r.json())")
        assert summary["game"] == game
        assert [s["level"] for s in summary["seats"][1:]] == ["easy"] * (len(summary["seats"]) - 1)
        assert all(s["bot"] != bot_spec(game) for s in summary["seats"])
        assert page.query_selector(LEARN) is None  # no guide at a normal table
    finally:
        page.context.close()


def test_web_learn_seven_shot_phone_en(browser: Any, live_server: str) -> None:
    click_through(browser, live_server, "seven-shot", "en")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "lang"),
    [
        ("seven-shot", "ja"),
        ("flip7", "en"),
        ("flip7", "ja"),
        ("double-seven", "en"),
        ("double-seven", "ja"),
    ],
)
def test_web_learn_whole_guided_games(browser: Any, live_server: str, game: str, lang: str) -> None:
    click_through(browser, live_server, game, lang)
