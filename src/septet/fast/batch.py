"""Batch entry points: many playouts from one encoded state, or many whole games from seeds,
in one compiled call.

- :func:`playouts` — ``count`` playouts from one state (a position of any game), each seat by
  ``random``, ``greedy`` or ``risk`` (Flip 7) moves, to the end of the game, of the round, or
  for ``depth`` steps: final scores and winner flags per playout.
- :func:`play_games` — whole games from their seeds with a policy per seat and game (the arena's
  ``septet simulate --engine fast``): scores, winner flags and lengths.

Random streams are :mod:`septet.fast.rng` generators seeded from the integer seeds, so a batch
is reproducible; they are not the Python engines' streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from septet.fast import GameKernel, kernel_for
from septet.fast.rng import rngs_for_seeds, seed_streams

POLICIES = {"random": 0, "greedy": 1, "risk": 2}
"""Policy codes of the kernels' playouts (``risk``: Flip 7 only)."""
RISK_GAMES = ("flip7",)


@dataclass
class BatchResult:
    """What a batch returns (one row per playout or game).

    Attributes:
        scores: ``int64[count, n]`` final scores (``State.scores()``; for a cut playout the
            scores where it stopped).
        wins: ``int8[count, n]`` 1 for each winning seat of a finished game, else 0.
        lengths: ``int64[count]`` steps played (actions and chance outcomes).
    """

    scores: np.ndarray
    wins: np.ndarray
    lengths: np.ndarray


def _policy_codes(policies: Sequence[str] | str, n: int, game: str) -> np.ndarray:
    if isinstance(policies, str):
        policies = [policies] * n
    if len(policies) != n:
        raise ValueError(f"{len(policies)} policies for {n} seats")
    try:
        codes = np.array([POLICIES[p] for p in policies], dtype=np.int64)
    except KeyError as exc:
        raise ValueError(
            f"unknown policy {exc.args[0]!r}; policies: random, greedy, risk (Flip 7)"
        ) from None
    if game not in RISK_GAMES and (codes == POLICIES["risk"]).any():
        raise ValueError(f"the risk policy plays Flip 7 only, not {game}")
    return codes


def playouts(
    state: Any,
    count: int,
    policies: Sequence[str] | str = "random",
    *,
    horizon: str = "game",
    depth: int | None = None,
    seed: int = 0,
    kernel: GameKernel | None = None,
    fast: bool = True,
) -> BatchResult:
    """``count`` playouts from ``state`` (an engine State, encoded once).

    Args:
        state: any position of a game with a kernel.
        count: playouts.
        policies: ``"random"``, ``"greedy"`` or ``"risk"`` (Flip 7), for every seat or one
            per seat.
        horizon: ``"game"`` or ``"round"`` (stop once the round in hand is scored).
        depth: stop after this many steps (default: no limit).
        seed: playout ``i`` uses stream ``i`` of ``seed``.
        kernel: a kernel with the greedy's parameters (default: ``kernel_for(state.game)``).
        fast: the playout path (default) or the step path; the same games either way.

    Raises:
        ValueError: unknown policy or horizon.
        FastUnavailable: no numba or no kernel for the game.
    """
    k = kernel if kernel is not None else kernel_for(state.game)
    if horizon not in ("game", "round"):
        raise ValueError(f"horizon must be game or round, not {horizon!r}")
    n = state.num_players
    start = k.encode(state)
    pol = _policy_codes(policies, n, state.game.name)
    rngs = seed_streams(seed, count)
    out = BatchResult(
        np.zeros((count, n), dtype=np.int64),
        np.zeros((count, n), dtype=np.int8),
        np.zeros(count, dtype=np.int64),
    )
    k.play_rows(fast)(
        start,
        rngs,
        np.tile(pol, (count, 1)),
        horizon == "round",
        -1 if depth is None else int(depth),
        k.params,
        fast,
        out.scores,
        out.wins,
        out.lengths,
    )
    return out


def play_games(
    game: Any,
    num_players: int,
    seeds: Sequence[int],
    policies: Sequence[Sequence[str]],
    *,
    kernel: GameKernel | None = None,
    fast: bool = True,
) -> BatchResult:
    """Whole games from new states: game ``i`` with seed ``seeds[i]`` and ``policies[i][seat]``
    (``random``, ``greedy``, or ``risk`` in Flip 7), by the kernel's playout path (``fast``,
    the default: no legal-action array or chance step where the game has one) or its step path;
    the same seeds give the same games either way.

    Raises:
        ValueError: unknown policy, or not one policy row per seed.
        FastUnavailable: no numba or no kernel for the game.
    """
    k = kernel if kernel is not None else kernel_for(game)
    if len(policies) != len(seeds):
        raise ValueError("one row of policies per seed expected")
    count = len(seeds)
    start = k.encode(game.new_state(num_players))
    rngs = rngs_for_seeds(seeds)
    # One row of codes per distinct row of names (a batch has few), then one gather.
    table: dict[tuple[str, ...], int] = {}
    rows: list[np.ndarray] = []
    index = np.zeros(count, dtype=np.int64)
    for i, row in enumerate(policies):
        key = tuple(row)
        j = table.get(key)
        if j is None:
            j = table[key] = len(rows)
            rows.append(_policy_codes(row, num_players, game.name))
        index[i] = j
    pol = (np.stack(rows)[index] if rows else np.zeros((0, num_players), dtype=np.int64)).astype(
        np.int64
    )
    out = BatchResult(
        np.zeros((count, num_players), dtype=np.int64),
        np.zeros((count, num_players), dtype=np.int8),
        np.zeros(count, dtype=np.int64),
    )
    k.play_rows(fast)(
        start, rngs, pol, False, -1, k.params, fast, out.scores, out.wins, out.lengths
    )
    return out


__all__ = ["POLICIES", "BatchResult", "play_games", "playouts"]
