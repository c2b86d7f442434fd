"""Openskill ratings, one code for the arena and the server.

Openskill's Plackett-Luce model (Weng & Lin 2011, "A Bayesian Approximation Method for Online
Ranking"). A rating is ``(mu, sigma)``; a new one is ``(25, 25/3)``; the conservative estimate
is the ordinal ``mu - 3 sigma`` (0 for a newcomer). One game is rated by :func:`rate_teams`:
teams of ratings and each team's rank (1 = best, equal ranks tie). The arena's tournaments
(:func:`septet.arena.report.ratings`) and the server's rated tables
(:mod:`septet.server.players.ratings`) both call it, so a game rates the same in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

Skill = tuple[float, float]
"""A rating: ``(mu, sigma)``."""

MU = 25.0
"""The mean of a new rating (openskill's default)."""

SIGMA = 25.0 / 3.0
"""The uncertainty of a new rating (openskill's default)."""


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_skill() -> Skill:
    """A newcomer's rating ``(25.0, 8.333...)``."""
    return (MU, SIGMA)


def ordinal(skill: Skill) -> float:
    """The conservative estimate ``mu - 3 sigma`` of ``skill`` (about 0 for a newcomer)."""
    return float(skill[0] - 3.0 * skill[1])


def rate_teams(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The ratings after one game: ``teams[i]`` are the ratings of team i's members and
    ``ranks[i]`` its place (1 = best; equal ranks are a tie). Returns the new ratings in the
    same shape.

    Example: two newcomers, the first wins: ``[[(27.635, 8.066)], [(22.365, 8.066)]]``.

    Raises:
        ValueError: fewer than two teams, an empty team, or ``len(ranks) != len(teams)``.
    """
    if len(teams) < 2 or any(not t for t in teams) or len(ranks) != len(teams):
        raise ValueError(f"need at least two non-empty teams and one rank each, not {teams!r}")
    model = _model()
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return [[(float(p.mu), float(p.sigma)) for p in team] for team in rated]


def ranks_from_result(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Rank per seat (1 = best): the winners 1, then the others by score, equal scores equal.

    Example: scores ``[3, 7, 5]``, winners ``[1]`` give ``[3, 1, 2]``.
    """
    won = set(winners)
    ranks = []
    for s, score in enumerate(scores):
        if s in won:
            ranks.append(1)
        else:
            better = sum(1 for t, v in enumerate(scores) if t not in won and v > score)
            ranks.append(2 + better)
    return ranks
