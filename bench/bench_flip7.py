"""Benchmark: full Flip 7 games to 200 per second, both editions.

    .venv/bin/python bench/bench_flip7.py                  # 4 players, 300 games per row
    .venv/bin/python bench/bench_flip7.py --games 1000 --players 4 --profile

Rows (one process, one core):

- ``random``: ``septet.core.random_playout`` (uniform random actions, exact chance sampling);
- ``threshold``: a simple threshold policy in the engine loop: stay at 20 points or more
  (``state.round_score(seat)``), otherwise hit; any other choice is the first legal action;
- ``threshold-view``: the same policy as an agent would run it, reading ``view(seat)``;
- ``greedy``: ``septet.bots.greedy.flip7.GreedyAgent`` through ``play_game`` (views, records).

Prints a table (games per wall second and per CPU second of this process, steps/s, mean steps
and rounds per game) and writes JSON to
``bench/results/flip7.json``; ``--profile`` adds the top functions of a cProfile run of the
random classic row to the output.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from septet.arena.bench import profile_playouts, time_random_games
from septet.bots.greedy.flip7 import GreedyAgent
from septet.core.play import play_game
from septet.core.types import CHANCE
from septet.games import get

STAY_AT = 20
"""The threshold policies stay at this many round points or more."""

Policy = Callable[[Any, int, list[Any]], Any]
"""``policy(state, seat, legal)``: the legal action the seat to move plays."""


def run_random(game: Any, players: int, games: int, seed: int) -> tuple[int, int]:
    t = time_random_games(
        game, players, games, random.Random(seed), tally=lambda s: {"rounds": _rounds(s)}
    )
    return int(t["steps"]), int(t["rounds"])


def _rounds(state: Any) -> int:
    return int(state.view(None)["round"])


def stay_direct(state: Any, seat: int, legal: list[Any]) -> Any:
    """The threshold policy in the engine loop, reading ``state.round_score(seat)``."""
    if len(legal) == 2 and str(legal[1]) == "stay":
        return legal[1] if state.round_score(seat) >= STAY_AT else legal[0]
    return legal[0]


def stay_from_view(state: Any, seat: int, legal: list[Any]) -> Any:
    """The same policy as an agent would run it, reading ``view(seat)``."""
    view = state.view(seat)
    if view["decision"]["kind"] == "hit_stay" and len(legal) == 2:
        score = view["players"][seat]["round_score"]
        return legal[1] if score >= STAY_AT else legal[0]
    return legal[0]


def run_policy(game: Any, players: int, games: int, seed: int, policy: Policy) -> tuple[int, int]:
    """Play ``games`` games with ``policy`` in every seat and exact chance from ``seed``;
    returns the total steps and rounds."""
    steps = rounds = 0
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state(players)
        while True:
            p = state.current_player
            if p == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if p < 0:
                break
            state.apply(policy(state, p, state.legal_actions()))
        steps += len(state.history)
        rounds += _rounds(state)
    return steps, rounds


def run_greedy(game: Any, players: int, games: int, seed: int) -> tuple[int, int]:
    steps = rounds = 0
    for i in range(games):
        agents = [GreedyAgent(game) for _ in range(players)]
        result = play_game(game, agents, seed=f"{seed}:{i}")
        steps += len(result.state.history)
        rounds += _rounds(result.state)
    return steps, rounds


RUNNERS: dict[str, Callable[[Any, int, int, int], tuple[int, int]]] = {
    "random": run_random,
    "threshold": partial(run_policy, policy=stay_direct),
    "threshold-view": partial(run_policy, policy=stay_from_view),
    "greedy": run_greedy,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="random,threshold,threshold-view,greedy")
    parser.add_argument("--profile", action="store_true", help="profile the random classic row")
    parser.add_argument("--out", type=Path, default=Path("bench/results/flip7.json"))
    args = parser.parse_args(argv)
    rows = []
    print(
        f"{'edition':10} {'bot':14} {'games/s':>9} {'games/cpu-s':>11} {'steps/s':>10} "
        f"{'steps/game':>10} {'rounds/game':>11}"
    )
    for edition in ("classic", "vengeance"):
        game = get("flip7", edition=edition)
        for bot in args.bots.split(","):
            start = time.perf_counter()
            cpu = time.process_time()
            steps, rounds = RUNNERS[bot](game, args.players, args.games, args.seed)
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu
            row = {
                "edition": edition,
                "bot": bot,
                "players": args.players,
                "games": args.games,
                "seconds": elapsed,
                "games_per_s": args.games / elapsed,
                "games_per_cpu_s": args.games / cpu,
                "steps_per_s": steps / elapsed,
                "steps_per_game": steps / args.games,
                "rounds_per_game": rounds / args.games,
            }
            rows.append(row)
            print(
                f"{edition:10} {bot:14} {row['games_per_s']:9.1f} {row['games_per_cpu_s']:11.1f} "
                f"{row['steps_per_s']:10.0f} "
                f"{row['steps_per_game']:10.1f} {row['rounds_per_game']:11.2f}"
            )
    profile = None
    if args.profile:
        game = get("flip7", edition="classic")
        profile = profile_playouts(game, args.players, args.games, args.seed, top=15)
        print(profile)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()
    print(f"load average during the run: {load[0]:.1f} (this machine's cores: {os.cpu_count()})")
    args.out.write_text(
        json.dumps({"rows": rows, "profile": profile, "load_average": load}, indent=1)
    )
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
