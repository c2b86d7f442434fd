"""A perfect-information solver for the tricks left in a Seven Shot deal (alpha-beta, compiled).

Given every hand (a determinization, :func:`septet.games.seven_shot.determinize.determinize`),
the trick in progress and what each side has taken, it returns the value of each legal card of
the seat to move: the deal's points as the deal ends under best play (SS-4.1 … SS-4.4, SS-5.3 …
SS-5.5), for the searching seat's side. It is the inner loop of perfect-information Monte Carlo
(PIMC: Ginsberg, "GIB: Imperfect information in a computationally challenging game", JAIR 14,
2001; Long, Sturtevant, Buro & Furtak, "Understanding the success of perfect information Monte
Carlo sampling in game tree search", AAAI 2010), as in the skat and bridge programs.

- Value: ``gain[me] - gain[them]`` with two teams (4 players; zero-sum, plain alpha-beta), and
  ``gain[me] - (gain[a] + gain[b]) / 2`` with three players, searched *paranoid* (both others
  minimise it: Sturtevant & Korf, "On pruning techniques for multi-player games", AAAI 2000), as
  skat solvers treat the two defenders as one side.
- Search: fail-soft alpha-beta over single card plays; a transposition table (Zobrist keys of
  hands, leader, 7s and tricks per side) at trick boundaries, with bound flags and the tricks
  still searched; move ordering: cards that win the trick now (cheapest first), then the rest low
  to high; equivalent cards (neighbours in a suit among the cards still live, held by one hand,
  neither a 7 nor the A) are searched once.
- ``depth``: tricks searched before a position is scored by a heuristic (7s taken, tricks
  taken); a depth at least the tricks left is exact. ``node_limit`` aborts a search that grows
  too big (the caller then uses a shallower one).

The deal-end scoring is a twin of :func:`septet.games.seven_shot.scoring.deal_points` on ints;
``tests/bots/test_expert.py`` checks the solver against a brute-force minimax over the engine's
own states, so the twin cannot drift from the rules unnoticed.

Compiled with numba (``cache=True``; the recursive search eagerly for its signature,
:func:`_jit_sig`, so that it caches too) when the ``fast`` extra is installed; otherwise the
same functions run as plain Python (exact, about a hundred times slower; :data:`COMPILED` says
which).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from septet.games.seven_shot.cards import SEVEN_MASK, SEVENS
from septet.games.seven_shot.state import PH_PLAY

F = TypeVar("F", bound=Callable[..., Any])

try:
    from numba import njit as _njit

    COMPILED = True
except ImportError:  # pragma: no cover - exercised where numba is missing
    COMPILED = False

if COMPILED:
    from septet.fast._cache import drop_stale

    drop_stale()  # before the eager compile below reads the cache: a changed table rebuilds


def _jit(fn: F) -> F:
    """numba's ``njit(cache=True)`` when numba is installed, else ``fn`` itself."""
    if COMPILED:
        return _njit(cache=True)(fn)  # type: ignore[return-value]
    return fn


def _jit_sig(sig: str) -> Callable[[F], F]:
    """numba's ``njit(sig, cache=True)`` when numba is installed, else the identity. The
    recursive search needs its signature spelled out: compiled lazily (type inference through
    its own recursion) and loaded from numba's disk cache, it crashed the next process
    (segmentation fault); compiled eagerly for one signature it caches and loads like the rest."""

    def wrap(fn: F) -> F:
        if COMPILED:
            return _njit(sig, cache=True)(fn)  # type: ignore[return-value]
        return fn

    return wrap


SEVENS_M = SEVEN_MASK
NOT_SEARCHED = 1e9
"""Value of a move the search did not reach (an aborted search)."""
EXACT, LOWER, UPPER = 0, 1, 2
TT_BITS = 20
INF = 1e9

# ctx slots (int64): players, sides, trump suit, indicator is a 7, threshold, root side,
# node limit, nodes searched, aborted.
# root card (or -1: all), cards of the trick already played at the root; whether the deal's
# value is read from the utility table that follows (1) or is the points' margin (0).
(C_N, C_NS, C_TRUMP, C_IND7, C_THR, C_ROOT, C_LIMIT, C_NODES, C_ABORT, C_ROOTCARD, C_TLEN0,
 C_TABLE) = range(12)  # fmt: skip
MAX_GAIN = 10
"""Gains per side are below this (a deal is worth at most 7 + 1 points, SS-4.4)."""
C_UTIL = 12
"""First slot of the utility table: ``ctx[C_UTIL + g0·100 + g1·10 + g2]`` is the root side's
value of the gains ``(g0, g1, g2)``, in units of :data:`UTIL_UNIT` (the context is int64)."""
UTIL_UNIT = 1e-12
CTX_SIZE = C_UTIL + MAX_GAIN**3


@_jit
def _popcount(x: int) -> int:
    """Bits set in ``x >= 0``."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@_jit
def _power(card: int, led: int, trump: int) -> int:
    """SS-3.2 twin of :func:`septet.games.seven_shot.rules.card_power`."""
    if card == 0:
        return 1000
    s = card // 7
    rank = s + 1 + card % 7
    if s == trump:
        return 100 + rank
    if s == led:
        return rank
    return -1


@_jit
def _gains(ending: int, side: int, sev: Any, hands: Any, sides: Any, ctx: Any, g: Any) -> None:
    """Deal points per side into ``g`` (twin of ``scoring.deal_points``): ``ending`` 0 sevens
    (SS-4.1/5.3), 1 seven tricks (SS-4.2/5.5), 2 hands empty (SS-4.3)."""
    ns = ctx[C_NS]
    for s in range(ns):
        g[s] = 0
    if ending == 1 and ns == 3:
        for s in range(3):
            if s != side:
                g[s] = 2  # SS-5.5
        return
    w = side
    extra = 0
    if ending == 1:
        w = 1 - side  # SS-4.2: the other team wins, with the losers' 7s in hand
        held = 0
        for p in range(ctx[C_N]):
            if sides[p] == side:
                held |= hands[p]
        extra = _popcount(held & SEVENS_M) + ctx[C_IND7]
    elif ending == 2:
        extra = ctx[C_IND7]  # SS-4.3: the last trick's winner takes the indicator
    mine = sev[w] + extra
    runner = -1
    for s in range(ns):
        if s != w and sev[s] > runner:
            runner = sev[s]
    g[w] = max(1, mine - runner + 1)  # SS-4.4 / SS-5.4
    if ns == 3:
        for s in range(3):
            if s != w and sev[s] == runner:
                g[s] = g[w] // 2  # SS-5.4: half to the second


@_jit
def _utility(g: Any, ctx: Any) -> float:
    """The root side's value of the gains ``g`` (see the module docstring): from the utility
    table when one is set (:meth:`Solver.values`' ``utility``)."""
    if ctx[C_TABLE]:
        g2 = g[2] if ctx[C_NS] == 3 else 0
        return float(ctx[C_UTIL + g[0] * 100 + g[1] * 10 + g2] * UTIL_UNIT)
    r = ctx[C_ROOT]
    if ctx[C_NS] == 2:
        return float(g[r] - g[1 - r])
    return float(g[r]) - float(g[0] + g[1] + g[2] - g[r]) / 2.0


@_jit
def _heuristic(sev: Any, trk: Any, ctx: Any) -> float:
    """A cut-off position's value: 7s taken (ahead of the others) minus a little for tricks;
    with a utility table, that margin ``h`` as ``h / (|h| + 2)``, within the table's range."""
    r = ctx[C_ROOT]
    ns = ctx[C_NS]
    others_sev = 0.0
    others_trk = 0.0
    for s in range(ns):
        if s != r:
            others_sev += sev[s]
            others_trk += trk[s]
    others_sev /= ns - 1
    others_trk /= ns - 1
    h = float((sev[r] - others_sev) - 0.1 * (trk[r] - others_trk))
    if ctx[C_TABLE]:  # the utility table's values lie in [-1, 1]: squash the 7s' margin there
        return h / (abs(h) + 2.0)
    return h


@_jit
def _hash(hands: Any, leader: int, sev: Any, trk: Any, zob: Any, ctx: Any) -> int:
    """Zobrist key of a trick boundary (hands, leader, 7s and tricks per side)."""
    h = zob[49 * 4 + leader]
    for p in range(ctx[C_N]):
        m = hands[p]
        while m:
            low = m & -m
            c = _popcount(low - 1)
            h ^= zob[c * 4 + p]
            m ^= low
    for s in range(ctx[C_NS]):
        h ^= zob[200 + s * 8 + sev[s]]
        h ^= zob[230 + s * 17 + min(trk[s], 16)]
    return int(h)


@_jit
def _order(hand: int, led: int, best_power: int, live: int, ctx: Any, out: Any, row: int) -> int:
    """The legal cards of ``hand`` (SS-3.1) into ``out``, in search order; returns how many.
    Winners now first (cheapest first), then the others low to high; of equivalent cards only
    the lowest."""
    m = hand
    if led >= 0 and hand & (0x7F << (7 * led)):
        m = hand & (0x7F << (7 * led))
    trump = ctx[C_TRUMP]
    k = 0
    while m:
        low = m & -m
        c = _popcount(low - 1)
        m ^= low
        if c != 0 and not (SEVENS_M >> c) & 1:
            lower = c - 1
            base = 7 * (c // 7)
            while lower >= base and not (live >> lower) & 1:
                lower -= 1
            if lower >= base and (hand >> lower) & 1 and lower != 0 and not (SEVENS_M >> lower) & 1:
                continue  # equivalent to the next lower live card of the same hand
        p = _power(c, led if led >= 0 else c // 7, trump)
        key = p if p > best_power else 2000 + c
        out[row, k] = c
        out[row, 24 + k] = key  # the row's tail holds the sort keys (a hand has <= 16 cards)
        k += 1
    for i in range(1, k):  # insertion sort by key
        j = i
        while j > 0 and out[row, 23 + j] > out[row, 24 + j]:
            out[row, 23 + j], out[row, 24 + j] = out[row, 24 + j], out[row, 23 + j]
            out[row, j - 1], out[row, j] = out[row, j], out[row, j - 1]
            j -= 1
    return k


@_jit
def _trick_end(
    trick: Any, base: int, leader: int, sev: Any, trk: Any, hands: Any, sides: Any, ctx: Any
) -> Any:
    """Close the full trick ``trick[base:base+n]`` (SS-3.2, SS-3.3) and check the deal's end
    (SS-4.1 … SS-4.3, in order). Updates ``sev``/``trk`` (the caller undoes); returns
    ``(winner, sevens in the trick, ending)``, ending -1 while the deal goes on."""
    n = ctx[C_N]
    led = trick[base] // 7
    best = 0
    top = _power(trick[base], led, ctx[C_TRUMP])
    mask = 1 << trick[base]
    for i in range(1, n):
        p = _power(trick[base + i], led, ctx[C_TRUMP])
        mask |= 1 << trick[base + i]
        if p > top:
            best, top = i, p
    w = (leader + best) % n
    side = sides[w]
    s7 = _popcount(mask & SEVENS_M)
    sev[side] += s7
    trk[side] += 1
    if sev[side] >= ctx[C_THR]:
        return w, s7, 0
    if trk[side] >= 7:
        return w, s7, 1
    left = 0
    for p in range(n):
        left |= hands[p]
    return w, s7, (2 if left == 0 else -1)


@_jit
def _probe(
    key: int, depth: int, alpha: float, beta: float, tt_key: Any, tt_val: Any, tt_meta: Any
) -> float:
    """The stored value of trick boundary ``key`` if it settles this window, else ``NaN``."""
    slot = key & ((1 << TT_BITS) - 1)
    if tt_key[slot] != key or tt_meta[slot] // 4 < depth:
        return np.nan
    v = tt_val[slot]
    flag = tt_meta[slot] % 4
    if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
        return float(v)
    return np.nan


@_jit
def _store(
    key: int, depth: int, v: float, a0: float, b0: float, tt_key: Any, tt_val: Any, tt_meta: Any
) -> None:
    """Remember ``v`` searched in the window ``(a0, b0)`` at trick boundary ``key``."""
    slot = key & ((1 << TT_BITS) - 1)
    flag = UPPER if v <= a0 else (LOWER if v >= b0 else EXACT)
    tt_key[slot] = key
    tt_val[slot] = v
    tt_meta[slot] = depth * 4 + flag


@_jit
def _moves(
    hands: Any, trick: Any, base: int, tlen: int, seat: int, ctx: Any, out: Any, row: int
) -> int:
    """The ordered legal cards of ``seat`` into ``out`` (:func:`_order`); how many. At the
    root with ``ctx[C_ROOTCARD] >= 0``, that card only."""
    if base == 0 and tlen == ctx[C_TLEN0] and ctx[C_ROOTCARD] >= 0:
        out[row, 0] = ctx[C_ROOTCARD]
        return 1
    led = -1
    best_power = -1
    live = 0
    for p in range(ctx[C_N]):
        live |= hands[p]
    if tlen > 0:
        led = trick[base] // 7
        for i in range(tlen):
            live |= 1 << trick[base + i]
            best_power = max(best_power, _power(trick[base + i], led, ctx[C_TRUMP]))
    return _order(hands[seat], led, best_power, live, ctx, out, row)


@_jit
def _closed(
    trick: Any, base: int, leader: int, sev: Any, trk: Any, hands: Any, sides: Any, ctx: Any,
    depth: int, g: Any,
) -> Any:  # fmt: skip
    """Close the full trick (:func:`_trick_end`): ``(winner, its 7s, value)``, the value the
    deal's (SS-4.4/5.4/5.5) when it ended, the heuristic's when ``depth`` ran out, else NaN (the
    search goes on). The caller undoes the winner side's 7s and trick."""
    w, s7, ending = _trick_end(trick, base, leader, sev, trk, hands, sides, ctx)
    if ending >= 0:
        _gains(ending, sides[w], sev, hands, sides, ctx, g)
        return w, s7, _utility(g, ctx)
    if depth <= 1:
        return w, s7, _heuristic(sev, trk, ctx)
    return w, s7, np.nan


_SEARCH_SIG = (
    "float64(int64[::1], int64[::1], int64, int64, int64, int64[::1], int64[::1], int64[::1], "
    "int64[::1], int64, float64, float64, int64[::1], float64[::1], int64[::1], int64[::1], "
    "int64[:, ::1], int64[::1])"
)
"""The search's numba signature (C-contiguous int64/float64 arrays; see :func:`_jit_sig`)."""


# fmt: off
@_jit_sig(_SEARCH_SIG)
def _search(
    hands: Any, trick: Any, base: int, tlen: int, leader: int, sev: Any, trk: Any, sides: Any,
    ctx: Any, depth: int, alpha: float, beta: float, tt_key: Any, tt_val: Any, tt_meta: Any,
    zob: Any, moves: Any, g: Any,
) -> float:
    # fmt: on
    """Fail-soft alpha-beta (paranoid with 3 sides) from the position with ``tlen`` cards of
    the trick at ``trick[base:]`` played; ``depth`` tricks (this one included) before the
    heuristic. The root side maximises."""
    ctx[C_NODES] += 1
    if ctx[C_NODES] > ctx[C_LIMIT]:
        ctx[C_ABORT] = 1
        return 0.0
    key = 0
    if tlen == 0 and base > 0:  # a trick boundary below the root (the root's moves differ)
        key = _hash(hands, leader, sev, trk, zob, ctx)
        hit = _probe(key, depth, alpha, beta, tt_key, tt_val, tt_meta)
        if not np.isnan(hit):
            return hit
    n = ctx[C_N]
    seat = (leader + tlen) % n
    ply = base + tlen
    cnt = _moves(hands, trick, base, tlen, seat, ctx, moves, ply)
    maximize = sides[seat] == ctx[C_ROOT]
    best = -INF if maximize else INF
    a, b = alpha, beta
    for i in range(cnt):
        c = moves[ply, i]
        hands[seat] ^= 1 << c
        trick[ply] = c
        w, s7, v = -1, 0, np.nan
        nb, nt, nl, nd = base, tlen + 1, leader, depth
        if tlen + 1 == n:
            w, s7, v = _closed(trick, base, leader, sev, trk, hands, sides, ctx, depth, g)
            nb, nt, nl, nd = base + n, 0, w, depth - 1
        if np.isnan(v):
            v = _search(hands, trick, nb, nt, nl, sev, trk, sides, ctx, nd, a, b,
                        tt_key, tt_val, tt_meta, zob, moves, g)  # fmt: skip
        if w >= 0:
            sev[sides[w]] -= s7
            trk[sides[w]] -= 1
        hands[seat] ^= 1 << c
        if ctx[C_ABORT]:
            return 0.0
        if maximize:
            best = max(best, v)
            a = max(a, best)
        else:
            best = min(best, v)
            b = min(b, best)
        if a >= b:
            break
    if tlen == 0 and base > 0:
        _store(key, depth, best, alpha, beta, tt_key, tt_val, tt_meta)
    return best


@_jit
def _root_values(
    hands: Any,
    trick: Any,
    tlen: int,
    leader: int,
    sev: Any,
    trk: Any,
    sides: Any,
    ctx: Any,
    depth: int,
    cards: Any,
    out: Any,
    tt_key: Any,
    tt_val: Any,
    tt_meta: Any,
    zob: Any,
) -> bool:
    """The value of each of ``cards`` (the root seat's legal cards) into ``out``; False when
    the node limit aborted the search (``out`` is then incomplete)."""
    moves = np.zeros((64, 49), dtype=np.int64)
    g = np.zeros(3, dtype=np.int64)
    ctx[C_TLEN0] = tlen
    ctx[C_NODES] = 0
    ctx[C_ABORT] = 0
    for i in range(len(cards)):
        ctx[C_ROOTCARD] = cards[i]
        out[i] = _search(
            hands,
            trick,
            0,
            tlen,
            leader,
            sev,
            trk,
            sides,
            ctx,
            depth,
            -INF,
            INF,
            tt_key,
            tt_val,
            tt_meta,
            zob,
            moves,
            g,
        )
        if ctx[C_ABORT]:
            return False
    return True


@dataclass
class Position:
    """A Seven Shot deal with every hand known, during the play (SS-3).

    Attributes:
        hands: card masks per seat, shape ``(n,)`` int64 (the cards still held).
        trick: the cards of the trick in progress, in play order (0 to n-1 cards).
        leader: the seat that led the trick in progress.
        sevens: 7s taken in tricks per side, shape ``(sides,)``.
        tricks: tricks taken per side, shape ``(sides,)``.
        sides: the side of each seat, shape ``(n,)`` (4 players: ``s % 2``; 3: the seat).
        trump: the trump suit 0..6 (the indicator's, SS-2.2).
        indicator_seven: whether the trump indicator is a 7 (SS-4.2, SS-4.3).
    """

    hands: np.ndarray
    trick: list[int]
    leader: int
    sevens: np.ndarray
    tricks: np.ndarray
    sides: np.ndarray
    trump: int
    indicator_seven: bool

    @property
    def to_move(self) -> int:
        """The seat whose card is next."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the one in progress included (if nothing ends the deal)."""
        return int(self.hands[self.to_move]).bit_count()


def position_from_state(state: Any) -> Position:
    """The :class:`Position` of a :class:`~septet.games.seven_shot.state.SevenShotState` in
    its play phase (a real state or a determinization).

    Raises:
        ValueError: the state is not in the play phase.
    """
    if state.phase != PH_PLAY:
        raise ValueError("the solver takes a Seven Shot position in its play phase")
    n = state.num_players
    ns = state.num_sides
    sides = np.array([state.side_of(p) for p in range(n)], dtype=np.int64)
    sevens = np.zeros(ns, dtype=np.int64)
    for p in range(n):
        sevens[sides[p]] += (state.taken[p] & SEVEN_MASK).bit_count()
    return Position(
        hands=np.array(state.hands, dtype=np.int64),
        trick=list(state.trick),
        leader=int(state.leader),
        sevens=sevens,
        tricks=np.array(state.side_tricks(), dtype=np.int64),
        sides=sides,
        trump=state.indicator // 7,
        indicator_seven=state.indicator in SEVENS,
    )


def match_utility(
    points: Sequence[int], target: int, root_side: int, scale: float = 1.5
) -> np.ndarray:
    """The root side's value of each deal outcome for the match (:meth:`Solver.values`'
    ``utility``), shape ``(MAX_GAIN,) * 3``, indexed by the deal's gains per side: the
    objective of Strong's search (``ismcts``, ``horizon=round``) at a deal's end. When the
    gains end the game (SS-2.1, SS-5.6: :func:`~septet.games.seven_shot.scoring.race_winners`)
    each side's utility is 1 for a winner and 0 otherwise (``State.returns``); when they do
    not, ``1 / (1 + exp(-(points - mean points) / scale))`` of the points after the deal
    (:func:`septet.bots.ismcts.cut_utilities`). The value is the root side's utility less the
    other side's (two sides) or less the mean of the others' (three, paranoid, as the margin).

    Args:
        points: the sides' points before the deal (2 or 3 sides).
        target: points that end the game (7).
        root_side: the searching side.
        scale: points per unit of logit (Strong's, :data:`septet.bots.ismcts.SCORE_SCALES`).
    """
    from septet.games.seven_shot.scoring import race_winners

    ns = len(points)
    table = np.zeros((MAX_GAIN,) * 3)
    for g0 in range(MAX_GAIN):
        for g1 in range(MAX_GAIN):
            for g2 in range(MAX_GAIN if ns == 3 else 1):
                after = [points[0] + g0, points[1] + g1] + ([points[2] + g2] if ns == 3 else [])
                won = race_winners(after, target)
                if won:
                    u = [1.0 if s in won else 0.0 for s in range(ns)]
                else:
                    mean = sum(after) / ns
                    u = [1.0 / (1.0 + np.exp(-(x - mean) / scale)) for x in after]
                others = (sum(u) - u[root_side]) / (ns - 1)
                table[g0, g1, g2] = u[root_side] - others
    return table


class Solver:
    """Solves :class:`Position` s for one searching side; keeps its transposition table
    (``2**TT_BITS`` entries, about 24 MB) between calls, so clear it (:meth:`reset`) when the
    side or the deal changes.

    Args:
        seed: the Zobrist keys' random seed.
    """

    def __init__(self, seed: int = 7) -> None:
        rng = np.random.default_rng(seed)
        self.zob = rng.integers(1, 2**62, size=400, dtype=np.int64)
        size = 1 << TT_BITS
        self.tt_key = np.zeros(size, dtype=np.int64)
        self.tt_val = np.zeros(size, dtype=np.float64)
        self.tt_meta = np.zeros(size, dtype=np.int64)
        self.nodes = 0
        """Nodes searched by the last :meth:`values` call."""

    def reset(self) -> None:
        """Forget every stored position."""
        self.tt_key[:] = 0

    def values(
        self,
        pos: Position,
        cards: Sequence[int],
        root_side: int,
        depth: int | None = None,
        node_limit: int = 1 << 60,
        utility: np.ndarray | None = None,
    ) -> np.ndarray | None:
        """The value of playing each of ``cards`` (legal for ``pos.to_move``) for
        ``root_side``, shape ``(len(cards),)``; ``None`` if ``node_limit`` nodes did not
        suffice. ``depth``: tricks searched (default: all, exact). ``utility``: the root
        side's value of each deal outcome, shape ``(MAX_GAIN,) * 3`` indexed by the gains per
        side (the third 0 with two sides; :func:`match_utility`), instead of the points'
        margin; values in [-1, 1]. Clear the table (:meth:`reset`) when ``utility`` changes.

        Raises:
            ValueError: a ``utility`` of another shape or with values outside [-1, 1].
        """
        n = len(pos.hands)
        ns = len(pos.sevens)
        ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        ctx[C_N], ctx[C_NS], ctx[C_TRUMP] = n, ns, pos.trump
        ctx[C_IND7] = int(pos.indicator_seven)
        ctx[C_THR] = 4 if ns == 2 else 3  # SS-4.1, SS-5.3
        ctx[C_ROOT], ctx[C_LIMIT] = root_side, node_limit
        if utility is not None:
            if utility.shape != (MAX_GAIN,) * 3 or np.abs(utility).max() > 1.0:
                raise ValueError(f"utility must be of shape {(MAX_GAIN,) * 3} within [-1, 1]")
            ctx[C_TABLE] = 1
            ctx[C_UTIL:] = np.rint(utility.ravel() / UTIL_UNIT).astype(np.int64)
        trick = np.zeros(64, dtype=np.int64)
        trick[: len(pos.trick)] = pos.trick
        out = np.zeros(len(cards), dtype=np.float64)
        d = pos.tricks_left + 1 if depth is None else depth
        ok = _root_values(
            pos.hands.copy(), trick, len(pos.trick), pos.leader, pos.sevens.copy(),
            pos.tricks.copy(), pos.sides, ctx, d, np.array(cards, dtype=np.int64), out,
            self.tt_key, self.tt_val, self.tt_meta, self.zob,
        )  # fmt: skip
        self.nodes = int(ctx[C_NODES])
        return out if ok else None
