"""Seven Shot (セブンショット): rules engine (``shared/rules/seven-shot.md``, rule ids SS-1 … SS-5).

- :class:`SevenShot`: the game (options ``target``, ``pass_cards``), registered as ``seven-shot``.
- :class:`SevenShotState`: positions with chance nodes for the deal and the first leader.
- Cards (``cards``), actions and notation (``actions``), determinization (``determinize``), text
  in English and Japanese (``render``).
"""

from septet.games.seven_shot.actions import Deal, FirstLeader, Pass, Play
from septet.games.seven_shot.game import SevenShot, SevenShotOptions
from septet.games.seven_shot.state import SevenShotState

__all__ = [
    "Deal",
    "FirstLeader",
    "Pass",
    "Play",
    "SevenShot",
    "SevenShotOptions",
    "SevenShotState",
]
