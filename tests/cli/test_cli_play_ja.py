"""`septet play --lang ja` explains illegal input in Japanese, with the rule id."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from septet.cli import app

runner = CliRunner()


def _squashed(lang: str, tmp_path: Path) -> str:
    """The output of a Double Seven game (seat 0 first, in its draw phase) where the person
    types an illegal discard and a malformed family, with all whitespace removed (the console
    wraps long lines)."""
    result = runner.invoke(
        app,
        [
            "play",
            "double-seven",
            "-p",
            "you,random",
            "--seed",
            "3",
            "--lang",
            lang,
            "--record",
            str(tmp_path / "g.json"),
        ],
        input="discard fox\nstart clover2\nquit\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    return "".join(result.output.split())


@pytest.mark.parametrize(
    ("lang", "illegal", "notation"),
    [
        (
            "ja",
            # DS-6.2 and DS-5.7, in Japanese.
            "今は選べません:捨てるのは、ターン終了時にラックが6枚以上あるときだけです[DS-6.2]",
            "'startclover2'はここでは手になりません:'clover2':"
            "家族は動物の名前で書きます（クローバーではなく）[DS-5.7]",
        ),
        (
            "en",
            "Notallowednow:youdiscardonlyattheendofyourturnwith6ormoretiles[DS-6.2]",
            "'startclover2'isnotamovehere:'clover2':afamilyisnamedbyitsanimal,notclover[DS-5.7]",
        ),
    ],
)
def test_cli_play_illegal_input_in_the_players_language(
    lang: str, illegal: str, notation: str, tmp_path: Path
) -> None:
    out = _squashed(lang, tmp_path)
    assert illegal in out
    assert notation in out
