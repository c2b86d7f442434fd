"""The fitted weights of the Expert's Seven Shot opponent model (written by
``bench/fit_seven_shot_opponent.py``; see :mod:`septet.bots.expert.opponent`).

Fitted to the card plays and passes of ``ismcts:iterations=5000,rollout=greedy,horizon=round``
in self-play, 400 one-deal games per player count, seed ``opponent``, L2 1.0;
held-out numbers in docs/bots.md.
"""

WEIGHTS: dict[int, tuple[float, ...]] = {
    4: (
        -1.0235,  # wins_now
        1.3624,  # wins_sevens
        -0.3959,  # wins_last
        1.9344,  # seven_to_partner
        -2.277,  # seven_to_opponent
        -3.8054,  # sevens_to_opponent
        0.8914,  # overtakes_partner
        -0.1069,  # height_winning
        0.1302,  # height_losing
        -0.3768,  # ruff
        -0.7577,  # discard
        0.1089,  # seven
        -0.6744,  # ace
        -0.3768,  # trump
        -0.1341,  # top_live
        0.1534,  # lowest_legal
        -0.1215,  # highest_legal
        0.8003,  # voids_suit
        0.2285,  # wins_near_seven_tricks
        -0.2666,  # lead_seven
        0.1613,  # lead_trump
        0.1895,  # lead_height
        -0.7806,  # lead_suit_length
        0.1635,  # lead_top_live
        -0.7244,  # lead_ace
        0.2911,  # lead_low_near_seven_tricks
        0.2779,  # lead_singleton
    ),
    3: (
        -0.4491,  # wins_now
        2.4754,  # wins_sevens
        -0.4053,  # wins_last
        0.0,  # seven_to_partner
        -1.5401,  # seven_to_opponent
        -1.5662,  # sevens_to_opponent
        0.0,  # overtakes_partner
        -0.2457,  # height_winning
        0.3054,  # height_losing
        -0.2459,  # ruff
        -0.399,  # discard
        -0.6309,  # seven
        -0.354,  # ace
        -0.2459,  # trump
        0.0899,  # top_live
        0.0901,  # lowest_legal
        -0.1547,  # highest_legal
        0.669,  # voids_suit
        -1.1311,  # wins_near_seven_tricks
        0.077,  # lead_seven
        0.1508,  # lead_trump
        0.1624,  # lead_height
        -0.4584,  # lead_suit_length
        0.3326,  # lead_top_live
        -0.6173,  # lead_ace
        1.0173,  # lead_low_near_seven_tricks
        0.4355,  # lead_singleton
    ),
}
"""Weights per player count, in ``FEATURE_NAMES``' order."""

PASS_WEIGHTS: dict[int, tuple[float, ...]] = {
    4: (
        0.15,  # seven
        -0.1348,  # ace
        -0.1023,  # trump
        -0.3893,  # height
        1.3328,  # suit_length
        2.3942,  # singleton
        0.4839,  # doubleton
        0.0126,  # top_of_suit
    ),
    3: (
        -0.3816,  # seven
        -0.2588,  # ace
        -3.2056,  # trump
        0.6527,  # height
        1.193,  # suit_length
        2.8664,  # singleton
        1.4244,  # doubleton
        -0.0272,  # top_of_suit
    ),
}
"""The pass model's weights per player count (``PASS_FEATURE_NAMES``)."""
