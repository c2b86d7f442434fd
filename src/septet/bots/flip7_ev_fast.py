"""The Flip 7 expected-value programme of :mod:`septet.bots.flip7_ev`, compiled (numba).

:class:`FastEVSolver` is an :class:`~septet.bots.flip7_ev.EVSolver` whose programme (the
memoised expectimax behind :meth:`~septet.bots.flip7_ev.EVSolver.hit_value` and
:meth:`~septet.bots.flip7_ev.EVSolver.value`) runs as compiled code: the same positions visited
in the same order, the same floating-point operations in the same order, so the same numbers to
the last bit, and the same :class:`~septet.bots.flip7_ev.BudgetExceeded` at the same position
(its memo holds exactly the positions the Python memo would). The Python solver stays the
reference (``tests/fast/test_fast_flip7_ev.py`` compares them on random positions).

:func:`ev_solver` gives the compiled solver when numba is installed and the Python one
otherwise, for ``septet advise flip7`` and the odds page (:mod:`septet.bots.flip7_advice`).
Only the round score is compiled (no ``utility``, no exact fractions): other solvers are the
Python ones.

Encoding: a row is two ``int64``: ``r`` (bits 0-13 the value mask, 14-15 the 13s held, 16 the
Lucky 13, 17 ×2, 18 ÷2, 19 Second Chance, 20 flip, 21 stay after, 22-27 forced draws, 28-37
the additive modifiers + 512) and ``pend`` (bits 0-3 how many action cards are set aside,
then 4 bits per card: its kind − 28, first set aside first). The memo's key is ``(r, pend)``
and the pool's 37 counts, 7 bits each, in five ``int64``.

A fresh solver first tries the Python programme within :data:`PYTHON_FIRST` positions while
the compiled code is not loaded yet (the command's small positions then answer without loading
numba's code, a second); beyond that the compiled programme starts afresh. The server loads it
at start (:func:`load`), so the odds page is always compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from septet.bots.flip7_ev import BudgetExceeded, EVSolver, Number, Row

PYTHON_FIRST = 8000
"""Positions a fresh solver tries in Python while the compiled code is not loaded yet."""

_kernel: ModuleType | None = None


def load() -> ModuleType | None:
    """Load (or compile, once: seconds) the compiled programme; ``None`` without numba."""
    global _kernel
    if _kernel is None:
        try:
            from septet.bots import _flip7_ev_kernel
        except ImportError:  # no numba (or numpy): the Python programme answers
            return None
        _kernel = _flip7_ev_kernel
    return _kernel


def available() -> bool:
    """Whether numba is installed (without loading it)."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def ev_solver(
    edition: str = "classic", mode: str = "table", max_states: int | None = None
) -> EVSolver:
    """A solver of the round score for ``edition`` and ``mode`` with a position budget: the
    compiled :class:`FastEVSolver` when numba is installed, else the Python
    :class:`~septet.bots.flip7_ev.EVSolver` (the same numbers either way).

    Raises:
        ValueError: an unknown edition or mode.
    """
    if available():
        return FastEVSolver(edition, mode, max_states=max_states)
    return EVSolver(edition, mode, max_states=max_states)


class FastEVSolver(EVSolver):
    """:class:`~septet.bots.flip7_ev.EVSolver` with its programme compiled (numba): the same
    values, the same budget (see the module's description). ``exact`` and ``utility`` are
    refused here (use the Python solver for those).

    Raises:
        ValueError: as :class:`~septet.bots.flip7_ev.EVSolver`, or ``exact``/``utility``.
    """

    def __init__(
        self,
        edition: str = "classic",
        mode: str = "table",
        exact: bool = False,
        max_states: int | None = None,
        utility: Sequence[float] | None = None,
    ) -> None:
        if exact or utility is not None:
            raise ValueError("the compiled solver computes the round score in floats only")
        super().__init__(edition, mode, max_states=max_states)
        self._fast_memo: Any = None  # made with the first compiled run
        self._fast_u7: Any = None
        self._python = False  # the Python programme answers from now on (its memo is in use)
        self._first_answer: Number = 0.0
        self._dense_memo: Any = None  # numbers_round's scratch
        self._dense_count = 0  # positions numbers_round solved
        self._dense_seen: dict[tuple[str, int, tuple[int, ...]], float] = {}

    def clear(self) -> None:
        """Forget the memo (positions from earlier pools)."""
        super().clear()
        self._fast_memo = None
        self._python = False
        self._dense_count = 0
        self._dense_seen.clear()

    def memo_size(self) -> int:
        """Positions in the memo (what the budget counts)."""
        fast = 0 if self._fast_memo is None else len(self._fast_memo)
        return len(self._memo) + fast + self._dense_count

    def _solve(self, op: str, row: Row, canon: tuple[int, ...]) -> Number:
        """``op`` (``"value"`` or ``"hit"``) of ``row`` with the canonical pool ``canon``."""
        python = self._v if op == "value" else (lambda r, p: self._draw(r, p, False))
        fresh = not self._python and not self._memo and self._fast_memo is None
        if fresh and _kernel is None and self._python_first(python, row, canon):
            return self._first_answer
        if not self._python:
            kernel = load()
            if kernel is not None:
                try:
                    if self._dense_ok(kernel, row, canon):
                        return self._dense(kernel, op, row, canon)
                    return self._run(kernel, op, row, canon)
                except kernel.Unencodable:
                    # Leave the compiled programme for good: its memo is dropped (the Python one
                    # starts empty, as a fresh solver's would; the budget counts from there).
                    self._fast_memo = None
            self._python = True
        return python(row, canon)

    def _dense_ok(self, kernel: Any, row: Row, pool: tuple[int, ...]) -> bool:
        """Whether the dense numbers-only programme (``numbers_round``) answers: classic, no
        budget, no Unlucky 7 pool, a row of plain values (no flag, no count, no pending card)
        short of seven, a canonical pool of number cards (and the duplicates' slot) only."""
        if self.vengeance or self.max_states is not None or self._u7_pool is not None:
            return False
        if self._fast_memo is not None:  # the hash memo is in use (and holds these positions)
            return False
        if self._bad != 13 or any(pool[kernel.DENSE_KINDS :]) or min(pool) < 0:
            return False
        r = kernel.encode(row)
        plain = row.mask | (kernel.ADD_BIAS << kernel.S_ADD)
        return bool(r == plain and row.mask < 1 << 13 and bin(row.mask).count("1") < 7)

    def _dense(self, kernel: Any, op: str, row: Row, pool: tuple[int, ...]) -> Number:
        """``op`` by ``numbers_round`` (see :meth:`_dense_ok`). The positions of each distinct
        question are counted in :meth:`memo_size` (a question asked again is answered from the
        last answers, adding none; distinct questions may count shared positions twice: without
        a budget the count only reports)."""
        import numpy as np

        key = (op, row.mask, pool)
        if key in self._dense_seen:
            return self._dense_seen[key]
        if self._dense_memo is None:
            self._dense_memo = np.empty(1 << 13, dtype=np.float64)
        got, solved = kernel.numbers_round(
            row.mask, np.array(pool, dtype=np.int64), op != "value", self._dense_memo
        )
        self._dense_count += int(solved)
        self._dense_seen[key] = float(got)
        return float(got)

    def _python_first(self, python: Any, row: Row, canon: tuple[int, ...]) -> bool:
        """Try the Python programme within :data:`PYTHON_FIRST` positions: ``True`` when it
        settled the question (answer in ``_first_answer``, or the budget itself exceeded)."""
        budget = self.max_states
        self.max_states = PYTHON_FIRST if budget is None else min(budget, PYTHON_FIRST)
        try:
            self._first_answer = python(row, canon)
        except BudgetExceeded:
            if budget is not None and budget <= PYTHON_FIRST:
                self._python = True  # the real budget: the memo is the Python solver's own
                raise
            self._memo.clear()  # too big for Python: the compiled programme starts afresh
            return False
        finally:
            self.max_states = budget
        self._python = True
        return True

    def _run(self, kernel: Any, op: str, row: Row, pool: tuple[int, ...]) -> Number:
        import numpy as np

        r = kernel.encode(row)
        if max(pool) > 127 or min(pool) < 0:
            raise kernel.Unencodable
        if self._fast_memo is None:
            self._fast_memo = kernel.new_memo()
        u7 = self._u7_pool
        self._fast_u7 = np.array(u7 if u7 is not None else pool, dtype=np.int64)
        ctx = np.zeros(kernel.CTX_SIZE, dtype=np.int64)
        ctx[: kernel.C_DEPTH] = (
            int(self.vengeance), int(self.single), -1 if self._bad is None else self._bad,
            -1 if self.max_states is None else self.max_states, 0, 0, int(u7 is not None),
        )  # fmt: skip
        got = self._fast_memo.run(
            kernel.OP_V if op == "value" else kernel.OP_DRAW, r,
            np.array(pool, dtype=np.int64), ctx, self._fast_u7,
        )  # fmt: skip
        if ctx[kernel.C_PEND]:
            raise kernel.Unencodable
        if ctx[kernel.C_OVER]:
            raise BudgetExceeded(f"more than {self.max_states} positions")
        return float(got)

    def value(self, row: Row, pool: Sequence[int]) -> Number:
        """As :meth:`septet.bots.flip7_ev.EVSolver.value`, compiled."""
        return self._solve("value", row, self._canonical(row, pool))

    def hit_value(self, row: Row, pool: Sequence[int]) -> Number:
        """As :meth:`septet.bots.flip7_ev.EVSolver.hit_value`, compiled."""
        canon = self._canonical(row, pool)
        if sum(canon) == 0:
            return self.payoff(row)
        return self._solve("hit", row, canon)


__all__ = ["PYTHON_FIRST", "FastEVSolver", "available", "ev_solver", "load"]
