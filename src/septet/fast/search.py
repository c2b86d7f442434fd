"""SO-ISMCTS compiled: the search of :mod:`septet.bots.ismcts` run wholly in the kernels.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
Each iteration, as in the Python search:

1. **Determinization** (:func:`determinize`): the searching seat's information set is resampled
   from the encoded root, with only what that seat may know: in Flip 7 nothing is hidden (the
   deck is a multiset, the draws are chance nodes); in Double Seven the other racks beyond their
   known tiles and the pile are redealt from the unseen tiles, uniformly (as
   ``DoubleSeven.sample_state``); in Seven Shot the other hands (and, while dealing or passing,
   the undealt cards and the others' pass choices) are redealt uniformly among the deals that
   respect the hand sizes, the cards the seat passed and every void shown (rejection sampling,
   exact; after 2,000 rejections a sequential placement that keeps a complete deal possible,
   as the engine's own fallback). The passes between two other seats are not resampled: play
   never reads them.
2. **Selection** by UCB1 with availability counts over the actions legal in this
   determinization, progressive bias towards greedy's root move (``bias``); chance nodes sampled
   exactly and keyed by what the seat observes of the outcome (:func:`observe`: an opponent's
   face-down draw or dealt card is one key, anything the seat sees is its own key), by the
   outcome (``chance=outcome``) or not at all (``chance=open``).
3. **Expansion** of one untried action; ``tree`` limits the player decisions in the tree and the
   round horizon stops the walk when the round in hand is scored.
4. **Rollout** in the kernel with random or greedy moves, to the end of the game, of the round,
   or for ``depth`` steps.
5. **Evaluation** and **backpropagation** as in :mod:`septet.bots.ismcts` (``returns``, or
   ``cut_utilities`` of the scores with ``scale`` for a rollout cut short, or their mean with
   ``utility=score``).

The tree lives in flat arrays (:class:`Tree`): per node the seat that chose the edge into it
(``-1`` for chance), visits, availability and total reward; children are found through an
open-addressing hash of ``(parent, key)``, where a key is a player action id (``>= 0``) or
``-1 - observation`` for a chance child.

The three games share one compiled search: the game is an integer (``GAME_IDS``) and each step
dispatches to that game's kernel, so the search is compiled (and cached) once.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from septet.fast import double_seven as DS
from septet.fast import flip7 as F7
from septet.fast import seven_shot as SS
from septet.fast.rng import make_rng, randbelow, random01

GAME_IDS = {"flip7": 0, "double-seven": 1, "seven-shot": 2}
EMPTY = -1

# ----- dispatch to a game's kernel ------------------------------------------------------------


@njit(cache=True)
def _current(g: int, s: np.ndarray) -> int:
    if g == 0:
        return F7.current_player(s)
    if g == 1:
        return DS.current_player(s)
    return SS.current_player(s)


@njit(cache=True)
def _round(g: int, s: np.ndarray) -> int:
    if g == 0:
        return F7.round_index(s)
    if g == 1:
        return DS.round_index(s)
    return SS.round_index(s)


@njit(cache=True)
def _legal(g: int, s: np.ndarray, out: np.ndarray) -> int:
    if g == 0:
        return F7.legal_actions(s, out)
    if g == 1:
        return DS.legal_actions(s, out)
    return SS.legal_actions(s, out)


@njit(cache=True)
def _apply(g: int, s: np.ndarray, a: int, buf: np.ndarray) -> None:
    if g == 0:
        F7.apply_action(s, a, buf)
    elif g == 1:
        DS.apply_action(s, a, buf)
    else:
        SS.apply_action(s, a, buf)


@njit(cache=True)
def _sample(g: int, s: np.ndarray, rng: np.ndarray) -> int:
    if g == 0:
        return F7.sample_chance(s, rng)
    if g == 1:
        return DS.sample_chance(s, rng)
    return SS.sample_chance(s, rng)


@njit(cache=True)
def _apply_chance(g: int, s: np.ndarray, code: int, buf: np.ndarray) -> None:
    if g == 0:
        F7.apply_chance(s, code, buf)
    elif g == 1:
        DS.apply_chance(s, code, buf)
    else:
        SS.apply_chance(s, code, buf)


@njit(cache=True)
def _greedy(g: int, s: np.ndarray, legal: np.ndarray, cnt: int, params: np.ndarray) -> int:
    if g == 0:
        return F7.greedy_action(s, legal, cnt, params)
    if g == 1:
        return DS.greedy_action(s, legal, cnt, params)
    return SS.greedy_action(s, legal, cnt, params)


@njit(cache=True)
def _scores(g: int, s: np.ndarray, out: np.ndarray) -> None:
    if g == 0:
        F7.scores(s, out)
    elif g == 1:
        DS.scores(s, out)
    else:
        SS.scores(s, out)


@njit(cache=True)
def _is_winner(g: int, s: np.ndarray, p: int) -> bool:
    if g == 0:
        return F7.is_winner(s, p)
    if g == 1:
        return DS.is_winner(s, p)
    return SS.is_winner(s, p)


@njit(cache=True)
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
    if g == 0:
        return F7.playout(s, rng, policies, horizon_round, max_steps, params, legal, buf)
    if g == 1:
        return DS.playout(s, rng, policies, horizon_round, max_steps, params, legal, buf)
    return SS.playout(s, rng, policies, horizon_round, max_steps, params, legal, buf)


@njit(cache=True)
def observe(g: int, s: np.ndarray, code: int, seat: int) -> int:
    """What ``seat`` observes of chance outcome ``code`` about to be applied to ``s``: the
    outcome itself (``code + 1``) when the seat sees it, else ``0`` (every hidden outcome looks
    the same: another seat's face-down draw or dealt card)."""
    if g == 1:
        if code < DS.CH_FLIP:  # a setup tile, seen by its receiver only (DS-2.2)
            return code + 1 if s[DS.H_DEALT] // 3 == seat else 0
        if DS.CH_PILE <= code < DS.CH_FIRST:  # a face-down draw, seen by the drawer (DS-4.1)
            return code + 1 if s[DS.H_TURN] == seat else 0
        return code + 1
    if g == 2 and code < SS.CH_FIRST:
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
    out[:] = root
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
    out[:] = root
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
    if g == 1:
        _determinize_ds(root, seat, rng, out)
    elif g == 2:
        _determinize_ss(root, seat, rng, out)
    else:
        out[:] = root


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


@njit(cache=True)
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
) -> int:
    """Run up to ``iterations`` ISMCTS iterations from the encoded ``root`` for ``seat``.

    ``fparams`` = (c, scale, bias); ``iparams`` = (chance mode 0 observed / 1 outcome / 2 open,
    rollout 0 random / 1 greedy, round horizon 0/1, depth or -1, tree limit or -1, utility 0
    win / 1 score, greedy's root move or -1); ``gparams`` the greedy's parameters. Stops early
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


# ----- Python side --------------------------------------------------------------------------


@dataclass
class Tree:
    """The search tree in flat arrays (see the module docstring); node 0 is the root."""

    capacity: int
    hk: np.ndarray = field(init=False)
    hv: np.ndarray = field(init=False)
    meta: np.ndarray = field(init=False)
    player: np.ndarray = field(init=False)
    visits: np.ndarray = field(init=False)
    avail: np.ndarray = field(init=False)
    reward: np.ndarray = field(init=False)
    parent: np.ndarray = field(init=False)
    key: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        cap = self.capacity
        hcap = 1 << max(10, (2 * cap - 1).bit_length())
        self.hk = np.full(hcap, EMPTY, dtype=np.int64)
        self.hv = np.zeros(hcap, dtype=np.int64)
        self.meta = np.zeros(2, dtype=np.int64)
        self.player = np.zeros(cap, dtype=np.int64)
        self.visits = np.zeros(cap, dtype=np.int64)
        self.avail = np.zeros(cap, dtype=np.int64)
        self.reward = np.zeros(cap)
        self.parent = np.full(cap, -1, dtype=np.int64)
        self.key = np.zeros(cap, dtype=np.int64)
        self.meta[0] = 1
        self.player[0] = -1
        self.avail[0] = 1

    @property
    def size(self) -> int:
        """Nodes in use."""
        return int(self.meta[0])

    def grown(self) -> Tree:
        """A copy with twice the capacity (children re-hashed)."""
        new = Tree(self.capacity * 2)
        k = self.size
        for name in ("player", "visits", "avail", "reward", "parent", "key"):
            getattr(new, name)[:k] = getattr(self, name)[:k]
        new.meta[0] = k
        _rehash(new.hk, new.hv, new.parent, new.key, k)
        return new

    def children(self, node: int) -> dict[int, int]:
        """``key -> child index`` of ``node`` (keys: action ids, or ``-1 - observation``)."""
        k = self.size
        idx = np.nonzero(self.parent[:k] == node)[0]
        return {int(self.key[i]): int(i) for i in idx if i != 0}


@njit(cache=True)
def _rehash(hk: np.ndarray, hv: np.ndarray, parent: np.ndarray, key: np.ndarray, k: int) -> None:
    for i in range(1, k):
        h = _slot(hk, parent[i], key[i])
        hk[h] = parent[i] * 4294967296 + key[i] + 2147483648
        hv[h] = i


def search(
    game_name: str,
    root: np.ndarray,
    seat: int,
    *,
    iterations: int | None,
    time_limit: float | None,
    seed: int,
    c: float,
    scale: float,
    bias: float,
    chance: str,
    rollout: str,
    horizon_round: bool,
    depth: int | None,
    tree_limit: int | None,
    utility: str,
    prior: int,
    greedy_params: np.ndarray,
    players: int,
) -> tuple[Tree, int]:
    """Run the compiled search on an encoded root (a state of ``seat``'s information set).

    Args:
        iterations / time_limit: the budget (whichever ends first; at least one iteration).
        seed: seeds the search's generator (one stream per move).
        prior: greedy's root move for the progressive bias, or -1.

    Returns:
        ``(tree, iterations done)``.
    """
    fparams = np.array([c, scale, bias])
    iparams = _int_params(chance, rollout, horizon_round, depth, tree_limit, utility, prior)
    params = (fparams, iparams, greedy_params)
    return _run_chunks(
        GAME_IDS[game_name], root, seat, make_rng(seed), params, iterations, time_limit, players
    )


def _int_params(
    chance: str,
    rollout: str,
    horizon_round: bool,
    depth: int | None,
    tree_limit: int | None,
    utility: str,
    prior: int,
) -> np.ndarray:
    """The integer settings :func:`iterate` reads, in its order (-1: no limit)."""
    return np.array(
        [
            {"observed": 0, "outcome": 1, "open": 2}[chance],
            1 if rollout == "greedy" else 0,
            1 if horizon_round else 0,
            -1 if depth is None else depth,
            -1 if tree_limit is None else tree_limit,
            1 if utility == "score" else 0,
            prior,
        ],
        dtype=np.int64,
    )


def _run_chunks(
    g: int,
    root: np.ndarray,
    seat: int,
    rng: np.ndarray,
    params: tuple[np.ndarray, np.ndarray, np.ndarray],
    iterations: int | None,
    time_limit: float | None,
    players: int,
) -> tuple[Tree, int]:
    """Call :func:`iterate` in chunks until the budget is spent, growing the tree as needed."""
    fparams, iparams, greedy_params = params
    per_iteration = players + 12
    if iterations is not None and time_limit is None:
        tree = Tree(iterations * per_iteration + 1024)
    else:
        tree = Tree(1 << 16)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    done = 0
    chunk = 16
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done > 0 and time.perf_counter() >= deadline:
            break
        want = chunk if iterations is None else min(chunk, iterations - done)
        if tree.size + want * per_iteration + 512 >= tree.capacity:
            tree = tree.grown()
        t0 = time.perf_counter()
        got = iterate(
            g,
            root,
            seat,
            want,
            rng,
            tree.hk,
            tree.hv,
            tree.meta,
            tree.player,
            tree.visits,
            tree.avail,
            tree.reward,
            tree.parent,
            tree.key,
            fparams,
            iparams,
            greedy_params,
        )
        done += got
        if got < want:
            tree = tree.grown()
        if deadline is not None:
            spent = time.perf_counter() - t0
            left = deadline - time.perf_counter()
            # chunks of about a twentieth of the time left, so the deadline is kept
            if spent > 0 and got:
                chunk = max(1, min(4096, int(got * max(left, 0.0) / 20 / spent)))
        else:
            chunk = 4096
    return tree, done


def warm_up(game: Any, num_players: int) -> None:
    """Compile the search for ``game`` now (a few iterations on a fresh game), so that the first
    real move is not charged the compile time (cached on disk after the first process)."""
    from septet.fast import kernel_for

    k = kernel_for(game)
    state = game.new_state(num_players)
    import random as _random

    r = _random.Random(0)
    while state.current_player < 0 and not state.is_terminal:
        state.apply(state.sample_chance(r))
    search(
        game.name,
        k.encode(state),
        state.current_player,
        iterations=2,
        time_limit=None,
        seed=0,
        c=0.7,
        scale=1.0,
        bias=0.0,
        chance="observed",
        rollout="greedy",
        horizon_round=False,
        depth=None,
        tree_limit=None,
        utility="win",
        prior=-1,
        greedy_params=k.params,
        players=num_players,
    )


__all__ = ["GAME_IDS", "Tree", "determinize", "iterate", "observe", "search", "warm_up"]
