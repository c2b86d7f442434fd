"""Benchmark: the Flip 7 engine before and after a change of shape (issue 17), in one run.

    .venv/bin/python bench/bench_flip7_shape.py --base /tmp/base-f7/src --new src

Each measurement is a fresh process (``PYTHONPATH`` set to one source tree) that plays the same
seeded random games (``septet.core.random_playout``, both editions, 4 players) and reports its
CPU seconds (``time.process_time``); a second workload clones and serialises positions
(``clone``, ``state_dict``, ``load_state_dict``). Base and new alternate ``--rounds`` times; the
table gives the best CPU time of each and the ratio new / base (above 1: slower).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, random, sys, time
from septet.core.play import random_playout
from septet.games import get

games = int(sys.argv[1])
out = {}
for edition in ("vengeance", "classic"):
    game = get("flip7", edition=edition)
    rng = random.Random(1)
    t0 = time.process_time()
    for _ in range(games):
        random_playout(game.new_state(4), rng)
    out["play " + edition] = time.process_time() - t0
    # clone + state_dict + load on positions of one game
    rng = random.Random(2)
    s = game.new_state(4)
    states = []
    while s.current_player != -4 and len(states) < 300:
        states.append(s.clone())
        if s.current_player == -1:
            s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
    t0 = time.process_time()
    for _ in range(max(1, games // 25)):
        for st in states:
            c = st.clone()
            c.load_state_dict(c.state_dict())
    out["clone+dict " + edition] = time.process_time() - t0
print(json.dumps(out))
"""


def _measure(src: str, games: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    res = subprocess.run(
        [sys.executable, "-c", CHILD, str(games)], env=env, capture_output=True, text=True
    )
    if res.returncode:
        raise SystemExit(res.stderr)
    return dict(json.loads(res.stdout))


def main() -> None:
    """Alternate base and new ``--rounds`` times; print best CPU seconds and ratios."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", required=True, help="source tree before the change (its src/)")
    ap.add_argument("--new", default="src", help="source tree after the change")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    best: dict[str, dict[str, float]] = {"base": {}, "new": {}}
    for _ in range(args.rounds):
        for name, src in (("base", args.base), ("new", args.new)):
            for k, v in _measure(src, args.games).items():
                best[name][k] = min(v, best[name].get(k, v))
    print(f"{'workload':24} {'base s':>8} {'new s':>8} {'new/base':>9}")
    for k, b in best["base"].items():
        n = best["new"][k]
        print(f"{k:24} {b:8.3f} {n:8.3f} {n / b:9.3f}")


if __name__ == "__main__":
    main()
