"""The compiled part of :mod:`septet.bots.flip7_ev_fast` (numba), loaded on first need: importing
it loads (or compiles) the programme. See that module for the encoding."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from septet.bots.flip7_ev import Row
from septet.fast._cache import drop_stale
from septet.fast.rng import NOREF, one_signature
from septet.games.flip7 import cards as C
from septet.games.flip7.rules import FLIP3_CARDS, FLIP4_CARDS, FLIP7_BONUS, FLIP7_CARDS

drop_stale()  # before the eager compile below reads the cache (septet.fast._cache)

MAX_PENDING = 14
"""Action cards set aside at once that the encoding holds (far more than a deck can set
aside in one flip; beyond it the Python programme answers)."""


class Unencodable(Exception):
    """A row or pool outside the compiled encoding: the Python programme answers."""


NK = C.NUM_KINDS
_ZERO, _U7, _L13, _DIV2, _X2 = C.ZERO, C.U7, C.L13, C.DIV2, C.X2
_JOM, _FLIP4, _DISCARD, _FREEZE, _FLIP3, _SECOND = (
    C.JOM, C.FLIP4, C.DISCARD, C.FREEZE, C.FLIP3, C.SECOND
)  # fmt: skip
_IS_NUM = np.array(C.IS_NUM, dtype=np.bool_)
_IS_MOD = np.array(C.IS_MOD, dtype=np.bool_)
_VALUE = np.array(C.VALUE, dtype=np.int64)
_V7 = C.VALUE[C.U7]
_MOD_ADD = np.array([C.MOD_ADD[k] if C.IS_MOD[k] else 0 for k in range(NK)], np.int64)
_MASK_SUM = np.array([sum(v for v in range(14) if m >> v & 1) for m in range(1 << 14)],
                     dtype=np.int64)  # fmt: skip
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 14)], dtype=np.int64)

M_MASK = (1 << 14) - 1
S_T13, S_LUCKY, S_X2, S_HALF, S_SECOND, S_FLIP, S_STAY, S_FORCED, S_ADD = (
    14, 16, 17, 18, 19, 20, 21, 22, 28
)  # fmt: skip
ADD_BIAS = 512

# ctx: [0] vengeance, [1] single, [2] bad slot (-1: none), [3] budget (-1: none),
#      [4] exceeded, [5] pending overflow, [6] a Unlucky 7 pool is set, [7] the draw depth
#      (which row of the pool stack a draw fills), [8:15] scratch (a key)
C_VENG, C_SINGLE, C_BAD, C_BUDGET, C_OVER, C_PEND, C_HASU7, C_DEPTH, C_KEY = range(9)
CTX_SIZE = C_KEY + 7


@njit(cache=True, inline="always")
def _t13(r: int) -> int:
    return (r >> S_T13) & 3


@njit(cache=True, inline="always")
def _bit(r: int, s: int) -> bool:
    return (r >> s) & 1 == 1


@njit(cache=True, inline="always")
def _with(r: int, s: int, on: bool) -> int:
    return (r | (1 << s)) if on else (r & ~(1 << s))


@njit(cache=True, inline="always")
def _forced(r: int) -> int:
    return (r >> S_FORCED) & 63


@njit(cache=True, inline="always")
def _set_forced(r: int, n: int) -> int:
    return (r & ~(63 << S_FORCED)) | (n << S_FORCED)


@njit(cache=True, inline="always")
def _add(r: int) -> int:
    return ((r >> S_ADD) & 1023) - ADD_BIAS


@njit(cache=True, inline="always")
def _set_add(r: int, a: int) -> int:
    return (r & ~(1023 << S_ADD)) | ((a + ADD_BIAS) << S_ADD)


@njit(cache=True)
def _numbers(r: int) -> int:
    return _POPCOUNT[r & M_MASK] + (1 if _t13(r) == 2 else 0)


@one_signature  # (one compile for both constant flip7 arguments)
@njit(cache=True)
def _payoff(r: int, veng: bool, flip7: bool) -> float:
    mask = r & M_MASK
    s = _MASK_SUM[mask] + (13 if _t13(r) == 2 else 0)
    if veng:
        if _bit(r, S_HALF):
            s //= 2
        s = max(0, s + _add(r))
        if mask & 1 and not flip7:
            s = 0
    else:
        if _bit(r, S_X2):
            s *= 2
        s += _add(r)
    if flip7:
        s += FLIP7_BONUS  # F7V-7.2
    return 1.0 * s


@njit(cache=True, inline="always")
def _word(pool: Any, lo: int) -> int:
    w = 0
    for k in range(lo, min(lo + 8, NK)):
        w |= pool[k] << (7 * (k - lo))
    return w


@njit(cache=True, inline="always")
def _mix(h: int, x: int) -> int:
    h = (h ^ x) * -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
    return h ^ (h >> 29)


# The memo: an open-addressing hash table (linear probing) in flat arrays, no allocation per
# position: keys ``mk[slot, 0:7]`` = ``(r, pend, the pool's five words)``, values ``mv[slot]``,
# ``mu[slot]`` 1 when used; ``meta`` = [entries, slot mask, full]. Past three quarters full the
# run stops (``meta[T_FULL]``) and the caller grows the table and asks again: entries are only
# stored once their value is final, so the rerun visits the same positions in the same order
# and finds the ones already stored. (Three quarters full with linear probing: a few probes a
# look-up; the numbers-only solitaire round's 4,096 positions fit the first table.)
T_COUNT, T_MASK, T_FULL = range(3)  # the table's meta slots


@njit(cache=True, inline="always")
def _slot(mk: Any, mu: Any, meta: Any, key: Any) -> int:
    h = 0
    for i in range(7):
        h = _mix(h, key[i])
    i = h & meta[T_MASK]
    while mu[i]:
        same = True
        for j in range(7):
            if mk[i, j] != key[j]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & meta[T_MASK]
    return i


@njit(cache=True)
def rehash(mk: Any, mv: Any, mu: Any, nk: Any, nv: Any, nu: Any, meta: Any) -> None:
    """Move every entry of the table ``(mk, mv, mu)`` into the empty ``(nk, nv, nu)`` (a power
    of two rows), updating ``meta``'s mask."""
    meta[T_MASK] = nu.shape[0] - 1
    meta[T_FULL] = 0
    key = np.zeros(7, dtype=np.int64)
    for i in range(mu.shape[0]):
        if mu[i]:
            for j in range(7):
                key[j] = mk[i, j]
            s = _slot(nk, nu, meta, key)
            nk[s, :] = key
            nv[s] = mv[i]
            nu[s] = 1


OP_V, OP_DRAW, OP_RECEIVE, OP_ACTION = 0, 1, 2, 3
_SIG = types.float64(
    types.int64, types.int64, types.int64, types.int64[::1], types.int64, types.boolean,
    types.int64[:, ::1], types.float64[::1], types.uint8[::1], types.int64[::1],
    types.int64[::1], types.int64[::1], types.int64[:, ::1],
)  # fmt: skip


def _recur_typer(
    typingctx: Any, op: Any, r: Any, pend: Any, pool: Any, kind: Any, aside: Any, mk: Any,
    mv: Any, mu: Any, meta: Any, ctx: Any, u7: Any, stack: Any,
) -> Any:  # fmt: skip
    """``node(...)`` called from inside :func:`node`: a direct call of the function being
    compiled, as numba lowers self-recursion, but typed as a plain call. numba types each
    recursive call by typing the whole function again (``return_types_from_partial``), about
    twice per call site: 22 sites made ``node`` the most expensive compile in Septet."""
    plain: Any = types.unliteral
    if tuple(plain(t) for t in (op, r, pend, pool, kind, aside, mk, mv, mu, meta, ctx, u7,
                                stack)) != _SIG.args:  # fmt: skip
        return None  # (a typing error: only node's own arguments are accepted)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        fn = builder.function  # node itself: the intrinsic is lowered inline into its caller
        want = context.call_conv.get_function_type(sig.return_type, sig.args)
        if str(fn.function_type) != str(want) or "_flip7_ev_kernel4node" not in fn.name:
            raise TypeError(f"_recur is for node's own body, not {fn.name}")
        status, got = context.call_conv.call_function(builder, fn, sig.return_type, sig.args, args)
        with builder.if_then(status.is_error, likely=False):  # (cgutils.if_unlikely)
            context.call_conv.return_status_propagate(builder, status)
        return got

    return _SIG, codegen


_recur: Any = intrinsic(_recur_typer)


# One self-recursive function (each recursive call by :func:`_recur`): ``op``
# picks the solver's method: OP_V ``_v`` (memo, budget) with ``_value``, OP_DRAW ``_draw``,
# OP_RECEIVE ``_receive`` (the card ``kind``; ``aside``: set_aside), OP_ACTION ``_action``.
#
# It allocates nothing and is compiled without numba's runtime (``NOREF``: no reference counts
# on its seven array arguments around every call, which cost more than the programme itself):
# a draw writes the pools it passes on into row ``ctx[C_DEPTH]`` of ``stack`` (one row per
# draw in progress; :meth:`Memo.run` sizes it) instead of a copy of ``pool``.
@njit(_SIG, **NOREF)
def node(
    op: int, r: int, pend: int, pool: Any, kind: int, aside: bool, mk: Any, mv: Any, mu: Any,
    meta: Any, ctx: Any, u7: Any, stack: Any,
) -> float:  # fmt: skip
    veng = ctx[C_VENG] == 1
    single = ctx[C_SINGLE] == 1
    if op == OP_V:
        r0 = r
        key = ctx[C_KEY : C_KEY + 7]
        key[0] = r
        key[1] = pend
        for i in range(5):
            key[2 + i] = _word(pool, 8 * i)
        slot = _slot(mk, mu, meta, key)
        if mu[slot]:
            return mv[slot]
        if ctx[C_BUDGET] >= 0 and meta[T_COUNT] >= ctx[C_BUDGET]:
            ctx[C_OVER] = 1
            return 0.0
        got = 0.0
        forced = _forced(r)
        n_pend = pend & 15
        if forced > 0:
            nxt = _set_forced(r, forced - 1)
            if pool.sum() == 0:
                got = _recur(OP_V, _set_forced(nxt, 0), pend, pool, 0, False, mk, mv, mu, meta,
                             ctx, u7, stack)  # fmt: skip
            else:
                got = _recur(
                    OP_DRAW, nxt, pend, pool, 0, _bit(r, S_FLIP), mk, mv, mu, meta, ctx, u7, stack
                )
        elif n_pend:
            first = ((pend >> 4) & 15) + 28
            rest = ((pend >> 8) << 4) | (n_pend - 1)
            got = _recur(OP_ACTION, _with(r, S_FLIP, False), rest, pool, first, False, mk, mv, mu,
                         meta, ctx, u7, stack)  # fmt: skip
        else:
            if _bit(r, S_FLIP):
                r = _with(r, S_FLIP, False)
            stay = _payoff(r, veng, False)
            if _bit(r, S_STAY) or pool.sum() == 0:
                got = stay
            else:
                hit = _recur(OP_DRAW, r, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
                if veng and r & 1:  # the Zero forbids staying (F7V-6.1)
                    stay = hit
                got = hit if hit > stay else stay
        if ctx[C_OVER] or ctx[C_PEND] or meta[T_FULL]:
            return 0.0
        if 4 * (meta[T_COUNT] + 1) > 3 * (meta[T_MASK] + 1):
            meta[T_FULL] = 1  # the caller grows the table and asks again
            return 0.0
        key = ctx[C_KEY : C_KEY + 7]  # rebuilt: the calls above wrote their own keys there
        key[0] = r0
        key[1] = pend
        for i in range(5):
            key[2 + i] = _word(pool, 8 * i)
        slot = _slot(mk, mu, meta, key)
        for i in range(7):
            mk[slot, i] = key[i]
        mv[slot] = got
        mu[slot] = 1
        meta[T_COUNT] += 1
        return got

    if op == OP_DRAW:
        total = pool.sum()
        acc = 0.0
        depth = ctx[C_DEPTH]
        if depth >= stack.shape[0]:
            ctx[C_PEND] = 1  # deeper than the stack (not met: one row per card): Python answers
            return 0.0
        lst = stack[depth]
        for k in range(NK):
            lst[k] = pool[k]
        ctx[C_DEPTH] = depth + 1
        bad = ctx[C_BAD]
        lo = 0 if bad == 13 else 1
        for k in range(NK):
            n = pool[k]
            if not n:
                continue
            if bad >= 0 and (k == bad or (lo <= k < 13)):
                if k == bad:  # a duplicate of a row value
                    if not _bit(r, S_SECOND):
                        continue  # bust: adds 0
                    lst[bad] = n - 1
                    v = _recur(OP_V, _with(r, S_SECOND, False), pend, lst, 0, False, mk, mv, mu,
                               meta, ctx, u7, stack)  # fmt: skip
                    lst[bad] = n
                else:
                    new = r | (1 << k)
                    if _numbers(new) >= FLIP7_CARDS:
                        v = _payoff(new, veng, True)
                    else:
                        lst[k] = 0
                        lst[bad] += n - 1
                        v = _recur(OP_V, new, pend, lst, 0, False, mk, mv, mu, meta, ctx, u7, stack)
                        lst[bad] -= n - 1
                        lst[k] = n
                if ctx[C_OVER] or ctx[C_PEND] or meta[T_FULL]:
                    ctx[C_DEPTH] = depth
                    return 0.0
                acc += v * n
                continue
            lst[k] = n - 1
            v = _recur(OP_RECEIVE, r, pend, lst, k, aside, mk, mv, mu, meta, ctx, u7, stack)
            lst[k] = n
            if ctx[C_OVER] or ctx[C_PEND] or meta[T_FULL]:
                ctx[C_DEPTH] = depth
                return 0.0
            acc += v * n
        ctx[C_DEPTH] = depth
        return acc / total

    if op == OP_RECEIVE:
        if _IS_NUM[kind]:
            if kind == _U7 and ctx[C_HASU7]:  # table mode: see septet.bots.flip7_ev
                return _recur(OP_V, 1 << _V7 | ADD_BIAS << S_ADD, 0, u7, 0, False, mk, mv, mu,
                            meta, ctx, u7, stack)  # fmt: skip
            if kind == _U7:  # F7V-6.2: keep only this 7, never a bust
                keep = (63 << S_FORCED) | (1 << S_FLIP) | (1 << S_STAY)
                new = (1 << _V7) | (r & keep) | (ADD_BIAS << S_ADD)
            elif kind == _ZERO:
                new = r | 1
            elif veng and _VALUE[kind] == 13:  # F7V-6.3
                lucky = _bit(r, S_LUCKY) or kind == _L13
                t13 = _t13(r)
                if t13 == 0:
                    new = _with(((r | (1 << 13)) & ~(3 << S_T13)) | (1 << S_T13), S_LUCKY,
                                lucky)  # fmt: skip
                elif t13 == 1 and lucky:
                    new = _with((r & ~(3 << S_T13)) | (2 << S_T13), S_LUCKY, True)
                else:
                    return 0.0
            else:
                bit = 1 << _VALUE[kind]
                if r & bit:
                    if _bit(r, S_SECOND) and not veng:  # both cards are discarded
                        return _recur(OP_V, _with(r, S_SECOND, False), pend, pool, 0, False,
                                     mk, mv, mu, meta, ctx, u7, stack)  # fmt: skip
                    return 0.0  # bust
                new = r | bit
            if _numbers(new) >= FLIP7_CARDS:
                return _payoff(new, veng, True)  # the round ends at once
            return _recur(OP_V, new, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
        if _IS_MOD[kind]:
            if not (veng and not single):  # else given to another player
                if kind == _X2:
                    r = _with(r, S_X2, True)
                elif kind == _DIV2:
                    r = _with(r, S_HALF, True)
                else:
                    r = _set_add(r, _add(r) + _MOD_ADD[kind])
            return _recur(OP_V, r, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
        if aside:
            n_pend = pend & 15
            if n_pend >= MAX_PENDING:
                ctx[C_PEND] = 1
                return 0.0
            pend = (((pend >> 4) | ((kind - 28) << (4 * n_pend))) << 4) | (n_pend + 1)
            return _recur(OP_V, r, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
        return _recur(OP_ACTION, r, pend, pool, kind, False, mk, mv, mu, meta, ctx, u7, stack)

    # OP_ACTION: an action card you received (not during flips)
    if kind == _SECOND:
        return _recur(
            OP_V, _with(r, S_SECOND, True), pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack
        )
    if kind == _FREEZE:
        banked = _payoff(r, veng, False)
        if single:
            return banked
        on = _recur(OP_V, r, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
        return on if on > banked else banked
    if (kind == _FLIP3 or kind == _FLIP4) and single:
        n = FLIP3_CARDS if kind == _FLIP3 else FLIP4_CARDS  # F7V-9, F7V-4.8
        new = _with(_set_forced(r, _forced(r) + n), S_FLIP, True)
        return _recur(OP_V, new, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
    if kind == _JOM and single:
        new = _with(_with(_set_forced(r, _forced(r) + 1), S_FLIP, False), S_STAY, True)
        return _recur(OP_V, new, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
    if kind == _DISCARD and single and r & M_MASK:
        best = 0.0
        found = False
        for v in range(14):
            if not (r >> v) & 1:
                continue
            if v == 13 and _t13(r) == 2:
                new = (r & ~(3 << S_T13)) | (1 << S_T13)  # keep the Lucky 13
            elif v == 13:
                new = _with(r & ~(1 << 13) & ~(3 << S_T13), S_LUCKY, False)
            else:
                new = r & ~(1 << v)
            val = _recur(OP_V, new, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)
            if ctx[C_OVER] or ctx[C_PEND] or meta[T_FULL]:
                return 0.0
            if not found or val > best:
                best = val
                found = True
        return best
    # no effect on your row:
    return _recur(OP_V, r, pend, pool, 0, False, mk, mv, mu, meta, ctx, u7, stack)


def encode(row: Row) -> int:
    """``row`` as the kernel's ``r`` (see :mod:`septet.bots.flip7_ev_fast`).

    Raises:
        Unencodable: set-aside cards, or counts beyond the encoding.
    """
    if row.pending or not 0 <= row.forced < 64 or not -ADD_BIAS <= row.add < ADD_BIAS:
        raise Unencodable
    r = row.mask | row.t13 << S_T13 | row.forced << S_FORCED | (row.add + ADD_BIAS) << S_ADD
    for flag, shift in ((row.lucky, S_LUCKY), (row.x2, S_X2), (row.half, S_HALF),
                        (row.second, S_SECOND), (row.flip, S_FLIP),
                        (row.stay_after, S_STAY)):  # fmt: skip
        if flag:
            r |= 1 << shift
    return r


class Memo:
    """The memo of :func:`node`: a hash table in flat arrays (see ``T_*``), grown by
    :meth:`grow` when a run reports it three quarters full.

    Attributes:
        keys: ``int64[cap, 7]``; values: ``float64[cap]``; used: ``uint8[cap]``;
        meta: ``int64[3]`` (entries, ``cap - 1``, the full flag); stack: ``int64[depth, 37]``,
        the pools of the draws in progress.
    """

    def __init__(self, capacity: int = 1 << 13) -> None:
        self.keys = np.zeros((capacity, 7), dtype=np.int64)
        self.values = np.zeros(capacity, dtype=np.float64)
        self.used = np.zeros(capacity, dtype=np.uint8)
        self.meta = np.array([0, capacity - 1, 0], dtype=np.int64)
        self.stack = np.zeros((0, NK), dtype=np.int64)

    def __len__(self) -> int:
        return int(self.meta[T_COUNT])

    def grow(self) -> None:
        """Twice the capacity, every entry kept; clears the full flag."""
        cap = 2 * self.used.shape[0]
        keys = np.zeros((cap, 7), dtype=np.int64)
        values = np.zeros(cap, dtype=np.float64)
        used = np.zeros(cap, dtype=np.uint8)
        rehash(self.keys, self.values, self.used, keys, values, used, self.meta)
        self.keys, self.values, self.used = keys, values, used

    def run(self, op: int, r: int, pool: Any, ctx: Any, u7: Any) -> float:
        """``node(op, r, 0, pool, …)`` with this memo, growing it (and asking again) as needed.

        The draws' pool stack has a row per card of ``pool`` and ``u7`` (each draw in progress
        holds one card fewer than the one it is in) and two spare."""
        depth = int(pool.sum()) + int(u7.sum()) + 2
        if self.stack.shape[0] < depth:
            self.stack = np.zeros((depth, NK), dtype=np.int64)
        while True:
            ctx[C_DEPTH] = 0
            got = node(op, r, 0, pool, 0, False, self.keys, self.values, self.used, self.meta,
                       ctx, u7, self.stack)  # fmt: skip
            if not self.meta[T_FULL]:
                return float(got)
            self.grow()


def new_memo() -> Memo:
    """An empty memo for :func:`node`."""
    return Memo()


# The numbers-only classic round (issue 29): the pool holds number cards only (kinds 0-12, and
# the duplicates' total in slot 13, the canonical form of ``EVSolver._canonical``) and the row
# no flag, so the pool of a position is fixed by the values held and the memo is a dense array
# indexed by the held-value mask, filled without recursion: the submasks of the values left
# are visited in decreasing order, and a draw only adds a bit, so every position a draw leads
# to is already solved. The same sums in the same order as :func:`node` (kind by kind, a
# duplicate adding nothing, ``acc / total``, ``hit if hit > stay else stay``): the same floats.
DENSE_KINDS = 14
"""Kinds the dense programme reads (numbers 0-12 and the duplicates' slot 13)."""


@njit(cache=True)
def numbers_round(mask0: int, pool: Any, hit_only: bool, memo: Any) -> tuple[float, int]:
    """(value, positions solved) of the classic row holding the values ``mask0`` (no other
    flag) before the canonical numbers-only ``pool`` (``int64[37]``: kinds 0-12 not held, the
    duplicates' total in slot 13, nothing else): the optimal stay-or-hit value, or with
    ``hit_only`` the value of hitting now. ``memo`` is ``float64[8192]`` scratch (one slot per
    mask of values 0-12). Callers check the preconditions (``FastEVSolver._dense_ok``)."""
    avail = 0
    total0 = 0
    for k in range(DENSE_KINDS):
        total0 += pool[k]
        if k < 13 and pool[k] > 0:
            avail |= 1 << k
    solved = 0
    sub = avail
    while True:
        m = mask0 | sub
        if _POPCOUNT[m] < FLIP7_CARDS:
            total = total0 - _POPCOUNT[sub]
            stay = 1.0 * _MASK_SUM[m]
            got = stay
            if total > 0:
                acc = 0.0
                left = avail & ~sub
                for k in range(13):
                    if not (left >> k) & 1:
                        continue
                    new = m | (1 << k)
                    if _POPCOUNT[new] >= FLIP7_CARDS:
                        v = 1.0 * (_MASK_SUM[new] + FLIP7_BONUS)  # F7V-7.2
                    else:
                        v = memo[new]
                    acc += v * pool[k]
                hit = acc / total
                if sub == 0 and hit_only:
                    return hit, solved
                got = hit if hit > stay else stay
            elif sub == 0 and hit_only:
                return stay, solved
            memo[m] = got
            solved += 1
        if sub == 0:
            break
        sub = (sub - 1) & avail
    return memo[mask0], solved
