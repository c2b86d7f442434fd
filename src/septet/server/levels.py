"""Bot levels offered in the lobby: Easy, Normal, Strong (弱い / 普通 / 強い), each an agent spec.

``GET /api/games`` lists, for each game, the levels whose agent can play it; ``POST /api/tables``
accepts a level name where an agent spec goes; each seat of a table summary carries its
``level`` (``None`` for people and for specs that are no level). The client words the levels and
shows the spec as a detail.

How the levels were chosen (``septet simulate``, docs/server.md): Normal is the game's greedy
bot. Easy is greedy that plays a uniformly random legal move three times in ten
(``epsilon-greedy:epsilon=0.3``): against Normal it wins 23.7% of 2-player Flip 7 games, 17.7%
of 2-player Double Seven games and 19.3% of 3-player Seven Shot games (fair share 33%), where
the plain random bot wins 0.5% and 0% (it is no opponent: it stays on 2 and hits on 20).
Strong is ISMCTS at the server's budget, per game (:data:`STRONG`): the settings the ladder
measured best at 0.5 s a move (docs/bots.md, "At a server's budget"), searched in the compiled
kernels of :mod:`septet.fast` when the ``fast`` extra is installed (``engine=auto``, the default)
and in Python otherwise. A game without such settings (a plug-in) gets ISMCTS with a one-second
budget. A game without a greedy bot gets ``random`` for Easy and no Normal. The ``expert`` agent
(:mod:`septet.bots.expert`: Strong's search at 0.9 s with two searches a move at once) is not a
level: measured against Strong it is level with it, not above, in every game and table size
tried (docs/bots.md, "Expert").
"""

from __future__ import annotations

from typing import Any

from septet.bots import make_agent
from septet.core import Game

STRONG_DEFAULT = "ismcts:time=1.0"
"""Strong for a game without settings in :data:`STRONG`: ISMCTS with a one-second budget."""

STRONG: dict[str, str] = {
    "flip7": "ismcts:time=0.5,rollout=greedy,horizon=round,tree=1,bias=1",
    "seven-shot": "ismcts:time=0.5,rollout=greedy,horizon=round",
    "double-seven": "ismcts:time=0.5,rollout=greedy,tree=1,bias=1,utility=score",
}
"""Strong per game (both Flip 7 editions share one): ISMCTS at 0.5 s a move with the ladder's
best settings; ``engine=auto`` runs it in the compiled kernels when numba is installed."""

LEVELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("easy", ("epsilon-greedy:epsilon=0.3", "random")),
    ("normal", ("greedy",)),
    ("strong", (STRONG_DEFAULT,)),
)
"""``(level, agent specs)`` in order of strength, for any game (see :func:`levels_of_game` for a
given game's); a level is the first spec that plays the game."""


def levels_of_game(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """:data:`LEVELS` for the game called ``name``: its Strong from :data:`STRONG` first (then
    :data:`STRONG_DEFAULT`, should that spec not build)."""
    strong = STRONG.get(name)
    if strong is None:
        return LEVELS
    return tuple((lv, (strong, *specs) if lv == "strong" else specs) for lv, specs in LEVELS)


SERVER_BOT_SPECS = {"ismcts": "ismcts:time=1.0"}
"""How the server runs a bot offered by bare name: search bots get a one-second budget per move
so a table keeps a readable pace."""


def server_spec(spec: str) -> str:
    """The spec the server runs for ``spec`` (a bare ``ismcts`` gets the time budget)."""
    return SERVER_BOT_SPECS.get(spec, spec)


_PLAYS: dict[tuple[str, str, str], bool] = {}
"""``(spec, game name, options) -> plays``: whether an agent builds for a game is asked on every
table created and every ``GET /api/games``; building a search agent the first time imports the
compiled kernels (seconds), so each answer is kept (a process sees a few dozen keys)."""


def _plays(spec: str, game: Game[Any]) -> bool:
    """Whether the agent ``spec`` builds for ``game`` (it plays the game and is installed)."""
    key = (spec, game.name, repr(sorted(game.options_dict().items())))
    found = _PLAYS.get(key)
    if found is None:
        try:
            make_agent(spec, game)
            found = True
        except Exception:  # a bot that does not play this game, or is not installed
            found = False
        if len(_PLAYS) > 1000:
            _PLAYS.clear()
        _PLAYS[key] = found
    return found


def warm_levels() -> None:
    """Find the levels of every registered game with its default options, building each
    level's agent once (for Strong: importing the compiled kernels, seconds of CPU). The server
    calls it on a thread at start, so that no request waits for it on the event loop."""
    from septet.core import registry

    for name in registry.names():
        levels_for(registry.get(name))


def levels_for(game: Game[Any]) -> list[dict[str, str]]:
    """``[{"level": "easy", "spec": "epsilon-greedy:epsilon=0.3"}, ...]``: each level that has
    an agent for ``game``, with that agent's spec."""
    out = []
    for lv, _ in LEVELS:
        spec = spec_of_level(lv, game)
        if spec is not None:
            out.append({"level": lv, "spec": spec})
    return out


def spec_of_level(name: str, game: Game[Any]) -> str | None:
    """The agent spec of level ``name`` for ``game``, or ``None`` if ``name`` is no level (or no
    agent of that level plays this game)."""
    for lv, specs in levels_of_game(game.name):
        if lv == name:
            return next((spec for spec in specs if _plays(spec, game)), None)
    return None


def level_of(spec: str | None, game: Game[Any]) -> str | None:
    """The level of ``game`` whose agent ``spec`` is (a bare ``ismcts`` counts as the server
    runs it), else ``None``. The generic Strong (:data:`STRONG_DEFAULT`) still reads as Strong
    in every game, so that tables made before Strong was per game keep their level."""
    if not spec:
        return None
    wanted = server_spec(spec)
    for item in _levels_cached(game.name, repr(sorted(game.options_dict().items())), game):
        if server_spec(item["spec"]) == wanted:
            return item["level"]
    if wanted == STRONG_DEFAULT and spec_of_level("strong", game) is not None:
        return "strong"
    return None


_CACHE: dict[tuple[str, str], list[dict[str, str]]] = {}


def _levels_cached(name: str, options: str, game: Game[Any]) -> list[dict[str, str]]:
    key = (name, options)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 1000:
            _CACHE.clear()
        found = _CACHE[key] = levels_for(game)
    return found
