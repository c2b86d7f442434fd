"""The game-agnostic contract of Septet (see ``shared/DESIGN.md``).

- :class:`Game`: a game's rules with validated options; ``new_state(num_players)``.
- :class:`State`: a position with explicit chance nodes; ``legal_actions``, ``chance_outcomes``,
  ``apply`` (returns events), ``view``, ``determinize``, ``scores``/``winners``/``returns``,
  ``clone``, ``history``, ``to_json``/``from_json``.
- :class:`GameRecord`, :func:`replay` and :func:`replay_steps`; :func:`play_game` and the
  :class:`Agent` protocol.
- Errors: :class:`IllegalActionError` (with a rule id), :class:`OptionError`, :class:`RecordError`.
"""

from septet.core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    SeptetError,
    UnknownGameError,
)
from septet.core.game import Action, Game, State
from septet.core.play import (
    Agent,
    PlayResult,
    SeatView,
    choose_action,
    play_game,
    random_playout,
    seat_view,
)
from septet.core.record import GameRecord, ReplayStep, replay, replay_steps
from septet.core.rng import derive_rng
from septet.core.types import CHANCE, JSON, TERMINAL, Event, Seat

__all__ = [
    "CHANCE",
    "JSON",
    "TERMINAL",
    "Action",
    "Agent",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PlayResult",
    "RecordError",
    "ReplayStep",
    "Seat",
    "SeatView",
    "SeptetError",
    "State",
    "UnknownGameError",
    "choose_action",
    "derive_rng",
    "play_game",
    "random_playout",
    "replay",
    "replay_steps",
    "seat_view",
]
