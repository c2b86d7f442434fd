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
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from septet.fast._mode import kernel_dir, manifest_path, numpy_version, short_digest

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
    """One module linked: its key (``flip7-play``), module name, file, entry points and the
    CPU seconds the link took in this process."""

    key: str
    name: str
    path: Path
    exports: tuple[str, ...]
    cpu_s: float


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


def _link(key: str, functions: dict[str, Any], out_dir: Path) -> Linked:
    try:
        CC: Any = importlib.import_module("numba.pycc").CC
    except (
        ImportError,
        AttributeError,
    ) as exc:  # (numba has deprecated pycc: a numba without it links nothing)
        raise LinkError(f"this numba cannot link ahead of time: {exc}") from exc
    name = module_name(key)
    t0 = time.process_time()
    with tempfile.TemporaryDirectory(prefix="septet-aot-") as tmp:
        cc = CC(name)
        cc.output_dir = tmp
        cc.target_cpu = "host"  # the machine that builds is the one that runs (BMI2, …)
        cc.verbose = False
        for export, dispatcher in functions.items():
            sig = _signature(dispatcher)
            cc.export(export, sig)(_calling(dispatcher, len(sig.args)))
        try:
            cc.compile()
        except Exception as exc:  # distutils/compiler errors come in many classes
            raise LinkError(f"linking {key} failed: {exc}") from exc
        built = [p for p in Path(tmp).iterdir() if p.name.startswith(name + ".")]
        if not built:
            raise LinkError(f"linking {key} wrote no module")
        out_dir.mkdir(parents=True, exist_ok=True)
        dest = out_dir / built[0].name
        part = dest.with_name(dest.name + ".part")
        shutil.copyfile(built[0], part)
        os.replace(part, dest)  # whole or not at all
    return Linked(key, name, dest, tuple(functions), time.process_time() - t0)


def link(game_name: str, out_dir: Path | None = None) -> list[Linked]:
    """Link ``game_name``'s ``play`` and ``search`` modules into ``out_dir`` (default:
    :func:`~septet.fast._mode.kernel_dir`), once every entry point has run in this process.

    Raises:
        LinkError: an entry point has no signature yet, or the C build failed.
    """
    out = out_dir or kernel_dir()
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
    return _link("rng", {"_seed_many": rng._seed_many}, out_dir or kernel_dir())


def write_manifest(keys: list[str], out_dir: Path | None = None) -> Path:
    """Write the manifest of the current sources' build listing the modules ``keys`` (and
    those an earlier build of the same sources listed), last: it makes the build usable.
    Delete the modules and manifests of other sources' builds in the folder.

    Raises:
        LinkError: a module of ``keys`` is not in the folder.
    """
    out = out_dir or kernel_dir()
    digest = short_digest()
    path = out / manifest_path(digest).name
    modules: dict[str, str] = {}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    # a build of some games adds to the same sources' earlier build of the others
    with contextlib.suppress(OSError, ValueError, AttributeError):
        modules.update(json.loads(path.read_text()).get("modules", {}))
    for key in keys:
        name = module_name(key, digest)
        if not any((out / f"{name}{suffix}").is_file() for suffix in suffixes):
            raise LinkError(f"module {name} ({key}) is not in {out}")
        modules[key] = name
    part = path.with_name(path.name + ".part")
    data = {"digest": digest, "numpy": numpy_version(), "modules": modules}
    part.write_text(json.dumps(data, indent=1))
    os.replace(part, path)
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
