"""Determinization for Seven Shot: a full state drawn from one seat's information set.

What the seat knows and the sample keeps: its own hand (and its pass choice), the trump
indicator, every card played, how many cards each hand holds, the cards it passed (they sit in the
receiver's hand until played) and received, and every void revealed by a failure to follow suit
(a seat that did not follow suit ``s`` holds no card of ``s`` for the rest of the deal).

What is resampled: the other hands (and, during the deal, the undealt cards; during the pass,
the other seats' chosen cards), and the passes between two other seats (4 players: the
opponents' exchange; 3 players: the pass between the two other players), drawn from the
receiver's cards since the pass.

The constrained deal never fails and never rejects. It is uniform over the consistent deals: a
plain shuffle when no void is known; otherwise the consistent deals are counted by dynamic
programming over groups of cards sharing a "which seats may hold it" pattern and drawn exactly
(``_exact_deal``). Should the count grow too large (it never does in play), cards are placed
one at a time on a seat that may hold the suit and has room, keeping a complete deal possible
(Hall's condition over the at most three other seats), weighted by the room left: consistent,
close to uniform.

The sample is built through the engine's own moves: from the position at the start of the
current deal, the sampled deal is applied as chance outcomes, the passes as the players' actions,
then the first leader and the recorded plays (``_replay_deal``). The history is the engine's, so
the sample replays and carries no hidden fact of the real deal; earlier deals' history is kept as
it was (it says nothing about this deal's cards).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from septet.core.errors import RecordError
from septet.core.types import JSON
from septet.games.seven_shot.actions import DEALS, FIRSTS, PASSES, PLAYS
from septet.games.seven_shot.cards import (
    FULL_MASK,
    SUIT_LETTERS,
    SUIT_OF,
    cards_of,
    mask_from_names,
    parse_card,
)
from septet.games.seven_shot.state import (
    HAND_CARDS,
    PH_DEAL,
    PH_FIRST,
    PH_OVER,
    PH_PASS,
    PH_PLAY,
    PHASE_NAMES,
    SevenShotState,
)


def _subsets_patterns(m: int) -> list[tuple[int, list[int]]]:
    """For each proper non-empty subset ``T`` of ``m`` seats, the patterns included in ``T``."""
    full = (1 << m) - 1
    out = []
    for t in range(1, full):
        out.append((t, [p for p in range(1, full + 1) if p & ~t == 0]))
    return out


_SUBSETS = {m: _subsets_patterns(m) for m in range(1, 4)}


def _feasible(counts: list[int], cap: list[int], m: int) -> bool:
    """Whether the remaining cards (``counts[pattern]``) can fill the seats' room ``cap``
    exactly (Hall's condition: the cards only subset ``T`` may hold fit in ``T``'s room)."""
    for t, pats in _SUBSETS[m]:
        room = 0
        for i in range(m):
            if t >> i & 1:
                room += cap[i]
        need = 0
        for p in pats:
            need += counts[p]
        if need > room:
            return False
    return True


def constrained_deal(
    pool: list[int], need: list[int], void_suits: list[int], rng: random.Random
) -> list[int]:
    """Deal ``pool`` (cards) to ``len(need)`` seats, ``need[i]`` cards each, never giving seat
    ``i`` a card of a suit in its void mask ``void_suits[i]`` (bit ``s`` = void in suit ``s``).

    Returns:
        One card mask per seat.

    Raises:
        ValueError: no such deal exists (the constraints contradict each other: a bug upstream).
    """
    m = len(need)
    if sum(need) != len(pool):
        raise ValueError(f"{len(pool)} cards for {sum(need)} places")
    cards = list(pool)
    rng.shuffle(cards)
    out = [0] * m
    if m == 0:
        return out
    if not any(void_suits):
        # No constraint: a uniform shuffle cut into hands.
        pos = 0
        for i in range(m):
            for c in cards[pos : pos + need[i]]:
                out[i] |= 1 << c
            pos += need[i]
        return out
    return _voids_deal(cards, need, void_suits, rng)


def _voids_deal(
    cards: list[int], need: list[int], void_suits: list[int], rng: random.Random
) -> list[int]:
    """:func:`constrained_deal` when some seat is void in a suit: exact when counting is quick
    (:func:`_exact_deal`), else card by card keeping a complete deal possible."""
    m = len(need)
    pattern_of_suit = [0] * 7
    for s in range(7):
        p = 0
        for i in range(m):
            if not void_suits[i] >> s & 1:
                p |= 1 << i
        pattern_of_suit[s] = p
    counts = [0] * (1 << m)
    for c in cards:
        counts[pattern_of_suit[SUIT_OF[c]]] += 1
    cap = list(need)
    if counts[0] or not _feasible(counts, cap, m):
        raise ValueError("no deal satisfies the known voids")
    exact = _exact_deal(cards, need, pattern_of_suit, m, rng)
    if exact is not None:
        return exact
    out = [0] * m
    for c in cards:
        p = pattern_of_suit[SUIT_OF[c]]
        counts[p] -= 1
        options: list[int] = []
        weights: list[int] = []
        for i in range(m):
            if p >> i & 1 and cap[i] > 0:
                cap[i] -= 1
                if _feasible(counts, cap, m):
                    options.append(i)
                    weights.append(cap[i] + 1)
                cap[i] += 1
        if len(options) == 1:
            choice = options[0]
        else:
            r = rng.random() * sum(weights)
            choice = options[-1]
            for i, w in zip(options, weights, strict=True):
                if r < w:
                    choice = i
                    break
                r -= w
        cap[choice] -= 1
        out[choice] |= 1 << c
    return out


_EXACT_WORK_LIMIT = 20_000
"""Memo entries the exact sampler may build before it gives way to the sequential one."""


class _TooMuchWork(Exception):
    pass


def _splits(pattern: int, k: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Ways to split ``k`` cards among the seats of ``pattern`` within ``caps``."""
    m = len(caps)
    seats = [i for i in range(m) if pattern >> i & 1]
    out: list[tuple[int, ...]] = []

    def rec(j: int, left: int, x: list[int]) -> None:
        if j == len(seats) - 1:
            if left <= caps[seats[j]]:
                x[seats[j]] = left
                out.append(tuple(x))
                x[seats[j]] = 0
            return
        i = seats[j]
        for v in range(min(left, caps[i]) + 1):
            x[i] = v
            rec(j + 1, left - v, x)
        x[i] = 0

    rec(0, k, [0] * m)
    return out


def _multinomial(k: int, x: tuple[int, ...]) -> int:
    out = 1
    left = k
    for v in x:
        out *= math.comb(left, v)
        left -= v
    return out


def _exact_deal(
    cards: list[int], need: list[int], pattern_of_suit: list[int], m: int, rng: random.Random
) -> list[int] | None:
    """A deal drawn uniformly from all the deals that respect the voids, or ``None`` if counting
    them would take too long (then the caller's sequential sampler is used).

    The deals are counted by dynamic programming over groups of cards with the same "which seats
    may hold it" pattern (at most 7 groups): ``ways(level, room)`` is the number of ways to deal
    groups ``level..`` into the seats' remaining room, each split of a group of ``k`` cards into
    ``x`` per seat counting ``k! / prod(x!)`` deals. The split of each group is then drawn with
    probability proportional to its number of completions, and the group's (shuffled) cards are
    cut accordingly.
    """
    groups: dict[int, list[int]] = {}
    for c in cards:
        groups.setdefault(pattern_of_suit[SUIT_OF[c]], []).append(c)
    if not groups:
        return [0] * m
    full = (1 << m) - 1
    order = sorted(groups, key=lambda p: (p == full, len(groups[p]), p))
    counter = _DealCounter(order, [len(groups[p]) for p in order])
    room = tuple(need)
    try:
        total = counter.ways(0, room)
    except _TooMuchWork:
        return None
    if total == 0:
        raise ValueError("no deal satisfies the known voids")
    out = [0] * m
    for level, p in enumerate(order):
        group = groups[p]
        if level == counter.last:
            x = room
        else:
            x, total = counter.draw_split(level, room, total, rng)
        pos = 0  # the group's cards are already in random order
        for i in range(m):
            for c in group[pos : pos + x[i]]:
                out[i] |= 1 << c
            pos += x[i]
        room = tuple(a - b for a, b in zip(room, x, strict=True))
    return out


class _DealCounter:
    """Counts the deals of groups ``level..`` of cards (``order[level]`` is the group's seat
    pattern, ``sizes[level]`` its number of cards) into the seats' remaining ``room``, by
    dynamic programming (see :func:`_exact_deal`)."""

    def __init__(self, order: list[int], sizes: list[int]) -> None:
        self.order = order
        self.sizes = sizes
        self.last = len(order) - 1
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def ways(self, level: int, room: tuple[int, ...]) -> int:
        """The number of deals of groups ``level..`` that fill ``room`` exactly.

        Raises:
            _TooMuchWork: the memo outgrew ``_EXACT_WORK_LIMIT``.
        """
        if level == self.last:
            # The last group must fill the room exactly.
            p = self.order[level]
            if any(r and not p >> i & 1 for i, r in enumerate(room)):
                return 0
            return _multinomial(self.sizes[level], room)
        key = (level, room)
        got = self.memo.get(key)
        if got is not None:
            return got
        if len(self.memo) > _EXACT_WORK_LIMIT:
            raise _TooMuchWork
        total = 0
        for x in _splits(self.order[level], self.sizes[level], room):
            rest = tuple(r - v for r, v in zip(room, x, strict=True))
            w = self.ways(level + 1, rest)
            if w:
                total += _multinomial(self.sizes[level], x) * w
        self.memo[key] = total
        return total

    def draw_split(
        self, level: int, room: tuple[int, ...], total: int, rng: random.Random
    ) -> tuple[tuple[int, ...], int]:
        """A split of group ``level`` drawn with probability proportional to its number of
        completions (``total`` is ``ways(level, room)``); returns it and the completions'
        count, the ``total`` of the next level."""
        r = rng.randrange(total)
        k = self.sizes[level]
        for cand in _splits(self.order[level], k, room):
            rest = tuple(a - b for a, b in zip(room, cand, strict=True))
            w = _multinomial(k, cand) * self.ways(level + 1, rest)
            if r < w:
                return cand, self.ways(level + 1, rest)
            r -= w
        raise AssertionError("the splits' counts do not add up to the total")


def determinize(state: SevenShotState, seat: int, rng: random.Random) -> SevenShotState:
    """A state consistent with ``state.view(seat)`` with every hidden card resampled (see the
    module docstring). ``state`` is not changed.

    The hidden cards are drawn first (:func:`_sample_deal`: what each seat was dealt and chose to
    pass), then the sample is built through the engine's own moves (:func:`_replay_deal`).
    """
    if state.phase == PH_OVER:
        return state.clone()  # nothing is left to play; the leftover hands stay as they were
    dealt, chosen = _sample_deal(state, seat, rng)
    return _replay_deal(state, dealt, chosen)


def _sample_deal(
    state: SevenShotState, seat: int, rng: random.Random
) -> tuple[list[int], list[int]]:
    """Draw the current deal's hidden cards from what ``seat`` knows.

    Returns:
        ``(dealt, chosen)``, one mask per seat: the cards dealt to it so far (SS-2.2) and the
        cards it has chosen to pass (SS-2.3 / SS-5.2; all zero during the deal).
    """
    n = state.num_players
    others = [s for s in range(n) if s != seat]
    ph = state.phase
    if ph == PH_DEAL:
        return _sample_during_deal(state, others, rng), [0] * n
    if ph == PH_PASS:
        return _sample_during_pass(state, others, rng)
    return _sample_after_pass(state, seat, others, rng)


def _sample_during_deal(state: SevenShotState, others: list[int], rng: random.Random) -> list[int]:
    """The other seats' dealt cards, uniform over their cards and the undealt ones."""
    dealt = list(state.hands)
    pool_mask = 0
    for s in others:
        pool_mask |= state.hands[s]
    pool = cards_of(pool_mask) + state.undealt
    rng.shuffle(pool)
    pos = 0
    for s in others:
        k = state.hands[s].bit_count()
        dealt[s] = 0
        for c in pool[pos : pos + k]:
            dealt[s] |= 1 << c
        pos += k
    return dealt


def _sample_during_pass(
    state: SevenShotState, others: list[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """The other seats' hands, and as many chosen cards as each has chosen, uniformly."""
    dealt = [state.hands[s] | state.pass_sel[s] for s in range(state.num_players)]
    chosen = list(state.pass_sel)
    pool_mask = 0
    for s in others:
        pool_mask |= dealt[s]
    pool = cards_of(pool_mask)
    rng.shuffle(pool)
    pos = 0
    for s in others:
        k = dealt[s].bit_count()
        mine = pool[pos : pos + k]
        pos += k
        dealt[s] = chosen[s] = 0
        for c in mine:
            dealt[s] |= 1 << c
        for c in rng.sample(mine, state.pass_sel[s].bit_count()):
            chosen[s] |= 1 << c
    return dealt, chosen


def _sample_after_pass(
    state: SevenShotState, seat: int, others: list[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """The other hands (voids respected, the cards ``seat`` passed kept in the receiver's
    hand) and the passes between two other seats; returned as what each seat was dealt and
    passed."""
    n = state.num_players
    hands = list(state.hands)
    target = state.pass_target(seat)
    known = [state.passed[seat] & state.hands[s] if s == target else 0 for s in others]
    pool_mask = 0
    for s in others:
        pool_mask |= state.hands[s]
    for k in known:
        pool_mask &= ~k
    need = [state.hands[s].bit_count() - k.bit_count() for s, k in zip(others, known, strict=True)]
    drawn = constrained_deal(cards_of(pool_mask), need, [state.voids[s] for s in others], rng)
    for s, k, d in zip(others, known, drawn, strict=True):
        hands[s] = k | d
    passed = list(state.passed)
    received = list(state.received)
    if state._k > 0:
        # The passes between two other seats: any cards the receiver has held since.
        for s in others:
            t = state.pass_target(s)
            if t == seat:
                continue
            pick = 0
            for c in rng.sample(cards_of(hands[t] | state.played[t]), state._k):
                pick |= 1 << c
            passed[s] = received[t] = pick
    dealt = [((hands[s] | state.played[s]) & ~received[s]) | passed[s] for s in range(n)]
    return dealt, passed


def _replay_deal(state: SevenShotState, dealt: list[int], chosen: list[int]) -> SevenShotState:
    """The current deal of ``state`` played again through the engine's own moves from the
    position at its start (``SevenShotState.deal_start_state``), with the sampled cards: the deal
    as chance outcomes (seat ``pos % n`` gets its ``pos // n``-th card, SS-2.2), the indicator,
    the passes as the players' actions in seat order, the first leader (chance, first deal),
    then the public plays of this deal.

    Earlier deals' history is kept as it was (it says nothing about this deal's cards); a state
    built without its full history (``state_from_view``, tests) keeps only the replayed deal.
    """
    n = state.num_players
    det = state.deal_start_state()
    prefix = len(det.history)
    lists = [cards_of(m) for m in dealt]
    for pos in range(min(state.deal_pos, HAND_CARDS)):
        det.apply(DEALS[lists[pos % n][pos // n]])
    if state.deal_pos > HAND_CARDS:
        det.apply(DEALS[state.indicator])
    for s in range(n):
        for c in cards_of(chosen[s]):
            det.apply(PASSES[c])
    if det.phase == PH_FIRST and state.phase != PH_FIRST:
        det.apply(FIRSTS[state.first_leader])
    for _leader, cards, _winner in state.tricks:
        for c in cards:
            det.apply(PLAYS[c])
    for c in state.trick:
        det.apply(PLAYS[c])
    if len(det.history) != len(state.history):
        del det.history[:prefix]
    return det


def state_from_view(game: Any, view: Mapping[str, JSON], rng: random.Random) -> SevenShotState:
    """A state drawn from the information set of the seat whose (plain JSON) view this is.

    Rebuilds every public and own field from the view, puts the unseen cards anywhere that fits
    the hand sizes (the cards the seat passed, unplayed, in the receiver's hand), then resamples
    them with :func:`determinize`. The result has an empty ``history``.

    Raises:
        RecordError: a view of another game, a spectator's view, or a malformed one.
    """
    try:
        return _state_from_view(game, view, rng)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise RecordError(f"not a Seven Shot seat view: {exc!r}") from exc


def _state_from_view(game: Any, view: Mapping[str, JSON], rng: random.Random) -> SevenShotState:
    if view.get("game") != "seven-shot" or view.get("seat") is None:
        raise RecordError("not a Seven Shot seat view (a spectator's view has no information set)")
    n = int(view["num_players"])
    seat = int(view["seat"])
    state = game.new_state(n)
    assert isinstance(state, SevenShotState)
    _public_from_view(state, view)
    _own_from_view(state, view, seat)
    _place_unseen(state, view, seat, rng)
    if state.phase == PH_OVER:
        return state  # nothing is left to play: any placement of the leftovers will do
    det = determinize(state, seat, rng)
    det.history = []
    return det


def _trick_tuples(tricks: Any) -> list[tuple[int, tuple[int, ...], int]]:
    return [
        (int(t["leader"]), tuple(parse_card(c) for c in t["cards"]), int(t["winner"]))
        for t in tricks
    ]


def _public_from_view(state: SevenShotState, view: Mapping[str, Any]) -> None:
    """Set the public fields of ``state`` from ``view`` (the cards played included)."""
    n = state.num_players
    state.phase = PHASE_NAMES.index(str(view["phase"]))
    state._cur = int(view["to_move"])
    state.deal_number = int(view["deal_number"])
    state.deal_pos = int(view["cards_dealt"])
    ind = view["trump_indicator"]
    state.indicator = -1 if ind is None else parse_card(str(ind))
    state.points = [int(p) for p in view["side_points"]]
    state.deal_log = [dict(d) for d in view["deals"]]
    state.last_tricks = _trick_tuples(view["last_deal_tricks"])
    state.final_winners = sorted({state.side_of(int(w)) for w in view["winners"]})
    fl = view["first_leader"]
    state.first_leader = -1 if fl is None else int(fl)
    lead = view["leader"]
    state.leader = -1 if lead is None else int(lead)
    state.tricks = _trick_tuples(view["tricks"])
    state.trick = [parse_card(str(t["card"])) for t in view["trick"]]
    state.tricks_won = [int(x) for x in view["tricks_won"]]
    state.taken = [mask_from_names(list(t)) for t in view["taken"]]
    state.bonus = [mask_from_names(list(b)) for b in view["bonus"]]
    state.voids = [sum(1 << SUIT_LETTERS.index(str(x)) for x in v) for v in view["voids"]]
    played = [0] * n
    for leader, cards, _w in state.tricks:
        for i, c in enumerate(cards):
            played[(leader + i) % n] |= 1 << c
    for i, c in enumerate(state.trick):
        played[(state.leader + i) % n] |= 1 << c
    state.played = played


def _own_from_view(state: SevenShotState, view: Mapping[str, Any], seat: int) -> None:
    """Set the seat's own hand, chosen cards and the two passes it knows."""
    state.hands[seat] = mask_from_names(list(view["hand"]))
    target = state.pass_target(seat)
    source = int(view["received_from"])
    own_passed = mask_from_names(list(view["passed"] or []))
    own_received = mask_from_names(list(view["received"] or []))
    state.passed[seat] = own_passed
    state.received[target] = own_passed
    state.passed[source] = own_received
    state.received[seat] = own_received
    state.pass_sel[seat] = mask_from_names(list(view["passing"] or []))


def _place_unseen(
    state: SevenShotState, view: Mapping[str, Any], seat: int, rng: random.Random
) -> None:
    """Put the cards ``seat`` has not seen anywhere that fits the hand sizes (the cards it
    passed, unplayed, in the receiver's hand; voids respected), with placeholder passes and
    chosen cards: :func:`determinize` resamples them."""
    played = state.played
    target = state.pass_target(seat)
    source = int(view["received_from"])
    own_passed = state.passed[seat]
    sizes = [int(x) for x in view["hand_sizes"]]
    seen = state.hands[seat] | state.pass_sel[seat]
    seen |= 1 << state.indicator if state.indicator >= 0 else 0
    for m in (*played, *state.bonus):
        seen |= m
    unseen = cards_of(FULL_MASK & ~seen)
    others = [s for s in range(state.num_players) if s != seat]
    if state.phase in (PH_FIRST, PH_PLAY, PH_OVER):
        # The cards this seat passed and that are not played yet are in the receiver's hand;
        # the rest go where the voids allow.
        known = own_passed & ~played[target]
        state.hands[target] = known
        unseen = [c for c in unseen if not known >> c & 1]
        need = [sizes[s] - state.hands[s].bit_count() for s in others]
        dealt = constrained_deal(unseen, need, [state.voids[s] for s in others], rng)
        for s, d in zip(others, dealt, strict=True):
            state.hands[s] |= d
        pos = len(unseen)
    else:
        pos = 0
        for s in others:
            room = sizes[s] - state.hands[s].bit_count()
            for c in unseen[pos : pos + room]:
                state.hands[s] |= 1 << c
            pos += room
    state.undealt = sorted(unseen[pos:]) if state.phase == PH_DEAL else []
    if state.phase == PH_PASS:
        pass_counts = [int(x) for x in view["pass_counts"]]
        for s in others:
            for c in cards_of(state.hands[s])[: pass_counts[s]]:
                state.hands[s] ^= 1 << c
                state.pass_sel[s] |= 1 << c
    elif state.phase != PH_DEAL and state._k > 0:
        # Placeholder passes between two other seats (determinize resamples them).
        for s in others:
            t = state.pass_target(s)
            if t != seat and s != source:
                pick = cards_of(state.hands[t] | played[t])[: state._k]
                state.passed[s] = state.received[t] = sum(1 << c for c in pick)
