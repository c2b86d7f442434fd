"""``septet advise flip7``: reads a position, prints bust risk, both values and the advice."""

from __future__ import annotations

from typer.testing import CliRunner

from septet.bots.cli import build_position
from septet.cli import app


def test_advise_prints_values_and_advice() -> None:
    # 12 + 9 + 5 + 4 = 30 banked; hitting on (28% bust) is worth less, so the advice is stay
    result = CliRunner().invoke(
        app,
        [
            *("advise", "flip7", "--edition", "classic", "--row", "12 9 5 +4"),
            *("-o", "11 8", "--seen", "+2 +6 +8 +10 x2"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "bust probability" in result.output and "STAY" in result.output
    assert "30.00" in result.output


def test_advise_japanese_and_zero() -> None:
    result = CliRunner().invoke(app, ["advise", "flip7", "--row", "zero 5", "--lang", "ja"])
    assert result.exit_code == 0, result.output
    assert "ヒット" in result.output and "ステイできません" in result.output


def test_advise_bad_cards_are_sentences() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["advise", "flip7", "--row", "12 foo"])
    assert result.exit_code == 2 and "'foo' is not a card" in result.output
    result = runner.invoke(app, ["advise", "flip7", "--edition", "classic", "--row", "1 1"])
    assert result.exit_code == 2 and "one '1' too many" in result.output


def test_build_position_counts_cards_out() -> None:
    mine, pool = build_position("classic", "12 9", "3 3", ["11", "10 x2"])
    assert mine == ["12", "9"]
    assert sum(pool) == 94 - 7
