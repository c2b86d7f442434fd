"""Screenshots of one page at the phone and desktop sizes in both languages (issue 28): four
files ``artifacts/<name>-<lang>-<width>.png``, the page's language and size put back after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import DESKTOP, PHONE, shot
from tests.web.driver import check_no_overflow


def four_shots(page: Any, name: str, ready: str | None = None) -> list[Path]:
    """Shoot ``page`` at 390x844 and 1280x900 in English and Japanese (``ready``: a selector
    to wait for after each language switch; a toast left over is hidden first); checks nothing
    is wider than the screen."""
    was_lang = page.evaluate("() => document.documentElement.lang") or "en"
    was_size = dict(page.viewport_size)
    paths = []
    for lang in ("en", "ja"):
        page.click(f"#lang-{lang}")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        for size in (PHONE, DESKTOP):
            page.set_viewport_size(size)
            if ready:
                page.wait_for_selector(ready)
            page.evaluate(
                "() => { const t = document.querySelector('#toast'); if (t) t.hidden = true; }"
            )
            page.wait_for_timeout(150)
            check_no_overflow(page)
            paths.append(shot(page, f"{name}-{lang}-{size['width']}"))
    page.click(f"#lang-{'ja' if was_lang == 'ja' else 'en'}")
    page.set_viewport_size(was_size)
    return paths
