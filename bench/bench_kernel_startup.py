"""What the compiled kernels cost a process at start: first compile and cached load, per game.

For each game, in a copy of the package with an empty numba cache (a temporary directory), one
fresh process per use: ``play`` (``septet.fast.batch.play_games``: 2 games, every seat greedy,
and in Flip 7 also risk), ``search`` (the compiled ISMCTS: ``warm_up`` and one move), and as
``septet kernels build`` runs them, Flip 7's ``flip7-ev`` (the exact programme of the
``flip7-ev`` bot, loaded, and one move) and Seven Shot's ``solver`` (the Expert's trick
solver). Each process prints its CPU seconds (``time.process_time``, imports included), its
peak RSS (``ru_maxrss``), and which kernel modules it compiled (the cache files it wrote). Then
the same process again, now loading the cache. Goal (issue 29): first compile ≤ 15 CPU-s per
game and use, RSS with the kernels ≤ 120 MB, and a Flip 7 process compiles no Seven Shot or
Double Seven code. The processes run numba's JIT (``SEPTET_KERNELS=jit``): the kernels built
ahead of time (``__aot__``) are not copied.

With ``--baseline DIR`` (a ``src`` directory of another checkout, e.g. main's), each row is
measured from that source too, interleaved (the baseline's first compile right after this
tree's, each in its own empty cache), so a loaded machine slows both alike. It also prints
numba's own floor: the peak RSS and CPU-s of a process that imports numba, and of one that
compiles and calls a one-line ``@njit`` function.

Usage::

    .venv/bin/python bench/bench_kernel_startup.py [--only flip7] [--baseline ../main/src]

Prints a table; writes ``bench/results/bench_kernel_startup.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src" / "septet"
GAMES = {"flip7": 2, "double-seven": 2, "seven-shot": 3}
USES = {"flip7": ("play", "search", "flip7-ev"), "seven-shot": ("play", "search", "solver")}
"""The uses measured per game (default: play and search): ``flip7-ev`` and ``solver`` are
``septet kernels build``'s steps (:func:`septet.bots.kernels.warm`)."""

CHILD = """
import json, resource, time, sys
name, use, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
from septet.games import get
game = get(name)
if use in ("flip7-ev", "solver"):
    from septet.bots.kernels import warm
    warm(name, use)
elif use == "play":
    from septet.fast.batch import play_games
    pols = ["greedy", "risk"] if name == "flip7" else ["greedy"]
    for pol in pols:
        play_games(game, n, [1, 2], [[pol] * n] * 2)
else:
    import random
    from septet.bots import make_agent
    from septet.core.play import seat_view
    agent = make_agent("ismcts:iterations=50,engine=fast", game)
    state = game.new_state(n)
    rng = random.Random(0)
    while state.current_player < 0:
        state.apply(state.sample_chance(rng))
    agent.act(seat_view(state, state.current_player), state.legal_actions(), rng)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cpu_s": time.process_time(), "rss_mb": rss, "numba": "numba" in sys.modules}))
"""


def _cached(root: Path) -> set[str]:
    out: set[str] = set()
    for sub in ("fast", "bots", "bots/expert"):
        d = root / "septet" / sub / "__pycache__"
        if d.exists():
            out.update(f.name.split(".")[0] for f in d.glob("*.nbi"))
    return out


def measure(root: Path, name: str, use: str) -> dict[str, Any]:
    """One process: its CPU-s, peak RSS, and the kernel modules it added to the cache."""
    before = _cached(root)
    env = dict(os.environ, PYTHONPATH=str(root), SEPTET_KERNELS="jit")  # (numba's, not AOT)
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, name, use, str(GAMES[name])],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    out["compiled"] = sorted(_cached(root) - before)
    return out


FLOOR = {
    "import numba": "import numba",
    "one trivial njit": "import numba\n@numba.njit\ndef f(x):\n    return x + 1\nf(1)",
}
"""numba's own floor: what a process costs before any Septet kernel."""


def floor() -> dict[str, dict[str, float]]:
    """CPU-s and peak RSS (MB) of the :data:`FLOOR` processes."""
    out = {}
    for name, code in FLOOR.items():
        probe = (
            code + "\nimport json, resource, time\nprint(json.dumps({'cpu_s': time.process_time(),"
            " 'rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))"
        )
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        )
        out[name] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="game[,game]")
    parser.add_argument("--baseline", type=Path, default=None, help="another src dir")
    parser.add_argument("--out", type=Path, default=Path("bench/results/bench_kernel_startup.json"))
    args = parser.parse_args()
    only = {x for x in args.only.split(",") if x}
    rows = []
    base: dict[str, float | None] = {"bare": None}
    floors = floor()
    for name, f in floors.items():
        print(f"numba floor, {name}: {f['cpu_s']:.2f} CPU-s, {f['rss_mb']:.0f} MB")
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as tmp_base:
        root = Path(tmp)
        shutil.copytree(
            SRC, root / "septet", ignore=shutil.ignore_patterns("__pycache__", "__aot__")
        )
        base_root = Path(tmp_base)
        if args.baseline is not None:
            shutil.copytree(
                args.baseline / "septet",
                base_root / "septet",
                ignore=shutil.ignore_patterns("__pycache__", "__aot__"),
            )
        env = dict(os.environ, PYTHONPATH=str(root))
        bare = subprocess.run(
            [sys.executable, "-c", "import resource, septet.games;"
             "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        base["bare"] = float(bare.stdout.strip())
        print(f"a process with the engines and no kernels: {base['bare']:.0f} MB")
        print(f"{'game':14s} {'use':7s} {'first CPU-s':>11s} {'RSS MB':>7s} "
              f"{'cached CPU-s':>12s} {'RSS MB':>7s}  compiled")  # fmt: skip
        for name in GAMES:
            if only and name not in only:
                continue
            for use in USES.get(name, ("play", "search")):
                trees = [("", root)]
                if args.baseline is not None:
                    trees.append((" (base)", base_root))
                for tag, tree in trees:
                    first = measure(tree, name, use)
                    again = measure(tree, name, use)
                    row = {"game": name, "use": use + tag, "first": first, "cached": again}
                    rows.append(row)
                    made = ", ".join(first["compiled"])
                    print(
                        f"{name:14s} {use + tag:7s} {first['cpu_s']:11.1f} "
                        f"{first['rss_mb']:7.0f} {again['cpu_s']:12.2f} {again['rss_mb']:7.0f}"
                        f"  {made}",
                        flush=True,
                    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"bare_rss_mb": base["bare"], "numba_floor": floors, "rows": rows}, indent=1)
        + "\n"
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
