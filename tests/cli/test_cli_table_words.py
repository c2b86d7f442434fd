"""The terminal's words, round two (issue 27): the ``rules`` command of ``septet play`` is
rendered as ``septet rules`` renders it (no Markdown marks, no list marker alone on a line),
sentences addressed to "you" agree in person all through, Seven Shot says whom you pass to
before the pass and warns one trick before the tricks that lose the deal (the engine's number),
and the Flip 7 summary says that Flip 4! / Flip Three stop on a bust or a Flip 7."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from septet import games
from septet.cli import app
from septet.core import CHANCE
from septet.core.text import relabel

runner = CliRunner()
GAMES = ["double-seven", "flip7", "seven-shot"]
PROMPT = {"en": "Your move", "ja": "手を入力"}
# A line that is only a list marker ("-", "•", or "1." at the start of a line), or a Markdown
# mark left in the text.
LONE_MARKER = re.compile(r"^(\s*[-*•]|\d+[.)])\s*$")
MARKDOWN = re.compile(r"\*\*|^\s*#{1,3} |^\s*- ", re.M)


def _rules_in_play(game: str, lang: str, records: Path) -> str:
    """What the ``rules`` command prints at the first prompt of ``septet play``."""
    args = ["play", game, "-l", lang, "-p", "you,random,random", "--seed", "4"]
    result = runner.invoke(app, [*args, "--record", str(records)], input="rules\nquit\n")
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    start = out.index("> ", out.index(PROMPT[lang])) + 2
    start = out.index("\n", start) + 1  # (the typed command, echoed)
    end = out.index(PROMPT[lang], start)
    return out[start:end]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", GAMES)
def test_rules_command_in_play_is_rendered_like_septet_rules(
    game: str, lang: str, tmp_path: Path
) -> None:
    shown = _rules_in_play(game, lang, tmp_path)
    assert not MARKDOWN.search(shown), MARKDOWN.search(shown)
    lone = [ln for ln in shown.splitlines() if LONE_MARKER.match(ln)]
    assert not lone, lone
    # The same rendering as `septet rules` (one function for both): its rules lines, in order.
    alone = runner.invoke(app, ["rules", game, "--lang", lang]).output
    words = [
        ln.rstrip()
        for ln in alone.split("Options" if lang == "en" else "オプション\n")[0].splitlines()
    ]
    words = [ln for ln in words if ln.strip()]
    assert len(words) > 15
    assert [ln.rstrip() for ln in shown.splitlines() if ln.strip()] == words


def _verbs_and_you_lines(game: str, seeds: range, n: int = 3) -> tuple[set[str], list[str]]:
    """Random games of ``game``: the third-person verbs the engine writes after a seat (``"P1
    draws"``), and every event line addressed to its own seat as "you" (``relabel``)."""
    g = games.get(game)
    names = [f"Bot {i}" for i in range(n)]
    verbs: set[str] = set()
    lines: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        st = g.new_state(n)
        steps = 0
        while not st.is_terminal and steps < 3000:
            steps += 1
            if st.current_player == CHANCE:
                acts, ps = zip(*st.chance_outcomes(), strict=True)
                events = st.apply(rng.choices(acts, ps)[0])
            else:
                events = st.apply(rng.choice(st.legal_actions()))
            for ev in events:
                text = g.describe_event(ev, "en")
                verbs.update(re.findall(r"\bP\d ([a-z]+s)\b", text))
                if ev.seat is not None and ev.seat >= 0:
                    lines.append(relabel(text, names, you=ev.seat))
    return verbs, lines


@pytest.mark.parametrize("game", GAMES)
def test_you_sentences_agree_in_person_all_through(game: str) -> None:
    # "You put a swan and a deer face up and draws another tile": a second verb of the "you"
    # clause left in the third person. No line addressed to you has "and/then <verb>s".
    verbs, lines = _verbs_and_you_lines(game, range(6))
    assert len(verbs) >= 5 and len(lines) > 100, (verbs, len(lines))
    pattern = re.compile(
        r"\b[Yy]ou [a-z]+\b[^.;:!?]*?(?:,| and| then) (" + "|".join(verbs) + r")\b"
    )
    wrong = [ln for ln in lines if pattern.search(ln)]
    assert not wrong, wrong[:5]


def test_two_for_one_and_rainbow_in_both_languages() -> None:
    from septet.core.types import Event

    g = games.get("double-seven")
    names = ["You", "Bot 1", "Bot 2"]
    two = Event("two_for_one", 0, {"tiles": ["swan", "deer"]})
    assert relabel(g.describe_event(two, "en"), names, you=0) == (
        "You put a swan and a deer face up to draw another tile (two for one)"
    )
    assert relabel(g.describe_event(two, "ja"), ["あなた", "ボット1", "ボット2"], lang="ja") == (
        "あなたが2対1のトレードで白鳥と鹿を表向きに出し、別のタイルを1枚引く"
    )


def _seven_shot_play(side_tricks: list[int], seat: int = 0) -> dict[str, Any]:
    """A 3-player Seven Shot view in play with the given tricks per side (only what the
    warning reads)."""
    return {"phase": "play", "num_players": 3, "seat": seat, "side_tricks": side_tricks}


def test_seven_shot_warns_one_trick_before_the_losing_tricks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from septet.games.seven_shot import render, scoring

    # SS-4.2 / SS-5.5: 7 tricks lose the deal; at 6 the side is warned, the viewer in the
    # second person.
    lines = render._warning_lines(_seven_shot_play([6, 2, 6]), "en")
    assert lines == [
        "Careful: you have taken 6 tricks. One more loses the deal: the two others win it and "
        "score 2 points each",
        "Careful: P2 has taken 6 tricks. One more loses the deal: the two others win it and "
        "score 2 points each",
    ]
    ja = render._warning_lines(_seven_shot_play([6, 2, 1]), "ja")
    assert ja == [
        "注意：あなたはトリックを6回取った。あと1回取るとディールに負け、他の2人が2点ずつ得る"
    ]
    assert render._warning_lines(_seven_shot_play([5, 2, 7]), "en") == []
    # The number is the engine's rule, not a restated 6: another threshold moves the warning.
    monkeypatch.setattr(scoring, "TRICKS_TO_LOSE", 5)
    assert render._warning_lines(_seven_shot_play([6, 4, 1]), "en") == [
        "Careful: P1 has taken 4 tricks. One more loses the deal: the two others win it and "
        "score 2 points each"
    ]


@pytest.mark.parametrize(("lang", "words"), [("en", "Pass 3 cards to Bot 1, on your left"),
                                              ("ja", "左隣のボット1に3枚渡す")])  # fmt: skip
def test_seven_shot_says_whom_you_pass_to_before_the_pass(
    lang: str, words: str, tmp_path: Path
) -> None:
    # SS-2.3 / SS-5.2: three players pass to the left; said in the table before any pick.
    args = ["play", "seven-shot", "-l", lang, "-p", "you,random,random", "--seed", "3"]
    out = runner.invoke(app, [*args, "--record", str(tmp_path)], input="quit\n").output
    table = out[: out.index(PROMPT[lang])]
    assert words in table, table[-1500:]


@pytest.mark.parametrize(
    ("edition", "lang", "words"),
    [
        (
            "vengeance",
            "en",
            "the target flips 4 cards, one by one, stopping early on a bust or a Flip 7",
        ),
        ("vengeance", "ja", "対象は4枚を1枚ずつめくる。バーストかフリップ7になったらそこで止める"),
        (
            "classic",
            "en",
            "the target flips 3 cards, one by one, stopping early on a bust or a Flip 7",
        ),
        ("classic", "ja", "対象は3枚を1枚ずつめくる。バーストかフリップ7になったらそこで止める"),
    ],
)
def test_flip7_summary_says_flips_stop_on_a_bust_or_a_flip7(
    edition: str, lang: str, words: str
) -> None:
    # F7V-4.8 (and Flip Three, like Flip 4 with 3 cards): the forced flips stop as soon as
    # the target busts or reaches 7 numbers.
    text = games.get("flip7", edition=edition).rules_text(lang)
    flat = re.sub(r"\s*\n\s*", " " if lang == "en" else "", text.replace("**", ""))
    assert words in flat, flat
