"""The strength ladder: is each bot a significant step above the one below?

For a game, a player count and a pairing ``A`` vs ``B``, games are played with the seats
``[A, B]`` (2 players), ``[A, B, B]`` (3), ``[A, B, A, B]`` (4; in Seven Shot that is team A
against team B) or one A against the field at 5 or more (``[A, B, B, B, B]``: Flip 7's larger
tables), rotated one seat per game so every seat is played by each side equally often.
``A``'s result in a game is its share of the win (winners on A's seats / all winners, so shared
wins count in part); its fair share is (A's seats) / (players). A step is **significant** when
the 95% Wilson interval of A's mean share lies above the fair share. Statistics come from
:mod:`septet.arena.stats`.

``--duplicate`` plays *duplicate* games, as in duplicate bridge and in the duplicate matches of
the Annual Computer Poker Competition: the games come in deals of one chance seed each, and a
deal is played once in every distinct rotation of the seats (2 for ``AB`` and ``ABAB``, 3 for
``ABB``). With the same seed the cards come in the same order (until different decisions make
the decks differ), so A and B meet the same luck and a deal's result measures their decisions.
A's result in a deal is its mean share over the rotations; the interval is the normal interval
of the mean over deals (the deals are independent, the rotations of one deal are not). Two
copies of one deterministic bot score exactly the fair share in every deal.

Usage (the commands in ``docs/bots.md``)::

    .venv/bin/python -m septet.arena.ladder --games 200 --players 2,3,4 --jobs 2 \\
        --out bench/results/ladder.json

The ISMCTS rung uses :data:`ISMCTS_SPECS` (the settings whose ladder rows are in
``docs/bots.md``) unless ``--ismcts SPEC`` names another.

Each pairing prints one Markdown table row as it finishes; the JSON holds every row.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path
from random import Random
from typing import Any

from septet.arena.options import parse_options
from septet.arena.stats import proportion, summarize
from septet.bots import make_agent
from septet.core.game import Action
from septet.core.play import Agent, play_game
from septet.core.registry import game_class
from septet.core.types import JSON
from septet.games import get

PATTERNS = {2: "AB", 3: "ABB", 4: "ABAB"}
"""The seats of A and B at 2-4 players; at 5 or more (Flip 7) A has one seat against the
field, ``ABBBB…`` (:func:`pattern`)."""


def pattern(players: int) -> str:
    """The seating pattern at ``players`` seats: :data:`PATTERNS`, or one A and ``players - 1``
    B at 5 or more (fair share ``1 / players``).

    Raises:
        ValueError: fewer than 2 players.
    """
    if players < 2:
        raise ValueError(f"the ladder seats 2 players or more, not {players}")
    return PATTERNS.get(players, "A" + "B" * (players - 1))


@dataclass
class PairingResult:
    """One rung of the ladder (A's view). ``share`` is A's mean share of the wins with its
    interval ``low``-``high``; ``fair`` the share of A's seats; ``margin`` A's mean score minus
    B's (per seat, final scores); ``a_ms_per_move`` the median wall-clock milliseconds A took
    per decision that had more than one legal action (the median, so that a one-off cost such as
    the first compile of a search kernel in a worker process does not pass for thinking time;
    ``a_ms_mean`` keeps the mean); ``seconds`` the wall clock of the pairing."""

    game: str
    options: str
    players: int
    a: str
    b: str
    games: int
    share: float
    low: float
    high: float
    fair: float
    significant: bool
    margin: float
    seconds: float
    a_ms_per_move: float = 0.0
    deals: int = 0
    """Duplicate deals (0: not a duplicate pairing; ``games`` is then the number of seeds)."""
    a_ms_mean: float = 0.0

    def markdown(self) -> str:
        """A row of the docs' table."""
        verdict = "yes" if self.significant else "no"
        games = f"{self.games} ({self.deals} deals)" if self.deals else str(self.games)
        return (
            f"| {self.game}{self.options} | {self.players} | {self.a} | {self.b} | {games} "
            f"| {self.share:.1%} [{self.low:.1%}, {self.high:.1%}] | {self.fair:.0%} | {verdict} "
            f"| {self.margin:+.1f} | {self.a_ms_per_move:.1f} | {self.seconds:.0f} |"
        )


HEADER = (
    "| game | players | A | B | games | A's win share [95% CI] | fair share | significant "
    "| score margin | A ms/move (median) | seconds |\n|---|---|---|---|---|---|---|---|---|---|---|"
)


def _seating(players: int, index: int) -> str:
    seats = pattern(players)
    r = index % players
    return seats[r:] + seats[:r]


def rotations(players: int) -> list[str]:
    """The distinct rotations of the seating pattern (``AB``, ``BA``; ``ABB``, ``BBA``, ``BAB``;
    ``ABAB``, ``BABA``): the games of one duplicate deal."""
    return list(dict.fromkeys(_seating(players, r) for r in range(players)))


def _schedule(players: int, games: int, seed: int, duplicate: bool) -> list[tuple[str, str]]:
    """(seats, game seed) of each game: seats rotated one per game with a seed per game, or in
    duplicate deals (every rotation of one seed; ``games`` rounded up to whole deals)."""
    if not duplicate:
        return [(_seating(players, i), f"ladder:{seed}:{i}") for i in range(games)]
    seatings = rotations(players)
    deals = -(-games // len(seatings))
    return [(seats, f"ladder:{seed}:deal:{d}") for d in range(deals) for seats in seatings]


class _Timed:
    """Wraps an agent and adds up its thinking time on real decisions (2+ legal actions). Every
    call reaches the agent, forced moves included, so the games are those ``play_game`` plays
    with the bare agents (an agent may draw from its rng even on a forced move)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.times: list[float] = []

    def act(self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: Random) -> Action:
        start = time.perf_counter()
        action = self.agent.act(view, legal_actions, rng)
        if len(legal_actions) > 1:
            self.times.append(time.perf_counter() - start)
        return action


def _play_one(
    job: tuple[str, dict[str, Any], int, str, str, str, str],
) -> tuple[float, float, list[float], int]:
    """One game (``seats`` such as ``"BAB"``, played with ``game_seed``): A's share of the win,
    A's score margin, A's thinking seconds on each real decision, and their number."""
    name, options, players, a_spec, b_spec, seats, game_seed = job
    game = get(name, **options)
    agents = [_Timed(make_agent(a_spec if s == "A" else b_spec, game)) for s in seats]
    result = play_game(game, agents, seed=game_seed)
    winners = result.winners
    a_seats = [i for i, s in enumerate(seats) if s == "A"]
    share = sum(1 for w in winners if w in a_seats) / len(winners) if winners else 0.0
    scores = result.scores
    b_seats = [i for i in range(players) if i not in a_seats]
    margin = sum(scores[i] for i in a_seats) / len(a_seats) - sum(scores[i] for i in b_seats) / len(
        b_seats
    )
    times = [x for i in a_seats for x in agents[i].times]
    return share, margin, times, len(times)


def run_pairing(
    name: str,
    players: int,
    a_spec: str,
    b_spec: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    duplicate: bool = False,
) -> PairingResult:
    """Play ``games`` games of ``a_spec`` against ``b_spec`` (seats rotated) and measure A.
    ``progress(done, games)`` is called as each game's result comes in (in game order).
    ``duplicate`` plays them in duplicate deals (see the module doc; ``games`` is rounded up
    to whole deals).

    Raises:
        ValueError: fewer than 2 players (the game refuses counts it does not seat).
        AgentSpecError, UnknownGameError, OptionError: bad specs, game or options.
    """
    pattern(players)  # raises below 2
    options = dict(options or {})
    get(name, **options).check_num_players(players)
    schedule = _schedule(players, games, seed, duplicate)
    games = len(schedule)
    work = [(name, options, players, a_spec, b_spec, seats, s) for seats, s in schedule]
    start = time.perf_counter()
    results = _play_all(work, jobs, progress)
    seconds = time.perf_counter() - start
    shares = [r[0] for r in results]
    a_moves = sum(r[3] for r in results)
    times = [x for r in results for x in r[2]]
    fair = pattern(players).count("A") / players
    deals, (rate, low, high) = _share_interval(shares, players, duplicate)
    opts = "".join(f" {k}={v}" for k, v in sorted(options.items()))
    return PairingResult(
        game=name,
        options=opts,
        players=players,
        a=a_spec,
        b=b_spec,
        games=games,
        share=rate,
        low=low,
        high=high,
        fair=fair,
        significant=low > fair,
        margin=sum(r[1] for r in results) / len(results),
        seconds=seconds,
        a_ms_per_move=1000 * statistics.median(times) if times else 0.0,
        deals=deals,
        a_ms_mean=1000 * sum(times) / a_moves if a_moves else 0.0,
    )


def _play_all(
    work: list[Any], jobs: int, progress: Callable[[int, int], None] | None
) -> list[tuple[float, float, list[float], int]]:
    """Play every game of ``work`` (in ``jobs`` processes), results in game order."""
    games = len(work)
    results: list[tuple[float, float, list[float], int]] = []
    if jobs > 1:
        with Pool(jobs) as pool:
            chunk = max(1, min(10, games // (4 * jobs)))
            for r in pool.imap(_play_one, work, chunksize=chunk):
                results.append(r)
                if progress:
                    progress(len(results), games)
    else:
        for w in work:
            results.append(_play_one(w))
            if progress:
                progress(len(results), games)
    return results


def _share_interval(
    shares: list[float], players: int, duplicate: bool
) -> tuple[int, tuple[float, float, float]]:
    """``(deals, (mean share, low, high))``: a Wilson interval over games, or with ``duplicate``
    the normal interval of the mean over deals (``deals`` 0 when not duplicate)."""
    if not duplicate:
        prop = proportion(sum(shares), len(shares))
        return 0, (prop.rate, prop.low, prop.high)
    per_deal = len(rotations(players))
    deal_shares = [
        sum(shares[i : i + per_deal]) / per_deal for i in range(0, len(shares), per_deal)
    ]
    summary = summarize(deal_shares)
    return len(deal_shares), (summary.mean, summary.ci_low, summary.ci_high)


ISMCTS_SPECS: dict[str, str] = {
    "seven-shot": "ismcts:iterations=100,rollout=greedy,horizon=round",
    "double-seven": "ismcts:iterations=400,rollout=greedy,tree=1,bias=1,utility=score",
    "flip7": "ismcts:iterations=400,rollout=greedy,horizon=round,tree=1,bias=1",
}
"""The ISMCTS settings of each game's rung (docs/bots.md gives their ladder rows and how they
were chosen)."""


def default_ladder(name: str, ismcts: str | None = None) -> list[tuple[str, str]]:
    """The rungs for a game: greedy > random, ismcts > greedy, and flip7-ev > greedy (Flip 7).
    ``ismcts`` replaces the game's :data:`ISMCTS_SPECS` entry."""
    spec = ismcts or ISMCTS_SPECS.get(name, "ismcts:iterations=200,rollout=greedy")
    rungs = [("greedy", "random"), (spec, "greedy")]
    if name == "flip7":
        rungs.append(("flip7-ev", "greedy"))
    return rungs


def _progress_printer(label: str) -> Callable[[int, int], None]:
    """A ``progress`` callback that prints ``label: done/total games`` to stderr at every tenth
    of the games (long pairings run for hours)."""
    start = time.perf_counter()

    def report(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            elapsed = time.perf_counter() - start
            print(f"{label}: {done}/{total} games, {elapsed:.0f} s", file=sys.stderr, flush=True)

    return report


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description="Septet strength ladder")
    parser.add_argument("--game", action="append", help="game[:opt=v,...] (default: all three)")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--ismcts", default=None, help="ISMCTS spec (default: per game)")
    parser.add_argument("--pair", action="append", help="A/B specs instead of the default rungs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default="bench/results/ladder.json")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument(
        "--duplicate", action="store_true", help="duplicate deals: every seating of each seed"
    )
    args = parser.parse_args(argv)

    games = args.game or ["flip7", "flip7:edition=classic", "double-seven", "seven-shot"]
    rows: list[PairingResult] = []
    print(HEADER, flush=True)
    for entry in games:
        name, _, opt_text = entry.partition(":")
        # Typed as the game's options dataclass says (``seven-shot:target=1`` is an int).
        options = parse_options(game_class(name), [item for item in opt_text.split(",") if item])
        cls_game = get(name, **options)
        rungs = (
            [tuple(p.split("/", 1)) for p in args.pair]
            if args.pair
            else default_ladder(name, args.ismcts)
        )
        for n in (int(x) for x in args.players.split(",")):
            if not cls_game.min_players <= n <= cls_game.max_players:
                continue
            for a_spec, b_spec in rungs:
                label = f"{name} {n}p {a_spec} vs {b_spec}"
                res = run_pairing(
                    name,
                    n,
                    a_spec,
                    b_spec,
                    args.games,
                    args.seed,
                    args.jobs,
                    options,
                    progress=None if args.quiet else _progress_printer(label),
                    duplicate=args.duplicate,
                )
                rows.append(res)
                print(res.markdown(), flush=True)
                out = Path(args.out)
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(json.dumps([asdict(r) for r in rows], indent=1))


if __name__ == "__main__":
    main()


__all__ = [
    "HEADER",
    "ISMCTS_SPECS",
    "PairingResult",
    "default_ladder",
    "main",
    "rotations",
    "run_pairing",
]
