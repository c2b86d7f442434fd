"""The root of the ``septet`` command: --version and the games listing."""

from __future__ import annotations

from typer.testing import CliRunner

import septet
from septet.cli import app


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"septet {septet.__version__}"


def test_games_lists_every_game_with_player_counts_and_options():
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    row = {
        name: next(line for line in lines if f" {name} " in line)
        for name in ("double-seven", "flip7", "seven-shot")
    }
    assert "2-4" in row["double-seven"] and "rainbow = True" in row["double-seven"]
    assert "2-36" in row["flip7"] and "edition = 'vengeance'" in row["flip7"]
    assert "3-4" in row["seven-shot"] and "target = 7" in row["seven-shot"]
    for option in (
        "two_for_one = True",
        "double_seven = 'second_token'",
        "brutal = False",
        "target = 200",
        "pass_cards = 3",
    ):
        assert option in result.output
    assert "ダブルセブン" in result.output and "セブンショット" in result.output


def test_games_at_80_columns_shows_every_value_whole():
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "…" not in result.output and max(len(line.rstrip()) for line in lines) <= 80
    assert "double-seven  Double Seven / ダブルセブン  (2-4 players)" in lines
    assert "seven-shot  Seven Shot / セブンショット  (3-4 players)" in lines
    words = " ".join(result.output.split())
    for option in (
        "rainbow = True Rainbow! after the draws (DS-4.3)",
        "double_seven = 'second_token' who takes the 77 token: 'second_token'",
        "edition = 'vengeance' vengeance (default) or classic Flip 7",
        "pass_cards = 3 cards passed at the start of each deal (SS-2.3)",
    ):
        assert option in words
