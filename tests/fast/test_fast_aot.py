"""The kernels built ahead of time (septet.fast.aot, septet.fast._mode; issue 29): a process in
the ``aot`` mode plays the JIT kernels' games exactly, without importing numba, and a build that
is missing, incomplete or of other sources is never used."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from septet.fast import _mode

pytest.importorskip("numba")

# The same work in both modes: whole games by both paths, playouts from a position, and a
# compiled ISMCTS search of fixed iterations (its root's visits and rewards).
PROBE = textwrap.dedent(
    """
    import json, random, sys
    from septet import games
    from septet.fast import _mode, kernel_for
    from septet.fast.batch import play_games, playouts
    from septet.fast import search as S

    out = {"mode": _mode.mode()}
    for name, n, pols in (("flip7", 2, ["risk", "greedy"]), ("flip7", 4, ["random"] * 4),
                          ("double-seven", 3, ["greedy", "random", "greedy"]),
                          ("seven-shot", 4, ["greedy"] * 4)):
        game = games.get(name)
        for fast in (True, False):
            r = play_games(game, n, list(range(40)), [pols] * 40, fast=fast)
            out[f"{name} {n} {fast}"] = [r.scores.tolist(), r.wins.tolist(), r.lengths.tolist()]
        rng = random.Random(5)
        state = game.new_state(n)
        for _ in range(30):
            if state.is_terminal:
                break
            if state.current_player < 0:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        r = playouts(state, 50, "greedy", horizon="round", seed=9)
        out[f"{name} {n} playouts"] = [r.scores.tolist(), r.lengths.tolist()]
        while state.current_player < 0 and not state.is_terminal:
            state.apply(state.sample_chance(rng))
        if not state.is_terminal:
            k = kernel_for(game)
            tree, done = S.search(name, k.encode(state), state.current_player, iterations=200,
                                  time_limit=None, seed=3, c=0.7, scale=1.0, bias=0.0,
                                  chance="observed", rollout="greedy", horizon_round=True,
                                  depth=None, tree_limit=None, utility="win", prior=-1,
                                  greedy_params=k.params, players=n)
            kids = tree.children(0)
            out[f"{name} {n} search"] = [done, sorted((a, int(tree.visits[i]),
                                         round(float(tree.reward[i]), 9)) for a, i in kids.items())]
            # root parallel: two searches at once in threads (the built modules release the GIL)
            trees, done2 = S.search_trees(2, game_name=name, root=k.encode(state),
                                          seat=state.current_player, iterations=200,
                                          time_limit=None, seed=3, c=0.7, scale=1.0, bias=0.0,
                                          chance="observed", rollout="greedy",
                                          horizon_round=True, depth=None, tree_limit=None,
                                          utility="win", prior=-1, greedy_params=k.params,
                                          players=n)
            out[f"{name} {n} threads"] = [done2, [sorted((a, int(t.visits[i]))
                                          for a, i in t.children(0).items()) for t in trees]]
    if _mode.mode() == "aot":
        from septet.fast import bits
        out["bits"] = [bits._ctpop(-1), bits._ctpop(0b1011), bits._cttz(0), bits._cttz(8),
                       bits._ctlz(1), bits._ctlz(0)]
        import numpy as np
        try:  # an int32 state would be read as int64 by the C code: refused instead
            kernel_for(games.get("flip7")).current_player(np.zeros(80, np.int32))
        except TypeError as exc:
            out["refused"] = str(exc)
    out["numba imported"] = "numba" in sys.modules
    print(json.dumps(out))
    """
)


def _run(env: dict[str, str], code: str = PROBE) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    out["stderr"] = done.stderr
    return out


def test_the_built_modules_play_the_jit_kernels_games_without_numba() -> None:
    if not _mode.complete(_mode.read_manifest()):
        pytest.skip("no ahead-of-time build of these sources: run `septet kernels build`")
    aot = _run({"SEPTET_KERNELS": "aot"})
    jit = _run({"SEPTET_KERNELS": "jit"})
    assert aot["mode"] == "aot" and jit["mode"] == "jit"
    assert aot["numba imported"] is False and jit["numba imported"] is True
    # int.bit_count and friends, as the intrinsics give them (tests/fast/test_fast_bits.py)
    assert aot.pop("bits") == [64, 3, 64, 3, 63, 64]
    assert aot.pop("refused") == (
        "current_player: argument 1 must be a C-contiguous int64 1-d array, not int32 1-d array"
    )
    keys = [k for k in jit if k not in ("mode", "numba imported", "stderr")]
    assert len(keys) == 20  # 4 settings x (2 paths, playouts, search, threaded search)
    for key in keys:
        assert aot[key] == jit[key], key
    for key in (k for k in keys if k.endswith("threads")):  # each tree is the seed's own
        searched = jit[key.replace("threads", "search")]
        assert jit[key][0] == 400 and jit[key][1][0] == [[a, v] for a, v, _ in searched[1]]


def test_no_build_means_numbas_jit_with_a_warning(tmp_path: Path) -> None:
    code = "from septet.fast import _mode; import json; print(json.dumps({'m': _mode.mode()}))"
    out = _run({"SEPTET_KERNELS": "aot", "SEPTET_KERNEL_DIR": str(tmp_path)}, code)
    assert out["m"] == "jit"
    assert (
        "SEPTET_KERNELS=aot, but no kernels built ahead of time for these sources"
        in (out["stderr"])
    )
    out = _run({"SEPTET_KERNELS": "auto", "SEPTET_KERNEL_DIR": str(tmp_path)}, code)
    assert out["m"] == "jit" and "KernelWarning" not in out["stderr"]


def test_a_build_counts_only_when_complete_whole_and_of_these_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from septet.fast import aot

    monkeypatch.setenv("SEPTET_KERNEL_DIR", str(tmp_path))
    digest = _mode.short_digest()
    so = importlib.machinery.EXTENSION_SUFFIXES[0]
    old = tmp_path / f"septet_aot_rng_000000000000{so}"
    old.write_bytes(b"an older build")
    old_manifest = _mode.manifest_path("000000000000")
    old_manifest.write_text('{"modules": {}}')
    with pytest.raises(aot.LinkError, match="is not in"):
        aot.write_manifest(["rng"])  # its module was never linked
    for key in _mode.REQUIRED:
        (tmp_path / f"{aot.module_name(key)}{so}").write_bytes(key.encode())
    aot.write_manifest(["rng", "flip7-play", "flip7-search"])
    data = _mode.read_manifest()
    assert data is not None and sorted(data["modules"]) == ["flip7-play", "flip7-search", "rng"]
    assert _mode.problem(data) == (
        "incomplete: no double-seven-play, double-seven-search, seven-shot-play, "
        "seven-shot-search (build every game)"
    )
    assert not old.exists() and not old_manifest.exists()  # other sources' build deleted
    aot.write_manifest([k for k in _mode.REQUIRED if not k.startswith("flip7")])  # adds
    data = _mode.read_manifest()
    assert _mode.problem(data) is None and _mode.complete(data)
    assert data is not None and data["modules"]["flip7-play"] == f"septet_aot_flip7_play_{digest}"
    assert data["files"]["rng"]["size"] == len(b"rng")
    # a damaged file, a missing one, another numpy, another processor: not used, and why
    play = tmp_path / f"{aot.module_name('seven-shot-play')}{so}"
    play.write_bytes(b"seven-shot-pla")
    assert "is damaged" in str(_mode.problem(data))
    play.unlink()
    assert _mode.problem(data) == f"the module {play.name.split('.')[0]} is missing from {tmp_path}"
    assert _mode.problem({**data, "numpy": "0.0.1"}) == (
        f"built with numpy 0.0.1, this is {_mode.numpy_version()}: rebuild"
    )
    assert _mode.problem({**data, "cpu": "z80"}) == (
        "built for another processor: rebuild on this machine"
    )
    # a later build of one game carries over only the others' modules that are still whole
    play.write_bytes(b"seven-shot-play?")  # back, but not as recorded: left out
    (tmp_path / f"{aot.module_name('flip7-play')}{so}").write_bytes(b"flip7-play, relinked")
    aot.write_manifest(["flip7-play"])
    data = _mode.read_manifest()
    assert data is not None and "seven-shot-play" not in data["modules"]
    assert data["files"]["flip7-play"]["size"] == len(b"flip7-play, relinked")


def test_a_built_function_refuses_arrays_of_other_types() -> None:
    np = pytest.importorskip("numpy")

    class Module:
        @staticmethod
        def scores(s: Any, out: Any) -> int:
            return 7

    specs = [{"kind": "array", "dtype": "int64", "ndim": 1, "layout": "C", "readonly": False}]
    checked = _mode.CheckedModule(Module, {"scores": specs * 2})  # type: ignore[arg-type]
    s = np.zeros(5, dtype=np.int64)
    assert checked.scores(s, s) == 7
    with pytest.raises(TypeError, match="argument 1 must be a C-contiguous int64 1-d array"):
        checked.scores(s.astype(np.int32), s)
    with pytest.raises(TypeError, match="argument 2 must be a C-contiguous int64 1-d array"):
        checked.scores(s, np.zeros((4, 2), dtype=np.int64)[:, 0])  # a strided view
    with pytest.raises(TypeError, match=r"argument 1 must be .* not <class 'list'>"):
        checked.scores([0, 1], s)
    with pytest.raises(TypeError, match="scores takes 2 arguments, not 1"):
        checked.scores(s)


def test_flip7_ev_and_the_trick_solver_still_load_numba_in_the_aot_mode() -> None:
    """The ``flip7-ev`` programme and the Expert's solver are not built ahead of time: in the
    ``aot`` mode they load numba themselves, beside the kernel files' stand-ins."""
    if not _mode.complete(_mode.read_manifest()):
        pytest.skip("no ahead-of-time build of these sources: run `septet kernels build`")
    code = textwrap.dedent(
        """
        import json, sys
        from septet.fast import _mode, kernel_for
        from septet.games import get
        kernel_for(get("flip7"))  # the kernel files imported with the stand-ins first
        from septet.bots.flip7_ev import Row, fresh_pool
        from septet.bots.flip7_ev_fast import FastEVSolver, load
        assert load() is not None
        solver = FastEVSolver("classic", "single")
        value = float(solver.value(Row(), fresh_pool("classic", numbers_only=True)))
        from septet.bots.expert.ss_solver import COMPILED
        from septet.bots.kernels import warm
        warm("seven-shot", "solver")  # one trick solved on a first card play
        warm("flip7", "flip7-ev")  # the flip7-ev bot's move
        print(json.dumps({"mode": _mode.mode(), "value": value,
                          "solver compiled": COMPILED, "numba": "numba" in sys.modules}))
        """
    )
    out = _run({"SEPTET_KERNELS": "aot"}, code)
    assert out["mode"] == "aot" and out["numba"] is True and out["solver compiled"] is True
    assert out["value"] == pytest.approx(18.5652176141317, abs=1e-12)  # bots.md's reference
