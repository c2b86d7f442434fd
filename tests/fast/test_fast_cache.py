"""The kernels' cache is keyed on every source whose values they freeze (septet.fast._cache)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from septet.fast import _cache


def test_the_key_covers_the_tables_the_kernels_read() -> None:
    names = {p.relative_to(_cache.ROOT).as_posix() for p in _cache.sources()}
    # the engine modules whose tables and constants the kernels import (issue 25's list)
    for rel in (
        "games/flip7/cards.py",  # VALUE, MOD_ADD, kinds
        "games/flip7/rules.py",  # FLIP7_BONUS, FLIP7_CARDS
        "games/double_seven/state.py",  # the phases
        "games/double_seven/tiles.py",
        "games/double_seven/rules.py",  # SEVEN
        "games/seven_shot/cards.py",
        "games/seven_shot/scoring.py",  # threshold(), trick points
        "bots/_flip7_ev_kernel.py",
        "bots/expert/ss_solver.py",  # the Seven Shot solver freezes SEVEN_MASK, SEVENS, PH_PLAY
        "fast/flip7.py",
        "fast/search_flip7.py",
        "fast/_search_body.py",
    ):
        assert rel in names, rel
    assert "fast/batch.py" not in names  # calls the kernels, is not compiled into them
    # every engine module any kernel file imports is covered
    for rel in _cache.KERNEL_FILES:
        for f in _cache.imports(_cache.ROOT / rel):
            if f.relative_to(_cache.ROOT).as_posix().startswith("games/"):
                assert f in _cache.sources(), (rel, f)


def test_the_digest_follows_a_changed_table(tmp_path: Path) -> None:
    before = _cache.digest()
    assert before == _cache.digest()  # stable
    copy = tmp_path / "septet"
    shutil.copytree(_cache.ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    out = _run(tmp_path, "from septet.fast import _cache; print(json.dumps(_cache.digest()))")
    assert out == before  # same bytes, same key wherever the package lies
    cards = copy / "games" / "flip7" / "cards.py"
    cards.write_text(cards.read_text().replace("P10: 10", "P10: 12"))
    assert _run(tmp_path, "from septet.fast import _cache; print(json.dumps(_cache.digest()))") != (
        before
    )


PROBE = """
import json
import numpy as np
from septet.fast import flip7 as F
from septet.games.flip7 import cards as C
row = np.zeros(F.MAXROW, dtype=np.int64)
row[0], row[1] = 5, C.P10
print(json.dumps([int(F.row_points(row, 2, False, False, False)), C.row_points([5, C.P10], False)]))
"""


def _run(root: Path, code: str) -> object:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + code],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_changed_table_rebuilds_the_kernels(tmp_path: Path) -> None:
    # F7V-7.2: a row's points add its modifiers. Compile and cache a kernel in a copy of the
    # package, change the +10 card's value consistently (the engine and the kernel read the
    # same table), and the next process must run a rebuilt kernel, twin-equal with the engine,
    # not the cached one (numba alone keys it on septet/fast/flip7.py, which did not change).
    copy = tmp_path / "septet"
    shutil.copytree(_cache.ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _run(tmp_path, PROBE) == [15, 15]
    assert list((copy / "fast" / "__pycache__").glob("flip7.row_points-*.nbi"))
    assert _run(tmp_path, PROBE) == [15, 15]  # loaded from the cache
    cards = copy / "games" / "flip7" / "cards.py"
    cards.write_text(cards.read_text().replace("P10: 10", "P10: 12"))
    assert _run(tmp_path, PROBE) == [17, 17]
