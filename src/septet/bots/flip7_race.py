"""The race to 200 in Flip 7: the chance of winning the game as a function of your round score.

``flip7-ev`` maximises the expected round score. Near the end of the game that is the wrong
objective: 10 sure points are worth nothing to a player who needs 40 to catch a leader about to
pass the target, and a player about to win should not risk a bust for a few more points. This
module gives the hit/stay programme a utility to maximise instead: ``U[s]``, the probability
that you win the game if your round ends with ``s`` points (F7V-3.7: after a round in which
someone reaches the target, the highest total wins; a shared lead plays on).

``U`` is estimated by Monte Carlo with common random numbers (the same futures for every ``s``,
so ``U`` is non-decreasing in ``s`` and its differences are far less noisy than its values):

- the others' scores for this round: a stayed (or frozen) player keeps their round score, a
  busted one scores 0, an active one busts with the round-score distribution's chance of 0 or
  else ends with a score drawn from that distribution above what they hold now;
- later rounds: every player's round score is drawn independently from the round-score
  distribution of greedy self-play at this table size and edition (``ROUND_SCORES``, measured
  by ``python -m septet.bots.flip7_race``), until a round ends with a lone leader at or above
  the target (or ``rounds`` more rounds, after which the leader is counted the winner).

The model ignores how the others react to your score (greedy keeps hitting when you are at the
target ahead of it) and the cards that will be left; it is a model of the race, the programme of
``flip7_ev`` stays exact about the cards.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any

import numpy as np

from septet.core.types import JSON

MAX_ROUND_SCORE = 160
"""Round scores above this are valued as this (no round in the measured games came close)."""


@cache
def _data() -> dict[str, Any]:
    text = resources.files("septet.bots").joinpath("data/flip7_round_scores.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def round_score_distribution(edition: str, players: int) -> np.ndarray:
    """Probabilities of each round score ``0..MAX_ROUND_SCORE`` (shape ``(MAX_ROUND_SCORE+1,)``)
    in greedy self-play with ``players`` seats (2-4 measured; more seats use the 4-seat one).

    Raises:
        ValueError: an unknown edition.
    """
    table = _data()["round_scores"]
    if edition not in table:
        raise ValueError(f"no round-score distribution for edition {edition!r}")
    counts = table[edition][str(min(max(players, 2), 4))]
    dist = np.zeros(MAX_ROUND_SCORE + 1)
    for score, n in counts.items():
        dist[min(int(score), MAX_ROUND_SCORE)] += n
    out: np.ndarray = dist / dist.sum()
    return out


def win_utility(
    view: Mapping[str, JSON],
    samples: int = 2000,
    rounds: int = 8,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """``U[s]``: the estimated probability that the player to decide in ``view`` wins the game
    if their round ends with ``s`` points, for ``s = 0..MAX_ROUND_SCORE`` (see the module doc).

    Args:
        view: a Flip 7 view (``Flip7State.view``) at that player's decision.
        samples: futures drawn (the same ones for every ``s``).
        rounds: later rounds played out at most; a future still undecided then goes to its leader
            (a shared lead is split).
        rng: the generator of the futures (default: a fixed seed, so a view always gets the same
            estimate).

    Returns:
        Array of shape ``(MAX_ROUND_SCORE + 1,)``, non-decreasing, in ``[0, 1]``.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    me = int(view["decision"]["player"])
    players = view["players"]
    n = len(players)
    target = int(view["target"])
    dist = round_score_distribution(str(view["edition"]), n)
    cdf = np.cumsum(dist)
    scores = np.arange(MAX_ROUND_SCORE + 1)
    now = _this_round(players, me, dist, samples, rng)
    base = np.array([int(p["total"]) for p in players], dtype=np.int64) + now
    # Totals after this round (index 0) and after each later round, with s = 0 for me:
    # shape (samples, rounds + 1, n).
    idx = np.searchsorted(cdf, rng.random((samples, rounds, n)), side="right")
    later = np.minimum(idx, MAX_ROUND_SCORE)
    totals = np.concatenate([base[:, None, :], base[:, None, :] + np.cumsum(later, axis=1)], 1)
    return _win_share(totals, me, scores, target)


def _this_round(
    players: list[Any], me: int, dist: np.ndarray, samples: int, rng: np.random.Generator
) -> np.ndarray:
    """This round's final scores of the others, shape ``(samples, n)``; column ``me`` stays 0:
    a busted player scores 0, one who stayed keeps their score, an active one finishes above
    their score or busts, as the round-score distribution ``dist`` says."""
    n = len(players)
    scores = np.arange(MAX_ROUND_SCORE + 1)
    now = np.zeros((samples, n), dtype=np.int64)
    for p, info in enumerate(players):
        if p == me:
            continue
        status = info["status"]
        held = int(info["round_score"])
        if status == "busted":
            continue
        if status != "active":
            now[:, p] = held
            continue
        above = dist * (scores > held)
        if above.sum() == 0:
            now[:, p] = held
            continue
        cond = np.cumsum(above) / above.sum()
        finish = np.minimum(np.searchsorted(cond, rng.random(samples), side="right"), scores[-1])
        busts = rng.random(samples) < dist[0]
        now[:, p] = np.where(busts, 0, finish)
    return now


def _win_share(totals: np.ndarray, me: int, scores: np.ndarray, target: int) -> np.ndarray:
    """``U[s]`` from the sampled totals (shape ``(samples, rounds + 1, n)``, mine without this
    round's ``s``): the share of futures I win when I add ``s`` (F7V-3.7: a lone leader at or
    above the target wins; the last sampled round's leader takes an undecided future, a shared
    lead split), made non-decreasing."""
    mine = totals[..., me]
    others = np.delete(totals, me, axis=-1)
    their_top = others.max(axis=-1)
    at_top = (others == their_top[..., None]).sum(axis=-1)  # others sharing their top
    # My totals for every s: shape (S, samples, rounds + 1).
    me_s = mine[None] + scores[:, None, None]
    ahead = me_s > their_top
    level = me_s == their_top
    lone = ahead | (~level & (at_top == 1))
    ended = lone & (np.maximum(me_s, their_top) >= target)
    ended[..., -1] = True  # after `rounds` more rounds the leader takes it
    first = ended.argmax(axis=-1)[..., None]  # (S, samples, 1)
    won = np.take_along_axis(ahead, first, axis=-1)[..., 0]
    tied = np.take_along_axis(level, first, axis=-1)[..., 0]
    split = 1.0 / (1 + np.take_along_axis(np.broadcast_to(at_top, ahead.shape), first, -1)[..., 0])
    utility: np.ndarray = (won + tied * split).mean(axis=1)
    out: np.ndarray = np.maximum.accumulate(utility)
    return out


def race_is_on(view: Mapping[str, JSON], margin: int = 60) -> bool:
    """Whether the game may end within a round or two: someone's total plus round score is
    within ``margin`` points of the target (where ``flip7-ev`` switches to the race utility)."""
    target = int(view["target"])
    return any(int(p["total"]) + int(p["round_score"]) >= target - margin for p in view["players"])


def _round_scores(game: Any, agents: Sequence[Any], seed: str) -> list[int]:
    """Every seat's score in every round of one game (from the totals as rounds start)."""
    from septet.core.play import play_game

    marks: list[list[float]] = []  # the totals as each round starts, then the final ones
    last = [-1]

    def on_event(state: Any, action: Any, events: Any) -> None:
        r = state.round_index()
        if r != last[0]:
            marks.append(state.scores())
            last[0] = r

    result = play_game(game, agents, seed=seed, on_event=on_event)
    marks.append(result.state.scores())
    rounds = pairwise(marks)
    return [int(a - b) for before, after in rounds for a, b in zip(after, before, strict=True)]


def measure(games: int = 400, seed: int = 0) -> dict[str, dict[str, dict[str, int]]]:
    """Round scores of greedy self-play: ``{edition: {players: {score: count}}}`` over
    ``games`` games per edition and table size (2-4 players)."""
    from septet import games as registry
    from septet.bots import make_agent

    out: dict[str, dict[str, dict[str, int]]] = {}
    for edition in ("vengeance", "classic"):
        out[edition] = {}
        for n in (2, 3, 4):
            game = registry.get("flip7", edition=edition)
            agents = [make_agent("greedy", game) for _ in range(n)]
            counts: Counter[int] = Counter()
            for g in range(games):
                counts.update(_round_scores(game, agents, f"{seed}-{edition}-{n}-{g}"))
            out[edition][str(n)] = {str(k): v for k, v in sorted(counts.items())}
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the round-score distributions and print them as the data file's JSON."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    data = {
        "about": "Flip 7 round scores in greedy self-play, per edition and number of players: "
        f"python -m septet.bots.flip7_race --games {args.games} --seed {args.seed}",
        "round_scores": measure(args.games, args.seed),
    }
    print(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
