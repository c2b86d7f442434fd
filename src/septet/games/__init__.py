"""The game registry: ``septet.games.get("flip7", edition="classic")``.

Built-in games are imported on first use, so a consumer that needs one game does not pay for the
others. Third-party games call :func:`register`.
"""

from __future__ import annotations

import importlib
from typing import Any

from septet.core.errors import UnknownGameError
from septet.core.game import Game

# name -> "module:ClassName"; imported lazily by get()/game_class().
_BUILTIN: dict[str, str] = {
    "double-seven": "septet.games.double_seven:DoubleSeven",
    "flip7": "septet.games.flip7:Flip7",
    "seven-shot": "septet.games.seven_shot:SevenShot",
}
_REGISTRY: dict[str, type[Game[Any]]] = {}


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Register a Game subclass under ``cls.name`` (usable as a class decorator)."""
    _REGISTRY[cls.name] = cls
    return cls


def names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(set(_BUILTIN) | set(_REGISTRY))


def game_class(name: str) -> type[Game[Any]]:
    """The Game subclass registered as ``name``.

    Raises:
        UnknownGameError: no such game (the message lists the known ones).
    """
    if name not in _REGISTRY and name in _BUILTIN:
        module, _, cls_name = _BUILTIN[name].partition(":")
        register(getattr(importlib.import_module(module), cls_name))
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(names()) or 'none'}"
        ) from None


def get(name: str, **options: Any) -> Game[Any]:
    """The game ``name`` with ``options`` (defaults for the rest).

    Raises:
        UnknownGameError: no such game.
        OptionError: an unknown option or an invalid value.
    """
    return game_class(name)(**options)


__all__ = ["game_class", "get", "names", "register"]
