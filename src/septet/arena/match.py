"""A simulation from Python, without the command line: ``septet.arena.match``.

>>> from septet import games
>>> from septet.arena import match
>>> report = match(games.get("flip7"), ["greedy", "random"], num_games=100)  # doctest: +SKIP
>>> report.agents[0].win_rate  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from septet.arena.report import Report, build_report
from septet.arena.runner import make_job, run
from septet.arena.schedule import Schedule
from septet.core.game import Game


def match(
    game: Game[Any],
    agents: Sequence[str],
    num_games: int,
    *,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Report:
    """Play ``num_games`` games of ``game`` between the agent specs ``agents`` with the seats
    rotated (see :mod:`septet.arena.schedule`) and return the :class:`Report` (per-agent win
    rates with Wilson intervals, score summaries, openskill ratings, seat advantage, game length).

    The result depends only on the game, the agents, ``players``, ``num_games`` and ``seed``, not
    on ``workers`` or ``backend`` (for agents that do not stop on the clock).

    Raises:
        OptionError: ``players`` not supported by the game.
        AgentSpecError: an unknown agent or bad parameters.
        ValueError: no agents, a negative number of games, an unknown backend.
    """
    from septet.bots import make_agent

    k = players if players is not None else len(agents)
    game.check_num_players(k)
    for spec in dict.fromkeys(agents):
        make_agent(spec, game)
    schedule = Schedule(tuple(agents), k, num_games, seed)
    outcome = run(make_job(game, schedule), workers, backend, on_progress, address)
    return build_report(game.name, game.options_dict(), schedule, outcome)


__all__ = ["match"]
