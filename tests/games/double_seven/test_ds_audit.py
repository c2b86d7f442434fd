"""Audit of the Double Seven engine against shared/rules/double-seven.md (DS-1 .. DS-9) and the
Japanese source: hand-built positions whose answers were worked out from the rules by hand."""

from __future__ import annotations

import random

import pytest

from septet.core.errors import IllegalActionError
from septet.games.double_seven.builder import build_state
from septet.games.double_seven.state import PH_RAINBOW
from septet.games.double_seven.tiles import CLOVER, family_str

CHANCE = -1


def step(st, text):
    return st.apply(st.game.parse_action(st, text))


def legal(st):
    return sorted(str(a) for a in st.legal_actions())


def fams(st, seat):
    return sorted(family_str(f) for f in st.families[seat])


def rejects(st, text, rule):
    before = st.to_json()
    with pytest.raises(IllegalActionError) as exc:
        st.apply(st.game.action_from_str(text))
    assert exc.value.rule == rule
    assert st.to_json() == before


# ----- information: views and determinization ---------------------------------------------------


def test_ds43_determinize_during_another_players_rainbow_decision():
    # DS-4.3: seat 1 stands at the Rainbow decision, so everyone knows its rack holds 5+ tiles of
    # different animals and no clover. Seat 1 had fox, swan, frog (secret), took the face-up deer
    # and drew a rabbit face down: 5 different animals. A determinization for seat 0 must keep
    # seat 1's rack a Rainbow rack (the deer known; the other 4 of 4 different other animals).
    st = build_state(
        2,
        racks=["bird", "fox swan frog"],
        turn=1,
        display="deer",
        pile="rabbit*3 bird*5 clover fox*4",
    )
    step(st, "take deer")
    step(st, "pile rabbit")
    assert st.phase == PH_RAINBOW and st.current_player == 1
    for seed in range(60):
        det = st.determinize(0, random.Random(seed))
        rack = det.racks[1]
        assert sum(rack) == 5 and rack[CLOVER] == 0 and max(rack) == 1
        assert rack[6] == 1  # the deer taken face up
        assert det.view(0) == st.view(0)
        assert sorted(str(a) for a in det.legal_actions()) == ["no-rainbow", "rainbow"]


# ----- notation --------------------------------------------------------------------------------


def test_ds57_family_without_an_animal_is_a_notation_error():
    # DS-5.7: a family always holds at least one animal tile, so "fox0+2" names no family; the
    # notation reader says so (a NotationError with the rule), never a KeyError.
    from septet.core.errors import NotationError
    from septet.games.double_seven import DoubleSeven

    game = DoubleSeven()
    for text in ("start fox0+2", "retrieve 1:fox0+1", "exchange fox0+2 with 1:bird0+2"):
        with pytest.raises(NotationError) as exc:
            game.action_from_str(text)
        assert exc.value.rule == "DS-5.7"
