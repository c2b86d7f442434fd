"""Double Seven (2 to 4 players, every option) as compiled kernels over an integer array.

The exact twin of :mod:`septet.games.double_seven.state` (rules DS-1 … DS-8): the same chance
outcomes and the same actions give the same position and the same scores at every step (checked
by :func:`septet.arena.twins.check_twin`). Tile types are the engine's ``0..8`` (8 the clover);
a family is its index in ``actions.FAMILIES`` (``(animal*11 + animals-1)*4 + clovers``), so a
sorted list of indices is the engine's sorted tuple of families.

Encoding (``int64[size(n)]``, built from ``state_dict()`` by :func:`encode`): a header (players,
the three options, phase, turn, tiles dealt, draws left, a face-down draw pending, Rainbow and
two-for-one used this turn, 7 tokens left, the 77 token's holder, the seat that triggered the
end, families given away this turn), the blocked, pile, display and removed counts (9 each),
the families given away, and per seat: rack, known rack tiles, 7 tokens, number of families and
the sorted family indices. The public event ``log`` is not encoded: play never reads it.

Actions are the game's ids (``actions.action_to_id``); chance outcomes are ``deal t`` → ``t``,
``flip t`` → ``16 + t``, ``pile t`` → ``32 + t`` and ``first s`` → ``64 + s``.

Two playout paths play the same games from the same seed: :func:`playout`, the step path (the
legal ids at every decision, the reference), and :func:`playout_fast` (issue 29), which draws a
random seat's move from counts per kind of action and scores the greedy over the candidates that
can be its choice, with the same generator calls; :func:`play_rows_fast` and
:func:`play_rows_step` compile one each.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from septet.fast.rng import (
    NO_WRAPPERS,
    copy_into,
    internal,
    njit_once,
    noref,
    noref_inline,
    randbelow,
)
from septet.games.double_seven import actions as A
from septet.games.double_seven import state as E
from septet.games.double_seven import tiles as T
from septet.games.double_seven.rules import SEVEN

H_N, H_RAINBOW, H_T41OPT, H_TWOFAM, H_PHASE, H_TURN, H_DEALT, H_DRAWS = range(8)
H_AWAIT, H_RUSED, H_T41USED, H_SEVLEFT, H_H77, H_TRIGGER, H_NGIVEN = range(8, 15)
H_DRYCLEAR = 15  # option empty_rack_clears (DS-6.1, issue 25)
HEADER = 16
NT = T.NUM_TYPES
CLOVER = T.CLOVER
O_BLOCKED = HEADER
O_PILE = O_BLOCKED + NT
O_DISPLAY = O_PILE + NT
O_REMOVED = O_DISPLAY + NT
MAXGIVEN = 64
O_GIVEN = O_REMOVED + NT
O_SEATS = O_GIVEN + MAXGIVEN
MAXFAM = 48
S_RACK = 0
S_KNOWN = NT
S_SEVENS = 2 * NT
S_NFAM = 2 * NT + 1
S_FAMS = 2 * NT + 2
SEAT = S_FAMS + MAXFAM
# The engine's phase numbers and names, imported (one source; the kernel freezes them).
PH_DEAL, PH_FIRST, PH_FLIP, PH_DRAW = E.PH_DEAL, E.PH_FIRST, E.PH_FLIP, E.PH_DRAW
PH_RAINBOW, PH_ACT, PH_T41, PH_DISCARD, PH_OVER = (
    E.PH_RAINBOW, E.PH_ACT, E.PH_T41, E.PH_DISCARD, E.PH_OVER
)  # fmt: skip
PHASES = E.PHASE_NAMES
CHANCE, TERMINAL = -1, -4
CH_FLIP, CH_PILE, CH_FIRST = 16, 32, 64
NF = A.NUM_FAMILIES
ADD = 44
# The ids of the engine's declared encoding (``actions.encoding``): the kinds up to exchange do
# not depend on the number of players; exchange ids are (pair of equal-size families, seat).
_ENC = A.encoding(2)
OFF_TAKE = _ENC.offsets["take"]
OFF_DISCARD = _ENC.offsets["discard"]
OFF_T41 = _ENC.offsets["two-for-one"]
OFF_START = _ENC.offsets["start"]
OFF_EXPAND = _ENC.offsets["expand"]
OFF_EXCHANGE = _ENC.offsets["exchange"]
_PAIRS = [(f, g) for f in A.FAMILIES for g in A.FAMILIES if f[1] + f[2] == g[1] + g[2]]
NP = len(_PAIRS)
if _ENC.sizes["exchange"] != 2 * NP or _ENC.offsets["retrieve"] != OFF_EXCHANGE + 2 * NP:
    raise ImportError("septet.fast.double_seven: the engine's action encoding changed")
FULL_SET = np.array(T.FULL_SET, dtype=np.int64)

_FI = {f: i for i, f in enumerate(A.FAMILIES)}
PAIR_INDEX = np.full((NF, NF), -1, dtype=np.int64)
PAIR_F = np.zeros(NP, dtype=np.int64)
PAIR_G = np.zeros(NP, dtype=np.int64)
for _i, (_f, _g) in enumerate(_PAIRS):
    PAIR_INDEX[_FI[_f], _FI[_g]] = _i
    PAIR_F[_i] = _FI[_f]
    PAIR_G[_i] = _FI[_g]
# PAIR_INDEX[f, g] == PAIR_BASE[f] + SIZE_RANK[g] (f, g of one size): the pairs of f come
# together in _PAIRS, g in family order; two small tables instead of the 1 MB one (the playout
# path's exchanges read these: a random read of PAIR_INDEX misses the cache).
SIZE_RANK = np.zeros(NF, dtype=np.int64)
PAIR_BASE = np.zeros(NF, dtype=np.int64)
_seen: dict[int, int] = {}
for _i, _f in enumerate(A.FAMILIES):
    SIZE_RANK[_i] = _seen.get(_f[1] + _f[2], 0)
    _seen[_f[1] + _f[2]] = SIZE_RANK[_i] + 1
_acc = 0
for _i, _f in enumerate(A.FAMILIES):
    PAIR_BASE[_i] = _acc
    _acc += _seen[_f[1] + _f[2]]
T41_X = np.array([p[0] for p in A.PAIRS], dtype=np.int64)
T41_Y = np.array([p[1] for p in A.PAIRS], dtype=np.int64)
T41_ID = np.full((NT, NT), -1, dtype=np.int64)
for _i, (_x, _y) in enumerate(A.PAIRS):
    T41_ID[_x, _y] = _i
BUF = 8
LEGAL_BUF = 8192
FAM_SIZE = np.array([a + c for (_, a, c) in A.FAMILIES], dtype=np.int64)  # tiles per family
FAM_ANIMAL = np.array([f[0] for f in A.FAMILIES], dtype=np.int64)


def size(num_players: int) -> int:
    """Length of the encoding for ``num_players`` seats."""
    return O_SEATS + num_players * SEAT


def max_actions(num_players: int) -> int:
    """An upper bound on the legal actions at one node (starts, expansions, exchanges...)."""
    return 8192


@njit_once(cache=True)
def family_index(a: int, k: int, c: int) -> int:
    """Index of family ``(animal, animals, clovers)`` in ``actions.FAMILIES``."""
    return (a * 11 + k - 1) * 4 + c


def encode(state: Any) -> np.ndarray:
    """The kernel array of a :class:`~septet.games.double_seven.state.DoubleSevenState`, from
    its ``state_dict()`` (the stable format) and its game's options."""
    return encode_dict(state.game, state.num_players, state.state_dict())


def encode_dict(game: Any, n: int, d: Mapping[str, Any]) -> np.ndarray:
    """:func:`encode` from a ``state_dict()`` of ``game`` with ``n`` seats."""
    opts = game.options
    s = np.zeros(size(n), dtype=np.int64)
    s[H_N] = n
    s[H_RAINBOW] = int(bool(opts.rainbow))
    s[H_T41OPT] = int(bool(opts.two_for_one))
    s[H_TWOFAM] = int(opts.double_seven == "two_families")
    s[H_DRYCLEAR] = int(bool(opts.empty_rack_clears))
    s[H_PHASE] = PHASES.index(d["phase"])
    s[H_TURN] = int(d["turn"])
    s[H_DEALT] = int(d["dealt"])
    s[H_DRAWS] = int(d["draws_left"])
    s[H_AWAIT] = int(bool(d["await_pile"]))
    s[H_RUSED] = int(bool(d["rainbow_used"]))
    s[H_T41USED] = int(bool(d["t41_used"]))
    s[H_SEVLEFT] = int(d["sevens_left"])
    s[H_H77] = int(d["holder77"])
    s[H_TRIGGER] = int(d["trigger"])
    given = [family_index(*(int(x) for x in f)) for f in d["given"]]
    if len(given) > MAXGIVEN:
        raise ValueError("more families given away in one turn than the kernel holds")
    s[H_NGIVEN] = len(given)
    for i, f in enumerate(given):
        s[O_GIVEN + i] = f
    for off, key in ((O_BLOCKED, "blocked"), (O_PILE, "pile"), (O_DISPLAY, "display")):
        s[off : off + NT] = [int(x) for x in d[key]]
    s[O_REMOVED : O_REMOVED + NT] = [int(x) for x in d["removed"]]
    for p in range(n):
        b = O_SEATS + p * SEAT
        s[b + S_RACK : b + S_RACK + NT] = [int(x) for x in d["racks"][p]]
        s[b + S_KNOWN : b + S_KNOWN + NT] = [int(x) for x in d["known"][p]]
        s[b + S_SEVENS] = int(d["sevens"][p])
        fams = sorted(family_index(*(int(x) for x in f)) for f in d["families"][p])
        if len(fams) > MAXFAM:
            raise ValueError("more families than the kernel holds")
        s[b + S_NFAM] = len(fams)
        for i, f in enumerate(fams):
            s[b + S_FAMS + i] = f
    return s


@njit_once(cache=True)
def canonical(s: np.ndarray) -> np.ndarray:
    """A copy with unused list slots cleared (as :func:`encode` leaves them)."""
    c = s.copy()
    for i in range(c[H_NGIVEN], MAXGIVEN):
        c[O_GIVEN + i] = 0
    for p in range(c[H_N]):
        b = O_SEATS + p * SEAT
        for i in range(c[b + S_NFAM], MAXFAM):
            c[b + S_FAMS + i] = 0
    return c


# ----- helpers --------------------------------------------------------------------------------


@njit_once(cache=True, inline="always")
def _sb(p: int) -> int:
    return O_SEATS + p * SEAT


@njit_once(cache=True, inline="always")
def _fsize(f: int) -> int:
    return (f % 44) // 4 + 1 + f % 4


@njit_once(cache=True, **NO_WRAPPERS)
def _sum(s: np.ndarray, off: int) -> int:
    t = 0
    for i in range(NT):
        t += s[off + i]
    return t


@njit_once(cache=True, **NO_WRAPPERS)
def _take_from_rack(s: np.ndarray, tile: int, k: int) -> None:
    b = _sb(s[H_TURN])
    s[b + S_RACK + tile] -= k
    v = s[b + S_KNOWN + tile] - k
    s[b + S_KNOWN + tile] = v if v > 0 else 0  # the public lower bound


@njit_once(cache=True, **NO_WRAPPERS)
def _fam_remove(s: np.ndarray, p: int, f: int) -> None:
    b = _sb(p)
    n = s[b + S_NFAM]
    j = 0
    while j < n and s[b + S_FAMS + j] != f:
        j += 1
    for i in range(j, n - 1):
        s[b + S_FAMS + i] = s[b + S_FAMS + i + 1]
    s[b + S_FAMS + n - 1] = 0
    s[b + S_NFAM] = n - 1


@njit_once(cache=True, **NO_WRAPPERS)
def _fam_add(s: np.ndarray, p: int, f: int) -> None:
    """Insert keeping the families sorted (identical families are interchangeable)."""
    b = _sb(p)
    n = s[b + S_NFAM]
    j = n
    while j > 0 and s[b + S_FAMS + j - 1] > f:
        s[b + S_FAMS + j] = s[b + S_FAMS + j - 1]
        j -= 1
    s[b + S_FAMS + j] = f
    s[b + S_NFAM] = n + 1


# ----- the engine -----------------------------------------------------------------------------


@njit_once(cache=True, **NO_WRAPPERS)
def _after_draws(s: np.ndarray) -> None:
    s[H_AWAIT] = 0
    b = _sb(s[H_TURN])
    # DS-4.3: the decision comes whenever the rack holds 5+ tiles and a tile is left to draw.
    if (
        s[H_RAINBOW] == 1
        and s[H_RUSED] == 0
        and _sum(s, b + S_RACK) >= 5
        and _sum(s, O_PILE) + _sum(s, O_DISPLAY) > 0
    ):
        s[H_PHASE] = PH_RAINBOW
        return
    s[H_PHASE] = PH_ACT


@njit_once(cache=True, **NO_WRAPPERS)
def _enter_draw(s: np.ndarray) -> None:
    reserve = _sum(s, O_PILE) + _sum(s, O_DISPLAY)
    if s[H_DRAWS] > reserve:
        s[H_DRAWS] = reserve  # DS-4.2
    if s[H_DRAWS] > 0:
        s[H_PHASE] = PH_DRAW
        s[H_AWAIT] = 1 if _sum(s, O_DISPLAY) == 0 else 0
    else:
        _after_draws(s)


@njit_once(cache=True, **NO_WRAPPERS)
def _begin_turn(s: np.ndarray, seat: int) -> None:
    s[H_TURN] = seat
    s[H_RUSED] = 0
    s[H_T41USED] = 0
    s[H_NGIVEN] = 0
    # DS-4.1: 3 tiles if the rack was empty at the start of the turn, otherwise 2.
    s[H_DRAWS] = 2 if _sum(s, _sb(seat) + S_RACK) > 0 else 3
    if _sum(s, O_DISPLAY) == 0 and _sum(s, O_PILE) > 0:
        s[H_PHASE] = PH_FLIP  # DS-3.1
        s[H_AWAIT] = 0
    else:
        _enter_draw(s)


@njit_once(cache=True, **NO_WRAPPERS)
def _end_turn(s: np.ndarray) -> None:
    while True:
        nxt = (s[H_TURN] + 1) % s[H_N]
        s[H_NGIVEN] = 0
        if s[H_TRIGGER] >= 0 and nxt == s[H_TRIGGER]:
            s[H_PHASE] = PH_OVER  # DS-7.2
            s[H_AWAIT] = 0
            return
        _begin_turn(s, nxt)
        # DS-6.1: an empty rack with nothing to draw ends the turn at once (the engine's loop)
        if s[H_DRYCLEAR] == 0 or s[H_PHASE] != PH_ACT or _sum(s, _sb(nxt) + S_RACK) > 0:
            return


@njit_once(cache=True, **NO_WRAPPERS)
def _after_one_draw(s: np.ndarray) -> None:
    reserve = _sum(s, O_PILE) + _sum(s, O_DISPLAY)
    if reserve == 0 and s[H_TRIGGER] < 0:
        s[H_TRIGGER] = s[H_TURN]  # DS-7.1: the last tile of the reserve is drawn
    if s[H_PHASE] == PH_T41:
        s[H_PHASE] = PH_ACT
        s[H_AWAIT] = 0
        for i in range(NT):
            s[O_BLOCKED + i] = 0
        return
    s[H_DRAWS] -= 1
    if s[H_DRAWS] > 0 and reserve > 0:
        s[H_AWAIT] = 1 if _sum(s, O_DISPLAY) == 0 else 0
    else:
        s[H_DRAWS] = 0
        _after_draws(s)


@njit_once(cache=True, **NO_WRAPPERS)
def _take_77(s: np.ndarray) -> None:
    me = s[H_TURN]
    s[H_H77] = me
    if s[H_TRIGGER] < 0:
        s[H_TRIGGER] = me  # DS-7.1


@njit_once(cache=True, **NO_WRAPPERS)
def _after_placement(s: np.ndarray) -> None:
    me = s[H_TURN]
    b = _sb(me)
    if s[H_TWOFAM] == 1 and s[H_H77] < 0:
        big = 0
        for i in range(s[b + S_NFAM]):
            if _fsize(s[b + S_FAMS + i]) >= SEVEN:
                big += 1
        if big >= 2:
            _take_77(s)
    if _sum(s, b + S_RACK) == 0:
        _end_turn(s)  # DS-6.1 "Clear!"


@njit_once(cache=True, **NO_WRAPPERS)
def _rainbow_ok(s: np.ndarray) -> bool:
    b = _sb(s[H_TURN])
    total = 0
    top = 0
    for t in range(NT):
        x = s[b + S_RACK + t]
        total += x
        if x > top:
            top = x
    return s[b + S_RACK + CLOVER] == 0 and total >= 5 and top == 1


# ----- the contract, compiled -------------------------------------------------------------------


@njit_once(cache=True)
def current_player(s: np.ndarray) -> int:
    """The seat to act, ``-1`` (chance) or ``-4`` (terminal)."""
    ph = s[H_PHASE]
    if ph <= PH_FLIP or s[H_AWAIT] == 1:
        return CHANCE
    if ph == PH_OVER:
        return TERMINAL
    return s[H_TURN]


@njit_once(cache=True)
def round_index(s: np.ndarray) -> int:
    """Double Seven is one round."""
    return 0


@njit_once(cache=True)
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """The legal action ids in the engine's order; 0 at chance and terminal nodes."""
    ph = s[H_PHASE]
    if ph <= PH_FLIP or s[H_AWAIT] == 1 or ph == PH_OVER:
        return 0
    n = s[H_N]
    me = s[H_TURN]
    b = _sb(me)
    cnt = 0
    if ph == PH_DRAW or ph == PH_T41:
        if _sum(s, O_PILE) > 0:
            out[cnt] = 0
            cnt += 1
        for t in range(NT):
            if s[O_DISPLAY + t] > s[O_BLOCKED + t]:
                out[cnt] = OFF_TAKE + t
                cnt += 1
        return cnt
    if ph == PH_DISCARD:
        for t in range(NT):
            if s[b + S_RACK + t] > 0:
                out[cnt] = OFF_DISCARD + t
                cnt += 1
        return cnt
    if ph == PH_RAINBOW:
        if _rainbow_ok(s):
            out[0] = 1
            out[1] = 2
            return 2
        out[0] = 2
        return 1
    # PH_ACT
    out[0] = 3
    cnt = 1
    rc = s[b + S_RACK + CLOVER]
    nfam = s[b + S_NFAM]
    own = np.zeros(8, dtype=np.bool_)
    for i in range(nfam):
        own[s[b + S_FAMS + i] // 44] = True
    # DS-5.1 start a family: k animals + c clovers, k >= 1, k + c >= 2.
    for a in range(8):
        ra = s[b + S_RACK + a]
        if ra > 0 and not own[a]:
            for k in range(1, ra + 1):
                for c in range(0 if k >= 2 else 1, rc + 1):
                    out[cnt] = OFF_START + family_index(a, k, c)
                    cnt += 1
    if nfam > 0:
        # DS-5.3 expand one of my families (identical families: one action).
        prev = -1
        for i in range(nfam):
            f = s[b + S_FAMS + i]
            if f == prev:
                continue
            prev = f
            ra = s[b + S_RACK + f // 44]
            for k in range(ra + 1):
                for c in range(0 if k > 0 else 1, rc + 1):
                    out[cnt] = OFF_EXPAND + f * ADD + k * 4 + c
                    cnt += 1
        # DS-5.4 exchange (ruling: never receive a composition given away this turn).
        for q in range(n):
            bq = _sb(q)
            if q == me or s[bq + S_NFAM] == 0:
                continue
            prev = -1
            for i in range(nfam):
                f = s[b + S_FAMS + i]
                if f == prev:
                    continue
                prev = f
                fs = _fsize(f)
                prev_g = -1
                for j in range(s[bq + S_NFAM]):
                    g = s[bq + S_FAMS + j]
                    if g == prev_g:
                        continue
                    prev_g = g
                    if _fsize(g) == fs and g != f:
                        given = False
                        for x in range(s[H_NGIVEN]):
                            if s[O_GIVEN + x] == g:
                                given = True
                                break
                        if not given:
                            out[cnt] = OFF_EXCHANGE + PAIR_INDEX[f, g] * n + q
                            cnt += 1
    # DS-5.5 retrieve a clover from any family, with a matching animal from my rack.
    for q in range(n):
        bq = _sb(q)
        prev = -1
        for j in range(s[bq + S_NFAM]):
            g = s[bq + S_FAMS + j]
            if g % 4 > 0 and g != prev and s[b + S_RACK + g // 44] > 0:
                out[cnt] = OFF_EXCHANGE + NP * n + q * NF + g
                cnt += 1
            prev = g
    # DS-5.6 two for one: once a turn, 2 tiles on the rack and a tile left to draw.
    if (
        s[H_T41OPT] == 1
        and s[H_T41USED] == 0
        and _sum(s, b + S_RACK) >= 2
        and _sum(s, O_PILE) + _sum(s, O_DISPLAY) > 0
    ):
        for x in range(NT):
            if s[b + S_RACK + x] > 0:
                if s[b + S_RACK + x] >= 2:
                    out[cnt] = OFF_T41 + T41_ID[x, x]
                    cnt += 1
                for y in range(x + 1, NT):
                    if s[b + S_RACK + y] > 0:
                        out[cnt] = OFF_T41 + T41_ID[x, y]
                        cnt += 1
    return cnt


@njit_once(cache=True)
def chance_outcomes(s: np.ndarray, codes: np.ndarray, weights: np.ndarray) -> int:
    """The chance outcomes and integer weights (tile counts of the pile, or 1 per seat)."""
    ph = s[H_PHASE]
    if ph == PH_FIRST:
        for q in range(s[H_N]):
            codes[q] = CH_FIRST + q
            weights[q] = 1
        return s[H_N]
    if ph == PH_DEAL:
        base = 0
    elif ph == PH_FLIP:
        base = CH_FLIP
    elif s[H_AWAIT] == 1 and ph != PH_OVER:
        base = CH_PILE
    else:
        return 0
    cnt = 0
    for t in range(NT):
        if s[O_PILE + t] > 0:
            codes[cnt] = base + t
            weights[cnt] = s[O_PILE + t]
            cnt += 1
    return cnt


@njit_once(cache=True)
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    """One chance outcome drawn with its exact probability."""
    ph = s[H_PHASE]
    if ph == PH_FIRST:
        return CH_FIRST + randbelow(rng, s[H_N])
    base = 0 if ph == PH_DEAL else (CH_FLIP if ph == PH_FLIP else CH_PILE)
    r = randbelow(rng, _sum(s, O_PILE))
    for t in range(NT):
        r -= s[O_PILE + t]
        if r < 0:
            return base + t
    return -1


@njit_once(cache=True)
def apply_chance(s: np.ndarray, code: int, buf: np.ndarray) -> None:
    """Apply a possible chance outcome."""
    if code >= CH_FIRST:
        _begin_turn(s, code - CH_FIRST)
        return
    t = code % 16
    s[O_PILE + t] -= 1
    if code < CH_FLIP:
        seat = s[H_DEALT] // 3
        s[_sb(seat) + S_RACK + t] += 1
        s[H_DEALT] += 1
        if s[H_DEALT] == 3 * s[H_N]:
            s[H_PHASE] = PH_FIRST
    elif code < CH_PILE:
        s[O_DISPLAY + t] += 1
        _enter_draw(s)
    else:
        s[_sb(s[H_TURN]) + S_RACK + t] += 1
        _after_one_draw(s)


@njit_once(cache=True)
def apply_action(s: np.ndarray, aid: int, buf: np.ndarray) -> None:
    """Apply a legal player action id."""
    n = s[H_N]
    me = s[H_TURN]
    b = _sb(me)
    if aid == 0:  # draw face down: a chance node reveals the tile
        s[H_AWAIT] = 1
    elif aid == 1 or aid == 2:
        s[H_RUSED] = 1
        if aid == 1:
            for t in range(NT):
                s[b + S_KNOWN + t] = s[b + S_RACK + t]  # DS-4.3: the rack is shown
            s[H_DRAWS] = 1
            _enter_draw(s)
        else:
            s[H_PHASE] = PH_ACT
    elif aid == 3:  # DS-6.1 "Pass!"
        if _sum(s, b + S_RACK) >= 6:
            s[H_PHASE] = PH_DISCARD  # DS-6.2
        else:
            _end_turn(s)
    elif aid < OFF_DISCARD:
        t = aid - OFF_TAKE
        s[O_DISPLAY + t] -= 1
        s[b + S_RACK + t] += 1
        s[b + S_KNOWN + t] += 1
        _after_one_draw(s)
    elif aid < OFF_T41:
        t = aid - OFF_DISCARD
        _take_from_rack(s, t, 1)
        s[O_REMOVED + t] += 1
        _end_turn(s)
    elif aid < OFF_START:
        x = T41_X[aid - OFF_T41]
        y = T41_Y[aid - OFF_T41]
        _take_from_rack(s, x, 1)
        _take_from_rack(s, y, 1)
        for i in range(NT):
            s[O_BLOCKED + i] = 0
        s[O_BLOCKED + x] += 1
        s[O_BLOCKED + y] += 1
        s[O_DISPLAY + x] += 1
        s[O_DISPLAY + y] += 1
        s[H_T41USED] = 1
        s[H_PHASE] = PH_T41
        s[H_AWAIT] = 1 if _sum(s, O_DISPLAY) == 2 else 0
    elif aid < OFF_EXPAND:
        f = aid - OFF_START
        a = f // 44
        k = (f % 44) // 4 + 1
        c = f % 4
        _take_from_rack(s, a, k)
        if c:
            _take_from_rack(s, CLOVER, c)
        _fam_add(s, me, f)
        # Ruling: starting a family, even of 7+, earns no 7 token.
        _after_placement(s)
    elif aid < OFF_EXCHANGE:
        j = aid - OFF_EXPAND
        f = j // ADD
        k = (j % ADD) // 4
        c = j % 4
        a = f // 44
        k0 = (f % 44) // 4 + 1
        c0 = f % 4
        if k:
            _take_from_rack(s, a, k)
        if c:
            _take_from_rack(s, CLOVER, c)
        _fam_remove(s, me, f)
        _fam_add(s, me, family_index(a, k0 + k, c0 + c))
        # DS-5.3 Seven!: from 6 or fewer tiles to 7 or more, while tokens remain.
        if k0 + c0 < SEVEN <= k0 + k + c0 + c and s[H_SEVLEFT] > 0:
            s[H_SEVLEFT] -= 1
            s[b + S_SEVENS] += 1
            if s[H_TWOFAM] == 0 and s[b + S_SEVENS] == 2 and s[H_H77] < 0:
                _take_77(s)
        _after_placement(s)
    else:
        j = aid - OFF_EXCHANGE
        if j < NP * n:
            q = j % n
            f = PAIR_F[j // n]
            g = PAIR_G[j // n]
            _fam_remove(s, me, f)
            _fam_add(s, me, g)
            _fam_remove(s, q, g)
            _fam_add(s, q, f)
            s[O_GIVEN + s[H_NGIVEN]] = f
            s[H_NGIVEN] += 1
        else:
            j -= NP * n
            q = j // NF
            g = j % NF
            a = g // 44
            _take_from_rack(s, a, 1)
            s[b + S_RACK + CLOVER] += 1
            s[b + S_KNOWN + CLOVER] += 1
            _fam_remove(s, q, g)
            _fam_add(s, q, g + 4 - 1)  # one more animal, one clover less


@njit_once(cache=True, **NO_WRAPPERS)
def _score(s: np.ndarray, p: int) -> int:
    """DS-8.1: one point per tile in families, +1 per 7 token, +2 for the 77 token."""
    b = _sb(p)
    t = 0
    for i in range(s[b + S_NFAM]):
        t += _fsize(s[b + S_FAMS + i])
    t += s[b + S_SEVENS]
    if s[H_H77] == p:
        t += 2
    return t


@njit_once(cache=True)
def scores(s: np.ndarray, out: np.ndarray) -> None:
    """DS-8.1 points per seat."""
    for p in range(s[H_N]):
        out[p] = _score(s, p)


@njit_once(cache=True)
def is_winner(s: np.ndarray, p: int) -> bool:
    """DS-8.2: most points; a tied holder of the 77 token wins alone (terminal states)."""
    if s[H_PHASE] != PH_OVER:
        return False
    best = -1
    for q in range(s[H_N]):
        x = _score(s, q)
        if x > best:
            best = x
    h = s[H_H77]
    if h >= 0 and _score(s, h) == best:
        return p == h
    return _score(s, p) == best


# ----- the greedy bot, compiled -----------------------------------------------------------------


@njit_once(cache=True, **NO_WRAPPERS)
def _keep(rack: np.ndarray, fam_animals: np.ndarray, t: int) -> float:
    if t == CLOVER:
        return 5.0
    v = 0.0
    if fam_animals[t]:
        v += 2.0
    if rack[t] >= 2:
        v += 1.0 + rack[t] * 0.5
    return v


@njit_once(cache=True)
def greedy_action(s: np.ndarray, legal: np.ndarray, cnt: int, params: np.ndarray) -> int:
    """The move of ``septet.bots.greedy.double_seven.GreedyAgent`` among ``legal[:cnt]``, from
    the facts of the seat's view (own rack and families, tokens, the end trigger)."""
    if cnt == 1:
        return legal[0]
    n = s[H_N]
    me = s[H_TURN]
    b = _sb(me)
    rack = s[b + S_RACK : b + S_RACK + NT]
    fam_animals = np.zeros(NT, dtype=np.bool_)
    for i in range(s[b + S_NFAM]):
        fam_animals[s[b + S_FAMS + i] // 44] = True
    endgame = s[H_TRIGGER] >= 0
    sevens_left = s[H_SEVLEFT]
    my_sevens = s[b + S_SEVENS]
    free77 = s[H_H77] < 0
    rack_total = 0
    for t in range(NT):
        rack_total += rack[t]
    clover_w = 1.0 if endgame else -0.3
    best = legal[0]
    best_v = -np.inf
    for i in range(cnt):
        aid = legal[i]
        if aid == 3:
            v = 0.0
        elif aid == 1:
            v = 1.0
        elif aid == 2:
            v = 0.0
        elif aid == 0:
            v = 0.8
        elif aid < OFF_DISCARD:
            t = aid - OFF_TAKE
            if t == CLOVER:
                v = 3.0
            elif fam_animals[t]:
                v = 2.0
            elif rack[t] > 0:
                v = 1.5
            else:
                v = 0.3
        elif aid < OFF_T41:
            v = -_keep(rack, fam_animals, aid - OFF_DISCARD)
        elif aid < OFF_START:
            x = T41_X[aid - OFF_T41]
            y = T41_Y[aid - OFF_T41]
            stray = _keep(rack, fam_animals, x) + _keep(rack, fam_animals, y)
            v = 0.6 - stray if rack_total >= 3 and not endgame else -1.0
        elif aid < OFF_EXPAND:
            f = aid - OFF_START
            a = f // 44
            k = (f % 44) // 4 + 1
            c = f % 4
            v = k + clover_w * c - 0.5
            if k < rack[a]:
                v -= 0.1 * (rack[a] - k)
        elif aid < OFF_EXCHANGE:
            j = aid - OFF_EXPAND
            f = j // ADD
            ka = (j % ADD) // 4
            kc = j % 4
            old = _fsize(f)
            new = old + ka + kc
            bonus = 0.0
            if old <= 6 and new > 6 and sevens_left:
                bonus = 1.5
                if my_sevens == 1 and free77:
                    bonus += 2.5
            w = 1.0 if bonus else clover_w
            v = ka + w * kc + bonus
        else:
            j = aid - OFF_EXCHANGE
            if j < NP * n:
                f = PAIR_F[j // n]
                g = PAIR_G[j // n]
                gain = rack[g // 44] - rack[f // 44]
                v = 0.9 * gain + 0.3 * (g % 4 - f % 4) * (1 if rack[g // 44] else 0)
                if _fsize(f) >= SEVEN:
                    v -= 0.5
                v -= 0.05
            else:
                j -= NP * n
                q = j // NF
                g = j % NF
                v = 1.2 if q == me else 0.9
                if _fsize(g) <= 6 and rack[g // 44] == 1:
                    v -= 0.2
        if v > best_v:
            best = aid
            best_v = v
    return best


# ----- playouts ------------------------------------------------------------------------------


@njit_once(cache=True)
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
    """Play on in place (see ``septet.fast.flip7.playout``); returns the steps taken."""
    steps = 0
    while steps != max_steps:
        tm = current_player(s)
        if tm == TERMINAL:
            break
        if tm == CHANCE:
            apply_chance(s, sample_chance(s, rng), buf)
        else:
            cnt = legal_actions(s, legal)
            if policies[tm] == 1 and cnt > 1:
                a = greedy_action(s, legal, cnt, params)
            else:
                a = legal[randbelow(rng, cnt)]
            apply_action(s, a, buf)
        steps += 1
    return steps


# ----- the playout path ----------------------------------------------------------------------
# The step path's games without its legal-action array: each decision counts the legal actions
# kind by kind (the engine's order), draws the index the step path would draw and builds that one
# id; the greedy scores only the candidates that can be its choice. The same generator calls in
# the same order (a random seat's ``randbelow(rng, cnt)``, also when ``cnt`` is 1, which a greedy
# seat with one legal action makes too), so a seed plays the same game either way.


@noref_inline
def _rand(rng: np.ndarray, k: int) -> int:
    """``randbelow(rng, k)`` as an ``int64`` (it returns a ``uint64``)."""
    return np.int64(randbelow(rng, k))  # type: ignore[return-value]  # an int to numba


@noref_inline
def _own_mask(s: np.ndarray, b: int) -> int:
    """Bit ``a`` set where the seat at ``b`` has a family of animal ``a``."""
    m = 0
    for i in range(s[b + S_NFAM]):
        m |= 1 << FAM_ANIMAL[s[b + S_FAMS + i]]
    return m


@noref_inline
def _any_left(s: np.ndarray, off: int) -> bool:
    """Some of the 9 counts at ``off`` is not 0 (the pile, the display)."""
    for t in range(NT):
        if s[off + t] > 0:
            return True
    return False


@noref_inline
def _t41_open(s: np.ndarray, rack_total: int) -> bool:
    """DS-5.6: two for one may be played now (option on, unused this turn, 2+ rack tiles:
    ``rack_total``, and a tile left to draw)."""
    return (
        s[H_T41OPT] == 1
        and s[H_T41USED] == 0
        and rack_total >= 2
        and (_any_left(s, O_PILE) or _any_left(s, O_DISPLAY))
    )


# The playout path's scratch (its ``legal`` argument): the exchanges per seat of a decision
# (``W_XQ``) and the bit set of the families of the seat to act (``W_BITS``, 6 words).
W_XQ = 0
W_BITS = 4
SCRATCH = W_BITS + (NF + 63) // 64


@noref_inline
def _given(s: np.ndarray, g: int) -> bool:
    """Family ``g`` was given away by an exchange this turn (DS-5.4 ruling: not received)."""
    for x in range(s[H_NGIVEN]):
        if s[O_GIVEN + x] == g:
            return True
    return False


@noref_inline
def _seat_counts(s: np.ndarray, b: int, q: int, sizes: int, work: np.ndarray) -> tuple[int, int]:
    """The DS-5.4 exchanges of the seat at ``b`` with seat ``q`` (one of my distinct families
    and one of ``q``'s of the same size, not the same one nor given away this turn) and the
    DS-5.5 retrieves from ``q``'s families (a distinct family with a clover, of an animal on my
    rack), in one walk of ``q``'s families, with few branches; ``sizes``: my distinct families
    per size, 4 bits a size (-1: 15 or more of one size), ``work[W_BITS:]`` the bit set of mine."""
    bq = _sb(q)
    nq = s[bq + S_NFAM]
    nfam = s[b + S_NFAM]
    ngiven = s[H_NGIVEN]
    x = 0
    ret = 0
    prev_g = -1
    for jq in range(nq):
        g = s[bq + S_FAMS + jq]
        new = g != prev_g
        prev_g = g
        ret += new & (g & 3 != 0) & (s[b + S_RACK + FAM_ANIMAL[g]] > 0)
        if sizes < 0:  # a size with 15 distinct families or more: pair by pair
            m = 0
            prev = -1
            for i in range(nfam):
                f = s[b + S_FAMS + i]
                if f != prev:
                    prev = f
                    if FAM_SIZE[f] == FAM_SIZE[g] and f != g:
                        m += 1
        else:
            m = (sizes >> (4 * FAM_SIZE[g])) & 15
            m -= (work[W_BITS + (g >> 6)] >> (g & 63)) & 1  # never the same family
        if ngiven > 0 and _given(s, g):
            m = 0
        x += m * new
    return x, ret


@internal
def _xq_pick(s: np.ndarray, b: int, q: int, r: int) -> int:
    """The id of the ``r``-th DS-5.4 exchange with seat ``q`` in :func:`legal_actions`' order
    (my distinct family, then ``q``'s of the same size that is not it and was not given away
    this turn): my families' counts from 4-bit per-size counts of ``q``'s, then one walk of
    ``q``'s families for the one drawn."""
    bq = _sb(q)
    nq = s[bq + S_NFAM]
    ngiven = s[H_NGIVEN]
    sizes = 0  # q's distinct families it can give, per size; -1: 15 or more of a size
    prev_g = -1
    for j in range(nq):
        g = s[bq + S_FAMS + j]
        if g != prev_g:
            prev_g = g
            if ngiven == 0 or not _given(s, g):
                sh = 4 * FAM_SIZE[g]
                if (sizes >> sh) & 15 == 14:
                    sizes = -1
                    break
                sizes += 1 << sh
    prev = -1
    j = 0
    for i in range(s[b + S_NFAM]):
        f = s[b + S_FAMS + i]
        if f == prev:
            continue
        prev = f
        fs = FAM_SIZE[f]
        if sizes >= 0:
            c = (sizes >> (4 * fs)) & 15
            if c == 0:
                continue
            while j < nq and s[bq + S_FAMS + j] < f:  # both lists are sorted
                j += 1
            if j < nq and s[bq + S_FAMS + j] == f and (ngiven == 0 or not _given(s, f)):
                c -= 1  # never the same family
            if r >= c:
                r -= c
                continue
        prev_g = -1
        for jj in range(nq):
            g = s[bq + S_FAMS + jj]
            if g == prev_g:
                continue
            prev_g = g
            if FAM_SIZE[g] == fs and g != f and not _given(s, g):
                if r == 0:
                    return OFF_EXCHANGE + (PAIR_BASE[f] + SIZE_RANK[g]) * s[H_N] + q
                r -= 1
    return -1


@noref
def _act_random(s: np.ndarray, rng: np.ndarray, work: np.ndarray) -> int:
    """A random seat's action in the actions phase: ``legal[randbelow(rng, cnt)]`` of
    :func:`legal_actions` (Pass, DS-5.1 starts, DS-5.3 expansions, DS-5.4 exchanges, DS-5.5
    retrieves, DS-5.6 two for one), from counts per kind (one walk of the rack and of each
    seat's families), then the one id drawn. ``work``: scratch (``SCRATCH``)."""
    n = s[H_N]
    me = s[H_TURN]
    b = _sb(me)
    rc = s[b + S_RACK + CLOVER]
    nfam = s[b + S_NFAM]
    own = 0
    nexp = 0
    nret = 0
    sizes = 0  # my distinct families per size, 4 bits a size; -1: 15 or more of one size
    for w in range(SCRATCH - W_BITS):
        work[W_BITS + w] = 0  # the bit set of my families
    prev = -1
    for i in range(nfam):
        f = s[b + S_FAMS + i]
        own |= 1 << FAM_ANIMAL[f]
        work[W_BITS + (f >> 6)] |= 1 << (f & 63)
        if f != prev:
            prev = f
            ra = s[b + S_RACK + FAM_ANIMAL[f]]
            nexp += rc + ra * (rc + 1)  # k = 0 with 1..rc clovers, k >= 1 with 0..rc
            if (f & 3) > 0 and ra > 0:
                nret += 1
            if sizes >= 0:
                sh = 4 * FAM_SIZE[f]
                if (sizes >> sh) & 15 == 14:
                    sizes = -1
                else:
                    sizes += 1 << sh
    nstart = 0
    kinds = 0
    pairs2 = 0
    rack_total = 0
    for t in range(NT):
        x = s[b + S_RACK + t]
        rack_total += x
        kinds += x > 0
        pairs2 += x >= 2
        if t != CLOVER:  # k = 1 with 1..rc clovers, k >= 2 with 0..rc
            nstart += (x * (rc + 1) - 1) * ((x > 0) & ((own >> t) & 1 == 0))
    nexch = 0
    for q in range(n):
        if q != me:
            xq, rq = _seat_counts(s, b, q, sizes, work)
            work[W_XQ + q] = xq
            nexch += xq
            nret += rq
    total = 1 + nstart + nexp + nexch + nret
    if _t41_open(s, rack_total):
        total += pairs2 + kinds * (kinds - 1) // 2
    r = _rand(rng, total)
    if r == 0:
        return 3
    r -= 1
    if r < nstart:
        for a in range(8):
            ra = s[b + S_RACK + a]
            if ra > 0 and not (own >> a) & 1:
                c_a = ra * (rc + 1) - 1
                if r < c_a:
                    if r < rc:
                        return OFF_START + family_index(a, 1, r + 1)
                    r -= rc
                    return OFF_START + family_index(a, 2 + r // (rc + 1), r % (rc + 1))
                r -= c_a
    r -= nstart
    if r < nexp:
        prev = -1
        for i in range(nfam):
            f = s[b + S_FAMS + i]
            if f != prev:
                prev = f
                c_f = rc + s[b + S_RACK + FAM_ANIMAL[f]] * (rc + 1)
                if r < c_f:
                    if r < rc:
                        return OFF_EXPAND + f * ADD + r + 1
                    r -= rc
                    return OFF_EXPAND + f * ADD + (1 + r // (rc + 1)) * 4 + r % (rc + 1)
                r -= c_f
    r -= nexp
    if r < nexch:
        for q in range(n):
            if q != me:
                c = work[W_XQ + q]
                if r < c:
                    return _xq_pick(s, b, q, r)
                r -= c
    r -= nexch
    if r < nret:
        for q in range(n):
            bq = _sb(q)
            prev = -1
            for j in range(s[bq + S_NFAM]):
                g = s[bq + S_FAMS + j]
                if (g & 3) > 0 and g != prev and s[b + S_RACK + FAM_ANIMAL[g]] > 0:
                    if r == 0:
                        return OFF_EXCHANGE + NP * n + q * NF + g
                    r -= 1
                prev = g
    r -= nret
    for x in range(NT):
        if s[b + S_RACK + x] > 0:
            if s[b + S_RACK + x] >= 2:
                if r == 0:
                    return OFF_T41 + T41_ID[x, x]
                r -= 1
            for y in range(x + 1, NT):
                if s[b + S_RACK + y] > 0:
                    if r == 0:
                        return OFF_T41 + T41_ID[x, y]
                    r -= 1
    return -1


@noref_inline
def _keep_s(s: np.ndarray, b: int, own: int, t: int) -> float:
    """:func:`_keep` from the seat at ``b`` (rack) and its family animals' bits ``own``."""
    if t == CLOVER:
        return 5.0
    v = 0.0
    if (own >> t) & 1:
        v += 2.0
    x = s[b + S_RACK + t]
    if x >= 2:
        v += 1.0 + x * 0.5
    return v


@noref
def _act_greedy(s: np.ndarray) -> int:
    """:func:`greedy_action` in the actions phase, without the legal-action array: the same
    values in the same order, over the candidates that can be the first best one (a start or
    an expansion with fewer animals than the rack holds scores less than the one with all of
    them and the same clovers: only that row is scored, and of a start only its best clover
    count; a two for one scores above Pass only as a pair of lone animals). ``-1 - 3`` where
    Pass is the only legal action."""
    n = s[H_N]
    me = s[H_TURN]
    b = _sb(me)
    rc = s[b + S_RACK + CLOVER]
    nfam = s[b + S_NFAM]
    own = _own_mask(s, b)
    endgame = s[H_TRIGGER] >= 0
    sevens_left = s[H_SEVLEFT]
    my_sevens = s[b + S_SEVENS]
    free77 = s[H_H77] < 0
    rack_total = rc
    clover_w = 1.0 if endgame else -0.3
    best = 3
    best_v = 0.0
    other = False
    for a in range(8):  # DS-5.1
        ra = s[b + S_RACK + a]
        rack_total += ra
        lo = 0 if ra >= 2 else 1
        if ra > 0 and not (own >> a) & 1 and lo <= rc:
            other = True
            c = rc if endgame else lo  # the value is strictly monotone in c (clover_w)
            v = ra + clover_w * c - 0.5
            if v > best_v:
                best = OFF_START + family_index(a, ra, c)
                best_v = v
    prev = -1
    for i in range(nfam):  # DS-5.3
        f = s[b + S_FAMS + i]
        if f == prev:
            continue
        prev = f
        ka = s[b + S_RACK + FAM_ANIMAL[f]]
        old = FAM_SIZE[f]
        for kc in range(0 if ka > 0 else 1, rc + 1):
            other = True
            new = old + ka + kc
            bonus = 0.0
            if old <= 6 and new > 6 and sevens_left:
                bonus = 1.5
                if my_sevens == 1 and free77:
                    bonus += 2.5
            w = 1.0 if bonus else clover_w
            v = ka + w * kc + bonus
            if v > best_v:
                best = OFF_EXPAND + f * ADD + ka * 4 + kc
                best_v = v
    if nfam > 0:  # DS-5.4
        for q in range(n):
            bq = _sb(q)
            if q == me or s[bq + S_NFAM] == 0:
                continue
            qsizes = 0  # the sizes of q's families, a bit each
            top = 0  # the greatest 3 rg + clovers (rg > 0) of q's: 0.3 top bounds the value
            for j in range(s[bq + S_NFAM]):
                g = s[bq + S_FAMS + j]
                qsizes |= 1 << FAM_SIZE[g]
                rg = s[b + S_RACK + FAM_ANIMAL[g]]
                key = 3 * rg + (g & 3) * (rg > 0)
                if key > top:
                    top = key
            # value <= 0.9 rg + 0.3 c_g (rg > 0) - 0.9 rf - 0.05: none can beat the best so far
            # (skipped only once some action besides Pass is known: ``other`` stays exact)
            if other and 0.3 * top - 0.05 + 1e-9 <= best_v:
                continue
            prev = -1
            for i in range(nfam):
                f = s[b + S_FAMS + i]
                if f == prev:
                    continue
                prev = f
                fs = FAM_SIZE[f]
                if not (qsizes >> fs) & 1:
                    continue  # no family of q's has this size
                rf = s[b + S_RACK + FAM_ANIMAL[f]]
                if other and 0.3 * top - 0.9 * rf - 0.05 + 1e-9 <= best_v:
                    continue
                prev_g = -1
                for j in range(s[bq + S_NFAM]):
                    g = s[bq + S_FAMS + j]
                    if g == prev_g:
                        continue
                    prev_g = g
                    if FAM_SIZE[g] == fs and g != f and not _given(s, g):
                        other = True
                        rg = s[b + S_RACK + FAM_ANIMAL[g]]
                        gain = rg - rf
                        v = 0.9 * gain + 0.3 * ((g & 3) - (f & 3)) * (1 if rg else 0)
                        if fs >= SEVEN:
                            v -= 0.5
                        v -= 0.05
                        if v > best_v:
                            best = OFF_EXCHANGE + (PAIR_BASE[f] + SIZE_RANK[g]) * n + q
                            best_v = v
    for q in range(n):  # DS-5.5
        bq = _sb(q)
        prev = -1
        for j in range(s[bq + S_NFAM]):
            g = s[bq + S_FAMS + j]
            if (g & 3) > 0 and g != prev and s[b + S_RACK + FAM_ANIMAL[g]] > 0:
                other = True
                v = 1.2 if q == me else 0.9
                if FAM_SIZE[g] <= 6 and s[b + S_RACK + FAM_ANIMAL[g]] == 1:
                    v -= 0.2
                if v > best_v:
                    best = OFF_EXCHANGE + NP * n + q * NF + g
                    best_v = v
            prev = g
    if _t41_open(s, rack_total):  # DS-5.6 (rack_total >= 2: one exists)
        other = True
        # 0.6 - keep(x) - keep(y) in its window (else -1.0): keep is 0 for a lone animal
        # outside my families and 2 or more otherwise, so only a pair of two such scores above
        # Pass (0.6), and the first in the engine's order is the first two of them.
        if rack_total >= 3 and not endgame and best_v < 0.6:
            x = -1
            for t in range(8):
                if s[b + S_RACK + t] == 1 and not (own >> t) & 1:
                    if x >= 0:
                        best = OFF_T41 + T41_ID[x, t]
                        best_v = 0.6 - (0.0 + 0.0)
                        break
                    x = t
    return best if other else -1 - 3


@internal
def _small_choice(s: np.ndarray, rng: np.ndarray, greedy: bool) -> int:
    """A decision of the draw (DS-4.1, DS-4.2), two-for-one draw (DS-5.6), Rainbow (DS-4.3) or
    discard (DS-6.2) phase, by the random or the greedy seat, as the step path makes it."""
    ph = s[H_PHASE]
    b = _sb(s[H_TURN])
    if ph == PH_RAINBOW:
        if _rainbow_ok(s):
            return 1 if greedy else 1 + _rand(rng, 2)  # legal [1, 2]: greedy values 1, 0
        randbelow(rng, 1)
        return 2
    if ph == PH_DISCARD:
        return _discard_choice(s, rng, greedy, b)
    return _draw_choice(s, rng, greedy, b)


@noref_inline
def _discard_choice(s: np.ndarray, rng: np.ndarray, greedy: bool, b: int) -> int:
    """The DS-6.2 discard of the seat at ``b``: a random tile type on its rack, or the
    greedy's least kept (a lone type: drawn from its one-entry list, as the step path)."""
    cnt = 0
    for t in range(NT):
        if s[b + S_RACK + t] > 0:
            cnt += 1
    if cnt == 1 or not greedy:
        r = _rand(rng, cnt)
        for t in range(NT):
            if s[b + S_RACK + t] > 0:
                if r == 0:
                    return OFF_DISCARD + t
                r -= 1
    own = _own_mask(s, b)
    best = -1
    best_v = -np.inf
    for t in range(NT):
        if s[b + S_RACK + t] > 0:
            v = -_keep_s(s, b, own, t)
            if v > best_v:
                best = OFF_DISCARD + t
                best_v = v
    return best


@noref_inline
def _draw_choice(s: np.ndarray, rng: np.ndarray, greedy: bool, b: int) -> int:
    """A draw (DS-4.1, DS-4.2) or two-for-one draw (DS-5.6) of the seat at ``b``: face down
    (id 0) while the pile has tiles, or a display tile not blocked; random, or the greedy's
    values (clover 3, an animal of its families 2, one on its rack 1.5, else 0.3; face down
    0.8)."""
    pile = _any_left(s, O_PILE)
    if not greedy:
        cnt = 1 if pile else 0
        for t in range(NT):
            if s[O_DISPLAY + t] > s[O_BLOCKED + t]:
                cnt += 1
        r = _rand(rng, cnt)
        if pile:
            if r == 0:
                return 0
            r -= 1
        for t in range(NT):
            if s[O_DISPLAY + t] > s[O_BLOCKED + t]:
                if r == 0:
                    return OFF_TAKE + t
                r -= 1
        return -1
    own = _own_mask(s, b)
    cnt = 1 if pile else 0
    best = 0
    best_v = 0.8 if pile else -np.inf
    for t in range(NT):
        if s[O_DISPLAY + t] > s[O_BLOCKED + t]:
            cnt += 1
            if t == CLOVER:
                v = 3.0
            elif (own >> t) & 1:
                v = 2.0
            elif s[b + S_RACK + t] > 0:
                v = 1.5
            else:
                v = 0.3
            if v > best_v:
                best = OFF_TAKE + t
                best_v = v
    if cnt == 1:
        randbelow(rng, 1)  # one legal action: the step path draws from its one-entry list
    return best


@noref_inline
def _chance_code(s: np.ndarray, rng: np.ndarray) -> int:
    """:func:`sample_chance`, inlined: the first player (DS-2.3) or a tile of the pile in
    proportion to its count (DS-2.2 deal, DS-3.1 flip, DS-4.1 face-down draw), the counts
    scanned in tile order after one ``randbelow`` over the pile."""
    ph = s[H_PHASE]
    if ph == PH_FIRST:
        return CH_FIRST + _rand(rng, s[H_N])
    base = 0 if ph == PH_DEAL else (CH_FLIP if ph == PH_FLIP else CH_PILE)
    total = 0
    for t in range(NT):
        total += s[O_PILE + t]
    r = _rand(rng, total)
    for t in range(NT):
        r -= s[O_PILE + t]
        if r < 0:
            return base + t
    return -1


@noref
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
    """:func:`playout` without the legal-action array: every decision is drawn from counts per
    kind (a random seat) or scored over its best candidates (the greedy), chance as
    :func:`sample_chance`, with the same generator calls in the same order, so that the same
    seed plays the same game (same position, generator state and steps;
    ``tests/fast/test_fast_playout_double_seven.py``). Seat ``p`` moves by ``policies[p]``
    (1 greedy, else random); stop at the end of the game (one round: ``horizon_round`` changes
    nothing) or after ``max_steps`` steps (``-1``: no limit). ``legal``: scratch (``SCRATCH``
    entries at least; :func:`max_actions` does). Returns the
    steps taken (actions and chance outcomes)."""
    steps = 0
    while steps != max_steps:
        ph = s[H_PHASE]
        if ph <= PH_FLIP or s[H_AWAIT] == 1:
            apply_chance(s, _chance_code(s, rng), buf)
        elif ph == PH_OVER:
            break
        else:
            greedy = policies[s[H_TURN]] == 1
            if ph == PH_ACT:
                if greedy:
                    a = _act_greedy(s)
                    if a < 0:  # Pass alone: the step path draws from its one-entry list
                        randbelow(rng, 1)
                        a = 3
                else:
                    a = _act_random(s, rng, legal)
            else:
                a = _small_choice(s, rng, greedy)
            if a < 0:
                break  # no action found: a bug, which the twin tests then see (no endless loop)
            apply_action(s, a, buf)
        steps += 1
    return steps


@njit_once(cache=True, **NO_WRAPPERS)
def _row_results(s: np.ndarray, i: int, scores_out: np.ndarray, wins_out: np.ndarray) -> None:
    """Row ``i`` of the play_rows outputs from the ended playout ``s``: each seat's DS-8.1
    score, and its DS-8.2 winner flag where the game is over."""
    terminal = current_player(s) == TERMINAL
    for p in range(s[H_N]):
        scores_out[i, p] = _score(s, p)
        wins_out[i, p] = 1 if terminal and is_winner(s, p) else 0


@njit_once(cache=True)
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
    legal = np.zeros(SCRATCH, dtype=np.int64)  # playout_fast's scratch, no legal list
    buf = np.zeros(BUF, dtype=np.int64)
    s = start.copy()
    for i in range(rngs.shape[0]):
        copy_into(s, start)
        lengths_out[i] = playout_fast(
            s, rngs[i], policies[i], horizon_round, max_steps, params, legal, buf
        )
        _row_results(s, i, scores_out, wins_out)


@njit_once(cache=True)
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
    legal = np.zeros(LEGAL_BUF, dtype=np.int64)
    buf = np.zeros(BUF, dtype=np.int64)
    s = start.copy()
    for i in range(rngs.shape[0]):
        copy_into(s, start)
        lengths_out[i] = playout(
            s, rngs[i], policies[i], horizon_round, max_steps, params, legal, buf
        )
        _row_results(s, i, scores_out, wins_out)


def greedy_params(agent_params: Mapping[str, str]) -> np.ndarray:
    """The greedy bot takes no parameters."""
    if agent_params:
        raise ValueError(f"greedy takes no parameters, got {', '.join(sorted(agent_params))}")
    return np.zeros(1)


def chance_code(action: Any) -> int:
    """``deal t`` → ``t``, ``flip t`` → ``16+t``, ``pile t`` → ``32+t``, ``first s`` → ``64+s``."""
    if isinstance(action, A.Deal):
        return int(action.tile)
    if isinstance(action, A.Flip):
        return CH_FLIP + int(action.tile)
    if isinstance(action, A.PileDraw):
        return CH_PILE + int(action.tile)
    if isinstance(action, A.FirstPlayer):
        return CH_FIRST + int(action.seat)
    raise ValueError(f"{action} is not a Double Seven chance outcome")


def code_to_chance(code: int) -> Any:
    """Inverse of :func:`chance_code`."""
    if code >= CH_FIRST:
        return A.FirstPlayer(code - CH_FIRST)
    if code >= CH_PILE:
        return A.PILE[code - CH_PILE]
    if code >= CH_FLIP:
        return A.FLIP[code - CH_FLIP]
    return A.DEAL[code]


def field_name(i: int, n: int) -> str:
    """What index ``i`` of the encoding holds (for failure messages)."""
    heads = [
        "players",
        "rainbow",
        "two_for_one",
        "two_families",
        "phase",
        "turn",
        "dealt",
        "draws_left",
        "await_pile",
        "rainbow_used",
        "t41_used",
        "sevens_left",
        "holder77",
        "trigger",
        "given_count",
        "empty_rack_clears",
    ]
    if i < len(heads):
        return heads[i]
    for off, name in ((O_BLOCKED, "blocked"), (O_PILE, "pile"), (O_DISPLAY, "display")):
        if off <= i < off + NT:
            return f"{name}[{i - off}]"
    if O_REMOVED <= i < O_GIVEN:
        return f"removed[{i - O_REMOVED}]"
    if O_GIVEN <= i < O_SEATS:
        return f"given[{i - O_GIVEN}]"
    p, j = divmod(i - O_SEATS, SEAT)
    if j < S_KNOWN:
        return f"seat[{p}].rack[{j}]"
    if j < S_SEVENS:
        return f"seat[{p}].known[{j - S_KNOWN}]"
    if j == S_SEVENS:
        return f"seat[{p}].sevens"
    if j == S_NFAM:
        return f"seat[{p}].families_count"
    return f"seat[{p}].families[{j - S_FAMS}]"
