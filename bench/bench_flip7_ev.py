"""Benchmark: ``flip7-ev`` hit/stay decisions per second, against greedy on the same positions.

    .venv/bin/python bench/bench_flip7_ev.py                 # 2, 3, 4 players, Vengeance
    .venv/bin/python bench/bench_flip7_ev.py --games 10 --edition classic --players 2

The positions are every hit/stay decision with both choices legal in ``--games`` games of greedy
self-play per table size (fixed seeds, so every run and every version times the same
positions). Each position is decided by a fresh ``Flip7EVAgent`` (the solver's memo lives for
one decision, as in play) and, as the baseline in the same process, by the greedy bot.

Prints a table (positions; flip7-ev and greedy milliseconds of CPU per decision and their
ratio; how flip7-ev settled its decisions: the one-step test, the exact programme, or the
reduced model after the exact one ran past its ``max_states`` budget) and writes JSON to
``bench/results/flip7_ev.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from septet.bots.flip7_ev import Flip7EVAgent
from septet.bots.greedy.flip7 import GreedyAgent
from septet.core.game import Action, Game
from septet.core.play import play_game
from septet.core.types import JSON
from septet.games import get


class _Recorder:
    """A greedy agent that keeps the views of its hit/stay decisions with both choices legal."""

    def __init__(self, game: Game[Any]) -> None:
        self.name = "greedy"
        self.greedy = GreedyAgent(game)
        self.positions: list[tuple[dict[str, JSON], list[Action]]] = []

    def act(self, view: dict[str, JSON], legal: Sequence[Action], rng: random.Random) -> Action:
        decision = view.get("decision") or {}
        if decision.get("kind") == "hit_stay" and len(legal) == 2:
            self.positions.append((view, list(legal)))
        return self.greedy.act(view, legal, rng)


def positions(
    game: Game[Any], players: int, games: int, seed: int
) -> list[tuple[dict[str, JSON], list[Action]]]:
    """Every hit/stay position of ``games`` greedy self-play games (seeds ``bench:seed:i``)."""
    found: list[tuple[dict[str, JSON], list[Action]]] = []
    for i in range(games):
        recorders = [_Recorder(game) for _ in range(players)]
        play_game(game, recorders, seed=f"bench:{seed}:{i}")
        for r in recorders:
            found.extend(r.positions)
    return found


def time_decisions(
    game: Game[Any], found: list[tuple[dict[str, JSON], list[Action]]]
) -> dict[str, Any]:
    """CPU seconds of flip7-ev and of greedy over ``found``, and flip7-ev's settlement counts."""
    rng = random.Random(0)
    stats: dict[str, int] = {}
    ev_cpu = 0.0
    for view, legal in found:
        agent = Flip7EVAgent(game)
        start = time.process_time()
        agent.act(view, legal, rng)
        ev_cpu += time.process_time() - start
        for key, value in agent.stats.items():
            stats[key] = stats.get(key, 0) + value
    greedy = GreedyAgent(game)
    start = time.process_time()
    for view, legal in found:
        greedy.act(view, legal, rng)
    greedy_cpu = time.process_time() - start
    return {"ev_cpu": ev_cpu, "greedy_cpu": greedy_cpu, "stats": stats}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="greedy self-play games per row")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--edition", default="vengeance", choices=("vengeance", "classic"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/flip7_ev.json"))
    args = parser.parse_args(argv)
    game = get("flip7", edition=args.edition)
    print(
        f"{'players':>7} {'positions':>9} {'ev ms':>8} {'greedy ms':>9} {'ratio':>7} "
        f"{'one-step':>8} {'exact':>6} {'reduced':>7} {'race':>5}"
    )
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        found = positions(game, players, args.games, args.seed)
        t = time_decisions(game, found)
        n = len(found)
        st = t["stats"]
        row = {
            "edition": args.edition,
            "players": players,
            "positions": n,
            "ev_ms": 1000 * t["ev_cpu"] / n,
            "greedy_ms": 1000 * t["greedy_cpu"] / n,
            "ratio": t["ev_cpu"] / t["greedy_cpu"] if t["greedy_cpu"] else float("inf"),
            "settled": st,
        }
        rows.append(row)
        print(
            f"{players:7d} {n:9d} {row['ev_ms']:8.2f} {row['greedy_ms']:9.3f} "
            f"{row['ratio']:7.0f} {st['one_step']:8d} {st['solved']:6d} {st['reduced']:7d} "
            f"{st['race']:5d}"
        )
    load = os.getloadavg()
    print(f"load average during the run: {load[0]:.1f} (this machine's cores: {os.cpu_count()})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows, "load_average": load}, indent=1))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
