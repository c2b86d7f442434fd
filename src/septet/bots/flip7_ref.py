"""Reference values of ``flip7-ev`` for the full classic deck (one player), vectorised over the
modifiers.

:class:`septet.bots.flip7_ev.EVSolver` keys every position by the modifiers drawn, which makes
the full classic deck (six modifiers, Freeze, Flip Three, Second Chance) too large for it. Here
each position *without* its modifiers carries a numpy vector of values, one per subset ``S`` of
the modifiers drawn so far (64 entries): modifiers never bust and never change what the other
cards do, so the programme is the same for every ``S`` except for the score (``×2`` doubles the
number sum, ``+k`` adds) and the number of cards left. Drawing a modifier moves from ``S`` to
``S ∪ {m}`` of the same position, so each position's vector is filled from the largest subsets
down. Same rules and results as ``EVSolver(edition="classic", mode="single")`` (the tests compare
them); classic, single player only.

Usage::

    python -m septet.bots.flip7_ref [float32]   # prints the full-deck value
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

from septet.bots.flip7_ev import _MASK_SUM, _POPCOUNT, fresh_pool
from septet.games.flip7 import cards as C
from septet.games.flip7.rules import FLIP7_BONUS, FLIP7_CARDS

_MODS = (C.P2, C.P4, C.P6, C.P8, C.P10, C.X2)
_BAD = 13


class VectorSolver:
    """Classic, single player: optimal expected round score for every subset of modifiers drawn.

    Args:
        pool: counts per card kind (``cards.NUM_KINDS`` long) of the deck at the start, with an
            empty row.
        dtype: ``"float64"`` (default) or ``"float32"``, which cuts the memo's memory by
            about a third (the full deck needs tens of millions of positions) and keeps about
            7 significant digits.

    Raises:
        ValueError: another dtype, or more than one copy of a modifier.
    """

    def __init__(self, pool: Sequence[int], dtype: str = "float64") -> None:
        import numpy as np

        self.np = np
        if dtype not in ("float64", "float32"):
            raise ValueError(f"dtype must be float64 or float32, not {dtype!r}")
        self.dtype = np.dtype(dtype)
        pool = list(pool)
        self.mod_avail = [pool[k] > 0 for k in _MODS]
        for k in _MODS:
            if pool[k] > 1:
                raise ValueError("one copy of each modifier at most")
            pool[k] = 0
        self.start = tuple(pool)
        subsets = np.arange(64)
        self.mult = np.where(subsets & (1 << 5), 2.0, 1.0).astype(self.dtype)
        self.add = np.zeros(64, dtype=self.dtype)
        for i, k in enumerate(_MODS[:5]):
            self.add += np.where(subsets & (1 << i), float(C.MOD_ADD[k]), 0.0).astype(self.dtype)
        avail_bits = sum(1 << i for i, a in enumerate(self.mod_avail) if a)
        self.mods_left = np.array(
            [_POPCOUNT[avail_bits] - _POPCOUNT[s & avail_bits] for s in range(64)],
            dtype=self.dtype,
        )
        # subsets by decreasing size, and for each modifier the subsets it can join
        self.layers = [
            np.array([s for s in range(64) if _POPCOUNT[s] == size]) for size in range(6, -1, -1)
        ]
        self.joins = []
        for i, a in enumerate(self.mod_avail):
            if not a:
                continue
            src = np.array([s for s in range(64) if not s & (1 << i)])
            self.joins.append((i, src, src | (1 << i)))
        self.memo: dict[tuple[Any, ...], Any] = {}

    def value(self) -> float:
        """Optimal expected round score from the empty row (no modifier drawn)."""
        vec = self._v(0, False, 0, False, (), self.start)
        return float(vec[0])

    # mask, second, forced, flip, pending, pool -> vector over S
    def _v(
        self, mask: int, second: bool, forced: int, flip: bool, pending: tuple[int, ...], pool: Any
    ) -> Any:
        if not forced:
            flip = False  # only matters while cards are being flipped
        if C.FREEZE in pending:  # the Freeze ends the round: later set-aside cards never count
            pending = pending[: pending.index(C.FREEZE) + 1]
        key = (mask, second, forced, flip, pending, bytes(pool))
        got = self.memo.get(key)
        if got is None:
            got = self._value(mask, second, forced, flip, pending, pool)
            self.memo[key] = got
        return got

    def _stay(self, mask: int) -> Any:
        return self.mult * _MASK_SUM[mask] + self.add

    def _value(
        self, mask: int, second: bool, forced: int, flip: bool, pending: tuple[int, ...], pool: Any
    ) -> Any:
        np = self.np
        base = sum(pool)
        total = base + self.mods_left
        if forced > 0:
            nm = self._nonmod(mask, second, forced - 1, flip, pending, pool, flip)
            acc = nm.copy()
            for _i, src, dst in self.joins:
                nxt = self._v(mask, second, forced - 1, flip, pending, pool)
                acc[src] += nxt[dst]
            with np.errstate(invalid="ignore", divide="ignore"):
                out = np.where(total > 0, acc / np.maximum(total, 1), 0.0)
            # nothing left to draw: the flips stop
            empty = self._v(mask, second, 0, False, pending, pool) if (total == 0).any() else None
            if empty is not None:
                out = np.where(total > 0, out, empty)
            return out
        if pending:
            kind, rest = pending[0], pending[1:]
            if kind == C.FREEZE:
                return self._stay(mask)
            if kind == C.FLIP3:
                return self._v(mask, second, 3, True, rest, pool)
            return self._v(mask, True, 0, False, rest, pool)  # Second Chance kept or discarded
        stay = self._stay(mask)
        nm = self._nonmod(mask, second, 0, False, (), pool, False)
        out = np.empty(64, dtype=self.dtype)
        for layer in self.layers:
            acc = nm[layer].copy()
            for i, _src, _dst in self.joins:
                bit = 1 << i
                ok = (layer & bit) == 0
                acc[ok] += out[layer[ok] | bit]
            tot = total[layer]
            hit = np.where(tot > 0, acc / np.maximum(tot, 1), -1.0)
            out[layer] = np.maximum(stay[layer], hit)
        return out

    def _nonmod(
        self,
        mask: int,
        second: bool,
        forced: int,
        flip: bool,
        pending: tuple[int, ...],
        pool: Any,
        set_aside: bool,
    ) -> Any:
        """Sum over the non-modifier cards of count × value after receiving it (vector)."""
        np = self.np
        acc = np.zeros(64, dtype=self.dtype)
        lst = list(pool)
        for kind, n in enumerate(pool):
            if not n:
                continue
            if kind == _BAD:
                if second:
                    lst[_BAD] = n - 1
                    acc += n * self._v(mask, False, forced, flip, pending, tuple(lst))
                    lst[_BAD] = n
                continue
            if kind < _BAD:
                new = mask | 1 << kind
                if _POPCOUNT[new] >= FLIP7_CARDS:
                    acc += n * (self._stay(new) + float(FLIP7_BONUS))
                    continue
                lst[kind] = 0
                lst[_BAD] += n - 1
                acc += n * self._v(new, second, forced, flip, pending, tuple(lst))
                lst[_BAD] -= n - 1
                lst[kind] = n
                continue
            lst[kind] = n - 1
            child = tuple(lst)
            lst[kind] = n
            if set_aside:
                acc += n * self._v(mask, second, forced, flip, (*pending, kind), child)
            elif kind == C.FREEZE:
                acc += n * self._stay(mask)
            elif kind == C.FLIP3:
                acc += n * self._v(mask, second, forced + 3, True, pending, child)
            elif kind == C.SECOND:
                acc += n * self._v(mask, True, forced, flip, pending, child)
            else:
                raise ValueError(f"card kind {kind} is not in the classic deck")
        return acc


def _canonical_start(pool: Sequence[int]) -> tuple[int, ...]:
    lst = list(pool)
    if lst[_BAD]:
        raise ValueError("the classic deck has no 13s")
    return tuple(lst)


def full_classic_value(dtype: str = "float64") -> tuple[float, int, float]:
    """``(value, positions, seconds)`` for a fresh full classic deck, one player."""
    start = time.perf_counter()
    solver = VectorSolver(_canonical_start(fresh_pool("classic")), dtype)
    value = solver.value()
    return value, len(solver.memo), time.perf_counter() - start


def main() -> None:
    """Print the full-deck reference value."""
    sys.setrecursionlimit(10000)
    dtype = sys.argv[1] if len(sys.argv) > 1 else "float64"
    value, positions, seconds = full_classic_value(dtype)
    print(
        f"full classic deck, one player ({dtype}): {value:.10f} "
        f"({positions} positions, {seconds:.0f} s)"
    )


if __name__ == "__main__":
    main()


__all__ = ["VectorSolver", "full_classic_value"]
