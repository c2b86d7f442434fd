"""The compiled kernels' whole-game playouts now against the same kernels at an earlier commit,
measured in the same process, interleaved, on the same seeds.

For each game, player count and policy, the kernel module of ``--baseline`` (``git show
REV:src/septet/fast/<game>.py``, imported under another name beside today's, compiled into its
own cache) plays ``--games`` whole games from new states with its ``play_rows``, and today's
kernel plays them by what ``septet.fast.batch.play_games`` calls (the playout path where the
kernel has one); the two alternate ``--reps`` times. Printed per row: both rates (games per
CPU-second, the median of the reps), the median of the per-pair ratios (today ÷ baseline) with
its smallest and largest, and whether the two played the very same games (equal scores and
lengths: both draw from the same generator in the same order). A ratio is a ratio of CPU time
measured back to back, so a noisy shared machine slows both alike; the spread says how noisy.

Issue 29 asks Double Seven's and Seven Shot's playouts to be at least 2× those of f5a9dd4 (the
main of 2026-12-03, whose kernels are those of 4b29d67 for these two games).

Usage::

    nice -n 10 .venv/bin/python bench/bench_vs_baseline.py                # f5a9dd4, ~4 min
    .venv/bin/python bench/bench_vs_baseline.py --only seven-shot --reps 5
    .venv/bin/python bench/bench_vs_baseline.py --baseline HEAD~3 --quick

Writes ``bench/results/bench_vs_baseline.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

# The baseline's kernel file is compiled here beside today's: numba's JIT, whatever
# `septet kernels build` linked ahead of time (septet.fast._mode).
os.environ.setdefault("SEPTET_KERNELS", "jit")

from septet.fast import kernel_for
from septet.fast.batch import _policy_codes
from septet.fast.rng import rngs_for_seeds
from septet.games import get

ROOT = Path(__file__).resolve().parent.parent
MODULES = {"seven-shot": "seven_shot", "double-seven": "double_seven", "flip7": "flip7"}
CONFIGS: list[tuple[str, dict[str, Any], tuple[int, ...], tuple[str, ...]]] = [
    ("seven-shot", {}, (3, 4), ("random", "greedy")),
    ("double-seven", {}, (2, 3, 4), ("random", "greedy")),
    ("flip7", {"edition": "classic"}, (2, 4), ("random", "greedy", "risk")),
]


def baseline_module(rev: str, game: str, where: Path) -> ModuleType:
    """The kernel module of ``game`` at git revision ``rev``, imported from a copy in
    ``where`` as ``septet_baseline_<module>`` (its numba cache beside it).

    Raises:
        subprocess.CalledProcessError: ``rev`` or the file is not in the repository.
    """
    name = MODULES[game]
    src = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:src/septet/fast/{name}.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = where / f"septet_baseline_{name}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # numba's cache finds the module's globals by this name
    spec.loader.exec_module(module)
    return module


def measure(
    game: Any, n: int, policy: str, base: ModuleType, count: int, reps: int
) -> dict[str, Any]:
    """One row: ``reps`` interleaved pairs of ``count`` games (seeds ``0..count-1``)."""
    k = kernel_for(game)
    now = k.play_rows(True)
    start = k.encode(game.new_state(n))
    pol = np.tile(_policy_codes([policy] * n, n, game.name), (count, 1))

    def run(fn: Any) -> tuple[float, np.ndarray, np.ndarray]:
        scores = np.zeros((count, n), dtype=np.int64)
        wins = np.zeros((count, n), dtype=np.int8)
        lengths = np.zeros(count, dtype=np.int64)
        rngs = rngs_for_seeds(range(count))
        t = time.process_time()
        fn(start, rngs, pol, False, -1, k.params, True, scores, wins, lengths)
        return time.process_time() - t, scores, lengths

    run(now)  # compile (or load) both before timing
    run(base.play_rows)
    ratios, now_rate, base_rate = [], [], []
    same = True
    for _ in range(reps):
        a, sa, la = run(now)
        b, sb, lb = run(base.play_rows)
        same = same and np.array_equal(sa, sb) and np.array_equal(la, lb)
        ratios.append(b / a)
        now_rate.append(count / a)
        base_rate.append(count / b)
    return {
        "game": game.name,
        "players": n,
        "policy": policy,
        "games": count,
        "reps": reps,
        "baseline_gps": statistics.median(base_rate),
        "now_gps": statistics.median(now_rate),
        "ratio_median": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "same_games": same,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="f5a9dd4", help="git revision to compare with")
    parser.add_argument("--only", default="", help="game[,game]: only these games")
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--games", type=int, default=0, help="games per rep (default by policy)")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--out", default="bench/results/bench_vs_baseline.json")
    args = parser.parse_args()
    only = {g for g in args.only.split(",") if g}
    reps = 3 if args.quick else args.reps
    rows = []
    print(f"Whole games per CPU-second: now ÷ {args.baseline}, interleaved, same seeds")
    print(
        f"{'game':<14s} {'n':>2s} {'policy':<7s} {'baseline g/s':>12s} {'now g/s':>10s} "
        f"{'ratio':>7s} {'[min, max]':>14s} {'same games':>10s}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, options, players, policies in CONFIGS:
            if only and name not in only:
                continue
            game = get(name, **options)
            base = baseline_module(args.baseline, name, Path(tmp))
            for n in players:
                for policy in policies:
                    count = args.games or (300 if args.quick else 1500)
                    if policy == "random" and not args.games:
                        count *= 2
                    row = measure(game, n, policy, base, count, reps)
                    rows.append(row)
                    print(
                        f"{name:<14s} {n:>2d} {policy:<7s} {row['baseline_gps']:>12,.0f} "
                        f"{row['now_gps']:>10,.0f} {row['ratio_median']:>6.2f}× "
                        f"[{row['ratio_min']:.2f}, {row['ratio_max']:.2f}] "
                        f"{'yes' if row['same_games'] else 'NO':>10s}",
                        flush=True,
                    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "baseline": args.baseline,
                "machine": platform.platform(),
                "python": platform.python_version(),
                "rows": rows,
            },
            indent=2,
        )
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
