"""Septet's ISMCTS against OpenSpiel's own ISMCTS bot, at equal time per move.

OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays on Septet's OpenSpiel
adapter (``septet.envs.openspiel``: the engine behind ``pyspiel``, determinizations by the
engine's ``determinize``) with random-rollout evaluation (``RolloutEvaluator``: the engine's
random playouts); Septet's ``ismcts`` plays through its views (``--spec``, compiled search when
the ``fast`` extra is installed). Equal time: OpenSpiel's simulations per move are calibrated
first so that a move takes about ``--time`` seconds of CPU, and Septet gets ``time=--time``.

Seats alternate (Septet on ``A`` seats of ``AB`` / ``ABB`` / ``ABAB``, rotated one seat per
game), chance is drawn from one seeded stream per game. Septet's result is its share of the
wins (a shared win counts in part); fair share = its seats / players.

Usage (needs the ``rl`` extra for OpenSpiel)::

    nice -n 10 .venv/bin/python bench/bench_vs_openspiel.py --game seven-shot --players 4 \\
        --games 8 --time 0.2

Prints one line per game and a summary row; writes ``bench/results/bench_vs_openspiel.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts

from septet.bots import make_agent
from septet.core.play import seat_view
from septet.envs import openspiel as sos

PATTERNS = {2: "AB", 3: "ABB", 4: "ABAB"}


def calibrate(game: Any, seconds: float, seed: int) -> int:
    """Simulations per move that take OpenSpiel's bot about ``seconds`` of CPU."""
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, sos.RolloutEvaluator(1, seed=seed), 2.0, 20, random_state=rs)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rs.choice(actions, p=probs)))
    t = time.process_time()
    bot.step(state)
    per_sim = (time.process_time() - t) / 20
    return max(1, int(seconds / per_sim))


def play(game: Any, spec: str, sims: int, seats: str, seed: int) -> list[float]:
    """One game; returns each seat's return."""
    rs = np.random.RandomState(seed)
    chance = random.Random(seed)
    septet_game = game.septet_game
    ours = make_agent(spec, septet_game)
    theirs = ismcts.ISMCTSBot(game, sos.RolloutEvaluator(1, seed=seed), 2.0, sims, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            r = chance.random()
            acc = 0.0
            pick = actions[-1]
            for a, p in zip(actions, probs, strict=True):
                acc += p
                if r < acc:
                    pick = a
                    break
            state.apply_action(int(pick))
            continue
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
        elif seats[p] == "A":
            st = state.septet_state
            action = ours.act(seat_view(st, p), st.legal_actions(), random.Random(seed * 31 + p))
            state.apply_action(septet_game.action_to_id(action, st.num_players))
        else:
            state.apply_action(int(theirs.step(state)))
    return [float(x) for x in state.returns()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="seven-shot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move (each side)")
    parser.add_argument("--spec", default=None, help="Septet's agent (default: ismcts per game)")
    parser.add_argument("--option", action="append", default=[], help="game option k=v")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench/results/bench_vs_openspiel.json")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    game = sos.load(args.game, args.players, **options)
    spec = args.spec or (
        f"ismcts:time={args.time},rollout=greedy,horizon=round"
        if args.game != "double-seven"
        else f"ismcts:time={args.time},rollout=greedy,tree=1,bias=1,utility=score"
    )
    sims = calibrate(game, args.time, args.seed)
    pattern = PATTERNS[args.players]
    shares = []
    for g in range(args.games):
        rot = g % args.players
        seats = pattern[-rot:] + pattern[:-rot] if rot else pattern
        ret = play(game, spec, sims, seats, args.seed * 1000 + g)
        won = [p for p in range(args.players) if ret[p] > 0]
        share = sum(1 for p in won if seats[p] == "A") / len(won) if won else 0.0
        shares.append(share)
        print(f"game {g}: seats {seats}, winners {won}, Septet's share {share:.2f}", flush=True)
    fair = pattern.count("A") / args.players
    mean = sum(shares) / len(shares)
    sd = math.sqrt(sum((s - mean) ** 2 for s in shares) / max(1, len(shares) - 1))
    half = 1.96 * sd / math.sqrt(len(shares))
    row = {
        "game": args.game,
        "options": options,
        "players": args.players,
        "septet": spec,
        "openspiel_simulations_per_move": sims,
        "seconds_per_move": args.time,
        "games": len(shares),
        "septet_share": mean,
        "interval": [max(0.0, mean - half), min(1.0, mean + half)],
        "fair_share": fair,
    }
    print(
        f"| {args.game} | {args.players} | {spec} | OpenSpiel ISMCTSBot ({sims} simulations) | "
        f"{len(shares)} | {mean:.1%} [{row['interval'][0]:.1%}, {row['interval'][1]:.1%}] | "
        f"{fair:.0%} |"
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(row, indent=1))


if __name__ == "__main__":
    main()
