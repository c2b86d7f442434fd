"""docs/rulings.md and docs/rulings/*.md record each ruling of issue 25 with the Japanese
source's words, the option that keeps the other reading, and the engine's default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from septet.games import get

DOCS = Path(__file__).resolve().parents[1] / "docs"

# (rule id, game, option, the words of the Japanese source quoted, per-game doc)
RULINGS = [
    (
        "DS-5.3",
        "double-seven",
        "double_seven",
        ["あなたが7タイル以上の2つ目の家族を最初に手に入れた場合は、「7 7」トークン1枚も取り"],
        "double-seven.md",
    ),
    (
        "F7V-1.5",
        "flip7",
        "decks",
        ["18人以上でプレイする場合は、2つ目のデッキを使うことをおすすめします"],
        "flip7.md",
    ),
    (
        "DS-6.1",
        "double-seven",
        "empty_rack_clears",
        ["あなたのスタンドが空です。他のプレイヤーに「空っぽ!」とアナウンスします。"],
        "double-seven.md",
    ),
]


def _flat(text: str) -> str:
    """The text with line breaks and indentation removed (a quote may wrap)."""
    return re.sub(r"\s*\n\s*", "", text)


def _entry(text: str, rule: str) -> str:
    """The bullet of ``text`` that starts with the bold rule id ``rule``."""
    for item in re.split(r"\n(?=- )", text):
        if item.startswith(f"- **{rule}"):
            return item
    raise AssertionError(f"no entry for {rule} in docs/rulings.md")


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize(("rule", "game", "option", "quotes", "page"), RULINGS)
def test_each_ruling_quotes_the_source_and_names_the_default(
    rule: str, game: str, option: str, quotes: list[str], page: str
) -> None:
    # DS-5.3, F7V-1.5, DS-6.1 (issue 25): an entry per ruling, quoting the source.
    entry = _entry((DOCS / "rulings.md").read_text(encoding="utf-8"), rule)
    default = _word(getattr(get(game).options, option))
    assert f"option `{option}`" in entry
    assert f"default `{default}`" in entry or f"`{default}` (default" in entry
    assert "**Septet:**" in entry and "**Why:**" in entry
    per_game = _flat((DOCS / "rulings" / page).read_text(encoding="utf-8"))
    for quote in quotes:
        assert quote in _flat(entry), (rule, quote)
        assert quote in per_game, (page, quote)


def test_no_stale_reading_is_left() -> None:
    # F7V-1.5: two decks from 18 (not 19); DS-5.3: `second_token` is no longer the default.
    text = _flat((DOCS / "rulings.md").read_text(encoding="utf-8"))
    text += _flat((DOCS / "rulings" / "double-seven.md").read_text(encoding="utf-8"))
    text += _flat((DOCS / "rulings" / "flip7.md").read_text(encoding="utf-8"))
    assert "19 or more play with two decks" not in text
    assert "up to 18 players, two decks" not in text
    assert "option `second_token`** (default)" not in text
    assert "does not end the turn: the player may still" not in text
