"""Each Flip 7 bot's mean round score against the exact optimum (classic edition, one player).

The setting of the exact values in ``docs/bots.md`` ("Reference values"): one player alone in a
round from a fresh classic deck (every card drawn is theirs), hit or stay until they stay, bust
or flip 7. It is built on the engine as a 2-player round whose other seat has busted before the
deal, with the deck restricted to the cards of each row of the table:

===============================================  ================================
deck                                             optimal expected round score
===============================================  ================================
numbers 0-12 (79 cards)                          154813132069 / 8338880550 = 18.5652176141
numbers + the six modifiers                      20.2291054307
numbers + modifiers + Freeze + Second Chance     20.5100463390
full deck (94 cards)                             not known
===============================================  ================================

For each bot, the mean round score over ``--rounds`` rounds (``greedy`` and ``random`` many
more, in the compiled kernels, which play exactly as the Python bots), with a 95% interval, and
the gap to the optimum. ``flip7-ev`` is the exact hit/stay programme (its ``single`` mode is
this setting), so it should match the optimum within the interval.

Usage::

    nice -n 10 .venv/bin/python bench/bench_flip7_optimum.py [--rounds 2000] [--ismcts SPEC]

Prints a Markdown table; writes ``bench/results/bench_flip7_optimum.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path
from typing import Any

from septet.bots import make_agent
from septet.core.play import seat_view
from septet.games import get
from septet.games.flip7 import cards as C

DECKS = [
    ("numbers 0-12", ("numbers",), 154813132069 / 8338880550),
    ("numbers + modifiers", ("numbers", "modifiers"), 20.2291054307),
    ("numbers + modifiers + Freeze + Second Chance", ("numbers", "modifiers", "fs"), 20.5100463390),
    ("full deck", ("numbers", "modifiers", "fs", "flip3"), None),
]


def deck_counts(parts: tuple[str, ...]) -> dict[str, int]:
    """The classic deck restricted to ``parts``, as ``{token: count}``."""
    full = C.classic_deck()
    out = {C.TOKENS[k]: 0 for k in C.CLASSIC_KINDS}
    for k in C.CLASSIC_KINDS:
        keep = (
            (C.IS_NUM[k] and "numbers" in parts)
            or (C.IS_MOD[k] and "modifiers" in parts)
            or (k in (C.FREEZE, C.SECOND) and "fs" in parts)
            or (k == C.FLIP3 and "flip3" in parts)
        )
        out[C.TOKENS[k]] = full[k] if keep else 0
    return out


def alone_round(parts: tuple[str, ...]) -> Any:
    """A classic 2-player state at the first draw of a round in which seat 1 has busted: seat 0
    plays the round alone from a fresh (restricted) deck."""
    game = get("flip7", edition="classic")
    state = game.new_state(2)
    d = state.state_dict()
    d.update(
        {
            "round": 1,
            "dealer": 1,
            "to_move": -1,
            "decision": None,
            "draw": {"player": 0, "set_aside": False},
            "stack": [{"kind": "deal", "next": 2}],
            "deck": deck_counts(parts),
            "discard": {t: 0 for t in d["discard"]},
        }
    )
    d["players"][1]["status"] = "busted"
    state.load_state_dict(d)
    return state


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    m = sum(values) / len(values)
    var = sum((v - m) ** 2 for v in values) / max(1, len(values) - 1)
    return m, 1.96 * math.sqrt(var / len(values))


def python_rounds(spec: str, parts: tuple[str, ...], rounds: int, seed: int) -> list[float]:
    """Round scores of seat 0 played by ``spec`` on the Python engine."""
    game = get("flip7", edition="classic")
    agent = make_agent(spec, game)
    rng = random.Random(seed)
    out = []
    for i in range(rounds):
        state = alone_round(parts)
        while state.round_index() == 1 and not state.is_terminal:
            p = state.current_player
            if p < 0:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                a = (
                    legal[0]
                    if len(legal) == 1
                    else agent.act(seat_view(state, p), legal, random.Random(seed * 7919 + i))
                )
                state.apply(a)
        out.append(state.scores()[0])
    return out


def kernel_rounds(policy: str, parts: tuple[str, ...], rounds: int, seed: int) -> list[float]:
    """Round scores of seat 0 played by ``policy`` in the compiled kernels."""
    from septet.fast.batch import playouts

    out = playouts(alone_round(parts), rounds, [policy, "random"], horizon="round", seed=seed)
    return [float(x) for x in out.scores[:, 0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per Python bot")
    parser.add_argument("--kernel-rounds", type=int, default=200_000)
    parser.add_argument("--ismcts", default="ismcts:iterations=2000,rollout=greedy,horizon=round")
    parser.add_argument("--decks", default="1,2,3,4", help="rows of the deck table (1-4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench/results/bench_flip7_optimum.json")
    args = parser.parse_args()
    chosen = {int(x) for x in args.decks.split(",")}
    rows = []
    print("| deck | bot | rounds | mean round score [95% CI] | optimum | gap |", flush=True)
    print("|---|---|---|---|---|---|")
    for number, (label, parts, optimum) in enumerate(DECKS, 1):
        if number not in chosen:
            continue
        bots: list[tuple[str, list[float]]] = [
            ("random", kernel_rounds("random", parts, args.kernel_rounds, args.seed)),
            ("greedy", kernel_rounds("greedy", parts, args.kernel_rounds, args.seed)),
        ]
        if args.rounds > 0:  # --rounds 0: the compiled bots only
            bots.append(("flip7-ev", python_rounds("flip7-ev", parts, args.rounds, args.seed)))
            ism = python_rounds(args.ismcts, parts, max(1, args.rounds // 4), args.seed)
            bots.append((args.ismcts, ism))
        for bot, scores in bots:
            m, h = interval(scores)
            gap = "" if optimum is None else f"{m - optimum:+.2f}"
            opt = "not known" if optimum is None else f"{optimum:.4f}"
            print(
                f"| {label} | {bot} | {len(scores)} | {m:.2f} [{m - h:.2f}, {m + h:.2f}] "
                f"| {opt} | {gap} |",
                flush=True,
            )
            rows.append(
                {
                    "deck": label,
                    "bot": bot,
                    "rounds": len(scores),
                    "mean": m,
                    "half_width": h,
                    "optimum": optimum,
                }
            )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
