"""Benchmark: the odds page's answer (``POST /api/score/flip7/odds``) against the programme of
``septet advise flip7`` itself, on the same positions, in one run: the Python programme (the
baseline, as before the compiled solver) and the compiled one (:mod:`septet.bots.flip7_ev_fast`).

    .venv/bin/python bench/bench_score_odds.py                      # Vengeance, 40 positions
    .venv/bin/python bench/bench_score_odds.py --edition classic --positions 20

The positions are hit/stay decisions of greedy self-play (4 players, fixed seeds): your row and
every other card seen since the shuffle (what a player taps on the odds page). Each is answered
four ways: :func:`septet.bots.flip7_advice.advise_position` with the Python solver (the
baseline) and with the compiled solver (what the command and the page run when numba is
installed; the answers must be equal); the endpoint with an empty cache (HTTP, validation, the
worker thread); the endpoint again (the cache). The compiled code is loaded (or compiled) once
before timing. Prints milliseconds per answer (median, 90th and 95th percentile, worst) and the
ratios to the baseline (the machine is shared and noisy: read the ratios), and writes JSON to
``bench/results/score_odds.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import septet.bots.flip7_ev_fast as fast_ev
from septet.bots.flip7_advice import advise_position, build_position
from septet.bots.flip7_ev import fresh_pool
from septet.bots.greedy.flip7 import GreedyAgent
from septet.core.game import Action, Game
from septet.core.play import play_game
from septet.core.types import JSON
from septet.games import get
from septet.games.flip7 import cards as C


class _Recorder:
    def __init__(self, game: Game[Any], seat: int) -> None:
        self.name = "greedy"
        self.greedy = GreedyAgent(game)
        self.seat = seat
        self.found: list[dict[str, JSON]] = []

    def act(self, view: dict[str, JSON], legal: Sequence[Action], rng: random.Random) -> Action:
        decision = view.get("decision") or {}
        if decision.get("kind") == "hit_stay" and len(legal) == 2:
            self.found.append(view)
        return self.greedy.act(view, legal, rng)


def positions(edition: str, limit: int, seed: int) -> list[dict[str, Any]]:
    """Odds requests (row, seen) from hit/stay decisions of 4-player greedy games."""
    game = get("flip7", edition=edition)
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < limit and i < 50:
        recorders = [_Recorder(game, s) for s in range(4)]
        play_game(game, recorders, seed=f"bench-odds:{seed}:{i}")
        i += 1
        for r in recorders:
            for view in r.found:
                players = view["players"]
                assert isinstance(players, list)
                me = players[r.seat]
                row = [str(t) for t in me["row"]]  # type: ignore[index]
                deck = view["deck"]
                assert isinstance(deck, dict)
                fresh = fresh_pool(edition)
                seen: list[str] = []
                for k, n in enumerate(fresh):
                    gone = n - int(deck.get(C.TOKENS[k], 0)) - row.count(C.TOKENS[k])
                    seen.extend([C.TOKENS[k]] * max(0, gone))
                if sum(fresh) - len(row) - len(seen) != sum(int(v) for v in deck.values()):
                    continue  # a reshuffle this round: the deck is not "fresh less seen"
                out.append({"edition": edition, "row": row, "seen": seen})
    return out[:limit]


def _stats(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {
        "median_ms": statistics.median(ordered),
        "p90_ms": ordered[int(0.9 * (len(ordered) - 1))],
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
        "max_ms": ordered[-1],
        "mean_ms": statistics.fmean(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="vengeance", choices=["vengeance", "classic"])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="bench/results/score_odds.json")
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    import septet.server.score.api as score_api
    from septet.server import Settings, create_app

    reqs = positions(args.edition, args.positions, args.seed)
    compiled = fast_ev.load() is not None  # load (or compile) it before timing anything
    python_only = lambda: False  # noqa: E731
    base: list[float] = []
    fast: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    methods: dict[str, int] = {}
    tmp = Path("bench/results")
    tmp.mkdir(parents=True, exist_ok=True)
    db = tmp / "score_odds_bench.sqlite3"
    db.unlink(missing_ok=True)
    with TestClient(create_app(Settings(database_url=f"sqlite:///{db}"))) as client:
        for req in reqs:
            mine, pool = build_position(req["edition"], req["row"], req["seen"])
            available, fast_ev.available = fast_ev.available, python_only  # the baseline
            try:
                t = time.perf_counter()
                want = advise_position(req["edition"], mine, pool)
                base.append(1000 * (time.perf_counter() - t))
            finally:
                fast_ev.available = available
            methods[want[1]] = methods.get(want[1], 0) + 1
            t = time.perf_counter()
            got = advise_position(req["edition"], mine, pool)
            fast.append(1000 * (time.perf_counter() - t))
            assert got == want, (req, got, want)
            score_api._advice.cache_clear()
            t = time.perf_counter()
            r = client.post("/api/score/flip7/odds", json=req)
            cold.append(1000 * (time.perf_counter() - t))
            assert r.status_code == 200, r.text
            t = time.perf_counter()
            again = client.post("/api/score/flip7/odds", json=req)
            warm.append(1000 * (time.perf_counter() - t))
            assert again.json() == r.json()
    db.unlink(missing_ok=True)
    mean = statistics.fmean
    result = {
        "edition": args.edition,
        "positions": len(reqs),
        "compiled": compiled,
        "methods": methods,
        "baseline_python_advise_position": _stats(base),
        "compiled_advise_position": _stats(fast),
        "endpoint_cold": _stats(cold),
        "endpoint_cached": _stats(warm),
        "ratio_compiled_to_baseline_mean": mean(fast) / mean(base),
        "ratio_cold_to_baseline_mean": mean(cold) / mean(base),
        "ratio_cached_to_baseline_mean": mean(warm) / mean(base),
    }
    print(f"{len(reqs)} positions ({args.edition}); answered by: {methods}; compiled: {compiled}")
    print(f"{'':30}{'median ms':>10}{'p90 ms':>10}{'p95 ms':>10}{'max ms':>10}{'mean ms':>10}")
    for name, key in [
        ("advise_position, Python", "baseline_python_advise_position"),
        ("advise_position, compiled", "compiled_advise_position"),
        ("endpoint, empty cache", "endpoint_cold"),
        ("endpoint, cached", "endpoint_cached"),
    ]:
        s = result[key]
        assert isinstance(s, dict)
        print(
            f"{name:30}{s['median_ms']:10.1f}{s['p90_ms']:10.1f}{s['p95_ms']:10.1f}"
            f"{s['max_ms']:10.1f}{s['mean_ms']:10.1f}"
        )
    print(
        f"ratio to the Python baseline (mean): compiled "
        f"{result['ratio_compiled_to_baseline_mean']:.3f}, endpoint empty cache "
        f"{result['ratio_cold_to_baseline_mean']:.3f}, cached "
        f"{result['ratio_cached_to_baseline_mean']:.4f}"
    )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
