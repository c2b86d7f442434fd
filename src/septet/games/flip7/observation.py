"""The observation tensor of Flip 7 (everything in it is public).

Layout for ``n`` seats, with ``K`` = the edition's card kinds (27 Vengeance, 22 classic) and
``R`` = the kinds that can lie in a row (22 Vengeance, 20 classic), seats rotated so that the
observer comes first (block ``i`` is seat ``(seat + i) % n``):

- per seat (``n`` blocks of ``R + 9``): count of each row kind in the row (0..2); status one-hot
  (active, stayed, busted); dealer; to move; game total / target; round score / 100; number cards
  / 7; modifiers received after busting (count)
- deck counts per kind / that kind's count in a full deck (``K``)
- discard counts per kind / full count (``K``)
- cards set aside by the Flip Three / Flip 4 being resolved, per kind / full count (``K``;
  F7V-4.8: they are face up and resolved after the flips)
- decision one-hot (hit/stay, target, swap, steal, discard, flip7 choice: 6), the card being
  resolved as a one-hot over the ``K`` kinds, chance node (1), set-aside draw (1)
- cards in the deck / deck size (1), round number / 100 (1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septet.core.types import CHANCE
from septet.games.flip7 import cards as C
from septet.games.flip7.state import F_FLIP

if TYPE_CHECKING:
    from septet.games.flip7.game import Flip7
    from septet.games.flip7.state import Flip7State


def _kinds(game: Flip7) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if game.vengeance:
        return C.VENGEANCE_KINDS, C.VENGEANCE_ROW_KINDS
    return C.CLASSIC_KINDS, C.CLASSIC_ROW_KINDS


def size(game: Flip7, num_players: int) -> int:
    """Length of the tensor for ``num_players`` seats."""
    kinds, rows = _kinds(game)
    return num_players * (len(rows) + 9) + 4 * len(kinds) + 6 + 4


def encode(state: Flip7State, seat: int) -> list[float]:
    """The tensor for ``seat`` (layout in the module docstring)."""
    game = state.game
    kinds, row_kinds = _kinds(game)
    n = state.num_players
    full = [
        c * game.num_decks(n) for c in (C.vengeance_deck() if game.vengeance else C.classic_deck())
    ]
    out: list[float] = []
    target = float(game.options.target)
    for i in range(n):
        p = (seat + i) % n
        row = state._rows[p]
        out.extend(float(row.count(k)) for k in row_kinds)
        st = state._status[p]
        out.extend((float(st == 0), float(st == 1), float(st == 2)))
        out.append(float(state._dealer == p))
        out.append(float(state.current_player == p))
        out.append(state._totals[p] / target)
        out.append(state.round_score(p) / 100.0)
        out.append(state._ncount[p] / 7.0)
        out.append(float(len(state._post[p])))
    out.extend(state._dcount[k] / full[k] for k in kinds)
    out.extend(state._disc[k] / full[k] for k in kinds)
    aside = [c for fr in state._stack if fr[0] == F_FLIP for c in fr[3]]
    out.extend(aside.count(k) / full[k] for k in kinds)
    dec = state._dec
    out.extend(float(dec == d) for d in range(1, 7))
    out.extend(float(state._dec_card == k) for k in kinds)
    out.append(float(state.current_player == CHANCE))
    out.append(float(state._draw_flip and state.current_player == CHANCE))
    out.append(len(state._deck) / float(game.deck_size(n)))
    out.append(state._round / 100.0)
    return out
