"""The 20-line training example of docs/rl.md runs (with 3 games instead of 300)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra: pip install 'septet[rl]'")
pytest.importorskip("torch", reason="needs the train extra: pip install 'septet[train]'")

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _example() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Train a policy in 20 lines", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "no code block under 'Train a policy in 20 lines'"
    return match.group(1)


def test_rl_doc_training_example_runs() -> None:
    code = _example()
    assert len(code.strip().splitlines()) <= 24  # a 20-line example, blank lines aside
    assert "range(300)" in code
    scope: dict[str, object] = {}
    exec(compile(code.replace("range(300)", "range(3)"), str(DOC), "exec"), scope)
    env = scope["env"]
    assert scope["game"] == 2  # three games were played and trained on
    assert env.unwrapped.game_state.history  # the last reset dealt a new game
