"""The numba names the kernel files use: numba's own, or stand-ins in the ``aot`` mode.

In the ``aot`` mode (:mod:`septet.fast._mode`) the kernels' entry points run from modules built
ahead of time, and the kernel files are imported only for their Python side (``encode``, the
constants, the functions' pure-Python bodies); importing numba there would load LLVM (about
120 MB) for nothing. So the kernel files take ``njit``, ``types``, ``uint64`` and
``intrinsic`` from here: numba's in the ``jit`` mode, and in the ``aot`` mode a decorator that
returns the function unchanged, ``numpy.uint64``, and placeholders that refuse to compile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from septet.fast._mode import mode

JIT = mode() == "jit"
"""Whether numba itself is behind these names (its JIT and disk cache)."""

_F = TypeVar("_F", bound=Callable[..., Any])

if TYPE_CHECKING:  # a decorator that keeps the function's type, for the type checker

    def njit(*args: Any, **options: Any) -> Callable[[_F], _F]: ...

    types: Any
    uint64: Any
    intrinsic: Any
elif JIT:
    import numba as _numba
    import numba.extending as _extending

    njit, types, uint64 = _numba.njit, _numba.types, _numba.uint64
    intrinsic = _extending.intrinsic
else:
    import numpy as np

    def _keep_njit(*args: Any, **options: Any) -> Any:
        """numba's ``njit`` in the ``aot`` mode: ``@njit``, ``@njit(**options)`` and
        ``@njit(signature, **options)`` all return the function itself."""
        if len(args) == 1 and callable(args[0]) and not options:
            return args[0]

        def keep(fn: Callable[..., Any]) -> Callable[..., Any]:
            return fn

        return keep

    class _Types:
        """``numba.types`` where nothing is compiled: any type, called or indexed, is a
        placeholder (the kernels build signatures from them at import)."""

        def __getattr__(self, name: str) -> Any:
            return self

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            return self

        def __getitem__(self, item: Any) -> Any:
            return self

    def _refuse_intrinsic(typer: Callable[..., Any]) -> Any:
        """numba's ``intrinsic`` in the ``aot`` mode: code generation needs LLVM, so calling
        the result raises; the kernel files give pure-Python equivalents there."""

        def refuse(*args: Any) -> Any:
            raise RuntimeError(f"{typer.__name__} is an LLVM intrinsic: compiled code only")

        return refuse

    njit, types, uint64, intrinsic = _keep_njit, _Types(), np.uint64, _refuse_intrinsic


__all__ = ["JIT", "intrinsic", "njit", "types", "uint64"]
