"""A fast, sensible Flip 7 bot that reads only the view (``Flip7State.view`` format).

- Hit or stay: hit while the one-card expected value is positive, ``(1 − p)·gain − p·score``
  (``p`` the bust probability from the remaining deck, ``gain`` the expected points of a safe
  number card, plus the Flip 7 bonus when one card short), and the round score is below
  ``threshold`` (default none); when an opponent is about to pass the target ahead of us, keep
  hitting; when staying now would win the game, stay.
- Negative modifiers and ÷2 go to the opponent they hurt most (weighted toward the leader), never
  to ourselves when someone else can take them.
- Just One More / Flip 4 / Flip Three / Freeze: the target whose expected change hurts opponents
  (or helps us) the most. Swap / Steal / Discard: every choice is scored by the change in round
  scores it causes (bust-aware), ours counted for, the opponents' against.
- Brutal Flip 7: +15, unless −15 keeps a leader from winning.

Parameters (agent spec ``greedy:threshold=25``): ``threshold`` (stay at or above this round
score; default none), ``aggression`` (weight of the expected gain against the risk of losing
the round score; default 1.0, above 1 hits more).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from septet.core.game import Action, Game
from septet.core.types import JSON
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import F7Action, Op
from septet.games.flip7.rules import (
    FLIP3_CARDS,
    FLIP4_CARDS,
    FLIP7_BONUS,
    FLIP7_CARDS,
    row_busts,
)

_K = C.KIND_OF_TOKEN
_VALUE = C.VALUE
_IS_NUM = C.IS_NUM


def _kinds(tokens: Sequence[str]) -> list[int]:
    return [_K[t] for t in tokens]


def _busts(row: list[int], k: int, vengeance: bool) -> bool:
    """Whether card ``k`` arriving in ``row`` busts it: the engine's rule (F7V-2, F7V-6, F7V-9)."""
    return row_busts(row, k, vengeance=vengeance)


def _score(row: list[int], vengeance: bool) -> int:
    """Round score of a live row without the Flip 7 bonus: the engine's rule (F7V-7.2, F7V-9)."""
    return C.row_points(row, vengeance)


def _after(row: list[int], k: int, vengeance: bool) -> int:
    """Round score after card ``k`` arrives in ``row`` (0 on a bust)."""
    if _IS_NUM[k] and _busts(row, k, vengeance):
        return 0
    if k == C.U7:
        return _score([k], vengeance)
    return _score([*row, k], vengeance)


class GreedyAgent:
    """Heuristic Flip 7 player (see the module docstring). Deterministic given the view."""

    def __init__(
        self, game: Game[Any], threshold: str | float = "", aggression: str | float = "1"
    ) -> None:
        self.name = "greedy"
        self.threshold = float(threshold) if str(threshold) != "" else None
        self.aggression = float(aggression)

    # ----- reading the view ------------------------------------------------------------------
    def _setup(self, view: dict[str, JSON]) -> None:
        self.v = view["edition"] == "vengeance"
        self.me = view["decision"]["player"]
        players = view["players"]
        self.rows = [_kinds(p["row"]) for p in players]
        self.status = [p["status"] for p in players]
        self.totals = [p["total"] for p in players]
        self.now = [p["round_score"] for p in players]
        deck = view["deck"] if view["deck_size"] else view["discard"]
        self.deck = [(_K[t], c) for t, c in deck.items() if c]
        self.left = sum(c for _, c in self.deck) or 1
        self.target = view["target"]
        best = max(self.totals[p] + self.now[p] for p in range(len(players)))
        # Weight of hurting each seat: more for whoever leads the race.
        self.weight = [
            1.0 + (0.5 if self.totals[p] + self.now[p] >= best and p != self.me else 0.0)
            for p in range(len(players))
        ]

    def _risk(self, p: int) -> tuple[float, float]:
        """(bust probability, expected gain of a safe card) of one more card for seat ``p``."""
        row = self.rows[p]
        bust = 0
        gain = 0.0
        base = _score(row, self.v)
        for k, c in self.deck:
            if _IS_NUM[k]:
                if _busts(row, k, self.v):
                    bust += c
                else:
                    gain += c * (_after(row, k, self.v) - base)
        prob = bust / self.left
        safe = self.left - bust
        g = gain / safe if safe else 0.0
        numbers = sum(1 for c in row if _IS_NUM[c])
        if numbers == FLIP7_CARDS - 1:
            g += (
                float(FLIP7_BONUS)
                * (sum(c for k, c in self.deck if _IS_NUM[k]) - bust)
                / max(safe, 1)
            )
        return prob, g

    def _hit_value(self, p: int) -> float:
        prob, gain = self._risk(p)
        score = float(self.now[p])
        return (1.0 - prob) * gain - prob * score

    # ----- decisions -------------------------------------------------------------------------
    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of ``legal_actions`` from ``view`` (never the full state)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        self._setup(view)
        kind = view["decision"]["kind"]
        if kind == "hit_stay":
            return self._hit_or_stay(legal_actions)
        if kind == "target":
            return self._target(view["decision"]["card"], legal_actions)
        if kind == "flip7_choice":
            return self._flip7_choice(legal_actions)
        return self._pick(legal_actions)

    def _hit_or_stay(self, legal: Sequence[Action]) -> Action:
        hit, stay = legal[0], legal[1]
        me = self.me
        score = self.now[me]
        mine = self.totals[me] + score
        others = [self.totals[p] + self.now[p] for p in range(len(self.totals)) if p != me]
        top_other = max(others) if others else 0
        if mine >= self.target and mine > top_other:
            return stay  # staying now most likely wins the game
        if top_other >= self.target and top_other >= mine:
            return hit  # someone is about to win: we must catch up
        if self.threshold is not None and score >= self.threshold:
            return stay
        prob, gain = self._risk(me)
        return hit if self.aggression * (1.0 - prob) * gain > prob * score else stay

    def _target(self, card: str, legal: Sequence[Action]) -> Action:
        k = _K[card]
        seats = [_f7(a).seat for a in legal]
        me = self.me
        values: list[float] = []
        for s in seats:
            if C.IS_MOD[k]:
                delta = _score([*self.rows[s], k], self.v) - _score(self.rows[s], self.v)
                if self.status[s] == "busted":
                    delta = C.MOD_ADD[k]
                val = delta if s == me else -delta * self.weight[s]
            elif k in (C.JOM, C.FLIP4, C.FLIP3):
                n_cards = 1 if k == C.JOM else (FLIP4_CARDS if k == C.FLIP4 else FLIP3_CARDS)
                prob, gain = self._risk(s)
                p_all = 1.0 - (1.0 - prob) ** n_cards
                change = (1.0 - p_all) * gain * n_cards - p_all * self.now[s]
                if k == C.JOM and self.status[s] == "active":
                    change -= max(0.0, self._hit_value(s))  # they must stay afterwards
                val = change if s == me else -change * self.weight[s]
            elif k == C.FREEZE:
                change = -self._hit_value(s)  # stopping now instead of playing on
                val = change if s == me else -change * self.weight[s]
            else:  # Second Chance: hand it to the weakest opponent
                val = -float(self.totals[s] + self.now[s])
            values.append(val + 1e-6 * self.totals[s])
        return legal[max(range(len(legal)), key=values.__getitem__)]

    def _pick(self, legal: Sequence[Action]) -> Action:
        best_value = None
        best = legal[0]
        for action in legal:
            a = _f7(action)
            rows = [list(r) for r in self.rows]
            moved: list[tuple[int, int]] = []
            rows[a.seat].remove(a.card)
            if a.op == Op.STEAL:
                moved.append((self.me, a.card))
            elif a.op == Op.SWAP:
                rows[a.other_seat].remove(a.other_card)
                moved.append((a.other_seat, a.card))
                moved.append((a.seat, a.other_card))
            new = [_score(r, self.v) for r in rows]
            for seat, k in moved:
                new[seat] = _after(rows[seat], k, self.v)
            value = 0.0
            for s in range(len(rows)):
                if self.status[s] == "busted":
                    continue
                old = _score(self.rows[s], self.v)
                d = new[s] - old
                value += d if s == self.me else -d * self.weight[s]
            if best_value is None or value > best_value:
                best_value, best = value, action
        return best

    def _flip7_choice(self, legal: Sequence[Action]) -> Action:
        me = self.me
        mine = self.totals[me] + self.now[me]  # includes the +15 while undecided
        others = [(self.totals[p] + self.now[p], p) for p in range(len(self.totals)) if p != me]
        theirs, leader = max(others)
        if mine >= self.target and mine > theirs:
            return legal[0]  # the bonus wins the game
        if theirs >= self.target and theirs - FLIP7_BONUS < self.target:
            for a in legal[1:]:
                if _f7(a).seat == leader:
                    return a  # −15 keeps the leader from winning now
        return legal[0]


def _f7(action: Action) -> F7Action:
    """``action`` as the Flip 7 action it is (the engine offers nothing else)."""
    return cast(F7Action, action)
