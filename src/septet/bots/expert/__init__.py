"""The Expert level (agent spec ``expert``): each game's strongest bot at about a second a move.

- Seven Shot: Strong's ISMCTS at the Expert's time until the deal's end can be solved, then
  perfect-information Monte Carlo over likelihood-weighted samples with a compiled alpha-beta
  solver of the tricks left (:mod:`septet.bots.expert.seven_shot`,
  :mod:`septet.bots.expert.inference`, :mod:`septet.bots.expert.ss_solver`; Ginsberg's GIB,
  2001).
- Flip 7 and Double Seven: ISMCTS (Cowling, Powley & Whitehouse, 2012) with Strong's settings
  at 0.9 s instead of 0.5 s (:data:`EXPERT_SPECS`), in the compiled kernels when numba is
  installed; not shown stronger than Strong (docs/bots.md).

Spec parameters: ``expert:time=0.9`` sets the seconds a move in every game; Seven Shot also
takes ``nodes``, ``min_samples``, ``weight``, ``endgame``, ``pool``, ``iterations``, ``passing``
and ``rollout`` (:class:`~septet.bots.expert.seven_shot.SevenShotExpert`).
"""

from __future__ import annotations

from typing import Any

from septet.core.game import Game
from septet.core.play import Agent

EXPERT_SPECS: dict[str, str] = {
    "flip7": "ismcts:time={time},rollout=greedy,horizon=round,tree=1,bias=1",
    "double-seven": "ismcts:time={time},rollout=greedy,tree=1,bias=1,utility=score",
}
"""Expert for the games without a dedicated bot: an ISMCTS spec with a ``{time}`` slot."""

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
    unknown = sorted(set(params) - {"time"})
    if unknown:
        raise TypeError(f"unknown expert parameter(s) {', '.join(unknown)}; known: time")
    from septet.bots import make_agent

    seconds = float(params.get("time", DEFAULT_TIME))
    if not seconds > 0:
        raise ValueError(f"time must be positive seconds, not {params['time']!r}")
    return make_agent(spec.format(time=seconds), game)


__all__ = ["DEFAULT_TIME", "EXPERT_SPECS", "make_expert"]
