"""A Flip 7 round's start as the board plays it (issue 27): when my stay ends a round, the
new round's board never shows the round before's cards or figures (rows empty, This round 0,
the totals the round's end gave) and the status names the player to act in the new round,
not its dealer. A stand-in server sends a real engine update (test_web_browser's helpers);
screenshots at the moment the round begins, 390x844 and 1280x900, en and ja."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import check_player_words, serve_fake_table
from tests.web.test_web_browser import _legal_json, _position, _state_msg

pytestmark = pytest.mark.timeout(300)


def _ends_round(st: Any) -> bool:
    """Round 2 or later, my turn, the other seat done: my stay ends the round (F7V-3.4)."""
    v = st.view(0)
    if v.get("round", 1) < 2 or (v.get("decision") or {}).get("kind") != "hit_stay":
        return False
    return all(p["status"] != "active" for i, p in enumerate(v["players"]) if i != 0)


def _stay_update(g: Any, st: Any, lang: str, tid: str) -> dict[str, Any]:
    """The state message the server sends after my stay: the stay, the round's end, the new
    round's start and its deal (each event at its step's version), up to the next decision."""
    from septet.core import CHANCE
    from septet.server.live import event_json

    rng = random.Random(7)
    stay = next(a for a in st.legal_actions() if str(a) == "stay")
    events = [event_json(g, len(st.history) + 1, e) for e in st.apply(stay)]
    while st.current_player == CHANCE:
        acts, ps = zip(*st.chance_outcomes(), strict=True)
        evs = st.apply(rng.choices(acts, ps)[0])
        events += [event_json(g, len(st.history), e) for e in evs]
    msg = _state_msg(g, st, lang, tid)
    msg["events"], msg["legal"] = events, _legal_json(g, st)
    return msg


@pytest.mark.parametrize("phone", [True, False])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_flip7_new_round_board_and_status(
    browser: Any, live_server: str, lang: str, phone: bool
) -> None:
    g, st = _position("flip7", 2, _ends_round)
    tid = f"f7rs{lang}{int(phone)}"
    first = _state_msg(g, st, lang, tid)
    before = [p["round_score"] for p in first["view"]["players"]]
    update = _stay_update(g, st.clone(), lang, tid)
    to_move = update["table"]["to_move"]
    dealer = next(e["seat"] for e in update["events"] if e["kind"] == "round_start")
    page = new_page(browser, phone=phone, lang=lang, fast=False)
    sockets = serve_fake_table(page, live_server, tid, first)
    page.goto(f"{live_server}/t/{tid}")
    page.wait_for_selector('#actions button.move[data-action="stay"]')
    assert any(before), before  # the round before scored something (else nothing to check)
    page.evaluate(
        """() => { window.__start = null;
        new MutationObserver(() => {
          if (window.__start || !document.querySelector('#log li.ev-round_start')) return;
          window.__start = {status: document.querySelector('#status').innerText,
            head: document.querySelector('#board .f7-round').innerText,
            rows: [...document.querySelectorAll('#board .f7-row, #dock .f7-mine')].map((r) => [
              r.querySelectorAll('.f7-line .f7card').length,
              r.querySelector('.f7-this-round').innerText,
              r.querySelector('.f7-game-total').innerText,
              r.querySelector('.tag.dealer') !== null]),
            prompt: document.querySelector('#board .prompt') !== null};
        }).observe(document.querySelector('#log'), {childList: true}); }"""
    )
    page.click('#actions button.move[data-action="stay"]')
    sockets[-1].send(json.dumps(update))
    page.wait_for_function("() => window.__start !== null")
    name = f"f7-round-start-{'phone' if phone else 'desktop'}-{lang}"
    shot(page, name)
    seen = page.evaluate("() => window.__start")
    end = next(e for e in update["events"] if e["kind"] == "round_end")["data"]
    new_round = next(e for e in update["events"] if e["kind"] == "round_start")["data"]["round"]
    assert str(new_round) in seen["head"], seen
    rows = seen["rows"][:2]  # the table's rows (my row in the sticky area follows, on a phone)
    assert [r[:2] for r in seen["rows"]] == [[0, "0"]] * len(seen["rows"]), seen
    assert [r[3] for r in rows] == [i == dealer for i in range(2)], (seen, dealer)  # the new one
    assert not seen["prompt"], seen  # the round before's "Hit or stay?" is gone
    assert [r[2] for r in rows] == [str(t) for t in end["totals"]], (seen, end["totals"])
    # the status names the player to act (the next decision), not the dealer
    if to_move == 0:
        want = "あなたの手" if lang == "ja" else "Your move"
    else:
        want = "ボット1の手番" if lang == "ja" else "Bot 1's turn"
    assert seen["status"] == want, (seen["status"], want, dealer, to_move)
    check_player_words(page, lang, "round start")
    assert page.console.errors == []
    page.context.close()
