"""Arena report: aggregation, ranks for ratings, result files, on hand-made results."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from septet.arena.report import _ranks, build_report, ratings, write_results
from septet.arena.runner import GameResult, RunOutcome
from septet.arena.schedule import Schedule


def _outcome() -> tuple[Schedule, RunOutcome]:
    sched = Schedule(("a", "b"), 2, 5, seed=0)
    results = [
        # index, seed, seating, scores, winners, length
        GameResult(0, 10, (0, 1), (5.0, 3.0), (0,), 10),
        GameResult(1, 11, (1, 0), (4.0, 4.0), (0, 1), 12),  # shared win
        GameResult(2, 12, (0, 1), (1.0, 6.0), (1,), 8),
        GameResult(3, 13, (1, 0), (2.0, 7.0), (1,), 14),
        GameResult(4, 14, (0, 1), (), (), 0, "RuntimeError: boom"),
    ]
    return sched, RunOutcome(results, elapsed_s=2.0)


def test_arena_ranks_winners_first_then_scores() -> None:
    r = GameResult(0, 0, (0, 1, 2, 3), (5.0, 3.0, 3.0, 1.0), (0,), 1)
    assert _ranks(r) == [1, 2, 2, 4]
    tie = GameResult(0, 0, (0, 1, 2), (4.0, 4.0, 9.0), (0, 1), 1)  # winners by a tie-break
    assert _ranks(tie) == [1, 1, 2]


def test_arena_report_counts() -> None:
    sched, outcome = _outcome()
    rep = build_report("g", {}, sched, outcome)
    a, b = rep.agents
    assert rep.games_played == 4 and len(rep.errors) == 1
    # a: wins game 0, shares game 1, wins game 3 (seat 1) -> 3 of 4; b: games 1, 2 -> 2 of 4
    assert (a.games, a.wins) == (4, 3)
    assert (b.games, b.wins) == (4, 2)
    assert a.scores.mean == pytest.approx((5 + 4 + 1 + 7) / 4)
    assert b.scores.mean == pytest.approx((3 + 4 + 6 + 2) / 4)
    # a sat in seat 0 in games 0, 2 (won 0) and in seat 1 in games 1, 3 (won both)
    assert a.by_seat == [(2, 1), (2, 2)]
    assert b.by_seat == [(2, 1), (2, 1)]
    assert rep.seats is not None
    # seat 0 won games 0, 1; seat 1 won games 1, 2, 3
    assert [p.successes for p in rep.seats.seats] == [2, 3]
    assert rep.length.mean == pytest.approx(11.0)
    assert a.rating["mu"] > 25.0 > b.rating["mu"]


def test_arena_ratings_move_toward_the_winner() -> None:
    results = [GameResult(i, i, (0, 1), (2.0, 1.0), (0,), 3) for i in range(5)]
    r = ratings(results, 2)
    assert r[0]["mu"] > 25.0 > r[1]["mu"]
    assert r[0]["sigma"] < 25.0 / 3
    assert r[0]["ordinal"] == pytest.approx(r[0]["mu"] - 3 * r[0]["sigma"])
    # one agent in every seat: nothing to rate
    same = [GameResult(0, 0, (0, 0), (2.0, 1.0), (0,), 3)]
    assert ratings(same, 1)[0]["mu"] == pytest.approx(25.0)


def test_arena_duplicate_seats_count_one_game() -> None:
    sched = Schedule(("a", "b"), 4, 1)
    out = RunOutcome([GameResult(0, 1, (0, 1, 0, 1), (1.0, 2.0, 9.0, 0.0), (2,), 5)])
    rep = build_report("g", {}, sched, out)
    a, b = rep.agents
    assert (a.games, a.wins, a.scores.n) == (1, 1, 2)
    assert (b.games, b.wins, b.scores.n) == (1, 0, 2)


def test_arena_result_files(tmp_path: Path) -> None:
    sched, outcome = _outcome()
    rep = build_report("g", {"target": 7}, sched, outcome)
    paths = write_results(rep, tmp_path / "out", plots=True)
    names = sorted(p.name for p in paths)
    assert names == [
        "game_length.png",
        "games.csv",
        "results.json",
        "scores.png",
        "win_rate_by_seat.png",
    ]
    for p in paths:
        if p.suffix == ".png":
            assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["format"] == "septet-simulation"
    assert data["games_played"] == 4 and data["games_failed"] == 1
    assert data["errors"] == [{"index": 4, "error": "RuntimeError: boom"}]
    assert data["agent_stats"][0]["wins"] == 3
    assert data["agent_stats"][0]["win_rate"]["rate"] == 0.75
    assert data["run"]["games_per_s"] == 2.5
    rows = list(csv.reader((tmp_path / "out" / "games.csv").open()))
    assert rows[0][:6] == ["game", "seed", "length", "winners", "winner_agents", "error"]
    assert rows[0][6:] == ["seat0_agent", "seat0_score", "seat1_agent", "seat1_score"]
    assert rows[2] == ["1", "11", "12", "0;1", "b;a", "", "b", "4", "a", "4"]
    assert rows[5] == ["4", "14", "0", "", "", "RuntimeError: boom", "a", "", "b", ""]


def test_arena_match_from_python() -> None:
    import tests.arena.tiny_game  # noqa: F401
    from septet import games
    from septet.arena import match
    from septet.core.errors import OptionError

    game = games.get("test-tiny-sevens")
    rep = match(game, ["random", "random"], 20, seed=3)
    assert rep.games_played == 20 and [a.games for a in rep.agents] == [20, 20]
    again = match(game, ["random", "random"], 20, seed=3, workers=2)
    assert again.outcome.results == rep.outcome.results
    with pytest.raises(OptionError):
        match(game, ["random"], 5)
