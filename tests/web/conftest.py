"""Fixtures of the browser tests: a real ``septet serve`` process and Debian's chromium driven
by Playwright. Screenshots go to ``artifacts/`` (git-ignored) for people to look at."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = os.environ.get("SEPTET_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("SEPTET_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@contextmanager
def serve_process(db: Path, *args: str) -> Iterator[str]:
    """A ``septet serve`` child process on the SQLite file ``db`` with the extra ``args``, run
    from the tree under test; yields its base URL once ``/api/health`` answers (AssertionError
    after 60 s) and stops it (SIGTERM, then SIGKILL after 10 s) at the block's end."""
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    code = "import tests.server.server_tiny; from septet.cli import main; main()"
    cmd = [sys.executable, "-c", code, "serve", "--port", str(port), "--db", f"sqlite:///{db}"]
    cmd += [*args, "--log-level", "warning"]
    # The tree under test first (a worktree or a clone run with the venv of another checkout).
    path = [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < end, "server did not start"
            time.sleep(0.1)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a ``septet serve`` child process on a fresh SQLite file (bots quick)."""
    db = tmp_path_factory.mktemp("web") / "septet.sqlite3"
    with serve_process(db, "--bot-delay", "0.05", "--replace-after", "1") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium under Playwright (skipped, or failed under SEPTET_REQUIRE_BROWSER=1,
    when chromium or Playwright is missing)."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _skip_or_fail(f"chromium not found at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_or_fail("playwright is not installed (pip install -e .[dev])")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Console:
    """Console errors and page errors collected from a page."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# The table's moments at the quickest pace (settings.js), so tests spend little time watching.
FAST = """if (!localStorage.getItem('septet.settings'))
  localStorage.setItem('septet.settings', JSON.stringify({speed: 'fast'}));"""
# What the page showed for a moment, recorded as it happened: banners, flying pieces, finished
# tricks kept on the table, and the round/deal summaries (see tests/web/driver.py).
RECORDER = """
window.__rec = {banners: [], ghosts: 0, tricks: [], held: [], notices: [], lastTrick: null,
  lastHeld: null};
new MutationObserver((muts) => {
  const r = window.__rec;
  for (const m of muts) for (const n of m.addedNodes) {
    if (!(n instanceof Element)) continue;
    if (n.classList.contains('moment')) r.banners.push(n.innerText);
    if (n.classList.contains('ghost')) r.ghosts += 1;
  }
  const t = document.querySelector('#trick.done');
  if (t && t.dataset.held && t.dataset.held !== r.lastTrick) {
    r.lastTrick = t.dataset.held;
    r.tricks.push({key: t.dataset.held, cards: t.querySelectorAll('.played').length,
      winners: t.querySelectorAll('.played.winner').length,
      caption: (t.querySelector('.trick-caption') || {}).innerText || ''});
  }
  const n = document.querySelector('#notice.info:not([hidden])');
  if (n && n.innerText !== r.notices[r.notices.length - 1]) r.notices.push(n.innerText);
  const s = document.querySelector('#held .summary');
  const key = s ? s.id + '|' + ((s.querySelector('h2') || {}).innerText || '') : null;
  if (s && key !== r.lastHeld) {
    r.lastHeld = key;
    r.held.push({id: s.id, title: (s.querySelector('h2') || {}).innerText || '', text: s.innerText,
      rows: s.querySelectorAll('li').length});
  }
}).observe(document, {childList: true, subtree: true, attributes: true,
  attributeFilter: ['class', 'data-held']});
"""


def new_page(
    browser: Any,
    *,
    phone: bool = False,
    lang: str = "en",
    reduced_motion: bool = False,
    width: int | None = None,
    fast: bool = True,
) -> Any:
    """A page in a fresh browser context (its own cookies): desktop (1280x900) or phone
    (390x844, touch), English or Japanese browser, optionally asking for reduced motion or
    another width. ``page.console.errors`` collects console and page errors."""
    viewport = dict(PHONE if phone else DESKTOP)
    if width is not None:
        viewport["width"] = width
    context = browser.new_context(
        locale="ja-JP" if lang == "ja" else "en-US",
        viewport=viewport,
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce" if reduced_motion else "no-preference",
    )
    if fast:
        context.add_init_script(FAST)
    context.add_init_script(RECORDER)
    pg = context.new_page()
    pg.console = Console(pg)
    pg.set_default_timeout(15000)
    return pg


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser context (its own cookies) and page, English unless the test says."""
    pg = new_page(browser)
    yield pg
    pg.context.close()


def shot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
