"""The Seven Shot greedy bot's weights (``septet.bots.greedy.seven_shot``) and the tuned ones
(``greedy:weights=tuned``, ISMCTS ``rollout=tuned``; issue 30), read by the Python bot and by
its compiled twin (:mod:`septet.fast.seven_shot`). Plain Python: no numba needed."""

from __future__ import annotations

from septet.games.seven_shot.scoring import TRICKS_TO_LOSE

WEIGHT_NAMES = (
    "pass_length",  # 0: a card of a short suit (per card fewer than 7)
    "pass_rank",  # 1: a high card
    "pass_trump",  # 2: keep trumps ...
    "pass_trump_rank",  # 3: ... the high ones most
    "pass_seven_partner",  # 4: a 7 to the partner (4 players)
    "pass_seven_opponent",  # 5: a 7 to the left neighbour (3 players)
    "lead_danger_sure",  # 6: near 7 tricks, a lead that cannot lose the trick
    "lead_danger_seven",  # 7: near 7 tricks, a 7
    "lead_danger_trump",  # 8: near 7 tricks, a trump
    "lead_sure_seven",  # 9: a 7 nobody can beat
    "lead_unsure_seven",  # 10: a 7 that can be beaten
    "lead_ace_seven_out",  # 11: the A while the 7 of suit 1 is unseen
    "lead_ace",  # 12: the A otherwise
    "lead_catch",  # 13: a sure winner above its suit's 7, still out
    "lead_base",  # 14: another card ...
    "lead_rank_divisor",  # 15: ... less its rank divided by this
    "lead_length",  # 16: per card of its suit in hand
    "lead_trump",  # 17: a trump
    "win_per_seven",  # 18: per 7 a winning card takes
    "win_ends",  # 19: a winning card that ends the deal on 7s (SS-4.1)
    "win_unsure_seven",  # 20: a 7 that may be overtaken
    "win_over_partner",  # 21: overtaking the partner
    "win_ace",  # 22: spending the A
    "win_rank",  # 23: per rank of the winning card
    "win_no_seven",  # 24: a trick without 7s ...
    "win_pressure",  # 25: ... per trick of pressure
    "win_trump",  # 26: winning with a trump
    "duck_seven_to_partner",  # 27: a 7 on the partner's trick ...
    "duck_partner_unsure",  # 28: ... times this when the partner may be overtaken
    "duck_give_seven",  # 29: a 7 to the other side
    "duck_ace",  # 30: the A under the trick
    "duck_trump",  # 31: a trump under the trick
    "duck_rank_divisor",  # 32: shed high cards: rank divided by this
    "unsure_win",  # 33: the chance that a winning card that may be overtaken holds
    "pressure_from",  # 34: side tricks after which tricks without 7s cost more
    "danger_at",  # 35: side tricks from which the side avoids winning tricks (SS-4.2)
)
GREEDY_WEIGHTS: tuple[float, ...] = (
    *(2.0, 1.0, 10.0, 5.0, 3.0, 50.0, 20.0, 3.0, 5.0, 6.0, -6.0, 1.0, -3.0, 4.0, 0.5, 20.0),
    *(0.1, 1.5, 3.0, 5.0, 3.0, 1.0, 1.5, 0.05, 0.5, 0.7, 0.3, 3.0, 0.4, 3.0, 2.0, 0.5, 100.0),
    *(0.5, 3.0, float(TRICKS_TO_LOSE - 1)),
)
# The tuned weights (``greedy:weights=tuned``, ISMCTS ``rollout=tuned``): greedy's after a
# coordinate search against greedy itself (duplicate one-deal games at 3 and 4 players;
# docs/bots.md). It drops a 7 on the partner's trick only when the partner surely wins it (0.4
# -> 0), no longer cashes a sure 7 by leading it (6 -> 0) but leads a sure winner above a 7 still
# out more eagerly (4 -> 6), leads low cards more (rank / 7 instead of / 20), neither shuns
# trump leads nor counts suit length there, spends any rank alike on a winning card, feels the
# 7-tricks rule (SS-4.2) from 2 side tricks on instead of 3, and empties short suits harder in
# the pass (4 a card instead of 2).
TUNED_WEIGHTS: tuple[float, ...] = (
    *(4.0, 1.0, 10.0, 5.0, 3.0, 50.0, 20.0, -1.0, 0.5, 0.0, -6.0, 1.0, -3.0, 6.0, 0.75, 7.0),
    *(0.0, 0.0, 3.0, 5.0, 3.0, 1.0, 1.5, 0.0, 0.5, 0.7, 0.3, 3.0, 0.0, 3.0, 2.0, 0.5, 100.0),
    *(0.5, 2.0, float(TRICKS_TO_LOSE - 1)),
)


__all__ = ["GREEDY_WEIGHTS", "TUNED_WEIGHTS", "WEIGHT_NAMES"]
