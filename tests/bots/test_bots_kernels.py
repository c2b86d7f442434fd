"""``septet kernels``: building the kernels' cache ahead of use (septet.bots.kernels)."""

from __future__ import annotations

import importlib.machinery
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from septet.bots import kernels as warm
from septet.cli import app
from septet.fast import _cache


def test_every_kernel_file_belongs_to_a_game_or_is_shared() -> None:
    owned = [f for files in warm.FILES.values() for f in files] + list(warm.SHARED)
    assert sorted(owned) == sorted(_cache.KERNEL_FILES)  # no kernel left unbuilt
    assert warm.uses("flip7") == ["play", "search", "flip7-ev"]
    assert warm.uses("seven-shot") == ["play", "search", "solver"]
    assert warm.uses("double-seven") == ["play", "search"]


def test_kernels_build_one_game_then_everything_is_cached() -> None:
    runner = CliRunner()
    args = ["kernels", "build", "--game", "double-seven", "--json", "--no-aot"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    steps = [json.loads(line) for line in first.output.splitlines() if line.startswith("{")]
    assert [(s["game"], s["use"]) for s in steps] == [
        ("double-seven", "play"),
        ("double-seven", "search"),
    ]
    # built (or already there): the same uses again load every function from the cache (a look
    # or two more where another test process was compiling the same kernels meanwhile)
    for _ in range(3):
        again = [warm.warm("double-seven", use) for use in ("play", "search")]
        if not any(s.compiled for s in again):
            break
    assert [s.compiled for s in again] == [0, 0]
    assert all(s.cpu_s >= 0 and s.wall_s >= 0 for s in again)
    assert warm.cache_entries("double-seven")  # the index files are there


def test_kernels_build_refuses_an_unknown_game_before_compiling() -> None:
    result = CliRunner().invoke(app, ["kernels", "build", "--game", "chess"])
    assert result.exit_code != 0
    assert isinstance(result.exception, warm.FastUnavailable)
    assert "no compiled kernels for 'chess'" in str(result.exception)


def test_kernels_status_lists_every_kernel_file() -> None:
    result = CliRunner().invoke(app, ["kernels", "status", "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    rows, aot = lines[:-1], lines[-1]
    assert [r["file"] for r in rows] == list(_cache.KERNEL_FILES)
    assert aot["mode"] == "jit"  # (tests/conftest.py) and where the built modules would be:
    assert set(aot) == {"aot_dir", "aot_modules", "aot_complete", "aot_problem", "mode"}
    built = {r["file"]: r for r in rows}["fast/double_seven.py"]
    assert built["current"] is True  # (its digest stamp is written on any load of septet.fast)
    assert built["directory"].endswith("__pycache__") or "NUMBA_CACHE_DIR" in os.environ


def test_kernels_build_in_processes_keeps_the_games_order() -> None:
    steps = warm.build(["seven-shot", "double-seven"], jobs=2, aot=False)
    assert [(s.game, s.use) for s in steps] == [
        ("seven-shot", "play"),
        ("seven-shot", "search"),
        ("seven-shot", "solver"),
        ("double-seven", "play"),
        ("double-seven", "search"),
    ]
    with pytest.raises(warm.FastUnavailable, match="no compiled kernels for 'go'"):
        warm.build(["double-seven", "go"], jobs=2)  # refused before anything runs


def test_kernels_build_links_a_games_modules_ahead_of_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from septet.fast import _mode

    monkeypatch.setenv("SEPTET_KERNEL_DIR", str(tmp_path))
    steps = warm.build(["seven-shot"], jobs=1)
    assert [(s.game, s.use) for s in steps][-2:] == [("seven-shot", "aot"), ("(all)", "aot rng")]
    assert [s.compiled for s in steps][-2:] == [2, 1]  # modules written: play and search; rng
    data = _mode.read_manifest()
    assert data is not None
    assert sorted(data["modules"]) == ["rng", "seven-shot-play", "seven-shot-search"]
    assert _mode.problem(data) == (  # Flip 7 and Double Seven not built: no process uses it
        "incomplete: no flip7-play, flip7-search, double-seven-play, double-seven-search "
        "(build every game)"
    )
    so = importlib.machinery.EXTENSION_SUFFIXES[0]
    names = sorted(p.name.split(".")[0] for p in tmp_path.glob(f"septet_aot_*{so}"))
    assert names == sorted(data["modules"].values())
