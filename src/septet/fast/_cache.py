"""The on-disk cache of the compiled kernels, keyed on every source whose values they freeze.

numba keys a cached function on its own file's stamp and bytecode only. The kernels read rule
tables and constants of the engines (``septet.games.flip7.cards.MOD_ADD``,
``septet.games.flip7.rules.FLIP7_BONUS``, the Double Seven phases, …) as globals, which numba
freezes into the machine code at compile time, and they call across files (the search calls
every game's kernel, the games call the generator). So a cached kernel could outlive a changed
table: ``--engine fast`` would play old rules and the twin checks would fail against a stale
kernel until the cache files were deleted.

:func:`drop_stale` closes that gap: a SHA-256 of the kernel files (:data:`KERNEL_FILES`) and
of every ``septet`` module they import, transitively (:func:`sources`: the engine modules whose
tables and constants they read, e.g. ``games/flip7/cards.py``, ``games/double_seven/state.py``)
is kept beside each cache directory; when it differs, that directory's kernel cache files are
deleted before anything is loaded, so the kernels are compiled again from the current sources.
``tests/fast/test_fast_cache.py`` checks that every ``septet`` module a kernel imports is covered
and that a changed table in a copy of the package gives rebuilt, twin-equal kernels.
"""

from __future__ import annotations

import ast
import hashlib
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The ``septet`` package directory."""

KERNEL_FILES: tuple[str, ...] = (
    "fast/flip7.py",
    "fast/double_seven.py",
    "fast/seven_shot.py",
    "fast/search_flip7.py",
    "fast/search_double_seven.py",
    "fast/search_seven_shot.py",
    "fast/rng.py",
    "fast/bits.py",
    "bots/_flip7_ev_kernel.py",
    "bots/expert/ss_solver.py",
)
"""The files whose functions numba compiles and caches (their ``.nbi``/``.nbc`` files are
the ones dropped)."""

FOLLOWED: tuple[str, ...] = ("games/", "bots/flip7_ev.py", "fast/_search_body.py", *KERNEL_FILES)
"""Where the import closure is followed: the engines (whose tables and constants the kernels
read) and the kernels themselves. ``septet.core`` and the other bots lend the kernels types
and errors only, and ``septet.fast``'s own ``__init__`` and ``batch`` call the kernels without
being compiled into them."""

STAMP = "septet-kernels.sha256"

_done = False


def _module_file(name: str) -> Path | None:
    """The source of module ``septet.…`` ``name``, or ``None`` (not a module of the package)."""
    parts = name.split(".")
    if parts[0] != "septet":
        return None
    rel = Path(*parts[1:]) if len(parts) > 1 else Path()
    for cand in (ROOT / rel.with_suffix(".py"), ROOT / rel / "__init__.py"):
        if cand.is_file():
            return cand
    return None


_IMPORTS: dict[tuple[Path, int, int], frozenset[Path]] = {}
""":func:`imports` by (file, mtime_ns, size): every process checks the nine kernel files'
closures at start, which share most of their files."""


def imports(path: Path) -> set[Path]:
    """The ``septet`` modules that ``path`` imports (anywhere in it), as files: for
    ``from a import b`` the module ``a.b`` when it is one, else ``a``. Parsed once a process
    per version of the file (its modification time and size)."""
    st = path.stat()
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _IMPORTS:
        _IMPORTS[key] = frozenset(_parse_imports(path))
    return set(_IMPORTS[key])


def _parse_imports(path: Path) -> set[Path]:
    out: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found = [_module_file(a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found = [_module_file(f"{node.module}.{a.name}") or _module_file(node.module)
                     for a in node.names]  # fmt: skip
        else:
            continue
        out.update(f for f in found if f is not None)
    return out


def _followed(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    return any(rel == f or (f.endswith("/") and rel.startswith(f)) for f in FOLLOWED)


def sources(kernel: str | None = None) -> list[Path]:
    """The kernel file ``kernel`` (default: every one of :data:`KERNEL_FILES`) and the modules
    it imports, transitively within :data:`FOLLOWED`: every source whose values its compiled
    functions may freeze (sorted by path)."""
    todo = [ROOT / f for f in (KERNEL_FILES if kernel is None else (kernel,))]
    seen: set[Path] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(f for f in imports(p) - seen if _followed(f))
    return sorted(seen)


def digest(kernel: str | None = None) -> str:
    """SHA-256 over the relative paths and bytes of ``sources(kernel)`` (hex)."""
    h = hashlib.sha256()
    for p in sources(kernel):
        h.update(str(p.relative_to(ROOT)).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def cache_dir(source: Path) -> Path:
    """The directory where numba caches the functions of ``source`` (its own locator: the
    ``__pycache__`` beside the file, ``NUMBA_CACHE_DIR`` or the user-wide cache)."""
    from numba.core.caching import FunctionCache

    ns: dict[str, object] = {}
    exec(compile("def _probe():\n    pass\n", str(source), "exec"), ns)
    return Path(FunctionCache(ns["_probe"])._cache_path)  # type: ignore[no-untyped-call]


def drop_stale() -> None:
    """Delete a kernel file's cache files when the digest of its sources changed (each kernel
    file on its own: a change in Seven Shot's tables leaves the Flip 7 kernels' cache alone),
    once a process. A read-only cache is left alone; numba's cache internals not found give a
    warning."""
    global _done
    if _done:
        return
    _done = True
    for rel in KERNEL_FILES:
        try:
            _drop_if_stale(rel)
        except OSError:  # a read-only cache: numba keeps its own rules there
            pass
        except (AttributeError, ImportError, RuntimeError, TypeError) as exc:
            # numba's cache internals moved: say so (a cached kernel may then be stale)
            warnings.warn(f"septet.fast: cannot check the kernels' cache: {exc!r}", stacklevel=2)


def _stamp(rel: str) -> Path:
    """The file beside kernel file ``rel``'s cache that holds the digest it was built from."""
    src = ROOT / rel
    return cache_dir(src) / f"{src.stem}.{STAMP}"


def is_current(rel: str) -> bool:
    """Whether kernel file ``rel``'s cache was built from the current sources (its stamp holds
    today's :func:`digest`)."""
    stamp = _stamp(rel)
    return stamp.exists() and stamp.read_text() == digest(rel)


def index_files(rel: str) -> list[Path]:
    """The numba index files (``.nbi``, one per cached function) of kernel file ``rel``."""
    src = ROOT / rel
    d = cache_dir(src)
    return sorted(d.glob(f"{src.stem}.*.nbi")) if d.exists() else []


def _drop_if_stale(rel: str) -> None:
    if is_current(rel):
        return
    src = ROOT / rel
    d = cache_dir(src)
    if d.exists():
        for f in d.iterdir():
            if f.suffix in (".nbi", ".nbc") and f.name.split(".")[0] == src.stem:
                f.unlink()
    d.mkdir(parents=True, exist_ok=True)
    _stamp(rel).write_text(digest(rel))


__all__ = [
    "KERNEL_FILES",
    "ROOT",
    "cache_dir",
    "digest",
    "drop_stale",
    "imports",
    "index_files",
    "is_current",
    "sources",
]
