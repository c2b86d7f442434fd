"""Helpers shared by the environment adapters (standard library only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from septet import games
from septet.core.encoding import ActionEncoding
from septet.core.errors import OptionError
from septet.core.game import Action, Game, State
from septet.core.infostate import information_state_spec
from septet.core.observation import ObservationSpec, Piece


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


def observation_spec(game: Game[Any], num_players: int) -> ObservationSpec:
    """``game.observation_spec(n)``, or for an engine (a plug-in) that declares no pieces, one
    piece ``observation`` of ``observation_size(n)`` values without known bounds.

    Raises:
        OptionError: the engine has no observation tensor at all.
    """
    try:
        return game.observation_spec(num_players)
    except NotImplementedError:
        size = check_observation_support(game, num_players)
        return ObservationSpec(
            [Piece("observation", (size,), "the engine's observation", -float("inf"), float("inf"))]
        )


def action_encoding(game: Game[Any], num_players: int) -> ActionEncoding | None:
    """``game.action_encoding(n)``, or ``None`` for an engine that declares none."""
    try:
        return game.action_encoding(num_players)
    except NotImplementedError:
        return None


def infostate_spec(game: Game[Any], num_players: int) -> ObservationSpec | None:
    """The information-state layout, or ``None`` for an engine without pieces or encoding."""
    try:
        return information_state_spec(game, num_players)
    except NotImplementedError:
        return None
