"""A scripted agent: plays a fixed list of moves, each keyed by the position it was written for,
and falls back to the game's greedy bot where the script no longer fits.

A script is a mapping from a *view key* (:func:`view_key`: a short digest of the seat's view,
which a game that follows the script reaches again exactly, since the view is all the seat may
know) to the notation of the move to play there. Keying by the view keeps the agent stateless: a
bot worker that restarts, or another process, plays the same move at the same position. A
position the script does not know (the game went another way) or a scripted move that is not
legal there gets the greedy bot's move (``random`` for a game without one).

Scripts are built by ``tools/learn_search.py`` (the guided first games of the web client) and
stored as JSON in ``septet/bots/data/scripts/<name>.json``; the agent spec is
``script:name=<name>``. The file holds ``{"bots": {view_key: notation, ...}, ...}``; other keys
belong to whoever built it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from septet.core.errors import SeptetError
from septet.core.game import Action, Game
from septet.core.types import JSON

SCRIPTS = ("data", "scripts")
"""Where, under ``septet.bots``, the ``<name>.json`` files of the scripts lie."""


def view_key(view: Mapping[str, JSON]) -> str:
    """The key of a seat's view in a script: the first 16 hex digits of the SHA-256 of its JSON
    (keys sorted, no spaces). Two views have the same key exactly when they are equal (but for
    a collision, 1 in 2**64)."""
    text = json.dumps(dict(view), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def load_script(name: str) -> dict[str, Any]:
    """The script file ``name`` as a dict (``"bots"``: view key → notation, and whatever else
    its builder keeps).

    Raises:
        SeptetError: no such script, or it is not a JSON object with ``"bots"``.
    """
    if not name.replace("-", "").replace("_", "").isalnum():
        raise SeptetError(f"bad script name {name!r}")
    try:
        ref = resources.files("septet.bots").joinpath(*SCRIPTS, f"{name}.json")
        text = ref.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SeptetError(f"no script called {name!r}") from None
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("bots"), dict):
        raise SeptetError(f"script {name!r} has no bots' moves")
    return data


class ScriptedAgent:
    """Plays ``moves[view_key(view)]`` when that is a legal move, else the fallback bot's move.

    Args:
        game: the game played.
        moves: view key → move notation (see :func:`view_key`).
        fallback: the agent spec played off script (default ``greedy``; ``random`` where the
            game has no greedy bot).

    Spec: ``script:name=<name>`` (a file of :data:`SCRIPTS`), optionally ``fallback=<spec>``.
    """

    def __init__(self, game: Game[Any], moves: Mapping[str, str], fallback: str = "greedy") -> None:
        from septet.bots import make_agent

        self.game = game
        self.moves = dict(moves)
        try:
            self.fallback = make_agent(fallback, game)
        except SeptetError:
            self.fallback = make_agent("random", game)
        self.name = "script"
        self.off_script = 0  # moves played by the fallback (for tests and logs)

    def scripted(self, view: Mapping[str, JSON], legal: Sequence[Action]) -> Action | None:
        """The script's move at ``view`` if it is one of ``legal``, else ``None``."""
        text = self.moves.get(view_key(view))
        if text is None:
            return None
        return next((a for a in legal if str(a) == text), None)

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        action = self.scripted(view, legal_actions)
        if action is not None:
            return action
        self.off_script += 1
        return self.fallback.act(view, legal_actions, rng)


def make_scripted(game: Game[Any], name: str = "", fallback: str = "greedy") -> ScriptedAgent:
    """The agent of spec ``script:name=<name>``.

    Raises:
        SeptetError: no such script, or it was written for another game.
    """
    data = load_script(name)
    if data.get("game", game.name) != game.name:
        raise SeptetError(f"script {name!r} is for {data['game']}, not {game.name}")
    return ScriptedAgent(game, data["bots"], fallback)
