"""Benchmark: RL environment steps per second against the raw engine, for each game.

    .venv/bin/python bench/bench_envs.py             # ~2 s per measurement
    .venv/bin/python bench/bench_envs.py --seconds 5 --games flip7:3 seven-shot:4

A step is one player decision (chance outcomes are resolved inside and not counted). Three loops
play uniformly random legal actions with the same seeds:

- ``engine``: the raw contract (``legal_actions``, ``apply``, ``sample_chance``);
- ``pettingzoo``: ``septet.envs.pettingzoo`` on the unwrapped environment: ``last()`` (the
  observation tensor and the action mask), then ``step`` with a legal id;
- ``openspiel``: ``septet.envs.openspiel`` through ``pyspiel`` (``legal_actions``,
  ``apply_action``, chance sampled from ``chance_outcomes``), no observations.

Prints a table (steps/s and the ratio to the engine) and writes bench/results/envs.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from septet import games
from septet.core import CHANCE

DEFAULT_GAMES = [
    "double-seven:3",
    "flip7:3",
    "flip7:3:edition=classic",
    "flip7:8",
    "seven-shot:4",
]


def parse(spec: str) -> tuple[str, int, dict[str, Any]]:
    """``"flip7:3:edition=classic"`` -> ``("flip7", 3, {"edition": "classic"})``."""
    name, _, rest = spec.partition(":")
    n_text, _, opts = rest.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        options[key] = int(value) if value.isdigit() else value
    return name, int(n_text or 0), options


def timed(run_game: Callable[[int], int], seconds: float) -> float:
    """Decisions per second of ``run_game(seed) -> decisions`` over at least ``seconds``."""
    decisions, seed = 0, 0
    start = time.perf_counter()
    while True:
        decisions += run_game(seed)
        seed += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed


def engine_loop(game: Any, n: int) -> Callable[[int], int]:
    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_state(n)
        k = 0
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                k += 1
        return k

    return run


def pettingzoo_loop(game: Any, n: int) -> Callable[[int], int]:
    from septet.envs.pettingzoo import raw_env

    env = raw_env(game, n)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        env.reset(seed=seed)
        k = 0
        for _agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            # The mask is built by last(); the ids are read from the environment so that the
            # benchmark times the environment, not a scan of a large mask.
            legal = list(env.legal_actions())
            env.step(legal[rng.randrange(len(legal))])
            k += 1
        return k

    return run


def openspiel_loop(game: Any, n: int) -> Callable[[int], int]:
    from septet.envs import openspiel

    spiel_game = openspiel.load(game.name, n, **game.options_dict())

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = spiel_game.new_initial_state()
        k = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc, chosen = rng.random(), 0.0, outcomes[-1][0]
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        chosen = action
                        break
                state.apply_action(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                k += 1
        return k

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=DEFAULT_GAMES, help="game:players[:opts]")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--out", default="bench/results/envs.json")
    args = parser.parse_args()
    rows = []
    header = f"{'game':<28}{'engine/s':>11}{'pettingzoo/s':>14}{'ratio':>7}"
    header += f"{'openspiel/s':>13}{'ratio':>7}"
    print(header)
    for spec in args.games:
        name, n, options = parse(spec)
        try:
            game = games.get(name, **options)
            n = n or game.min_players
            game.observation_size(n)
        except (ImportError, AttributeError, NotImplementedError) as exc:
            print(f"{spec:<28} skipped: {exc}")
            continue
        engine = timed(engine_loop(game, n), args.seconds)
        pz = timed(pettingzoo_loop(game, n), args.seconds)
        os_ = timed(openspiel_loop(game, n), args.seconds)
        row = {
            "game": spec,
            "engine_steps_per_s": round(engine),
            "pettingzoo_steps_per_s": round(pz),
            "pettingzoo_ratio": round(pz / engine, 3),
            "openspiel_steps_per_s": round(os_),
            "openspiel_ratio": round(os_ / engine, 3),
        }
        rows.append(row)
        print(
            f"{spec:<28}{engine:>11.0f}{pz:>14.0f}{pz / engine:>7.2f}"
            f"{os_:>13.0f}{os_ / engine:>7.2f}"
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"python": platform.python_version(), "machine": platform.machine()}
    out.write_text(json.dumps({"meta": meta, "seconds": args.seconds, "rows": rows}, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
