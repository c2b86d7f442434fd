"""Fit the Expert's Seven Shot opponent model to Strong's card plays (issue 30).

Plays one-deal games of Strong's search against itself (``--spec``, every seat), takes every
card play with two or more legal cards from the finished deals (the hands rebuilt backwards,
:func:`septet.bots.expert.opponent.play_contexts`, exactly as the Expert rebuilds a sample's),
and fits the conditional logit of :mod:`septet.bots.expert.opponent` by maximum likelihood
(L-BFGS, a small L2 penalty), per player count, on four games in five; the fifth is held out.
Prints, on the held-out plays, the mean log-likelihood per play and the share of plays the
model ranks first, for the fitted model, the uniform one and the hand-made model of
:mod:`septet.bots.expert.inference` (follows only, where it is defined), and with ``--write``
writes the weights to ``src/septet/bots/expert/opponent_weights.py``.

    python bench/fit_seven_shot_opponent.py --players 3,4 --games 400 --jobs 2 --write
"""

from __future__ import annotations

import argparse
import json
import math
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from septet.bots import make_agent
from septet.bots.expert.inference import follow_probability
from septet.bots.expert.opponent import (
    FEATURE_NAMES,
    NUM_FEATURES,
    NUM_PASS_FEATURES,
    PASS_FEATURE_NAMES,
    features,
    pass_contexts,
    pass_features,
    play_contexts,
    subset_log_probability,
)
from septet.core.play import play_game
from septet.games import get
from septet.games.seven_shot.state import PH_PLAY

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "src/septet/bots/expert/opponent_weights.py"

Row = tuple[np.ndarray, int, float]  # features of the legal cards, the index played, hand model p
PassRow = tuple[np.ndarray, list[int]]  # features of the hand's cards, the indices passed


def _game(job: tuple[int, str, int, str]) -> tuple[list[Row], list[PassRow]]:
    players, spec, index, seed = job
    game = get("seven-shot", target=1)
    agents = [make_agent(spec, game) for _ in range(players)]
    last: list[Any] = []

    def keep(state: Any, _action: Any, _events: Any) -> None:
        # the last state of the play phase: the deal's end (SS-4.2) can move 7s out of hands
        if state.phase == PH_PLAY:
            last[:] = [state.clone()]

    play_game(game, agents, seed=f"{seed}:{players}:{index}", on_event=keep)
    state = last[0]
    rows: list[Row] = []
    for ctx in play_contexts(state):
        legal, f = features(ctx)
        if len(legal) < 2:
            continue
        hand_p = float("nan")
        if ctx.trick:
            hand_p = follow_probability(
                ctx.card, ctx.hand, list(ctx.trick), list(ctx.trick_sides), ctx.side, ctx.trump
            )
        rows.append((f, legal.index(ctx.card), hand_p))
    passes: list[PassRow] = []
    for pctx in pass_contexts(state):
        cards, pf = pass_features(pctx)
        passes.append((pf, [i for i, c in enumerate(cards) if pctx.passed >> c & 1]))
    return rows, passes


def _pass_nll(w: np.ndarray, rows: list[PassRow], l2: float) -> float:
    return -sum(subset_log_probability(f @ w, k, len(k)) for f, k in rows) + l2 * float(w @ w)


def fit_passes(rows: list[PassRow], l2: float = 1.0) -> np.ndarray:
    """The pass model's weights maximising the penalised likelihood of ``rows``."""
    res = minimize(_pass_nll, np.zeros(NUM_PASS_FEATURES), args=(rows, l2), method="L-BFGS-B")
    return np.asarray(res.x)


def pass_report(w: np.ndarray, rows: list[PassRow]) -> dict[str, float]:
    """Held-out mean log-likelihood per pass, fitted and uniform (1 / C(n, k))."""
    ll = sum(subset_log_probability(f @ w, k, len(k)) for f, k in rows) / len(rows)
    uni = -sum(math.log(math.comb(len(f), len(k))) for f, k in rows) / len(rows)
    return {"passes": len(rows), "pass_loglik_fitted": ll, "pass_loglik_uniform": uni}


def _nll(w: np.ndarray, rows: list[Row], l2: float) -> tuple[float, np.ndarray]:
    total = 0.0
    grad = np.zeros_like(w)
    for f, k, _ in rows:
        z = f @ w
        top = z.max()
        e = np.exp(z - top)
        s = e.sum()
        total -= z[k] - top - math.log(s)
        grad -= f[k] - (e / s) @ f
    total += l2 * float(w @ w)
    grad += 2 * l2 * w
    return total, grad


def fit(rows: list[Row], l2: float = 1.0) -> np.ndarray:
    """The weights maximising the penalised likelihood of ``rows``, shape ``(NUM_FEATURES,)``."""
    res = minimize(_nll, np.zeros(NUM_FEATURES), args=(rows, l2), jac=True, method="L-BFGS-B")
    return np.asarray(res.x)


def report(w: np.ndarray, rows: list[Row], epsilon: float) -> dict[str, float]:
    """Held-out numbers: mean log-likelihood per play (fitted with ``epsilon``, uniform, and
    on follows the hand model against the fitted one) and the share ranked first."""
    ll = ll_u = top = 0.0
    ll_f = ll_hand = 0.0
    follows = 0
    for f, k, hand_p in rows:
        z = f @ w
        p = np.exp(z - z.max())
        p = (1 - epsilon) * p / p.sum() + epsilon / len(p)
        ll += math.log(p[k])
        ll_u += math.log(1 / len(p))
        top += float(int(np.argmax(p)) == k)
        if not math.isnan(hand_p):
            follows += 1
            ll_f += math.log(p[k])
            ll_hand += math.log(hand_p)
    n = len(rows)
    return {
        "plays": n,
        "loglik_fitted": ll / n,
        "loglik_uniform": ll_u / n,
        "first_choice": top / n,
        "follows": follows,
        "loglik_fitted_follows": ll_f / max(follows, 1),
        "loglik_hand_model_follows": ll_hand / max(follows, 1),
    }


def _table(
    name: str, weights: dict[int, list[float]], names: tuple[str, ...], doc: str
) -> list[str]:
    """The lines of one ``name: dict[int, tuple[float, ...]]`` of weights, each commented with
    its feature's name, and its docstring."""
    lines = [f"{name}: dict[int, tuple[float, ...]] = {{"]
    for n, w in weights.items():
        lines.append(f"    {n}: (")
        lines += [f"        {x!r},  # {f}" for f, x in zip(names, w, strict=True)]
        lines.append("    ),")
    return [*lines, "}", f'"""{doc}"""', ""]


def write_weights(
    spec: str,
    games: int,
    seed: str,
    l2: float,
    weights: dict[int, list[float]],
    pass_weights: dict[int, list[float]],
) -> None:
    """Write the fitted weights to :data:`WEIGHTS_FILE` (``opponent_weights.py``)."""
    lines = [
        '"""The fitted weights of the Expert\'s Seven Shot opponent model (written by',
        "``bench/fit_seven_shot_opponent.py``; see :mod:`septet.bots.expert.opponent`).",
        "",
        f"Fitted to the card plays and passes of ``{spec}``",
        f"in self-play, {games} one-deal games per player count, seed ``{seed}``, L2 {l2};",
        "held-out numbers in docs/bots.md.",
        '"""',
        "",
    ]
    lines += _table(
        "WEIGHTS", weights, FEATURE_NAMES, "Weights per player count, in ``FEATURE_NAMES``' order."
    )
    doc = "The pass model's weights per player count (``PASS_FEATURE_NAMES``)."
    lines += _table("PASS_WEIGHTS", pass_weights, PASS_FEATURE_NAMES, doc)
    WEIGHTS_FILE.write_text("\n".join(lines))
    print(f"wrote {WEIGHTS_FILE}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="3,4")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--spec", default="ismcts:iterations=5000,rollout=greedy,horizon=round")
    ap.add_argument("--seed", default="opponent")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--epsilon", type=float, default=0.05)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--from-json", type=Path, help="write the weights of an earlier --json run")
    args = ap.parse_args()
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        counts = [k for k in saved if k.isdigit()]
        write_weights(
            saved["spec"], saved["games"], saved["seed"], saved.get("l2", args.l2),
            {int(k): list(saved[k]["weights"].values()) for k in counts},
            {int(k): list(saved[k]["pass_weights"].values()) for k in counts},
        )  # fmt: skip
        return
    out: dict[str, Any] = {
        "spec": args.spec, "games": args.games, "seed": args.seed, "l2": args.l2,
    }  # fmt: skip
    weights: dict[int, list[float]] = {}
    pass_weights: dict[int, list[float]] = {}
    for n in [int(x) for x in args.players.split(",")]:
        t0 = time.perf_counter()
        jobs = [(n, args.spec, i, args.seed) for i in range(args.games)]
        with Pool(args.jobs) as pool:
            per_game = pool.map(_game, jobs, chunksize=4)
        held = [r for i, g in enumerate(per_game) if i % 5 == 4 for r in g[0]]
        train = [r for i, g in enumerate(per_game) if i % 5 != 4 for r in g[0]]
        w = fit(train, args.l2)
        rep = report(w, held, args.epsilon)
        p_held = [r for i, g in enumerate(per_game) if i % 5 == 4 for r in g[1]]
        p_train = [r for i, g in enumerate(per_game) if i % 5 != 4 for r in g[1]]
        pw = fit_passes(p_train, args.l2)
        rep.update(pass_report(pw, p_held))
        pass_weights[n] = [round(float(x), 4) for x in pw]
        rep["seconds"] = time.perf_counter() - t0
        weights[n] = [round(float(x), 4) for x in w]
        out[str(n)] = {
            **rep,
            "weights": dict(zip(FEATURE_NAMES, weights[n], strict=True)),
            "pass_weights": dict(zip(PASS_FEATURE_NAMES, pass_weights[n], strict=True)),
        }
        print(
            f"{n} players: {len(train)} plays fitted, {rep['plays']} held out, "
            f"{rep['seconds']:.0f} s"
        )
        print(
            f"  log-likelihood a play: fitted {rep['loglik_fitted']:.3f}, uniform "
            f"{rep['loglik_uniform']:.3f}; first choice {rep['first_choice']:.1%}"
        )
        print(
            f"  follows ({rep['follows']}): fitted {rep['loglik_fitted_follows']:.3f}, "
            f"hand-made {rep['loglik_hand_model_follows']:.3f}"
        )
        for name, x in zip(FEATURE_NAMES, weights[n], strict=True):
            print(f"    {name:28s} {x:+.3f}")
        print(
            f"  passes ({rep['passes']}): fitted {rep['pass_loglik_fitted']:.3f}, uniform "
            f"{rep['pass_loglik_uniform']:.3f} a pass"
        )
        for name, x in zip(PASS_FEATURE_NAMES, pass_weights[n], strict=True):
            print(f"    {name:28s} {x:+.3f}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    if args.write:
        write_weights(args.spec, args.games, args.seed, args.l2, weights, pass_weights)


if __name__ == "__main__":
    main()
