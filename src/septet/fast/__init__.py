"""Fast playouts: compiled kernels (numba) that are exact twins of the Python engines.

Install with ``pip install 'septet[fast]'``. For each game, ``septet.fast.<game>`` holds an
integer encoding of a State (``encode``, read from the engine's public ``state_dict()``) and
compiled functions over it: legal actions, apply, chance outcomes and sampling, scores, the
greedy bot's decision, and playouts with random or greedy policies to the end of the game, of
the round, or for a number of steps. :func:`kernel_for` gives a game's kernel behind one small
interface (:class:`GameKernel`); :mod:`septet.fast.batch` runs many playouts or whole games in
one call; :mod:`septet.arena.twins` checks each kernel against its engine step by step.

The Python engines stay the reference: every kernel is checked against its engine by the
fast-twin check (``septet.arena.twins.check_twin``), and without numba everything in Septet works
as before (``AVAILABLE`` is then False and :func:`kernel_for` raises :class:`FastUnavailable`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from septet.core.errors import SeptetError
from septet.fast._mode import aot_module, mode

AVAILABLE = mode() != "none"
"""Whether the kernels can run here: built ahead of time (``aot``), or numba installed (``jit``;
see :mod:`septet.fast._mode`)."""

if AVAILABLE:
    import numpy as np

if mode() == "jit":
    from septet.fast._cache import drop_stale

    drop_stale()  # before any kernel is loaded: a changed rule table means a rebuild


class FastUnavailable(SeptetError, RuntimeError):
    """The compiled kernels cannot run: numba is not installed (``pip install 'septet[fast]'``)
    or the game has no kernel."""


def require() -> None:
    """Raise :class:`FastUnavailable` (saying how to install it) unless the kernels can run
    (numba installed, or the kernels built ahead of time)."""
    if not AVAILABLE:
        raise FastUnavailable(
            "septet.fast needs numba: pip install 'septet[fast]' (or numba and numpy)"
        )


_MODULES = {"flip7": "flip7", "double-seven": "double_seven", "seven-shot": "seven_shot"}


class GameKernel:
    """One game's compiled kernel behind a uniform interface (arrays in, ints out).

    States are ``int64`` numpy arrays (``encode(state)``); actions are the game's fixed player
    action ids (``Game.action_to_id``); chance outcomes are small integer codes
    (``chance_code`` / ``code_to_chance``).

    Args:
        game: the game with its options (the kernel module reads the options from the state).
        greedy: the greedy spec's parameters (``{"threshold": "25"}`` for Flip 7), used by
            :meth:`greedy_action` and greedy playouts.
    """

    def __init__(self, game: Any, greedy: Mapping[str, str] | None = None) -> None:
        require()
        name = _MODULES.get(game.name)
        if name is None:
            raise FastUnavailable(f"no compiled kernel for {game.name}")
        self.game = game
        self.module: Any = importlib.import_module(f"septet.fast.{name}")
        m = self.module
        # The compiled functions: the module's own (numba), or the same functions built ahead
        # of time (septet.fast.aot), whose module holds every one that compiled code here.
        self.compiled: Any = aot_module(f"{game.name}-play") if mode() == "aot" else m
        c = self.compiled
        self.params = m.greedy_params(dict(greedy or {}))
        self._buf = np.zeros(m.BUF, dtype=np.int64)
        self.encode = m.encode
        self.chance_code = m.chance_code
        self.code_to_chance = m.code_to_chance
        self.canonical = c.canonical
        self.current_player = c.current_player
        self.round_index = c.round_index
        self.legal_actions = c.legal_actions
        self.chance_outcomes = c.chance_outcomes
        self.sample_chance = c.sample_chance
        self.max_actions = getattr(c, "max_actions", m.max_actions)

    def play_rows(self, fast: bool) -> Any:
        """The compiled ``play_rows_fast`` (the playout path) or ``play_rows_step`` (the step
        path) of the game (:mod:`septet.fast.batch`)."""
        return self.compiled.play_rows_fast if fast else self.compiled.play_rows_step

    def field_name(self, i: int) -> str:
        """What index ``i`` of an encoding holds."""
        return str(self.module.field_name(i, 0))

    def apply_chance(self, s: np.ndarray, code: int) -> None:
        """Apply a possible chance outcome in place."""
        self.compiled.apply_chance(s, code, self._buf)

    def apply_action(self, s: np.ndarray, action_id: int) -> None:
        """Apply a legal player action id in place."""
        self.compiled.apply_action(s, action_id, self._buf)

    def greedy_action(self, s: np.ndarray, legal: np.ndarray, count: int) -> int:
        """The greedy bot's choice among ``legal[:count]``."""
        return int(self.compiled.greedy_action(s, legal, count, self.params))

    def scores(self, s: np.ndarray) -> list[float]:
        """``State.scores()`` of the encoded state."""
        n = int(s[0])
        out = np.zeros(n, dtype=np.int64)
        self.compiled.scores(s, out)
        return [float(x) for x in out]

    def winners(self, s: np.ndarray) -> list[int]:
        """``sorted(State.winners())`` of the encoded state."""
        return [p for p in range(int(s[0])) if self.compiled.is_winner(s, p)]


def kernel_for(game: Any, greedy: Mapping[str, str] | None = None) -> GameKernel:
    """The compiled kernel of ``game``.

    Raises:
        FastUnavailable: numba is missing or the game has no kernel.
    """
    return GameKernel(game, greedy)


__all__ = ["AVAILABLE", "FastUnavailable", "GameKernel", "kernel_for", "require"]
