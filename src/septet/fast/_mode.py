"""How this process runs the compiled kernels: ahead-of-time built modules, numba's JIT, or none.

``septet kernels build`` compiles every kernel with numba (its disk cache) and then links each
game's entry points into plain extension modules, ahead of time (:mod:`septet.fast.aot`, numba's
``pycc``): one module per game and use (``flip7`` ``play`` and ``search``, …) and one for the
generator. A process that finds those modules built from the current sources (a manifest named
by :func:`septet.fast._cache.digest`) runs them and **never imports numba or LLVM**: it starts
in milliseconds and holds tens of MB instead of numba's 160 MB floor (issue 29; the figures are
in docs/bots.md, "Ahead of time"). The kernel modules' Python code (``encode``, the constants)
is then imported with stand-ins for numba's decorators (:mod:`septet.fast._nb`); only the
exported entry points run compiled.

The mode is chosen once a process (:func:`mode`), from ``SEPTET_KERNELS``:

- ``auto`` (default): ``aot`` when the modules of the current sources are built, else ``jit``
  when numba is installed, else ``none``;
- ``jit``: numba's JIT and disk cache, as before the modules existed (the tests use it: they
  call kernel functions that are not exported);
- ``aot``: the built modules; without them, ``jit`` with a warning.

``SEPTET_KERNEL_DIR`` names the folder of the built modules (default: ``__aot__`` beside this
file, or ``~/.cache/septet/kernels`` where that is not writable).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

Mode = Literal["aot", "jit", "none"]

MANIFEST = "manifest-{digest}-{tag}.json"
"""The file an AOT build writes last, listing its modules: its presence for the current
digest and interpreter (``sys.implementation.cache_tag``, e.g. ``cpython-311``) is what makes
a build usable."""


def kernel_dir() -> Path:
    """Where the ahead-of-time modules live (``SEPTET_KERNEL_DIR``, else ``__aot__`` beside
    this file when writable, else ``~/.cache/septet/kernels``)."""
    env = os.environ.get("SEPTET_KERNEL_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent / "__aot__"
    parent = here if here.exists() else here.parent
    if os.access(parent, os.W_OK):
        return here
    return Path.home() / ".cache" / "septet" / "kernels"


def short_digest() -> str:
    """The first 12 hex digits of the kernels' sources digest (:func:`_cache.digest`): the
    modules' and the manifest's names carry it, so a changed rule table is never run by a
    module built before it."""
    from septet.fast._cache import digest

    return digest()[:12]


def manifest_path(digest: str | None = None) -> Path:
    """The manifest of the build of ``digest`` (default: the current sources) for this
    interpreter."""
    tag = sys.implementation.cache_tag
    return kernel_dir() / MANIFEST.format(digest=digest or short_digest(), tag=tag)


def numpy_version() -> str:
    """The installed numpy's version (a built module is compiled against its C API)."""
    from importlib.metadata import version

    return version("numpy")


def read_manifest() -> dict[str, Any] | None:
    """The current build's manifest (``{"modules": {key: module name}, "numpy": version}``),
    or ``None`` when there is none, it cannot be read, or it was built with another numpy."""
    path = manifest_path()
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and isinstance(data.get("modules"), dict)):
        return None
    return data if data.get("numpy") == numpy_version() else None


REQUIRED: tuple[str, ...] = (
    "rng",
    *(
        f"{game}-{use}"
        for game in ("flip7", "double-seven", "seven-shot")
        for use in ("play", "search")
    ),
)
"""The modules a build must hold to be used: every game's (the mode is the whole process's)."""


def complete(data: dict[str, Any] | None) -> bool:
    """Whether manifest ``data`` lists every module of :data:`REQUIRED`."""
    return data is not None and all(k in data["modules"] for k in REQUIRED)


def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


@cache
def mode() -> Mode:
    """This process's kernel mode (see the module docstring), decided on the first call."""
    want = os.environ.get("SEPTET_KERNELS", "auto").strip().lower() or "auto"
    if want not in ("auto", "aot", "jit"):
        warnings.warn(f"SEPTET_KERNELS={want!r} is not auto, aot or jit: auto", stacklevel=2)
        want = "auto"
    if want != "jit" and complete(read_manifest()):
        return "aot"
    if want == "aot":
        warnings.warn(
            "SEPTET_KERNELS=aot but no kernels built for these sources "
            f"({manifest_path()}): run `septet kernels build`; using numba's JIT",
            stacklevel=2,
        )
    return "jit" if _numba_installed() else "none"


_LOADED: dict[str, ModuleType] = {}


def aot_module(key: str) -> ModuleType:
    """The built module of ``key`` (``"rng"``, ``"flip7-play"``, ``"seven-shot-search"``, …)
    of the current build, imported once.

    Raises:
        KeyError: the build has no such module (or there is no build).
        ImportError: the module's file is missing or cannot be loaded.
    """
    if key in _LOADED:
        return _LOADED[key]
    data = read_manifest()
    if data is None or key not in data["modules"]:
        raise KeyError(f"no ahead-of-time kernel module {key!r} in {kernel_dir()}")
    name = data["modules"][key]
    files = [kernel_dir() / f"{name}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    files = [f for f in files if f.is_file()]
    if not files:
        raise ImportError(f"the kernel module {name} is missing from {kernel_dir()}")
    spec = importlib.util.spec_from_file_location(name, files[0])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {files[0]}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules.setdefault(name, module)
    _LOADED[key] = module
    return module


def aot_function(key: str, name: str) -> Any:
    """Function ``name`` of built module ``key`` in ``aot`` mode, else ``None``."""
    if mode() != "aot":
        return None
    return getattr(aot_module(key), name)


__all__ = [
    "MANIFEST",
    "Mode",
    "aot_function",
    "aot_module",
    "kernel_dir",
    "manifest_path",
    "mode",
    "read_manifest",
    "short_digest",
]
