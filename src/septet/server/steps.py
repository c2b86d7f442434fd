"""How a table's game moves on, in one place for every process that moves it (a server taking
a person's move, a bot worker taking a bot's, a server following another's steps).

:func:`advance` applies one action (or none, to deal) and every chance outcome after it, drawn
from ``derive_rng(seed, "chance", index)`` so that a game continues identically whichever process
draws; :func:`follow` applies steps another process committed. Nothing here knows a rule: the
engine validates, applies and reports events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from septet.core import CHANCE, Action, Event, Game, State
from septet.core.rng import derive_rng

Step = tuple[str, int]
"""A step as stored: ``(notation, seat)``, seat -1 for a chance outcome."""


@dataclass
class Advance:
    """The result of :func:`advance`: the new state (a copy), the steps to store, the events
    with the version each happened at, and what the store keeps of the position after them.

    Attributes:
        state: the state after the steps.
        steps: ``(notation, seat)`` in order.
        events: ``(version, event)`` in order.
        status: ``playing`` or ``finished``.
        result: ``{"scores", "winners"}`` once finished, else ``None``.
        to_move: the seat to move, or ``None`` (finished).
        bot_turn: whether that seat is a bot's.
    """

    state: State
    steps: list[Step]
    events: list[tuple[int, Event]]
    status: str
    result: dict[str, Any] | None
    to_move: int | None
    bot_turn: bool

    def store_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :meth:`Store.append_moves` for these steps."""
        return {"result": self.result, "to_move": self.to_move, "bot_turn": self.bot_turn}


def _deal_chance(
    state: State, seed: str, steps: list[Step], events: list[tuple[int, Event]]
) -> None:
    while state.current_player == CHANCE:
        outcome = state.sample_chance(derive_rng(seed, "chance", len(state.history)))
        evs = state.apply(outcome)
        steps.append((str(outcome), -1))
        version = len(state.history)
        events.extend((version, e) for e in evs)


def position(
    state: State, bots: Sequence[bool]
) -> tuple[str, dict[str, Any] | None, int | None, bool]:
    """``(status, result, to_move, bot_turn)`` of ``state`` at a table whose seat i is a bot's
    when ``bots[i]``."""
    if state.is_terminal:
        return (
            "finished",
            {"scores": list(state.scores()), "winners": list(state.winners())},
            None,
            False,
        )
    seat = state.current_player
    if seat < 0:
        return "playing", None, None, False
    return "playing", None, seat, bool(bots[seat])


def advance(
    state: State, seed: str, bots: Sequence[bool], action: Action | None = None, seat: int = -1
) -> Advance:
    """Apply ``action`` of ``seat`` (none: only the chance outcomes due, as at the deal) and
    the chance outcomes after it, to a copy of ``state``.

    Raises:
        IllegalActionError: ``action`` is not legal (``state`` is unchanged either way).
    """
    new = state.clone()
    steps: list[Step] = []
    events: list[tuple[int, Event]] = []
    if action is not None:
        evs = new.apply(action)
        steps.append((str(action), seat))
        events.extend((len(new.history), e) for e in evs)
    _deal_chance(new, seed, steps, events)
    status, result, to_move, bot_turn = position(new, bots)
    return Advance(new, steps, events, status, result, to_move, bot_turn)


def follow(game: Game[Any], state: State, notations: Sequence[str]) -> list[tuple[int, Event]]:
    """Apply steps that another process committed (their notations, in order) to ``state`` in
    place; returns their events.

    Raises:
        SeptetError: a step does not parse or is not legal (the caller reloads the table).
    """
    events: list[tuple[int, Event]] = []
    for text in notations:
        evs = state.apply(game.parse_action(state, text))
        version = len(state.history)
        events.extend((version, e) for e in evs)
    return events
