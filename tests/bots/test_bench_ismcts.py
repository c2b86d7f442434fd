"""bench/bench_ismcts.py still runs against the current ISMCTS (a tiny budget; speed itself is
only measured by running the benchmark, never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_ismcts_runs_and_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "bench_ismcts.json"
    cmd = [sys.executable, str(ROOT / "bench" / "bench_ismcts.py"), "--iterations", "8"]
    cmd += ["--positions", "1", "--games", "flip7,seven-shot", "--rollout", "greedy"]
    cmd += ["--spec", "horizon=round,tree=1", "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [r["game"] for r in rows] == ["flip7", "seven-shot"]
    for row in rows:
        assert row["iterations"] == 8 and row["spec"] == "horizon=round,tree=1"
        assert row["iterations_per_s"] > 0
        shares = row["share_sample"] + row["share_tree"] + row["share_rollout"]
        # the three measured parts cannot exceed the wall clock ("other" is the rest)
        assert 0.0 < shares <= 1.05 and row["share_rollout"] > 0
