"""Small shared types of the contract: seats, special players, events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

Seat: TypeAlias = int
"""A seat index, 0 .. num_players - 1, in clockwise order."""

CHANCE: Final = -1
"""``State.current_player`` at a chance node: apply one of ``chance_outcomes()``."""

TERMINAL: Final = -4
"""``State.current_player`` once the game is over."""

JSON: TypeAlias = Any
"""A JSON-serialisable value (dict/list/str/int/float/bool/None)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened when an action was applied, for logs and animations.

    Attributes:
        kind: a short machine name, e.g. ``"seven"``, ``"rainbow"``, ``"bust"``, ``"trick_won"``.
        seat: the seat the event is about, or ``None`` for the table.
        data: JSON-serialisable details (tile names, points, cards).
        visible_to: seats allowed to see this event; ``None`` means public. A private event (a tile
            drawn face down) must only be shown to the seats listed.
    """

    kind: str
    seat: Seat | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)
    visible_to: frozenset[Seat] | None = None

    def is_visible(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, JSON]:
        """The event as a JSON object (``visible_to`` is left out: filter before sending)."""
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}
