"""docs/rl-layouts.md is generated from the engines' declarations and must be current."""

from __future__ import annotations

from pathlib import Path

from septet.envs.layouts import page

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl-layouts.md"


def test_layout_page_is_generated_from_the_declarations() -> None:
    assert DOC.read_text(encoding="utf-8") == page(), (
        "docs/rl-layouts.md is stale: run python -m septet.envs.layouts > docs/rl-layouts.md"
    )


def test_layout_page_shows_the_pieces_and_kinds() -> None:
    text = page()
    # Seven Shot's old hand-written offsets (196, 203 + 105 n) are the pieces' offsets.
    assert "| 196 | `taken` | 3×49 |" in text
    assert f"| {203 + 105 * 3} | `tricks_won` | 3 |" in text
    assert "| 15907 | 9984 | `exchange` |" not in text  # exchange ids depend on the seats
    assert "| 15907 | 19968 | `exchange` |" in text  # 9,984 equal-size pairs x 2 seats
