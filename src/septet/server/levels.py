"""Bot levels offered in the lobby: Easy, Normal, Strong (弱い / 普通 / 強い), each an agent spec.

``GET /api/games`` lists, for each game, the levels whose agent can play it; ``POST /api/tables``
accepts a level name where an agent spec goes; each seat of a table summary carries its
``level`` (``None`` for people and for specs that are no level). The client words the levels and
shows the spec as a detail.

How the levels were chosen (``septet simulate <game> -a random,greedy -n 200``, docs/server.md):
Easy is the uniform random legal move, which loses clearly to Normal in every game yet plays
real moves; Normal is the game's greedy bot; Strong is ISMCTS with the server's one-second
budget per move.
"""

from __future__ import annotations

from typing import Any

from septet.bots import make_agent
from septet.core import Game

LEVELS: tuple[tuple[str, str], ...] = (
    ("easy", "random"),
    ("normal", "greedy"),
    ("strong", "ismcts:time=1.0"),
)
"""``(level, agent spec)`` in order of strength."""

SERVER_BOT_SPECS = {"ismcts": "ismcts:time=1.0"}
"""How the server runs a bot offered by bare name: search bots get a one-second budget per move
so a table keeps a readable pace."""


def server_spec(spec: str) -> str:
    """The spec the server runs for ``spec`` (a bare ``ismcts`` gets the time budget)."""
    return SERVER_BOT_SPECS.get(spec, spec)


def _plays(spec: str, game: Game[Any]) -> bool:
    try:
        make_agent(spec, game)
    except Exception:  # a bot that does not play this game, or is not installed
        return False
    return True


def levels_for(game: Game[Any]) -> list[dict[str, str]]:
    """``[{"level": "easy", "spec": "random"}, ...]``: the levels whose agent plays ``game``."""
    return [{"level": lv, "spec": spec} for lv, spec in LEVELS if _plays(spec, game)]


def spec_of_level(name: str, game: Game[Any]) -> str | None:
    """The agent spec of level ``name`` for ``game``, or ``None`` if ``name`` is no level (or
    that level's agent does not play this game)."""
    for lv, spec in LEVELS:
        if lv == name:
            return spec if _plays(spec, game) else None
    return None


def level_of(spec: str | None) -> str | None:
    """The level whose spec ``spec`` is (bare names count as the server runs them), else
    ``None``."""
    if not spec:
        return None
    wanted = server_spec(spec)
    for lv, level_spec in LEVELS:
        if server_spec(level_spec) == wanted:
            return lv
    return None
