"""Helpers shared by the environment adapters (standard library only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from septet import games
from septet.core.errors import OptionError
from septet.core.game import Action, Game, State


def resolve_game(game: str | Game[Any], options: Mapping[str, Any]) -> Game[Any]:
    """The :class:`Game` named ``game`` with ``options``, or ``game`` itself.

    Raises:
        UnknownGameError: no game of that name.
        OptionError: bad options, or options given together with a Game object.
    """
    if isinstance(game, Game):
        if options:
            raise OptionError(
                f"options {sorted(options)} given with a {game.name} Game object; "
                "pass the game's name instead, or build the Game with its options"
            )
        return game
    return games.get(game, **options)


def check_observation_support(game: Game[Any], num_players: int) -> int:
    """``game.observation_size(num_players)``, or a clear error if the engine has none.

    Raises:
        OptionError: unsupported player count, or the engine has no observation tensor.
    """
    game.check_num_players(num_players)
    try:
        return int(game.observation_size(num_players))
    except NotImplementedError as exc:
        raise OptionError(f"{game.name} cannot be used as an RL environment yet: {exc}") from None


def legal_ids(state: State) -> dict[int, Action]:
    """The legal player actions of ``state`` keyed by their integer id, in increasing id order.

    Raises:
        ValueError: the engine gave two legal actions the same id (an engine bug).
    """
    game, n = state.game, state.num_players
    out: dict[int, Action] = {}
    for action in state.legal_actions():
        i = game.action_to_id(action, n)
        if i in out:
            raise ValueError(f"{game.name}: actions {out[i]} and {action} share the id {i}")
        out[i] = action
    return dict(sorted(out.items()))
