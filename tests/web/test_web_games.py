"""Whole games in the browser, as a player plays them (slow: run with ``pytest -m slow``).

Each game is played to its end against bots at desktop (1280x900) and phone (390x844) sizes,
in English and Japanese, by clicking what the page offers. At every turn: no rule id or
notation on screen, Japanese only in ja mode, on a phone my hand and moves in view without
scrolling (44 px targets) and nothing wider than the screen. The moments recorded as they
happened are checked: every finished trick kept with all its cards and its winner, every
Flip 7 round summed up row by row, the headline events (Bust!, Seven!...) shown. Screenshots
of the key moments go to artifacts/.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.conftest import new_page, shot
from tests.web.driver import (
    check_moves_in_view,
    check_no_overflow,
    check_player_words,
    create_table,
    enter_lobby,
    my_moves,
    play,
    recorded,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def choose(game: str, moves: list[str], rng: random.Random) -> str:
    """A plausible player: Flip 7 hits early, Double Seven builds families and passes soon."""
    if game == "flip7" and "hit" in moves and "stay" in moves:
        return "hit" if rng.random() < 0.6 else "stay"
    if game == "double-seven":
        build = [m for m in moves if m.split(" ")[0] in ("start", "expand")]
        if build and rng.random() < 0.8:
            return rng.choice(build)
        if "pass" in moves and rng.random() < 0.8:
            return "pass"
    return rng.choice(moves)


CASES = [
    ("flip7", 3, False, "en"),
    ("flip7", 4, True, "ja"),
    ("seven-shot", 4, False, "ja"),
    ("seven-shot", 3, True, "en"),
    ("double-seven", 2, False, "en"),
    ("double-seven", 3, True, "ja"),
]


@pytest.mark.parametrize(("game", "players", "phone", "lang"), CASES)
def test_web_whole_game(
    browser: Any, live_server: str, game: str, players: int, phone: bool, lang: str
) -> None:
    page = new_page(browser, phone=phone, lang=lang)
    size = "phone" if phone else "desktop"
    tag = f"web-{game}-{players}p-{size}-{lang}"
    enter_lobby(page, live_server, "アキ" if lang == "ja" else "Aki")
    create_table(page, game, players, {"target": "120"} if game == "flip7" else None)
    rng = random.Random(f"{game}{players}{size}")
    clicks = 0
    shots = 0
    while moves := my_moves(page, timeout=180000):
        if clicks % 5 == 0:
            check_player_words(page, lang, f"{tag} move {clicks}")
        if phone:
            check_moves_in_view(page)
        else:
            check_no_overflow(page)
        held = page.query_selector("#held .summary")
        if held is not None and shots < 3:  # a round's or a deal's end, kept until I decide
            shot(page, f"{tag}-summary-{shots}")
            shots += 1
        if clicks in (2, 40):
            shot(page, f"{tag}-play-{clicks}")
        play(page, choose(game, moves, rng))
        clicks += 1
        assert clicks < 1500
    check_player_words(page, lang, f"{tag} end")
    check_no_overflow(page)
    rec = recorded(page)
    log = page.inner_html("#log")
    final = page.text_content("#final") or ""
    assert ("の勝ち！" if lang == "ja" else "win") in final, final
    if game == "seven-shot":
        # SS-3.3: every finished trick stayed on the table with all its cards and one winner
        assert rec["tricks"] and all(
            t["cards"] == players and t["winners"] == 1 for t in rec["tricks"]
        ), rec["tricks"]
        deals = [h for h in rec["held"] if h["id"] == "deal-summary"]
        assert deals and all(("得点" if lang == "ja" else "Points") in h["text"] for h in deals), (
            deals
        )
        assert page.query_selector_all("#final table.sides tbody tr").__len__() == (
            2 if players == 4 else 3
        )
    if game == "flip7":
        rounds = [h for h in rec["held"] if h["id"] == "round-summary"]
        assert rounds and all(h["rows"] == players for h in rounds), rounds
        if "ev-bust" in log:  # a bust is seen as a bust
            assert any(("バースト" if lang == "ja" else "Bust") in b for b in rec["banners"]), rec[
                "banners"
            ]
        if "ev-flip7" in log:
            assert any(("フリップ7" if lang == "ja" else "Flip 7") in b for b in rec["banners"]), (
                rec["banners"]
            )
        table = page.query_selector("#final table.rounds")
        if table is not None:  # the round-by-round end table (the engine's rounds)
            assert len(table.query_selector_all("tbody tr")) == len(rounds)
    if game == "double-seven":
        if "ev-seven" in log:  # Seven! is its own moment (DS-5.3)
            assert any(("セブン" if lang == "ja" else "Seven!") in b for b in rec["banners"]), rec[
                "banners"
            ]
        if "ev-clear" in log:
            assert any(("空っぽ" if lang == "ja" else "Clear!") in b for b in rec["banners"]), rec[
                "banners"
            ]
        assert page.query_selector("#final table.breakdown") is not None
    assert rec["ghosts"] > 0  # pieces moved from where they came from to where they went
    shot(page, f"{tag}-final")
    assert page.console.errors == []
    page.context.close()
