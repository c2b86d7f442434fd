"""The table's moments never cover what they describe, the log never runs ahead of the board,
and the end screen leads with the results (issue 27).

A recorder in the page (OVERLAP below) measures, whenever a banner appears, its box against
the boxes of what it describes (the elements marked ``data-moment-about`` with its id) and of
what no banner may cover (the round or deal summary kept on screen, the trick, the results);
whenever a summary is kept on screen, its box against the board's rows, trick, seats and
sentences. Bounding boxes, at 390x844 and 1280x900. The log's last line is read at each banner:
it must be that banner's event (never a later one). At the end the results are on screen
without a tap, the status says the game is over, and the end offers Rematch, Replay, Download
and Lobby.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import create_table, enter_lobby, my_moves, play

OVERLAP = """
window.__ov = {moments: 0, held: 0, bad: [], logs: [], status: []};
(() => {
  const over = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const name = (e) => e.id ? '#' + e.id : e.className;
  const check = (what, box, els) => {
    for (const e of els) {
      const r = e.getBoundingClientRect();
      if (r.width && r.height && over(box, r) > 1) {
        window.__ov.bad.push({what, covers: name(e),
          box: [box.left, box.top, box.right, box.bottom], r: [r.left, r.top, r.right, r.bottom]});
      }
    }
  };
  const ALWAYS = '#held:not([hidden]) .held-card, #final, #trick';
  const BOARD = '#board .f7-row, #board #trick .played, #board .trick-caption, #board .ss-seat, '
    + '#board .ss-side, #board .ds-player, #board .phase-line, #board .ds-reserve';
  new MutationObserver((muts) => {
    for (const m of muts) for (const n of m.addedNodes) {
      if (!(n instanceof Element) || !n.classList.contains('moment')) continue;
      const ov = window.__ov;
      ov.moments += 1;
      const id = n.dataset.moment;
      const about = [...document.querySelectorAll(`[data-moment-about~="${id}"]`)];
      const always = [...document.querySelectorAll(ALWAYS)];
      // its layout box (the entrance animation scales it while it plays); the layer is the viewport
      const box = {left: n.offsetLeft, top: n.offsetTop, right: n.offsetLeft + n.offsetWidth,
        bottom: n.offsetTop + n.offsetHeight};
      check(n.innerText, box, [...about, ...always]);
      const last = document.querySelector('#log li:last-child');
      ov.logs.push({banner: n.innerText, about: about.length,
        last: last ? last.className : '', lastText: last ? last.innerText : ''});
    }
    // The status at each line the log gains as the board plays (a redraw of the whole log, at
    // a settled state, replaces its lines: not a moment). Lines appended together (a quiet
    // event's and the next one's) each get an entry.
    const log = document.querySelector('#log');
    const first = Boolean(log && log.querySelector('li.ev') && !window.__ov.drawn);  // 1st draw
    if (first) window.__ov.drawn = true;
    const redraw = first || muts.some((m) => m.target === log && (m.removedNodes.length > 1
      || (m.removedNodes.length === 1 && m.removedNodes[0].matches?.('li.ev')
        && log.children.length < 200)));  // (the log's oldest line trimmed at 200: no redraw)
    const lines = redraw ? [] : muts.flatMap((m) => [...m.addedNodes])
      .filter((n) => n instanceof Element && n.matches('#log li.ev'));
    for (const line of lines) {
      const st = document.querySelector('#status');
      // what the Flip 7 board shows then: the round in its head, each row's cards and figures
      // (the table's rows and my row in the sticky area)
      const rows = [...document.querySelectorAll('#board .f7-row, #dock .f7-mine')].map((r) => ({
        cards: r.querySelectorAll('.f7-line .f7card').length,
        round: (r.querySelector('.f7-this-round') || {}).innerText,
        total: (r.querySelector('.f7-game-total') || {}).innerText}));
      window.__ov.status.push({line: line.className, text: line.innerText,
        status: st ? st.innerText : '',
        head: (document.querySelector('#board .f7-round') || {}).innerText || '', rows});
    }
    const held = document.querySelector('#held:not([hidden]) .held-card');
    if (held) {
      window.__ov.held += 1;
      check('summary', held.getBoundingClientRect(), document.querySelectorAll(BOARD));
    }
  }).observe(document, {childList: true, subtree: true});
})();
"""

# The most lines any one text of an element is laid out on (a name broken mid-word: 2).
LINES = """(e) => {
  const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT); let n; let most = 0;
  while ((n = w.nextNode())) { if (!n.textContent.trim()) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    const tops = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
    most = Math.max(most, tops.size); }
  return most; }"""

# The headline events each game's banners are about, and the log line's class that says it.
BANNER_EVENT = {
    "Bust!": "ev-bust",
    "バースト！": "ev-bust",
    "wins the trick": "ev-trick_won",
    "トリックを獲得": "ev-trick_won",
    "Game over": "ev-game_",
    "ゲーム終了": "ev-game_",
}


def play_to_end(page: Any, game: str, rng: random.Random) -> int:
    """Click through the game (plausible moves, as test_web_games does); returns the clicks."""
    clicks = 0
    while moves := my_moves(page, timeout=180000):
        if game == "flip7" and "hit" in moves and "stay" in moves:
            move = "hit" if rng.random() < 0.6 else "stay"
        else:
            move = rng.choice(moves)
        play(page, move)
        clicks += 1
        assert clicks < 600
    return clicks


def check_end(page: Any, lang: str) -> None:
    """The results on screen without a tap, nothing over them; the status says it is over."""
    page.wait_for_selector("#final")
    page.wait_for_timeout(300)  # the scroll to the results
    vh = page.viewport_size["height"]
    box = page.query_selector("#final .headline").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vh, box
    covered = page.evaluate(
        """() => { const r = document.querySelector('#final .headline').getBoundingClientRect();
        const e = document.elementFromPoint(r.left + 8, r.top + r.height / 2);
        return e && e.closest('#final') ? null : (e ? e.outerHTML.slice(0, 120) : 'nothing'); }"""
    )
    assert covered is None, covered
    assert page.query_selector("#held:not([hidden])") is None
    status = page.text_content("#status") or ""
    assert ("ゲーム終了" if lang == "ja" else "Game over") in status, status
    for sel in ("#rematch", "#to-replay", "#final a[download]", "#to-lobby"):
        assert page.query_selector(sel) is not None, sel
    # the names of the end table never break inside a word: each name's text is on one line
    for th in page.query_selector_all("#final thead th, #final tbody th"):
        lines = th.evaluate(LINES)
        assert lines <= 1, (th.inner_text(), lines)


# A status that belongs to the state before an update: wrong while its moments play.
STALE = ("is thinking", "考えています", "Your turn", "あなたの番です")


def check_status_in_step(ov: dict[str, Any], final_status: str) -> None:
    """The status advances with the board: at each line the log gains while moments play it is
    never the state before's "X is thinking…" / "Your turn"; from the game's end on it is the
    result (the end's line, "Game over: …"), which the settled page keeps."""
    assert len(ov["status"]) >= 5, ov["status"]
    ended = None
    for entry in ov["status"]:
        if "ev-game_" in entry["line"]:
            ended = entry["text"]
        if ended is not None:
            assert ended in entry["status"], entry
        else:
            assert not any(w in entry["status"] for w in STALE), entry
    assert ended is not None, ov["status"][-3:]
    assert ended in final_status, (ended, final_status)


# A player's decision in the Flip 7 log (its line begins with the player's name).
F7_DECISIONS = ("ev-hit", "ev-stay", "ev-give", "ev-swap", "ev-steal", "ev-discard",
                "ev-flip7_bonus", "ev-flip7_penalty")  # fmt: skip


def check_flip7_rounds(ov: dict[str, Any], me: str, lang: str) -> int:
    """Flip 7, at each line the log gains while moments play (issue 27): from a round's start
    on, the board's head shows that round, never the round before; at the start every row (and
    my row in the sticky area) is empty with nothing scored this round, its total the total the
    round's end gave; and the status names the player to act in the new round (whoever makes
    the next decision in the log), not the dealer. Returns the round starts checked."""
    import re

    entries = ov["status"]
    current = None
    totals: list[str] = []
    starts = 0
    for k, entry in enumerate(entries):
        if "ev-round_end" in entry["line"]:
            # "…; totals: Aki 8, Bot 1 13" / "…。合計：ハナコ 8点、ボット1 13点"
            tail = re.split(r"totals: |合計：", entry["text"])[-1].replace("−", "-")
            totals = re.findall(r"(-?\d+)点?(?:、|,|$)", tail)
        if "ev-round_start" in entry["line"]:
            current = re.search(r"\d+", entry["text"]).group(0)  # type: ignore[union-attr]
            starts += 1
            assert re.search(r"\d+", entry["head"]).group(0) == current, entry  # type: ignore[union-attr]
            for i, row in enumerate(entry["rows"]):
                assert row["cards"] == 0 and row["round"] == "0", entry
                if totals and len(entry["rows"]) == len(totals):
                    assert row["total"] == totals[i], (entry, totals)
            # The first choice someone makes after the start: a line right after an
            # ev-forced one ("Bot 1's Steal has only one choice") is what the engine did
            # itself, at nobody's move.
            later, forced = [], False
            for e in entries[k + 1 :]:
                if "ev-forced" in e["line"]:
                    forced = True
                elif any(c in e["line"] for c in F7_DECISIONS):
                    if not forced:
                        later.append(e)
                    forced = False
            if later:
                actor = later[0]["text"]
                if actor.startswith(me):
                    want = "あなたの手" if lang == "ja" else "Your move"
                else:
                    name = re.match(r"(Bot \d+|ボット\d+)", actor)
                    assert name, actor
                    who = name.group(1)
                    want = f"{who}の手番" if lang == "ja" else f"{who}'s turn"
                assert want in entry["status"], (
                    entry["status"], want, actor,
                    [(e["line"], e["text"], e["status"]) for e in entries[k : k + 8]],
                )  # fmt: skip
                assert "ディーラー" not in entry["status"] and "deals" not in entry["status"]
        elif current is not None and entry["head"]:
            assert re.search(r"\d+", entry["head"]).group(0) == current, entry  # type: ignore[union-attr]
    return starts


def check_recorded(page: Any) -> dict[str, Any]:
    ov = dict(page.evaluate("() => window.__ov"))
    check_status_in_step(ov, page.text_content("#status") or "")
    assert ov["moments"] > 0, ov
    assert ov["bad"] == [], "\n".join(map(str, ov["bad"][:8]))
    for entry in ov["logs"]:  # the log's last line at a banner: that banner's event, no later
        for words, cls in BANNER_EVENT.items():
            if words in entry["banner"]:
                assert cls in entry["last"], entry
    return ov


CASES = [
    ("flip7", 2, {"target": "60"}, True, "ja"),  # (40 ended in its first round once)
    ("seven-shot", 3, {"target": "1", "pass_cards": "0"}, False, "en"),
]


@pytest.mark.parametrize(("game", "players", "options", "phone", "lang"), CASES)
def test_moments_beside_what_they_describe(
    browser: Any,
    live_server: str,
    game: str,
    players: int,
    options: dict[str, str],
    phone: bool,
    lang: str,
) -> None:
    page = new_page(browser, phone=phone, lang=lang)
    page.context.add_init_script(OVERLAP)
    enter_lobby(page, live_server, "ハナコ" if lang == "ja" else "Aki")
    create_table(page, game, players, options)
    play_to_end(page, game, random.Random(f"{game}{phone}"))
    check_end(page, lang)
    ov = check_recorded(page)
    if game == "flip7":
        assert ov["held"] > 0  # a round's end was kept on screen, beside the rows
        assert check_flip7_rounds(ov, "ハナコ" if lang == "ja" else "Aki", lang) >= 1
    shot(page, f"moments-{game}-{'phone' if phone else 'desktop'}-{lang}-end")
    assert page.console.errors == []
    check_rematch(page, lang)
    # (the refusal the test answered is logged by the browser as a failed load, nothing else)
    assert all("status of 403" in e for e in page.console.errors), page.console.errors
    page.context.close()


def check_rematch(page: Any, lang: str) -> None:
    """Rematch (POST /api/tables/{id}/rematch, answered here by the test): a refusal shows the
    server's sentence in the page's language; a new table opens at /t/{its id}."""
    import json

    refusal = {"error": "not_your_table", "message": "Only the players of this table can ask.",
               "message_ja": "このテーブルのプレイヤーだけが再戦を頼めます。"}  # fmt: skip
    page.route("**/rematch", lambda r: r.fulfill(status=403, body=json.dumps(refusal)))
    page.click("#rematch")
    error = page.wait_for_selector("#rematch-error")
    assert error.inner_text() == refusal["message_ja" if lang == "ja" else "message"]
    page.unroute("**/rematch")
    new_id = page.url.rsplit("/", 1)[1]  # the same table stands in for the new one
    answer = {"table": {"id": new_id}}
    page.route("**/rematch", lambda r: r.fulfill(status=200, body=json.dumps(answer)))
    page.evaluate("() => { document.querySelector('#final').dataset.old = '1'; }")
    page.click("#rematch")
    page.wait_for_url(f"**/t/{new_id}")
    page.wait_for_selector("#final:not([data-old])")  # the new table's page was drawn


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("phone", [True, False])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("flip7", 3, {"target": "100"}),
        ("seven-shot", 4, {"target": "3"}),
        ("double-seven", 3, {}),
    ],
)
def test_moments_whole_games(
    browser: Any,
    live_server: str,
    game: str,
    players: int,
    options: dict[str, str],
    phone: bool,
    lang: str,
) -> None:
    page = new_page(browser, phone=phone, lang=lang)
    page.context.add_init_script(OVERLAP)
    enter_lobby(page, live_server, "ハナコ" if lang == "ja" else "Aki")
    create_table(page, game, players, options)
    play_to_end(page, game, random.Random(f"{game}{phone}{lang}"))
    check_end(page, lang)
    ov = check_recorded(page)
    if game == "flip7":
        check_flip7_rounds(ov, "ハナコ" if lang == "ja" else "Aki", lang)
    assert page.console.errors == []
    page.context.close()
