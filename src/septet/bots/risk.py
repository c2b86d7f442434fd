"""A cheap Flip 7 bot of one number: hit while the chance of busting is at most ``p``.

Spec ``risk:p=0.26`` (the default ``p``; the peer's README names hitting while P(bust) ≤ 0.26
as near-optimal for the classic round): at a hit/stay decision, hit when the number cards that
would bust the row (F7V-2; a Second Chance saves a duplicate in classic, F7V-9; the Unlucky 7
never busts, F7V-6.2; a second 13 busts unless one of the two is the Lucky 13, F7V-6.3) are at
most ``p`` of every card left in the pile drawn from (the deck, or the discard pile when the deck
is empty and a draw would reshuffle it, F7V-3.6), else stay. With the Zero in a Vengeance row
staying is not allowed (F7V-6.1) and the bot hits. It reads neither the scores nor the target.

Every other decision (whom to give a modifier or an action card, Swap / Steal / Discard, the
brutal ±15) is the greedy bot's (:mod:`septet.bots.greedy.flip7`): those choices do not depend
on the greedy's parameters, and in Vengeance they are where action cards hurt or help, so a
bot that only knew the odds would play them at random and lose far more than one number's
worth. The compiled twin is :func:`septet.fast.flip7.risk_action` (policy ``risk`` of
``septet.fast.batch``, ``septet simulate --engine fast``); ``tests/fast/test_fast_risk.py``
checks that both choose the same at every decision of many games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from septet.bots.greedy.flip7 import GreedyAgent
from septet.core.game import Action, Game
from septet.core.types import JSON

DEFAULT_P = 0.26
"""The default bust-probability limit."""


class RiskAgent:
    """Flip 7: hit while P(bust) ≤ ``p`` (see the module docstring).

    Args:
        game: a Flip 7 game (either edition).
        p: the limit, a probability in [0, 1] (string or float).

    Raises:
        ValueError: a game other than Flip 7 (``make_agent`` says so as an
            ``AgentSpecError``), or ``p`` outside [0, 1].
    """

    def __init__(self, game: Game[Any], p: str | float = DEFAULT_P) -> None:
        if game.name != "flip7":
            raise ValueError(f"the risk bot plays Flip 7 only, not {game.name}")
        self.p = float(p)
        if not 0.0 <= self.p <= 1.0:
            raise ValueError(f"p must be in [0, 1], not {p}")
        self.name = "risk"
        self.greedy = GreedyAgent(game)

    def bust_probability(self, view: dict[str, JSON]) -> float:
        """P(bust) of one more card for the seat to decide in ``view`` (a player's view)."""
        g = self.greedy
        g._setup(view)
        return g._risk(g.me)[0]

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Hit (``legal_actions[0]``) or stay by the limit; other decisions as the greedy."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        decision: Any = view["decision"]
        if decision["kind"] != "hit_stay":
            return self.greedy.act(view, legal_actions, rng)
        return legal_actions[0] if self.bust_probability(view) <= self.p else legal_actions[1]


__all__ = ["DEFAULT_P", "RiskAgent"]
