"""A greedy Seven Shot bot: fast rules of thumb on the seat's view only.

- Pass (SS-2.3 / SS-5.2): never the A, keep trumps and (3 players) 7s; empty the shortest plain
  suit (a void lets you trump in later), high cards first (to an opponent too: they are tricks
  without 7s for it, and low cards help this seat duck).
- Follow: win a trick that holds 7s (with the cheapest card that wins, a sure winner if there is
  one); drop a 7 on a trick the partner is winning; otherwise duck, shedding a high plain card,
  and never give a 7 to the other side if it can be helped.
- Avoid the 7th trick (SS-4.2): a side with 6 tricks only wins a trick that ends the deal on 7s;
  from 4 tricks on, tricks without 7s cost more and more, and from 5 the bot leads low.
- Lead: cash a 7 that cannot be beaten, lead a sure winner above a 7 still out (to catch it), or
  a low card of a long plain suit; keep the A and high trumps for tricks with 7s.

"Sure" means: no card the seat has not seen could beat it, given the voids shown so far.

Every constant of these rules is one of ``WEIGHT_NAMES``; ``GREEDY_WEIGHTS`` are the greedy
bot's, ``TUNED_WEIGHTS`` those of :class:`TunedGreedyAgent` (``greedy:weights=tuned``, the
``tuned`` rollout policy of ISMCTS in Seven Shot, issue 30): the tables of
:mod:`septet.fast.seven_shot_weights` (plain Python, re-exported here), which the compiled twin
(``septet.fast.seven_shot``) reads too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from septet.core.game import Action, Game
from septet.core.types import JSON
from septet.fast.seven_shot_weights import GREEDY_WEIGHTS, TUNED_WEIGHTS, WEIGHT_NAMES
from septet.games.seven_shot.actions import Pass, Play
from septet.games.seven_shot.cards import (
    ACE,
    CARD_NAMES,
    FULL_MASK,
    NUM_CARDS,
    RANK_OF,
    SEVEN_MASK,
    SUIT_LETTERS,
    SUIT_MASK,
    SUIT_OF,
    parse_card,
)
from septet.games.seven_shot.rules import card_power, side_of, team_play, trick_winner


def _mask(names: Any) -> int:
    m = 0
    for n in names or ():
        m |= 1 << parse_card(str(n))
    return m


class GreedyAgent:
    """Greedy Seven Shot player (see the module docstring).

    Args:
        game: the game (not read).
        weights: ``greedy`` (default: ``GREEDY_WEIGHTS``) or ``tuned`` (``TUNED_WEIGHTS``);
            spec ``greedy:weights=tuned``.

    Raises:
        TypeError: unknown parameters (``make_agent`` reports it as a bad spec).
        ValueError: another ``weights``.
    """

    def __init__(self, game: Game[Any] | None = None, **params: str) -> None:
        weights = params.pop("weights", "greedy")
        if params:
            raise TypeError(f"greedy takes only weights, got {', '.join(sorted(params))}")
        if weights not in ("greedy", "tuned"):
            raise ValueError(f"weights must be greedy or tuned, not {weights!r}")
        self.name = "greedy"
        self.w = GREEDY_WEIGHTS if weights == "greedy" else TUNED_WEIGHTS

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of ``legal_actions`` from ``view`` (``SevenShotState.view(seat)``)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if isinstance(legal_actions[0], Pass):
            return self._pass(view, legal_actions)
        return self._play(view, legal_actions)

    # ----- the pass --------------------------------------------------------------------------
    def pass_cards(self, hand: int, trump: int, players: int, k: int = 3) -> int:
        """The ``k`` cards (mask) this bot passes from ``hand`` (mask, before the pass) with
        trump suit ``trump`` at a table of ``players``: its choices one card at a time, each
        chosen card leaving the hand (SS-2.3, SS-5.2), as :meth:`act` makes them. A pure
        function of its arguments: the Expert's partners infer each other's hands by it."""
        chosen = 0
        view: dict[str, JSON] = {"num_players": players, "trump": SUIT_LETTERS[trump]}
        for _ in range(k):
            view["hand"] = [CARD_NAMES[c] for c in range(NUM_CARDS) if hand >> c & 1]
            legal = [Pass(c) for c in range(NUM_CARDS) if hand >> c & 1]
            card = self._pass(view, legal).card  # type: ignore[attr-defined]
            chosen |= 1 << card
            hand ^= 1 << card
        return chosen

    def _pass(self, view: dict[str, JSON], legal: Sequence[Action]) -> Action:
        n = int(view["num_players"])
        trump = SUIT_LETTERS.index(str(view["trump"])) if view.get("trump") else -1
        hand = _mask(view["hand"])
        to_partner = team_play(n)
        best: Action = legal[0]
        best_score = -1e9
        for a in legal:
            assert isinstance(a, Pass)
            c = a.card
            s = SUIT_OF[c]
            length = (hand & SUIT_MASK[s]).bit_count()
            w = self.w
            score = w[0] * (7 - length)  # empty short suits
            rank = (RANK_OF[c] - s - 1) / 6.0  # 0 lowest .. 1 highest of its suit
            # High plain cards: to a partner they win tricks; to an opponent (3 players) they
            # are tricks without 7s that push it towards 7 tricks, and keeping low cards lets
            # this seat duck (measured: 42% of wins against the low-card pass, fair share 33%).
            score += w[1] * rank
            if c == ACE:
                score -= 100.0
            if s == trump:
                score -= w[2] + w[3] * rank
            if SEVEN_MASK >> c & 1:
                score -= w[4] if to_partner else w[5]
            if score > best_score:
                best, best_score = a, score
        return best

    # ----- tricks ----------------------------------------------------------------------------
    def _play(self, view: dict[str, JSON], legal: Sequence[Action]) -> Action:
        n = int(view["num_players"])
        me = int(view["seat"])
        trump = SUIT_LETTERS.index(str(view["trump"]))
        hand = _mask(view["hand"])
        trick = [(int(t["seat"]), parse_card(str(t["card"]))) for t in view["trick"]]
        seen = hand | (1 << parse_card(str(view["trump_indicator"])))
        for cards in view["taken"]:
            seen |= _mask(cards)
        for _, c in trick:
            seen |= 1 << c
        unseen = FULL_MASK & ~seen
        voids = [_mask_suits(v) for v in view["voids"]]
        my_side = side_of(me, n)
        side_tricks = int(view["side_tricks"][my_side])
        side_sevens = int(view["side_sevens"][my_side])
        threshold = int(view["threshold"])  # the engine's: SS-4.1, SS-5.3
        # SS-4.2: a 7th trick loses the deal (danger_at: TRICKS_TO_LOSE - 1).
        danger = side_tricks >= int(self.w[35])
        # Tricks without 7s bring the side nearer to 7 tricks: they cost more as it gets close.
        pressure = max(0, side_tricks - int(self.w[34]))
        leader = int(view["leader"])
        later = [(leader + j) % n for j in range(len(trick) + 1, n)]
        cards = [a.card for a in legal if isinstance(a, Play)]
        if not trick:
            choice = self._lead(cards, hand, unseen, trump, voids, later, danger, pressure)
        else:
            choice = self._follow(
                cards,
                trick,
                unseen,
                trump,
                voids,
                later,
                me,
                n,
                danger,
                pressure,
                side_sevens,
                threshold,
            )
        for a in legal:
            if isinstance(a, Play) and a.card == choice:
                return a
        return legal[0]

    def _lead(
        self,
        cards: list[int],
        hand: int,
        unseen: int,
        trump: int,
        voids: list[int],
        later: list[int],
        danger: bool,
        pressure: int,
    ) -> int:
        w = self.w
        best, best_score = cards[0], -1e9
        for c in cards:
            s = SUIT_OF[c]
            higher = unseen & SUIT_MASK[s] & ~((1 << (c + 1)) - 1)
            sure = _sure(c, s, unseen, trump, voids, later)
            is_seven = bool(SEVEN_MASK >> c & 1)
            length = (hand & SUIT_MASK[s]).bit_count()
            if danger or (pressure >= 2 and not is_seven):
                # Lead what others can beat: low cards under many unseen higher ones.
                score = higher.bit_count() - (w[6] if sure else 0.0) - (w[7] if is_seven else 0.0)
                score -= w[8] if s == trump else 0.0
            elif is_seven:
                score = w[9] if sure else w[10]
            elif c == ACE:
                score = w[11] if unseen & (1 << 6) else w[12]  # S7 out: followers may drop it
            else:
                seven = SEVEN_MASK & SUIT_MASK[s]
                seven_out_below = bool(unseen & seven) and (seven.bit_length() - 1) < c
                score = w[13] if sure and seven_out_below else w[14] - RANK_OF[c] / w[15]
                score += w[16] * length
                if s == trump:
                    score -= w[17]
            if score > best_score:
                best, best_score = c, score
        return best

    def _follow(
        self,
        cards: list[int],
        trick: list[tuple[int, int]],
        unseen: int,
        trump: int,
        voids: list[int],
        later: list[int],
        me: int,
        n: int,
        danger: bool,
        pressure: int,
        side_sevens: int,
        threshold: int,
    ) -> int:
        led = SUIT_OF[trick[0][1]]
        best_seat, best_card = trick[trick_winner([c for _, c in trick], trump)[0]]  # SS-3.2
        sevens_in_trick = sum(1 for _, c in trick if SEVEN_MASK >> c & 1)
        partner_wins = team_play(n) and best_seat == (me + 2) % n
        partner_sure = partner_wins and not _threats(best_card, led, unseen, trump, voids, later)
        top = card_power(best_card, led, trump)
        w = self.w
        choice, best_score = cards[0], -1e9
        for c in cards:
            is_seven = bool(SEVEN_MASK >> c & 1)
            power = card_power(c, led, trump)
            if power > top:
                sure = not _threats(c, led, unseen, trump, voids, later)
                p = 1.0 if sure else w[33]
                gained = sevens_in_trick + is_seven
                ends_on_sevens = side_sevens + gained >= threshold  # SS-4.1 comes first
                if danger and not ends_on_sevens:
                    score = -10.0 * p
                else:
                    score = p * (w[18] * gained + (w[19] if ends_on_sevens else 0.0))
                    score -= (1 - p) * (w[20] if is_seven else 0.0)
                    if partner_wins:
                        score -= w[21]  # no need to overtake the partner
                    # The cost of spending a strong card.
                    score -= w[22] if c == ACE else 0.0
                    score -= w[23] * RANK_OF[c] + (w[24] + w[25] * pressure if gained == 0 else 0.0)
                    score -= w[26] if SUIT_OF[c] == trump else 0.0  # keep trumps for 7s
            else:
                if partner_wins:
                    score = (w[27] if is_seven else 0.0) * (1.0 if partner_sure else w[28])
                else:
                    score = -w[29] if is_seven else 0.0
                score -= w[30] if c == ACE else 0.0
                score -= w[31] if SUIT_OF[c] == trump else 0.0
                score += RANK_OF[c] / w[32]  # shed high plain cards
            if score > best_score:
                choice, best_score = c, score
        return choice


class TunedGreedyAgent(GreedyAgent):
    """The greedy bot with ``TUNED_WEIGHTS`` (``greedy:weights=tuned``): the ``tuned``
    rollout policy of ISMCTS. No parameters."""

    def __init__(self, game: Game[Any] | None = None, **params: str) -> None:
        if params:
            raise TypeError(f"greedy-tuned takes no parameters, got {', '.join(sorted(params))}")
        super().__init__(game, weights="tuned")


def _mask_suits(letters: Any) -> int:
    m = 0
    for x in letters or ():
        m |= 1 << SUIT_LETTERS.index(str(x))
    return m


def _threats(c: int, led: int, unseen: int, trump: int, voids: list[int], later: list[int]) -> bool:
    """Whether a seat still to play might beat ``c`` with a card not seen yet."""
    if not later or c == ACE:
        return False
    power = card_power(c, led, trump)
    can_follow = [not voids[s] >> led & 1 for s in later]
    may_ruff = any(not f for f in can_follow) or (unseen & SUIT_MASK[led]).bit_count() < len(later)
    if unseen & 1 and (led == 0 or may_ruff):
        return True  # the A is out
    if (
        led != trump
        and any(can_follow)
        and power < 100
        and unseen & SUIT_MASK[led] & ~((1 << (c + 1)) - 1)
    ):
        return True
    if led == trump or may_ruff:  # a seat that can follow a plain lead cannot trump
        floor = c + 1 if SUIT_OF[c] == trump else 7 * trump
        trumps_above = unseen & SUIT_MASK[trump] & ~((1 << floor) - 1)
        if trumps_above and any(not voids[s] >> trump & 1 for s in later):
            return True
    return False


def _sure(c: int, s: int, unseen: int, trump: int, voids: list[int], later: list[int]) -> bool:
    """Whether leading ``c`` wins the trick against every unseen card."""
    return not _threats(c, s, unseen, trump, voids, later)


__all__ = ["GREEDY_WEIGHTS", "TUNED_WEIGHTS", "WEIGHT_NAMES", "GreedyAgent", "TunedGreedyAgent"]
