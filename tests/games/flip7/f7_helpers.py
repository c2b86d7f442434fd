"""Helpers for the Flip 7 tests: hand-built decks and positions through the public API.

A test plays notation strings in order (``"dealer 0"``, ``"draw 5"``, ``"hit"`` ...): every draw
is a chance node, so choosing its outcome is how a test fixes the upcoming cards.
"""

from __future__ import annotations

from typing import Any

from septet.core.types import Event
from septet.games import get
from septet.games.flip7 import Flip7State


def game(**options: Any) -> Any:
    return get("flip7", **options)


def play(state: Flip7State, *moves: str) -> list[Event]:
    """Apply each move (parsed against the state) and return all the events."""
    events: list[Event] = []
    for text in moves:
        events.extend(state.apply(state.game.parse_action(state, text)))
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def rows(state: Flip7State) -> list[list[str]]:
    return [p["row"] for p in state.view(None)["players"]]


def statuses(state: Flip7State) -> list[str]:
    return [p["status"] for p in state.view(None)["players"]]


def position(
    n: int,
    row_list: list[list[str]],
    *,
    to_move: int,
    dealer: int = 0,
    status: list[str] | None = None,
    totals: list[int] | None = None,
    deck: dict[str, int] | None = None,
    **options: Any,
) -> Flip7State:
    """A mid-round position: ``row_list`` per seat, seat ``to_move`` to hit or stay, the turn
    order going on clockwise from there. The deck is the full deck unless ``deck`` is given."""
    g = game(**options)
    state: Flip7State = g.new_state(n)
    play(state, f"dealer {dealer}")
    data = state.state_dict()
    for p in range(n):
        data["players"][p]["row"] = list(row_list[p])
        data["players"][p]["status"] = status[p] if status else "active"
        data["players"][p]["total"] = totals[p] if totals else 0
    data["stack"] = [{"kind": "turn", "next": to_move}]
    data["to_move"] = to_move
    data["decision"] = {"kind": "hit_stay", "player": to_move, "card": None}
    data["draw"] = None
    state.load_state_dict(data)
    if deck is not None:
        state.set_piles(deck)
    return state
