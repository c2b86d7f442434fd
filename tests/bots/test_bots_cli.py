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


def test_advise_refuses_rows_that_are_already_over_and_unknown_languages():
    cases = {
        "12 12": "2 cards of value 12 is already a bust (F7V-2)",
        "13 13 13": "3 cards of value 13 is already a bust (F7V-2, F7V-6.3)",
        "1 2 3 4 5 6 7": "seven number cards is already a Flip 7 (F7V-7)",
    }
    for row, message in cases.items():
        result = CliRunner().invoke(app, ["advise", "flip7", "--row", row])
        assert result.exit_code == 2 and message in result.output, result.output
    # F7V-6.3: the Lucky 13 and one other 13 are a legal row.
    ok = CliRunner().invoke(app, ["advise", "flip7", "--row", "13 l13"])
    assert ok.exit_code == 0 and "26.00" in ok.output
    bad = CliRunner().invoke(app, ["advise", "flip7", "--lang", "fr"])
    assert bad.exit_code == 2 and "--lang must be one of en, ja" in bad.output


def test_advise_alone_early_in_a_round_answers_within_its_budget():
    # Alone with one card, the exact programme is far too big: the advisor falls back to the
    # one-step lower bound, which already shows that hitting beats staying on 5.
    result = CliRunner().invoke(
        app, ["advise", "flip7", "--row", "5", "--alone"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "HIT" in result.output and "lower bound" in result.output
