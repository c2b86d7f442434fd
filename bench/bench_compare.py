"""Before/after benchmark: the same measurements on two source trees, alternated, as ratios.

Each measurement runs in its own subprocess with ``PYTHONPATH=<tree>/src`` (the child checks
that ``septet`` really comes from that tree), so the two trees share one interpreter, one
machine and one time window; runs alternate (before, after, after, before, ...) so drift in the
machine's load falls on both sides alike. Per item the median of the repeats is taken and the
ratio **after/before of the speed** is printed (``> 1``: the after tree is faster); an item whose
after tree is more than ``--threshold`` (default 5%) slower is flagged ``SLOWER``.

Items:

- built-in (default): ``playout:<game>:<players>`` (random playouts from a new state, games per
  CPU-second, the same seeds on both sides) for each game at 2 and 4 players (Seven Shot 3 and
  4), and ``ismcts:<game>`` (python ISMCTS iterations per CPU-second, 4 players, on the same
  positions reached by seeded random play);
- ``--items fast``: ``fast:<game>:<players>:<random|greedy>``, whole games in the compiled
  kernels (``septet.fast.batch``), games per CPU-second after a warm-up call (needs the
  ``fast`` extra; compiling is not timed, but the first run in a tree compiles, so allow time);
- ``--script bench/bench_x.py [--script-args "..."]``: a bench script run whole in each tree
  (the tree's own copy when it has one), measured by its CPU time (user + system of the child).

Trees: ``--after`` (default ``.``) and ``--before`` are folders or git revisions; a revision is
checked out into a temporary ``git worktree`` (removed afterwards).

Usage::

    .venv/bin/python bench/bench_compare.py --before 0b58275 --after .
    .venv/bin/python bench/bench_compare.py --before 0b58275 --items playout --repeats 5
    .venv/bin/python bench/bench_compare.py --before 0b58275 --script bench/bench_engines.py \\
        --script-args "--games 50"

Prints a table and the JSON (also written to ``--out``, default
``bench/results/bench_compare.json``). Exit status 1 when an item is flagged.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

GAMES = {"flip7": (2, 4), "double-seven": (2, 4), "seven-shot": (3, 4)}


# ----- the child side: one measurement, printed as JSON --------------------------------------
def _playout_rate(game_name: str, players: int, games: int) -> float:
    """Random playouts from a new state: games per CPU-second (seeds 0..games-1)."""
    import random

    from septet.core.types import CHANCE
    from septet.games import get

    game = get(game_name)
    start = time.process_time()
    for i in range(games):
        rng = random.Random(i)
        state = game.new_state(players)
        while True:
            player = state.current_player
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
            elif player < 0:
                break
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    return games / max(time.process_time() - start, 1e-9)


def _ismcts_rate(game_name: str, positions: int, iterations: int) -> float:
    """Python ISMCTS at 4 players: iterations per CPU-second over seeded positions."""
    import random

    from septet.bots.ismcts import ISMCTSAgent
    from septet.core.types import CHANCE
    from septet.games import get

    game = get(game_name)
    agent = ISMCTSAgent(game, iterations=iterations, engine="python", seed=1)
    spent = 0.0
    done = 0
    for p in range(positions):
        rng = random.Random(1000 + p)
        state = game.new_state(4)
        stop = rng.randrange(5, 40)  # a player node with 2+ actions after ~stop steps
        steps = 0
        while not state.is_terminal:
            player = state.current_player
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if steps >= stop and len(legal) > 1:
                break
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        if state.is_terminal:
            continue
        view = state.view(state.current_player)
        start = time.process_time()
        agent.act(view, state.legal_actions(), random.Random(p))
        spent += time.process_time() - start
        done += agent.last_iterations
    return done / max(spent, 1e-9)


def _fast_rate(game_name: str, players: int, policy: str, games: int) -> float:
    """Compiled whole games (``septet.fast.batch``), games per CPU-second after a warm-up call
    (so compiling or loading the kernels is not timed)."""
    from septet.fast import kernel_for
    from septet.fast.batch import play_games
    from septet.games import get

    game = get(game_name)
    k = kernel_for(game)
    play_games(game, players, [0, 1], [[policy] * players] * 2, kernel=k)
    seeds = list(range(games))
    start = time.process_time()
    play_games(game, players, seeds, [[policy] * players] * games, kernel=k)
    return games / max(time.process_time() - start, 1e-9)


def _child(item: str, tree: str, size: float) -> None:
    """Run one built-in item in this process and print ``{"value": ...}``."""
    import septet

    where = Path(septet.__file__).resolve()
    if Path(tree).resolve() / "src" not in where.parents:
        raise SystemExit(f"septet imported from {where}, not from {tree}/src")
    kind, _, rest = item.partition(":")
    if kind == "playout":
        name, _, players = rest.partition(":")
        value = _playout_rate(name, int(players), max(1, int(40 * size)))
    elif kind == "ismcts":
        value = _ismcts_rate(rest, max(1, int(3 * size)), 200)
    elif kind == "fast":
        name, players, policy = rest.split(":")
        count = max(1, int((20000 if policy == "random" else 2000) * size))
        value = _fast_rate(name, int(players), policy, count)
    else:
        raise SystemExit(f"unknown item {item!r}")
    print(json.dumps({"value": value}))


# ----- the parent side --------------------------------------------------------------------------
def builtin_items(which: str) -> list[str]:
    """The built-in item names (``all``, ``playout``, ``ismcts`` or ``fast``; ``all`` leaves out
    ``fast``, which needs the ``fast`` extra)."""
    items = []
    if which in ("all", "playout"):
        items += [f"playout:{g}:{n}" for g, counts in GAMES.items() for n in counts]
    if which in ("all", "ismcts"):
        items += [f"ismcts:{g}" for g in GAMES]
    if which == "fast":
        items += [
            f"fast:{g}:{n}:{policy}"
            for g, counts in GAMES.items()
            for n in counts
            for policy in ("random", "greedy")
        ]
    return items


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree / "src")
    env.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "septet-bench-numba"))
    return env


def measure_builtin(item: str, tree: Path, size: float) -> float:
    """One subprocess run of a built-in item at ``tree``: its speed (higher is faster)."""
    cmd = [sys.executable, __file__, "--child", item, "--tree", str(tree), "--size", str(size)]
    out = subprocess.run(cmd, env=_env(tree), capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{item} at {tree} failed:\n{out.stderr[-2000:]}")
    return float(json.loads(out.stdout.strip().splitlines()[-1])["value"])


def measure_script(script: str, args: str, tree: Path) -> float:
    """One run of a bench script at ``tree``: 1 / its CPU seconds (so higher is faster)."""
    path = tree / script if (tree / script).exists() else Path(script).resolve()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [sys.executable, str(path), *shlex.split(args)],
        env=_env(tree),
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"{script} at {tree} failed:\n{out.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return 1.0 / max(cpu, 1e-9)


def compare(
    items: list[str],
    measure: Callable[[str, Path], float],
    before: Path,
    after: Path,
    repeats: int,
    threshold: float,
    log: Callable[[str], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Alternate the runs of each item on both trees; rows with medians, ratio and flag.

    The order flips every repeat (B A, A B, ...). ``ratio`` is after/before of the speed.
    """
    rows = []
    for item in items:
        got: dict[str, list[float]] = {"before": [], "after": []}
        for r in range(repeats):
            order = [("before", before), ("after", after)]
            for side, tree in order if r % 2 == 0 else order[::-1]:
                got[side].append(measure(item, tree))
        b, a = statistics.median(got["before"]), statistics.median(got["after"])
        ratio = a / b if b > 0 else float("nan")
        rows.append(
            {
                "item": item,
                "before": b,
                "after": a,
                "ratio": ratio,
                "slower": ratio < 1 - threshold,
                "runs": got,
            }
        )
        log(f"{item}: before {b:.4g}, after {a:.4g}, ratio {ratio:.3f}")
    return rows


def table(rows: list[dict[str, Any]], threshold: float, unit: str) -> str:
    """The Markdown table of the rows."""
    flag = f"flag (>{threshold:.0%} slower)"
    lines = [
        f"| item | before ({unit}) | after ({unit}) | after/before | {flag} |",
        "|---|---:|---:|---:|---|",
    ]
    for r in rows:
        flag = "SLOWER" if r["slower"] else ""
        lines.append(
            f"| {r['item']} | {r['before']:.4g} | {r['after']:.4g} | {r['ratio']:.3f} | {flag} |"
        )
    return "\n".join(lines)


class _Tree:
    """A source tree from a folder or a git revision (a temporary worktree, removed on exit)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.temp: Path | None = None
        self.path = Path(spec).resolve()

    def __enter__(self) -> Path:
        if Path(self.spec).is_dir():
            return self.path
        self.temp = Path(tempfile.mkdtemp(prefix="septet-bench-")) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(self.temp), self.spec],
            check=True,
            capture_output=True,
        )
        self.path = self.temp
        return self.temp

    def __exit__(self, *exc: object) -> None:
        if self.temp is not None:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(self.temp)],
                check=False,
                capture_output=True,
            )


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="folder or git revision (e.g. 0b58275)")
    ap.add_argument("--after", default=".", help="folder or git revision (default: .)")
    ap.add_argument("--items", default="all", choices=("all", "playout", "ismcts", "fast"))
    ap.add_argument("--only", default="", help="comma-separated substrings of item names")
    ap.add_argument("--script", help="a bench script to time whole instead of the built-ins")
    ap.add_argument("--script-args", default="", help="arguments for --script (one string)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per tree and item (default 3)")
    ap.add_argument("--size", type=float, default=1.0, help="scale of each built-in run")
    ap.add_argument("--threshold", type=float, default=0.05, help="flag level (default 0.05)")
    ap.add_argument("--out", default="bench/results/bench_compare.json")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--tree", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child, args.tree, args.size)
        return 0
    if not args.before:
        ap.error("--before is required")
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if args.script:
        items = [args.script]
        unit = "1/CPU-s"

        def measure(item: str, tree: Path) -> float:
            return measure_script(item, args.script_args, tree)
    else:
        only = [s for s in args.only.split(",") if s]
        items = [i for i in builtin_items(args.items) if not only or any(s in i for s in only)]
        unit = "per CPU-s"

        def measure(item: str, tree: Path) -> float:
            return measure_builtin(item, tree, args.size)

    with _Tree(args.before) as before, _Tree(args.after) as after:

        def log(line: str) -> None:
            print(line, file=sys.stderr, flush=True)

        rows = compare(items, measure, before, after, args.repeats, args.threshold, log)
    print(table(rows, args.threshold, unit))
    result = {
        "before": args.before,
        "after": args.after,
        "repeats": args.repeats,
        "threshold": args.threshold,
        "unit": unit,
        "rows": rows,
    }
    print(json.dumps(result, indent=1))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 1 if any(r["slower"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
