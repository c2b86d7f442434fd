"""bench/bench_flip7_ev.py still runs against the current solver (one small game per table size;
speed itself is only measured by running the benchmark, never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_flip7_ev_runs_and_accounts_for_every_position(tmp_path: Path) -> None:
    out = tmp_path / "flip7_ev.json"
    cmd = [sys.executable, str(ROOT / "bench" / "bench_flip7_ev.py"), "--games", "1"]
    cmd += ["--players", "3,4", "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [r["players"] for r in rows] == [3, 4]
    for row in rows:
        settled = row["settled"]
        # every position is one decision, settled by exactly one of the four ways
        assert settled["decisions"] == row["positions"] > 0
        ways = settled["race"] + settled["one_step"] + settled["solved"] + settled["reduced"]
        assert ways == row["positions"]
        assert row["ev_ms"] > 0 and row["greedy_ms"] > 0
