"""The frames of the Flip 7 engine's stack: the pending work of a round, as typed values.

``Flip7State`` keeps a stack of these (bottom first) and its ``_run`` loop handles the top one
with ``match`` until a player decision or a card draw is needed:

- :class:`Deal`: dealing the opening card to each seat in turn (F7V-3.2);
- :class:`Turn`: offering hit/stay around the table (F7V-3.3);
- :class:`JustOneMore`: a Just One More played on a seat (F7V-4.4);
- :class:`Flip`: a Flip 4 (classic: Flip Three) being flipped on a seat, with the action cards
  set aside meanwhile (F7V-4.8).

Frames are immutable; the common ones are interned (:func:`deal`, :func:`turn`,
:func:`just_one_more`) so that the engine's hot loop builds no objects for them. Their JSON form
is the ``stack`` entry of the ``state_dict`` (see :mod:`.state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from septet.core.errors import RecordError
from septet.core.types import JSON
from septet.games.flip7.actions import MAX_SEATS
from septet.games.flip7.cards import KIND_OF_TOKEN, TOKENS


@dataclass(frozen=True, slots=True)
class Deal:
    """Dealing: ``next`` is the offset from the dealer of the next seat dealt to (1 … n)."""

    next: int


@dataclass(frozen=True, slots=True)
class Turn:
    """Turns: ``next`` is the seat to be offered hit/stay next (the first active from there)."""

    next: int


@dataclass(frozen=True, slots=True)
class JustOneMore:
    """A Just One More on ``player``: ``drawn`` once its card was flipped (F7V-4.4)."""

    player: int
    drawn: bool


@dataclass(frozen=True, slots=True)
class Flip:
    """A Flip 4 / Flip Three on ``player``: ``left`` cards still to flip, ``set_aside`` the
    action cards (kinds) set aside to resolve afterwards, in order (F7V-4.8)."""

    player: int
    left: int
    set_aside: tuple[int, ...] = ()


Frame = Deal | Turn | JustOneMore | Flip
"""Any stack frame."""

DEALS: Final = tuple(Deal(k) for k in range(MAX_SEATS + 2))
TURNS: Final = tuple(Turn(s) for s in range(MAX_SEATS))
JOMS: Final = tuple((JustOneMore(s, False), JustOneMore(s, True)) for s in range(MAX_SEATS))
FLIPS: Final = tuple(tuple(Flip(s, left) for left in range(5)) for s in range(MAX_SEATS))
"""Interned frames for the engine's hot loop: ``DEALS[offset]``, ``TURNS[seat]``,
``JOMS[seat][drawn]``, ``FLIPS[seat][left]`` (nothing set aside); the functions below are the
readable form."""


def deal(offset: int) -> Deal:
    """The interned ``Deal(offset)`` (0 ≤ offset ≤ 65)."""
    return DEALS[offset]


def turn(seat: int) -> Turn:
    """The interned ``Turn(seat)``."""
    return TURNS[seat]


def just_one_more(seat: int, drawn: bool) -> JustOneMore:
    """The interned ``JustOneMore(seat, drawn)``."""
    return JOMS[seat][drawn]


def frame_to_json(fr: Frame) -> dict[str, JSON]:
    """The ``stack`` entry of one frame: ``{"kind": "deal"|"turn", "next"}``,
    ``{"kind": "just_one_more", "player", "drawn"}`` or ``{"kind": "flip", "player", "left",
    "set_aside": [tokens]}``."""
    match fr:
        case Deal(next=k):
            return {"kind": "deal", "next": k}
        case Turn(next=s):
            return {"kind": "turn", "next": s}
        case JustOneMore(player=p, drawn=drawn):
            return {"kind": "just_one_more", "player": p, "drawn": drawn}
        case Flip(player=p, left=left, set_aside=aside):
            return {
                "kind": "flip",
                "player": p,
                "left": left,
                "set_aside": [TOKENS[c] for c in aside],
            }


def frame_from_json(data: Mapping[str, Any]) -> Frame:
    """Read a ``stack`` entry (:func:`frame_to_json`).

    Raises:
        RecordError: an unknown kind. KeyError, ValueError, TypeError, IndexError: a malformed
            entry.
    """
    match data["kind"]:
        case "deal":
            return deal(int(data["next"]))
        case "turn":
            return turn(int(data["next"]))
        case "just_one_more":
            return just_one_more(int(data["player"]), bool(data["drawn"]))
        case "flip":
            aside = tuple(KIND_OF_TOKEN[str(t)] for t in data["set_aside"])
            return Flip(int(data["player"]), int(data["left"]), aside)
        case other:
            raise RecordError(f"unknown stack frame {other!r}")


def stack_to_json(stack: list[Frame]) -> list[JSON]:
    """The ``stack`` of the ``state_dict``, bottom first."""
    return [frame_to_json(fr) for fr in stack]


def stack_from_json(data: list[Any]) -> list[Frame]:
    """Read the ``stack`` of a ``state_dict`` (errors as :func:`frame_from_json`)."""
    return [frame_from_json(fr) for fr in data]


__all__ = [
    "DEALS",
    "FLIPS",
    "JOMS",
    "TURNS",
    "Deal",
    "Flip",
    "Frame",
    "JustOneMore",
    "Turn",
    "deal",
    "frame_from_json",
    "frame_to_json",
    "just_one_more",
    "stack_from_json",
    "stack_to_json",
    "turn",
]
