"""The ladder runner: seat rotation, win shares and the significance verdict."""

from __future__ import annotations

from typing import Any

import pytest

from septet.arena.ladder import HEADER, _seating, run_pairing
from tests.bots import bots_toy  # noqa: F401  (registers toy-tricks)


def test_seats_rotate() -> None:
    assert [_seating(3, i) for i in range(4)] == ["ABB", "BBA", "BAB", "ABB"]
    assert [_seating(4, i) for i in range(2)] == ["ABAB", "BABA"]
    assert _seating(2, 1) == "BA"


def test_pairing_measures_the_stronger_bot() -> None:
    # greedy against random in Flip 7 (about 98% over 1000 games): a clear, significant win
    res = run_pairing("flip7", 2, "greedy", "random", 40, seed=1)
    assert res.games == 40 and res.fair == 0.5
    assert res.low <= res.share <= res.high
    assert res.share > 0.8 and res.significant and res.margin > 0
    assert res.a_ms_per_move > 0  # greedy's thinking time per real decision was measured
    assert res.markdown().count("|") == HEADER.splitlines()[0].count("|")
    same = run_pairing("toy-tricks", 3, "random", "random", 30, seed=2, options={"deck": 9})
    assert same.fair == pytest.approx(1 / 3) and not same.significant


def test_pairing_rejects_bad_player_counts() -> None:
    with pytest.raises(ValueError, match="2 players or more"):
        run_pairing("flip7", 1, "random", "random", 1)
    with pytest.raises(ValueError, match="3 to 4 players, not 5"):  # the game's own count
        run_pairing("seven-shot", 5, "random", "random", 1)


def test_default_rungs_and_their_ismcts_specs_are_valid() -> None:
    from septet.arena.ladder import ISMCTS_SPECS, default_ladder
    from septet.bots import make_agent
    from septet.bots.ismcts import ISMCTSAgent
    from septet.games import get

    assert default_ladder("flip7") == [
        ("greedy", "random"),
        (ISMCTS_SPECS["flip7"], "greedy"),
        ("flip7-ev", "greedy"),
    ]
    assert default_ladder("seven-shot", "ismcts:iterations=7")[1] == (
        "ismcts:iterations=7",
        "greedy",
    )
    for name, spec in ISMCTS_SPECS.items():
        assert isinstance(make_agent(spec, get(name)), ISMCTSAgent)


def test_ladder_games_are_the_games_play_game_plays() -> None:
    # the timing wrapper passes every call on, forced moves included (random draws from its rng
    # even then), so a ladder game is exactly play_game with the bare agents and the same seed
    from septet.arena.ladder import _play_one, _seating
    from septet.bots import make_agent
    from septet.core.play import play_game
    from septet.games import get

    game = get("flip7")
    for index in range(4):
        seats = _seating(2, index)
        job: tuple[str, dict[str, Any], int, str, str, str, str] = (
            "flip7",
            {},
            2,
            "random",
            "greedy",
            seats,
            f"ladder:9:{index}",
        )
        share, margin, _, _ = _play_one(job)
        agents = [make_agent("random" if s == "A" else "greedy", game) for s in seats]
        result = play_game(game, agents, seed=f"ladder:9:{index}")
        a_seat = seats.index("A")
        assert share == (1.0 if result.winners == [a_seat] else 0.0)
        assert margin == result.scores[a_seat] - result.scores[1 - a_seat]


def test_ladder_command_prints_rows_and_progress(tmp_path: Any, capsys: Any) -> None:
    import json

    from septet.arena.ladder import main

    out = tmp_path / "ladder.json"
    args = "--game flip7 --players 2 --games 10 --pair greedy/random --jobs 2 --out"
    main([*args.split(), str(out)])
    captured = capsys.readouterr()
    assert "| flip7 | 2 | greedy | random | 10 |" in captured.out
    assert "flip7 2p greedy vs random: 10/10 games" in captured.err
    assert captured.err.count("games,") == 10  # one line per tenth
    rows = json.loads(out.read_text())
    assert len(rows) == 1 and rows[0]["games"] == 10 and rows[0]["a_ms_per_move"] > 0


def test_duplicate_rotations() -> None:
    from septet.arena.ladder import _schedule, rotations

    assert rotations(2) == ["AB", "BA"]
    assert rotations(3) == ["ABB", "BBA", "BAB"]
    assert rotations(4) == ["ABAB", "BABA"]
    assert rotations(5) == ["ABBBB", "BBBBA", "BBBAB", "BBABB", "BABBB"]  # A against the field
    # 7 games of 3 players round up to 3 deals of 3 games, one seed per deal
    plan = _schedule(3, 7, 5, duplicate=True)
    assert [seats for seats, _ in plan] == ["ABB", "BBA", "BAB"] * 3
    assert [seed for _, seed in plan] == [f"ladder:5:deal:{d}" for d in (0, 0, 0, 1, 1, 1, 2, 2, 2)]


@pytest.mark.parametrize(
    ("game", "players"), [("flip7", 2), ("flip7", 3), ("seven-shot", 4), ("flip7", 6)]
)
def test_duplicate_deals_cancel_the_luck_between_equal_bots(game: str, players: int) -> None:
    # One deterministic bot against itself: every deal gives A exactly its fair share (the same
    # games with the seats renamed), so the interval has no width. Seat-rotated games with a
    # seed each do not: luck decides them.
    from septet.arena.ladder import rotations

    dup = run_pairing(game, players, "greedy", "greedy", 12, seed=3, duplicate=True)
    assert dup.deals == 12 // len(rotations(players)) and dup.games == 12
    assert dup.share == pytest.approx(dup.fair) and dup.high - dup.low == pytest.approx(0.0)
    assert not dup.significant
    plain = run_pairing(game, players, "greedy", "greedy", 12, seed=3)
    assert plain.deals == 0 and plain.high - plain.low > 0.3
    assert (
        "(6 deals)" in run_pairing("flip7", 2, "greedy", "random", 12, 1, duplicate=True).markdown()
    )


def test_ladder_time_per_move_is_the_median_of_real_decisions(monkeypatch) -> None:
    """A one-off cost (the first compile of a search kernel in a worker) does not pass for
    thinking time: the rung's ms/move is the median of A's real decisions, the mean beside it."""
    import septet.arena.ladder as ladder

    # two games: A's decisions took 10 s (a compile) then 0.5 s x4; 0.5 s x5
    fake = [(1.0, 3.0, [10.0, 0.5, 0.5, 0.5, 0.5], 5), (0.0, -1.0, [0.5] * 5, 5)]
    monkeypatch.setattr(ladder, "_play_all", lambda work, jobs, progress: fake)
    res = ladder.run_pairing("flip7", 2, "greedy", "random", games=2)
    assert res.a_ms_per_move == 500.0
    assert abs(res.a_ms_mean - 1000 * 14.5 / 10) < 1e-9
    assert res.margin == 1.0 and res.share == 0.5
