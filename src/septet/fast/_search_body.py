"""The compiled search's code, compiled once per game (see :mod:`septet.fast.search`).

This module is not used as it is: each of ``search_flip7``, ``search_double_seven`` and
``search_seven_shot`` binds ``K`` (its game's kernel module), ``G`` (the game's id) and
``ROLLOUT`` (the kernel's playout) and runs this source in its own namespace, so that numba
compiles, and caches under that module's name, only that game's code: a Flip 7 user never
compiles Seven Shot. The ``g`` arguments are kept for the callers' signatures and not read.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from septet.fast import double_seven as DS
from septet.fast import seven_shot as SS
from septet.fast._nb import njit
from septet.fast.rng import copy_into, randbelow, random01

# Bound by the per-game module after it runs this source:
K: Any = None  # the game's kernel module
G: int = -1  # the game's id (GAME_IDS)
ROLLOUT: Any = None  # the kernel's playout
EMPTY = -1

# ----- the game's kernel (``K``, bound by the per-game module) -------------------------------


@njit(cache=True, inline="always")
def _current(g: int, s: np.ndarray) -> int:
    return K.current_player(s)


@njit(cache=True, inline="always")
def _round(g: int, s: np.ndarray) -> int:
    return K.round_index(s)


@njit(cache=True, inline="always")
def _legal(g: int, s: np.ndarray, out: np.ndarray) -> int:
    return K.legal_actions(s, out)


@njit(cache=True, inline="always")
def _apply(g: int, s: np.ndarray, a: int, buf: np.ndarray) -> None:
    K.apply_action(s, a, buf)


@njit(cache=True, inline="always")
def _sample(g: int, s: np.ndarray, rng: np.ndarray) -> int:
    return K.sample_chance(s, rng)


@njit(cache=True, inline="always")
def _apply_chance(g: int, s: np.ndarray, code: int, buf: np.ndarray) -> None:
    K.apply_chance(s, code, buf)


@njit(cache=True, inline="always")
def _greedy(g: int, s: np.ndarray, legal: np.ndarray, cnt: int, params: np.ndarray) -> int:
    return K.greedy_action(s, legal, cnt, params)


@njit(cache=True, inline="always")
def _scores(g: int, s: np.ndarray, out: np.ndarray) -> None:
    K.scores(s, out)


@njit(cache=True, inline="always")
def _is_winner(g: int, s: np.ndarray, p: int) -> bool:
    return K.is_winner(s, p)


@njit(cache=True, inline="always")
def _playout(
    g: int,
    s: np.ndarray,
    rng: np.ndarray,
    policies: np.ndarray,
    horizon_round: bool,
    max_steps: int,
    params: np.ndarray,
    legal: np.ndarray,
    buf: np.ndarray,
) -> int:
    return ROLLOUT(s, rng, policies, horizon_round, max_steps, params, legal, buf)


@njit(cache=True)
def observe(g: int, s: np.ndarray, code: int, seat: int) -> int:
    """What ``seat`` observes of chance outcome ``code`` about to be applied to ``s``: the
    outcome itself (``code + 1``) when the seat sees it, else ``0`` (every hidden outcome looks
    the same: another seat's face-down draw or dealt card)."""
    if G == 1:
        if code < DS.CH_FLIP:  # a setup tile, seen by its receiver only (DS-2.2)
            return code + 1 if s[DS.H_DEALT] // 3 == seat else 0
        if DS.CH_PILE <= code < DS.CH_FIRST:  # a face-down draw, seen by the drawer (DS-4.1)
            return code + 1 if s[DS.H_TURN] == seat else 0
        return code + 1
    if G == 2 and code < SS.CH_FIRST:
        pos = s[SS.H_DEALPOS]
        if pos < SS.HAND_CARDS and pos % s[SS.H_N] != seat:
            return 0  # SS-2.2: a card dealt to another seat
        return code + 1
    return code + 1


# ----- determinization -----------------------------------------------------------------------


@njit(cache=True)
def _shuffle(a: np.ndarray, k: int, rng: np.ndarray) -> None:
    for i in range(k - 1, 0, -1):
        j = randbelow(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True)
def _determinize_ds(root: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray) -> None:
    """``DoubleSeven.sample_state``: the unseen tiles (other racks beyond their known tiles,
    the pile) shuffled and dealt back into the same slots."""
    copy_into(out, root)
    n = root[DS.H_N]
    bag = np.zeros(96, dtype=np.int64)
    nb = 0
    for p in range(n):
        if p == seat:
            continue
        b = DS.O_SEATS + p * DS.SEAT
        for t in range(DS.NT):
            extra = root[b + DS.S_RACK + t] - root[b + DS.S_KNOWN + t]
            for _ in range(extra):
                bag[nb] = t
                nb += 1
            out[b + DS.S_RACK + t] = root[b + DS.S_KNOWN + t]
    for t in range(DS.NT):
        for _ in range(root[DS.O_PILE + t]):
            bag[nb] = t
            nb += 1
        out[DS.O_PILE + t] = 0
    _shuffle(bag, nb, rng)
    i = 0
    for p in range(n):
        if p == seat:
            continue
        b = DS.O_SEATS + p * DS.SEAT
        slots = 0
        for t in range(DS.NT):
            slots += root[b + DS.S_RACK + t] - root[b + DS.S_KNOWN + t]
        for _ in range(slots):
            out[b + DS.S_RACK + bag[i]] += 1
            i += 1
    while i < nb:
        out[DS.O_PILE + bag[i]] += 1
        i += 1


@njit(cache=True)
def _feasible(counts: np.ndarray, cap: np.ndarray, m: int) -> bool:
    """Hall's condition: the cards only seat subset ``t`` may hold fit in ``t``'s room."""
    full = (1 << m) - 1
    for t in range(1, full):
        room = 0
        for i in range(m):
            if (t >> i) & 1:
                room += cap[i]
        need = 0
        for p in range(1, full + 1):
            if p & ~t == 0:
                need += counts[p]
        if need > room:
            return False
    return True


@njit(cache=True)
def _constrained_deal(
    pool: np.ndarray,
    k: int,
    need: np.ndarray,
    voids: np.ndarray,
    m: int,
    rng: np.ndarray,
    out: np.ndarray,
) -> None:
    """Deal ``pool[:k]`` to ``m`` seats, ``need[i]`` each, never a card of a suit seat ``i`` is
    void in (``voids[i]``, a suit mask): uniform by rejection, with the engine's sequential
    fallback (``seven_shot.determinize.constrained_deal``) after 2,000 rejections."""
    any_void = False
    for i in range(m):
        if voids[i]:
            any_void = True
    for _attempt in range(2000):
        _shuffle(pool, k, rng)
        pos = 0
        ok = True
        for i in range(m):
            out[i] = 0
            for _ in range(need[i]):
                c = pool[pos]
                pos += 1
                if (voids[i] >> SS.SUIT_OF[c]) & 1:
                    ok = False
                out[i] |= 1 << c
        if ok or not any_void:
            return
    # Sequential placement keeping a complete deal possible, weighted by the room left.
    pattern_of_suit = np.zeros(7, dtype=np.int64)
    for su in range(7):
        p = 0
        for i in range(m):
            if not (voids[i] >> su) & 1:
                p |= 1 << i
        pattern_of_suit[su] = p
    counts = np.zeros(8, dtype=np.int64)
    for j in range(k):
        counts[pattern_of_suit[SS.SUIT_OF[pool[j]]]] += 1
    cap = need.copy()
    for i in range(m):
        out[i] = 0
    options = np.zeros(3, dtype=np.int64)
    weights = np.zeros(3, dtype=np.int64)
    for j in range(k):
        c = pool[j]
        p = pattern_of_suit[SS.SUIT_OF[c]]
        counts[p] -= 1
        no = 0
        total = 0
        for i in range(m):
            if (p >> i) & 1 and cap[i] > 0:
                cap[i] -= 1
                if _feasible(counts, cap, m):
                    options[no] = i
                    weights[no] = cap[i] + 1
                    total += cap[i] + 1
                    no += 1
                cap[i] += 1
        choice = options[no - 1]
        if no > 1:
            r = random01(rng) * total
            for x in range(no):
                if r < weights[x]:
                    choice = options[x]
                    break
                r -= weights[x]
        cap[choice] -= 1
        out[choice] |= 1 << c


@njit(cache=True)
def _determinize_ss(root: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray) -> None:
    """``seven_shot.determinize``: the other hands resampled from what ``seat`` cannot see."""
    copy_into(out, root)
    n = root[SS.H_N]
    ph = root[SS.H_PHASE]
    if ph == SS.PH_OVER:
        return
    pool = np.zeros(64, dtype=np.int64)
    k = 0
    others = np.zeros(3, dtype=np.int64)
    m = 0
    for p in range(n):
        if p != seat:
            others[m] = p
            m += 1
    if ph == SS.PH_DEAL or ph == SS.PH_PASS:
        mask = 0
        for i in range(m):
            b = SS.O_SEATS + others[i] * SS.SEAT
            mask |= root[b + SS.S_HAND] | root[b + SS.S_PASSSEL]
        if ph == SS.PH_DEAL:
            mask |= root[SS.H_UNDEALT]
        while mask:
            low = mask & -mask
            pool[k] = SS.lowbit_index(low)
            k += 1
            mask ^= low
        _shuffle(pool, k, rng)
        pos = 0
        for i in range(m):
            b = SS.O_SEATS + others[i] * SS.SEAT
            size = SS.popcount(root[b + SS.S_HAND] | root[b + SS.S_PASSSEL])
            chosen = SS.popcount(root[b + SS.S_PASSSEL])
            hand = 0
            sel = 0
            # the pool is in random order: its first cards of the seat's share are the chosen
            for j in range(size):
                c = pool[pos + j]
                if j < chosen:
                    sel |= 1 << c
                else:
                    hand |= 1 << c
            pos += size
            out[b + SS.S_HAND] = hand
            out[b + SS.S_PASSSEL] = sel
        if ph == SS.PH_DEAL:
            und = 0
            while pos < k:
                und |= 1 << pool[pos]
                pos += 1
            out[SS.H_UNDEALT] = und
        return
    # After the pass: the cards this seat passed are known to be in the receiver's hand.
    target = SS.pass_target(root, seat)
    need = np.zeros(3, dtype=np.int64)
    voids = np.zeros(3, dtype=np.int64)
    known = np.zeros(3, dtype=np.int64)
    mask = 0
    passed = root[SS.O_SEATS + seat * SS.SEAT + SS.S_PASSED]
    for i in range(m):
        b = SS.O_SEATS + others[i] * SS.SEAT
        hand = root[b + SS.S_HAND]
        if others[i] == target:
            known[i] = passed & hand
        mask |= hand & ~known[i]
        need[i] = SS.popcount(hand) - SS.popcount(known[i])
        voids[i] = root[b + SS.S_VOIDS]
    while mask:
        low = mask & -mask
        pool[k] = SS.lowbit_index(low)
        k += 1
        mask ^= low
    dealt = np.zeros(3, dtype=np.int64)
    _constrained_deal(pool, k, need, voids, m, rng, dealt)
    for i in range(m):
        out[SS.O_SEATS + others[i] * SS.SEAT + SS.S_HAND] = known[i] | dealt[i]


@njit(cache=True)
def determinize(g: int, root: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` a state drawn from ``seat``'s information set of ``root`` (see the
    module docstring)."""
    if G == 1:
        _determinize_ds(root, seat, rng, out)
    elif G == 2:
        _determinize_ss(root, seat, rng, out)
    else:
        copy_into(out, root)


# ----- the tree ------------------------------------------------------------------------------


@njit(cache=True)
def _slot(hk: np.ndarray, parent: int, key: int) -> int:
    comp = parent * 4294967296 + key + 2147483648
    mask = hk.shape[0] - 1
    h = (comp * -7046029254386353131) & mask
    while True:
        x = hk[h]
        if x == comp or x == EMPTY:
            return h
        h = (h + 1) & mask


@njit(cache=True)
def _child(hk: np.ndarray, hv: np.ndarray, parent: int, key: int) -> int:
    h = _slot(hk, parent, key)
    return hv[h] if hk[h] != EMPTY else -1


@njit(cache=True)
def _new_child(
    hk: np.ndarray,
    hv: np.ndarray,
    meta: np.ndarray,
    node_player: np.ndarray,
    node_visits: np.ndarray,
    node_avail: np.ndarray,
    node_reward: np.ndarray,
    node_parent: np.ndarray,
    node_key: np.ndarray,
    parent: int,
    key: int,
    player: int,
) -> int:
    i = meta[0]
    meta[0] = i + 1
    node_player[i] = player
    node_visits[i] = 0
    node_avail[i] = 1
    node_reward[i] = 0.0
    node_parent[i] = parent
    node_key[i] = key
    h = _slot(hk, parent, key)
    hk[h] = parent * 4294967296 + key + 2147483648
    hv[h] = i
    return i


@njit(cache=True, nogil=True)
def iterate(
    g: int,
    root: np.ndarray,
    seat: int,
    iterations: int,
    rng: np.ndarray,
    hk: np.ndarray,
    hv: np.ndarray,
    meta: np.ndarray,
    node_player: np.ndarray,
    node_visits: np.ndarray,
    node_avail: np.ndarray,
    node_reward: np.ndarray,
    node_parent: np.ndarray,
    node_key: np.ndarray,
    fparams: np.ndarray,
    iparams: np.ndarray,
    gparams: np.ndarray,
    pool: np.ndarray,
) -> int:
    """Run up to ``iterations`` ISMCTS iterations from the encoded ``root`` for ``seat``.

    ``fparams`` = (c, scale, bias); ``iparams`` = (chance mode 0 observed / 1 outcome / 2 open,
    rollout 0 random / 1 greedy, round horizon 0/1, depth or -1, tree limit or -1, utility 0
    win / 1 score, greedy's root move or -1); ``gparams`` the greedy's parameters; ``pool``
    shape ``(k, len(root))``: with ``k > 0`` each iteration's determinization is a row drawn
    uniformly from it (states of ``seat``'s information set drawn by the caller, e.g. resampled
    by a model of the others' play) instead of :func:`determinize`'s uniform draw. Stops early
    (returning the iterations done) when the node arrays are nearly full."""
    c = fparams[0]
    scale = fparams[1]
    bias = fparams[2]
    chance_mode = iparams[0]
    rollout = iparams[1]
    horizon = iparams[2] == 1
    depth = iparams[3]
    tree_limit = iparams[4]
    utility = iparams[5]
    prior = iparams[6]
    n = root[0]
    cap = node_player.shape[0]
    s = root.copy()
    legal = np.zeros(8192, dtype=np.int64)
    buf = np.zeros(4096, dtype=np.int64)
    path = np.zeros(4096, dtype=np.int64)
    untried = np.zeros(8192, dtype=np.int64)
    sc = np.zeros(n, dtype=np.int64)
    ret = np.zeros(n)
    cut = np.zeros(n)
    policies = np.full(n, rollout, dtype=np.int64)
    done = 0
    while done < iterations:
        if meta[0] + 512 >= cap:
            break
        if pool.shape[0] > 0:
            copy_into(s, pool[randbelow(rng, pool.shape[0])])
        else:
            determinize(g, root, seat, rng, s)
        round0 = _round(g, s)
        node = 0
        plen = 1
        path[0] = 0
        decisions = 0
        while True:
            if decisions == tree_limit or plen >= path.shape[0] - 1:
                break
            if horizon and _round(g, s) != round0:
                break
            player = _current(g, s)
            if player == -1:
                code = _sample(g, s, rng)
                key = -1
                if chance_mode == 0:
                    key = -1 - observe(g, s, code, seat)
                elif chance_mode == 1:
                    key = -2 - code
                _apply_chance(g, s, code, buf)
                if chance_mode == 2:
                    continue
                ch = _child(hk, hv, node, key)
                if ch < 0:
                    ch = _new_child(
                        hk,
                        hv,
                        meta,
                        node_player,
                        node_visits,
                        node_avail,
                        node_reward,
                        node_parent,
                        node_key,
                        node,
                        key,
                        -1,
                    )
                node = ch
                path[plen] = node
                plen += 1
                continue
            if player < 0:
                break
            decisions += 1
            cnt = _legal(g, s, legal)
            nu = 0
            for i in range(cnt):
                if _child(hk, hv, node, legal[i]) < 0:
                    untried[nu] = legal[i]
                    nu += 1
            if nu > 0:
                action = -1
                if node == 0 and prior >= 0:
                    for i in range(nu):
                        if untried[i] == prior:
                            action = prior
                if action < 0:
                    action = untried[randbelow(rng, nu)]
                ch = _new_child(
                    hk,
                    hv,
                    meta,
                    node_player,
                    node_visits,
                    node_avail,
                    node_reward,
                    node_parent,
                    node_key,
                    node,
                    action,
                    player,
                )
                _apply(g, s, action, buf)
                path[plen] = ch
                plen += 1
                break
            best_value = -1.0
            best_child = -1
            best_action = legal[0]
            for i in range(cnt):
                ch = _child(hk, hv, node, legal[i])
                node_avail[ch] += 1
                v = node_visits[ch]
                value = node_reward[ch] / v + c * math.sqrt(math.log(node_avail[ch]) / v)
                if node == 0 and legal[i] == prior:
                    value += bias / (v + 1)
                if value > best_value or best_child < 0:
                    best_value = value
                    best_child = ch
                    best_action = legal[i]
            node = best_child
            _apply(g, s, best_action, buf)
            path[plen] = node
            plen += 1
        terminal = _current(g, s) == -4
        if not terminal and not (horizon and _round(g, s) != round0):
            _playout(g, s, rng, policies, horizon, depth, gparams, legal, buf)
            terminal = _current(g, s) == -4
        if (not terminal) or utility == 1:
            _scores(g, s, sc)
            mean = 0.0
            for p in range(n):
                mean += sc[p]
            mean /= n
            for p in range(n):
                x = (sc[p] - mean) / scale
                x = max(-60.0, min(60.0, x))
                cut[p] = 1.0 / (1.0 + math.exp(-x))
        for p in range(n):
            if not terminal:
                ret[p] = cut[p]
            else:
                w = 1.0 if _is_winner(g, s, p) else 0.0
                ret[p] = w if utility == 0 else (w + cut[p]) / 2
        for i in range(plen):
            x = path[i]
            node_visits[x] += 1
            if node_player[x] >= 0:
                node_reward[x] += ret[node_player[x]]
        done += 1
    return done


@njit(cache=True)
def _rehash(hk: np.ndarray, hv: np.ndarray, parent: np.ndarray, key: np.ndarray, k: int) -> None:
    for i in range(1, k):
        h = _slot(hk, parent[i], key[i])
        hk[h] = parent[i] * 4294967296 + key[i] + 2147483648
        hv[h] = i
