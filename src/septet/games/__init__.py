"""The built-in games, registered in the core registry: ``septet.games.get("flip7")``.

The registry itself is :mod:`septet.core.registry` (the core imports no game); this package
registers the three built-in games lazily, so a consumer that needs one game does not pay for the
others, and re-exports the registry's functions under their public names. Third-party games call
:func:`register` (or use the ``septet.games`` entry-point group).
"""

from __future__ import annotations

from septet.core.registry import _REGISTRY as _REGISTRY  # the live table (tests patch it)
from septet.core.registry import (
    game_class,
    get,
    names,
    recorded_options,
    register,
    register_lazy,
)

register_lazy("double-seven", "septet.games.double_seven:DoubleSeven")
register_lazy("flip7", "septet.games.flip7:Flip7")
register_lazy("seven-shot", "septet.games.seven_shot:SevenShot")

__all__ = ["game_class", "get", "names", "recorded_options", "register"]
