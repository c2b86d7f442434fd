"""The engine benchmark harness (numbers are not checked, only what they are made of)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tests.arena.tiny_game  # noqa: F401  (registers test-tiny-sevens)
from septet import games
from septet.arena.bench import bench_engines, bench_game, rows_table, write_json
from tests.arena.tiny_game import NAME


def test_arena_bench_game_counts_steps() -> None:
    # target 3 with 2 seats: 2 deals, then 2 or 3 adds (1+2, 2+1 or 1+1+1)
    row = bench_game(games.get(NAME, target=3), 2, 30, seed=1)
    assert row.error is None and row.games == 30
    assert 4.0 <= row.mean_steps <= 5.0
    assert row.steps_per_s == pytest.approx(row.games_per_s * row.mean_steps)
    assert row.peak_kib > 0 and row.memory_games == 20 and row.max_rss_mib > 0


def test_arena_bench_engines_rows_and_errors(tmp_path: Path) -> None:
    rows = bench_engines([NAME, "no-such-game"], num_games=3, players=[2, 4, 9])
    assert [(r.game, r.players) for r in rows] == [(NAME, 2), (NAME, 4), ("no-such-game", 0)]
    assert rows[2].error is not None and "unknown game" in rows[2].error
    default = bench_engines([NAME], num_games=2)
    assert [r.players for r in default] == [2, 3, 4]  # every supported count
    path = write_json(rows, tmp_path / "b.json", {"note": "x"})
    data = json.loads(path.read_text())
    assert data["note"] == "x" and len(data["rows"]) == 3
    assert data["rows"][0]["game"] == NAME and data["rows"][0]["games"] == 3
    assert rows_table(rows).row_count == 3


def test_arena_bench_broken_engine_is_a_row() -> None:
    class Broken(type(games.get(NAME))):  # type: ignore[misc]
        def new_state(self, num_players: int):  # type: ignore[no-untyped-def]
            raise RuntimeError("engine bug")

    row = bench_game(Broken(), 2, 5)
    assert row.error == "RuntimeError: engine bug" and row.games == 0
