"""Browser tests of ratings, profiles, rematches and Play now (issue 24), against a real
``septet serve``: a guest plays a short game against a bot, claims an account, signs out, signs
in from a second browser and finds the game and a rating on their profile; two browsers ask
for a rematch and sit at the same new table; two browsers press Play now and meet at one
table. Games are Tiny Sevens to 3 (a few moves)."""

from __future__ import annotations

import contextlib
import random
import re
import secrets
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import MOVES, create_table, enter_lobby, my_moves, play

pytestmark = pytest.mark.timeout(300)


def call(page: Any, method: str, path: str, body: Any = None) -> Any:
    """The page's own fetch (its cookie, its origin): ``{"status", "json"}``."""
    return page.evaluate(
        """async ([method, path, body]) => {
          const headers = body ? {'Content-Type': 'application/json'} : {};
          const r = await fetch(path, {method, headers,
                                       body: body ? JSON.stringify(body) : undefined});
          return {status: r.status, json: await r.json().catch(() => null)};
        }""",
        [method, path, body],
    )


def play_to_the_end(pages: list[Any], rng: random.Random) -> None:
    """Each page plays a random offered move when it has one, until every page shows the end."""
    for _ in range(400):
        if all(p.query_selector("#final") is not None for p in pages):
            return
        for p in pages:
            if p.query_selector(MOVES) is not None and p.query_selector("#final") is None:
                moves = [e.get_attribute("data-action") for e in p.query_selector_all(MOVES)]
                with contextlib.suppress(Exception):  # the page redrew under the click: again
                    play(p, rng.choice([m for m in moves if m]))
        pages[0].wait_for_timeout(100)
    raise AssertionError("the game did not end")


def test_guest_game_account_and_profile_from_another_browser(
    browser: Any, live_server: str
) -> None:
    page = new_page(browser)
    enter_lobby(page, live_server, "Aki")
    tid = create_table(page, "tiny-sevens", 2, {"target": "3"})  # me and an Easy bot
    rng = random.Random(3)
    while moves := my_moves(page):
        play(page, rng.choice(moves))
    name = f"aki{secrets.token_hex(3)}"
    r = call(page, "POST", "/api/account", {"name": name, "password": "seven sevens 77"})
    assert r["status"] == 200 and r["json"]["player"]["account"] is True, r
    me = r["json"]["player"]["id"]
    assert call(page, "POST", "/api/logout")["status"] == 200
    assert call(page, "GET", "/api/me")["json"]["player"] is None
    other = new_page(browser, lang="ja")
    other.goto(live_server + "/")
    r = call(other, "POST", "/api/login", {"name": name, "password": "seven sevens 77"})
    assert r["status"] == 200 and r["json"]["player"]["id"] == me  # the same player
    # The rating is settled as the game ends; wait until the profile has it.
    other.wait_for_function(
        """async (name) => { const r = await fetch(`/api/players/${name}`);
           const p = await r.json(); return p.games.length && p.games[0].rating !== null; }""",
        arg=name,
    )
    other.goto(f"{live_server}/u/{name}")
    other.wait_for_selector("#recent")
    assert other.query_selector(f"#recent a[href='/r/{tid}']") is not None
    rating = other.text_content("#rating-tiny-sevens") or ""
    assert re.fullmatch(r"\d{3,4}（暫定）", rating), rating  # one game: provisional
    assert other.text_content("#profile-name").startswith(name)  # type: ignore[union-attr]
    shot(other, "i24-profile-after-login-ja")
    assert page.console.errors == [] and other.console.errors == []
    page.context.close()
    other.context.close()


def test_two_browsers_rematch_at_the_same_table(browser: Any, live_server: str) -> None:
    a, b = new_page(browser), new_page(browser, lang="ja")
    enter_lobby(a, live_server, "Aki")
    enter_lobby(b, live_server, "Ben")
    tid = create_table(a, "tiny-sevens", 2, {"target": "3"}, bot="human")  # seat 2: a person
    assert call(b, "POST", f"/api/tables/{tid}/join", {})["status"] == 200
    b.goto(f"{live_server}/t/{tid}")
    a.wait_for_selector("#board")
    play_to_the_end([a, b], random.Random(5))
    first = call(a, "POST", f"/api/tables/{tid}/rematch")
    second = call(b, "POST", f"/api/tables/{tid}/rematch")
    assert first["status"] == second["status"] == 200
    new = first["json"]["table"]["id"]
    assert second["json"]["table"]["id"] == new != tid
    assert (first["json"]["table"]["my_seat"], second["json"]["table"]["my_seat"]) == (0, 1)
    assert second["json"]["table"]["status"] == "playing"  # both seats taken: it started
    a.goto(f"{live_server}/t/{new}")
    b.goto(f"{live_server}/t/{new}")
    play_to_the_end([a, b], random.Random(6))
    assert a.console.errors == [] and b.console.errors == []
    a.context.close()
    b.context.close()


def test_two_browsers_press_play_now_and_meet(browser: Any, live_server: str) -> None:
    a, b = new_page(browser), new_page(browser, phone=True)
    urls = []
    for p, who in ((a, "Aki"), (b, "Ben")):
        enter_lobby(p, live_server, who)
        p.select_option("#pn-game", "tiny-sevens")
        p.select_option("#pn-players", "2")
        shot(p, f"i24-play-now-{'phone' if p is b else 'desktop'}")
        p.click("#play-now")
        p.wait_for_url(re.compile(r"/t/[\w-]+$"))
        urls.append(p.url)
    assert urls[0] == urls[1]
    tid = urls[0].rsplit("/", 1)[1]
    table = call(a, "GET", f"/api/tables/{tid}")["json"]
    assert table["status"] == "playing"
    assert [s["name"] for s in table["seats"]] == ["Aki", "Ben"]
    a.goto(live_server + "/")
    a.wait_for_selector(f"#my-games a[href='/t/{tid}']")  # my games first, in the lobby
    assert a.console.errors == [] and b.console.errors == []
    a.context.close()
    b.context.close()
