"""The observation tensor of Flip 7 (everything in it is public), declared as named pieces.

``K`` = the edition's card kinds (27 Vengeance, 22 classic), ``R`` = the kinds that can lie in
a row (22 Vengeance, 20 classic); seats are rotated so that the observer comes first (block
``r`` is seat ``(seat + r) % n``). ``n (R + 9) + 4 K + 10`` values; the layout with true bounds
is :func:`spec` (table in ``docs/rl.md``):

- per seat: count of each row kind in the row; status one-hot (active, stayed, busted); dealer;
  to move; game total / target (clipped to [-1, 2]); round score / 100; number cards / 7;
  modifiers received after busting (count)
- deck counts per kind / that kind's count in a full deck; the same for the discard pile and for
  the cards set aside by the Flip Three / Flip 4 being resolved (F7V-4.8: face up, resolved
  after the flips)
- decision one-hot (hit/stay, target, swap, steal, discard, flip7 choice), the card being
  resolved one-hot over the ``K`` kinds, chance node, set-aside draw
- cards in the deck / deck size, round number / 100
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septet.core.observation import ObservationSpec, Piece
from septet.core.types import CHANCE
from septet.games.flip7 import cards as C
from septet.games.flip7.frames import Flip
from septet.games.flip7.rules import FLIP7_BONUS  # F7V-7.2, F7V-8.3

if TYPE_CHECKING:
    from septet.games.flip7.game import Flip7
    from septet.games.flip7.state import Flip7State

TOTAL_LOW, TOTAL_HIGH = -1.0, 2.0
"""Game total / target is clipped to this range: a total only passes the target in the last
round or in the rare rounds that break a tie at the top (F7V-3.7), and goes below 0 only in
brutal mode."""


def _kinds(game: Flip7) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if game.vengeance:
        return C.VENGEANCE_KINDS, C.VENGEANCE_ROW_KINDS
    return C.CLASSIC_KINDS, C.CLASSIC_ROW_KINDS


def _full_deck(game: Flip7, n: int) -> list[int]:
    base = C.vengeance_deck() if game.vengeance else C.classic_deck()
    return [c * game.num_decks(n) for c in base]


def round_score_bounds(game: Flip7, n: int) -> tuple[int, int]:
    """True bounds on ``Flip7State.round_score``: a row that has not busted holds at most 7
    number cards of distinct kinds (a repeat busts, F7V-3.4) and scores at most the 7 highest of
    them, multiplied by every ×2 and plus every positive modifier (classic, F7V-9), plus the
    Flip 7 bonus; below 0 only in brutal mode, at worst every negative modifier and the −15
    penalty (F7V-8)."""
    full = _full_deck(game, n)
    kinds, _ = _kinds(game)
    values = sorted((C.VALUE[k] for k in kinds if C.IS_NUM[k]), reverse=True)
    top = sum(values[:7]) * 2 ** full[C.X2] + sum(
        C.MOD_ADD[k] * full[k] for k in kinds if C.MOD_ADD[k] > 0
    )
    low = 0
    if game.options.brutal:
        low = sum(C.MOD_ADD[k] * full[k] for k in kinds if C.MOD_ADD[k] < 0) - FLIP7_BONUS
    return low, top + FLIP7_BONUS


def spec(game: Flip7, n: int) -> ObservationSpec:
    """The layout for ``n`` seats."""
    kinds, rows = _kinds(game)
    full = _full_deck(game, n)
    k = len(kinds)
    lo, hi = round_score_bounds(game, n)
    # A number card appears at most twice in a row (the second busts it); any other kind at
    # most as often as the deck(s) hold it.
    row_high = tuple(float(min(2, full[c]) if C.IS_NUM[c] else full[c]) for c in rows)
    mods = sum(full[c] for c in kinds if C.IS_MOD[c])
    seat = (
        Piece("row", (len(rows),), "cards of each row kind in the row", 0, row_high),
        Piece("status", (3,), "status one-hot: active, stayed, busted"),
        Piece("dealer", (), "1 for the dealer"),
        Piece("to_move", (), "1 for the seat to move"),
        Piece(
            "total",
            (),
            f"game total / target, clipped to [{TOTAL_LOW:g}, {TOTAL_HIGH:g}]",
            TOTAL_LOW if game.options.brutal else 0.0,
            TOTAL_HIGH,
        ),
        Piece(
            "round_score",
            (),
            "what the row scores if the round ended now / 100",
            lo / 100,
            hi / 100,
        ),
        Piece("numbers", (), "number cards toward Flip 7 / 7"),
        Piece("after_bust", (), "modifiers received after busting (brutal, count)", 0, mods),
    )
    pieces = []
    for r in range(n):
        who = "me" if r == 0 else f"seat +{r} (clockwise)"
        pieces += [
            Piece(f"seat{r}_{p.name}", p.shape, f"{who}: {p.meaning}", p.low, p.high) for p in seat
        ]
    pieces += [
        Piece("deck", (k,), "cards of each kind in the deck / that kind in a full deck"),
        Piece("discard", (k,), "cards of each kind in the discard pile / full count"),
        Piece(
            "set_aside", (k,), "cards set aside by the Flip Three / Flip 4 being resolved / full"
        ),
        Piece("decision", (6,), "decision one-hot: hit/stay, target, swap, steal, discard, flip7"),
        Piece("card", (k,), "the card being resolved, one-hot"),
        Piece("chance", (), "1 at a chance node (a draw)"),
        Piece("set_aside_draw", (), "1 when the draw is flipped by a Flip Three / Flip 4"),
        Piece("deck_left", (), "cards in the deck / deck size"),
        Piece("round", (), "round number / 100", 0, game.max_rounds() / 100),
    ]
    edition = "Flip 7: With a Vengeance" if game.vengeance else "classic Flip 7"
    return ObservationSpec(pieces, f"{edition} observation, {n} players")


def size(game: Flip7, num_players: int) -> int:
    """Length of the tensor for ``num_players`` seats (``n (R + 9) + 4 K + 10``)."""
    return spec(game, num_players).size


def encode(state: Flip7State, seat: int) -> list[float]:
    """The tensor for ``seat`` (layout :func:`spec`); built in piece order."""
    game = state.game
    kinds, row_kinds = _kinds(game)
    n = state.num_players
    full = _full_deck(game, n)
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
        out.append(min(max(state._totals[p] / target, TOTAL_LOW), TOTAL_HIGH))
        out.append(state.round_score(p) / 100.0)
        out.append(state._ncount[p] / 7.0)
        out.append(float(len(state._post[p])))
    out.extend(state._dcount[k] / full[k] for k in kinds)
    out.extend(state._disc[k] / full[k] for k in kinds)
    aside = [c for fr in state._stack if isinstance(fr, Flip) for c in fr.set_aside]
    out.extend(aside.count(k) / full[k] for k in kinds)
    dec = state._dec
    out.extend(float(dec == d) for d in range(1, 7))
    out.extend(float(state._dec_card == k) for k in kinds)
    out.append(float(state.current_player == CHANCE))
    out.append(float(state._draw_flip and state.current_player == CHANCE))
    out.append(len(state._deck) / float(game.deck_size(n)))
    out.append(state._round / 100.0)
    return out
