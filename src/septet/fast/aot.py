"""Link the compiled kernels' entry points into extension modules ahead of time (numba ``pycc``).

A process in the ``aot`` mode (:mod:`septet.fast._mode`) runs these modules and never imports
numba or LLVM. Each module holds the entry points Python calls for one game and use, compiled
from the same functions as the JIT kernels (their ``py_func``), with the signature numba gave
them when they ran in this process, every kernel function they call compiled in:

- ``<game>-play``: what :class:`septet.fast.GameKernel` binds (``legal_actions``,
  ``apply_action``, ``greedy_action``, …) and the batch paths ``play_rows_fast`` /
  ``play_rows_step`` (:mod:`septet.fast.batch`);
- ``<game>-search``: the compiled ISMCTS's ``iterate``, ``_rehash``, ``determinize`` and
  ``observe`` (:mod:`septet.fast.search`);
- ``rng``: the generators' seeding (:func:`septet.fast.rng.rngs_for_seeds`).

:func:`link` builds a game's modules from the entry points that have run in this process
(numba's JIT, loading from its disk cache what it compiled before: each has its one signature;
``septet.bots.kernels.exercise`` runs them all), :func:`write_manifest` makes a build usable,
last. ``septet kernels build`` (:mod:`septet.bots.kernels`) does it all in processes of their
own in the ``jit`` mode.
The ``flip7-ev`` programme and the Seven Shot solver stay numba's (their processes load LLVM).
Linking needs a C compiler (numba's ``pycc`` compiles a small wrapper); where it fails the
kernels keep running in the ``jit`` mode.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.machinery
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from septet.fast._mode import (
    arg_spec,
    file_record,
    host_cpu,
    kernel_dir,
    manifest_name,
    module_file,
    numpy_version,
    short_digest,
)

GAME_MODULES = {"flip7": "flip7", "double-seven": "double_seven", "seven-shot": "seven_shot"}

PLAY_EXPORTS: tuple[str, ...] = (
    "canonical",
    "current_player",
    "round_index",
    "legal_actions",
    "chance_outcomes",
    "sample_chance",
    "apply_chance",
    "apply_action",
    "greedy_action",
    "scores",
    "is_winner",
    "play_rows_fast",
    "play_rows_step",
    "max_actions",
)
"""The ``play`` module's entry points (``max_actions`` where the kernel compiles it: Flip 7)."""

SEARCH_EXPORTS: tuple[str, ...] = ("iterate", "_rehash", "determinize", "observe")
"""The ``search`` module's entry points."""


class LinkError(RuntimeError):
    """An entry point could not be linked ahead of time (no signature, or the C build failed)."""


@dataclass(frozen=True)
class Linked:
    """One module linked: its key (``flip7-play``), module name, file and entry points."""

    key: str
    name: str
    path: Path
    exports: tuple[str, ...]


def module_name(key: str, digest: str | None = None) -> str:
    """The extension module's name for ``key`` and the sources' digest."""
    return f"septet_aot_{key.replace('-', '_')}_{digest or short_digest()}"


def _signature(dispatcher: Any) -> Any:
    """The one full signature (with its return type) numba compiled ``dispatcher`` for."""
    sigs = list(dispatcher.overloads)
    if not sigs:
        raise LinkError(f"{dispatcher.py_func.__qualname__} has not run in this process")
    # (a second one would be a call with another layout; the first is the entry point's)
    return dispatcher.overloads[sigs[0]].signature


def _calling(dispatcher: Any, arity: int) -> Any:
    """A function of ``arity`` arguments that calls ``dispatcher`` with them: exported in its
    place, so that the kernel function itself is compiled by its own dispatcher, with its own
    options (no reference counts, numpy's error model), exactly as in the ``jit`` mode."""
    args = ", ".join(f"a{i}" for i in range(arity))
    ns: dict[str, Any] = {"_kernel": dispatcher}
    exec(f"def entry({args}):\n    return _kernel({args})\n", ns)
    return ns["entry"]


@contextlib.contextmanager
def _releasing_the_gil() -> Iterator[None]:
    """While linking: every exported function's CPython wrapper releases the GIL around the
    compiled call, as numba's ``nogil=True`` does for a jitted one (pycc has no option for it:
    its compiler builds plain ``Flags``, so they are swapped for ones with ``release_gil``).
    The kernels run in nopython mode and touch no Python object, so threads may call them at
    once, each on its own arrays (the root-parallel search, ``search.search_trees``)."""
    compiler: Any = importlib.import_module("numba.pycc.compiler")
    plain = compiler.Flags

    class _Releasing(plain):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = _Releasing
    try:
        yield
    finally:
        compiler.Flags = plain


def _link(key: str, functions: dict[str, Any], out_dir: Path) -> Linked:
    try:
        return _link_module(key, functions, out_dir)
    except LinkError:
        raise
    except Exception as exc:  # no compiler, distutils' many error classes, a folder not written
        hint = "" if isinstance(exc, OSError) else " (is a C compiler, gcc, installed?)"
        raise LinkError(f"linking {key} failed{hint}: {exc}") from exc


def _link_module(key: str, functions: dict[str, Any], out_dir: Path) -> Linked:
    try:
        CC: Any = importlib.import_module("numba.pycc").CC
    except (ImportError, AttributeError) as exc:  # (pycc is deprecated in numba)
        raise LinkError(f"this numba cannot link ahead of time: {exc}") from exc
    name = module_name(key)
    with tempfile.TemporaryDirectory(prefix="septet-aot-") as tmp:
        cc = CC(name)
        cc.output_dir = tmp
        cc.target_cpu = "host"  # the machine that builds is the one that runs (BMI2, …)
        cc.verbose = False
        specs: dict[str, list[dict[str, Any]]] = {}
        for export, dispatcher in functions.items():
            sig = _signature(dispatcher)
            specs[export] = [arg_spec(t) for t in sig.args]
            cc.export(export, sig)(_calling(dispatcher, len(sig.args)))
        with _releasing_the_gil():
            cc.compile()
        built = [p for p in Path(tmp).iterdir() if p.name.startswith(name + ".")]
        if not built:
            raise LinkError(f"linking {key} wrote no module")
        out_dir.mkdir(parents=True, exist_ok=True)
        dest = out_dir / built[0].name
        _replace(dest, built[0].read_bytes())  # whole or not at all
        _replace(out_dir / f"{name}.exports.json", json.dumps(specs).encode())
    return Linked(key, name, dest, tuple(functions))


def _replace(dest: Path, data: bytes) -> None:
    """Write ``dest`` whole: a file of its own beside it, then renamed over it (two builds at
    once each rename a whole file)."""
    fd, part = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(part, dest)
    except BaseException:
        Path(part).unlink(missing_ok=True)
        raise


def link(game_name: str, out_dir: Path | None = None) -> list[Linked]:
    """Link ``game_name``'s ``play`` and ``search`` modules into ``out_dir`` (default:
    :func:`~septet.fast._mode.kernel_dir`), once every entry point has run in this process.

    Raises:
        LinkError: an entry point has no signature yet, or the C build failed.
    """
    out = out_dir or kernel_dir(write=True)
    mod = importlib.import_module(f"septet.fast.{GAME_MODULES[game_name]}")
    search = importlib.import_module(f"septet.fast.search_{GAME_MODULES[game_name]}")
    play = {
        name: getattr(mod, name)
        for name in PLAY_EXPORTS
        if hasattr(getattr(mod, name), "py_func")  # compiled by numba (not Python helpers)
    }
    return [
        _link(f"{game_name}-play", play, out),
        _link(f"{game_name}-search", {n: getattr(search, n) for n in SEARCH_EXPORTS}, out),
    ]


def link_rng(out_dir: Path | None = None) -> Linked:
    """Link the generators' module (``rng``), after seeding some in this process."""
    from septet.fast import rng

    rng.rngs_for_seeds([1, 2])
    return _link("rng", {"_seed_many": rng._seed_many}, out_dir or kernel_dir(write=True))


def write_manifest(keys: list[str], out_dir: Path | None = None) -> Path:
    """Write the manifest of the current sources' build listing the modules ``keys`` with
    their files' sizes and SHA-256 and their functions' argument types, and those an earlier
    build of the same sources, numpy and processor listed whose files are still whole; last, as
    it makes the build usable. Delete the modules and manifests of other sources' builds in the
    folder.

    Raises:
        LinkError: a module of ``keys`` is not in the folder, or the folder cannot be written.
    """
    out = out_dir or kernel_dir(write=True)
    digest = short_digest()
    path = out / manifest_name(digest)
    cpu, numpy = host_cpu(), numpy_version()
    data: dict[str, Any] = {"digest": digest, "numpy": numpy, "cpu": cpu}
    data.update(modules={}, files={}, exports={})
    with contextlib.suppress(OSError, ValueError, AttributeError, TypeError):
        old = json.loads(path.read_text())
        if old.get("numpy") == numpy and old.get("cpu") == cpu:  # the others' games carry over
            for key, name in old["modules"].items():
                f = module_file(out, name)
                if f is not None and old["files"].get(key) == file_record(f):
                    data["modules"][key] = name
                    data["files"][key] = old["files"][key]
                    data["exports"][key] = old["exports"].get(key, {})
    for key in keys:
        name = module_name(key, digest)
        f = module_file(out, name)
        if f is None:
            raise LinkError(f"module {name} ({key}) is not in {out}")
        data["modules"][key] = name
        data["files"][key] = file_record(f)
        with contextlib.suppress(OSError, ValueError):
            data["exports"][key] = json.loads((out / f"{name}.exports.json").read_text())
    try:
        _replace(path, json.dumps(data, indent=1).encode())
    except OSError as exc:
        raise LinkError(f"cannot write {path}: {exc}") from exc
    for f in out.iterdir():  # other sources' builds
        ours = f.name.startswith("septet_aot_") or f.name.startswith("manifest-")
        if ours and digest not in f.name and not f.name.endswith(".part"):
            f.unlink(missing_ok=True)
    return path


__all__ = [
    "GAME_MODULES",
    "PLAY_EXPORTS",
    "SEARCH_EXPORTS",
    "LinkError",
    "Linked",
    "link",
    "link_rng",
    "module_name",
    "write_manifest",
]
