"""Every engine text in player words, in both languages (issue 15, items 2 and 3).

Random games of each game are played through, and at every step the texts a player reads are
produced: ``render`` of the table for the seat to move and for a spectator, ``describe_action``
of every legal action, ``describe_event`` of every event (private ones included), and
``rules_text``. Seat references ``P{n}`` are replaced by names first, as every consumer does
(``septet.core.text.relabel``). Then:

- Japanese: no Latin-letter word outside a short allowlist: ``A``, the Seven Shot A, which the
  Japanese rulebook writes 「A」 (``shared/rules/source/003``). Everything else, card names
  included, is Japanese.
- English: no rule id (``SS-4.1``) and no notation (``F7``, ``fox3+1``, ``l13``, ``target 2``).
- Both: no raw event dump (``kind {...}``), the fallback for an event without a sentence.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from septet.core.game import Game, State
from septet.core.text import relabel
from septet.core.types import CHANCE
from septet.games import get

NAMES_JA = ["あかり", "けんた", "さくら", "だいち", "えみ"]
NAMES_EN = ["Ann", "Ben", "Cleo", "Dev", "Eve"]
LATIN = re.compile(r"[A-Za-z]+")
JA_ALLOWED = {"A"}
RULE_ID = re.compile(r"\b(?:DS|F7V|SS)-\d")
NOTATION = re.compile(r"\b[A-Za-z]+\d+\b|\b\d+\+\d+\b|\b(?:target|penalty|dealer|first) \d")

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("double-seven", {}, 2),
    ("double-seven", {"double_seven": "two_families"}, 4),
    ("flip7", {}, 3),
    ("flip7", {"edition": "classic"}, 4),
    ("flip7", {"brutal": True}, 5),
    ("seven-shot", {}, 3),
    ("seven-shot", {}, 4),
]


def _texts(game: Game[Any], state: State, lang: str, rng: random.Random) -> Iterator[str]:
    """Play one random game and yield every text a player could read in ``lang``."""
    yield game.rules_text(lang)
    yield game.render(state.view(None), lang)
    while not state.is_terminal:
        seat = state.current_player
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            yield game.render(state.view(seat), lang)
            legal = state.legal_actions()
            for a in legal:
                yield game.describe_action(a, lang)
            action = legal[rng.randrange(len(legal))]
        events = state.apply(action)
        for e in events:
            yield game.describe_event(e, lang)
        if any(e.kind in _KEY_MOMENTS for e in events):
            yield game.render(state.view(None), lang)
    yield game.render(state.view(None), lang)
    for s in range(state.num_players):
        yield game.render(state.view(s), lang)


_KEY_MOMENTS = {
    "trick_won",
    "deal_end",
    "round_end",
    "bust",
    "flip7",
    "seven",
    "double_seven",
    "rainbow",
    "exchange",
    "end_triggered",
}


def _scan(name: str, options: dict[str, Any], players: int, games: int, seed: int) -> None:
    game = get(name, **options)
    for lang, names in (("ja", NAMES_JA), ("en", NAMES_EN)):
        check = _check_ja if lang == "ja" else _check_en
        for g in range(games):
            rng = random.Random(seed * 1000 + g)
            for text in _texts(game, game.new_state(players), lang, rng):
                shown = relabel(text, names[:players], lang=lang)
                check(shown)


def _check_ja(text: str) -> None:
    latin = {w for w in LATIN.findall(text) if w not in JA_ALLOWED}
    assert not latin, f"Latin words {sorted(latin)} in Japanese text:\n{text}"
    assert not re.search(r"^[a-z_0-9]+ \{", text, re.M), text


def _check_en(text: str) -> None:
    assert not RULE_ID.search(text), f"a rule id in a player text:\n{text}"
    notation = [m for m in NOTATION.findall(text)]
    assert not notation, f"notation {notation} in a player text:\n{text}"
    assert not re.search(r"^[a-z_0-9]+ \{", text, re.M), text


@pytest.mark.parametrize(("name", "options", "players"), CONFIGS)
def test_texts_are_player_words_in_both_languages(
    name: str, options: dict[str, Any], players: int
) -> None:
    _scan(name, options, players, games=1, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options", "players"), CONFIGS)
def test_texts_are_player_words_over_many_games(
    name: str, options: dict[str, Any], players: int
) -> None:
    _scan(name, options, players, games=30, seed=2)


def test_the_scan_catches_english_and_notation() -> None:
    # The checks themselves: a leftover English word, a rule id, notation.
    bad: list[tuple[Callable[[str], None], str]] = [
        (_check_ja, "P0がgreedyでヒット"),
        (_check_ja, "7s: 3"),
        (_check_en, "deal over (SS-4.1)"),
        (_check_en, "play ▲F7"),
        (_check_en, "start fox3+1"),
        (_check_en, "steal 1:l13"),
    ]
    for check, text in bad:
        with pytest.raises(AssertionError):
            check(text)
    _check_ja("あかりがAでトリックを取った")
    _check_en("Ann plays the 8 of Earth")
