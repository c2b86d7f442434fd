"""Shared pieces of the environment tests: which games and player counts to run, and skips."""

from __future__ import annotations

import os
import random
from typing import Any

from septet import games
from septet.core import CHANCE, Game, State

from . import envs_tiny_game  # registers "envs-tiny"

TINY = envs_tiny_game.TinySevens.name

# (game, num_players, options): the sensible player counts of each engine, kept few so the
# suite stays quick. Flip 7 supports up to 36 seats; 6 and 8 stand in for the large tables.
REAL_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("double-seven", 2, {}),
    ("double-seven", 3, {}),
    ("double-seven", 4, {}),
    ("flip7", 2, {}),
    ("flip7", 3, {}),
    ("flip7", 4, {}),
    ("flip7", 6, {}),
    ("flip7", 8, {}),
    ("flip7", 3, {"edition": "classic"}),
    ("seven-shot", 3, {}),
    ("seven-shot", 4, {}),
]
TINY_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [(TINY, n, {}) for n in (2, 3, 4)]
ALL_CONFIGS = TINY_CONFIGS + REAL_CONFIGS
# Large Flip 7 tables (two decks from 18 seats by default, F7V-1.5), for the PettingZoo tests
# only: OpenSpiel's random_sim_test checks every seat's strings and tensors at every step, which
# takes minutes at these sizes.
LARGE_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("flip7", 19, {}),
    ("flip7", 36, {"edition": "classic"}),
]


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    name, n, options = config
    extra = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{name}-{n}p" + (f"-{extra}" if extra else "")


def env_games(default: int) -> int:
    """How many games the heavier checks play (``SEPTET_KIT_GAMES`` scales them, capped)."""
    kit = os.environ.get("SEPTET_KIT_GAMES")
    return default if not kit else max(default, min(int(kit) // 100, 3 * default))


def checked_game(name: str, num_players: int, options: dict[str, Any]) -> Game[Any]:
    """The game, checked to give an observation tensor (every engine has one: an error here is
    a broken engine and fails the test)."""
    game = games.get(name, **options)
    game.observation_size(num_players)
    state = game.new_state(num_players)
    rng = random.Random(0)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    state.observation_tensor(max(state.current_player, 0))
    return game


def random_states(game: Game[Any], num_players: int, seed: int, every: int = 1) -> list[State]:
    """Clones of the states of one seeded random game, every ``every``-th decision node."""
    rng = random.Random(seed)
    state = game.new_state(num_players)
    out: list[State] = []
    k = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if k % every == 0:
            out.append(state.clone())
        k += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    out.append(state.clone())
    return out
