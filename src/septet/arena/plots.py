"""PNG plots of a simulation (matplotlib, Agg backend: no display needed).

- ``scores.png``: the distribution of final scores per agent (box plots with the mean marked).
- ``win_rate_by_seat.png``: each agent's win rate in each seat, with 95% Wilson intervals, and
  the rate of the seat whoever sits there (the seat advantage).
- ``game_length.png``: a histogram of game lengths (steps: actions and chance outcomes).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from septet.arena.stats import proportion

if TYPE_CHECKING:
    from septet.arena.report import Report


def write_plots(report: Report, out: Path) -> list[Path]:
    """Write the three plots into ``out``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    title = f"{report.game}: {report.games_played} games"
    paths: list[Path] = []
    for name, draw in (
        ("scores.png", _scores_plot),
        ("win_rate_by_seat.png", _seats_plot),
        ("game_length.png", _length_plot),
    ):
        fig = draw(plt, report, title)
        fig.tight_layout()
        paths.append(out / name)
        fig.savefig(paths[-1], dpi=100)
        plt.close(fig)
    return paths


def _scores_plot(plt: Any, report: Report, title: str) -> Any:
    """Score distribution per agent (box plot, means shown)."""
    labels = [a.label for a in report.agents]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(labels) + 2), 4))
    data = [a.score_values or [0.0] for a in report.agents]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20, ha="right")
    ax.set_ylabel("final score")
    ax.set_title(f"Score distribution per agent ({title})")
    return fig


def _seats_plot(plt: Any, report: Report, title: str) -> Any:
    """Win rate by seat per agent (and for any agent), with 95% Wilson intervals."""
    labels = [a.label for a in report.agents]
    k = report.schedule.num_players
    fig, ax = plt.subplots(figsize=(max(5.0, 1.0 * k * (len(labels) + 1) + 2), 4))
    width = 0.8 / (len(labels) + 1)
    groups = [(a.label, a.by_seat) for a in report.agents]
    if report.seats is not None:
        seat_pairs = [(p.trials, round(p.successes)) for p in report.seats.seats]
        groups.append(("any agent", seat_pairs))
    for j, (label, by_seat) in enumerate(groups):
        xs, ys, lo, hi = [], [], [], []
        for seat, (games, wins) in enumerate(by_seat):
            if games == 0:
                continue
            p = proportion(wins, games)
            xs.append(seat + (j - len(groups) / 2 + 0.5) * width)
            ys.append(p.rate)
            lo.append(p.rate - p.low)
            hi.append(p.high - p.rate)
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=label)
    ax.set_xticks(range(k), [f"seat {s}" for s in range(k)])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_title(f"Win rate by seat ({title})")
    ax.legend(fontsize="small")
    return fig


def _length_plot(plt: Any, report: Report, title: str) -> Any:
    """Histogram of game lengths (steps, chance outcomes included)."""
    lengths = [r.length for r in report.outcome.results if r.error is None]
    fig, ax = plt.subplots(figsize=(6, 4))
    bins = min(50, max(1, len(set(lengths))))
    ax.hist(lengths, bins=bins)
    ax.set_xlabel("steps per game (actions and chance outcomes)")
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({title})")
    return fig


__all__ = ["write_plots"]
