"""The Expert level (agent spec ``expert``): each game's strongest bot at under a second a move.

Every game's Expert is its Strong search (ISMCTS, Cowling, Powley & Whitehouse, 2012, with the
server's Strong settings) at 0.9 s a move instead of 0.5 s, with two searches of the move at
once (``threads``: root parallelisation, so two cores think), in the compiled kernels when numba
is installed (:data:`EXPERT_SPECS`; Seven Shot's :class:`~septet.bots.expert.seven_shot.
SevenShotExpert`, which also offers a perfect-information Monte Carlo endgame with a compiled
trick solver and likelihood-weighted samples, off by default). Not shown stronger than Strong
(docs/bots.md, "Expert"), so not a server level.

Spec parameters: ``expert:time=0.9,threads=2`` in every game; Seven Shot also takes ``nodes``,
``min_samples``, ``weight``, ``temper``, ``endgame``, ``objective``, ``pool``, ``iterations``,
``passing`` and ``rollout``.
"""

from __future__ import annotations

from typing import Any

from septet.core.game import Game
from septet.core.play import Agent

EXPERT_SPECS: dict[str, str] = {
    "flip7": "ismcts:time={time},rollout=greedy,horizon=round,tree=1,bias=1,threads={threads}",
    "double-seven": (
        "ismcts:time={time},rollout=greedy,tree=1,bias=1,utility=score,threads={threads}"
    ),
}
"""Expert for the games without a dedicated bot: an ISMCTS spec with ``{time}`` and
``{threads}`` slots."""

DEFAULT_THREADS = "2"
"""Searches a move runs at once (root parallelisation, ``ismcts``' ``threads``): the Expert
takes two cores while it thinks."""

DEFAULT_TIME = "0.9"
"""Seconds of thinking a move (the server's Expert stays under a second)."""


def make_expert(game: Game[Any], **params: str) -> Agent:
    """The ``expert`` agent for ``game``.

    Raises:
        TypeError: parameters the game's Expert does not take. ValueError: bad values, or a
        game without an Expert (``make_agent`` reports both as ``AgentSpecError``).
    """
    if game.name == "seven-shot":
        from septet.bots.expert.seven_shot import SevenShotExpert

        return SevenShotExpert(game, **params)
    spec = EXPERT_SPECS.get(game.name)
    if spec is None:
        raise ValueError(f"no expert for {game.name}")
    unknown = sorted(set(params) - {"time", "threads"})
    if unknown:
        raise TypeError(f"unknown expert parameter(s) {', '.join(unknown)}; known: time, threads")
    from septet.bots import make_agent

    seconds = float(params.get("time", DEFAULT_TIME))
    if not seconds > 0:
        raise ValueError(f"time must be positive seconds, not {params['time']!r}")
    return make_agent(
        spec.format(time=seconds, threads=params.get("threads", DEFAULT_THREADS)), game
    )


__all__ = ["DEFAULT_THREADS", "DEFAULT_TIME", "EXPERT_SPECS", "make_expert"]
