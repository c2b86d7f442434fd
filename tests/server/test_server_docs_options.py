"""docs/server.md keeps the whole options tables of ``septet serve`` and ``septet bots``: every
option of either command appears in its table there (the CLI's own ``--help`` is the source)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from septet.cli import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def _options(command: str) -> set[str]:
    root = typer.main.get_command(app)
    cmd = root.commands[command]  # type: ignore[attr-defined]
    names = {n for p in cmd.params for n in (*p.opts, *p.secondary_opts) if n.startswith("--")}
    return names - {"--help"}


def _table(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n#", start + 1)  # the next heading
    return text[start : end if end > 0 else len(text)]


@pytest.mark.parametrize(
    ("command", "title"),
    [("serve", "### Options of `septet serve`"), ("bots", "### Options of `septet bots`")],
)
def test_docs_server_md_lists_every_option(command: str, title: str) -> None:
    table = _table(title)
    listed = set(re.findall(r"`(--[a-z0-9-]+)", table))
    options = _options(command)
    assert len(options) > 5
    assert options - listed == set(), f"options of septet {command} missing from {title}"
    assert listed - options == set(), f"{title} lists options septet {command} does not have"
