"""Double Seven view data for the end screen and auto-play (issue 15): ``score_breakdown``,
``tie_break`` and ``forced_public``, on hand-built positions worked out by hand."""

from __future__ import annotations

from septet.games.double_seven.builder import build_state
from septet.games.double_seven.state import score_of


def _final(**kw: object) -> object:
    # DS-8.3 (the rulebook's example): seat 0 has 7 birds, 8 squirrels, 2 foxes, two 7 tokens
    # and the 77 token, and a butterfly and a swan on the rack: 7 + 8 + 2 + 1 + 1 + 2 = 21.
    # Seat 1: 7 frogs + a clover, 6 deer, 5 rabbits and two 7 tokens: 8 + 6 + 5 + 2 = 21.
    # Seat 2: 5 swans + a clover: 6.
    return build_state(
        3,
        racks=["butterfly swan", "", "fox"],
        families=[["bird7", "squirrel8", "fox2"], ["frog7+1", "deer6", "rabbit5"], ["swan5+1"]],
        sevens=[2, 2, 0],
        holder77=0,
        phase="over",
        **kw,  # type: ignore[arg-type]
    )


def test_score_breakdown_by_source() -> None:
    st = _final()
    view = st.view(2)
    assert view["score_breakdown"][0] == {
        "families": [
            {"animal": "bird", "size": 7, "points": 7},
            {"animal": "squirrel", "size": 8, "points": 8},
            {"animal": "fox", "size": 2, "points": 2},
        ],
        "tile_points": 17,
        "sevens": 2,
        "seventy_seven": 2,
        "total": 21,
    }
    assert view["score_breakdown"][1] == {
        "families": [
            {"animal": "frog", "size": 8, "points": 8},
            {"animal": "deer", "size": 6, "points": 6},
            {"animal": "rabbit", "size": 5, "points": 5},
        ],
        "tile_points": 19,
        "sevens": 2,
        "seventy_seven": 0,
        "total": 21,
    }
    assert view["score_breakdown"][2]["total"] == 6
    # The totals are the engine's scores (DS-8.1).
    for s in range(3):
        assert view["score_breakdown"][s]["total"] == view["scores"][s]
        assert view["scores"][s] == score_of(st.families[s], st.sevens[s], st.holder77 == s)


def test_tie_settled_by_the_77_token() -> None:
    # DS-8.2: 21 - 21; seat 0 holds the 77 token and wins alone.
    st = _final()
    assert st.winners() == [0]
    assert st.view(1)["tie_break"] == {"tied": [0, 1], "by": "77", "winner": 0}


def test_tie_without_the_77_token_is_shared_and_no_tie_is_none() -> None:
    # DS-8.2: nobody tied holds the 77 token (seat 2 does, with fewer points): a shared win.
    st = build_state(
        3,
        racks=["", "", ""],
        families=[["bird7"], ["frog7"], ["swan2"]],
        sevens=[1, 1, 0],
        holder77=2,
        phase="over",
    )
    assert st.scores() == [8.0, 8.0, 4.0] and st.winners() == [0, 1]
    assert st.view(None)["tie_break"] == {"tied": [0, 1], "by": "shared", "winner": None}
    alone = build_state(3, racks=["", "", ""], families=[["bird7"], ["frog6"], []], phase="over")
    assert alone.view(None)["tie_break"] is None
    # Before the end there is no tie-break, even with equal scores.
    playing = build_state(2, racks=["fox", "fox"], families=[["bird3"], ["frog3"]])
    assert playing.view(0)["tie_break"] is None


def test_forced_public_for_a_lone_draw_choice() -> None:
    # DS-4.1: the draw choices depend on the reserve only (public). Pile empty, one face-up fox:
    # taking it is the only move and everyone can see that.
    st = build_state(2, racks=["bird", "swan"], display="fox", pile="", phase="draw")
    assert [str(a) for a in st.legal_actions()] == ["take fox"]
    assert st.view(0)["forced_public"] is True and st.view(1)["forced_public"] is False
    two = build_state(2, racks=["bird", "swan"], display="fox frog", pile="", phase="draw")
    assert two.view(0)["forced_public"] is False


def test_a_lone_no_rainbow_is_public_only_on_a_known_rack() -> None:
    # DS-4.3: 5 tiles with two foxes cannot declare Rainbow, so "no-rainbow" is the only move;
    # done at once it would tell the table the rack does not qualify, unless the rack is known.
    rack = "fox fox bird swan frog"
    hidden = build_state(2, racks=[rack, "deer"], phase="rainbow")
    assert [str(a) for a in hidden.legal_actions()] == ["no-rainbow"]
    assert hidden.view(0)["forced_public"] is False
    shown = build_state(2, racks=[rack, "deer"], known=[rack, ""], phase="rainbow")
    assert shown.view(0)["forced_public"] is True
