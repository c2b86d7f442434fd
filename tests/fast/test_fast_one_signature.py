"""A kernel function called with constants from compiled code compiles once, not once per
constant (``septet.fast.rng.one_signature``, behind every ``rng.jit`` / ``rng.noref``)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from numba import njit

from septet.fast.rng import noref


def test_constants_share_one_compiled_signature() -> None:
    def step(a: int, b: int, flag: bool) -> int:
        return a + b if flag else a - b

    plain = njit(cache=False)(step)
    once = noref(step)

    @njit(cache=False)
    def caller(x: int) -> int:
        return once(x, 2, True) + once(3, x, False) + once(x, x, flag=True)

    @njit(cache=False)
    def caller_plain(x: int) -> int:
        return plain(x, 2, True) + plain(3, x, False)

    assert caller(5) == 7 + (3 - 5) + 10  # the constants still reach the function
    assert caller_plain(5) == 7 + (3 - 5)
    # numba's own njit compiles step once per distinct constant; the kernels' decorator once.
    assert [str(sig) for sig in once.signatures] == ["(int64, int64, bool)"]
    assert len(plain.signatures) == 2
