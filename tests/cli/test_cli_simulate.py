"""`septet simulate` and `septet bench` through Typer's runner."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest
from typer.testing import CliRunner

import tests.arena.tiny_game  # noqa: F401  (registers test-tiny-sevens)
from septet import games
from septet.arena.runner import RunOutcome, ray_available
from septet.cli import app
from tests.arena.tiny_game import NAME

runner = CliRunner()


def _simulate(out: Path, *extra: str) -> str:
    args = ["simulate", NAME, "--agents", "random,random,random", "--games", "60"]
    result = runner.invoke(app, [*args, "--seed", "4", "--out", str(out), "--no-progress", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_simulate_files_and_worker_determinism(tmp_path: Path) -> None:
    out1 = _simulate(tmp_path / "w1", "--workers", "1")
    _simulate(tmp_path / "w2", "--workers", "2")
    assert "random#1" in out1 and "Seat advantage" in out1 and "game length" in out1
    files = sorted(p.name for p in (tmp_path / "w1").iterdir())
    assert files == [
        "game_length.png",
        "games.csv",
        "results.json",
        "scores.png",
        "win_rate_by_seat.png",
    ]
    # Same seed: identical per-game results and statistics for 1 and 2 workers.
    csv1 = (tmp_path / "w1" / "games.csv").read_text()
    assert csv1 == (tmp_path / "w2" / "games.csv").read_text()
    r1 = json.loads((tmp_path / "w1" / "results.json").read_text())
    r2 = json.loads((tmp_path / "w2" / "results.json").read_text())
    assert r1.pop("run")["workers"] == 1 and r2.pop("run")["workers"] == 2
    assert r1 == r2
    # Content: 60 games, 3 seats, every agent in every game, seats rotated fairly.
    rows = list(csv.DictReader(csv1.splitlines()))
    assert len(rows) == 60 and [int(r["game"]) for r in rows] == list(range(60))
    assert r1["games_played"] == 60 and r1["players"] == 3 and r1["seed"] == 4
    assert r1["options"] == {"target": 7, "bonus": False, "style": "plain"}
    for stats in r1["agent_stats"]:
        assert stats["games"] == 60
        assert [s["games"] for s in stats["by_seat"]] == [20, 20, 20]
        label = stats["label"]
        wins = sum(1 for r in rows if label in r["winner_agents"].split(";"))
        assert stats["wins"] == wins
        scores = [
            float(r[f"seat{s}_score"])
            for r in rows
            for s in range(3)
            if r[f"seat{s}_agent"] == label
        ]
        assert stats["scores"]["mean"] == pytest.approx(sum(scores) / len(scores))
    seat0_wins = sum(1 for r in rows if "0" in r["winners"].split(";"))
    assert r1["seat_advantage"]["seats"][0]["successes"] == seat0_wins
    for r in rows:
        # each game: 3 deals + at least 4 adds of 1 or 2 summing to 7
        assert 3 + 4 <= int(r["length"]) <= 3 + 7
    assert (tmp_path / "w1" / "scores.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.skipif(not ray_available(), reason="ray is not installed (pip install 'septet[ray]')")
def test_cli_simulate_ray_backend_matches_local(tmp_path: Path) -> None:
    # A local Ray instance with 2 CPUs (no dashboard), in a subprocess so that Ray's threads and
    # global state never live in the test process; the test game, registered at run time,
    # travels to the Ray workers by value.
    _simulate(tmp_path / "local", "--no-plots")
    root = Path(__file__).resolve().parents[2]
    code = "import tests.arena.tiny_game; from septet.cli import app; app()"
    args = ["simulate", NAME, "--agents", "random,random,random", "--games", "60", "--seed", "4"]
    args += ["--out", str(tmp_path / "ray"), "--no-progress", "--no-plots"]
    args += ["--backend", "ray", "--workers", "2"]
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    local = (tmp_path / "local" / "games.csv").read_text()
    assert local == (tmp_path / "ray" / "games.csv").read_text()
    r_local = json.loads((tmp_path / "local" / "results.json").read_text())
    r_ray = json.loads((tmp_path / "ray" / "results.json").read_text())
    assert r_ray.pop("run")["backend"] == "ray"
    assert r_local.pop("run")["backend"] == "local"
    assert r_local == r_ray


def test_cli_simulate_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from septet.arena import cli as arena_cli

    monkeypatch.setattr(arena_cli, "ray_available", lambda: False)
    result = runner.invoke(app, ["simulate", NAME, "-a", "random,random", "--backend", "ray"])
    assert result.exit_code == 2
    assert "the ray backend needs ray: pip install 'septet[ray]'" in result.output


def test_cli_simulate_other_options_differ(tmp_path: Path) -> None:
    _simulate(tmp_path / "a")
    _simulate(tmp_path / "b", "--option", "target=9")
    a = (tmp_path / "a" / "games.csv").read_text()
    b = (tmp_path / "b" / "games.csv").read_text()
    assert a != b


def test_cli_simulate_fewer_agents_than_seats(tmp_path: Path) -> None:
    args = ["simulate", NAME, "-a", "random", "--players", "2", "-n", "10", "--no-plots"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path)])  # with the progress bar
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["agent_stats"][0]["games"] == 10
    assert not (tmp_path / "scores.png").exists()


def test_cli_simulate_ctrl_c_keeps_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from septet.arena import cli as arena_cli

    real_run = arena_cli.run

    def interrupted_run(job: Any, **kwargs: Any) -> RunOutcome:
        # Ctrl-C after the first two chunks (of 2 games each): 4 of 30 games finished.
        calls = [0]
        progress = kwargs["on_progress"]

        def on_progress(n: int) -> None:
            progress(n)
            calls[0] += 1
            if calls[0] == 2:
                raise KeyboardInterrupt

        kwargs["on_progress"] = on_progress
        return cast(RunOutcome, real_run(job, **kwargs))

    monkeypatch.setattr(arena_cli, "run", interrupted_run)
    args = ["simulate", NAME, "-a", "random,random", "-n", "30", "--out", str(tmp_path)]
    result = runner.invoke(app, [*args, "--no-progress", "--no-plots"])
    assert result.exit_code == 130, result.output
    assert "Stopped: 4 of 30 games finished; keeping them." in result.output
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["interrupted"] is True and data["games_played"] == 4
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 1 + 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "-a", "random,random"], "unknown game 'nope'"),
        ([NAME, "-a", "random,wizard"], "unknown agent 'wizard'"),
        ([NAME, "-a", "random,random", "-n", "0"], "--games must be at least 1"),
        ([NAME, "-a", "random,random", "-w", "0"], "--workers must be at least 1"),
        ([NAME, "-a", "random,random", "--players", "9"], "played by 2 to 4 players, not 9"),
        ([NAME, "-a", "random"], "played by 2 to 4 players, not 1"),
        ([NAME, "-a", "random,random", "-o", "target=y"], "option target is a whole number"),
        ([NAME, "-a", "random,random", "--backend", "mpi"], "--backend must be one of local, ray"),
        ([NAME, "-a", "random,random", "--seed", "-1"], "--seed must be 0 or more"),
        ([NAME, "-a", ","], "--agents needs at least one agent spec"),
    ],
)
def test_cli_simulate_bad_input_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    assert message in result.output.replace("\n", "")
    assert not (tmp_path / "x").exists()


def test_cli_simulate_bad_number_is_exit_2() -> None:
    result = runner.invoke(app, ["simulate", NAME, "-a", "random,random", "-n", "many"])
    assert result.exit_code == 2


@pytest.mark.parametrize("name", ["double-seven", "flip7", "seven-shot"])
def test_cli_simulate_real_game(name: str, tmp_path: Path) -> None:
    game = games.get(name)
    k = max(3, game.min_players)
    agents = ",".join(["random"] * k)
    args = ["simulate", name, "-a", agents, "-n", "6", "-w", "2", "--out", str(tmp_path)]
    result = runner.invoke(app, [*args, "--no-progress", "--no-plots"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["games_played"] == 6 and data["games_failed"] == 0


def test_cli_bench(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    args = ["bench", NAME, "--games", "5", "--players", "2", "--players", "3", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output
    data = json.loads(out.read_text())
    assert [(r["game"], r["players"], r["games"]) for r in data["rows"]] == [
        (NAME, 2, 5),
        (NAME, 3, 5),
    ]
    for row in data["rows"]:
        assert row["error"] is None and row["games_per_s"] > 0
        # a game: 2 or 3 deals and 4 to 7 adds
        assert row["players"] + 4 <= row["mean_steps"] <= row["players"] + 7
    bad = runner.invoke(app, ["bench", "nope"])
    assert bad.exit_code == 2 and "unknown game 'nope'" in bad.output


def test_cli_simulate_unwritable_out_fails_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import septet.arena.cli as arena_cli

    def no_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("games were played before --out was checked")

    monkeypatch.setattr(arena_cli, "run", no_run)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    args = ["simulate", NAME, "-a", "random,random", "-n", "5", "--no-progress"]
    result = runner.invoke(app, [*args, "--out", str(blocker)])
    assert result.exit_code == 2, result.output
    assert f"--out {blocker} is a file, not a folder" in result.output.replace("\n", "")
    result = runner.invoke(app, [*args, "--out", str(blocker / "sub")])
    assert result.exit_code == 2, result.output
    assert "cannot write the results to" in result.output


def test_cli_bench_unsupported_player_count_is_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = runner.invoke(app, ["bench", NAME, "--players", "9", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert f"{NAME} is played by 2-4 players, not 9" in result.output.replace("\n", "")
    assert not out.exists()
    folder = runner.invoke(app, ["bench", NAME, "--players", "2", "--out", str(tmp_path)])
    assert folder.exit_code == 2 and "is a folder" in folder.output
