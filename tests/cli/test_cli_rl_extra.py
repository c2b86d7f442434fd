"""`septet rl-check` without the rl extra: an install hint, exit 2 (no pyspiel needed)."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from septet.cli import app


@pytest.mark.parametrize("module", ["pyspiel", "pettingzoo.test"])
def test_rl_check_without_the_rl_extra_says_how_to_install_it(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import` now fails as if not installed
    result = CliRunner().invoke(app, ["rl-check", "flip7"])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"error: rl-check needs the 'rl' extra (missing module {module})" in text
    assert "pip install 'septet[rl]'" in text
