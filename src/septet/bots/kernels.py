"""Compile (or load from numba's disk cache) every compiled kernel a game's bots and tools use,
ahead of their first use: ``septet kernels build`` (:mod:`septet.bots.cli`).

A kernel is compiled on its first call in a process with an empty cache (15-25 CPU-s per game
and use, ``bench/bench_kernel_startup.py``) and loaded from the cache afterwards (about 2 CPU-s).
A site's deployment, a CI job or a researcher about to time something runs this once after the
install, so that no first Strong move, ``simulate --engine fast`` or test pays the compile.

For each game the uses are:

- ``play``: the playout kernels (``septet.fast.batch.play_games``) with the random and greedy
  policies, and Flip 7's risk policy;
- ``search``: the compiled ISMCTS (``ismcts:...,engine=fast``: the settings of every level
  share its compiled code, they are arguments), one move of a fresh deal;
- ``flip7-ev`` (Flip 7): the exact expected-value programme of the ``flip7-ev`` bot;
- ``solver`` (Seven Shot): the Expert's perfect-information trick solver, one trick deep on
  the first card play of a random deal;
- ``aot``: the ``play`` and ``search`` entry points linked into extension modules ahead of
  time (:mod:`septet.fast.aot`); once every game's are built (and the generator's, ``aot
  rng``), a later process runs them without importing numba (:mod:`septet.fast._mode`).

Each game's uses run in a process of its own, in numba's ``jit`` mode; the first one of a game
also pays its imports.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from septet.fast import FastUnavailable, _cache, require

GAMES: dict[str, int] = {"flip7": 3, "double-seven": 2, "seven-shot": 3}
"""The games with compiled kernels, and the table size the warm-up plays (any size shares the
same compiled code: the kernels take the player count as data)."""


@dataclass(frozen=True)
class WarmStep:
    """One use of one game's kernels, compiled or loaded.

    Attributes:
        game: the game's registry name.
        use: ``play``, ``search``, ``flip7-ev`` or ``solver``.
        cpu_s: CPU seconds the step took in this process (``time.process_time``).
        wall_s: wall-clock seconds.
        compiled: cache entries (numba index files) the step wrote: 0 when everything was
            loaded from the cache; for the ``aot`` steps, the modules linked.
        note: why an ``aot`` step linked nothing (the kernels then keep running by numba).
    """

    game: str
    use: str
    cpu_s: float
    wall_s: float
    compiled: int
    note: str = ""


FILES: dict[str, tuple[str, ...]] = {
    "flip7": ("fast/flip7.py", "fast/search_flip7.py", "bots/_flip7_ev_kernel.py"),
    "double-seven": ("fast/double_seven.py", "fast/search_double_seven.py"),
    "seven-shot": ("fast/seven_shot.py", "fast/search_seven_shot.py", "bots/expert/ss_solver.py"),
}
"""Each game's kernel files (of :data:`septet.fast._cache.KERNEL_FILES`); the generator
(``fast/rng.py``) and the bit helpers (``fast/bits.py``) serve every game."""

SHARED: tuple[str, ...] = ("fast/rng.py", "fast/bits.py")

SEARCH_SPEC = "ismcts:iterations=50,rollout=greedy,horizon=round,engine=fast"
"""The search the ``search`` use runs (the Strong level's settings differ only in arguments)."""


def cache_entries(game: str | None = None) -> dict[Path, int]:
    """The numba index files in the cache directories of ``game``'s kernel files and the shared
    ones (default: every kernel file), with their modification times (ns): what :func:`warm`
    compares before and after a step."""
    files = _cache.KERNEL_FILES if game is None else (*FILES[game], *SHARED)
    return {f: f.stat().st_mtime_ns for rel in files for f in _cache.index_files(rel)}


def uses(game: str) -> list[str]:
    """The uses :func:`build` warms for ``game``, in order.

    Raises:
        FastUnavailable: ``game`` has no compiled kernel.
    """
    if game not in GAMES:
        raise FastUnavailable(
            f"no compiled kernels for {game!r}; the games with kernels: {', '.join(GAMES)}"
        )
    extra = {"flip7": ["flip7-ev"], "seven-shot": ["solver"]}.get(game, [])
    return ["play", "search", *extra]


def _play(name: str) -> None:
    from septet.fast.batch import play_games
    from septet.games import get

    game = get(name)
    n = GAMES[name]
    policies = ["random", "greedy"] + (["risk"] if name == "flip7" else [])
    for pol in policies:
        play_games(game, n, [1, 2], [[pol] * n] * 2)


def _fresh_turn(name: str, rng: random.Random) -> Any:
    from septet.games import get

    state = get(name).new_state(GAMES[name])
    while state.current_player < 0 and not state.is_terminal:
        state.apply(state.sample_chance(rng))
    return state


def _search(name: str) -> None:
    from septet.bots import make_agent
    from septet.core.play import seat_view

    rng = random.Random(0)
    state = _fresh_turn(name, rng)
    agent = make_agent(SEARCH_SPEC, state.game)
    agent.act(seat_view(state, state.current_player), state.legal_actions(), rng)


def _flip7_ev() -> None:
    from septet.bots import make_agent
    from septet.bots.flip7_ev_fast import load
    from septet.core.play import seat_view

    load()  # (the agent answers in Python while the compiled programme is not loaded yet)
    rng = random.Random(0)
    state = _fresh_turn("flip7", rng)
    agent = make_agent("flip7-ev", state.game)
    agent.act(seat_view(state, state.current_player), state.legal_actions(), rng)


def _solver() -> None:
    from septet.bots.expert.ss_solver import Solver, position_from_state
    from septet.games import get
    from septet.games.seven_shot.state import PH_PLAY

    rng = random.Random(0)
    state: Any = get("seven-shot").new_state(3)
    while not (state.current_player >= 0 and state.phase == PH_PLAY):  # the first card play
        if state.current_player < 0:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    cards = [a.card for a in state.legal_actions()]
    side = state.side_of(state.current_player)
    Solver().values(position_from_state(state), cards, side, depth=1)  # (the same code as exact)


def warm(game: str, use: str) -> WarmStep:
    """Run one use of ``game``'s kernels (compiling what the cache lacks).

    Raises:
        FastUnavailable: numba is not installed, or ``game``/``use`` has no kernels.
    """
    require()
    if use not in uses(game):
        raise FastUnavailable(f"{game} has no compiled use {use!r}; it has {', '.join(uses(game))}")
    before = cache_entries(game)
    t0, c0 = time.perf_counter(), time.process_time()
    if use == "play":
        _play(game)
    elif use == "search":
        _search(game)
    elif use == "flip7-ev":
        _flip7_ev()
    else:
        _solver()
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    after = cache_entries(game)
    written = sum(1 for f, m in after.items() if before.get(f) != m)
    return WarmStep(game, use, cpu, wall, written)


def exercise(game_name: str) -> None:
    """Run every entry point of ``game_name``'s ahead-of-time ``play`` and ``search`` modules
    once in this process (numba's JIT: each gets the one signature
    :func:`septet.fast.aot.link` exports it with)."""
    import numpy as np

    from septet.fast import kernel_for
    from septet.fast import search as S
    from septet.fast.batch import play_games
    from septet.fast.rng import make_rng
    from septet.games import get

    game = get(game_name)
    n = 3
    _play(game_name)  # play_rows_fast
    _search(game_name)  # iterate
    play_games(game, n, [1, 2], [["greedy"] * n] * 2, fast=False)  # play_rows_step
    k = kernel_for(game)
    state = game.new_state(n)  # a chance node
    s = k.encode(state)
    k.canonical(s)
    k.current_player(s)
    k.round_index(s)
    k.chance_outcomes(s, np.zeros(512, np.int64), np.zeros(512, np.int64))
    k.apply_chance(s, k.sample_chance(s, make_rng(1)))
    rng = random.Random(0)
    while state.current_player < 0:
        state.apply(state.sample_chance(rng))
    s = k.encode(state)  # a player's node
    legal = np.zeros(k.max_actions(n), np.int64)
    k.apply_action(s, k.greedy_action(s, legal, k.legal_actions(s, legal)))
    k.scores(s)
    k.winners(s)
    g = S.GAME_IDS[game_name]
    root = k.encode(state)
    out = root.copy()
    S.determinize(g, root, state.current_player, make_rng(1), out)
    S.observe(g, root, 0, state.current_player)
    S.Tree(64, g).grown()  # _rehash


def _cpu() -> float:
    """CPU seconds of this process and of its ended children (the C compiler a link runs)."""
    import resource

    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime


def _linked_step(game: str, use: str, t0: float, c0: float, what: list[Any]) -> WarmStep:
    cpu, wall = _cpu() - c0, time.perf_counter() - t0
    return WarmStep(game, use, cpu, wall, len(what))


def build_game(game: str, aot: bool = True) -> list[WarmStep]:
    """Every use of ``game``, in order (:func:`warm`), then (``aot``) its entry points linked
    ahead of time (:func:`septet.fast.aot.link`: the step ``aot``, ``compiled`` counting the
    modules written). Runs in the ``jit`` mode (:func:`build` starts it so)."""
    steps = [warm(game, u) for u in uses(game)]
    if aot:
        from septet.fast import aot as A

        t0, c0 = time.perf_counter(), _cpu()
        try:
            exercise(game)
            steps.append(_linked_step(game, "aot", t0, c0, A.link(game)))
        except A.LinkError as exc:  # (no C compiler, say): numba's kernels serve as before
            steps.append(WarmStep(game, "aot", _cpu() - c0, time.perf_counter() - t0, 0, str(exc)))
    return steps


def _build_rng() -> WarmStep:
    from septet.fast import aot as A

    t0, c0 = time.perf_counter(), _cpu()
    try:
        return _linked_step("(all)", "aot rng", t0, c0, [A.link_rng()])
    except A.LinkError as exc:
        return WarmStep("(all)", "aot rng", _cpu() - c0, time.perf_counter() - t0, 0, str(exc))


def build(
    games: list[str] | None = None,
    jobs: int = 1,
    aot: bool = True,
    on_game: Callable[[list[WarmStep]], None] | None = None,
) -> list[WarmStep]:
    """Every use of each of ``games`` (default: all three), game by game in order, in
    processes of their own in the ``jit`` mode (``jobs`` games at once; numba writes each
    cache file whole, so the shared generator compiled twice is harmless); then, with
    ``aot``, the generator's module and the build's manifest (:mod:`septet.fast._mode`: a
    later process with every game's modules runs them without numba). ``on_game`` is called
    with each game's steps as soon as that game is built (in order). A link that fails (no C
    compiler) is a step with a ``note``, not an error: numba's kernels serve.

    Raises:
        FastUnavailable: numba is not installed, or a game has no kernels (before anything
            is compiled).
    """
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    names = games or list(GAMES)
    for name in names:
        uses(name)
    if importlib.util.find_spec("numba") is None:
        require()  # (the message saying how to install it)
        raise FastUnavailable("septet kernels build needs numba: pip install 'septet[fast]'")
    spawn = multiprocessing.get_context("spawn")  # (a fresh interpreter: no inherited locks)
    before = os.environ.get("SEPTET_KERNELS")
    os.environ["SEPTET_KERNELS"] = "jit"  # the workers compile: numba itself, not a build
    try:
        with ProcessPoolExecutor(
            max_workers=max(1, min(jobs, len(names))), mp_context=spawn
        ) as pool:
            steps = []
            for got in pool.map(partial(build_game, aot=aot), names):
                steps.extend(got)
                if on_game is not None:
                    on_game(got)
            if aot and not any(s.note for s in steps):
                steps.append(pool.submit(_build_rng).result())
            if aot and not any(s.note for s in steps):
                from septet.fast.aot import LinkError, write_manifest

                keys = ["rng", *(f"{g}-{u}" for g in names for u in ("play", "search"))]
                try:
                    write_manifest(keys)
                except LinkError as exc:
                    steps.append(WarmStep("(all)", "aot manifest", 0.0, 0.0, 0, str(exc)))
    finally:
        if before is None:
            os.environ.pop("SEPTET_KERNELS", None)
        else:
            os.environ["SEPTET_KERNELS"] = before
    return steps


__all__ = [
    "FILES",
    "GAMES",
    "SEARCH_SPEC",
    "SHARED",
    "WarmStep",
    "build",
    "build_game",
    "cache_entries",
    "exercise",
    "uses",
    "warm",
]
