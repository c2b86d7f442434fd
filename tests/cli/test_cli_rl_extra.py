"""`septet rl-check` without the rl extra: an install hint, exit 2 (no pyspiel needed)."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from typer.testing import CliRunner

from septet.cli import app


@pytest.mark.parametrize("module", ["pyspiel", "pettingzoo.test"])
def test_rl_check_without_the_rl_extra_says_how_to_install_it(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import` now fails as if not installed

    # The command names the first module of the extra that does not import, in its import
    # order: without the extra at all (the README's install), that is pyspiel whatever we block.
    def importable(name: str) -> bool:
        try:
            if sys.modules.get(name, 0) is None:  # blocked above
                return False
            return importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # a submodule of a missing package
            return False

    first_missing = next(m for m in ("pyspiel", "pettingzoo.test") if not importable(m))
    result = CliRunner().invoke(app, ["rl-check", "flip7"])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"error: rl-check needs the 'rl' extra (missing module {first_missing})" in text
    assert "pip install 'septet[rl]'" in text
