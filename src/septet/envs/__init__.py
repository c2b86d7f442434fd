"""Reinforcement-learning environments for the Septet games (the ``rl`` extra).

- :mod:`septet.envs.pettingzoo`: ``env(game, num_players=..., **options)``, a PettingZoo AEC
  environment per game (dict observations with an action mask; chance resolved inside with the
  environment's seeded RNG).
- :mod:`septet.envs.openspiel`: every game registered as an OpenSpiel Python game
  (``pyspiel.load_game("septet_flip7(players=3)")``) with explicit chance nodes.

Both are built only on the game contract (:mod:`septet.core`): observations are each engine's
``State.observation_tensor(seat)`` and actions its fixed integer encoding
(``Game.action_to_id`` / ``id_to_action``). See ``docs/rl.md``.

Importing this package needs nothing beyond Septet; importing either adapter without the extra
raises :class:`ModuleNotFoundError` with the install command (``pip install 'septet[rl]'``).
"""

from __future__ import annotations

RL_EXTRA_HINT = "pip install 'septet[rl]'"


def missing_extra(feature: str, exc: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise when ``feature`` cannot import a dependency of the ``rl`` extra.

    Use as ``except ModuleNotFoundError as exc: raise missing_extra("...", exc) from exc``; the
    message names the feature, the missing module and the install command.
    """
    return ModuleNotFoundError(
        f"{feature} needs the 'rl' extra ({exc.name or 'a dependency'} is not installed): "
        f"{RL_EXTRA_HINT}",
        name=exc.name,
    )


__all__ = ["RL_EXTRA_HINT", "missing_extra"]
