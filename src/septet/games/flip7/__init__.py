"""Flip 7: With a Vengeance and classic Flip 7, one engine (``get("flip7", edition=...)``).

See :mod:`septet.games.flip7.state` for the model and the view format, and
:mod:`septet.games.flip7.actions` for the notation.
"""

from septet.games.flip7.actions import F7Action
from septet.games.flip7.game import Flip7, Flip7Options
from septet.games.flip7.state import Flip7State

__all__ = ["F7Action", "Flip7", "Flip7Options", "Flip7State"]
