"""What perfect inference would buy Strong's search in Seven Shot (issue 30): an upper bound.

Seat A is Strong's ISMCTS whose every determinization is the true deal (the compiled search's
``pool`` hook given the real state: the search sees every hand, so it plays a perfect-
information search of the true position); B is the same search with the kernel's uniform
determinizations. Both at equal iterations, one-deal games (``target=1``), duplicate deals
(every rotation of the seats), so the difference is only what A knows. ``--mode partner``: A
knows its partner's hand only (4 players; the opponents' cards redealt between them, voids
kept). No honest determinization model can do better than ``oracle``; the gap between the
two says how much there is to gain from inferring the hidden cards.

    python bench/oracle_seven_shot.py --players 4 --deals 200 --iterations 5000 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from multiprocessing import Pool
from typing import Any

import numpy as np

from septet.arena.ladder import pattern, rotations
from septet.bots import make_agent
from septet.core.play import play_game
from septet.games import get
from septet.games.seven_shot.cards import SUIT_MASK
from septet.games.seven_shot.state import PH_PLAY

SPEC = "ismcts:iterations={n},rollout=greedy,horizon=round"


def _partner_pool(holder: dict[str, Any], kernel: Any, players: int) -> Any:
    """``pool_for``: 64 deals with the true hands of the seat and its partner and the
    opponents' cards redealt between them (hand sizes and voids kept), in the play phase."""

    def pool(view: Any, rng: random.Random) -> Any:
        st = holder["s"]
        seat = int(view["seat"])
        if st.phase != PH_PLAY:
            return None
        opp = [q for q in range(players) if st.side_of(q) != st.side_of(seat)]
        cards = [c for q in opp for c in range(49) if st.hands[q] >> c & 1]
        sizes = [st.hands[q].bit_count() for q in opp]
        rows: list[Any] = []
        for _ in range(5000):
            if len(rows) == 64:
                break
            rng.shuffle(cards)
            hands, k = [], 0
            for z in sizes:
                hands.append(sum(1 << c for c in cards[k : k + z]))
                k += z
            if any(
                hands[i] & SUIT_MASK[su]
                for i, q in enumerate(opp)
                for su in range(7)
                if st.voids[q] >> su & 1
            ):
                continue
            s2 = st.clone()
            for i, q in enumerate(opp):
                s2.hands[q] = hands[i]
            rows.append(kernel.encode(s2))
        return np.stack(rows).astype(np.int64) if rows else None

    return pool


def _game(job: tuple[int, str, int, str, int, str]) -> tuple[int, float]:
    players, seats, deal, seed, iterations, mode = job
    from septet.fast import kernel_for

    game = get("seven-shot", target=1)
    kernel = kernel_for(game)
    holder: dict[str, Any] = {}
    agents = []
    for s in seats:
        agent: Any = make_agent(SPEC.format(n=iterations), game)
        if s == "A" and mode == "oracle":
            agent.pool_for = lambda view, rng: kernel.encode(holder["s"])[None, :].astype(np.int64)
        elif s == "A" and mode == "partner":
            agent.pool_for = _partner_pool(holder, kernel, players)
        agents.append(agent)
    state = game.new_state(players)
    holder["s"] = state
    result = play_game(
        game,
        agents,
        seed=f"oracle:{seed}:{deal}",
        state=state,
        on_event=lambda st, _a, _e: holder.__setitem__("s", st),
    )
    a_seats = [i for i, c in enumerate(seats) if c == "A"]
    won = result.winners
    return deal, sum(1 for w in won if w in a_seats) / len(won)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=5000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--mode", choices=("oracle", "partner"), default="oracle")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    jobs = [
        (args.players, seats, d, args.seed, args.iterations, args.mode)
        for d in range(args.deals)
        for seats in rotations(args.players)
    ]
    with Pool(args.jobs) as pool:
        out = pool.map(_game, jobs, chunksize=1)
    by: dict[int, list[float]] = {}
    for d, share in out:
        by.setdefault(d, []).append(share)
    means = [sum(v) / len(v) for v in by.values()]
    m = statistics.mean(means)
    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means))
    fair = pattern(args.players).count("A") / args.players
    swing = sum(1 for v in by.values() if len(set(v)) > 1)
    print(
        f"{args.mode}, {args.players} players, {len(out)} games ({len(by)} deals), "
        f"{args.iterations} iterations a move: A's win share {m:.1%} "
        f"[{m - half:.1%}, {m + half:.1%}], fair {fair:.1%}; "
        f"deals whose seatings ended differently: {swing}"
    )


if __name__ == "__main__":
    main()
