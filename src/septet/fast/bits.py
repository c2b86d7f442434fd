"""Bit operations of the compiled kernels on 64-bit masks, as the processor's own instructions.

Seven Shot's cards are bits of a 49-bit mask (a hand, the undealt cards, a suit), so its
playout path counts and picks bits at every step: :func:`popcnt` and :func:`ctz` compile to
LLVM's ``ctpop`` and ``cttz`` intrinsics (one ``popcnt`` / ``tzcnt`` instruction each where the
processor has them, a short sequence elsewhere), and :data:`select_bit` finds the ``r``-th set
bit with BMI2's ``pdep`` where the processor has it (clearing ``r`` bits one by one
elsewhere). They agree with Python's ``int.bit_count``, ``(x & -x).bit_length() - 1``,
``x.bit_length() - 1`` (:func:`msb`) and the sorted list of set bits
(``tests/fast/test_fast_bits.py``).
"""

from __future__ import annotations

from typing import Any

from septet.fast._nb import JIT, intrinsic, types
from septet.fast.rng import noref_inline

if JIT:
    from llvmlite import ir


def _bit_count_intrinsic(op: str) -> Any:
    """A numba intrinsic ``int64 -> int64`` emitting llvmlite's ``IRBuilder.<op>`` (``ctpop``,
    or ``cttz`` / ``ctlz`` with the zero-is-poison flag off, so that zero gives 64)."""

    def typer(typingctx: Any, x: Any) -> Any:
        sig = types.int64(types.int64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if op == "ctpop":
                return builder.ctpop(args[0])
            return getattr(builder, op)(args[0], ir.Constant(ir.IntType(1), 0))

        return sig, codegen

    typer.__name__ = f"_{op}"
    return intrinsic(typer)


_M64 = (1 << 64) - 1

if JIT:
    _ctpop: Any = _bit_count_intrinsic("ctpop")
    _cttz: Any = _bit_count_intrinsic("cttz")
    _ctlz: Any = _bit_count_intrinsic("ctlz")
else:  # the ``aot`` mode (septet.fast._nb): the same answers in Python

    def _ctpop(x: int) -> int:
        return (int(x) & _M64).bit_count()

    def _cttz(x: int) -> int:
        x = int(x) & _M64
        return 64 if x == 0 else (x & -x).bit_length() - 1

    def _ctlz(x: int) -> int:
        return 64 - (int(x) & _M64).bit_length()


@noref_inline
def popcnt(x: int) -> int:
    """Bits set in ``x`` (an int64 mask; a negative one counts its 64 bits)."""
    return _ctpop(x)


@noref_inline
def ctz(x: int) -> int:
    """Index of the lowest set bit of ``x`` (64 when ``x == 0``)."""
    return _cttz(x)


@noref_inline
def msb(x: int) -> int:
    """Index of the highest set bit of ``x > 0`` (``x.bit_length() - 1``; -1 when ``x == 0``)."""
    return 63 - _ctlz(x)


def _pdep_typer(typingctx: Any, x: Any, m: Any) -> Any:
    """x86 BMI2 ``pdep`` on int64s: the low bits of ``x`` deposited at the set bits of ``m``."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic(
            "llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64])
        )
        return builder.call(fn, args)

    return sig, codegen


_pdep: Any = intrinsic(_pdep_typer)


def has_bmi2() -> bool:
    """Whether the kernels compile for a processor with BMI2 (``pdep``): the host's features,
    unless ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` name another target (``False`` in the
    ``aot`` mode, where nothing is compiled: the Python bodies scan)."""
    if not JIT:
        return False
    from numba.core import config

    cpu = getattr(config, "CPU_NAME", None)
    if cpu and cpu != "host":
        return "+bmi2" in (getattr(config, "CPU_FEATURES", None) or "")
    from llvmlite import binding

    return bool(binding.get_host_cpu_features().get("bmi2", False))


HAS_BMI2 = has_bmi2()


@noref_inline
def _select_pdep(m: int, r: int) -> int:
    return _cttz(_pdep(1 << r, m))


@noref_inline
def _select_scan(m: int, r: int) -> int:
    for _ in range(r):
        m &= m - 1
    return _cttz(m)


select_bit = _select_pdep if HAS_BMI2 else _select_scan
"""``select_bit(m, r)``: index of the ``r``-th lowest set bit of ``m`` (``0 <= r < popcnt(m)``,
``m >= 0``), the ``r``-th of ``m``'s set bits in ascending order. One ``pdep`` and one
``tzcnt`` where the processor has BMI2 (about 4 ns a card dealt with its random draw, against
17 ns clearing ``r`` bits one by one, the fallback); undefined outside that range."""


__all__ = ["ctz", "msb", "popcnt", "select_bit"]
