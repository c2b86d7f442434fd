"""Benchmark: random playouts per registered game and player count.

    .venv/bin/python bench/bench_engines.py                       # every game, every count
    .venv/bin/python bench/bench_engines.py --games 500 flip7 --players 4
    septet bench flip7 --games 500 --players 4                    # the same, installed

For each configuration: games/s and steps/s (actions and chance outcomes) of
``septet.core.random_playout`` from a new state, mean steps per game, and the peak Python memory
of a batch of playouts (traced in a separate, untimed pass). Prints a table and writes JSON
(default ``bench/results/engines.json``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from septet.arena.bench import bench_engines, rows_table, write_json


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--games", type=int, default=200, help="playouts per configuration")
    parser.add_argument("--players", type=int, action="append", help="player counts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/engines.json"))
    args = parser.parse_args(argv)
    rows = bench_engines(args.names or None, args.games, args.seed, args.players)
    Console().print(rows_table(rows))
    path = write_json(rows, args.out, {"games_per_config": args.games, "seed": args.seed})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
