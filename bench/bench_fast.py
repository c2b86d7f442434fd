"""The compiled kernels (septet.fast) against the Python engines, measured in the same run.

Two tables, each a ratio of CPU time (``time.process_time``) measured back to back in this
process, so that a noisy shared machine slows both sides alike:

1. **Games per CPU-second**, per game and player count: whole games from a new state with
   uniform random moves (``septet.core.random_playout`` against the kernel's random playout),
   with every seat greedy (``play_game`` with the greedy bots against the compiled greedy) and,
   in Flip 7, every seat ``risk`` (hit while P(bust) ≤ 0.26). The kernel runs each row twice
   in a row: by its playout path (``play_games``'s default) and by its step path (legal ids
   and chance outcomes at every step, what ``play_games`` did before issue 29): the "path
   gain" column is their ratio, the same games either way.
   The issue's target: classic Flip 7, 2 players, at least 50,000 games per CPU-second; Double
   Seven and Seven Shot at least 20× their Python engines.
2. **ISMCTS iterations per second** at 4 players (``--ismcts-players``), per game, on the same
   positions (player nodes with 2+ legal actions, spread over seeded random games) and the same
   spec, ``engine=python`` against ``engine=fast``. Target: at least 10×.

Usage::

    nice -n 10 .venv/bin/python bench/bench_fast.py            # about 3 minutes on one core
    .venv/bin/python bench/bench_fast.py --quick               # a smoke run
    .venv/bin/python bench/bench_fast.py --only flip7 --no-ismcts

Prints both tables and writes ``bench/results/bench_fast.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from septet.bots import make_agent
from septet.bots.ismcts import ISMCTSAgent
from septet.core.play import play_game, random_playout, seat_view
from septet.fast import kernel_for
from septet.fast.batch import play_games
from septet.games import get

CONFIGS = [
    ("flip7", {"edition": "classic"}, (2, 4)),
    ("flip7", {}, (2, 4)),
    ("double-seven", {}, (2, 3, 4)),
    ("seven-shot", {}, (3, 4)),
]


def _label(name: str, options: dict[str, Any]) -> str:
    extra = " ".join(f"{k}={v}" for k, v in options.items())
    return f"{name} {extra}".strip()


def python_games(game: Any, n: int, policy: str, count: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, steps) of ``count`` Python games."""
    rng = random.Random(seed)
    steps = 0
    t = time.process_time()
    if policy == "random":
        for _ in range(count):
            steps += len(random_playout(game.new_state(n), rng).history)
    else:
        agents = [make_agent(policy, game) for _ in range(n)]
        for i in range(count):
            steps += len(play_game(game, agents, seed=seed * 100_000 + i).state.history)
    return time.process_time() - t, steps


def kernel_games(
    game: Any, n: int, policy: str, count: int, seed: int, fast: bool = True
) -> tuple[float, int]:
    """(CPU seconds, steps) of ``count`` kernel games (after a warm-up call), by the playout
    path (``fast``) or the step path (legal ids and chance outcomes at every step)."""
    k = kernel_for(game)
    play_games(game, n, [0, 1], [[policy] * n] * 2, kernel=k, fast=fast)
    seeds = [seed * 1_000_003 + i for i in range(count)]
    rows = [[policy] * n] * count
    t = time.process_time()
    out = play_games(game, n, seeds, rows, kernel=k, fast=fast)
    return time.process_time() - t, int(out.lengths.sum())


def positions(game: Any, players: int, count: int, seed: int) -> list[Any]:
    """``count`` player-node positions with 2+ legal actions from seeded random games."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_state(players)
        cands = []
        while not state.is_terminal:
            if state.current_player < 0:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                cands.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
        step = max(1, len(cands) // (count + 1))
        out.extend(cands[step::step][: count - len(out)])
    return out


def ismcts_rate(game: Any, states: list[Any], spec: dict[str, Any], engine: str) -> float:
    """Iterations per CPU-second of ISMCTS with ``spec`` over ``states``."""
    agent = ISMCTSAgent(game, engine=engine, **spec)
    first = states[0]
    agent.act(seat_view(first, first.current_player), first.legal_actions(), random.Random(0))
    iters = 0
    t = time.process_time()
    for i, st in enumerate(states):
        agent.act(seat_view(st, st.current_player), st.legal_actions(), random.Random(i))
        iters += agent.last_iterations
    return iters / (time.process_time() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (few games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ismcts-players", type=int, default=4)
    parser.add_argument("--only", default="", help="game[,game]: only these rows (e.g. flip7)")
    parser.add_argument("--no-ismcts", action="store_true", help="skip the ISMCTS table")
    parser.add_argument("--out", default="bench/results/bench_fast.json")
    args = parser.parse_args()
    only = {x for x in args.only.split(",") if x}
    scale = 0.05 if args.quick else 1.0

    rows = []
    print("Games per CPU-second (kernel ÷ Python, measured back to back)")
    head = (
        f"{'game':22s} {'n':>2s} {'policy':7s} {'python g/s':>11s} {'kernel g/s':>11s} "
        f"{'ratio':>7s} {'steps/game':>10s} {'step path g/s':>13s} {'path gain':>9s}"
    )
    print(head)
    for name, options, counts in CONFIGS:
        if only and name not in only:
            continue
        game = get(name, **options)
        for n in counts:
            for policy in ("random", "greedy", "risk") if name == "flip7" else ("random", "greedy"):
                py_n = max(2, int((60 if policy == "random" else 20) * scale))
                k_n = max(20, int((20000 if name != "double-seven" else 3000) * scale))
                if policy == "greedy":
                    k_n //= 3
                py_t, py_steps = python_games(game, n, policy, py_n, args.seed)
                k_t, k_steps = kernel_games(game, n, policy, k_n, args.seed)
                s_t, _ = kernel_games(game, n, policy, k_n, args.seed, fast=False)
                row = {
                    "game": _label(name, options),
                    "players": n,
                    "policy": policy,
                    "python_games": py_n,
                    "python_games_per_cpu_s": py_n / py_t,
                    "kernel_games": k_n,
                    "kernel_games_per_cpu_s": k_n / k_t,
                    "ratio": (k_n / k_t) / (py_n / py_t),
                    "kernel_steps_per_game": k_steps / k_n,
                    "kernel_step_path_games_per_cpu_s": k_n / s_t,
                    "path_gain": s_t / k_t,
                    "python_steps_per_game": py_steps / py_n,
                }
                rows.append(row)
                print(
                    f"{row['game']:22s} {n:2d} {policy:7s} {row['python_games_per_cpu_s']:11,.0f} "
                    f"{row['kernel_games_per_cpu_s']:11,.0f} {row['ratio']:6.1f}× "
                    f"{row['kernel_steps_per_game']:10.1f} {k_n / s_t:13,.0f} {s_t / k_t:8.2f}×",
                    flush=True,
                )

    specs = [
        ("default (random rollouts to the end)", {}),
        ("ladder (greedy rollouts, round horizon)", {"rollout": "greedy", "horizon": "round"}),
    ]
    search_rows = []
    print(f"\nISMCTS iterations per CPU-second, {args.ismcts_players} players")
    print(f"{'game':14s} {'spec':40s} {'python it/s':>11s} {'fast it/s':>10s} {'ratio':>7s}")
    for name in ("flip7", "double-seven", "seven-shot"):
        if args.no_ismcts or (only and name not in only):
            continue
        game = get(name)
        states = positions(game, args.ismcts_players, 2 if args.quick else 5, args.seed)
        for label, spec in specs:
            py_iters = 20 if args.quick else (100 if name == "double-seven" else 300)
            fast_iters = 200 if args.quick else 5000
            py = ismcts_rate(game, states, {**spec, "iterations": py_iters}, "python")
            fast = ismcts_rate(game, states, {**spec, "iterations": fast_iters}, "fast")
            row = {
                "game": name,
                "players": args.ismcts_players,
                "spec": label,
                "params": spec,
                "python_iterations_per_cpu_s": py,
                "fast_iterations_per_cpu_s": fast,
                "ratio": fast / py,
            }
            search_rows.append(row)
            print(f"{name:14s} {label:40s} {py:11,.0f} {fast:10,.0f} {fast / py:6.1f}×", flush=True)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "benchmark": "fast",
                "python": platform.python_version(),
                "machine": platform.machine(),
                "quick": args.quick,
                "games": rows,
                "ismcts": search_rows,
                "numpy": np.__version__,
            },
            indent=1,
        )
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
