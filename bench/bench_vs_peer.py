"""Septet's compiled Flip 7 against the C++ peer (Eppie/flip-seven), in one interleaved run.

The peer (``../shared/peers/flip-seven``, or ``--peer DIR``: its unchanged headers, two drivers
and ``build.sh``; see its README) is built with its own ``build.sh`` into a temporary directory.
Then, ``--reps`` times, for 2 and 4 players in turn: the peer's ``duel_bench`` plays ``--games``
classic whole games to 200 (its own policy table; its JSON reports the CPU time of the games
alone, the table's build excluded), and Septet's kernels play ``--games`` classic whole games
from seeds with every seat ``risk:p=0.26`` (the like-for-like agent: hit while P(bust) ≤ 0.26),
then every seat ``greedy``, then ``random`` (``septet.fast.batch.play_games``, the playout path,
CPU time by ``time.process_time``, after one warm-up call so that compiling is not counted).
The rate of each is the best of the repetitions (the least disturbed by other load); the ratios
are Septet ÷ peer, each from the same repetition's neighbours.

The exact solitaire round (one player, the classic number cards 0-12, optimal hit/stay): the
peer's ``dp_bench`` (its ``SolitaireTurnDP`` solved ``--solves`` times, CPU ms per solve) and
Septet's compiled solver (``FastEVSolver("classic", "single").value`` from a fresh solver each
time, so the memo starts empty as the peer's does), with both values, which must agree
(18.5652176141317), and the optimal policy's P(bust) (0.313496460790957), computed here by a
small independent programme over the row's value set (it also checks the value).

Usage::

    .venv/bin/python bench/bench_vs_peer.py --quick         # a smoke run (seconds)
    nice -n 10 .venv/bin/python bench/bench_vs_peer.py      # the measurement (about a minute)

Prints a table and writes ``bench/results/bench_vs_peer.json``. Goal (issue 29): the risk agent
at least 1/4 of the peer at 2 and 4 players; the solver within 4x of the peer.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

PEER = next(
    (
        d / "shared" / "peers" / "flip-seven"
        for d in Path(__file__).resolve().parents
        if (d / "shared" / "peers" / "flip-seven" / "build.sh").exists()
    ),
    Path("../shared/peers/flip-seven"),
)
"""The peer's sources: ``shared/peers/flip-seven`` beside the checkout (or a worktree's)."""
EV = 18.5652176141317
P_BUST = 0.313496460790957
POLICIES = ("risk", "greedy", "random")


def build_peer(src: Path, out: Path) -> None:
    """``build.sh out`` of the peer (raises CalledProcessError when it fails)."""
    subprocess.run(["bash", str(src / "build.sh"), str(out)], check=True, capture_output=True)


def peer_games(bin_dir: Path, players: int, games: int) -> float:
    """The peer's games per CPU-second (its own CPU timer, the policy table's build excluded)."""
    done = subprocess.run(
        [str(bin_dir / "duel_bench"), str(players), str(games)],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(json.loads(done.stdout)["games_per_cpu_s"])


def peer_solver(bin_dir: Path, solves: int) -> dict[str, Any]:
    """The peer's ``dp_bench`` JSON (``cpu_per_solve_ms``, ``ev``, ``p_bust``)."""
    done = subprocess.run(
        [str(bin_dir / "dp_bench"), str(solves)], check=True, capture_output=True, text=True
    )
    out: dict[str, Any] = json.loads(done.stdout)
    return out


class Septet:
    """Septet's side: classic Flip 7 kernels and the compiled solver, warmed up once."""

    def __init__(self) -> None:
        from septet.fast import kernel_for
        from septet.games import get

        self.game = get("flip7", edition="classic")
        self.kernel = kernel_for(self.game, {"p": "0.26"})
        self.seed = 0

    def games(self, players: int, policy: str, count: int) -> float:
        """Games per CPU-second, every seat ``policy``, ``count`` games from new seeds."""
        from septet.fast.batch import play_games

        rows = [[policy] * players] * count
        seeds = list(range(self.seed, self.seed + count))
        self.seed += count
        play_games(self.game, players, seeds[:2], rows[:2], kernel=self.kernel)  # warm
        t = time.process_time()
        out = play_games(self.game, players, seeds, rows, kernel=self.kernel)
        spent = time.process_time() - t
        assert int(out.wins.sum()) >= count
        return count / spent

    @staticmethod
    def solver(solves: int) -> tuple[float, float]:
        """(CPU ms per solve, the value) of a fresh compiled solver's numbers-only round."""
        from septet.bots.flip7_ev import Row, fresh_pool
        from septet.bots.flip7_ev_fast import FastEVSolver, load

        load()
        pool = fresh_pool("classic", numbers_only=True)
        value = float(FastEVSolver("classic", "single").value(Row(), pool))  # warm
        t = time.process_time()
        for _ in range(solves):
            value = float(FastEVSolver("classic", "single").value(Row(), pool))
        return (time.process_time() - t) / solves * 1e3, value


def solitaire_check() -> tuple[float, float]:
    """(value, P(bust)) of the optimal numbers-only classic round, by a programme over the set
    of values held (the pool is the fresh deck less one card of each; 7 values: Flip 7, +15;
    stay on a tie, as Septet's solver)."""
    counts = [1, *range(1, 13)]  # one 0, then v copies of v (F7V-9 classic deck)

    @cache
    def node(mask: int) -> tuple[float, float]:
        held = [v for v in range(13) if mask >> v & 1]
        stay = float(sum(held))
        left = sum(counts) - len(held)
        ev = pb = 0.0
        for v in range(13):
            c = counts[v] - (mask >> v & 1)
            if not c:
                continue
            if mask >> v & 1:
                pb += c  # a duplicate busts: 0 points
                continue
            new = mask | 1 << v
            if len(held) + 1 == 7:
                ev += c * (stay + v + 15)
            else:
                e, p = node(new)
                ev += c * e
                pb += c * p
        hit = ev / left
        return (hit, pb / left) if hit > stay else (stay, 0.0)

    return node(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--peer", type=Path, default=PEER)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--solves", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("bench/results/bench_vs_peer.json"))
    args = parser.parse_args()
    if args.quick:
        args.games, args.reps, args.solves = 5_000, 1, 20
    with tempfile.TemporaryDirectory() as tmp:
        bin_dir = Path(tmp)
        build_peer(args.peer, bin_dir)
        result = run(args, bin_dir)
    report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")


def run(args: argparse.Namespace, bin_dir: Path) -> dict[str, Any]:
    """The interleaved measurements (best of ``--reps`` per row) as a JSON-ready dict."""
    septet = Septet()
    rates: dict[str, dict[str, list[float]]] = {}
    for _ in range(args.reps):
        for n in (2, 4):
            row = rates.setdefault(str(n), {k: [] for k in ("peer", *POLICIES)})
            row["peer"].append(peer_games(bin_dir, n, args.games))
            for pol in POLICIES:
                row[pol].append(septet.games(n, pol, args.games))
    table = {
        n: {k: max(v) for k, v in row.items()}
        | {f"{pol}/peer": max(row[pol]) / max(row["peer"]) for pol in POLICIES}
        for n, row in rates.items()
    }
    peer = peer_solver(bin_dir, args.solves)
    ms, value = Septet.solver(args.solves)
    check_value, p_bust = solitaire_check()
    return {
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "load_before": os.getloadavg()[0],
        "games_per_game_row": args.games,
        "reps": args.reps,
        "games_per_cpu_s": table,
        "all_rates": rates,
        "solver": {
            "peer_ms": peer["cpu_per_solve_ms"],
            "septet_ms": ms,
            "septet/peer_time": ms / peer["cpu_per_solve_ms"],
            "peer_ev": peer["ev"],
            "septet_ev": value,
            "check_ev": check_value,
            "peer_p_bust": peer["p_bust"],
            "check_p_bust": p_bust,
            "values_agree": abs(value - peer["ev"]) < 1e-12
            and abs(value - EV) < 1e-12
            and abs(check_value - EV) < 1e-12
            and abs(p_bust - P_BUST) < 1e-12
            and abs(peer["p_bust"] - P_BUST) < 1e-12,
        },
    }


def report(r: dict[str, Any]) -> None:
    """Print the table."""
    print(f"classic Flip 7 whole games to 200, games per CPU-second (best of {r['reps']})")
    heads = " ".join(f"{p:>10} {p + '/peer':>11}" for p in POLICIES)
    print(f"{'players':>7} {'peer':>10} {heads}")
    for n, row in r["games_per_cpu_s"].items():
        cells = " ".join(f"{row[p]:>10,.0f} {row[p + '/peer']:>11.3f}" for p in POLICIES)
        print(f"{n:>7} {row['peer']:>10,.0f} {cells}")
    s = r["solver"]
    print(
        f"exact solitaire round: peer {s['peer_ms']:.4f} ms, Septet {s['septet_ms']:.4f} ms "
        f"per solve ({s['septet/peer_time']:.2f}x the peer's time); values {s['septet_ev']!r} / "
        f"{s['peer_ev']!r}, P(bust) {s['check_p_bust']!r} / {s['peer_p_bust']!r}: "
        f"{'agree' if s['values_agree'] else 'DISAGREE'}"
    )


if __name__ == "__main__":
    main()
