"""Benchmark: the arena runner's throughput against a plain single-process loop.

    .venv/bin/python bench/bench_simulate.py                      # 20000 games as in the issue
    .venv/bin/python bench/bench_simulate.py --games 2000 --agents random

Plays the same games (same seeds, same seatings) of ``flip7`` with four agents (``greedy`` by
default, ``random`` when the game has no greedy bot) four ways:

- ``baseline``: a plain loop of ``septet.core.play_game`` in this process (the engine with the
  agents, no arena);
- ``runner w=1``: ``septet.arena.runner.run_local`` in this process (schedule, chunks, results);
- ``runner w=W``: the same with W worker processes (default 2);
- ``septet simulate``: the whole command in a subprocess (``--workers W``; start-up, the report,
  openskill ratings and result files included, plots off).

Prints games/s and the ratio to the baseline (runner overhead: w=1 should be close to 1.0; W
workers close to W on W free cores) and writes ``bench/results/simulate.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from septet import games
from septet.arena.runner import make_job, run_local
from septet.arena.schedule import Schedule
from septet.bots import make_agent
from septet.core.play import play_game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="flip7")
    parser.add_argument("--agents", default="greedy", help="the spec for all four seats")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/simulate.json"))
    parser.add_argument("--skip-cli", action="store_true", help="skip the subprocess run")
    args = parser.parse_args(argv)

    game = games.get(args.game)
    spec = args.agents
    try:
        make_agent(spec, game)
    except Exception as exc:
        print(f"{spec} is not available for {args.game} ({exc}); using random")
        spec = "random"
    sched = Schedule((spec,) * args.players, args.players, args.games, args.seed)
    rows: list[dict[str, object]] = []

    # Baseline: the same games in a plain loop.
    agents = [make_agent(spec, game) for _ in range(args.players)]
    start = time.perf_counter()
    for i in range(args.games):
        play_game(game, [agents[a] for a in sched.seating(i)], sched.game_seed(i))
    base = time.perf_counter() - start
    rows.append({"run": "baseline (play_game loop)", "seconds": base})

    job = make_job(game, sched)
    for w in sorted({1, args.workers}):
        out = run_local(job, workers=w)
        assert len(out.results) == args.games and not any(r.error for r in out.results)
        rows.append({"run": f"runner w={w}", "seconds": out.elapsed_s})

    if not args.skip_cli:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [
                sys.executable, "-m", "septet.cli", "simulate", args.game,
                "--agents", ",".join([spec] * args.players), "--games", str(args.games),
                "--workers", str(args.workers), "--seed", str(args.seed), "--out", tmp,
                "--no-plots", "--no-progress",
            ]  # fmt: skip
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=dict(os.environ))
            rows.append(
                {
                    "run": f"septet simulate -w {args.workers}",
                    "seconds": time.perf_counter() - start,
                }
            )

    table = Table(title=f"{args.game}: {args.games} games, {args.players} x {spec}")
    for col in ("run", "seconds", "games/s", "vs baseline"):
        table.add_column(col, justify="left" if col == "run" else "right")
    for row in rows:
        secs = float(row["seconds"])  # type: ignore[arg-type]
        row["games_per_s"] = args.games / secs
        row["ratio"] = base / secs
        table.add_row(
            str(row["run"]), f"{secs:.2f}", f"{args.games / secs:,.0f}", f"{base / secs:.2f}x"
        )
    Console().print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "benchmark": "simulate",
        "game": args.game,
        "agent": spec,
        "players": args.players,
        "games": args.games,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "rows": rows,
    }
    args.out.write_text(json.dumps(data, indent=1), encoding="utf-8")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
