"""Double Seven (ダブルセブン): the rules engine, registered as ``double-seven``.

Rules: ``shared/rules/double-seven.md`` (DS-1 .. DS-9) with the rulings in
``docs/rulings/double-seven.md``. Modules: :mod:`.tiles` (tile types, families), :mod:`.actions`
(actions, notation, integer encoding), :mod:`.state` (position and rules), :mod:`.game` (the
``Game``: options, sampling states from views), :mod:`.render` (text, en/ja),
:mod:`.observation` (the observation tensor), :mod:`.builder` (hand-built positions for tests).

>>> from septet.games import get
>>> game = get("double-seven")
>>> state = game.new_state(3)
>>> state.is_chance_node
True
"""

from .actions import (
    Deal,
    Discard,
    Draw,
    Exchange,
    Expand,
    FirstPlayer,
    Flip,
    Pass,
    PileDraw,
    Rainbow,
    Retrieve,
    Start,
    Take,
    TwoForOne,
)
from .game import DoubleSeven, DoubleSevenOptions
from .state import DoubleSevenState

__all__ = [
    "Deal",
    "Discard",
    "DoubleSeven",
    "DoubleSevenOptions",
    "DoubleSevenState",
    "Draw",
    "Exchange",
    "Expand",
    "FirstPlayer",
    "Flip",
    "Pass",
    "PileDraw",
    "Rainbow",
    "Retrieve",
    "Start",
    "Take",
    "TwoForOne",
]
