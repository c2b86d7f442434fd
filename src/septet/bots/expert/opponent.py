"""A fitted model of how the bots play a Seven Shot card: the Expert's opponent model.

The hand-made model of :mod:`septet.bots.expert.inference` weighted determinizations the wrong
way (docs/bots.md: the pool it resampled lost to uniform draws). This one is *fitted*: a
conditional logit (McFadden, "Conditional logit analysis of qualitative choice behavior", 1973;
the move model of Buro, Long, Furtak & Sturtevant, IJCAI 2009, fitted to recorded skat play)
over :data:`FEATURE_NAMES`, features of each legal card in its position (what it does to the
trick, what it is, what it leaves in the hand), with weights fitted by maximum likelihood to
the card plays of Strong's search in self-play (``bench/fit_seven_shot_opponent.py``; the
weights and the fit's numbers in :mod:`septet.bots.expert.opponent_weights`):

    P(card c | hand, position) = exp(w · f(c)) / Σ_{c' legal} exp(w · f(c'))

Leads and follows are both modelled (a fitted lead model is not uniform, so leads no longer
cancel between samples). The likelihood of a determinization is the product of the model's
probability of every card play of the deal by the seats other than the searching one
(:func:`log_likelihood`), each seat's hand at each play rebuilt backwards from the sample
(the sample's hand now plus the cards it played since), which is what ties the features, and so
the weight, to the sample's hidden cards. A uniform part (``epsilon``) keeps every consistent
deal possible, and ``temper`` (a power of the likelihood, 0 < temper ≤ 1) flattens the weights
so that a pool of samples does not collapse onto a few (a tempered posterior).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from septet.games.seven_shot.cards import ACE, NUM_SUITS, SEVEN_MASK, SUIT_MASK, SUIT_OF, cards_of
from septet.games.seven_shot.rules import card_power, playable

FEATURE_NAMES: tuple[str, ...] = (
    # following to a trick
    "wins_now",  # would win the trick as it stands
    "wins_sevens",  # wins it: 7s in the trick with this card
    "wins_last",  # wins it as the last to play (a sure trick)
    "seven_to_partner",  # a 7 that does not win, under the partner's winning card (4 players)
    "seven_to_opponent",  # a 7 that does not win, under an opponent's winning card
    "sevens_to_opponent",  # does not win an opponent's trick: the 7s already in it
    "overtakes_partner",  # wins over the partner's winning card
    "height_winning",  # the card's height in its suit (0..1), when it wins
    "height_losing",  # the same, when it does not win
    "ruff",  # a trump on another suit's lead
    "discard",  # neither the suit led nor a trump
    "seven",  # the card is a 7
    "ace",  # the A (SS-1.2)
    "trump",  # the card is a trump
    "top_live",  # no higher card of its suit is left outside the hand
    "lowest_legal",  # the lowest legal card (by power, then height)
    "highest_legal",  # the highest legal card
    "voids_suit",  # the last card of its suit in the hand
    "wins_near_seven_tricks",  # wins while the side has 5 or more tricks (SS-4.2)
    # leading
    "lead_seven",
    "lead_trump",
    "lead_height",
    "lead_suit_length",  # cards of the suit in the hand, / 4
    "lead_top_live",
    "lead_ace",
    "lead_low_near_seven_tricks",  # 1 - height, while the side has 5 or more tricks
    "lead_singleton",  # the only card of its suit in the hand
)
"""What each weight of the model weighs, in the order of the feature vectors."""

NUM_FEATURES = len(FEATURE_NAMES)

PASS_FEATURE_NAMES: tuple[str, ...] = (
    "seven",
    "ace",
    "trump",
    "height",  # in its suit, 0..1
    "suit_length",  # cards of its suit in the hand before the pass, / 4
    "singleton",  # the only card of its suit
    "doubleton",  # one of two
    "top_of_suit",  # the highest card of its suit in the hand
)
"""What each weight of the pass model weighs (SS-2.3, SS-5.2): features of a card in the hand
before the pass."""

NUM_PASS_FEATURES = len(PASS_FEATURE_NAMES)


@dataclass(frozen=True)
class PlayContext:
    """One card play of a deal, as the player saw it before playing.

    Attributes:
        players: seats at the table (3 or 4).
        seat: who played.
        hand: the player's hand before the play (mask, the card included).
        trick: the cards already in the trick, in play order (empty: a lead).
        trick_sides: the side of each of those cards' players.
        side: the player's side (SS-2.1: seats 0 & 2, 1 & 3; at 3 players the seat).
        trump: the trump suit (the indicator's, SS-2.2).
        gone: cards no hand can hold any more (played before, the indicator), mask.
        side_tricks: tricks the player's side had taken before this trick.
        card: the card played.
    """

    players: int
    seat: int
    hand: int
    trick: tuple[int, ...]
    trick_sides: tuple[int, ...]
    side: int
    trump: int
    gone: int
    side_tricks: int
    card: int


def play_contexts(state: Any) -> Iterator[PlayContext]:
    """Every card play of the current deal of ``state`` (a Seven Shot state in its play phase:
    once a deal has ended, SS-4.2 may have taken 7s out of the hands), in play order, each
    seat's hand rebuilt backwards from the hands of ``state`` (its hand now plus the cards it
    played since)."""
    n = state.num_players
    trump = state.indicator // 7
    sides = [state.side_of(p) for p in range(n)]
    tricks = [(leader, tuple(cards), winner) for leader, cards, winner in state.tricks]
    if state.trick:
        tricks.append((state.leader, tuple(state.trick), -1))
    # hands before every trick: back in time from the hands now
    hands = list(state.hands)
    before_trick: list[list[int]] = []
    for leader, cards, _w in reversed(tricks):
        for i, c in enumerate(cards):
            hands[(leader + i) % n] |= 1 << c
        before_trick.append(list(hands))
    before_trick.reverse()
    gone = 1 << state.indicator
    won = [0] * n
    for (leader, cards, winner), hands_then in zip(tricks, before_trick, strict=True):
        side_tricks = [0] * n
        for p in range(n):
            side_tricks[sides[p]] += won[p]
        for i, c in enumerate(cards):
            p = (leader + i) % n
            yield PlayContext(
                players=n,
                seat=p,
                hand=hands_then[p],
                trick=cards[:i],
                trick_sides=tuple(sides[(leader + j) % n] for j in range(i)),
                side=sides[p],
                trump=trump,
                gone=gone,
                side_tricks=side_tricks[sides[p]],
                card=c,
            )
            gone |= 1 << c
        if winner >= 0:
            won[winner] += 1


def _height(c: int) -> float:
    return 1.0 if c == ACE else (c % 7) / 6.0


def _lead_features(
    legal: list[int], f: np.ndarray, trump: int, near: float, suit_len: list[int], outside: int
) -> None:
    """Fill the lead features (``lead_*``) of ``f``'s rows, one per card of ``legal``."""
    for k, c in enumerate(legal):
        s = SUIT_OF[c]
        h = _height(c)
        f[k, 19] = SEVEN_MASK >> c & 1
        f[k, 20] = s == trump
        f[k, 21] = h
        f[k, 22] = suit_len[s] / 4.0
        f[k, 23] = c == ACE or not (outside & SUIT_MASK[s] & ~((1 << (c + 1)) - 1))
        f[k, 24] = c == ACE
        f[k, 25] = near * (1.0 - h)
        f[k, 26] = suit_len[s] == 1


def features(ctx: PlayContext) -> tuple[list[int], np.ndarray]:
    """The legal cards of ``ctx`` (SS-3.1) and their features, shape ``(len(legal),
    NUM_FEATURES)`` in :data:`FEATURE_NAMES`' order."""
    hand = ctx.hand
    lead = not ctx.trick
    led = -1 if lead else SUIT_OF[ctx.trick[0]]
    legal = cards_of(playable(hand, led))
    f = np.zeros((len(legal), NUM_FEATURES))
    near = 1.0 if ctx.side_tricks >= 5 else 0.0
    suit_len = [(hand & SUIT_MASK[s]).bit_count() for s in range(NUM_SUITS)]
    outside = ~(hand | ctx.gone)
    if lead:
        _lead_features(legal, f, ctx.trump, near, suit_len, outside)
        return legal, f
    best = -2
    winner_side = -1
    sevens = 0
    for c, sd in zip(ctx.trick, ctx.trick_sides, strict=True):
        p = card_power(c, led, ctx.trump)
        if p > best:
            best, winner_side = p, sd
        sevens += SEVEN_MASK >> c & 1
    last = len(ctx.trick) == ctx.players - 1
    partner = winner_side == ctx.side
    powers = [card_power(c, led, ctx.trump) for c in legal]
    order = sorted(range(len(legal)), key=lambda k: (powers[k], legal[k]))
    for k, c in enumerate(legal):
        s = SUIT_OF[c]
        h = _height(c)
        seven = SEVEN_MASK >> c & 1
        wins = powers[k] > best
        f[k, 0] = wins
        f[k, 1] = wins * (sevens + seven)
        f[k, 2] = wins and last
        f[k, 3] = seven and not wins and partner
        f[k, 4] = seven and not wins and not partner
        f[k, 5] = (not wins and not partner) * sevens
        f[k, 6] = wins and partner
        f[k, 7] = h if wins else 0.0
        f[k, 8] = 0.0 if wins else h
        f[k, 9] = s == ctx.trump and s != led
        f[k, 10] = s != led and s != ctx.trump and c != ACE
        f[k, 11] = seven
        f[k, 12] = c == ACE
        f[k, 13] = s == ctx.trump
        f[k, 14] = c == ACE or not (outside & SUIT_MASK[s] & ~((1 << (c + 1)) - 1))
        f[k, 17] = suit_len[s] == 1
        f[k, 18] = wins * near
    f[order[0], 15] = 1.0
    f[order[-1], 16] = 1.0
    return legal, f


@dataclass(frozen=True)
class PassContext:
    """One seat's pass (SS-2.3 to the partner, SS-5.2 to the left neighbour).

    Attributes:
        seat: who passed.
        hand: the hand before the pass (mask, the passed cards included).
        trump: the trump suit (the indicator is turned before the pass, SS-2.2).
        passed: the cards passed (mask).
    """

    seat: int
    hand: int
    trump: int
    passed: int


def pass_contexts(state: Any) -> Iterator[PassContext]:
    """Every seat's pass of the current deal of ``state`` (a Seven Shot state in its play
    phase), each hand before the pass rebuilt from the state: the hand now, plus the cards
    the seat played this deal and the cards it passed, less the cards it received."""
    n = state.num_players
    played = [0] * n
    tricks = [(leader, cards) for leader, cards, _w in state.tricks]
    if state.trick:
        tricks.append((state.leader, tuple(state.trick)))
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            played[(leader + i) % n] |= 1 << c
    trump = state.indicator // 7
    for p in range(n):
        hand = (state.hands[p] | played[p] | state.passed[p]) & ~state.received[p]
        yield PassContext(seat=p, hand=hand, trump=trump, passed=state.passed[p])


def pass_features(ctx: PassContext) -> tuple[list[int], np.ndarray]:
    """The cards of the hand before the pass and their features, shape ``(len(cards),
    NUM_PASS_FEATURES)`` in :data:`PASS_FEATURE_NAMES`' order."""
    cards = cards_of(ctx.hand)
    f = np.zeros((len(cards), NUM_PASS_FEATURES))
    suit_len = [(ctx.hand & SUIT_MASK[s]).bit_count() for s in range(NUM_SUITS)]
    for k, c in enumerate(cards):
        s = SUIT_OF[c]
        f[k, 0] = SEVEN_MASK >> c & 1
        f[k, 1] = c == ACE
        f[k, 2] = s == ctx.trump
        f[k, 3] = _height(c)
        f[k, 4] = suit_len[s] / 4.0
        f[k, 5] = suit_len[s] == 1
        f[k, 6] = suit_len[s] == 2
        f[k, 7] = not (ctx.hand & SUIT_MASK[s] & ~((1 << (c + 1)) - 1))
    return cards, f


def subset_log_probability(z: np.ndarray, chosen: Any, k: int) -> float:
    """``log P(S)`` of the ``k``-card set ``S`` (indices ``chosen`` into ``z``) under the
    conditional logit over the ``k``-subsets: ``P(S) = exp(Σ_{c∈S} z_c) / e_k(exp z)``, where
    ``e_k`` is the elementary symmetric polynomial of degree ``k`` (all C(n, k) subsets,
    summed by the recurrence ``e_j ← e_j + x·e_{j-1}`` in O(n·k)).

    Raises:
        ValueError: ``chosen`` does not hold ``k`` distinct indices.
    """
    chosen = sorted(set(int(i) for i in chosen))
    if len(chosen) != k:
        raise ValueError(f"a pass of {k} cards, not {len(chosen)}")
    top = float(z.max())
    x = np.exp(z - top)
    e = [1.0] + [0.0] * k
    for xi in x:
        for j in range(k, 0, -1):
            e[j] += xi * e[j - 1]
    return float(sum(z[i] - top for i in chosen) - math.log(e[k]))


class OpponentModel:
    """The conditional logit of the module docstring.

    Args:
        weights: one weight per feature (:data:`FEATURE_NAMES`), shape ``(NUM_FEATURES,)``.
        epsilon: the uniform share mixed in, in [0, 1).
        temper: the power of the likelihood, in (0, 1].
        pass_weights: one weight per pass feature (:data:`PASS_FEATURE_NAMES`), or ``None``:
            the passes are not weighed (every pass as likely).

    Raises:
        ValueError: a weight vector of another shape, or ``epsilon``/``temper`` out of range.
    """

    def __init__(
        self,
        weights: Any,
        epsilon: float = 0.05,
        temper: float = 1.0,
        pass_weights: Any = None,
    ) -> None:
        w = np.asarray(weights, dtype=float)
        if w.shape != (NUM_FEATURES,):
            raise ValueError(f"weights must have shape ({NUM_FEATURES},), not {w.shape}")
        self.pass_weights: np.ndarray | None = None
        if pass_weights is not None:
            pw = np.asarray(pass_weights, dtype=float)
            if pw.shape != (NUM_PASS_FEATURES,):
                raise ValueError(f"pass weights must have shape ({NUM_PASS_FEATURES},)")
            self.pass_weights = pw
        if not 0.0 <= epsilon < 1.0 or not 0.0 < temper <= 1.0:
            raise ValueError("epsilon must be in [0, 1) and temper in (0, 1]")
        self.weights = w
        self.epsilon = epsilon
        self.temper = temper

    def probabilities(self, ctx: PlayContext) -> tuple[list[int], np.ndarray]:
        """The legal cards of ``ctx`` and the model's probability of each (sums to 1)."""
        legal, f = features(ctx)
        z = f @ self.weights
        z = np.exp(z - z.max())
        p = (1.0 - self.epsilon) * z / z.sum() + self.epsilon / len(legal)
        return legal, p

    def pass_log_probability(self, ctx: PassContext) -> float:
        """``log P(the cards passed | the hand before the pass)`` under the pass model
        (:func:`subset_log_probability` over :func:`pass_features`); 0.0 without pass weights
        or before the pass."""
        if self.pass_weights is None or not ctx.passed:
            return 0.0
        cards, f = pass_features(ctx)
        chosen = [i for i, c in enumerate(cards) if ctx.passed >> c & 1]
        return subset_log_probability(f @ self.pass_weights, chosen, len(chosen))

    def log_likelihood(self, state: Any, seat: int) -> float:
        """``temper`` times the log-probability, under the model, of every card play of the
        deal in ``state`` by the seats other than ``seat`` (plays with one legal card count 0)
        and, with pass weights, of their passes (those the seat received are seen, the others
        are the sample's); 0.0 before any play."""
        total = 0.0
        if self.pass_weights is not None:
            for pctx in pass_contexts(state):
                if pctx.seat != seat:
                    total += self.pass_log_probability(pctx)
        for ctx in play_contexts(state):
            if ctx.seat == seat:
                continue
            legal, p = self.probabilities(ctx)
            if len(legal) > 1:
                total += math.log(p[legal.index(ctx.card)])
        return self.temper * total


@functools.cache
def fitted_model(players: int, temper: float = 1.0) -> OpponentModel:
    """The model with the weights fitted for ``players`` (3 or 4) seats
    (:data:`septet.bots.expert.opponent_weights.WEIGHTS`), with ``temper``; one per process.

    Raises:
        ValueError: no weights were fitted for that table, or ``temper`` out of (0, 1].
    """
    from septet.bots.expert import opponent_weights

    if players not in opponent_weights.WEIGHTS:
        raise ValueError(f"no opponent model is fitted for {players} players")
    passes = getattr(opponent_weights, "PASS_WEIGHTS", {}).get(players)
    return OpponentModel(opponent_weights.WEIGHTS[players], temper=temper, pass_weights=passes)


__all__ = [
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "NUM_PASS_FEATURES",
    "PASS_FEATURE_NAMES",
    "OpponentModel",
    "PassContext",
    "PlayContext",
    "features",
    "fitted_model",
    "pass_contexts",
    "pass_features",
    "play_contexts",
    "subset_log_probability",
]
