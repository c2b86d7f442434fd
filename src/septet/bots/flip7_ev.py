"""``flip7-ev``: the hit/stay policy maximising the expected round score (Flip 7, both editions).

The solver is an exact dynamic programme (expectimax with memoisation) over *your* row and the
cards left in the deck, whose composition is public (all rows are face up and the discard pile is
counted). Each hit draws one of the remaining cards with probability count / cards left (the
cards other players take between your turns do not change that distribution: you draw from the
same unseen deck). It includes busts, the Flip 7 bonus (+15, the round ends at once), modifiers,
and the action cards, in two modes:

- ``mode="single"``: you are the only player in the round, so every card you draw is yours
  (F7V-4.1, F7V-5.1: "if they are the only player not busted, they target themselves"): classic
  Freeze banks your score, Flip Three flips three cards on you (actions turned up are set aside
  and resolved afterwards unless you bust, F7V-4.8), Second Chance saves one duplicate (both cards
  are discarded, F7V-9), a second one is discarded; Vengeance Just One More! makes you take one
  card and stay, Flip 4! flips four, Discard makes you discard the row card that leaves the best
  value, Swap and Steal have no target (discarded, F7V-4.1), the modifiers are yours. This is the
  mode of the reference values below.
- ``mode="table"`` (the agent's): other players are in the round. A modifier drawn in Vengeance
  (all of them hurt) is given away; classic modifiers are yours; a Freeze is worth the better of
  banking your score and giving it away; Flip Three, Flip 4!, Just One More!, Swap, Steal and
  Discard drawn by you are given to (or used on) others and leave your row as it is. Cards that
  leave your row unchanged are dropped from the pool before solving, which changes no value
  (they only delay the next card that matters). Cards other players may later give you are not
  forecast: the value is your own round score under your own decisions.

Unlucky 7 (keep only it, F7V-6.2), Lucky 13 (two 13s allowed, F7V-6.3) and the Zero (scores 0
unless Flip 7, and forbids staying, F7V-6.1) are exact in ``single`` mode. In ``table`` mode one
approximation keeps decisions fast: the round that restarts from the Unlucky 7 alone is valued
with the deck as it is at the decision (less the Unlucky 7), not as it will be when it comes.

The programme can maximise the expectation of any non-decreasing utility of the final round
score instead of the score itself (``EVSolver(utility=...)``); ``flip7-ev:objective=race``
uses the estimated chance of winning the race to 200 (:mod:`septet.bots.flip7_race`) once the
end of the game is near.

Reference values (see ``docs/bots.md``; tests recompute them): a single player's round from a
fresh classic deck of number cards only (0-12) is worth exactly ``fresh_value("classic",
numbers_only=True)`` points, and with the full classic deck ``fresh_value("classic")``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from septet.bots.flip7_race import race_is_on, win_utility
from septet.core.game import Action, Game
from septet.core.types import JSON
from septet.games.flip7 import cards as C
from septet.games.flip7.rules import (
    FLIP3_CARDS,
    FLIP4_CARDS,
    FLIP7_BONUS,
    FLIP7_CARDS,
    busts,
    copies_allowed,
    is_flip7,
    may_stay,
)

Number = float | Fraction

_MASK_SUM = [sum(v for v in range(14) if m >> v & 1) for m in range(1 << 14)]
_POPCOUNT = [bin(m).count("1") for m in range(1 << 14)]
_NEUTRAL_V = (C.DIV2, C.M2, C.M4, C.M6, C.M8, C.M10, C.JOM, C.FLIP4, C.SWAP, C.STEAL, C.DISCARD)
_NEUTRAL_C = (C.FLIP3,)
_BAD = 13  # classic canonical pools: slot of the duplicates of row values (no classic 13s)


class BudgetExceeded(RuntimeError):
    """The solver met its ``max_states`` limit before finishing."""


class Row(NamedTuple):
    """Your side of the round, as the solver sees it (hashable).

    Attributes:
        mask: bit ``v`` set for each number value ``v`` in the row (Vengeance: bit 0 is the Zero,
            bit 7 is a 7 or the Unlucky 7, bit 13 is a 13 or the Lucky 13).
        t13: number of 13s held (Vengeance; 2 only with the Lucky 13).
        lucky: the Lucky 13 is held.
        add: sum of additive modifiers held (+2..+10 classic, −2..−10 Vengeance).
        x2: classic ×2 held. half: Vengeance ÷2 held. second: classic Second Chance held.
        forced: cards still to be flipped on you (Flip 4!, Flip Three, Just One More!).
        flip: those flips set action cards aside (Flip 4!/Flip Three, F7V-4.8).
        stay_after: you must stay once the forced card is resolved (Just One More!, F7V-4.4).
        pending: action kinds set aside during flips, resolved in order afterwards.
    """

    mask: int = 0
    t13: int = 0
    lucky: bool = False
    add: int = 0
    x2: bool = False
    half: bool = False
    second: bool = False
    forced: int = 0
    flip: bool = False
    stay_after: bool = False
    pending: tuple[int, ...] = ()


_new_row = tuple.__new__
_MASK, _ADD, _X2, _HALF, _SECOND, _FORCED, _FLIP, _PENDING = (
    Row._fields.index(name)
    for name in ("mask", "add", "x2", "half", "second", "forced", "flip", "pending")
)


def _set(row: Row, index: int, value: Any) -> Row:
    """``row`` with field ``index`` replaced: ``Row._replace`` without its keyword parsing (the
    programme builds millions of rows)."""
    return _new_row(Row, (*row[:index], value, *row[index + 1 :]))


def row_from_tokens(tokens: Sequence[str], edition: str) -> Row:
    """A :class:`Row` from the tokens of a row (``["5", "l13", "-4"]``, engine notation).

    Raises:
        ValueError: an unknown token.
    """
    mask = t13 = add = 0
    lucky = x2 = half = second = False
    for tok in tokens:
        kind = C.KIND_OF_TOKEN.get(str(tok).lower())
        if kind is None:
            raise ValueError(f"unknown card {tok!r}; cards are: {', '.join(C.TOKENS)}")
        if kind == C.ZERO:
            mask |= 1
        elif kind == C.L13 or (edition == "vengeance" and kind == 13):
            mask |= 1 << 13
            t13 += 1
            lucky = lucky or kind == C.L13
        elif C.IS_NUM[kind]:
            mask |= 1 << C.VALUE[kind]
        elif kind == C.X2:
            x2 = True
        elif kind == C.DIV2:
            half = True
        elif kind == C.SECOND:
            second = True
        elif C.IS_MOD[kind]:
            add += C.MOD_ADD[kind]
    return Row(mask, t13, lucky, add, x2, half, second)


def check_row_open(tokens: Sequence[str], edition: str) -> None:
    """Check that a row (engine notation tokens) still has a hit/stay decision: not a bust
    (F7V-2, with the Lucky 13 exception F7V-6.3) and not a Flip 7 (F7V-7).

    Raises:
        ValueError: the row has busted or already holds seven number cards (a sentence).
    """
    values: list[int] = []
    lucky = False
    for tok in tokens:
        kind = C.KIND_OF_TOKEN[str(tok).lower()]
        if C.IS_NUM[kind]:
            values.append(C.VALUE[kind])
            lucky = lucky or kind == C.L13
    for value in set(values):
        copies = values.count(value)
        allowed = copies_allowed(value, vengeance=edition == "vengeance", lucky=lucky)
        if copies > allowed:
            rule = "F7V-2, F7V-6.3" if value == 13 else "F7V-2"
            raise ValueError(f"{copies} cards of value {value} is already a bust ({rule})")
    if is_flip7(len(values)):
        raise ValueError("seven number cards is already a Flip 7 (F7V-7)")


def fresh_pool(edition: str, numbers_only: bool = False, decks: int = 1) -> tuple[int, ...]:
    """Counts per card kind (``cards.NUM_KINDS`` long) of ``decks`` fresh decks shuffled
    together (F7V-1.5); ``numbers_only`` keeps the number cards (classic 0-12; Vengeance 1-13
    with the Zero, Unlucky 7 and Lucky 13)."""
    deck = [c * decks for c in (C.classic_deck() if edition == "classic" else C.vengeance_deck())]
    if numbers_only:
        deck = [c if C.IS_NUM[k] else 0 for k, c in enumerate(deck)]
    return tuple(deck)


def pool_from_counts(counts: Mapping[str, int]) -> tuple[int, ...]:
    """A pool tuple from ``{token: count}`` (the engine's ``view["deck"]``).

    Raises:
        ValueError: an unknown token or a negative count.
    """
    pool = [0] * C.NUM_KINDS
    for tok, n in counts.items():
        kind = C.KIND_OF_TOKEN.get(str(tok).lower())
        if kind is None or int(n) < 0:
            raise ValueError(f"bad deck entry {tok!r}: {n!r}")
        pool[kind] = int(n)
    return tuple(pool)


class EVSolver:
    """Optimal expected round score of one player's hit/stay decisions (see the module doc).

    Args:
        edition: ``"classic"`` or ``"vengeance"``.
        mode: ``"single"`` or ``"table"``.
        exact: compute with :class:`fractions.Fraction` (slower; for reference values).
        max_states: raise :class:`BudgetExceeded` once the memo holds this many positions
            (``None``: no limit). Clear the memo with :meth:`clear`.
        utility: maximise the expectation of ``utility[s]`` of the final round score ``s``
            instead of ``s`` itself (a non-decreasing sequence; scores beyond its end take its
            last value); values are then relative to ``utility[0]``, the value of a bust. The
            race objective of :mod:`septet.bots.flip7_race` uses it.

    Raises:
        ValueError: an unknown edition or mode, or ``exact`` with a ``utility``.

    The memo is kept between calls; one solver serves any number of positions.
    """

    def __init__(
        self,
        edition: str = "classic",
        mode: str = "table",
        exact: bool = False,
        max_states: int | None = None,
        utility: Sequence[float] | None = None,
    ) -> None:
        if edition not in ("classic", "vengeance"):
            raise ValueError(f"edition must be classic or vengeance, not {edition!r}")
        if mode not in ("single", "table"):
            raise ValueError(f"mode must be single or table, not {mode!r}")
        self.edition = edition
        self.vengeance = edition == "vengeance"
        self.single = mode == "single"
        self.exact = exact
        self._one: Number = Fraction(1) if exact else 1.0
        self._zero: Number = Fraction(0) if exact else 0.0
        self._memo: dict[tuple[Row, bytes], Number] = {}
        self.max_states = max_states
        self._u7_pool: tuple[int, ...] | None = None
        self._bad: int | None = _BAD if not self.vengeance else (None if self.single else 0)
        if utility is not None and exact:
            raise ValueError("exact values are for the round score, not for a utility")
        self._utility: list[float] | None = (
            None if utility is None else [float(u) - float(utility[0]) for u in utility]
        )

    def clear(self) -> None:
        """Forget the memo (positions from earlier pools)."""
        self._memo.clear()

    # ----- scoring --------------------------------------------------------------------------
    def numbers(self, row: Row) -> int:
        """Number cards in the row (toward Flip 7)."""
        return _POPCOUNT[row.mask] + (1 if row.t13 == 2 else 0)

    def score(self, row: Row, flip7: bool = False) -> int:
        """The round score of the row if the round ended now (F7V-7.2, F7V-9)."""
        s = _MASK_SUM[row.mask] + (13 if row.t13 == 2 else 0)
        if self.vengeance:
            if row.half:
                s //= 2
            s = max(0, s + row.add)
            if row.mask & 1 and not flip7:
                s = 0
        else:
            if row.x2:
                s *= 2
            s += row.add
        return s + FLIP7_BONUS if flip7 else s

    @property
    def utility(self) -> list[float] | None:
        """The utility maximised (relative to a bust's), or ``None`` for the round score."""
        return self._utility

    def payoff(self, row: Row, flip7: bool = False) -> Number:
        """What the programme maximises the expectation of, for a round ending with ``row``:
        its score (:meth:`score`), or the utility of that score (relative to a bust's)."""
        s = self.score(row, flip7)
        u = self._utility
        if u is None:
            return self._one * s
        return u[s] if s < len(u) else u[-1]

    def can_stay(self, row: Row) -> bool:
        """Staying is allowed (not with the Vengeance Zero, F7V-6.1)."""
        return may_stay(bool(row.mask & 1), self.vengeance)

    # ----- the programme --------------------------------------------------------------------
    def value(self, row: Row, pool: Sequence[int]) -> Number:
        """Optimal expected final round score (or :meth:`payoff`, with a utility) from ``row``
        with ``pool`` left in the deck."""
        return self._v(row, self._canonical(row, pool))

    def _canonical(self, row: Row, pool: Sequence[int]) -> tuple[int, ...]:
        """The pool in the solver's canonical form.

        In ``table`` mode the cards that leave your row as it is are dropped. Whenever values
        never leave the row (classic; Vengeance ``table`` mode), the remaining copies of plain
        values already in the row are all alike (each busts, or spends the Second Chance), so
        only their total matters: it is kept in slot ``self._bad`` (kind 13 classic, 0
        Vengeance: kinds those decks lack).
        """
        lst = list(pool)
        if not self.single:
            for k in _NEUTRAL_V if self.vengeance else _NEUTRAL_C:
                lst[k] = 0
        bad = self._bad
        if bad is None:
            return tuple(lst)
        if self.vengeance and lst[C.U7]:
            u7 = list(lst)
            u7[C.U7] = 0
            self._u7_pool = self._fold(1 << 7, u7, bad)
        return self._fold(row.mask, lst, bad)

    @staticmethod
    def _fold(mask: int, lst: list[int], bad: int) -> tuple[int, ...]:
        total = lst[bad]
        lst = list(lst)
        for v in range(1, 13) if bad == 0 else range(13):
            if mask >> v & 1:
                total += lst[v]
                lst[v] = 0
        lst[bad] = total
        return tuple(lst)

    def _v(self, row: Row, pool: tuple[int, ...]) -> Number:
        key = (row, bytes(pool))
        got = self._memo.get(key)
        if got is None:
            if self.max_states is not None and len(self._memo) >= self.max_states:
                raise BudgetExceeded(f"more than {self.max_states} positions")
            got = self._value(row, pool)
            self._memo[key] = got
        return got

    def _value(self, row: Row, pool: tuple[int, ...]) -> Number:
        if row.forced > 0:
            nxt = _set(row, _FORCED, row.forced - 1)
            if sum(pool) == 0:
                return self._v(_set(nxt, _FORCED, 0), pool)
            return self._draw(nxt, pool, row.flip)
        if row.pending:
            kind = row.pending[0]
            return self._action(row._replace(pending=row.pending[1:], flip=False), pool, kind)
        if row.flip:
            row = _set(row, _FLIP, False)
        if row.stay_after:
            return self.payoff(row)
        stay = self.payoff(row)
        if sum(pool) == 0:
            return stay
        hit = self._draw(row, pool, False)
        if not self.can_stay(row):
            return hit
        return hit if hit > stay else stay

    def hit_value(self, row: Row, pool: Sequence[int]) -> Number:
        """Expected final score (or :meth:`payoff`) of hitting now and playing on optimally."""
        pool = self._canonical(row, pool)
        if sum(pool) == 0:
            return self.payoff(row)
        return self._draw(row, pool, False)

    def one_step_value(self, row: Row, pool: Sequence[int]) -> float:
        """A lower bound of :meth:`hit_value`: the expected score (or payoff) of hitting once
        and then staying when allowed (so a one-step value above the stay score proves that
        hitting is best).

        Each card of ``pool`` (counts per kind) is valued by what staying right after it
        scores: a number card that busts counts 0; one saved by the Second Chance leaves the
        row as it is (F7V-9); a modifier is yours alone and is scored, in ``table`` mode a
        Vengeance modifier is given away (F7V-5.1). Cards that leave your row unchanged
        (Freeze, Second Chance; in ``table`` mode every action, given to others; in
        ``single`` mode Swap and Steal, which have no target, F7V-4.1) score the row as it is.
        Where you may not stay at once (the Vengeance Zero, F7V-6.1; Just One More!, Flip 4!,
        Flip Three and Discard on you in ``single`` mode, F7V-4.4, F7V-4.7, F7V-4.8) the card
        counts 0: every round score and every payoff is at least a bust's, 0, so the bound
        holds (issue 25: it used to give up and return 0 for the whole position).
        """
        total = sum(pool)
        if total == 0:
            return float(self.payoff(row))
        acc = 0.0
        for kind, n in enumerate(pool):
            if n:
                acc += n * float(self._stay_after_one(row, kind))
        return acc / total

    def _stay_after_one(self, row: Row, kind: int) -> Number:
        """The payoff of staying right after card ``kind`` arrives (0 where staying is not
        allowed at once): the terms of :meth:`one_step_value`."""
        if C.IS_NUM[kind]:
            if self._busts(row, kind):
                return self._zero
            after = self._after_number(row, kind)
            if after is None:  # saved by the Second Chance: both cards are discarded
                return self.payoff(_set(row, _SECOND, False))
            flip7 = self.numbers(after) >= FLIP7_CARDS
            if not flip7 and not self.can_stay(after):
                return self._zero  # the Zero: no staying yet; whatever follows is >= 0
            return self.payoff(after, flip7=flip7)
        if C.IS_MOD[kind]:
            if self.vengeance and not self.single:
                return self.payoff(row)  # given to another player
            return self.payoff(self._after_mod(row, kind))
        if not self.single or kind in (C.FREEZE, C.SECOND, C.SWAP, C.STEAL):
            return self.payoff(row)
        return self._zero  # forced draws or a discard on you: at least a bust's 0

    def _after_number(self, row: Row, kind: int) -> Row | None:
        if kind == C.U7:
            return Row(mask=1 << 7)
        if kind == C.ZERO:
            return row._replace(mask=row.mask | 1)
        v = C.VALUE[kind]
        if self.vengeance and v == 13:
            if row.t13 == 0:
                return row._replace(mask=row.mask | 1 << 13, t13=1, lucky=kind == C.L13)
            return row._replace(t13=2, lucky=True)
        if row.mask >> v & 1:
            return None
        return row._replace(mask=row.mask | 1 << v)

    def _after_mod(self, row: Row, kind: int) -> Row:
        if kind == C.X2:
            return row._replace(x2=True)
        if kind == C.DIV2:
            return row._replace(half=True)
        return row._replace(add=row.add + C.MOD_ADD[kind])

    def bust_probability(self, row: Row, pool: Sequence[int]) -> float:
        """Probability that the next card busts you at once."""
        total = sum(pool)
        if total == 0:
            return 0.0
        bad = sum(n for k, n in enumerate(pool) if n and C.IS_NUM[k] and self._busts(row, k))
        return bad / total

    def _busts(self, row: Row, kind: int) -> bool:
        """Whether number card ``kind`` busts ``row``: the engine's rule (F7V-2, F7V-6.3, F7V-9)
        on the row's facts (13s held, the Lucky 13, the Second Chance)."""
        v = C.VALUE[kind]
        same = row.t13 if v == 13 and self.vengeance else row.mask >> v & 1
        return busts(kind, same, row.lucky, vengeance=self.vengeance, second_chance=row.second)

    def _draw(self, row: Row, pool: tuple[int, ...], set_aside: bool) -> Number:
        total = sum(pool)
        acc = self._zero
        lst = list(pool)
        bad = self._bad
        plain = range(13) if bad == _BAD else range(1, 13)
        for kind, n in enumerate(pool):
            if not n:
                continue
            if bad is not None and (kind == bad or kind in plain):
                if kind == bad:  # a duplicate of a row value
                    if not row.second:
                        continue  # bust: adds 0
                    lst[bad] = n - 1
                    v = self._v(_set(row, _SECOND, False), tuple(lst))  # both discarded
                    lst[bad] = n
                else:
                    new = _set(row, _MASK, row.mask | 1 << kind)
                    if self.numbers(new) >= FLIP7_CARDS:
                        v = self.payoff(new, flip7=True)
                    else:
                        lst[kind] = 0
                        lst[bad] += n - 1
                        v = self._v(new, tuple(lst))
                        lst[bad] -= n - 1
                        lst[kind] = n
                acc += v * n
                continue
            lst[kind] = n - 1
            v = self._receive(row, tuple(lst), kind, set_aside)
            lst[kind] = n
            acc += v * n
        if self.exact:
            return Fraction(acc) / total
        return acc / total

    def _receive(self, row: Row, pool: tuple[int, ...], kind: int, set_aside: bool) -> Number:
        if C.IS_NUM[kind]:
            if kind == C.U7 and self._u7_pool is not None:  # table mode: see the module doc
                return self._v(Row(mask=1 << 7), self._u7_pool)
            if kind == C.U7:  # F7V-6.2: keep only this 7, never a bust
                new = Row(
                    mask=1 << 7,
                    forced=row.forced,
                    flip=row.flip,
                    stay_after=row.stay_after,
                    pending=row.pending,
                )
            elif kind == C.ZERO:
                if row.mask & 1:  # a second Zero (two decks) busts (F7V-1.5)
                    return self._zero
                new = _set(row, _MASK, row.mask | 1)
            elif self.vengeance and C.VALUE[kind] == 13:  # F7V-6.3
                lucky = row.lucky or kind == C.L13
                if row.t13 == 0:
                    new = row._replace(mask=row.mask | 1 << 13, t13=1, lucky=lucky)
                elif row.t13 == 1 and lucky:
                    new = row._replace(t13=2, lucky=True)
                else:
                    return self._zero
            else:
                bit = 1 << C.VALUE[kind]
                if row.mask & bit:
                    if row.second and not self.vengeance:  # both cards are discarded
                        return self._v(_set(row, _SECOND, False), pool)
                    return self._zero  # bust
                new = _set(row, _MASK, row.mask | bit)
            if self.numbers(new) >= FLIP7_CARDS:
                return self.payoff(new, flip7=True)  # the round ends at once
            return self._v(new, pool)
        if C.IS_MOD[kind]:
            if self.vengeance and not self.single:
                return self._v(row, pool)  # given to another player
            if kind == C.X2:
                row = _set(row, _X2, True)
            elif kind == C.DIV2:
                row = _set(row, _HALF, True)
            else:
                row = _set(row, _ADD, row.add + C.MOD_ADD[kind])
            return self._v(row, pool)
        if set_aside:
            return self._v(_set(row, _PENDING, (*row.pending, kind)), pool)
        return self._action(row, pool, kind)

    def _action(self, row: Row, pool: tuple[int, ...], kind: int) -> Number:
        """Resolve an action card you received (not during flips)."""
        single = self.single
        if kind == C.SECOND:
            return self._v(_set(row, _SECOND, True) if not row.second else row, pool)
        if kind == C.FREEZE:
            if single:
                return self.payoff(row)
            return max(self.payoff(row), self._v(row, pool))
        if kind in (C.FLIP3, C.FLIP4) and single:
            n = FLIP3_CARDS if kind == C.FLIP3 else FLIP4_CARDS
            return self._v(row._replace(forced=row.forced + n, flip=True), pool)
        if kind == C.JOM and single:
            return self._v(row._replace(forced=row.forced + 1, flip=False, stay_after=True), pool)
        if kind == C.DISCARD and single and row.mask:
            best: Number | None = None
            for v in range(14):
                if not row.mask >> v & 1:
                    continue
                if v == 13 and row.t13 == 2:
                    new = row._replace(t13=1)  # keep the Lucky 13 (any 13 scores 13)
                elif v == 13:
                    new = row._replace(mask=row.mask & ~(1 << 13), t13=0, lucky=False)
                else:
                    new = _set(row, _MASK, row.mask & ~(1 << v))
                val = self._v(new, pool)
                if best is None or val > best:
                    best = val
            assert best is not None
            return best
        return self._v(row, pool)  # no effect on your row


def fresh_value(
    edition: str = "classic", numbers_only: bool = False, exact: bool = False
) -> Number:
    """Optimal expected score of a single player's round from a fresh deck (``mode="single"``)."""
    solver = EVSolver(edition, "single", exact=exact)
    return solver.value(Row(), fresh_pool(edition, numbers_only))


@dataclass(frozen=True)
class Advice:
    """The solver's reading of a hit/stay decision.

    Attributes:
        bust_probability: chance that the next card busts you at once.
        stay: your round score if you stay now (``None`` when staying is not allowed).
        hit: expected final round score of hitting and then playing optimally.
        best: the better of the two (the position's value).
        action: ``"hit"`` or ``"stay"``.
    """

    bust_probability: float
    stay: float | None
    hit: float
    best: float
    action: str


def advise(solver: EVSolver, row: Row, pool: Sequence[int]) -> Advice:
    """Bust probability, the value of staying and of hitting, and the advice."""
    pool = tuple(pool)
    stay = float(solver.score(row)) if solver.can_stay(row) else None
    hit = float(solver.hit_value(row, pool)) if sum(pool) else float(solver.score(row))
    if stay is None:
        action, best = "hit", hit
    else:
        action = "hit" if hit > stay + 1e-12 else "stay"
        best = max(hit, stay)
    return Advice(solver.bust_probability(row, pool), stay, hit, best, action)


def advise_lower_bound(solver: EVSolver, row: Row, pool: Sequence[int]) -> Advice:
    """Advice from the lower bound "hit once, then stay" of hitting (no programme to run).

    Exact when it advises a hit (hitting on can only do better); a stay is then the best that
    this bound can show, not a proof.
    """
    pool = tuple(pool)
    stay = float(solver.score(row)) if solver.can_stay(row) else None
    hit = float(solver.one_step_value(row, pool)) if sum(pool) else float(solver.score(row))
    action = "hit" if stay is None or hit > stay + 1e-12 else "stay"
    best = hit if stay is None else max(hit, stay)
    return Advice(solver.bust_probability(row, pool), stay, hit, best, action)


def reduced_pool(pool: Sequence[int]) -> tuple[int, ...]:
    """The pool without modifier and action cards (number cards, Second Chance and Freeze
    kept): the smaller model used when the exact programme exceeds its position budget."""
    return tuple(n if C.IS_NUM[k] or k in (C.SECOND, C.FREEZE) else 0 for k, n in enumerate(pool))


class Flip7EVAgent:
    """``flip7-ev``: hit or stay by the expected-round-score programme; other choices (targets,
    Swap/Steal/Discard picks, the brutal Flip 7 choice) are the greedy bot's, and so are the two
    race overrides at the end of the game (:meth:`race_override`).

    The pool is the deck's public composition (the discard pile once the deck is empty,
    F7V-3.6); the mode is ``single`` when every other player has busted, else ``table``. A
    decision is settled first by the cheap exact test "hitting once then staying already beats
    staying"; otherwise the programme runs, within ``max_states`` positions (default 20000);
    beyond that it re-solves the ``table`` model with the modifiers and action cards other than
    Freeze and Second Chance counted as leaving your row unchanged (early in a round the cheap
    test settles most decisions; the ``stats`` attribute counts how each was settled).

    With ``objective="race"`` the programme maximises the chance of winning the game instead
    of the expected round score whenever the game may end within a round or two
    (:func:`septet.bots.flip7_race.race_is_on` with ``margin``): the payoff of a round score
    ``s`` is the estimated probability of winning from there
    (:func:`septet.bots.flip7_race.win_utility`).

    Args:
        game: a ``flip7`` game (either edition).
        max_states: position budget per decision (spec ``flip7-ev:max_states=50000``).
        objective: ``"round"`` (default: the expected round score) or ``"race"`` (spec
            ``flip7-ev:objective=race``).
        margin: with ``objective="race"``, the race objective is used once someone's total
            plus round score is within this many points of the target (default 60; at least
            the target: always).

    Raises:
        ValueError: ``max_states`` below 1 or an unknown objective.
    """

    def __init__(
        self,
        game: Game[Any],
        max_states: int | str = 20000,
        objective: str = "round",
        margin: int | str = 60,
    ) -> None:
        from septet.bots.greedy.flip7 import GreedyAgent

        self.name = "flip7-ev"
        self.edition = str(game.options.edition)
        self.max_states = int(max_states)
        if self.max_states < 1:
            raise ValueError(f"max_states must be at least 1, not {max_states!r}")
        if objective not in ("round", "race"):
            raise ValueError(f"objective must be round or race, not {objective!r}")
        self.objective = objective
        self.margin = int(margin)
        self._utilities: dict[str, list[float]] = {}
        self.greedy = GreedyAgent(game)
        self.stats = {
            "decisions": 0,
            "race": 0,
            "one_step": 0,
            "solved": 0,
            "reduced": 0,
            "win_utility": 0,
        }
        """How decisions were settled (for the benchmark and the docs)."""

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of ``legal_actions`` from ``view`` (never the full state)."""
        decision = view.get("decision") or {}
        if len(legal_actions) == 1 or decision.get("kind") != "hit_stay":
            return self.greedy.act(view, legal_actions, rng)
        by_name = {str(a): a for a in legal_actions}
        if "stay" not in by_name or "hit" not in by_name:
            return legal_actions[0]
        self.stats["decisions"] += 1
        race = self.race_override(view)
        if race is not None:
            self.stats["race"] += 1
            return by_name[race]
        action = self.decide(view)
        return by_name[action]

    @staticmethod
    def race_override(view: Mapping[str, JSON]) -> str | None:
        """The race to the target overrides round-score play (as greedy does): stay when
        staying now puts you at the target ahead of everyone (F7V-3.7); hit when another
        player is at the target ahead of you. ``None`` otherwise."""
        me = int(view["decision"]["player"])
        players = view["players"]
        now = [int(p["total"]) + int(p["round_score"]) for p in players]
        mine = now[me]
        top_other = max((now[i] for i in range(len(players)) if i != me), default=0)
        target = int(view["target"])
        if mine >= target and mine > top_other:
            return "stay"
        if top_other >= target and top_other >= mine:
            return "hit"
        return None

    def position(self, view: Mapping[str, JSON]) -> tuple[EVSolver, Row, tuple[int, ...]]:
        """The solver, your row and the pool for the hit/stay decision in ``view``."""
        me = int(view["decision"]["player"])
        players = view["players"]
        alone = all(p["status"] == "busted" for i, p in enumerate(players) if i != me)
        utility = None
        if self.objective == "race" and race_is_on(view, self.margin):
            utility = self._win_utility(view)
        solver = EVSolver(
            self.edition,
            "single" if alone else "table",
            max_states=self.max_states,
            utility=utility,
        )
        row = row_from_tokens(players[me]["row"], self.edition)
        deck = view["deck"] if view.get("deck_size", 1) else view["discard"]
        return solver, row, pool_from_counts(deck)

    def _win_utility(self, view: Mapping[str, JSON]) -> list[float]:
        """:func:`win_utility` of ``view``, remembered for the other decisions of the same
        race position (your row changes between them, the totals and the others do not)."""
        me = view["decision"]["player"]
        key = json.dumps(
            [view["target"], me]
            + [
                [p["total"]] if i == me else [p["total"], p["status"], p["round_score"]]
                for i, p in enumerate(view["players"])
            ]
        )
        got = self._utilities.get(key)
        if got is None:
            if len(self._utilities) > 256:
                self._utilities.clear()
            got = self._utilities[key] = list(win_utility(view))
            self.stats["win_utility"] += 1
        return got

    def decide(self, view: Mapping[str, JSON]) -> str:
        """``"hit"`` or ``"stay"`` for the hit/stay decision in ``view``."""
        solver, row, pool = self.position(view)
        stay = solver.payoff(row)
        if solver.one_step_value(row, pool) > stay:
            self.stats["one_step"] += 1
            return "hit"
        try:
            hit = solver.hit_value(row, pool)
            self.stats["solved"] += 1
        except BudgetExceeded:
            fallback = EVSolver(self.edition, "table", utility=solver.utility)
            hit = fallback.hit_value(row, reduced_pool(pool))
            self.stats["reduced"] += 1
        return "hit" if hit > stay else "stay"


__all__ = [
    "Advice",
    "BudgetExceeded",
    "EVSolver",
    "Flip7EVAgent",
    "Row",
    "advise",
    "advise_lower_bound",
    "check_row_open",
    "fresh_pool",
    "fresh_value",
    "pool_from_counts",
    "reduced_pool",
    "row_from_tokens",
]
