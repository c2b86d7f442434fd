"""Hand-built Double Seven positions, for tests, puzzles and the advisor.

>>> from septet.games.double_seven.builder import build_state
>>> st = build_state(
...     3, racks=["fox", "", "bird deer"], families=[["swan2"], ["fox2", "squirrel5"], ["frog4"]]
... )
>>> st.current_player  # seat 0's turn starts with a flip (no tile is face up): a chance node
-1
"""

from __future__ import annotations

from collections.abc import Sequence

from septet.core.errors import RecordError

from .game import DoubleSeven
from .state import _PHASE_BY_NAME, PH_ACT, DoubleSevenState
from .tiles import CLOVER, FULL_SET, NUM_SEVEN_TOKENS, NUM_TYPES, family_from_str, tile_from_name


def tiles(text: str) -> list[int]:
    """Counts per tile type from ``"fox fox swan"`` or ``"fox*2 swan"`` (names as in
    :mod:`.tiles`, English or Japanese)."""
    out = [0] * NUM_TYPES
    for word in text.replace(",", " ").split():
        name, _, times = word.partition("*")
        out[tile_from_name(name)] += int(times) if times else 1
    return out


def build_state(
    num_players: int,
    *,
    racks: Sequence[str],
    families: Sequence[Sequence[str]] = (),
    display: str = "",
    removed: str = "",
    pile: str | None = None,
    known: Sequence[str] | None = None,
    sevens: Sequence[int] | None = None,
    holder77: int | None = None,
    trigger: int | None = None,
    turn: int = 0,
    phase: str = "turn_start",
    game: DoubleSeven | None = None,
) -> DoubleSevenState:
    """A position after setup: racks, families, reserve and tokens as given.

    Args:
        num_players: 2..4.
        racks: one tile list per seat (``"fox*2 clover"``).
        families: per seat, family compositions (``"fox3+1"``).
        display, removed: face-up tiles of the reserve; tiles removed from the game.
        pile: the face-down pile; by default every tile not placed elsewhere. When given, the
            tiles placed nowhere are added to ``removed`` (so the 91 tiles always add up).
        known: per seat, the rack tiles everyone knows (default none).
        sevens, holder77, trigger: tokens per seat, the 77 holder, the seat that triggered the
            end.
        turn: the seat whose turn it is.
        phase: ``"turn_start"`` begins ``turn``'s turn (flip, then draws, as DS-3/DS-4 say);
            another phase name (e.g. ``"actions"``) puts the state in that phase directly.
        game: the game with its options (default: ``DoubleSeven()``).

    Raises:
        RecordError: the tiles do not add up to the 91 tiles.
    """
    game = game or DoubleSeven()
    st = DoubleSevenState(game, num_players)
    st.dealt = 3 * num_players
    st.racks = [tiles(r) for r in racks]
    fams = list(families) or [[] for _ in range(num_players)]
    st.families = [tuple(sorted(family_from_str(f) for f in fs)) for fs in fams]
    st.display = tiles(display)
    st.removed = tiles(removed)
    st.known = [tiles(k) for k in known] if known else [[0] * NUM_TYPES for _ in racks]
    st.sevens = list(sevens) if sevens else [0] * num_players
    st.sevens_left = NUM_SEVEN_TOKENS - sum(st.sevens)
    st.holder77 = -1 if holder77 is None else holder77
    st.trigger = -1 if trigger is None else trigger
    _fill_reserve(st, pile)
    if phase == "turn_start":
        st._begin_turn(turn, [])
    else:
        st.turn = turn
        st.phase = _PHASE_BY_NAME[phase]
        st.draws_left = 0
        st.await_pile = False
    st.check_invariants()
    st.log = []
    return st


def _fill_reserve(st: DoubleSevenState, pile: str | None) -> None:
    """Put every tile not on a rack, in a family, face up or removed into the pile; with
    ``pile`` given, that pile and the tiles placed nowhere to ``removed`` (DS-1.1: the 91 tiles
    always add up).

    Raises:
        RecordError: more tiles placed than the game has.
    """
    rest = list(FULL_SET)
    for t in range(NUM_TYPES):
        rest[t] -= st.display[t] + st.removed[t] + sum(r[t] for r in st.racks)
    for fs in st.families:
        for a, k, c in fs:
            rest[a] -= k
            rest[CLOVER] -= c
    if pile is not None:
        st.pile = tiles(pile)
        rest = [rest[t] - st.pile[t] for t in range(NUM_TYPES)]
        if min(rest) < 0:
            raise RecordError(f"more tiles than the game has: {rest}")
        st.removed = [st.removed[t] + rest[t] for t in range(NUM_TYPES)]
    elif min(rest) < 0:
        raise RecordError(f"more tiles than the game has: {rest}")
    else:
        st.pile = rest


__all__ = ["PH_ACT", "build_state", "tiles"]
