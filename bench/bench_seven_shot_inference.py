"""How well the Expert's opponent models locate the hidden cards of Seven Shot (issue 30).

Strong's search (``--spec``) plays one-deal games at every seat; at seat 0's first card play of
tricks 3, 6 and 9 the engine's sampler draws ``--samples`` determinizations of seat 0's view,
and each weighting (uniform; the hand-made model of :mod:`septet.bots.expert.inference`; the
fitted model of :mod:`septet.bots.expert.opponent`, with and without its pass term, and
tempered) gives the weighted share of samples that put each hidden card in the hand that really
holds it, averaged over the hidden cards: the posterior's probability of the truth, card by
card (1.0 would be the oracle of ``bench/oracle_seven_shot.py``). The effective sample size
``(Σw)² / Σw²`` says how many samples the weighting leaves.

    python bench/bench_seven_shot_inference.py --players 4 --games 30 --samples 200
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

from septet.bots import make_agent
from septet.bots.expert.inference import play_likelihood
from septet.bots.expert.opponent import OpponentModel, fitted_model
from septet.core.types import CHANCE
from septet.games import get
from septet.games.seven_shot.state import PH_PLAY

CHECKPOINTS = (2, 5, 8)
"""Tricks finished at the measured moments (seat 0's first card of tricks 3, 6 and 9)."""


def weightings(players: int, states: list[Any]) -> dict[str, np.ndarray]:
    """Each weighting's (unnormalised) weights of ``states`` for seat 0."""
    out = {"uniform": np.ones(len(states))}
    out["hand-made"] = np.array([play_likelihood(st, 0) for st in states])
    fitted = fitted_model(players)
    variants = {
        "fitted": fitted,
        "fitted, plays only": OpponentModel(fitted.weights),
        "fitted, temper 0.5": fitted_model(players, 0.5),
    }
    for name, model in variants.items():
        logs = np.array([model.log_likelihood(st, 0) for st in states])
        out[name] = np.exp(logs - logs.max())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--spec", default="ismcts:iterations=5000,rollout=greedy,horizon=round")
    args = ap.parse_args()
    n = args.players
    game = get("seven-shot", target=1)
    found: dict[tuple[int, str], list[tuple[float, float]]] = {}
    for gi in range(args.games):
        rng = random.Random(gi)
        agents = [make_agent(args.spec, game) for _ in range(n)]
        s: Any = game.new_state(n)
        todo = set(CHECKPOINTS)
        while not s.is_terminal:
            p = s.current_player
            if p == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            if s.phase == PH_PLAY and p == 0 and len(s.tricks) in todo:
                todo.discard(len(s.tricks))
                view = s.view(0)
                states: list[Any] = [game.sample_state(view, rng) for _ in range(args.samples)]
                hidden = [c for c in range(49) if any(s.hands[q] >> c & 1 for q in range(1, n))]
                truth = [next(q for q in range(1, n) if s.hands[q] >> c & 1) for c in hidden]
                hit = np.array(
                    [[st.hands[q] >> c & 1 for c, q in zip(hidden, truth, strict=True)]
                     for st in states],
                ).astype(float)  # fmt: skip
                for name, w in weightings(n, states).items():
                    w = w / w.sum()
                    found.setdefault((len(s.tricks), name), []).append(
                        (float((w @ hit).mean()), 1.0 / float((w**2).sum()))
                    )
            legal = s.legal_actions()
            s.apply(agents[p].act(s.view(p), legal, rng) if len(legal) > 1 else legal[0])
    print(f"{n} players, {args.games} games, {args.samples} samples a moment")
    print(
        "| tricks done | weighting | P(hidden card in its true hand) | effective samples |", end=""
    )
    print(" moments |")
    print("|---|---|---|---|---|")
    for (tricks, name), v in sorted(found.items()):
        a = np.array(v)
        print(f"| {tricks} | {name} | {a[:, 0].mean():.3f} | {a[:, 1].mean():.0f} | {len(a)} |")


if __name__ == "__main__":
    main()
