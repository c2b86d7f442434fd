"""Tune the Seven Shot greedy's weights against greedy itself (issue 30; docs/bots.md).

A coordinate search over ``septet.bots.greedy.seven_shot.WEIGHT_NAMES``: each weight in turn is
tried at ``w + f * w`` for ``f`` in -1, -0.5, 0.5, 1, 2 (a weight of 0 steps by 1; the two trick
thresholds by ±1), each try scored by duplicate one-deal games (``target=1``, every seating of
each deal) of the candidate against the greedy bot at 3 and at 4 players, played by the compiled
kernel's ``weighted_card``; a try is kept when ``(share at 4 players - 1/2) + 1.5 * (share at 3
players - 1/3)`` gains more than 0.002. Prints each kept step and the weights after each round.

    PYTHONPATH=src python bench/tune_seven_shot_greedy.py --deals 6000 --rounds 3 --seed 1

(about 2 minutes a round on one core). ``--check W`` (comma-separated weights) only scores
``W`` on ``--deals`` deals of ``--seed``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from septet.bots.greedy.seven_shot import GREEDY_WEIGHTS, WEIGHT_NAMES
from septet.fast import seven_shot as K
from septet.fast.rng import rngs_for_seeds
from septet.games import get

THRESHOLDS = ("pressure_from", "danger_at")


@njit(cache=True)
def _play(start: np.ndarray, rngs: np.ndarray, masks: np.ndarray, wa: np.ndarray,
          wb: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """``out[d]``: the seats of ``masks`` (weights ``wa``; the others ``wb``) mean share of the
    wins of deal ``d`` over the seatings of ``masks`` (the same generator for each seating)."""
    legal = np.zeros(K.LEGAL_BUF, dtype=np.int64)
    buf = np.zeros(K.BUF, dtype=np.int64)
    n = start[K.H_N]
    for d in range(rngs.shape[0]):
        total = 0.0
        for r in range(masks.shape[0]):
            s = start.copy()
            rng = rngs[d].copy()
            while s[K.H_CUR] != K.TERMINAL:
                tm = s[K.H_CUR]
                if tm == K.CHANCE:
                    K.apply_chance(s, K.sample_chance(s, rng), buf)
                    continue
                cnt = K.legal_actions(s, legal)
                a = legal[0]
                if cnt > 1:
                    base = K.NUM_CARDS if legal[0] >= K.NUM_CARDS else 0
                    m = 0
                    for i in range(cnt):
                        m |= 1 << (legal[i] - base)
                    w = wa if (masks[r] >> tm) & 1 else wb
                    a = base + K.weighted_card(s, m, base > 0, w)
                K.apply_action(s, a, buf)
            won = 0
            mine = 0
            for p in range(n):
                if K.is_winner(s, p):
                    won += 1
                    mine += (masks[r] >> p) & 1
            total += mine / max(1, won)
        out[d] = total / masks.shape[0]


def share(players: int, w: np.ndarray, deals: int, seed: int) -> tuple[float, float]:
    """The mean share of ``w`` against greedy's weights and its standard error."""
    start = K.encode(get("seven-shot", target=1).new_state(players))
    rngs = rngs_for_seeds([seed * 1_000_003 + d for d in range(deals)])
    masks = np.array([0b0101, 0b1010] if players == 4 else [1, 2, 4], dtype=np.int64)
    out = np.zeros(deals)
    _play(start, rngs, masks, w, np.array(GREEDY_WEIGHTS), out)
    return float(out.mean()), float(out.std(ddof=1) / np.sqrt(deals))


def objective(w: np.ndarray, deals: int, seed: int) -> tuple[float, float, float]:
    four = share(4, w, deals, seed)[0]
    three = share(3, w, deals, seed)[0]
    return (four - 0.5) + 1.5 * (three - 1 / 3), four, three


def climb(deals: int, rounds: int, seed: int) -> np.ndarray:
    w = np.array(GREEDY_WEIGHTS)
    best, _, _ = objective(w, deals, seed)
    began = time.time()
    for r in range(rounds):
        for i, name in enumerate(WEIGHT_NAMES):
            if name in THRESHOLDS:
                tries = [w[i] - 1, w[i] + 1]
            else:
                step = w[i] if w[i] != 0 else 1.0
                tries = [w[i] + f * step for f in (-1.0, -0.5, 0.5, 1.0, 2.0)]
            for v in tries:
                cand = w.copy()
                cand[i] = v
                score, four, three = objective(cand, deals, seed)
                if score > best + 0.002:
                    best, w = score, cand
                    print(f"{time.time() - began:.0f}s round {r} {name}={v:g}: "
                          f"4p {four:.4f} 3p {three:.4f}", flush=True)  # fmt: skip
        print(f"round {r}:", ",".join(f"{x:g}" for x in w), flush=True)
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=6000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", default="")
    args = ap.parse_args()
    if args.check:
        w = np.array([float(x) for x in args.check.split(",")])
        for players in (4, 3):
            m, se = share(players, w, args.deals, args.seed)
            print(f"{players}p: {100 * m:.1f}% ± {196 * se:.1f} against greedy")
        return
    climb(args.deals, args.rounds, args.seed)


if __name__ == "__main__":
    main()
