"""Flip 7 (both editions, brutal mode included) as compiled kernels over an integer array.

The exact twin of :mod:`septet.games.flip7.state` (rules F7V-1 … F7V-9): the same chance
outcomes and the same actions give the same position and the same scores at every step
(checked by :func:`septet.arena.twins.check_twin`). The Python engine stays the reference.

Encoding (``int64[size(n)]``, built from ``state_dict()`` by :func:`encode`)
---------------------------------------------------------------------------
Header (indices ``H_*``): players, edition (1 Vengeance), brutal, target, round draw cap, round
cap, round, dealer, seat to move (``-1`` chance, ``-2`` resolving, ``-4`` terminal), decision
(``D_*`` of the engine), the decision's card kind, the receiver of the draw being made and
whether it is a Flip 4 / Flip Three draw, the Flip 7 seat, the brutal ±15 receiver, draws this
round, round over, cards in the deck, stack depth, whether a round was scored. Then the deck and
discard counts per card kind (37 each, :mod:`septet.games.flip7.cards`), the stack (``MAXSTACK``
frames of ``FRAME`` ints: kind, player, ``next``/``left``/``drawn``, set-aside count, the
set-aside kinds), and one block per seat: status, game total, number cards, value bit mask, row
length, after-bust length, last round's score, winner flag, the row kinds, the after-bust kinds.

Actions are the game's fixed player-action ids (``Flip7.action_to_id``); chance outcomes are
``draw k`` → ``k`` and ``dealer s`` → ``CH_DEALER + s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from septet.core.types import JSON
from septet.fast.rng import copy_into, internal, jit, noref, noref_inline, randbelow
from septet.games.flip7 import cards as C
from septet.games.flip7.rules import FLIP3_CARDS, FLIP4_CARDS, FLIP7_BONUS, FLIP7_CARDS

# ----- layout ---------------------------------------------------------------------------------
H_N, H_V, H_BRUTAL, H_TARGET, H_CAP, H_MAXR, H_ROUND, H_DEALER = 0, 1, 2, 3, 4, 5, 6, 7
H_TOMOVE, H_DEC, H_DECCARD, H_DRAWFOR, H_DRAWFLIP, H_FLIP7, H_BONUSTO = 8, 9, 10, 11, 12, 13, 14
H_DRAWS, H_ROUNDEND, H_DECKSIZE, H_SP, H_LAST = 15, 16, 17, 18, 19
HEADER = 24
NK = C.NUM_KINDS
O_DC = HEADER
O_DISC = O_DC + NK
MAXSTACK = 16
FRAME = 8
O_STACK = O_DISC + NK
O_PLAYERS = O_STACK + MAXSTACK * FRAME
MAXROW = 32
MAXPOST = 16
P_STATUS, P_TOTAL, P_NCOUNT, P_MASK, P_ROWLEN, P_POSTLEN, P_LAST, P_WIN = range(8)
P_ROW = 8
P_POST = P_ROW + MAXROW
PBLOCK = P_POST + MAXPOST

CHANCE, RUN, TERMINAL = -1, -2, -4
ACTIVE, STAYED, BUSTED = 0, 1, 2
D_NONE, D_HITSTAY, D_TARGET, D_SWAP, D_STEAL, D_DISCARD, D_BRUTAL = range(7)
F_DEAL, F_TURN, F_JOM, F_FLIP = range(4)
CH_DEALER = 64
MAX_ACTIONS_BASE = 3

ZERO, U7, L13, DIV2, X2 = C.ZERO, C.U7, C.L13, C.DIV2, C.X2
JOM, FLIP4, SWAP, STEAL, DISCARD = C.JOM, C.FLIP4, C.SWAP, C.STEAL, C.DISCARD
FREEZE, FLIP3, SECOND = C.FREEZE, C.FLIP3, C.SECOND

VALUE = np.array(C.VALUE, dtype=np.int64)
IS_NUM = np.array(C.IS_NUM, dtype=np.bool_)
IS_MOD = np.array(C.IS_MOD, dtype=np.bool_)
IS_ROW = np.array(C.IS_ROW, dtype=np.bool_)
MOD_ADD = np.array(C.MOD_ADD, dtype=np.int64)
ROW_KINDS = np.array(C.VENGEANCE_ROW_KINDS, dtype=np.int64)
NRK = len(C.VENGEANCE_ROW_KINDS)
RK_INDEX = np.full(NK, -1, dtype=np.int64)
for _i, _k in enumerate(C.VENGEANCE_ROW_KINDS):
    RK_INDEX[_k] = _i
DEALER_ALL = CH_DEALER
NUM_END = L13 + 1
"""The number kinds are ``0 … NUM_END - 1`` (``cards.IS_NUM``): the loops over number cards stop
there."""
assert all(C.IS_NUM[k] == (k < NUM_END) for k in range(NK))


def size(num_players: int) -> int:
    """Length of the encoding for ``num_players`` seats."""
    return O_PLAYERS + num_players * PBLOCK


@noref_inline
def max_actions(num_players: int) -> int:
    """An upper bound on the legal actions at one node (for the output buffers; compiled, so
    that the kernels size theirs by it too)."""
    n = num_players
    return 3 + 2 * n + 2 * n * NRK + n * (n - 1) // 2 * NRK * NRK


# ----- encoding from the public state_dict format -----------------------------------------------


def encode(state: Any) -> np.ndarray:
    """The kernel array of a :class:`~septet.games.flip7.state.Flip7State`, read from its
    ``state_dict()`` (the documented, stable format) and its game's options.

    Returns:
        ``int64[size(n)]``.
    """
    return encode_dict(state.game, state.num_players, state.state_dict())


def encode_dict(game: Any, n: int, d: Mapping[str, JSON]) -> np.ndarray:
    """:func:`encode` from a ``state_dict()`` (or a view) of ``game`` with ``n`` seats."""
    s = np.zeros(size(n), dtype=np.int64)
    _encode_header(s, game, n, d)
    _encode_cards(s, d)
    stack: Any = d["stack"]
    _encode_stack(s, stack)
    s[H_SP] = len(stack)
    last: Any = d["last_round"]
    s[H_LAST] = 0 if last is None else 1
    _encode_players(s, d, last)
    return s


def _encode_header(s: np.ndarray, game: Any, n: int, d: Mapping[str, JSON]) -> None:
    """The header slots: options, round, seat to move, decision, draw, Flip 7 and bonus seats."""
    kind_of = C.KIND_OF_TOKEN
    s[H_N] = n
    s[H_V] = 1 if d["edition"] == "vengeance" else 0
    s[H_BRUTAL] = 1 if d["brutal"] else 0
    s[H_TARGET] = int(d["target"])
    s[H_CAP] = game.round_draw_cap(n)
    s[H_MAXR] = game.max_rounds()
    s[H_ROUND] = int(d["round"])
    s[H_DEALER] = -1 if d["dealer"] is None else int(d["dealer"])
    s[H_TOMOVE] = int(d["to_move"])
    dec: Any = d["decision"]
    names = (None, "hit_stay", "target", "swap", "steal", "discard", "flip7_choice")
    if dec is None:
        s[H_DEC], s[H_DECCARD] = D_NONE, -1
    else:
        s[H_DEC] = names.index(dec["kind"])
        s[H_DECCARD] = -1 if dec["card"] is None else kind_of[dec["card"]]
    draw: Any = d["draw"]
    if draw is None:
        s[H_DRAWFOR], s[H_DRAWFLIP] = -1, 0
    else:
        s[H_DRAWFOR], s[H_DRAWFLIP] = int(draw["player"]), int(bool(draw["set_aside"]))
    s[H_FLIP7] = -1 if d["flip7"] is None else int(d["flip7"])
    s[H_BONUSTO] = -1 if d["flip7_choice"] is None else int(d["flip7_choice"])
    s[H_DRAWS] = int(d["round_draws"])
    s[H_ROUNDEND] = 1 if d["round_over"] else 0


def _encode_cards(s: np.ndarray, d: Mapping[str, JSON]) -> None:
    """Deck and discard counts per card kind, and the deck size."""
    kind_of = C.KIND_OF_TOKEN
    deck: Any = d["deck"]
    for t, c in deck.items():
        s[O_DC + kind_of[t]] = int(c)
    disc: Any = d["discard"]
    for t, c in disc.items():
        s[O_DISC + kind_of[t]] = int(c)
    s[H_DECKSIZE] = int(s[O_DC : O_DC + NK].sum())


def _encode_stack(s: np.ndarray, stack: Any) -> None:
    """The frames of the engine's stack, one ``FRAME`` block each (ValueError: too deep)."""
    kind_of = C.KIND_OF_TOKEN
    if len(stack) > MAXSTACK:
        raise ValueError(f"a stack of {len(stack)} frames is deeper than the kernel's {MAXSTACK}")
    for i, fr in enumerate(stack):
        o = O_STACK + i * FRAME
        k = fr["kind"]
        if k == "deal":
            s[o], s[o + 1] = F_DEAL, int(fr["next"])
        elif k == "turn":
            s[o], s[o + 1] = F_TURN, int(fr["next"])
        elif k == "just_one_more":
            s[o], s[o + 1], s[o + 2] = F_JOM, int(fr["player"]), int(bool(fr["drawn"]))
        else:
            s[o], s[o + 1], s[o + 2] = F_FLIP, int(fr["player"]), int(fr["left"])
            q = [kind_of[t] for t in fr["set_aside"]]
            s[o + 3] = len(q)
            for j, c in enumerate(q):
                s[o + 4 + j] = c


def _encode_players(s: np.ndarray, d: Mapping[str, JSON], last: Any) -> None:
    """One ``PBLOCK`` per seat: status, total, number mask and count, row, cards after a bust."""
    kind_of = C.KIND_OF_TOKEN
    winners = {int(w) for w in d["winners"]}
    players: Any = d["players"]
    status_names = ("active", "stayed", "busted")
    for p, pl in enumerate(players):
        b = O_PLAYERS + p * PBLOCK
        s[b + P_STATUS] = status_names.index(pl["status"])
        s[b + P_TOTAL] = int(pl["total"])
        row = [kind_of[t] for t in pl["row"]]
        post = [kind_of[t] for t in pl["after_bust"]]
        if len(row) > MAXROW or len(post) > MAXPOST:
            raise ValueError("a row longer than the kernel holds")
        mask = 0
        ncount = 0
        for c in row:
            if C.IS_NUM[c]:
                mask |= 1 << C.VALUE[c]
                ncount += 1
        s[b + P_NCOUNT] = ncount
        s[b + P_MASK] = mask
        s[b + P_ROWLEN] = len(row)
        s[b + P_POSTLEN] = len(post)
        s[b + P_LAST] = 0 if last is None else int(last[p])
        s[b + P_WIN] = 1 if p in winners else 0
        for j, c in enumerate(row):
            s[b + P_ROW + j] = c
        for j, c in enumerate(post):
            s[b + P_POST + j] = c


@jit
def canonical(s: np.ndarray) -> np.ndarray:
    """A copy with the fields that ``state_dict`` does not show reset as :func:`encode` leaves
    them (the draw's receiver away from a chance node, the decision away from a player node,
    unused frame and row slots), so two arrays of one position compare equal."""
    c = s.copy()
    if c[H_TOMOVE] != CHANCE:
        c[H_DRAWFOR] = -1
        c[H_DRAWFLIP] = 0
    if c[H_TOMOVE] < 0:
        c[H_DEC] = D_NONE
        c[H_DECCARD] = -1
    if c[H_DEC] == D_NONE:
        c[H_DECCARD] = -1
    for i in range(c[H_SP], MAXSTACK):
        for j in range(FRAME):
            c[O_STACK + i * FRAME + j] = 0
    for i in range(c[H_SP]):
        o = O_STACK + i * FRAME
        if c[o] == F_DEAL or c[o] == F_TURN:
            for j in range(2, FRAME):
                c[o + j] = 0
        elif c[o] == F_JOM:
            for j in range(3, FRAME):
                c[o + j] = 0
        else:
            for j in range(4 + c[o + 3], FRAME):
                c[o + j] = 0
    n = c[H_N]
    for p in range(n):
        b = O_PLAYERS + p * PBLOCK
        for j in range(c[b + P_ROWLEN], MAXROW):
            c[b + P_ROW + j] = 0
        for j in range(c[b + P_POSTLEN], MAXPOST):
            c[b + P_POST + j] = 0
        if c[H_LAST] == 0:
            c[b + P_LAST] = 0
    return c


# ----- small helpers --------------------------------------------------------------------------


@noref_inline
def _pb(p: int) -> int:
    return O_PLAYERS + p * PBLOCK


@internal
def _row_has(s: np.ndarray, p: int, k: int) -> bool:
    b = _pb(p)
    for j in range(s[b + P_ROWLEN]):
        if s[b + P_ROW + j] == k:
            return True
    return False


@internal
def _row_append(s: np.ndarray, p: int, k: int) -> None:
    b = _pb(p)
    n = s[b + P_ROWLEN]
    s[b + P_ROW + n] = k
    s[b + P_ROWLEN] = n + 1


@internal
def _row_remove(s: np.ndarray, p: int, k: int) -> None:
    """Remove the first ``k`` of ``p``'s row (list.remove)."""
    b = _pb(p)
    n = s[b + P_ROWLEN]
    j = 0
    while j < n and s[b + P_ROW + j] != k:
        j += 1
    for i in range(j, n - 1):
        s[b + P_ROW + i] = s[b + P_ROW + i + 1]
    s[b + P_ROW + n - 1] = 0
    s[b + P_ROWLEN] = n - 1


@internal
def _recount(s: np.ndarray, p: int) -> None:
    b = _pb(p)
    mask = 0
    cnt = 0
    for j in range(s[b + P_ROWLEN]):
        c = s[b + P_ROW + j]
        if IS_NUM[c]:
            mask |= 1 << VALUE[c]
            cnt += 1
    s[b + P_MASK] = mask
    s[b + P_NCOUNT] = cnt


@noref
def row_points(row: np.ndarray, length: int, v: bool, brutal: bool, flip7: bool) -> int:
    """``cards.row_points`` (F7V-7.2, F7V-9) of ``row[:length]``."""
    return _row_points_at(row, 0, length, v, brutal, flip7)


@internal
def _row_points_at(a: np.ndarray, o: int, length: int, v: bool, brutal: bool, flip7: bool) -> int:
    """:func:`row_points` of the row ``a[o : o + length]``, read in place (no view made)."""
    total = 0
    ndiv = 0
    nx2 = 0
    add = 0
    zero = False
    for j in range(o, o + length):
        c = a[j]
        if IS_NUM[c]:
            total += VALUE[c]
        if c == DIV2:
            ndiv += 1
        elif c == X2:
            nx2 += 1
        elif c == ZERO:
            zero = True
        add += MOD_ADD[c]
    if v:
        for _ in range(ndiv):
            total //= 2
        total += add
        if not brutal and total < 0:
            total = 0
        if zero and not flip7:
            total = 0
        return total
    for _ in range(nx2):
        total *= 2
    return total + add


@noref
def round_score(s: np.ndarray, p: int) -> int:
    """What seat ``p`` scores for the round if it ended now (``Flip7State.round_score``)."""
    f = s[H_FLIP7]
    v = s[H_V] == 1
    brutal = s[H_BRUTAL] == 1
    b = _pb(p)
    bonus_to = s[H_BONUSTO]
    if s[b + P_STATUS] == BUSTED:
        sc = 0
        if brutal:
            for j in range(s[b + P_POSTLEN]):
                sc += MOD_ADD[s[b + P_POST + j]]
    else:
        sc = _row_points_at(s, b + P_ROW, s[b + P_ROWLEN], v, brutal, f == p)
        if f == p and ((not v) or (not brutal) or bonus_to == p or bonus_to == -1):
            sc += FLIP7_BONUS  # F7V-7.2
    if brutal and f >= 0 and bonus_to == p and p != f:
        sc -= FLIP7_BONUS  # F7V-8.3
    return sc


@noref_inline
def _push(s: np.ndarray, kind: int, a: int, b: int) -> None:
    o = O_STACK + s[H_SP] * FRAME
    s[o] = kind
    s[o + 1] = a
    s[o + 2] = b
    s[o + 3] = 0
    s[H_SP] += 1


@noref_inline
def _flip_card(s: np.ndarray) -> int:
    return FLIP4 if s[H_V] == 1 else FLIP3


# ----- targets and picks ----------------------------------------------------------------------


@internal
def _targets(s: np.ndarray, me: int, card: int, out: np.ndarray) -> int:
    """Seats that may receive ``card`` (F7V-4.1, F7V-5.1, F7V-8.2, F7V-9), in seat order."""
    n = s[H_N]
    cnt = 0
    if s[H_V] == 1:
        every = s[H_BRUTAL] == 1 and IS_MOD[card]
        for q in range(n):
            if every or s[_pb(q) + P_STATUS] != BUSTED:
                out[cnt] = q
                cnt += 1
        return cnt
    for q in range(n):
        st = s[_pb(q) + P_STATUS]
        if card == SECOND:
            if q != me and st == ACTIVE and not _row_has(s, q, SECOND):
                out[cnt] = q
                cnt += 1
        elif st == ACTIVE:
            out[cnt] = q
            cnt += 1
    return cnt


@internal
def _kinds_of_row(s: np.ndarray, p: int) -> int:
    """The kinds in ``p``'s row as a bit set (bit ``k``: kind ``k``; 37 kinds fit in 64 bits)."""
    present = 0
    b = _pb(p)
    for j in range(s[b + P_ROWLEN]):
        present |= 1 << s[b + P_ROW + j]
    return present


@internal
def _picks(s: np.ndarray, me: int, card: int, out: np.ndarray) -> int:
    """Swap/Steal/Discard action ids for ``me`` (F7V-4.5 … F7V-4.7), in the engine's order."""
    n = s[H_N]
    m = n * NRK
    cnt = 0
    if card == STEAL:
        for q in range(n):
            if q != me and s[_pb(q) + P_STATUS] != BUSTED:
                present = _kinds_of_row(s, q)
                for k in range(NK):
                    if present >> k & 1:
                        out[cnt] = 3 + 2 * n + q * NRK + RK_INDEX[k]
                        cnt += 1
    elif card == DISCARD:
        for q in range(n):
            if s[_pb(q) + P_STATUS] != BUSTED:
                present = _kinds_of_row(s, q)
                for k in range(NK):
                    if present >> k & 1:
                        out[cnt] = 3 + 2 * n + m + q * NRK + RK_INDEX[k]
                        cnt += 1
    elif card == SWAP:
        for s1 in range(n):
            b1 = _pb(s1)
            if s[b1 + P_STATUS] == BUSTED or s[b1 + P_ROWLEN] == 0:
                continue
            present = _kinds_of_row(s, s1)
            for s2 in range(s1 + 1, n):
                b2 = _pb(s2)
                if s[b2 + P_STATUS] == BUSTED or s[b2 + P_ROWLEN] == 0:
                    continue
                present2 = _kinds_of_row(s, s2)
                same_u7 = s[b1 + P_ROWLEN] > 1 or s[b2 + P_ROWLEN] > 1
                pair = s1 * n - s1 * (s1 + 1) // 2 + (s2 - s1 - 1)
                for k1 in range(NK):
                    if not present >> k1 & 1:
                        continue
                    for k2 in range(NK):
                        if present2 >> k2 & 1 and (k1 != k2 or (k1 == U7 and same_u7)):
                            out[cnt] = (
                                3
                                + 2 * n
                                + 2 * m
                                + pair * NRK * NRK
                                + RK_INDEX[k1] * NRK
                                + RK_INDEX[k2]
                            )
                            cnt += 1
    return cnt


# ----- the engine -----------------------------------------------------------------------------


@internal
def _draw(s: np.ndarray, seat: int, flip: bool) -> bool:
    """Prepare a draw for ``seat``; reshuffle if needed (F7V-3.6). False: the round ends."""
    if s[H_DRAWS] >= s[H_CAP]:
        s[H_ROUNDEND] = 1
        return False
    if s[H_DECKSIZE] == 0:
        total = 0
        for k in range(NK):
            total += s[O_DISC + k]
        if total == 0:
            s[H_ROUNDEND] = 1
            return False
        for k in range(NK):
            s[O_DC + k] = s[O_DISC + k]
            s[O_DISC + k] = 0
        s[H_DECKSIZE] = total
    s[H_TOMOVE] = CHANCE
    s[H_DRAWFOR] = seat
    s[H_DRAWFLIP] = 1 if flip else 0
    return True


@internal
def _arrive(s: np.ndarray, p: int, k: int) -> None:
    """A number or modifier card enters ``p``'s row like a dealt card (F7V-4.9)."""
    b = _pb(p)
    if not IS_NUM[k]:
        _row_append(s, p, k)
        return
    v = VALUE[k]
    bit = 1 << v
    if k == U7:
        # F7V-6.2: discard every number and modifier card, keep only this 7; never busts.
        n = s[b + P_ROWLEN]
        keep = 0
        for j in range(n):
            c = s[b + P_ROW + j]
            if IS_ROW[c]:
                s[O_DISC + c] += 1
            else:
                s[b + P_ROW + keep] = c
                keep += 1
        for j in range(keep, n):
            s[b + P_ROW + j] = 0
        s[b + P_ROWLEN] = keep
        _row_append(s, p, k)
        s[b + P_MASK] = bit
        s[b + P_NCOUNT] = 1
        return
    if s[b + P_MASK] & bit:
        bust = True
        if v == 13 and s[H_V] == 1:
            # F7V-6.3: a second 13 is fine when one of the two is the Lucky 13.
            held = 0
            lucky = False
            for j in range(s[b + P_ROWLEN]):
                c = s[b + P_ROW + j]
                if VALUE[c] == 13:
                    held += 1
                    if c == L13:
                        lucky = True
            bust = held >= 2 or ((not lucky) and k != L13)
        elif s[H_V] == 0 and _row_has(s, p, SECOND):
            # F7V-9: Second Chance: discard it and the duplicate instead of busting.
            _row_remove(s, p, SECOND)
            s[O_DISC + SECOND] += 1
            s[O_DISC + k] += 1
            return
        if bust:
            _row_append(s, p, k)
            s[b + P_NCOUNT] += 1
            s[b + P_STATUS] = BUSTED
            return
    _row_append(s, p, k)
    s[b + P_MASK] |= bit
    s[b + P_NCOUNT] += 1
    if s[b + P_NCOUNT] >= FLIP7_CARDS and s[H_FLIP7] < 0:
        s[H_FLIP7] = p  # F7V-3.4: the round ends at once
        s[H_ROUNDEND] = 1


@internal
def _give(s: np.ndarray, t: int, k: int, q: int) -> None:
    """``t`` plays card ``k`` on seat ``q``."""
    bq = _pb(q)
    if IS_MOD[k]:
        if s[bq + P_STATUS] == BUSTED:
            n = s[bq + P_POSTLEN]
            s[bq + P_POST + n] = k  # F7V-8.2
            s[bq + P_POSTLEN] = n + 1
        else:
            _row_append(s, q, k)
        return
    if k == SECOND:
        _row_append(s, q, k)
        return
    if k == JOM:
        _push(s, F_JOM, q, 0)
    elif k == FLIP4:
        _push(s, F_FLIP, q, FLIP4_CARDS)  # F7V-4.8
    elif k == FLIP3:
        _push(s, F_FLIP, q, FLIP3_CARDS)  # F7V-9
    else:  # Freeze
        s[O_DISC + k] += 1
    if k == FREEZE and s[bq + P_STATUS] == ACTIVE:
        s[bq + P_STATUS] = STAYED


@noref_inline
def _take(s: np.ndarray, q: int, k: int) -> None:
    _row_remove(s, q, k)
    if IS_NUM[k]:
        _recount(s, q)


@internal
def _pick(s: np.ndarray, t: int, card: int, aid: int) -> None:
    """Swap/Steal/Discard by ``t`` (F7V-4.5 … F7V-4.7, F7V-4.9), from the action id."""
    n = s[H_N]
    m = n * NRK
    s[O_DISC + card] += 1
    i = aid - 3 - 2 * n
    if i < m:
        q = i // NRK
        k = ROW_KINDS[i % NRK]
        _take(s, q, k)
        _arrive(s, t, k)
        return
    i -= m
    if i < m:
        q = i // NRK
        k = ROW_KINDS[i % NRK]
        _take(s, q, k)
        s[O_DISC + k] += 1
        return
    i -= m
    pair = i // (NRK * NRK)
    cards = i % (NRK * NRK)
    s1 = 0
    while pair >= n - s1 - 1:
        pair -= n - s1 - 1
        s1 += 1
    s2 = s1 + 1 + pair
    k1 = ROW_KINDS[cards // NRK]
    k2 = ROW_KINDS[cards % NRK]
    _take(s, s1, k1)
    _take(s, s2, k2)
    _arrive(s, s2, k1)
    _arrive(s, s1, k2)


@noref_inline
def _start_card(s: np.ndarray, t: int, k: int, buf: np.ndarray) -> None:
    """``t`` resolves modifier or action card ``k`` now: decide, or act if forced."""
    if IS_MOD[k] or k == JOM or k == FLIP4 or k == FREEZE or k == FLIP3 or k == SECOND:
        if k == SECOND and not _row_has(s, t, SECOND):
            _row_append(s, t, k)  # F7V-9: keep it
            return
        cnt = _targets(s, t, k, buf)
        if cnt > 1:
            s[H_TOMOVE] = t
            s[H_DEC] = D_TARGET
            s[H_DECCARD] = k
        elif cnt == 1:
            _give(s, t, k, buf[0])
        else:
            s[O_DISC + k] += 1  # F7V-4.1 ruling: no valid target, discarded
        return
    cnt = _picks(s, t, k, buf)
    if cnt > 1:
        s[H_TOMOVE] = t
        if k == SWAP:
            s[H_DEC] = D_SWAP
        elif k == STEAL:
            s[H_DEC] = D_STEAL
        else:
            s[H_DEC] = D_DISCARD
        s[H_DECCARD] = k
    elif cnt == 1:
        _pick(s, t, k, buf[0])
    else:
        s[O_DISC + k] += 1


@noref_inline
def _on_draw(s: np.ndarray, k: int, buf: np.ndarray) -> None:
    """The drawn card ``k`` reaches the receiver (F7V-3.2, F7V-4.4, F7V-4.8)."""
    s[O_DC + k] -= 1
    s[H_DECKSIZE] -= 1
    s[H_DRAWS] += 1
    t = s[H_DRAWFOR]
    if IS_NUM[k] or (IS_MOD[k] and s[H_V] == 0):
        _arrive(s, t, k)
    elif s[H_DRAWFLIP] == 1 and not (k == SECOND and not _row_has(s, t, SECOND)):
        # F7V-4.8: set aside, resolved after the flips.
        o = O_STACK + (s[H_SP] - 1) * FRAME
        q = s[o + 3]
        s[o + 4 + q] = k
        s[o + 3] = q + 1
    else:
        _start_card(s, t, k, buf)


@internal
def _start_round(s: np.ndarray) -> None:
    s[H_ROUND] += 1
    s[H_SP] = 0
    _push(s, F_DEAL, 1, 0)


@noref_inline
def _clear_rows(s: np.ndarray, n: int) -> None:
    """Every seat's row and after-bust cards to the discard pile; seats active again (F7V-3.5)."""
    for p in range(n):
        b = _pb(p)
        for j in range(s[b + P_ROWLEN]):
            s[O_DISC + s[b + P_ROW + j]] += 1
            s[b + P_ROW + j] = 0
        for j in range(s[b + P_POSTLEN]):
            s[O_DISC + s[b + P_POST + j]] += 1
            s[b + P_POST + j] = 0
        s[b + P_ROWLEN] = 0
        s[b + P_POSTLEN] = 0
        s[b + P_STATUS] = ACTIVE
        s[b + P_MASK] = 0
        s[b + P_NCOUNT] = 0


@noref_inline
def _finish_round(s: np.ndarray) -> bool:
    """Score the round (F7V-7); start the next or end the game. True: stop running."""
    n = s[H_N]
    fc = _flip_card(s)
    for i in range(s[H_SP]):
        o = O_STACK + i * FRAME
        if s[o] == F_FLIP:  # F7V-3.4: the Flip 4 and its set-aside cards
            s[O_DISC + fc] += 1
            for j in range(s[o + 3]):
                s[O_DISC + s[o + 4 + j]] += 1
        elif s[o] == F_JOM:
            s[O_DISC + JOM] += 1
    s[H_SP] = 0
    f = s[H_FLIP7]
    if s[H_BRUTAL] == 1 and f >= 0 and s[H_BONUSTO] < 0:
        s[H_TOMOVE] = f  # F7V-8.3
        s[H_DEC] = D_BRUTAL
        s[H_DECCARD] = -1
        return True
    best = -(1 << 60)
    for p in range(n):
        sc = round_score(s, p)
        s[_pb(p) + P_LAST] = sc
    for p in range(n):
        b = _pb(p)
        s[b + P_TOTAL] += s[b + P_LAST]
        if s[b + P_TOTAL] > best:
            best = s[b + P_TOTAL]
    s[H_LAST] = 1
    count = 0
    for p in range(n):
        if s[_pb(p) + P_TOTAL] == best:
            count += 1
    # F7V-3.7: a lone leader at or above the target wins; ties play on (round cap: rulings).
    if (best >= s[H_TARGET] and count == 1) or s[H_ROUND] >= s[H_MAXR]:
        for p in range(n):
            b = _pb(p)
            s[b + P_WIN] = 1 if s[b + P_TOTAL] == best else 0
        s[H_TOMOVE] = TERMINAL
        s[H_DEC] = D_NONE
        return True
    _clear_rows(s, n)  # F7V-3.5: the round's cards go to the discard pile
    # F7V-3.5: the deck passes left.
    s[H_DEALER] = (s[H_DEALER] + 1) % n
    s[H_DRAWS] = 0
    s[H_FLIP7] = -1
    s[H_BONUSTO] = -1
    s[H_ROUNDEND] = 0
    _start_round(s)
    return False


@internal
def _run(s: np.ndarray, buf: np.ndarray) -> None:
    """Advance until a player decision, a draw, or the end of the game."""
    n = s[H_N]
    while True:
        if s[H_ROUNDEND] == 1:
            if _finish_round(s):
                return
            continue
        o = O_STACK + (s[H_SP] - 1) * FRAME
        kind = s[o]
        if kind == F_TURN:
            q = s[o + 1]  # in range(n)
            found = False
            for _ in range(n):
                if s[_pb(q) + P_STATUS] == ACTIVE:
                    s[H_TOMOVE] = q
                    s[H_DEC] = D_HITSTAY
                    found = True
                    break
                q += 1
                if q == n:
                    q = 0
            if found:
                return
            s[H_ROUNDEND] = 1  # F7V-3.4: nobody active
        elif kind == F_DEAL:
            k = s[o + 1]
            d = s[H_DEALER]
            while k <= n and s[_pb((d + k) % n) + P_STATUS] != ACTIVE:
                k += 1
            if k > n:
                s[o] = F_TURN
                s[o + 1] = (d + 1) % n  # F7V-3.3
                continue
            s[o + 1] = k + 1
            if _draw(s, (d + k) % n, False):
                return
        elif kind == F_JOM:
            t = s[o + 1]
            st = s[_pb(t) + P_STATUS]
            if s[o + 2] == 0 and st != BUSTED:
                s[o + 2] = 1
                if _draw(s, t, False):
                    return
            else:
                s[H_SP] -= 1
                for j in range(FRAME):
                    s[o + j] = 0
                s[O_DISC + JOM] += 1  # F7V-4.3: used up
                if st == ACTIVE:  # F7V-4.4: then must stay (even with the Zero)
                    s[_pb(t) + P_STATUS] = STAYED
        else:  # F_FLIP
            t = s[o + 1]
            left = s[o + 2]
            q = s[o + 3]
            if s[_pb(t) + P_STATUS] == BUSTED:
                s[H_SP] -= 1  # F7V-4.8: set-aside cards are discarded on a bust
                s[O_DISC + _flip_card(s)] += 1
                for j in range(q):
                    s[O_DISC + s[o + 4 + j]] += 1
                for j in range(FRAME):
                    s[o + j] = 0
            elif left > 0:
                s[o + 2] = left - 1
                if _draw(s, t, True):
                    return
            elif q > 0:
                first = s[o + 4]
                for j in range(q - 1):
                    s[o + 4 + j] = s[o + 5 + j]
                s[o + 4 + q - 1] = 0
                s[o + 3] = q - 1
                _start_card(s, t, first, buf)
                if s[H_TOMOVE] >= 0:
                    return
            else:
                s[H_SP] -= 1
                for j in range(FRAME):
                    s[o + j] = 0
                s[O_DISC + _flip_card(s)] += 1  # F7V-4.3: used up


# ----- the contract, compiled -------------------------------------------------------------------


@noref
def current_player(s: np.ndarray) -> int:
    """The seat to act, ``-1`` (chance) or ``-4`` (terminal)."""
    return s[H_TOMOVE]


@noref
def round_index(s: np.ndarray) -> int:
    """``Flip7State.round_index``: the round being played."""
    return s[H_ROUND]


@noref
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids (``Flip7.action_to_id`` of ``legal_actions()``, same order)
    into ``out``; return how many (0 at chance and terminal nodes)."""
    tm = s[H_TOMOVE]
    if tm < 0:
        return 0
    dec = s[H_DEC]
    n = s[H_N]
    if dec == D_HITSTAY:
        out[0] = 0
        if s[H_V] == 1 and _row_has(s, tm, ZERO):
            return 1  # F7V-6.1
        out[1] = 1
        return 2
    if dec == D_TARGET:
        cnt = _targets(s, tm, s[H_DECCARD], out)
        for i in range(cnt):
            out[i] = 3 + out[i]
        return cnt
    if dec == D_BRUTAL:
        out[0] = 2
        cnt = 1
        for q in range(n):
            if q != tm:
                out[cnt] = 3 + n + q
                cnt += 1
        return cnt
    return _picks(s, tm, s[H_DECCARD], out)


@noref
def chance_outcomes(s: np.ndarray, codes: np.ndarray, weights: np.ndarray) -> int:
    """Write the chance outcomes and their integer weights (probability = weight / total of
    the weights, as the engine's ``count / cards left`` and ``1 / n``); return how many."""
    if s[H_TOMOVE] != CHANCE:
        return 0
    if s[H_DRAWFOR] < 0:
        for q in range(s[H_N]):
            codes[q] = CH_DEALER + q
            weights[q] = 1
        return s[H_N]
    cnt = 0
    for k in range(NK):
        c = s[O_DC + k]
        if c > 0:
            codes[cnt] = k
            weights[cnt] = c
            cnt += 1
    return cnt


@noref
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    """One chance outcome drawn with its exact probability."""
    if s[H_DRAWFOR] < 0:
        return CH_DEALER + randbelow(rng, s[H_N])
    r = randbelow(rng, s[H_DECKSIZE])
    for k in range(NK):
        r -= s[O_DC + k]
        if r < 0:
            return k
    return -1


@noref
def apply_chance(s: np.ndarray, code: int, buf: np.ndarray) -> None:
    """Apply a chance outcome (assumed possible) and resolve until the next decision or draw."""
    s[H_TOMOVE] = RUN
    if code >= CH_DEALER:
        s[H_DEALER] = code - CH_DEALER
        _start_round(s)
    else:
        _on_draw(s, code, buf)
    if s[H_TOMOVE] == RUN:
        _run(s, buf)


@noref
def apply_action(s: np.ndarray, aid: int, buf: np.ndarray) -> None:
    """Apply a legal player action id and resolve until the next decision or draw."""
    _apply(s, aid, buf)


@noref_inline
def _apply(s: np.ndarray, aid: int, buf: np.ndarray) -> None:
    """:func:`apply_action`, inlined into the playouts."""
    tm = s[H_TOMOVE]
    n = s[H_N]
    dec = s[H_DEC]
    s[H_DEC] = D_NONE
    s[H_TOMOVE] = RUN
    if dec == D_HITSTAY:
        o = O_STACK + (s[H_SP] - 1) * FRAME
        s[o] = F_TURN
        s[o + 1] = (tm + 1) % n
        if aid == 0:
            if _draw(s, tm, False):
                return
        else:
            s[_pb(tm) + P_STATUS] = STAYED
    else:
        card = s[H_DECCARD]
        s[H_DECCARD] = -1
        if aid == 2:
            s[H_BONUSTO] = tm
        elif aid >= 3 + n and aid < 3 + 2 * n:
            s[H_BONUSTO] = aid - 3 - n
        elif aid >= 3 and aid < 3 + n:
            _give(s, tm, card, aid - 3)
        else:
            _pick(s, tm, card, aid)
    if s[H_TOMOVE] == RUN:
        _run(s, buf)


@noref
def scores(s: np.ndarray, out: np.ndarray) -> None:
    """Game totals per seat (``Flip7State.scores``)."""
    for p in range(s[H_N]):
        out[p] = s[_pb(p) + P_TOTAL]


@noref
def is_winner(s: np.ndarray, p: int) -> bool:
    """Whether seat ``p`` is among the winners (terminal states only)."""
    return s[H_TOMOVE] == TERMINAL and s[_pb(p) + P_WIN] == 1


# ----- the greedy bot, compiled -----------------------------------------------------------------


@internal
def _busts(row: np.ndarray, length: int, k: int, v: bool) -> bool:
    """``greedy.flip7._busts``: whether number card ``k`` arriving busts the row."""
    if not IS_NUM[k] or k == U7:
        return False
    val = VALUE[k]
    same = 0
    lucky = False
    second = False
    for j in range(length):
        c = row[j]
        if c == SECOND:
            second = True
        if IS_NUM[c] and VALUE[c] == val:
            same += 1
            if c == L13:
                lucky = True
    if same == 0:
        return False
    if v and val == 13:
        return same >= 2 or ((not lucky) and k != L13)
    return not ((not v) and second)


@noref_inline
def _score(row: np.ndarray, length: int, v: bool) -> int:
    return _row_points_at(row, 0, length, v, False, False)


@noref_inline
def _after(row: np.ndarray, length: int, k: int, v: bool, tmp: np.ndarray) -> int:
    """Round score after card ``k`` arrives in ``row`` (0 on a bust)."""
    if IS_NUM[k] and _busts(row, length, k, v):
        return 0
    if k == U7:
        tmp[0] = U7
        return _score(tmp, 1, v)
    for j in range(length):
        tmp[j] = row[j]
    tmp[length] = k
    return _score(tmp, length + 1, v)


@internal
def _points(total: int, ndiv: int, nx2: int, add: int, zero: bool, v: bool) -> int:
    """``row_points`` (not brutal, no Flip 7) from a row's number sum, ÷2 / ×2 counts, added
    points and whether it holds the Zero."""
    if v:
        for _ in range(ndiv):
            total //= 2
        total += add
        if total < 0:
            total = 0
        if zero:
            total = 0
        return total
    for _ in range(nx2):
        total *= 2
    return total + add


@internal
def _risk(
    s: np.ndarray, p: int, deck: np.ndarray, left: int, v: bool, tmp: np.ndarray
) -> tuple[float, float]:
    """(bust probability, expected gain of a safe card) of one more card for seat ``p``
    (``greedy.flip7.GreedyAgent._risk``, from the row's totals instead of a copy per card)."""
    b = _pb(p)
    length = s[b + P_ROWLEN]
    total = 0
    ndiv = 0
    nx2 = 0
    add = 0
    zero = False
    second = False
    n13 = 0
    lucky = False
    numbers = 0
    mask = 0
    for j in range(length):
        c = s[b + P_ROW + j]
        if IS_NUM[c]:
            total += VALUE[c]
            numbers += 1
            mask |= 1 << VALUE[c]
            if VALUE[c] == 13:
                n13 += 1
                if c == L13:
                    lucky = True
        if c == DIV2:
            ndiv += 1
        elif c == X2:
            nx2 += 1
        elif c == ZERO:
            zero = True
        elif c == SECOND:
            second = True
        add += MOD_ADD[c]
    base = _points(total, ndiv, nx2, add, zero, v)
    bust = 0
    gain = 0.0
    nums_total = 0
    for k in range(NUM_END):  # the number kinds
        c = deck[k]
        if c > 0:
            nums_total += c
            busts = False
            if k != U7:
                val = VALUE[k]
                if mask & (1 << val):
                    if v and val == 13:
                        busts = n13 >= 2 or ((not lucky) and k != L13)
                    else:
                        busts = not ((not v) and second)
            if busts:
                bust += c
            else:
                if k == U7:
                    after = _points(VALUE[U7], 0, 0, 0, False, v)
                else:
                    after = _points(total + VALUE[k], ndiv, nx2, add, zero or k == ZERO, v)
                gain += c * (after - base)
    prob = bust / left
    safe = left - bust
    g = gain / safe if safe else 0.0
    if numbers == FLIP7_CARDS - 1:
        g += float(FLIP7_BONUS) * (nums_total - bust) / max(safe, 1)
    return prob, g


@jit
def greedy_action(s: np.ndarray, legal: np.ndarray, cnt: int, params: np.ndarray) -> int:
    """The move of ``septet.bots.greedy.flip7.GreedyAgent`` among the ``cnt`` legal ids, read
    from the same public facts its view holds; ``params`` = (threshold, NaN for none;
    aggression)."""
    if cnt == 1:
        return legal[0]
    return _greedy(s, legal, cnt, params, _scratch(s[H_N]))


@jit
def _scratch(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Work arrays of the greedy (allocated once per playout, not per decision)."""
    return (
        np.zeros(MAXROW + 2, dtype=np.int64),
        np.zeros((4, n), dtype=np.int64),
        np.zeros(NK, dtype=np.int64),
        np.zeros(n),
        np.zeros((n, MAXROW + 2), dtype=np.int64),
    )


@internal
def _greedy(
    s: np.ndarray,
    legal: np.ndarray,
    cnt: int,
    params: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """The greedy bot's choice among ``legal[:cnt]`` (the twin of ``septet.bots.greedy.flip7``):
    per-seat round scores, totals and deck counts, then one helper per decision kind (inlined)."""
    if cnt == 1:
        return legal[0]
    n = s[H_N]
    v = s[H_V] == 1
    me = s[H_TOMOVE]
    tmp, per_seat, deck, weight, rows = work
    now = per_seat[0]
    totals = per_seat[1]
    lens = per_seat[2]
    old = per_seat[3]
    for p in range(n):
        now[p] = round_score(s, p)
        totals[p] = s[_pb(p) + P_TOTAL]
    src = O_DC if s[H_DECKSIZE] > 0 else O_DISC
    left = 0
    for k in range(NK):
        deck[k] = s[src + k]
        left += deck[k]
    if left == 0:
        left = 1
    best = totals[0] + now[0]
    for p in range(1, n):
        if totals[p] + now[p] > best:
            best = totals[p] + now[p]
    for p in range(n):
        weight[p] = 1.0 + (0.5 if totals[p] + now[p] >= best and p != me else 0.0)
    dec = s[H_DEC]
    if dec == D_HITSTAY:
        return _greedy_hit_stay(s, legal, params, now, totals, deck, left, v, tmp)
    if dec == D_TARGET:
        return _greedy_target(s, legal, cnt, now, totals, deck, left, v, tmp, weight)
    if dec == D_BRUTAL:
        return _greedy_brutal(s, legal, cnt, now, totals)
    return _greedy_rows(s, legal, cnt, now, old, lens, rows, tmp, weight)


@noref_inline
def _greedy_hit_stay(
    s: np.ndarray,
    legal: np.ndarray,
    params: np.ndarray,
    now: np.ndarray,
    totals: np.ndarray,
    deck: np.ndarray,
    left: int,
    v: bool,
    tmp: np.ndarray,
) -> int:
    """Hit or stay: stay on a winning lead or at the threshold, else hit when the odds pay."""
    threshold = params[0]
    aggression = params[1]
    n = s[H_N]
    me = s[H_TOMOVE]
    target = s[H_TARGET]
    score = now[me]
    mine = totals[me] + score
    top_other = 0
    first = True
    for p in range(n):
        if p != me:
            if first or totals[p] + now[p] > top_other:
                top_other = totals[p] + now[p]
                first = False
    if mine >= target and mine > top_other:
        return legal[1]
    if top_other >= target and top_other >= mine:
        return legal[0]
    if not np.isnan(threshold) and score >= threshold:
        return legal[1]
    prob, gain = _risk(s, me, deck, left, v, tmp)
    return legal[0] if aggression * (1.0 - prob) * gain > prob * score else legal[1]


@noref_inline
def _greedy_target(
    s: np.ndarray,
    legal: np.ndarray,
    cnt: int,
    now: np.ndarray,
    totals: np.ndarray,
    deck: np.ndarray,
    left: int,
    v: bool,
    tmp: np.ndarray,
    weight: np.ndarray,
) -> int:
    """Whom to give an action card or modifier: the best expected change for me."""
    me = s[H_TOMOVE]
    k = s[H_DECCARD]
    best_i = 0
    best_val = 0.0
    for i in range(cnt):
        q = legal[i] - 3
        bq = _pb(q)
        lq = s[bq + P_ROWLEN]
        busted = s[bq + P_STATUS] == BUSTED
        if IS_MOD[k]:
            for j in range(lq):
                tmp[j] = s[bq + P_ROW + j]
            tmp[lq] = k
            delta = _score(tmp, lq + 1, v) - _row_points_at(s, bq + P_ROW, lq, v, False, False)
            if busted:
                delta = MOD_ADD[k]
            val = float(delta) if q == me else -delta * weight[q]
        elif k == JOM or k == FLIP4 or k == FLIP3:
            n_cards = 1 if k == JOM else (FLIP4_CARDS if k == FLIP4 else FLIP3_CARDS)
            prob, gain = _risk(s, q, deck, left, v, tmp)
            p_all = 1.0 - (1.0 - prob) ** float(n_cards)
            change = (1.0 - p_all) * gain * n_cards - p_all * now[q]
            if k == JOM and s[bq + P_STATUS] == ACTIVE:
                hv = (1.0 - prob) * gain - prob * float(now[q])
                change -= max(0.0, hv)
            val = change if q == me else -change * weight[q]
        elif k == FREEZE:
            prob, gain = _risk(s, q, deck, left, v, tmp)
            change = -((1.0 - prob) * gain - prob * float(now[q]))
            val = change if q == me else -change * weight[q]
        else:
            val = -float(totals[q] + now[q])
        val = val + 1e-6 * totals[q]
        if i == 0 or val > best_val:
            best_i = i
            best_val = val
    return legal[best_i]


@noref_inline
def _greedy_brutal(
    s: np.ndarray, legal: np.ndarray, cnt: int, now: np.ndarray, totals: np.ndarray
) -> int:
    """The Brutal Flip 7 choice: keep a winning lead, else hit the leader near the target."""
    n = s[H_N]
    me = s[H_TOMOVE]
    target = s[H_TARGET]
    mine = totals[me] + now[me]
    theirs = -(1 << 60)
    leader = -1
    for p in range(n):
        if p != me and totals[p] + now[p] >= theirs:
            theirs = totals[p] + now[p]
            leader = p
    if mine >= target and mine > theirs:
        return legal[0]
    if theirs >= target and theirs - FLIP7_BONUS < target:
        for i in range(1, cnt):
            if legal[i] - 3 - n == leader:
                return legal[i]
    return legal[0]


@noref_inline
def _row_move(
    x: int, n: int, me: int, m: int, rows: np.ndarray, lens: np.ndarray
) -> tuple[int, int, int, int]:
    """Apply swap/steal/discard choice ``x`` to the copied ``rows``; the cards that moved:
    ``(seat, kind, seat, kind)`` (-1 where none)."""
    mv_seat0 = -1
    mv_k0 = -1
    mv_seat1 = -1
    mv_k1 = -1
    if x < m:
        q = x // NRK
        kk = ROW_KINDS[x % NRK]
        lens[q] = _remove_from(rows[q], lens[q], kk)
        mv_seat0 = me
        mv_k0 = kk
    elif x < 2 * m:
        x -= m
        q = x // NRK
        kk = ROW_KINDS[x % NRK]
        lens[q] = _remove_from(rows[q], lens[q], kk)
    else:
        x -= 2 * m
        pair = x // (NRK * NRK)
        cards = x % (NRK * NRK)
        s1 = 0
        while pair >= n - s1 - 1:
            pair -= n - s1 - 1
            s1 += 1
        s2 = s1 + 1 + pair
        k1 = ROW_KINDS[cards // NRK]
        k2 = ROW_KINDS[cards % NRK]
        lens[s1] = _remove_from(rows[s1], lens[s1], k1)
        lens[s2] = _remove_from(rows[s2], lens[s2], k2)
        mv_seat0 = s2
        mv_k0 = k1
        mv_seat1 = s1
        mv_k1 = k2
    return mv_seat0, mv_k0, mv_seat1, mv_k1


@noref_inline
def _greedy_rows(
    s: np.ndarray,
    legal: np.ndarray,
    cnt: int,
    now: np.ndarray,
    old: np.ndarray,
    lens: np.ndarray,
    rows: np.ndarray,
    tmp: np.ndarray,
    weight: np.ndarray,
) -> int:
    """Swap / Steal / Discard: the change in round scores each choice causes."""
    n = s[H_N]
    v = s[H_V] == 1
    me = s[H_TOMOVE]
    m = n * NRK
    new = now  # the round scores are not read again below
    for p in range(n):
        b = _pb(p)
        old[p] = _row_points_at(s, b + P_ROW, s[b + P_ROWLEN], v, False, False)
    best_i = 0
    best_value = 0.0
    for i in range(cnt):
        for p in range(n):
            b = _pb(p)
            lens[p] = s[b + P_ROWLEN]
            for j in range(lens[p]):
                rows[p, j] = s[b + P_ROW + j]
        mv_seat0, mv_k0, mv_seat1, mv_k1 = _row_move(legal[i] - 3 - 2 * n, n, me, m, rows, lens)
        for p in range(n):
            new[p] = _score(rows[p], lens[p], v)
        if mv_seat0 >= 0:
            new[mv_seat0] = _after(rows[mv_seat0], lens[mv_seat0], mv_k0, v, tmp)
        if mv_seat1 >= 0:
            new[mv_seat1] = _after(rows[mv_seat1], lens[mv_seat1], mv_k1, v, tmp)
        value = 0.0
        for p in range(n):
            if s[_pb(p) + P_STATUS] == BUSTED:
                continue
            d = new[p] - old[p]
            if p == me:
                value += d
            else:
                value += -d * weight[p]
        if i == 0 or value > best_value:
            best_i = i
            best_value = value
    return legal[best_i]


@internal
def _remove_from(row: np.ndarray, length: int, k: int) -> int:
    j = 0
    while j < length and row[j] != k:
        j += 1
    for i in range(j, length - 1):
        row[i] = row[i + 1]
    return length - 1


# ----- playouts ------------------------------------------------------------------------------


# ----- the risk bot, compiled ------------------------------------------------------------------


@noref
def bust_probability(s: np.ndarray, p: int) -> float:
    """P(bust) of one more card for seat ``p``: the number cards that would bust its row
    (F7V-2, F7V-6.2, F7V-6.3, F7V-9) over every card left in the pile drawn from (the deck, or
    the discard pile that a draw would reshuffle, F7V-3.6), as ``GreedyAgent._risk``.

    Classic rows are read from the value mask alone (the Second Chance looked for only when the
    row holds a card that is not a number); the counts are summed in kind order either way, so
    the quotient is the one of a plain loop over the number kinds."""
    b = _pb(p)
    v = s[H_V] == 1
    mask = s[b + P_MASK]
    if s[H_DECKSIZE] > 0:
        src = O_DC
        left = s[H_DECKSIZE]
    else:
        src = O_DISC
        left = 0
        for k in range(NK):
            left += s[O_DISC + k]
    if left == 0:
        left = 1
    bust = 0
    if not v:
        if s[b + P_ROWLEN] > s[b + P_NCOUNT] and _row_has(s, p, SECOND):
            return 0.0  # F7V-9: the Second Chance takes any duplicate
        for val in range(14):  # the plain number kinds: kind = value (no branch per value)
            bust += s[src + val] * (mask >> val & 1)
        bust += s[src + ZERO] * (mask & 1) + s[src + L13] * (mask >> 13 & 1)
        return bust / left
    n13 = 0
    lucky = False
    if mask & (1 << 13):
        for j in range(s[b + P_ROWLEN]):
            c = s[b + P_ROW + j]
            if IS_NUM[c] and VALUE[c] == 13:
                n13 += 1
                if c == L13:
                    lucky = True
    for k in range(NUM_END):
        c = s[src + k]
        if c == 0 or k == U7:
            continue
        val = VALUE[k]
        if mask & (1 << val):
            if val == 13:
                if n13 >= 2 or ((not lucky) and k != L13):
                    bust += c
            else:
                bust += c
    return bust / left


@jit
def risk_action(s: np.ndarray, legal: np.ndarray, cnt: int, params: np.ndarray) -> int:
    """The move of ``septet.bots.risk.RiskAgent`` among the ``cnt`` legal ids: hit while
    :func:`bust_probability` is at most ``params[2]``, else stay; every other decision as the
    greedy bot."""
    if cnt == 1:
        return legal[0]
    if s[H_DEC] == D_HITSTAY:
        return legal[0] if bust_probability(s, s[H_TOMOVE]) <= params[2] else legal[1]
    return _greedy(s, legal, cnt, params, _scratch(s[H_N]))


@noref_inline
def _choose(
    s: np.ndarray,
    tm: int,
    pol: int,
    rng: np.ndarray,
    params: np.ndarray,
    legal: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """Seat ``tm``'s move by policy ``pol`` (0 random, 1 greedy, 2 risk)."""
    cnt = legal_actions(s, legal)
    if cnt > 1 and pol == 1:
        return _greedy(s, legal, cnt, params, work)
    if cnt > 1 and pol == 2:
        if s[H_DEC] == D_HITSTAY:
            return legal[0] if bust_probability(s, tm) <= params[2] else legal[1]
        return _greedy(s, legal, cnt, params, work)
    return legal[randbelow(rng, cnt)]


@jit
def playout(
    s: np.ndarray,
    rng: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    legal: np.ndarray,
    buf: np.ndarray,
) -> int:
    """Play ``s`` on in place through the step interface (legal ids, chance outcomes): seat
    ``p`` moves by ``policies[p]`` (0 random, 1 greedy, 2 risk), chance exactly; stop at the end
    of the game, of the round in hand (``horizon_round``) or after ``max_steps`` steps (``-1``:
    no limit). Returns the steps taken. The reference of :func:`playout_fast`."""
    return _playout(
        s, rng, policies, horizon_round, max_steps, params, legal, buf, _scratch(s[H_N])
    )


@internal
def _playout(
    s: np.ndarray,
    rng: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    legal: np.ndarray,
    buf: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """:func:`playout` with the greedy's work arrays given (``_scratch(n)``)."""
    start_round = s[H_ROUND]
    steps = 0
    while steps != max_steps:
        tm = s[H_TOMOVE]
        if tm == TERMINAL:
            break
        if horizon_round and s[H_ROUND] != start_round:
            break
        if tm == CHANCE:
            apply_chance(s, sample_chance(s, rng), buf)
        else:
            apply_action(s, _choose(s, tm, policies[tm], rng, params, legal, work), buf)
        steps += 1
    return steps


@jit
def playout_fast(
    s: np.ndarray,
    rng: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    legal: np.ndarray,
    buf: np.ndarray,
) -> int:
    """:func:`playout` without the step interface where it costs: a hit/stay decision is
    taken and applied in place (no legal-action array) and a draw is made at once from the
    running counts (no chance node, no outcome list); the other decisions go through the legal
    ids. The same generator calls in the same order, so the same seed plays the same game
    (``tests/fast/test_fast_playout.py`` checks positions, scores and lengths)."""
    return _playout_fast(
        s, rng, policies, horizon_round, max_steps, params, legal, buf, _scratch(s[H_N])
    )


@internal
def _playout_fast(
    s: np.ndarray,
    rng: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    legal: np.ndarray,
    buf: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """:func:`playout_fast` with the greedy's work arrays given (``_scratch(n)``: one set for a
    batch of playouts instead of one per playout)."""
    start_round = s[H_ROUND]
    steps = 0
    n = s[H_N]
    while steps != max_steps:
        tm = s[H_TOMOVE]
        if tm == TERMINAL:
            break
        if horizon_round and s[H_ROUND] != start_round:
            break
        if tm == CHANCE:
            s[H_TOMOVE] = RUN
            if s[H_DRAWFOR] < 0:
                s[H_DEALER] = randbelow(rng, n)
                _start_round(s)
            else:
                _on_draw(s, _draw_kind(s, rng), buf)
            if s[H_TOMOVE] == RUN:
                _run(s, buf)
        elif s[H_DEC] == D_HITSTAY:
            pol = policies[tm]
            only_hit = s[H_V] == 1 and _row_has(s, tm, ZERO)  # F7V-6.1
            if only_hit or pol == 0:
                hit = randbelow(rng, 1 if only_hit else 2) == 0
            elif pol == 2:
                hit = bust_probability(s, tm) <= params[2]
            else:
                legal[0] = 0
                legal[1] = 1
                hit = _greedy(s, legal, 2, params, work) == 0
            _hit_stay(s, tm, hit, buf)
        else:
            _apply(s, _choose(s, tm, policies[tm], rng, params, legal, work), buf)
        steps += 1
    return steps


@noref_inline
def _draw_kind(s: np.ndarray, rng: np.ndarray) -> int:
    """The kind of the next card drawn, as :func:`sample_chance` (one ``randbelow`` over the
    cards left, then the counts in kind order), scanning the number kinds' counts first
    summed in blocks of eight."""
    r = randbelow(rng, s[H_DECKSIZE])
    k = 0
    while k + 8 <= NK:
        o = O_DC + k
        blk = s[o] + s[o + 1] + s[o + 2] + s[o + 3] + s[o + 4] + s[o + 5] + s[o + 6] + s[o + 7]
        if r < blk:
            break
        r -= blk
        k += 8
    while True:
        r -= s[O_DC + k]
        if r < 0:
            return k
        k += 1


@noref_inline
def _hit_stay(s: np.ndarray, tm: int, hit: bool, buf: np.ndarray) -> None:
    """``apply_action`` of a hit (``True``) or a stay by seat ``tm``."""
    s[H_DEC] = D_NONE
    s[H_TOMOVE] = RUN
    o = O_STACK + (s[H_SP] - 1) * FRAME
    s[o] = F_TURN
    s[o + 1] = 0 if tm + 1 == s[H_N] else tm + 1
    if hit:
        if _draw(s, tm, False):
            return
    else:
        s[_pb(tm) + P_STATUS] = STAYED
    _run(s, buf)


@internal
def _row_results(s: np.ndarray, i: int, scores_out: np.ndarray, wins_out: np.ndarray) -> None:
    """Row ``i`` of :func:`play_rows_step`'s outputs from the ended playout ``s``: each seat's total
    and winner flag."""
    for p in range(s[H_N]):
        scores_out[i, p] = s[_pb(p) + P_TOTAL]
        wins_out[i, p] = 1 if is_winner(s, p) else 0


@jit
def play_rows_fast(
    start: np.ndarray,
    rngs: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    fast: bool,
    scores_out: np.ndarray,
    wins_out: np.ndarray,
    lengths_out: np.ndarray,
) -> None:
    """:func:`play_rows_step`'s rows by the playout path (:func:`playout_fast`) only, the same
    games from the same generators; ``fast`` is ignored. The step path is not compiled in."""
    n = start[H_N]
    legal = np.zeros(max(max_actions(n), 8), dtype=np.int64)
    buf = np.zeros(BUF, dtype=np.int64)
    work = _scratch(n)
    s = start.copy()
    for i in range(rngs.shape[0]):
        copy_into(s, start)
        lengths_out[i] = _playout_fast(
            s, rngs[i], policies[i], horizon_round, max_steps, params, legal, buf, work
        )
        _row_results(s, i, scores_out, wins_out)


@jit
def play_rows_step(
    start: np.ndarray,
    rngs: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    fast: bool,
    scores_out: np.ndarray,
    wins_out: np.ndarray,
    lengths_out: np.ndarray,
) -> None:
    """Playout ``i`` from a copy of ``start`` with generator ``rngs[i]`` and the seats'
    policies ``policies[i]``, by the step path (:func:`playout`: legal ids and chance outcomes
    at every step): scores, winner flags (terminal only) and steps into row ``i`` of
    ``scores_out``, ``wins_out`` and ``lengths_out``. ``fast`` is ignored (kept so that both
    paths take the same arguments); the reference the twin checks compare
    :func:`play_rows_fast` with."""
    n = start[H_N]
    legal = np.zeros(max(max_actions(n), 8), dtype=np.int64)
    buf = np.zeros(BUF, dtype=np.int64)
    work = _scratch(n)
    s = start.copy()
    for i in range(rngs.shape[0]):
        copy_into(s, start)
        lengths_out[i] = _playout(
            s, rngs[i], policies[i], horizon_round, max_steps, params, legal, buf, work
        )
        _row_results(s, i, scores_out, wins_out)


def greedy_params(agent_params: Mapping[str, str]) -> np.ndarray:
    """The compiled greedy's and risk bot's ``params`` (threshold, NaN for none; aggression;
    the risk bot's ``p``) from the spec parameters (``greedy:threshold=25,aggression=1.2``,
    ``risk:p=0.3``)."""
    t = agent_params.get("threshold", "")
    return np.array(
        [
            float(t) if str(t) != "" else np.nan,
            float(agent_params.get("aggression", 1)),
            float(agent_params.get("p", RISK_P)),
        ]
    )


RISK_P = 0.26
"""The risk bot's default bust-probability limit (``risk:p=0.26``)."""


def field_name(i: int, n: int) -> str:
    """What index ``i`` of the encoding holds (for failure messages)."""
    heads = [
        "players",
        "edition",
        "brutal",
        "target",
        "cap",
        "max_rounds",
        "round",
        "dealer",
        "to_move",
        "decision",
        "decision_card",
        "draw_for",
        "draw_flip",
        "flip7",
        "flip7_choice",
        "round_draws",
        "round_over",
        "deck_size",
        "stack_depth",
        "last_round",
    ]
    if i < len(heads):
        return heads[i]
    if O_DC <= i < O_DISC:
        return f"deck[{C.TOKENS[i - O_DC]}]"
    if O_DISC <= i < O_STACK:
        return f"discard[{C.TOKENS[i - O_DISC]}]"
    if O_STACK <= i < O_PLAYERS:
        return f"stack[{(i - O_STACK) // FRAME}][{(i - O_STACK) % FRAME}]"
    p, j = divmod(i - O_PLAYERS, PBLOCK)
    fields = [
        "status",
        "total",
        "numbers",
        "mask",
        "row_len",
        "after_bust_len",
        "last_round",
        "winner",
    ]
    if j < len(fields):
        return f"players[{p}].{fields[j]}"
    if j < P_POST:
        return f"players[{p}].row[{j - P_ROW}]"
    return f"players[{p}].after_bust[{j - P_POST}]"


BUF = 4096
"""Scratch ints the apply functions need (targets, picks)."""


def chance_code(action: Any) -> int:
    """The kernel code of a chance outcome (``draw k`` → ``k``, ``dealer s`` → 64 + s)."""
    from septet.games.flip7.actions import OP_DEALER, OP_DRAW

    if action.op == OP_DRAW:
        return int(action.a)
    if action.op == OP_DEALER:
        return CH_DEALER + int(action.a)
    raise ValueError(f"{action} is not a Flip 7 chance outcome")


def code_to_chance(code: int) -> Any:
    """Inverse of :func:`chance_code`."""
    from septet.games.flip7.actions import dealer_action, draw_action

    return dealer_action(code - CH_DEALER) if code >= CH_DEALER else draw_action(code)
