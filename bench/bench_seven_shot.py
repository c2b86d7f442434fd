"""Benchmark: Seven Shot engine speed.

    .venv/bin/python bench/bench_seven_shot.py                  # 200 games per player count
    .venv/bin/python bench/bench_seven_shot.py --games 1000 --profile

For 3 and 4 players: full random games (to 7 points) per second with exact chance
(``septet.core.random_playout``), deals per second and milliseconds per deal (target: a random
deal in under 2 ms), steps per second; the greedy bot's mean time per move; the mean time of a
``determinize`` during play. ``--profile`` prints the top functions of a cProfile run of random
games. Prints a table and writes JSON (default ``bench/results/seven_shot.json``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from septet.arena.bench import (
    print_columns,
    profile_playouts,
    time_greedy,
    time_random_games,
    write_results,
)
from septet.games import get


def bench_random(num_players: int, games: int, seed: int) -> dict[str, float]:
    """Random games to the end: games/s, deals/s, ms per deal, steps/s."""
    t = time_random_games(
        get("seven-shot"),
        num_players,
        games,
        random.Random(seed),
        tally=lambda state: {"deals": state.deal_number},
    )
    elapsed, deals, steps = t["seconds"], t["deals"], t["steps"]
    return {
        "games_per_s": games / elapsed,
        "deals_per_s": deals / elapsed,
        "ms_per_deal": 1000 * elapsed / deals,
        "steps_per_s": steps / elapsed,
        "deals_per_game": deals / games,
        "steps_per_game": steps / games,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per player count")
    parser.add_argument("--bot-games", type=int, default=20, help="greedy games per count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    parser.add_argument("--out", type=Path, default=Path("bench/results/seven_shot.json"))
    args = parser.parse_args(argv)
    rows = []
    for n in (3, 4):
        row: dict[str, float | int] = {"players": n}
        row.update(bench_random(n, args.games, args.seed))
        row.update(time_greedy(get("seven-shot"), n, args.bot_games, args.seed))
        rows.append(row)
    cols = [
        ("players", "players", "{:.0f}"),
        ("games/s", "games_per_s", "{:.1f}"),
        ("deals/s", "deals_per_s", "{:.0f}"),
        ("ms/deal", "ms_per_deal", "{:.3f}"),
        ("steps/s", "steps_per_s", "{:.0f}"),
        ("deals/game", "deals_per_game", "{:.2f}"),
        ("greedy us/move", "greedy_us_per_move", "{:.0f}"),
        ("determinize us", "determinize_us", "{:.0f}"),
    ]
    print_columns(rows, cols)
    for row in rows:
        verdict = "meets" if row["ms_per_deal"] < 2.0 else "MISSES"
        print(
            f"{row['players']} players: {row['ms_per_deal']:.3f} ms per random deal "
            f"({2.0 / row['ms_per_deal']:.1f}x under the 2 ms target; {verdict} it)"
        )
    profiles = {}
    if args.profile:
        for n in (3, 4):
            profiles[n] = profile_playouts(
                get("seven-shot"), n, max(20, args.games // 5), args.seed
            )
            print(f"--- profile, {n} players ---")
            print(profiles[n])
    payload = {
        "games_per_config": args.games,
        "seed": args.seed,
        "rows": rows,
        "profiles": {str(k): v for k, v in profiles.items()},
    }
    write_results(args.out, "seven-shot", payload)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
