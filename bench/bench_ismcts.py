"""ISMCTS iterations per second per game (4 players) and where the time goes.

For each game, positions are reached by seeded random play (player nodes with 2+ legal actions,
spread over the game); from each, one ISMCTS move is searched with a fixed iteration budget.
The time of each iteration is split into: ``sample`` (``Game.sample_state`` from the view),
``tree`` (selection and expansion: legal actions, UCB, ``apply`` down the tree, chance
sampling), ``rollout`` (random or greedy play to the end of the game) and the rest (back
propagation, bookkeeping).

Usage::

    .venv/bin/python bench/bench_ismcts.py [--iterations 200] [--positions 5] [--rollout random]
        [--games flip7,double-seven,seven-shot] [--players 4] [--spec horizon=round,tree=1]
        [--engine python|fast]

``--engine fast`` times the compiled search (``septet.fast.search``; the time split is then not
measured); ``bench/bench_fast.py`` runs both on the same positions and prints the ratio.

``--spec`` adds ISMCTS parameters (those of the ``ismcts:`` spec string, e.g. ``horizon=round``
stops rollouts at the end of the round or deal).

Prints a table and writes ``bench/results/bench_ismcts.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from septet.bots.ismcts import ISMCTSAgent
from septet.core.game import Game, State
from septet.core.types import CHANCE, JSON
from septet.games import get


class TimedISMCTS(ISMCTSAgent):
    """ISMCTS that accounts its time to sampling, tree walk and rollouts."""

    def __init__(self, game: Game[Any], **kw: Any) -> None:
        super().__init__(game, **kw)
        self.t_sample = self.t_rollout = self.t_iter = 0.0
        self.rollout_steps = 0

    def _sample(self, view: Mapping[str, JSON], rng: random.Random) -> State:
        t = time.perf_counter()
        try:
            return super()._sample(view, rng)
        finally:
            self.t_sample += time.perf_counter() - t

    def _rollout(self, state: State, rng: random.Random, round_index: int | None) -> None:
        t = time.perf_counter()
        before = len(state.history)
        super()._rollout(state, rng, round_index)
        self.rollout_steps += len(state.history) - before
        self.t_rollout += time.perf_counter() - t

    def _iterate(self, root: Any, state: State, seat: int, rng: random.Random) -> None:
        t = time.perf_counter()
        super()._iterate(root, state, seat, rng)
        self.t_iter += time.perf_counter() - t


def positions(game: Game[Any], players: int, count: int, seed: int) -> list[State]:
    """``count`` player-node positions with 2+ legal actions from seeded random games."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = game.new_state(players)
        candidates: list[State] = []
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                candidates.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
        if candidates:
            step = max(1, len(candidates) // (count + 1))
            for s in candidates[step::step][: count - len(out)]:
                out.append(s)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rollout", default="random", choices=["random", "greedy"])
    parser.add_argument("--games", default="flip7,double-seven,seven-shot")
    parser.add_argument("--spec", default="", help="more ismcts parameters: k=v,k=v")
    parser.add_argument("--engine", default="python", choices=["python", "fast"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench/results/bench_ismcts.json")
    args = parser.parse_args()

    extra = dict(item.split("=", 1) for item in args.spec.split(",") if item)
    rows = []
    for name in args.games.split(","):
        game = get(name)
        params: dict[str, Any] = {
            "iterations": args.iterations,
            "rollout": args.rollout,
            "engine": args.engine,
        }
        agent = TimedISMCTS(game, **(params | extra))  # --spec overrides the flags
        iters = 0
        wall = 0.0
        for i, state in enumerate(positions(game, args.players, args.positions, args.seed)):
            seat = state.current_player
            t = time.perf_counter()
            agent.act(state.view(seat), state.legal_actions(), random.Random(i))
            wall += time.perf_counter() - t
            iters += agent.last_iterations
        tree = agent.t_iter - agent.t_rollout
        rows.append(
            {
                "game": name,
                "players": args.players,
                "rollout": args.rollout,
                "spec": args.spec,
                "engine": args.engine,
                "iterations": iters,
                "seconds": round(wall, 3),
                "iterations_per_s": round(iters / wall, 1),
                "share_sample": round(agent.t_sample / wall, 3),
                "share_tree": round(tree / wall, 3),
                "share_rollout": round(agent.t_rollout / wall, 3),
                "share_other": round(max(0.0, 1 - (agent.t_sample + agent.t_iter) / wall), 3),
                "rollout_steps_per_iteration": round(agent.rollout_steps / max(iters, 1), 1),
            }
        )
        print(
            f"{name:13s} {args.players}p {args.rollout:6s} {args.spec:14s}"
            f" {rows[-1]['iterations_per_s']:8.1f} it/s"
            f"  sample {rows[-1]['share_sample']:5.1%}  tree {rows[-1]['share_tree']:5.1%}"
            f"  rollout {rows[-1]['share_rollout']:5.1%}"
            f"  ({rows[-1]['rollout_steps_per_iteration']} rollout steps/it)",
            flush=True,
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"args": vars(args), "rows": rows}, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
