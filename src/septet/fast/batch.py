"""Batch entry points: many playouts from one encoded state, or many whole games from seeds,
in one compiled call.

- :func:`playouts` — ``count`` playouts from one state (a position of any game), each seat by
  ``random`` or ``greedy`` moves, to the end of the game, of the round, or for ``depth`` steps:
  final scores and winner flags per playout.
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
from numba import njit

from septet.fast import GameKernel, kernel_for
from septet.fast.rng import rngs_for_seeds, seed_streams
from septet.fast.search import GAME_IDS, _current, _is_winner, _playout, _scores

POLICIES = {"random": 0, "greedy": 1}


@njit(cache=True)
def _play_games(
    g: int,
    start: np.ndarray,
    rngs: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    scores_out: np.ndarray,
    wins_out: np.ndarray,
    lengths_out: np.ndarray,
) -> None:
    n = start[0]
    legal = np.zeros(8192, dtype=np.int64)
    buf = np.zeros(4096, dtype=np.int64)
    sc = np.zeros(n, dtype=np.int64)
    for i in range(rngs.shape[0]):
        s = start.copy()
        lengths_out[i] = _playout(
            g, s, rngs[i], policies[i], horizon_round, max_steps, params, legal, buf
        )
        _scores(g, s, sc)
        terminal = _current(g, s) == -4
        for p in range(n):
            scores_out[i, p] = sc[p]
            wins_out[i, p] = 1 if terminal and _is_winner(g, s, p) else 0


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


def _policy_codes(policies: Sequence[str] | str, n: int) -> np.ndarray:
    if isinstance(policies, str):
        policies = [policies] * n
    if len(policies) != n:
        raise ValueError(f"{len(policies)} policies for {n} seats")
    try:
        return np.array([POLICIES[p] for p in policies], dtype=np.int64)
    except KeyError as exc:
        raise ValueError(f"unknown policy {exc.args[0]!r}; policies: random, greedy") from None


def playouts(
    state: Any,
    count: int,
    policies: Sequence[str] | str = "random",
    *,
    horizon: str = "game",
    depth: int | None = None,
    seed: int = 0,
    kernel: GameKernel | None = None,
) -> BatchResult:
    """``count`` playouts from ``state`` (an engine State, encoded once).

    Args:
        state: any position of a game with a kernel.
        count: playouts.
        policies: ``"random"`` or ``"greedy"``, for every seat or one per seat.
        horizon: ``"game"`` or ``"round"`` (stop once the round in hand is scored).
        depth: stop after this many steps (default: no limit).
        seed: playout ``i`` uses stream ``i`` of ``seed``.
        kernel: a kernel with the greedy's parameters (default: ``kernel_for(state.game)``).

    Raises:
        ValueError: unknown policy or horizon.
        FastUnavailable: no numba or no kernel for the game.
    """
    k = kernel if kernel is not None else kernel_for(state.game)
    if horizon not in ("game", "round"):
        raise ValueError(f"horizon must be game or round, not {horizon!r}")
    n = state.num_players
    start = k.encode(state)
    pol = _policy_codes(policies, n)
    rngs = seed_streams(seed, count)
    out = BatchResult(
        np.zeros((count, n), dtype=np.int64),
        np.zeros((count, n), dtype=np.int8),
        np.zeros(count, dtype=np.int64),
    )
    _play_games(
        GAME_IDS[state.game.name],
        start,
        rngs,
        np.tile(pol, (count, 1)),
        horizon == "round",
        -1 if depth is None else int(depth),
        k.params,
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
) -> BatchResult:
    """Whole games from new states: game ``i`` with seed ``seeds[i]`` and ``policies[i][seat]``.

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
    pol = np.zeros((count, num_players), dtype=np.int64)
    for i, row in enumerate(policies):
        pol[i] = _policy_codes(row, num_players)
    out = BatchResult(
        np.zeros((count, num_players), dtype=np.int64),
        np.zeros((count, num_players), dtype=np.int8),
        np.zeros(count, dtype=np.int64),
    )
    _play_games(
        GAME_IDS[game.name],
        start,
        rngs,
        pol,
        False,
        -1,
        k.params,
        out.scores,
        out.wins,
        out.lengths,
    )
    return out


__all__ = ["POLICIES", "BatchResult", "play_games", "playouts"]
