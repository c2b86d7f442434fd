"""Summaries of a simulation: per-agent statistics, openskill ratings, seat advantage, game length,
and the result files (``results.json``, ``games.csv``).

A game counts for an agent once, even when the agent holds several seats (fewer agents than
seats); it is a win when any of its seats is among the winners (a shared win counts as a win for
each winner). Its scores are counted per seat held.

Ratings: openskill's Plackett-Luce model (Weng & Lin 2011), updated game by game in index order
(so they do not depend on the workers); every distinct agent at the table is a one-player team
ranked by its best seat: winners first, then the others by score (equal scores tie). Ratings
start at mu = 25, sigma = 25/3; ``ordinal = mu - 3 sigma`` is the conservative estimate.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from septet.arena.runner import GameResult, RunOutcome, iter_valid
from septet.arena.schedule import Schedule
from septet.arena.skill import Skill, new_skill, ordinal, ranks_from_result, rate_teams
from septet.arena.stats import (
    Proportion,
    SeatAdvantage,
    Summary,
    proportion,
    seat_advantage,
    summarize,
)
from septet.core.types import JSON


@dataclass
class AgentStats:
    """One competitor's results.

    Attributes:
        label: unique display label (see ``Schedule.labels``).
        spec: its agent spec.
        games: games it took part in; wins: games it won.
        win_rate: wins / games with the Wilson interval.
        scores: summary of its final scores (one value per seat held per game).
        rating: openskill ``{"mu", "sigma", "ordinal"}``.
        by_seat: ``(games, wins)`` per seat.
    """

    label: str
    spec: str
    games: int
    wins: int
    win_rate: Proportion
    scores: Summary
    rating: dict[str, float]
    by_seat: list[tuple[int, int]]
    score_values: list[float] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, JSON]:
        """The fields as a JSON object (without the raw scores)."""
        return {
            "label": self.label,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate.to_json(),
            "scores": self.scores.to_json(),
            "rating": self.rating,
            "by_seat": [{"games": g, "wins": w} for g, w in self.by_seat],
        }


@dataclass
class Report:
    """Everything ``septet simulate`` prints and writes."""

    game: str
    options: dict[str, JSON]
    schedule: Schedule
    agents: list[AgentStats]
    seats: SeatAdvantage | None
    length: Summary
    games_played: int
    errors: list[GameResult]
    outcome: RunOutcome

    def to_json(self) -> dict[str, JSON]:
        """The ``results.json`` content. Everything outside ``"run"`` depends only on the game,
        the options, the schedule and the seed."""
        sched = self.schedule
        return {
            "format": "septet-simulation",
            "version": 1,
            "game": self.game,
            "options": self.options,
            "players": sched.num_players,
            "agents": list(sched.agents),
            "labels": sched.labels(),
            "seed": sched.seed,
            "games_requested": sched.num_games,
            "games_played": self.games_played,
            "games_failed": len(self.errors),
            "errors": [{"index": r.index, "error": r.error} for r in self.errors[:20]],
            "interrupted": self.outcome.interrupted,
            "agent_stats": [a.to_json() for a in self.agents],
            "seat_advantage": self.seats.to_json() if self.seats else None,
            "game_length": self.length.to_json(),
            "run": {
                "backend": self.outcome.backend,
                "workers": self.outcome.workers,
                "elapsed_s": self.outcome.elapsed_s,
                "games_per_s": (
                    len(self.outcome.results) / self.outcome.elapsed_s
                    if self.outcome.elapsed_s > 0
                    else None
                ),
            },
        }


def _ranks(result: GameResult) -> list[int]:
    """Rank per seat (1 = best): winners 1, then by score, ties equal."""
    return ranks_from_result(result.scores, result.winners)


def ratings(results: Sequence[GameResult], num_agents: int) -> list[dict[str, float]]:
    """Openskill (Plackett-Luce) rating per agent after ``results`` in index order (each game
    through :func:`septet.arena.skill.rate_teams`, the server's rating code too)."""
    current: list[Skill] = [new_skill() for _ in range(num_agents)]
    for r in sorted(iter_valid(results), key=lambda r: r.index):
        best: dict[int, int] = {}
        for seat, rank in enumerate(_ranks(r)):
            agent = r.seating[seat]
            best[agent] = min(rank, best.get(agent, rank))
        if len(best) < 2:
            continue
        order = sorted(best)
        teams = rate_teams([[current[a]] for a in order], [best[a] for a in order])
        for a, team in zip(order, teams, strict=True):
            current[a] = team[0]
    return [{"mu": mu, "sigma": sigma, "ordinal": ordinal((mu, sigma))} for mu, sigma in current]


def build_report(
    game: str, options: dict[str, JSON], schedule: Schedule, outcome: RunOutcome
) -> Report:
    """Aggregate ``outcome`` (see the module docstring for what counts)."""
    m, k = len(schedule.agents), schedule.num_players
    labels = schedule.labels()
    valid = list(iter_valid(outcome.results))
    errors = [r for r in outcome.results if r.error is not None]
    games = [0] * m
    wins = [0] * m
    scores: list[list[float]] = [[] for _ in range(m)]
    by_seat = [[[0, 0] for _ in range(k)] for _ in range(m)]
    seat_wins = [0] * k
    for r in valid:
        won = set(r.winners)
        present: dict[int, bool] = {}
        for seat, agent in enumerate(r.seating):
            present[agent] = present.get(agent, False) or seat in won
            scores[agent].append(r.scores[seat])
            by_seat[agent][seat][0] += 1
            if seat in won:
                by_seat[agent][seat][1] += 1
                seat_wins[seat] += 1
        for agent, has_won in present.items():
            games[agent] += 1
            wins[agent] += int(has_won)
    rates = ratings(valid, m)
    agents = [
        AgentStats(
            label=labels[a],
            spec=schedule.agents[a],
            games=games[a],
            wins=wins[a],
            win_rate=proportion(wins[a], games[a]),
            scores=summarize(scores[a]),
            rating=rates[a],
            by_seat=[(g, w) for g, w in by_seat[a]],
            score_values=scores[a],
        )
        for a in range(m)
    ]
    seats = seat_advantage(seat_wins, len(valid)) if valid else None
    length = summarize([r.length for r in valid])
    return Report(game, options, schedule, agents, seats, length, len(valid), errors, outcome)


CSV_FIXED = ["game", "seed", "length", "winners", "winner_agents", "error"]


def write_games_csv(report: Report, path: Path) -> Path:
    """One row per game: index, seed, length, winning seats and agents, then per seat the agent
    label and the score (``seat0_agent``, ``seat0_score`` ...). Deterministic content."""
    labels = report.schedule.labels()
    k = report.schedule.num_players
    header = list(CSV_FIXED)
    for s in range(k):
        header += [f"seat{s}_agent", f"seat{s}_score"]
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        for r in report.outcome.results:
            row: list[Any] = [
                r.index,
                r.seed,
                r.length,
                ";".join(str(s) for s in r.winners),
                ";".join(labels[r.seating[s]] for s in r.winners),
                r.error or "",
            ]
            for s in range(k):
                row += [labels[r.seating[s]], f"{r.scores[s]:g}" if r.scores else ""]
            writer.writerow(row)
    return path


def write_results(report: Report, out: Path, plots: bool = True) -> list[Path]:
    """Write ``results.json``, ``games.csv`` and (with ``plots``) the PNG plots into ``out``
    (created if needed); returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    res = out / "results.json"
    res.write_text(json.dumps(report.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
    paths.append(res)
    paths.append(write_games_csv(report, out / "games.csv"))
    if plots and report.games_played:
        from septet.arena.plots import write_plots

        paths += write_plots(report, out)
    return paths


__all__ = ["AgentStats", "Report", "build_report", "ratings", "write_games_csv", "write_results"]
