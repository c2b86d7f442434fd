"""The README's Python examples run as doctests (STYLE.md: python-chess does the same)."""

from __future__ import annotations

import doctest
from pathlib import Path


def test_readme_examples_run():
    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, verbose=False)
    assert result.attempted >= 5
    assert result.failed == 0


def test_readme_links_point_to_files_in_the_repository():
    import re

    root = Path(__file__).resolve().parents[1]
    text = (root / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#:]+)\)", text)
    assert "docs/rulings.md" in links
    missing = [link for link in links if not (root / link).exists()]
    assert missing == []
