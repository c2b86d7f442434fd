"""How likely the play so far makes a Seven Shot determinization: an opponent model for PIMC.

The sampler (:func:`septet.games.seven_shot.determinize.determinize`) draws the other hands
uniformly among the deals consistent with what the seat saw (hand sizes, voids, its passes,
the indicator, the cards played). Those deals are not equally likely given *how* the others
played: a seat that let an opponent take a trick full of 7s probably held nothing that could
win it. Weighting each sample by the likelihood of the others' card plays under a model of
their play (importance weighting; the posterior over deals is the uniform prior times this
likelihood) is the inference of the bridge and skat programmes (Ginsberg's GIB samples
"consistent with the bidding and play"; Buro, Long, Furtak & Sturtevant, "Improving state
evaluation, inference, and search in trick-based card games", IJCAI 2009, weight skat worlds by
the opponents' likely moves).

The model, for a seat following to a trick (SS-3.1: its legal cards ``L``, the cards already in
the trick): each legal card ``c`` gets a score

- the partner (4 players) is winning the trick: 1 for a 7 (banked for the side), less a
  little (0.2 times the card's height in its suit) for a card that overtakes the partner;
- else ``c`` would win the trick now: the 7s the trick would hold with it (SS-4.1 counts them),
  less 0.3 (a trick without 7s brings the side nearer to 7 tricks, SS-4.2) and 0.2 times its
  height (spending a high card);
- otherwise: minus the 7s the trick would hand to the winner, plus 0.2 times its height
  (shedding a high card);

and is played with probability ``(1 - EPSILON) * softmax(BETA * score) + EPSILON / |L|``
(the uniform part keeps every consistent deal possible, so one odd play never rules a deal
out). Leads are not modelled: a lead's probability under a uniform lead is the same in every
sample (the hand size is public), so it cancels. The passes between two other seats are
resampled uniformly (not weighted).
"""

from __future__ import annotations

import math
from typing import Any

from septet.games.seven_shot.cards import ACE, SEVEN_MASK, SUIT_MASK, SUIT_OF
from septet.games.seven_shot.rules import card_power

BETA = 2.0
"""Inverse temperature of the model's softmax (per point of score)."""
EPSILON = 0.25
"""The model's uniform share: the least probability of a legal card is ``EPSILON / |L|``."""


def follow_probability(card: int, hand: int, before: list[int], seat_sides: list[int],
                       side: int, trump: int) -> float:  # fmt: skip
    """The model's probability that a seat holding ``hand`` (mask, ``card`` included) follows
    with ``card`` to a trick whose cards so far are ``before`` (at least one, in play order;
    ``seat_sides[i]`` is the side of the seat that played ``before[i]``; ``side`` the
    follower's).

    Raises:
        ValueError: ``card`` is not a legal play of ``hand`` (SS-3.1) or ``before`` is empty.
    """
    if not before:
        raise ValueError("a lead is not modelled")
    led = SUIT_OF[before[0]]
    legal = hand & SUIT_MASK[led] or hand
    if not legal >> card & 1:
        raise ValueError("the card is not a legal play of that hand")
    best = -2
    winner_side = -1
    sevens = 0
    for c, s in zip(before, seat_sides, strict=True):
        p = card_power(c, led, trump)
        if p > best:
            best, winner_side = p, s
        sevens += SEVEN_MASK >> c & 1
    scores: list[float] = []
    mine = 0.0
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        pts = sevens + (SEVEN_MASK >> c & 1)
        height = (c % 7) / 6.0 if c != ACE else 1.0
        wins = card_power(c, led, trump) > best
        if winner_side == side:  # the partner's trick: overtaking it only spends a card
            score = float(SEVEN_MASK >> c & 1) - (0.2 * height if wins else 0.0)
        elif wins:
            score = pts - 0.3 - 0.2 * height
        else:
            score = -pts + 0.2 * height
        scores.append(score)
        if c == card:
            mine = score
    top = max(scores)
    z = sum(math.exp(BETA * (s - top)) for s in scores)
    return (1.0 - EPSILON) * math.exp(BETA * (mine - top)) / z + EPSILON / len(scores)


def play_likelihood(state: Any, seat: int) -> float:
    """The likelihood of the current deal's card plays by every seat but ``seat`` under the
    model, given the hands of ``state`` (a determinization in its play phase; the hands each
    seat held at each play are its hand now plus the cards it played since). A product of
    :func:`follow_probability` over the others' follows (leads cancel, see the module doc); a
    positive float, 1.0 before any follow."""
    n = state.num_players
    trump = state.indicator // 7
    sides = [state.side_of(p) for p in range(n)]
    tricks = [(leader, list(cards)) for leader, cards, _w in state.tricks]
    if state.trick:
        tricks.append((state.leader, list(state.trick)))
    hands = list(state.hands)
    like = 1.0
    for leader, cards in reversed(tricks):  # back in time: give each card back to its hand
        for i in range(len(cards) - 1, -1, -1):
            p = (leader + i) % n
            c = cards[i]
            hands[p] |= 1 << c
            if i == 0 or p == seat:
                continue
            before = cards[:i]
            before_sides = [sides[(leader + j) % n] for j in range(i)]
            like *= follow_probability(c, hands[p], before, before_sides, sides[p], trump)
    return like


__all__ = ["BETA", "EPSILON", "follow_probability", "play_likelihood"]
