"""The ladder runner: seat rotation, win shares and the significance verdict."""

from __future__ import annotations

import pytest

from septet.bots.ladder import HEADER, _seating, run_pairing
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
    with pytest.raises(ValueError, match="2 to 4"):
        run_pairing("toy-tricks", 5, "random", "random", 1)


def test_default_rungs_and_their_ismcts_specs_are_valid() -> None:
    from septet.bots import make_agent
    from septet.bots.ismcts import ISMCTSAgent
    from septet.bots.ladder import ISMCTS_SPECS, default_ladder
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
