"""A kernel function called with constants from compiled code compiles once, not once per
constant (``septet.fast.rng.one_signature``, behind every ``rng.jit`` / ``rng.noref``)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from numba import njit
from numba.core import event

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

    with event.install_recorder("numba:compile") as rec:
        assert caller(5) == 7 + (3 - 5) + 10  # the constants still reach the function
        assert caller_plain(5) == 7 + (3 - 5)
    compiled = [
        (e.data["dispatcher"].py_func.__name__, str(e.data["args"]))
        for _, e in rec.buffer
        if not e.is_start and e.data["dispatcher"].py_func.__name__ == "step"
    ]
    # numba's own njit compiles step once per distinct constant; the kernels' decorator once.
    assert len(once.signatures) == 1 and str(once.signatures[0]) == "(int64, int64, bool)"
    assert len(plain.signatures) == 2
    assert len(compiled) == 3
