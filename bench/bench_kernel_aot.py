"""The kernels built ahead of time against numba's JIT loading its cache (issue 29).

After ``septet kernels build`` (which compiles the numba cache and links the ahead-of-time
modules), each row runs the same work in fresh processes, one per mode, alternated
``--reps`` times (medians): ``SEPTET_KERNELS=jit`` (numba, everything loaded from its disk
cache) and ``SEPTET_KERNELS=aot`` (the built modules, no numba). Per game and use:

- ``play``: 2 whole games by ``septet.fast.batch.play_games`` (greedy seats; Flip 7 also risk);
- ``search``: one compiled ISMCTS move (50 iterations) on a fresh deal;

it prints the process's CPU seconds (imports included: what a new process pays before its
first answer) and its peak RSS (``ru_maxrss``), and whether numba was imported. Then the
playout rate: ``--games`` whole games in one call after a warm-up call, games per CPU-second,
both modes, and their ratio (classic Flip 7 with the risk agent at 2 and 4 players, Double
Seven 3 players greedy, Seven Shot 4 players greedy).

Usage::

    .venv/bin/python bench/bench_kernel_aot.py [--reps 3] [--games 20000]

Prints tables; writes ``bench/results/bench_kernel_aot.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

GAMES = {"flip7": 2, "double-seven": 2, "seven-shot": 3}

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kernel_startup import CHILD as START  # noqa: E402  (one use per process, as there)

RATE = """
import json, sys, time
name, n, pol, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
from septet.games import get
from septet.fast.batch import play_games
game = get("flip7", edition="classic") if name == "flip7-classic" else get(name)
play_games(game, n, [0], [[pol] * n])
seeds = list(range(1, games + 1))
c0 = time.process_time()
r = play_games(game, n, seeds, [[pol] * n] * games)
cpu = time.process_time() - c0
print(json.dumps({"rate": games / cpu, "check": int(r.scores.sum())}))
"""

RATES = [
    ("flip7-classic", 2, "risk"),
    ("flip7-classic", 4, "risk"),
    ("double-seven", 3, "greedy"),
    ("seven-shot", 4, "greedy"),
]


def _child(code: str, mode: str, *args: Any) -> dict[str, Any]:
    env = {**os.environ, "SEPTET_KERNELS": mode}
    out = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--games", type=int, default=20000, help="games per rate measurement")
    args = ap.parse_args()
    from septet.fast import _mode

    if not _mode.complete(_mode.read_manifest()):
        sys.exit("no ahead-of-time build of these sources: run `septet kernels build` first")
    rows: list[dict[str, Any]] = []
    print("| game | use | JIT (cached) CPU-s | RSS MB | AOT CPU-s | RSS MB | AOT numba |")
    print("|---|---|---|---|---|---|---|")
    for name, n in GAMES.items():
        for use in ("play", "search"):
            got: dict[str, list[dict[str, Any]]] = {"jit": [], "aot": []}
            for _ in range(args.reps):
                for mode in ("jit", "aot"):
                    got[mode].append(_child(START, mode, name, use, n))
            med = {m: {k: statistics.median(r[k] for r in got[m]) for k in ("cpu_s", "rss_mb")}
                   for m in got}  # fmt: skip
            row = {"game": name, "use": use, "aot_numba": any(r["numba"] for r in got["aot"])}
            row.update({f"{m}_{k}": v for m in med for k, v in med[m].items()})
            rows.append(row)
            j, a = med["jit"], med["aot"]
            print(f"| {name} | {use} | {j['cpu_s']:.2f} | {j['rss_mb']:.0f} | {a['cpu_s']:.2f} | "
                  f"{a['rss_mb']:.0f} | {row['aot_numba']} |")  # fmt: skip
    rates: list[dict[str, Any]] = []
    print()
    print("| game | players | seats | JIT games/CPU-s | AOT games/CPU-s | AOT ÷ JIT | same games |")
    print("|---|---|---|---|---|---|---|")
    for name, n, pol in RATES:
        got = {"jit": [], "aot": []}
        for _ in range(args.reps):
            for mode in ("jit", "aot"):
                got[mode].append(_child(RATE, mode, name, n, pol, args.games))
        jit = statistics.median(r["rate"] for r in got["jit"])
        aot = statistics.median(r["rate"] for r in got["aot"])
        same = len({r["check"] for r in got["jit"] + got["aot"]}) == 1
        rates.append({"game": name, "players": n, "seats": pol, "jit": jit, "aot": aot,
                      "ratio": aot / jit, "same_games": same})  # fmt: skip
        print(f"| {name} | {n} | {pol} | {jit:,.0f} | {aot:,.0f} | {aot / jit:.2f} | {same} |")
    out = Path(__file__).resolve().parent / "results" / "bench_kernel_aot.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"start": rows, "rates": rates, "load": os.getloadavg()}, indent=1))
    print(f"\nload average {os.getloadavg()[0]:.1f}; wrote {out}")


if __name__ == "__main__":
    main()
