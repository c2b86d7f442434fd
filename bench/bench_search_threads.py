"""Root parallelisation: iterations the compiled ISMCTS runs in a move's time with 1 and with
``threads`` searches at once (issue 30's Expert).

For each game and table size, a few positions from random play; each is searched with
Strong's settings for ``--time`` seconds of wall clock, alone and with ``--threads`` threads,
alternately (so the machine's load falls on both alike), and the table gives the iterations
per move of each and their ratio (the speed-up: the number of cores the threads got). Figures
are only meaningful on a machine with that many free cores.

    python bench/bench_search_threads.py --time 0.5 --threads 2 --reps 3 --json out.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path
from typing import Any

from septet.bots import make_agent
from septet.core.play import seat_view
from septet.games import get

STRONG = {
    "seven-shot": "ismcts:time={t},rollout=greedy,horizon=round",
    "double-seven": "ismcts:time={t},rollout=greedy,tree=1,bias=1,utility=score",
    "flip7": "ismcts:time={t},rollout=greedy,horizon=round,tree=1,bias=1",
}


def positions(name: str, players: int, count: int, seed: int) -> list[Any]:
    """``count`` positions with two or more legal moves from random games."""
    game = get(name)
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_state(players)
        steps = 0
        while not state.is_terminal:
            if state.current_player < 0:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and steps > 6 and rng.random() < 0.1:
                out.append(state.clone())
                break
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = []
    print(f"| game | players | 1 search: iterations a move | {args.threads} threads | ratio |")
    print("|---|---|---|---|---|")
    for name, players in (("seven-shot", 3), ("seven-shot", 4), ("double-seven", 2),
                          ("flip7", 3)):  # fmt: skip
        game = get(name)
        spec = STRONG[name].format(t=args.time)
        one = make_agent(spec, game)
        many = make_agent(f"{spec},threads={args.threads}", game)
        its: dict[str, list[int]] = {"1": [], "n": []}
        for state in positions(name, players, args.positions, seed=7):
            view = seat_view(state, state.current_player)
            legal = state.legal_actions()
            one.act(view, legal, random.Random(0))  # warm: compile or load the kernels
            many.act(view, legal, random.Random(0))
            for r in range(args.reps):
                one.act(view, legal, random.Random(r))
                its["1"].append(one.last_iterations)  # type: ignore[attr-defined]
                many.act(view, legal, random.Random(r))
                its["n"].append(many.last_iterations)  # type: ignore[attr-defined]
        a, b = statistics.median(its["1"]), statistics.median(its["n"])
        rows.append({"game": name, "players": players, "one": a, "threads": b, "ratio": b / a})
        print(f"| {name} | {players} | {a:,.0f} | {b:,.0f} | {b / a:.2f} |")
    if args.json:
        args.json.write_text(json.dumps({"time": args.time, "threads": args.threads,
                                         "rows": rows}, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
