"""The compiled Flip 7 programme (septet.bots.flip7_ev_fast) is an exact twin of the Python one
(septet.bots.flip7_ev.EVSolver): on random positions of both editions and both modes, the same
values to the last bit, the same budget exceeded at the same memo size, the same advice."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import septet.bots.flip7_ev_fast as fast_ev
from septet.bots.flip7_ev import (
    BudgetExceeded,
    EVSolver,
    Row,
    advise,
    fresh_pool,
    reduced_pool,
    row_from_tokens,
)
from septet.bots.flip7_ev_fast import PYTHON_FIRST, FastEVSolver, ev_solver
from septet.games.flip7 import cards as C


def _position(rng: random.Random) -> tuple[str, str, list[str], tuple[int, ...]]:
    """A random open hit/stay position: edition, mode, your row (tokens), the pool left."""
    edition = rng.choice(["classic", "vengeance"])
    mode = rng.choice(["single", "table"])
    pool = list(fresh_pool(edition))
    kinds = C.VENGEANCE_KINDS if edition == "vengeance" else C.CLASSIC_KINDS
    row: list[str] = []
    values: set[int] = set()
    for _ in range(rng.randint(0, 6)):
        k = rng.choice(kinds)
        if not pool[k] or C.IS_ACT[k]:
            continue
        if C.IS_NUM[k]:
            if C.VALUE[k] in values or len(values) >= 6:
                continue
            values.add(C.VALUE[k])
        pool[k] -= 1
        row.append(C.TOKENS[k])
    # Cards seen since the shuffle: many, so that most positions fit a small budget.
    for _ in range(rng.randint(30, 75)):
        k = rng.choice(kinds)
        if pool[k]:
            pool[k] -= 1
    return edition, mode, row, tuple(pool)


def _solve(solver: EVSolver, row: Row, pool: tuple[int, ...]) -> object:
    try:
        return solver.hit_value(row, pool)
    except BudgetExceeded:
        return "over"


@pytest.mark.slow  # about a minute: the long runs check it; the hand-worked values run always
def test_compiled_programme_gives_the_same_numbers_on_random_positions() -> None:
    assert fast_ev.load() is not None  # compiled from the first position on
    rng = random.Random(16)
    outcomes = {"value": 0, "over": 0}
    for i in range(240):
        edition, mode, tokens, pool = _position(rng)
        row = row_from_tokens(tokens, edition)
        budget = rng.choice([300, 2000, 6000])
        slow = EVSolver(edition, mode, max_states=budget)
        fast = FastEVSolver(edition, mode, max_states=budget)
        want, got = _solve(slow, row, pool), _solve(fast, row, pool)
        where = f"#{i}: {edition} {mode} row {tokens} pool {pool} budget {budget}"
        assert got == want, where  # exact floats, or both over budget
        assert fast.memo_size() == len(slow._memo), where  # the budget counts the same
        outcomes["over" if want == "over" else "value"] += 1
        if want == "over":  # the advice's next step: the same solver, a larger budget
            slow.max_states = fast.max_states = 10 * budget
            small = reduced_pool(pool)
            assert _solve(fast, row, small) == _solve(slow, row, small), where
        else:
            assert advise(fast, row, pool) == advise(slow, row, pool), where
    assert outcomes["value"] >= 60 and outcomes["over"] >= 20, outcomes


def test_value_of_a_known_position_and_the_fallback() -> None:
    # F7V-6.1 and F7V-6.2 in single mode: the Zero (cannot stay) and the Unlucky 7 in the deck.
    pool = [0] * C.NUM_KINDS
    pool[5], pool[C.U7], pool[C.FLIP4], pool[C.M4] = 2, 1, 1, 1
    row = row_from_tokens(["zero", "9", "/2"], "vengeance")
    slow = EVSolver("vengeance", "single")
    fast = ev_solver("vengeance", "single")
    assert isinstance(fast, FastEVSolver)
    assert fast.value(row, pool) == slow.value(row, pool)
    assert fast.hit_value(row, pool) == slow.hit_value(row, pool)
    # A row with set-aside actions cannot be encoded as a root: the Python programme answers.
    odd = Row(mask=1 << 9, pending=(C.FREEZE,))
    assert fast.value(odd, pool) == slow.value(odd, pool)


@pytest.mark.slow  # half a minute (a fresh process compiles): the long runs check it
def test_python_first_while_the_compiled_code_is_not_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before the compiled code is loaded, a fresh solver tries Python within PYTHON_FIRST
    # positions: the same answers and the same budget whichever programme settles it.
    assert fast_ev.load() is not None
    monkeypatch.setattr(fast_ev, "_kernel", None)
    loads: list[int] = []
    real_load = fast_ev.load

    def counting_load() -> object:
        loads.append(1)
        kernel = real_load()
        monkeypatch.setattr(fast_ev, "_kernel", None)  # stays "not loaded" for the next one
        return kernel

    monkeypatch.setattr(fast_ev, "load", counting_load)
    rng = random.Random(7)
    seen = {"python": 0, "compiled": 0}
    for _ in range(40):
        edition, mode, tokens, pool = _position(rng)
        row = row_from_tokens(tokens, edition)
        for budget in (PYTHON_FIRST // 2, 4 * PYTHON_FIRST):
            slow = EVSolver(edition, mode, max_states=budget)
            fast = FastEVSolver(edition, mode, max_states=budget)
            before = len(loads)
            assert _solve(fast, row, pool) == _solve(slow, row, pool)
            assert fast.memo_size() == len(slow._memo)
            seen["compiled" if len(loads) > before else "python"] += 1
    assert seen["python"] >= 10 and seen["compiled"] >= 5, seen


def test_without_numba_the_python_solver_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_ev, "available", lambda: False)
    solver = ev_solver("classic", "table", max_states=10)
    assert type(solver) is EVSolver


def test_a_memo_grown_many_times_gives_the_same_numbers() -> None:
    # The compiled memo is a hash table that a run stops at when 3/4 full; it is grown and
    # the question asked again. From a table of 8 slots (doubled many times) the numbers-only
    # solitaire round (18.5652176141, the reference value) and a budgeted question agree with
    # the Python programme: same value, same positions in the memo, same budget exceeded.
    kernel = fast_ev.load()
    assert kernel is not None
    pool = fresh_pool("classic", numbers_only=True)
    fast = FastEVSolver("classic", "single")
    fast._fast_memo = kernel.Memo(8)
    py = EVSolver("classic", "single")
    assert fast.value(Row(), pool) == py.value(Row(), pool)
    assert abs(float(fast.value(Row(), pool)) - 18.5652176141) < 1e-9
    assert fast.memo_size() == len(py._memo) > 1000
    full = fresh_pool("classic")
    for budget in (50, 3000):
        f = FastEVSolver("classic", "table", max_states=budget)
        f._fast_memo = kernel.Memo(8)
        p = EVSolver("classic", "table", max_states=budget)
        assert _solve(f, Row(), full) == _solve(p, Row(), full) == "over"
        assert f.memo_size() == len(p._memo) >= budget


def test_the_dense_numbers_only_programme_gives_the_hash_memos_numbers() -> None:
    # Issue 29: a classic numbers-only question without a budget is solved by the dense
    # programme (memo indexed by the values held). Exact floats against the hash-memo programme
    # and the Python one, value and hit, both modes, rows of 0-6 values and thinned pools; the
    # solitaire round keeps its reference value (18.5652176141, F7V-7.2 bonus included).
    kernel = fast_ev.load()
    assert kernel is not None
    pool = fresh_pool("classic", numbers_only=True)
    dense = FastEVSolver("classic", "single")
    assert dense._dense_ok(kernel, Row(), dense._canonical(Row(), pool))
    assert abs(float(dense.value(Row(), pool)) - 18.5652176141) < 1e-9
    assert dense.memo_size() == 4096  # every position of the round, as the hash memo holds
    rng = random.Random(29)
    for i in range(60):
        mode = rng.choice(["single", "table"])
        p = [rng.randint(0, c) if k < 13 else c for k, c in enumerate(pool)]
        row = Row(mask=sum(1 << v for v in rng.sample(range(13), rng.randint(0, 6))))
        for op in ("value", "hit_value"):
            graph = FastEVSolver("classic", mode)
            graph._fast_memo = kernel.Memo()  # the hash memo in use: no dense programme
            want = getattr(EVSolver("classic", mode), op)(row, p)
            assert getattr(FastEVSolver("classic", mode), op)(row, p) == want, (i, op)
            assert getattr(graph, op)(row, p) == want, (i, op)
