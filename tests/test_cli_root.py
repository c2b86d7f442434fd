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
        "double_seven = 'two_families'",
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
        "rainbow = True Rainbow!: after the draws, a rack of 5+ tiles",
        "double_seven = 'two_families' who takes the 77 token: the first with two families",
        "edition = 'vengeance' vengeance (default) or classic Flip 7",
        "pass_cards = 3 cards each player passes at the start of a deal",
    ):
        assert option in words
    # Players read this listing: no rule ids.
    assert "DS-" not in words and "SS-" not in words and "F7V-" not in words


def test_games_in_japanese_names_options_and_defaults_in_japanese():
    # The Japanese listing: each option's Japanese name with the name to type, the default in
    # words with the value to type, the Japanese meaning; English only where it is typed.
    for columns in ("160", "80"):
        result = CliRunner().invoke(app, ["games", "--lang", "ja"], env={"COLUMNS": columns})
        assert result.exit_code == 0, result.output
        words = " ".join(result.output.split())
        for text in (
            "レインボー（rainbow）：オン（true）",
            "「77」トークン（double_seven）：7枚以上の家族2つ（two_families）",
            "版（edition）：復讐心とともに（vengeance）",
            "目標点（target）：200",
            "渡す枚数（pass_cards）：3",
            "オプションは -o 名前=値 で変えられます",
        ):
            assert text in words, (columns, text, result.output)
        assert "…" not in result.output
        assert "Rainbow" not in words and "meaning" not in words and "players" not in words
    narrow = CliRunner().invoke(app, ["games", "--lang", "ja"], env={"COLUMNS": "80"}).output
    assert "      各ディールの最初に渡すカードの枚数（0〜5）" in [
        x.rstrip() for x in narrow.splitlines()
    ]


def test_an_error_is_printed_as_typed_not_as_markup(monkeypatch, capsys):
    # "[fast]" in "pip install 'septet[fast]'" is text, not Rich markup
    import sys

    import septet.fast
    from septet.cli import main

    monkeypatch.setattr(septet.fast, "AVAILABLE", False)  # as without numba
    monkeypatch.setattr(sys, "argv", ["septet", "kernels", "status"])
    try:
        main()
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("without numba, septet kernels exits with status 2")
    err = capsys.readouterr().err
    assert "septet.fast needs numba: pip install 'septet[fast]'" in err, err
