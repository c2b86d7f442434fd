"""The game registry: games by name, ``get("flip7", edition="classic")``.

The registry lives in the core so that the core never imports a game: games register themselves
(:func:`register`, or :func:`register_lazy` with a ``"module:Class"`` path imported on first use).
The built-in games are registered by :mod:`septet.games` (the public names stay
``septet.games.get`` / ``names`` / ``register``); third-party packages register through the
``septet.games`` entry-point group or by calling :func:`register` themselves.

Discovery: on the first lookup of an unknown name the registry imports its plugin packages once:
the modules named in :data:`PLUGIN_PACKAGES` (``"septet.games"``, a name held as data, not an
import, so the layer rule "core imports nothing from games" holds) and every entry point of the
``septet.games`` group.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from septet.core.errors import UnknownGameError

if TYPE_CHECKING:
    from septet.core.game import Game

# Modules imported once, on the first miss, so that their games register themselves.
PLUGIN_PACKAGES: list[str] = ["septet.games"]
ENTRY_POINT_GROUP = "septet.games"

_REGISTRY: dict[str, type[Game[Any]]] = {}
_LAZY: dict[str, str] = {}  # name -> "module:ClassName", imported on first use
_discovered = False


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Register a Game subclass under ``cls.name`` (a class decorator too); returns ``cls``."""
    _REGISTRY[cls.name] = cls
    _LAZY.pop(cls.name, None)
    return cls


def register_lazy(name: str, target: str) -> None:
    """Register game ``name`` as ``target`` (``"package.module:ClassName"``), imported on first use.

    A game registered eagerly with :func:`register` under the same name wins.
    """
    if name not in _REGISTRY:
        _LAZY[name] = target


def _discover() -> None:
    """Import the plugin packages and entry points once (they register their games)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for module in PLUGIN_PACKAGES:
        importlib.import_module(module)
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        loaded = ep.load()
        if isinstance(loaded, type) and getattr(loaded, "name", None):
            register(loaded)


def names() -> list[str]:
    """Registered game names, sorted."""
    _discover()
    return sorted(set(_LAZY) | set(_REGISTRY))


def game_class(name: str) -> type[Game[Any]]:
    """The Game subclass registered as ``name``.

    Raises:
        UnknownGameError: no such game (the message lists the known ones).
    """
    if name not in _REGISTRY and name not in _LAZY:
        _discover()
    if name not in _REGISTRY and name in _LAZY:
        module, _, cls_name = _LAZY[name].partition(":")
        register(getattr(importlib.import_module(module), cls_name))
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(names()) or 'none'}"
        ) from None


def recorded_options(name: str, options: Mapping[str, Any], num_players: int) -> dict[str, Any]:
    """The stored ``options`` of a ``name`` game of ``num_players`` with the options added since
    given the values that game was played with (``Game.recorded_options``); unchanged for an
    unknown game (whoever sets it up reports that). Never raises."""
    try:
        cls = game_class(name)
    except UnknownGameError:
        return dict(options)
    return cls.recorded_options(options, num_players)


def get(name: str, **options: Any) -> Game[Any]:
    """The game ``name`` with ``options`` (defaults for the rest).

    Raises:
        UnknownGameError: no such game.
        OptionError: an unknown option or an invalid value.
    """
    return game_class(name)(**options)


__all__ = [
    "ENTRY_POINT_GROUP",
    "PLUGIN_PACKAGES",
    "game_class",
    "get",
    "names",
    "register",
    "register_lazy",
]
