"""A small random number generator for the compiled kernels: xoshiro256** (Blackman & Vigna,
"Scrambled linear pseudorandom number generators", ACM TOMS 2021), seeded with SplitMix64.

A generator is a ``uint64`` array of 4 words, advanced in place, so kernels stay free of global
state and a batch can give every playout its own stream (``seed_streams``). Streams are
reproducible for a seed on every machine; they are not the Python engines' ``random.Random``
streams (the exact-twin checks feed both sides the same chance outcomes instead).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from septet.fast._mode import aot_function
from septet.fast._nb import njit, types, uint64

JIT: dict[str, Any] = {"cache": True, "error_model": "numpy"}
"""The options of every kernel function (``@njit(**JIT)``): cached on disk, and a zero divisor
gives 0 instead of raising ZeroDivisionError (no kernel divides by zero; an exception path
keeps numba from dropping the reference counts around the calls that follow it)."""

NOREF: dict[str, Any] = {**JIT, "_nrt": False}
"""The options of the kernel functions that allocate nothing (``@njit(**NOREF)``): compiled
without numba's runtime, so no reference counts are kept on the arrays they pass on (numba
otherwise increments and decrements, atomically, every array argument of a call that calls
further: a quarter of a Flip 7 playout's time). Such a function cannot create an array; the
functions it calls are compiled the same way unless they say otherwise."""

_F = TypeVar("_F", bound=Callable[..., Any])


def one_signature(dispatcher: _F) -> _F:
    """Have numba type calls to ``dispatcher`` from compiled code with plain argument types:
    a constant argument (``f(s, 0)``, ``f(s, True)``) is typed ``Literal[int](0)`` by numba,
    and each distinct constant compiled the function (and all it calls) once more — Flip 7's
    scoring four times over, seconds of first compile. The call then converts the constant.
    ``tests/fast/test_fast_one_signature.py`` checks it."""
    if not hasattr(dispatcher, "get_call_template"):  # a plain function (septet.fast._nb)
        return dispatcher
    template = dispatcher.get_call_template
    unliteral: Any = types.unliteral

    def get_call_template(args: Any, kws: Any) -> Any:
        plain = tuple(unliteral(a) for a in args)
        return template(plain, {k: unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit_once(**options: Any) -> Callable[[_F], _F]:
    """``njit(**options)`` with :func:`one_signature`: for the kernels that give numba's options
    themselves (``@njit_once(cache=True)``)."""

    def wrap(fn: _F) -> _F:
        out: _F = one_signature(njit(**options)(fn))
        return out

    return wrap


def jit(fn: _F) -> _F:
    """``njit(**JIT)``: a kernel function that may allocate arrays."""
    out: _F = one_signature(njit(**JIT)(fn))
    return out


def jit_inline(fn: _F) -> _F:
    """``njit(inline="always", **JIT)``: inlined into its callers by numba."""
    out: _F = one_signature(njit(inline="always", **JIT)(fn))
    return out


def jit_nrt(fn: _F) -> _F:
    """``njit(_nrt=True, **JIT)``: a kernel function that allocates arrays and is called from
    :func:`noref` ones, which would otherwise compile it without numba's runtime too."""
    out: _F = one_signature(njit(**{**JIT, "_nrt": True})(fn))
    return out


def noref(fn: _F) -> _F:
    """``njit(**NOREF)``: a kernel function that allocates nothing (see :data:`NOREF`)."""
    out: _F = one_signature(njit(**NOREF)(fn))
    return out


NO_WRAPPERS: dict[str, Any] = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
"""numba's options for a function that only compiled code calls (see :data:`INTERNAL`)."""

INTERNAL: dict[str, Any] = {**NOREF, **NO_WRAPPERS}
"""The options of the :data:`NOREF` functions that only compiled code calls: neither a CPython
wrapper (argument unboxing) nor a C wrapper is built for them, code that numba otherwise
lowers and LLVM optimises for every function (about a tenth of a kernel's first compile)."""


def internal(fn: _F) -> _F:
    """``njit(**INTERNAL)``: a :func:`noref` function called from compiled code only (calling
    it from Python raises)."""
    out: _F = one_signature(njit(**INTERNAL)(fn))
    return out


def noref_inline(fn: _F) -> _F:
    """``njit(inline="always", **NOREF)``: inlined into its callers by numba."""
    out: _F = one_signature(njit(inline="always", **NOREF)(fn))
    return out


@noref_inline
def copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` for two int64 vectors of one length, without numba's shape check
    (whose error message compiles the string formatting machinery into every kernel that
    has one: seconds of first compile)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


_MASK = 0xFFFFFFFFFFFFFFFF


def _splitmix(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def make_rng(seed: int) -> np.ndarray:
    """A generator (``uint64[4]``) seeded from any Python int (SplitMix64 expansion)."""
    x = seed & _MASK
    out = np.zeros(4, dtype=np.uint64)
    for i in range(4):
        x, z = _splitmix(x)
        out[i] = z
    if not out.any():  # the all-zero state is the one fixed point of xoshiro
        out[0] = 1
    return out


@jit
def _splitmix_seed(x: np.uint64, out: np.ndarray) -> None:
    for i in range(4):
        x = x + uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
        out[i] = z ^ (z >> uint64(31))
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = 1


@jit
def _seed_many(seeds: np.ndarray, out: np.ndarray) -> None:
    for i in range(seeds.shape[0]):
        _splitmix_seed(seeds[i], out[i])


def rngs_for_seeds(seeds: Sequence[int] | np.ndarray) -> np.ndarray:
    """One generator per seed (``uint64[len(seeds), 4]``), row ``i`` equal to
    ``make_rng(seeds[i])``, built in one compiled call."""
    arr = np.array([int(x) & _MASK for x in seeds], dtype=np.uint64)
    out = np.zeros((len(arr), 4), dtype=np.uint64)
    (aot_function("rng", "_seed_many") or _seed_many)(arr, out)  # septet.fast._mode
    return out


def seed_streams(seed: int, count: int) -> np.ndarray:
    """``count`` independent generators (``uint64[count, 4]``) for the stream ``seed``."""
    out = np.zeros((count, 4), dtype=np.uint64)
    base = _splitmix(seed & _MASK)[1]
    for i in range(count):
        out[i] = make_rng(base ^ ((i * 0xD1B54A32D192ED03) & _MASK))
    return out


@noref_inline
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << uint64(k)) | (x >> uint64(64 - k))


@noref
def next_u64(rng: np.ndarray) -> np.uint64:
    """The next 64 random bits (xoshiro256**), advancing ``rng`` in place."""
    s0 = rng[0]
    s1 = rng[1]
    s2 = rng[2]
    s3 = rng[3]
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return result


@noref
def randbelow(rng: np.ndarray, k: int) -> int:
    """A uniform int in ``range(k)`` (``k >= 1``), exact: Lemire's multiply-shift with
    rejection of the biased low range (Lemire, "Fast random integer generation in an interval",
    ACM TOMACS 2019), on 32-bit halves (``k < 2**32``)."""
    kk = uint64(k)
    while True:
        x = next_u64(rng) >> uint64(32)
        m = x * kk
        low = m & uint64(0xFFFFFFFF)
        if low >= kk or low >= (uint64(0x100000000) - kk) % kk:
            return int(m >> uint64(32))


@noref
def random01(rng: np.ndarray) -> float:
    """A uniform float in [0, 1) with 53 random bits."""
    return float(next_u64(rng) >> uint64(11)) * (1.0 / 9007199254740992.0)
