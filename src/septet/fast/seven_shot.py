"""Seven Shot (3 or 4 players) as compiled kernels over an integer array.

The exact twin of :mod:`septet.games.seven_shot.state` (rules SS-1 … SS-5): the same chance
outcomes and the same actions give the same position and the same scores at every step (checked
by :func:`septet.arena.twins.check_twin`). Cards are the engine's ints ``0..48`` and sets of cards
its 49-bit masks.

Encoding (``int64[SIZE]``, built from ``state_dict()`` by :func:`encode`): a header (players,
cards passed, target, the 7s that end a deal, phase, seat to move, deal number, cards dealt, the
step at which the deal started and the steps so far (``len(history)``), the undealt cards as a
mask, the trump indicator, the first leader, the leader, the current trick's length and cards,
the winning sides as a mask), then per seat (hand, cards chosen to pass, passed, received,
played, tricks won, cards taken, voids as a suit mask) and per side (points, cards added at the
deal's end). The engine's logs (this deal's tricks, the finished deals' summaries, the previous
deal's tricks) are not encoded: play never reads them.

Actions are the game's ids (``0..48`` play a card, ``49..97`` pass one); chance outcomes are
``deal c`` → ``c`` and ``first s`` → ``64 + s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from septet.fast.bits import ctz, msb, popcnt, select_bit
from septet.fast.rng import (
    NO_WRAPPERS,
    copy_into,
    internal,
    jit,
    jit_nrt,
    njit_once,
    noref,
    noref_inline,
    randbelow,
)
from septet.fast.seven_shot_weights import GREEDY_WEIGHTS as GREEDY_TABLE
from septet.fast.seven_shot_weights import TUNED_WEIGHTS as TUNED_TABLE
from septet.games.seven_shot import cards as SC
from septet.games.seven_shot import scoring as SCORE
from septet.games.seven_shot.rules import TEAM_PLAYERS  # SS-2.1: frozen by numba

H_N, H_K, H_TARGET, H_THRESH, H_PHASE, H_CUR, H_DEALNO, H_DEALPOS = range(8)
H_DEALSTART, H_STEPS, H_UNDEALT, H_IND, H_FIRST, H_LEADER, H_TRICKLEN, H_FINALW = range(8, 16)
O_TRICK = 16
HEADER = 20
S_HAND, S_PASSSEL, S_PASSED, S_RECEIVED, S_PLAYED, S_TRICKS, S_TAKEN, S_VOIDS = range(8)
SEAT = 8
O_SEATS = HEADER
O_SIDES = O_SEATS + 4 * SEAT
SIZE = O_SIDES + 2 * 4
PH_DEAL, PH_PASS, PH_FIRST, PH_PLAY, PH_OVER = range(5)
CHANCE, TERMINAL = -1, -4
CH_FIRST = 64
NUM_CARDS = SC.NUM_CARDS
HAND_CARDS = NUM_CARDS - 1  # the indicator card is left over (SS-2.2)
ACE = SC.ACE
FULL = SC.FULL_MASK
TRICKS_TO_LOSE = SCORE.TRICKS_TO_LOSE
TRICK_POINTS_3P = SCORE.THREE_PLAYER_TRICK_POINTS
SEVEN_MASK = SC.SEVEN_MASK
SUIT_OF = np.array(SC.SUIT_OF, dtype=np.int64)
RANK_OF = np.array(SC.RANK_OF, dtype=np.int64)
SUIT_MASK = np.array(SC.SUIT_MASK, dtype=np.int64)
SEVEN_OF = np.array(SC.SEVENS, dtype=np.int64)  # each suit's 7
BUF = 8
LEGAL_BUF = max(NUM_CARDS, 8)


def max_actions(num_players: int) -> int:
    """An upper bound on the legal actions at one node."""
    return NUM_CARDS


def encode(state: Any) -> np.ndarray:
    """The kernel array of a :class:`~septet.games.seven_shot.state.SevenShotState`, from its
    ``state_dict()`` (the stable format), its game's options and ``len(history)``."""
    return encode_dict(state.game, state.num_players, state.state_dict(), len(state.history))


def encode_dict(game: Any, n: int, d: Mapping[str, Any], steps: int) -> np.ndarray:
    """:func:`encode` from a ``state_dict()`` of ``game`` with ``n`` seats after ``steps``."""
    mask = SC.mask_from_names
    s = np.zeros(SIZE, dtype=np.int64)
    s[H_N] = n
    s[H_K] = int(game.options.pass_cards)
    s[H_TARGET] = int(game.options.target)
    s[H_THRESH] = SCORE.threshold(2 if n == TEAM_PLAYERS else n)  # SS-4.1, SS-5.3
    s[H_PHASE] = ("deal", "pass", "first_leader", "play", "over").index(d["phase"])
    s[H_CUR] = int(d["current"])
    s[H_DEALNO] = int(d["deal_number"])
    s[H_DEALPOS] = int(d["deal_pos"])
    s[H_DEALSTART] = int(d["deal_start"])
    s[H_STEPS] = steps
    s[H_UNDEALT] = mask(d["undealt"])
    s[H_IND] = -1 if d["indicator"] is None else SC.parse_card(d["indicator"])
    s[H_FIRST] = int(d["first_leader"])
    s[H_LEADER] = int(d["leader"])
    trick = [SC.parse_card(c) for c in d["trick"]]
    s[H_TRICKLEN] = len(trick)
    for i, c in enumerate(trick):
        s[O_TRICK + i] = c
    w = 0
    for side in d["winners"]:
        w |= 1 << int(side)
    s[H_FINALW] = w
    for p in range(n):
        b = O_SEATS + p * SEAT
        s[b + S_HAND] = mask(d["hands"][p])
        s[b + S_PASSSEL] = mask(d["pass_sel"][p])
        s[b + S_PASSED] = mask(d["passed"][p])
        s[b + S_RECEIVED] = mask(d["received"][p])
        s[b + S_PLAYED] = mask(d["played"][p])
        s[b + S_TRICKS] = int(d["tricks_won"][p])
        s[b + S_TAKEN] = mask(d["taken"][p])
        s[b + S_VOIDS] = int(d["voids"][p])
    for side, pts in enumerate(d["points"]):
        s[O_SIDES + 2 * side] = int(pts)
        s[O_SIDES + 2 * side + 1] = mask(d["bonus"][side])
    return s


@njit_once(cache=True)
def canonical(s: np.ndarray) -> np.ndarray:
    """A copy with the unused trick slots cleared (as :func:`encode` leaves them)."""
    c = s.copy()
    for i in range(c[H_TRICKLEN], 4):
        c[O_TRICK + i] = 0
    return c


# ----- helpers --------------------------------------------------------------------------------


popcount = popcnt
"""Bits set in a non-negative int (:func:`septet.fast.bits.popcnt`)."""
lowbit_index = ctz
"""Index of the lowest set bit of ``x > 0`` (:func:`septet.fast.bits.ctz`)."""


@njit_once(cache=True, inline="always")
def _sb(p: int) -> int:
    return O_SEATS + p * SEAT


@njit_once(cache=True, inline="always")
def side_of(s: np.ndarray, p: int) -> int:
    """The side of seat ``p``: its team (4 players, partners opposite, SS-2.1) or itself."""
    return p % 2 if s[H_N] == TEAM_PLAYERS else p


@njit_once(cache=True, inline="always")
def num_sides(s: np.ndarray) -> int:
    return 2 if s[H_N] == TEAM_PLAYERS else 3


@njit_once(cache=True, inline="always")
def pass_target(s: np.ndarray, p: int) -> int:
    """The partner (SS-2.3) or the left neighbour (SS-5.2)."""
    n = s[H_N]
    return (p + 2) % TEAM_PLAYERS if n == TEAM_PLAYERS else (p + 1) % n


@njit_once(cache=True, inline="always")
def side_taken(s: np.ndarray, side: int) -> int:
    m = 0
    for p in range(s[H_N]):
        if side_of(s, p) == side:
            m |= s[_sb(p) + S_TAKEN]
    return m


@njit_once(cache=True, inline="always")
def side_tricks(s: np.ndarray, side: int) -> int:
    t = 0
    for p in range(s[H_N]):
        if side_of(s, p) == side:
            t += s[_sb(p) + S_TRICKS]
    return t


@njit_once(cache=True, inline="always")
def side_sevens(s: np.ndarray, side: int) -> int:
    """7s taken by a side this deal, cards added at the deal's end included."""
    return popcount((s[O_SIDES + 2 * side + 1] | side_taken(s, side)) & SEVEN_MASK)


# ----- the engine -----------------------------------------------------------------------------


@njit_once(cache=True, **NO_WRAPPERS)
def _reset_deal(s: np.ndarray) -> None:
    s[H_PHASE] = PH_DEAL
    s[H_CUR] = CHANCE
    s[H_DEALPOS] = 0
    s[H_UNDEALT] = FULL
    s[H_IND] = -1
    s[H_LEADER] = -1
    s[H_TRICKLEN] = 0
    for i in range(4):
        s[O_TRICK + i] = 0
    for p in range(s[H_N]):
        b = _sb(p)
        for j in range(SEAT):
            s[b + j] = 0
    for side in range(num_sides(s)):
        s[O_SIDES + 2 * side + 1] = 0


@njit_once(cache=True, **NO_WRAPPERS)
def _start_play(s: np.ndarray) -> None:
    s[H_PHASE] = PH_PLAY
    s[H_LEADER] = s[H_FIRST]
    s[H_CUR] = s[H_FIRST]


@njit_once(cache=True, **NO_WRAPPERS)
def _after_pass(s: np.ndarray) -> None:
    if s[H_FIRST] < 0:
        s[H_PHASE] = PH_FIRST
        s[H_CUR] = CHANCE
    else:
        _start_play(s)


@jit_nrt
def _add_gains(
    s: np.ndarray, gains: np.ndarray, winning: np.ndarray, condition: int, side: int, ns: int
) -> None:
    """Fill ``gains`` per side from the sevens held (SS-4.4, SS-5.4, SS-5.5)."""
    sevens = np.zeros(4, dtype=np.int64)
    for q in range(ns):
        sevens[q] = side_sevens(s, q)
    if ns == 2:
        w = 0 if winning[0] else 1
        raw = sevens[w] - sevens[1 - w] + 1  # SS-4.4
        gains[w] = max(1, raw)
    elif condition == 1:
        for q in range(ns):
            if winning[q]:
                gains[q] = TRICK_POINTS_3P  # SS-5.5
    else:
        w = side
        second = -1
        for q in range(ns):
            if q != w and sevens[q] > second:
                second = sevens[q]
        raw = sevens[w] - second + 1  # SS-5.4
        gains[w] = max(1, raw)
        for q in range(ns):
            if q != w and sevens[q] == second:
                gains[q] = gains[w] // 2


@jit_nrt
def _end_deal(s: np.ndarray, condition: int, side: int) -> None:
    """Score the deal (SS-4.2 … SS-4.4, SS-5.4, SS-5.5); end the game or deal the next.
    ``condition``: 0 sevens, 1 seven tricks, 2 hands empty."""
    n = s[H_N]
    ns = num_sides(s)
    gains = np.zeros(4, dtype=np.int64)
    winning = np.zeros(4, dtype=np.bool_)
    if condition == 1:
        loser = side
        if ns == 2:
            # SS-4.2: the losers' 7s in hand and a 7 indicator go to the other team.
            winning[1 - loser] = True
            transferred = 0
            for p in range(n):
                if side_of(s, p) == loser:
                    b = _sb(p)
                    transferred |= s[b + S_HAND] & SEVEN_MASK
                    s[b + S_HAND] &= ~SEVEN_MASK
            transferred |= (1 << s[H_IND]) & SEVEN_MASK
            s[O_SIDES + 2 * (1 - loser) + 1] |= transferred
        else:
            for q in range(ns):
                winning[q] = q != loser  # SS-5.5
    else:
        winning[side] = True
        if condition == 2:
            s[O_SIDES + 2 * side + 1] |= 1 << s[H_IND]  # SS-4.3
    _add_gains(s, gains, winning, condition, side, ns)
    best = -1
    for q in range(ns):
        s[O_SIDES + 2 * q] += gains[q]
        if s[O_SIDES + 2 * q] > best:
            best = s[O_SIDES + 2 * q]
    if best >= s[H_TARGET]:
        fw = 0
        for q in range(ns):
            if s[O_SIDES + 2 * q] == best:
                fw |= 1 << q
        s[H_FINALW] = fw
        s[H_PHASE] = PH_OVER
        s[H_CUR] = TERMINAL
        return
    # SS-2.4: the next first leader sits left of the previous one.
    s[H_DEALNO] += 1
    s[H_FIRST] = (s[H_FIRST] + 1) % n
    _reset_deal(s)
    s[H_DEALSTART] = s[H_STEPS]


@njit_once(cache=True, **NO_WRAPPERS)
def _finish_trick(s: np.ndarray) -> None:
    n = s[H_N]
    leader = s[H_LEADER]
    mask = 0
    for i in range(n):
        mask |= 1 << s[O_TRICK + i]
    # SS-3.2: the A wins; else the highest trump; else the highest card of the led suit.
    if mask & (1 << ACE):
        top = ACE
    elif mask & SUIT_MASK[SUIT_OF[s[H_IND]]]:
        top = msb(mask & SUIT_MASK[SUIT_OF[s[H_IND]]])
    else:
        top = msb(mask & SUIT_MASK[SUIT_OF[s[O_TRICK]]])
    idx = 0
    for i in range(n):
        if s[O_TRICK + i] == top:
            idx = i
        s[O_TRICK + i] = 0
    winner = leader + idx if leader + idx < n else leader + idx - n
    b = _sb(winner)
    s[b + S_TAKEN] |= mask  # SS-3.3
    s[b + S_TRICKS] += 1
    s[H_TRICKLEN] = 0
    side = side_of(s, winner)
    # SS-4: the deal-end conditions, in order (one call site: one compiled _end_deal).
    condition = -1
    if popcount(side_taken(s, side) & SEVEN_MASK) >= s[H_THRESH]:
        condition = 0
    elif side_tricks(s, side) >= TRICKS_TO_LOSE:
        condition = 1
    else:
        empty = True
        for p in range(n):
            if s[_sb(p) + S_HAND] != 0:
                empty = False
        if empty:
            condition = 2
    if condition >= 0:
        _end_deal(s, condition, side)
        return
    s[H_LEADER] = winner
    s[H_CUR] = winner


# ----- the contract, compiled -------------------------------------------------------------------


@njit_once(cache=True)
def current_player(s: np.ndarray) -> int:
    """The seat to act, ``-1`` (chance) or ``-4`` (terminal)."""
    return s[H_CUR]


@njit_once(cache=True)
def round_index(s: np.ndarray) -> int:
    """The deal being played (``SevenShotState.round_index``)."""
    return s[H_DEALNO]


@njit_once(cache=True)
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """The legal action ids in the engine's order (cards ascending); 0 at chance/terminal."""
    ph = s[H_PHASE]
    cnt = 0
    if ph == PH_PLAY:
        hand = s[_sb(s[H_CUR]) + S_HAND]
        m = hand
        if s[H_TRICKLEN] > 0:
            m = hand & SUIT_MASK[SUIT_OF[s[O_TRICK]]]  # SS-3.1: follow suit
            if m == 0:
                m = hand
        while m:
            low = m & -m
            out[cnt] = lowbit_index(low)
            cnt += 1
            m ^= low
    elif ph == PH_PASS:
        m = s[_sb(s[H_CUR]) + S_HAND]
        while m:
            low = m & -m
            out[cnt] = NUM_CARDS + lowbit_index(low)
            cnt += 1
            m ^= low
    return cnt


@njit_once(cache=True)
def chance_outcomes(s: np.ndarray, codes: np.ndarray, weights: np.ndarray) -> int:
    """The chance outcomes (uniform weights) in the engine's order; 0 elsewhere."""
    cnt = 0
    if s[H_PHASE] == PH_DEAL:
        m = s[H_UNDEALT]
        while m:
            low = m & -m
            codes[cnt] = lowbit_index(low)
            weights[cnt] = 1
            cnt += 1
            m ^= low
    elif s[H_PHASE] == PH_FIRST:
        for q in range(s[H_N]):
            codes[cnt] = CH_FIRST + q
            weights[cnt] = 1
            cnt += 1
    return cnt


@njit_once(cache=True)
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    """One chance outcome drawn with its exact (uniform) probability."""
    if s[H_PHASE] == PH_FIRST:
        return CH_FIRST + randbelow(rng, s[H_N])
    m = s[H_UNDEALT]
    r = randbelow(rng, popcount(m))
    for _ in range(r):
        m &= m - 1
    return lowbit_index(m & -m)


@njit_once(cache=True)
def apply_chance(s: np.ndarray, code: int, buf: np.ndarray) -> None:
    """Apply a possible chance outcome."""
    s[H_STEPS] += 1
    if code >= CH_FIRST:
        s[H_FIRST] = code - CH_FIRST
        _start_play(s)
        return
    s[H_UNDEALT] &= ~(1 << code)
    pos = s[H_DEALPOS]
    s[H_DEALPOS] = pos + 1
    if pos < HAND_CARDS:
        s[_sb(pos % s[H_N]) + S_HAND] |= 1 << code
        return
    s[H_IND] = code  # SS-2.2: the card left over is the trump indicator
    if s[H_K] > 0:
        s[H_PHASE] = PH_PASS
        s[H_CUR] = 0
    else:
        _after_pass(s)


@njit_once(cache=True)
def apply_action(s: np.ndarray, aid: int, buf: np.ndarray) -> None:
    """Apply a legal player action id."""
    s[H_STEPS] += 1
    n = s[H_N]
    seat = s[H_CUR]
    b = _sb(seat)
    if aid < NUM_CARDS:
        c = aid
        if s[H_TRICKLEN] > 0:
            led = SUIT_OF[s[O_TRICK]]
            if SUIT_OF[c] != led:
                s[b + S_VOIDS] |= 1 << led  # a void revealed
        bit = 1 << c
        s[b + S_HAND] ^= bit
        s[b + S_PLAYED] |= bit
        t = s[H_TRICKLEN]
        s[O_TRICK + t] = c
        s[H_TRICKLEN] = t + 1
        if t + 1 < n:
            s[H_CUR] = seat + 1 if seat + 1 < n else 0
            return
        _finish_trick(s)
        return
    c = aid - NUM_CARDS
    bit = 1 << c
    s[b + S_HAND] ^= bit
    s[b + S_PASSSEL] |= bit
    if popcount(s[b + S_PASSSEL]) < s[H_K]:
        return
    if seat + 1 < n:
        s[H_CUR] = seat + 1
        return
    # Every seat has chosen: the cards change hands at once.
    for p in range(n):
        bp = _sb(p)
        t = pass_target(s, p)
        s[bp + S_PASSED] = s[bp + S_PASSSEL]
        s[_sb(t) + S_RECEIVED] = s[bp + S_PASSSEL]
    for p in range(n):
        s[_sb(pass_target(s, p)) + S_HAND] |= s[_sb(p) + S_PASSED]
    for p in range(n):
        s[_sb(p) + S_PASSSEL] = 0
    _after_pass(s)


@njit_once(cache=True)
def scores(s: np.ndarray, out: np.ndarray) -> None:
    """Game points per seat (a team's points for both partners)."""
    for p in range(s[H_N]):
        out[p] = s[O_SIDES + 2 * side_of(s, p)]


@njit_once(cache=True)
def is_winner(s: np.ndarray, p: int) -> bool:
    """Whether seat ``p``'s side won (terminal states only)."""
    return s[H_PHASE] == PH_OVER and (s[H_FINALW] >> side_of(s, p)) & 1 == 1


# ----- the greedy bot, compiled -----------------------------------------------------------------


@njit_once(cache=True, inline="always")
def _power(c: int, led: int, trump: int) -> int:
    """Trick strength (SS-3.2): the A beats everything, then trumps, then the led suit."""
    if c == ACE:
        return 1000
    su = SUIT_OF[c]
    if su == trump:
        return 100 + RANK_OF[c]
    if su == led:
        return RANK_OF[c]
    return -1


@njit_once(cache=True, inline="always")
def _threats(
    c: int, led: int, unseen: int, trump: int, void_or: int, void_and: int, nl: int
) -> bool:
    """``greedy.seven_shot._threats``: a seat still to play might beat ``c`` with an unseen card.
    ``void_or`` / ``void_and``: the union / intersection of the voids (suit masks) of the
    ``nl`` seats still to play."""
    if nl == 0 or c == ACE:
        return False
    power = _power(c, led, trump)
    any_not_follow = (void_or >> led) & 1 == 1
    any_follow = (void_and >> led) & 1 == 0
    may_ruff = any_not_follow or popcount(unseen & SUIT_MASK[led]) < nl
    if unseen & 1 and (led == 0 or may_ruff):
        return True
    if (
        led != trump
        and any_follow
        and power < 100
        and unseen & SUIT_MASK[led] & ~((1 << (c + 1)) - 1)
    ):
        return True
    if led == trump or may_ruff:
        floor = c + 1 if SUIT_OF[c] == trump else 7 * trump
        trumps_above = unseen & SUIT_MASK[trump] & ~((1 << floor) - 1)
        if trumps_above and (void_and >> trump) & 1 == 0:
            return True
    return False


@noref
def greedy_action(s: np.ndarray, legal: np.ndarray, cnt: int, params: np.ndarray) -> int:
    """The move of ``septet.bots.greedy.seven_shot.GreedyAgent`` among ``legal[:cnt]`` (the
    legal ids, all plays or all passes), from the facts of the seat's view (own hand, trump,
    the trick, cards taken, voids, tricks and 7s). Allocates nothing."""
    if cnt == 1:
        return legal[0]
    base = NUM_CARDS if legal[0] >= NUM_CARDS else 0
    return base + greedy_card(s, _legal_mask(legal, cnt, base), base > 0, params)


@noref
def tuned_action(s: np.ndarray, legal: np.ndarray, cnt: int) -> int:
    """:func:`greedy_action` with :data:`TUNED_WEIGHTS`: the tuned rollout policy's move."""
    if cnt == 1:
        return legal[0]
    base = NUM_CARDS if legal[0] >= NUM_CARDS else 0
    return base + weighted_card(s, _legal_mask(legal, cnt, base), base > 0, TUNED_WEIGHTS)


@noref_inline
def _legal_mask(legal: np.ndarray, cnt: int, base: int) -> int:
    """The cards of the legal ids ``legal[:cnt]`` (all plays, or all passes from ``base``) as
    a card mask."""
    m = 0
    for i in range(cnt):
        m |= 1 << (legal[i] - base)
    return m


# The greedy bot's weights and the tuned rollout policy's (issue 30), the Python bot's tables
# (``septet.fast.seven_shot_weights``: WEIGHT_NAMES says what each one weighs).
GREEDY_WEIGHTS = np.array(GREEDY_TABLE, dtype=np.float64)
TUNED_WEIGHTS = np.array(TUNED_TABLE, dtype=np.float64)


@noref
def greedy_card(s: np.ndarray, m: int, passing: bool, params: np.ndarray) -> int:
    """:func:`greedy_action` on the mask ``m`` of the cards the seat may play (or pass, when
    ``passing``; two or more): the card it picks (:func:`weighted_card` with the greedy bot's
    :data:`GREEDY_WEIGHTS`; ``params`` is not read)."""
    return weighted_card(s, m, passing, GREEDY_WEIGHTS)


@noref
def weighted_card(s: np.ndarray, m: int, passing: bool, w: np.ndarray) -> int:
    """The greedy bot's rules of thumb with the weights ``w`` (:data:`WEIGHT_NAMES`) on the mask
    ``m`` of the cards the seat may play (or pass): the card it picks. The candidates are taken
    in ascending order, as the legal ids, so ties go the same way."""
    n = s[H_N]
    me = s[H_CUR]
    hand = s[_sb(me) + S_HAND]
    ind = s[H_IND]
    trump = SUIT_OF[ind] if ind >= 0 else -1
    if passing:
        return _greedy_pass(m, hand, trump, n == TEAM_PLAYERS, w)
    nt = s[H_TRICKLEN]
    seen = hand | (1 << ind)
    for p in range(n):
        seen |= s[_sb(p) + S_TAKEN]
    for i in range(nt):
        seen |= 1 << s[O_TRICK + i]
    unseen = FULL & ~seen
    # My side's tricks and 7s (side_tricks, side_sevens): the partner opposite at 4 (SS-2.1).
    mb = _sb(me)
    st = s[mb + S_TRICKS]
    taken = s[mb + S_TAKEN]
    if n == TEAM_PLAYERS:
        my_side = me & 1
        pb = _sb(me ^ 2)
        st += s[pb + S_TRICKS]
        taken |= s[pb + S_TAKEN]
    else:
        my_side = me
    ssev = popcount((s[O_SIDES + 2 * my_side + 1] | taken) & SEVEN_MASK)
    threshold = s[H_THRESH]
    danger = st >= int(w[35])
    pressure = max(0, st - int(w[34]))
    nl = n - nt - 1  # the seats still to play after this one, and their voids
    void_or = 0
    void_and = -1
    q = me
    for _ in range(nl):
        q = q + 1 if q + 1 < n else 0
        v = s[_sb(q) + S_VOIDS]
        void_or |= v
        void_and &= v
    voids = (void_or, void_and)
    if nt == 0:
        return _greedy_lead(m, hand, unseen, trump, voids, nl, (danger, pressure), w)
    side = (ssev, threshold, danger, pressure)
    return _greedy_follow(s, m, me, unseen, trump, voids, nl, side, w)


@njit_once(cache=True, inline="always")
def _greedy_pass(m: int, hand: int, trump: int, to_partner: bool, w: np.ndarray) -> int:
    """Which card of ``m`` to pass: short suits, low cards; never the ace, trumps or 7s if
    avoidable."""
    best = ctz(m)
    best_score = -1e9
    while m:
        c = ctz(m)
        m &= m - 1
        su = SUIT_OF[c]
        length = popcount(hand & SUIT_MASK[su])
        score = w[0] * (7 - length)
        rank = (RANK_OF[c] - su - 1) / 6.0
        score += w[1] * rank
        if c == ACE:
            score -= 100.0
        if su == trump:
            score -= w[2] + w[3] * rank
        if (SEVEN_MASK >> c) & 1:
            score -= w[4] if to_partner else w[5]
        if score > best_score:
            best = c
            best_score = score
    return best


@njit_once(cache=True, inline="always")
def _greedy_lead(
    m: int,
    hand: int,
    unseen: int,
    trump: int,
    voids: tuple[int, int],
    nl: int,
    side: tuple[bool, int],
    w: np.ndarray,
) -> int:
    """Which card of ``m`` to lead: sure 7s, safe low cards; dump high cards when too many
    tricks. ``side``: (danger, pressure)."""
    danger, pressure = side
    best = ctz(m)
    best_score = -1e9
    while m:
        c = ctz(m)
        m &= m - 1
        su = SUIT_OF[c]
        higher = unseen & SUIT_MASK[su] & ~((1 << (c + 1)) - 1)
        is_seven = (SEVEN_MASK >> c) & 1 == 1
        if danger or (pressure >= 2 and not is_seven):
            sure = not _threats(c, su, unseen, trump, voids[0], voids[1], nl)
            score = popcount(higher) - (w[6] if sure else 0.0) - (w[7] if is_seven else 0.0)
            score -= w[8] if su == trump else 0.0
        elif is_seven:
            sure = not _threats(c, su, unseen, trump, voids[0], voids[1], nl)
            score = w[9] if sure else w[10]
        elif c == ACE:
            score = w[11] if unseen & (1 << 6) else w[12]
        else:
            seven = SEVEN_OF[su]
            seven_out_below = (unseen >> seven) & 1 == 1 and seven < c
            sure = seven_out_below and not _threats(c, su, unseen, trump, voids[0], voids[1], nl)
            score = w[13] if sure else w[14] - RANK_OF[c] / w[15]
            score += w[16] * popcount(hand & SUIT_MASK[su])
            if su == trump:
                score -= w[17]
        if score > best_score:
            best = c
            best_score = score
    return best


@njit_once(cache=True, inline="always")
def _trick_so_far(
    s: np.ndarray, n: int, nt: int, leader: int, led: int, trump: int
) -> tuple[int, int, int]:
    """The trick on the table: ``(seat winning it, its card, 7s in it)``."""
    best_seat = leader
    best_card = s[O_TRICK]
    for i in range(1, nt):
        c = s[O_TRICK + i]
        if _power(c, led, trump) > _power(best_card, led, trump):
            best_seat = leader + i if leader + i < n else leader + i - n
            best_card = c
    sevens_in_trick = 0
    for i in range(nt):
        if (SEVEN_MASK >> s[O_TRICK + i]) & 1:
            sevens_in_trick += 1
    return best_seat, best_card, sevens_in_trick


@njit_once(cache=True, inline="always")
def _greedy_follow(
    s: np.ndarray,
    m: int,
    me: int,
    unseen: int,
    trump: int,
    voids: tuple[int, int],
    nl: int,
    side: tuple[int, int, bool, int],
    w: np.ndarray,
) -> int:
    """Which card of ``m`` to play to a trick: win it for 7s or to end on sevens, else duck or
    feed the partner. ``side``: (my side's 7s, the 7s that end the deal, danger, pressure)."""
    ssev, threshold, danger, pressure = side
    n = s[H_N]
    nt = s[H_TRICKLEN]
    leader = s[H_LEADER]
    led = SUIT_OF[s[O_TRICK]]
    best_seat, best_card, sevens_in_trick = _trick_so_far(s, n, nt, leader, led, trump)
    partner_wins = n == TEAM_PLAYERS and best_seat == me ^ 2
    partner_sure = partner_wins and not _threats(
        best_card, led, unseen, trump, voids[0], voids[1], nl
    )
    top = _power(best_card, led, trump)
    choice = ctz(m)
    best_score = -1e9
    while m:
        c = ctz(m)
        m &= m - 1
        is_seven = (SEVEN_MASK >> c) & 1 == 1
        power = _power(c, led, trump)
        if power > top:
            sure = not _threats(c, led, unseen, trump, voids[0], voids[1], nl)
            pw = 1.0 if sure else w[33]
            gained = sevens_in_trick + (1 if is_seven else 0)
            ends_on_sevens = ssev + gained >= threshold
            if danger and not ends_on_sevens:
                score = -10.0 * pw
            else:
                score = pw * (w[18] * gained + (w[19] if ends_on_sevens else 0.0))
                score -= (1 - pw) * (w[20] if is_seven else 0.0)
                if partner_wins:
                    score -= w[21]
                score -= w[22] if c == ACE else 0.0
                score -= w[23] * RANK_OF[c] + (w[24] + w[25] * pressure if gained == 0 else 0.0)
                score -= w[26] if SUIT_OF[c] == trump else 0.0
        else:
            if partner_wins:
                score = (w[27] if is_seven else 0.0) * (1.0 if partner_sure else w[28])
            else:
                score = -w[29] if is_seven else 0.0
            score -= w[30] if c == ACE else 0.0
            score -= w[31] if SUIT_OF[c] == trump else 0.0
            score += RANK_OF[c] / w[32]
        if score > best_score:
            choice = c
            best_score = score
    return choice


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
    start_round = s[H_DEALNO]
    steps = 0
    while steps != max_steps:
        tm = s[H_CUR]
        if tm == TERMINAL:
            break
        if horizon_round and s[H_DEALNO] != start_round:
            break
        if tm == CHANCE:
            apply_chance(s, sample_chance(s, rng), buf)
        else:
            cnt = legal_actions(s, legal)
            if policies[tm] == 1 and cnt > 1:
                a = greedy_action(s, legal, cnt, params)
            elif policies[tm] == 2 and cnt > 1:
                a = tuned_action(s, legal, cnt)
            else:
                a = legal[randbelow(rng, cnt)]
            apply_action(s, a, buf)
        steps += 1
    return steps


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
    """:func:`playout` without the step interface: the deal's cards are drawn in one loop from
    the undealt mask (the ``r``-th set bit, no outcome list), a seat's card is picked from the
    mask of its legal cards (the ``r``-th, or :func:`greedy_card`'s; no legal-action array,
    ``legal`` is unused), and nothing is allocated. The same generator calls in the same order, so
    the same seed plays the same game (``tests/fast/test_fast_playout_seven_shot.py`` checks
    positions, scores, generator states and lengths)."""
    start_round = s[H_DEALNO]
    n = s[H_N]
    steps = 0
    while steps != max_steps:
        ph = s[H_PHASE]
        if ph == PH_OVER:
            break
        if horizon_round and s[H_DEALNO] != start_round:
            break
        if ph == PH_PLAY or ph == PH_PASS:
            tm = s[H_CUR]
            m = s[_sb(tm) + S_HAND]
            base = 0
            if ph == PH_PASS:
                base = NUM_CARDS  # pass ids
            elif s[H_TRICKLEN] > 0:
                follow = m & SUIT_MASK[SUIT_OF[s[O_TRICK]]]  # SS-3.1: follow suit
                if follow != 0:
                    m = follow
            apply_action(s, _choose(s, m, base, policies[tm], rng, params), buf)
        elif ph == PH_DEAL:
            # sample_chance's draws and apply_chance's cards to the hands in one loop (SS-2.2)
            m = s[H_UNDEALT]
            pos = s[H_DEALPOS]
            seat = pos % n
            first = steps
            while pos < HAND_CARDS and steps != max_steps:
                bit = 1 << select_bit(m, randbelow(rng, popcnt(m)))
                m ^= bit
                s[_sb(seat) + S_HAND] |= bit
                pos += 1
                seat = seat + 1 if seat + 1 < n else 0
                steps += 1
            s[H_UNDEALT] = m
            s[H_DEALPOS] = pos
            s[H_STEPS] += steps - first
            if pos == HAND_CARDS and steps != max_steps:  # the indicator: the card left over
                apply_chance(s, select_bit(m, randbelow(rng, popcnt(m))), buf)
                steps += 1
            continue
        else:
            apply_chance(s, CH_FIRST + randbelow(rng, n), buf)
        steps += 1
    return steps


@internal
def _choose(
    s: np.ndarray,
    m: int,
    base: int,
    policy: int,
    rng: np.ndarray,
    params: np.ndarray,
) -> int:
    """The action id :func:`playout` picks among the cards of mask ``m`` (ids ``base + card``,
    ascending: the legal ids of a play or a pass): greedy's, or the ``randbelow(cnt)``-th."""
    cnt = popcnt(m)
    if policy == 1 and cnt > 1:
        return base + greedy_card(s, m, base > 0, params)
    if policy == 2 and cnt > 1:
        return base + weighted_card(s, m, base > 0, TUNED_WEIGHTS)
    return base + select_bit(m, randbelow(rng, cnt))


@njit_once(cache=True, **NO_WRAPPERS)
def _row_results(s: np.ndarray, i: int, scores_out: np.ndarray, wins_out: np.ndarray) -> None:
    """Row ``i`` of the play_rows outputs from the ended playout ``s``: each seat's side's
    points and winner flag (terminal only)."""
    terminal = s[H_CUR] == TERMINAL
    for p in range(s[H_N]):
        scores_out[i, p] = s[O_SIDES + 2 * side_of(s, p)]
        wins_out[i, p] = 1 if terminal and is_winner(s, p) else 0


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
    legal = np.zeros(LEGAL_BUF, dtype=np.int64)
    buf = np.zeros(BUF, dtype=np.int64)
    s = start.copy()
    for i in range(rngs.shape[0]):
        copy_into(s, start)
        lengths_out[i] = playout_fast(
            s, rngs[i], policies[i], horizon_round, max_steps, params, legal, buf
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
    legal = np.zeros(LEGAL_BUF, dtype=np.int64)
    buf = np.zeros(BUF, dtype=np.int64)
    for i in range(rngs.shape[0]):
        s = start.copy()
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
    """``deal c`` → ``c``; ``first s`` → ``64 + s``."""
    from septet.games.seven_shot.actions import Deal, FirstLeader

    if isinstance(action, Deal):
        return int(action.card)
    if isinstance(action, FirstLeader):
        return CH_FIRST + int(action.seat)
    raise ValueError(f"{action} is not a Seven Shot chance outcome")


def code_to_chance(code: int) -> Any:
    """Inverse of :func:`chance_code`."""
    from septet.games.seven_shot.actions import DEALS, FIRSTS

    return FIRSTS[code - CH_FIRST] if code >= CH_FIRST else DEALS[code]


def field_name(i: int, n: int) -> str:
    """What index ``i`` of the encoding holds (for failure messages)."""
    heads = [
        "players",
        "pass_cards",
        "target",
        "threshold",
        "phase",
        "current",
        "deal_number",
        "deal_pos",
        "deal_start",
        "steps",
        "undealt",
        "indicator",
        "first_leader",
        "leader",
        "trick_len",
        "winners",
    ]
    if i < len(heads):
        return heads[i]
    if i < HEADER:
        return f"trick[{i - O_TRICK}]"
    if i < O_SIDES:
        p, j = divmod(i - O_SEATS, SEAT)
        names = ["hand", "pass_sel", "passed", "received", "played", "tricks_won", "taken", "voids"]
        return f"seat[{p}].{names[j]}"
    side, j = divmod(i - O_SIDES, 2)
    return f"side[{side}].{'points' if j == 0 else 'bonus'}"
