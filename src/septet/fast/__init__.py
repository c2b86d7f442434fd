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

try:  # the extra is optional: nothing else in Septet needs it
    import numba  # noqa: F401
    import numpy as np

    AVAILABLE = True
except ImportError:  # pragma: no cover - exercised where numba is missing
    AVAILABLE = False


def _drop_stale_caches() -> None:
    """Delete numba's on-disk caches of this package when any of its sources changed.

    numba keys a cached function on its own file only, but the kernels call across files (the
    search calls every game's kernel, the games call the generator): after an edit of one file
    the others' caches would still hold the old code. A fingerprint of every source of the
    package, kept beside the caches, detects that; nothing is deleted otherwise.
    """
    import hashlib
    from pathlib import Path

    try:
        from septet.fast.rng import next_u64

        dispatcher: Any = next_u64
        cache_dir = Path(dispatcher._cache._cache_path)  # numba's locator for this package
        sources = sorted(Path(__file__).parent.glob("*.py"))
        digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
        stamp = cache_dir / "septet-fast-sources.sha256"
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in cache_dir.glob("*.nb[ic]"):
            f.unlink()
        cache_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except (OSError, AttributeError, ImportError):  # a read-only or unusual cache: leave it
        pass


if AVAILABLE:
    _drop_stale_caches()


class FastUnavailable(SeptetError, RuntimeError):
    """The compiled kernels cannot run: numba is not installed (``pip install 'septet[fast]'``)
    or the game has no kernel."""


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
        if not AVAILABLE:
            raise FastUnavailable(
                "septet.fast needs numba: pip install 'septet[fast]' (or numba and numpy)"
            )
        name = _MODULES.get(game.name)
        if name is None:
            raise FastUnavailable(f"no compiled kernel for {game.name}")
        self.game = game
        self.module: Any = importlib.import_module(f"septet.fast.{name}")
        m = self.module
        self.params = m.greedy_params(dict(greedy or {}))
        self._buf = np.zeros(m.BUF, dtype=np.int64)
        self.encode = m.encode
        self.canonical = m.canonical
        self.current_player = m.current_player
        self.round_index = m.round_index
        self.legal_actions = m.legal_actions
        self.chance_outcomes = m.chance_outcomes
        self.chance_code = m.chance_code
        self.code_to_chance = m.code_to_chance
        self.sample_chance = m.sample_chance
        self.max_actions = m.max_actions

    def field_name(self, i: int) -> str:
        """What index ``i`` of an encoding holds."""
        return str(self.module.field_name(i, 0))

    def apply_chance(self, s: np.ndarray, code: int) -> None:
        """Apply a possible chance outcome in place."""
        self.module.apply_chance(s, code, self._buf)

    def apply_action(self, s: np.ndarray, action_id: int) -> None:
        """Apply a legal player action id in place."""
        self.module.apply_action(s, action_id, self._buf)

    def greedy_action(self, s: np.ndarray, legal: np.ndarray, count: int) -> int:
        """The greedy bot's choice among ``legal[:count]``."""
        return int(self.module.greedy_action(s, legal, count, self.params))

    def scores(self, s: np.ndarray) -> list[float]:
        """``State.scores()`` of the encoded state."""
        n = int(s[0])
        out = np.zeros(n, dtype=np.int64)
        self.module.scores(s, out)
        return [float(x) for x in out]

    def winners(self, s: np.ndarray) -> list[int]:
        """``sorted(State.winners())`` of the encoded state."""
        return [p for p in range(int(s[0])) if self.module.is_winner(s, p)]


def kernel_for(game: Any, greedy: Mapping[str, str] | None = None) -> GameKernel:
    """The compiled kernel of ``game``.

    Raises:
        FastUnavailable: numba is missing or the game has no kernel.
    """
    return GameKernel(game, greedy)


__all__ = ["AVAILABLE", "FastUnavailable", "GameKernel", "kernel_for"]
