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

``SEPTET_KERNEL_DIR`` names the folder of the built modules (an absolute path; default:
``__aot__`` beside this file, or ``~/.cache/septet/kernels`` where that is not writable: a
build is read from whichever of the two holds one).

A build is used only when it can be: its manifest is of these sources, this interpreter, this
numpy (the modules are compiled against its C API) and this processor (they are compiled for
the host's), it lists every game's modules, and each module's file has the size and SHA-256
the build recorded. Otherwise :func:`problem` says why, in a sentence, and numba serves. Each
exported function's argument types are recorded too, and a call with an array of another
type, shape or layout is refused with a ``TypeError`` (the compiled code would read it as the
type it was built for).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
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


def _package_dir() -> Path:
    return Path(__file__).resolve().parent / "__aot__"


def _user_dir() -> Path:
    return Path.home() / ".cache" / "septet" / "kernels"


def kernel_dir(write: bool = False) -> Path:
    """Where the ahead-of-time modules live: ``SEPTET_KERNEL_DIR``; else, to read, whichever of
    ``__aot__`` beside this file and ``~/.cache/septet/kernels`` holds a manifest of these
    sources (``__aot__`` first); to ``write``, ``__aot__`` when it can be written, else the
    user's cache."""
    env = os.environ.get("SEPTET_KERNEL_DIR")
    if env:
        return Path(env).expanduser()
    here, user = _package_dir(), _user_dir()
    if not write:
        name = manifest_name()
        for d in (here, user):
            if (d / name).is_file():
                return d
        return here if here.exists() or not user.exists() else user
    parent = here if here.exists() else here.parent
    return here if os.access(parent, os.W_OK) else user


@cache
def short_digest() -> str:
    """The first 12 hex digits of the kernels' sources digest (:func:`_cache.digest`), once a
    process: the modules' and the manifest's names carry it, so a changed rule table is never
    run by a module built before it."""
    from septet.fast._cache import digest

    return digest()[:12]


def manifest_name(digest: str | None = None) -> str:
    """The manifest's file name for ``digest`` (default: the current sources) and this
    interpreter."""
    return MANIFEST.format(digest=digest or short_digest(), tag=sys.implementation.cache_tag)


def manifest_path(digest: str | None = None, write: bool = False) -> Path:
    """The manifest of the build of ``digest`` (default: the current sources) for this
    interpreter, in :func:`kernel_dir`."""
    return kernel_dir(write) / manifest_name(digest)


def numpy_version() -> str:
    """The installed numpy's version (a built module is compiled against its C API)."""
    from importlib.metadata import version

    return version("numpy")


def host_cpu() -> str:
    """This processor, as far as the built machine code cares: the machine, and a hash of the
    instruction-set flags the kernel reports (Linux), so that a build copied to a processor
    without them is not run."""
    flags = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                flags = line.split(":", 1)[-1].strip()
                break
    ident = flags or platform.processor()
    return f"{platform.machine()}-{hashlib.sha256(ident.encode()).hexdigest()[:16]}"


def module_file(directory: Path, name: str) -> Path | None:
    """The file of extension module ``name`` in ``directory`` for this interpreter, if any."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        f = directory / f"{name}{suffix}"
        if f.is_file():
            return f
    return None


def file_record(path: Path) -> dict[str, Any]:
    """What a manifest records of a module's file: its name, size and SHA-256."""
    data = path.read_bytes()
    return {"file": path.name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def read_manifest() -> dict[str, Any] | None:
    """The current sources' manifest for this interpreter, as written (``{"modules": {key:
    module name}, "files": …, "exports": …, "numpy": …, "cpu": …}``), or ``None`` when there is
    none or it cannot be read. :func:`problem` says whether it can be used."""
    path = manifest_path()
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and isinstance(data.get("modules"), dict)):
        return None
    return data


REQUIRED: tuple[str, ...] = (
    "rng",
    *(
        f"{game}-{use}"
        for game in ("flip7", "double-seven", "seven-shot")
        for use in ("play", "search")
    ),
)
"""The modules a build must hold to be used: every game's (the mode is the whole process's)."""


def problem(data: dict[str, Any] | None, check_files: bool = True) -> str | None:
    """Why build manifest ``data`` cannot be used, in a sentence, or ``None`` when it can
    (``check_files``: each module's file checked against its recorded size and SHA-256)."""
    where = kernel_dir()
    if data is None:
        return f"no kernels built ahead of time for these sources in {where}"
    if data.get("numpy") != numpy_version():
        return f"built with numpy {data.get('numpy')}, this is {numpy_version()}: rebuild"
    if data.get("cpu") != host_cpu():
        return "built for another processor: rebuild on this machine"
    missing = [k for k in REQUIRED if k not in data["modules"]]
    if missing:
        return f"incomplete: no {', '.join(missing)} (build every game)"
    files = data.get("files", {})
    for key in REQUIRED:
        record = files.get(key)
        name = data["modules"][key]
        path = module_file(where, name)
        if not isinstance(record, dict) or path is None or path.name != record.get("file"):
            return f"the module {name} is missing from {where}"
        if check_files and file_record(path) != record:
            return f"the module {path.name} is damaged (not the file the build wrote): rebuild"
    return None


def complete(data: dict[str, Any] | None) -> bool:
    """Whether build manifest ``data`` can be used (:func:`problem` has nothing to say)."""
    return problem(data) is None


def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


@cache
def mode() -> Mode:
    """This process's kernel mode (see the module docstring), decided on the first call."""
    want = os.environ.get("SEPTET_KERNELS", "auto").strip().lower() or "auto"
    if want not in ("auto", "aot", "jit"):
        _say(f"SEPTET_KERNELS={want!r} is none of auto, aot and jit: auto")
        want = "auto"
    if want != "jit":
        why = problem(read_manifest())
        if why is None:
            return "aot"
        if want == "aot":
            _say(f"SEPTET_KERNELS=aot, but {why} (septet kernels build): numba's JIT serves")
    return "jit" if _numba_installed() else "none"


def _say(message: str) -> None:
    """A warning for whoever started the process, in a sentence."""
    warnings.warn(message, KernelWarning, stacklevel=3)


class KernelWarning(UserWarning):
    """The kernels run otherwise than asked (``SEPTET_KERNELS``)."""


_LOADED: dict[str, Any] = {}


def aot_module(key: str) -> Any:
    """The built module of ``key`` (``"rng"``, ``"flip7-play"``, ``"seven-shot-search"``, …)
    of the current build, imported once: its functions check their arguments' types first
    (:class:`CheckedModule`).

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
    path = module_file(kernel_dir(), name)
    if path is None:
        raise ImportError(f"the kernel module {name} is missing from {kernel_dir()}")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules.setdefault(name, module)
    _LOADED[key] = CheckedModule(module, data.get("exports", {}).get(key, {}))
    return _LOADED[key]


class CheckedModule:
    """A built module whose functions refuse arguments of other types than those they were
    compiled for (the C entry points would read an ``int32`` array or a strided view as the
    contiguous ``int64`` one they expect), with a ``TypeError`` naming the argument.

    Args:
        module: the extension module.
        exports: ``{function: [argument spec, …]}`` as :func:`arg_spec` wrote them.
    """

    def __init__(self, module: ModuleType, exports: dict[str, list[dict[str, Any]]]) -> None:
        self._module = module
        self._exports = exports
        self._cache: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in self._cache:
            fn = getattr(self._module, name)
            specs = self._exports.get(name)
            self._cache[name] = fn if specs is None else _checked(name, fn, specs)
        return self._cache[name]


def _checked(name: str, fn: Any, specs: list[dict[str, Any]]) -> Any:
    import numpy as np

    arrays = [(i, np.dtype(s["dtype"]), s) for i, s in enumerate(specs) if s["kind"] == "array"]

    def call(*args: Any) -> Any:
        if len(args) != len(specs):
            raise TypeError(f"{name} takes {len(specs)} arguments, not {len(args)}")
        for i, dtype, s in arrays:
            a = args[i]
            ok = (
                isinstance(a, np.ndarray)
                and a.dtype == dtype
                and a.ndim == s["ndim"]
                and (s["layout"] != "C" or a.flags.c_contiguous)
                and (s["readonly"] or a.flags.writeable)
            )
            if not ok:
                got = f"{a.dtype} {a.ndim}-d array" if isinstance(a, np.ndarray) else type(a)
                want = f"{'C-contiguous ' if s['layout'] == 'C' else ''}{dtype} {s['ndim']}-d"
                raise TypeError(f"{name}: argument {i + 1} must be a {want} array, not {got}")
        return fn(*args)

    call.__name__ = name
    return call


def arg_spec(numba_type: Any) -> dict[str, Any]:
    """How :class:`CheckedModule` checks an argument compiled as ``numba_type``."""
    if hasattr(numba_type, "ndim") and hasattr(numba_type, "layout"):
        return {
            "kind": "array",
            "dtype": str(numba_type.dtype),
            "ndim": int(numba_type.ndim),
            "layout": str(numba_type.layout),
            "readonly": not bool(getattr(numba_type, "mutable", True)),
        }
    return {"kind": "scalar", "type": str(numba_type)}


def aot_function(key: str, name: str) -> Any:
    """Function ``name`` of built module ``key`` in ``aot`` mode, else ``None``."""
    if mode() != "aot":
        return None
    return getattr(aot_module(key), name)


__all__ = [
    "MANIFEST",
    "REQUIRED",
    "CheckedModule",
    "KernelWarning",
    "Mode",
    "aot_function",
    "aot_module",
    "arg_spec",
    "complete",
    "file_record",
    "host_cpu",
    "kernel_dir",
    "manifest_name",
    "manifest_path",
    "mode",
    "module_file",
    "problem",
    "read_manifest",
    "short_digest",
]
