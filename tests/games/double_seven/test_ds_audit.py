"""Audit of the Double Seven engine against shared/rules/double-seven.md (DS-1 .. DS-9) and the
Japanese source: hand-built positions whose answers were worked out from the rules by hand."""

from __future__ import annotations

import random

import pytest
from ds_helpers import CHANCE, fams, legal, rejects, step

from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state, tiles
from septet.games.double_seven.state import PH_ACT, PH_DISCARD, PH_OVER, PH_RAINBOW, PH_T41

# ----- information: views and determinization ---------------------------------------------------


def test_ds43_the_rainbow_decision_does_not_reveal_the_rack():
    # DS-4.3: declaring is optional and, in the real game, declining is silent: whether a rack
    # qualifies (all different animals, no clover) is private until Rainbow is declared. Seat 1
    # ends its draws with 5 tiles in both positions: fox swan frog + deer + rabbit qualifies,
    # fox swan fox + deer + rabbit does not. Seat 0 must see the same table in both.
    views, legals = [], []
    for rack in ("fox swan frog", "fox swan fox"):
        st = build_state(2, racks=["bird", rack], turn=1, display="deer")
        step(st, "take deer")
        step(st, "pile rabbit")
        views.append(st.view(0))
        legals.append(legal(st))
        if rack == "fox swan fox":
            rejects(st, "rainbow", "DS-4.3")
            step(st, "no-rainbow")
            assert st.phase == PH_ACT and st.known[1] == tiles("deer")
    assert views[0] == views[1]
    assert views[0]["phase"] == "rainbow" and views[0]["to_move"] == 1
    assert legals == [["no-rainbow", "rainbow"], ["no-rainbow"]]
    # Fewer than 5 tiles (public): no decision at all.
    st = build_state(2, racks=["bird", "fox swan"], turn=1, display="deer")
    step(st, "take deer")
    step(st, "pile rabbit")
    assert st.phase == PH_ACT


# ----- notation --------------------------------------------------------------------------------


def test_ds57_family_without_an_animal_is_a_notation_error():
    # DS-5.7: a family always holds at least one animal tile, so "fox0+2" names no family; the
    # notation reader says so (a NotationError with the rule), never a KeyError.
    from septet.core.errors import NotationError

    game = DoubleSeven()
    for text in ("start fox0+2", "retrieve 1:fox0+1", "exchange fox0+2 with 1:bird0+2"):
        with pytest.raises(NotationError) as exc:
            game.action_from_str(text)
        assert exc.value.rule == "DS-5.7"


# ----- DS-5 actions ----------------------------------------------------------------------------


def test_ds53_expand_with_a_clover_only_to_seven_and_the_77():
    # DS-5.3: rack fox + clover; families bird7 and fox6; one 7 token already (second_token).
    st = build_state(
        2,
        game=DoubleSeven(double_seven="second_token"),
        racks=["fox clover", "swan"],
        families=[["bird7", "fox6"], []],
        sevens=[1, 0],
        phase="actions",
    )
    # By hand: no start (fox is mine already, a clover alone is no family); bird7 takes the
    # clover; fox6 takes fox1, fox1+1 or clover1; no exchange (seat 1 has no family); no clover
    # to retrieve; two-for-one fox+clover; pass.
    assert legal(st) == [
        "expand bird7 with clover1",
        "expand fox6 with clover1",
        "expand fox6 with fox1",
        "expand fox6 with fox1+1",
        "pass",
        "two-for-one fox clover",
    ]
    ev = step(st, "expand fox6 with clover1")
    assert [e.kind for e in ev] == ["expand", "seven", "double_seven", "end_triggered"]
    assert fams(st, 0) == ["bird7", "fox6+1"]
    assert st.sevens == [2, 0] and st.sevens_left == 6 and st.holder77 == 0 and st.trigger == 0
    # 7 -> 8 earns nothing more; the rack is empty: Clear!, seat 1's turn.
    ev = step(st, "expand fox6+1 with fox1")
    assert [e.kind for e in ev][:2] == ["expand", "clear"] and st.sevens == [2, 0]
    assert st.turn == 1


def test_ds53_77_under_both_options_and_tokens_running_out():
    # bird7 came by exchange (no token); fox5 + fox + clover reaches 7: the first 7 token.
    pos = dict(racks=["fox clover swan", "deer"], families=[["bird7", "fox5"], []], phase="actions")
    st = build_state(2, game=DoubleSeven(double_seven="second_token"), **pos)
    ev = step(st, "expand fox5 with fox1+1")
    # second_token: one token is not two: no 77.
    assert [e.kind for e in ev] == ["expand", "seven"] and st.holder77 == -1
    st = build_state(2, game=DoubleSeven(double_seven="two_families"), **pos)
    ev = step(st, "expand fox5 with fox1+1")
    # two_families: two families of 7+ now: the 77 token, the end triggered.
    assert [e.kind for e in ev] == ["expand", "seven", "double_seven", "end_triggered"]
    assert st.holder77 == 0 and st.sevens == [1, 0] and st.trigger == 0
    # All 8 tokens gone (DS-1.2): reaching 7 earns no token; under two_families the 77 token
    # still comes from the two families.
    st = build_state(2, game=DoubleSeven(double_seven="two_families"), sevens=[4, 4], **pos)
    ev = step(st, "expand fox5 with fox1+1")
    assert [e.kind for e in ev] == ["expand", "double_seven", "end_triggered"]
    assert st.sevens == [4, 4] and st.sevens_left == 0 and st.holder77 == 0
    st = build_state(2, sevens=[4, 4], holder77=1, **pos)
    ev = step(st, "expand fox5 with fox1+1")
    assert [e.kind for e in ev] == ["expand"] and st.sevens == [4, 4] and st.holder77 == 1


def test_ds51_start_with_clovers_and_after_an_exchange():
    # DS-5.1: rack fox*2 clover*2 swan, no family. Starts by hand: fox1+1, fox1+2, fox2,
    # fox2+1, fox2+2, swan1+1, swan1+2 (7); never clovers alone.
    st = build_state(2, racks=["fox*2 clover*2 swan", "deer"], phase="actions")
    starts = [a for a in legal(st) if a.startswith("start")]
    assert starts == [
        "start fox1+1",
        "start fox1+2",
        "start fox2",
        "start fox2+1",
        "start fox2+2",
        "start swan1+1",
        "start swan1+2",
    ]
    step(st, "start fox1+1")
    rejects(st, "start fox1+1", "DS-5.1")  # a fox family is in front of me already
    # A family received by exchange counts; the one given away no longer does.
    st = build_state(
        2, racks=["fox*2 swan*2", "deer"], families=[["swan2"], ["fox2"]], phase="actions"
    )
    assert "start fox2" in legal(st) and "start swan2" not in legal(st)
    step(st, "exchange swan2 with 1:fox2")
    rejects(st, "start fox2", "DS-5.1")
    step(st, "start swan2")
    assert fams(st, 0) == ["fox2", "swan2"] and fams(st, 1) == ["swan2"]


def test_ds55_retrieve_from_other_players_families():
    # DS-5.5: seat 0 holds a swan and a bird and has bird2+1; seat 1 has swan2+1; seat 2 has
    # frog2+1 (no frog on my rack) and bird3 (no clover).
    st = build_state(
        3,
        racks=["swan bird", "deer", "rabbit"],
        families=[["bird2+1"], ["swan2+1"], ["bird3", "frog2+1"]],
        phase="actions",
    )
    rets = [a for a in legal(st) if a.startswith("retrieve")]
    assert rets == ["retrieve 0:bird2+1", "retrieve 1:swan2+1"]
    rejects(st, "retrieve 2:frog2+1", "DS-5.5")
    rejects(st, "retrieve 2:bird3", "DS-5.5")
    ev = step(st, "retrieve 1:swan2+1")
    assert [e.kind for e in ev] == ["retrieve"]
    assert fams(st, 1) == ["swan3"] and st.racks[0] == tiles("bird clover")
    assert st.sevens == [0, 0, 0]  # a retrieval is no expansion
    # The clover is public; the bird is not.
    assert st.view(1)["racks"][0] == {"size": 2, "known": {"clover": 1}}
    # The retrieved clover can go straight into my own family: an expansion by a clover only.
    step(st, "expand bird2+1 with clover1")
    assert fams(st, 0) == ["bird2+2"] and st.view(2)["racks"][0] == {"size": 1, "known": {}}


def test_ds54_exchange_same_size_same_animal():
    # DS-5.4: my fox4; seat 1: fox3+1, fox4, bird5; seat 2: frog4.
    st = build_state(
        3,
        racks=["deer", "swan", "rabbit"],
        families=[["fox4"], ["bird5", "fox3+1", "fox4"], ["frog4"]],
        phase="actions",
    )
    exch = [a for a in legal(st) if a.startswith("exchange")]
    # Same animal, other composition: yes; identical fox4: no (nothing would change); bird5:
    # another size; never with myself.
    assert exch == ["exchange fox4 with 1:fox3+1", "exchange fox4 with 2:frog4"]
    rejects(st, "exchange fox4 with 1:fox4", "DS-5.4")
    rejects(st, "exchange fox4 with 0:fox4", "DS-5.4")
    step(st, "exchange fox4 with 1:fox3+1")
    assert fams(st, 0) == ["fox3+1"] and fams(st, 1) == ["bird5", "fox4", "fox4"]
    # Ruling: no family like the fox4 I gave away comes back this turn; frog4 may.
    assert [a for a in legal(st) if a.startswith("exchange")] == ["exchange fox3+1 with 2:frog4"]
    rejects(st, "exchange fox3+1 with 1:fox4", "DS-5.4")


def test_ds56_two_for_one_into_an_empty_display_with_the_last_pile_tile():
    # DS-5.6: rack deer rabbit (exactly 2), empty display, one tile in the pile (a bird).
    st = build_state(2, racks=["deer rabbit", "fox"], pile="bird", phase="actions")
    ev = step(st, "two-for-one deer rabbit")
    # The rack is empty for a moment: no Clear!; the only drawable tile is face down.
    assert [e.kind for e in ev] == ["two_for_one"] and st.phase == PH_T41
    assert st.current_player == CHANCE and st.legal_actions() == []
    rejects_chance = st.chance_outcomes()
    assert [str(a) for a, _ in rejects_chance] == ["pile bird"]
    ev = step(st, "pile bird")
    # Ruling: deer and rabbit are still in the reserve: the end is not triggered.
    assert st.trigger == -1 and st.phase == PH_ACT and st.racks[0] == tiles("bird")
    assert "end_triggered" not in [e.kind for e in ev]
    step(st, "pass")
    # Seat 1: no flip (tiles face up), 2 draws (rack not empty): deer and rabbit; the last
    # tile of the reserve triggers the end (DS-7.1).
    assert st.turn == 1 and legal(st) == ["take deer", "take rabbit"]
    step(st, "take deer")
    ev = step(st, "take rabbit")
    assert "end_triggered" in [e.kind for e in ev] and st.trigger == 1
    assert st.view(0)["racks"][1] == {"size": 3, "known": {"deer": 1, "rabbit": 1}}


# ----- DS-4.3 Rainbow ----------------------------------------------------------------------------


def test_ds43_rainbow_five_different_then_one_more_draw_only_once():
    st = build_state(2, racks=["bird fox swan", "deer"], display="frog", pile="deer rabbit*2")
    step(st, "take frog")
    step(st, "pile deer")
    # bird fox swan frog deer: 5 different animals, no clover.
    assert st.phase == PH_RAINBOW and legal(st) == ["no-rainbow", "rainbow"]
    ev = step(st, "rainbow")
    assert ev[0].data == {"rack": {"bird": 1, "fox": 1, "swan": 1, "frog": 1, "deer": 1}}
    assert st.current_player == CHANCE  # the extra draw: face down, the display is empty
    step(st, "pile rabbit")
    # 6 different animals now, but Rainbow only once a turn: the actions follow.
    assert st.phase == PH_ACT and sum(st.racks[0]) == 6
    assert st.view(1)["racks"][0] == {
        "size": 6,
        "known": {"bird": 1, "fox": 1, "swan": 1, "frog": 1, "deer": 1},
    }
    # With a clover among 5 tiles, or two of one animal: no Rainbow.
    for rack, drawn in (("bird fox clover", "deer"), ("bird fox swan", "bird")):
        st = build_state(2, racks=[rack, "deer"], display="frog", pile="deer bird rabbit")
        step(st, "take frog")
        step(st, f"pile {drawn}")
        assert legal(st) == ["no-rainbow"]  # 5 tiles: the (silent) decision, but no Rainbow
        rejects(st, "rainbow", "DS-4.3")


# ----- DS-6 / DS-7 / DS-8 ----------------------------------------------------------------------


def test_ds62_discard_exactly_one_of_seven():
    st = build_state(2, racks=["fox*2 bird swan frog deer rabbit", "bird"], phase="actions")
    step(st, "pass")
    assert st.phase == PH_DISCARD
    rejects(st, "pass", "DS-5")
    ev = step(st, "discard fox")
    assert [e.kind for e in ev][:2] == ["discard", "turn"]
    assert st.racks[0] == tiles("fox bird swan frog deer rabbit") and st.removed[2] >= 1
    assert st.turn == 1  # 6 tiles stay: one discard only


def test_ds72_four_players_each_other_player_once_after_the_77():
    # DS-7.2: seat 2 takes the 77 token mid-turn, finishes its turn (exchanges, pass); then
    # seats 3, 0, 1 play one turn each (nothing to draw) and the game ends.
    st = build_state(
        4,
        racks=["bird", "swan", "fox*2 deer", "frog"],
        families=[["rabbit2"], ["squirrel2"], ["fox5", "deer2"], ["butterfly3"]],
        sevens=[0, 0, 1, 0],
        pile="",
        turn=2,
        phase="actions",
        game=DoubleSeven(double_seven="second_token"),
    )
    ev = step(st, "expand fox5 with fox2")
    assert [e.kind for e in ev] == ["expand", "seven", "double_seven", "end_triggered"]
    assert st.turn == 2 and st.phase == PH_ACT  # the turn goes on
    step(st, "exchange deer2 with 0:rabbit2")
    turns = []
    for _ in range(4):
        ev = step(st, "pass")
        turns += [e.seat for e in ev if e.kind == "turn"]
    assert turns == [3, 0, 1] and st.phase == PH_OVER
    assert st.scores() == [2.0, 2.0, 13.0, 3.0] and st.winners() == [2]


def test_ds8_scoring_and_tie_break():
    # DS-8.3: 7 birds + 8 squirrels + 2 foxes + two 7 tokens + the 77 token = 21; seat 1 ties
    # at 21 (frog11+3 = 14, deer7 = 7) without the 77: seat 0 wins alone (DS-8.2).
    pos = dict(
        racks=["butterfly swan", "", ""],
        families=[["bird7", "squirrel8", "fox2"], ["frog11+3", "deer7"], ["rabbit4"]],
        pile="",
        trigger=0,
        turn=2,
        phase="actions",
    )
    st = build_state(3, sevens=[2, 0, 2], holder77=0, **pos)
    step(st, "pass")
    assert st.scores() == [21.0, 21.0, 6.0] and st.winners() == [0]
    # The 77 with a player outside the tie: the tied players share the win.
    st = build_state(3, sevens=[2, 0, 2], holder77=2, **pos)
    step(st, "pass")
    assert st.scores() == [19.0, 21.0, 8.0] and st.winners() == [1]
    st = build_state(3, sevens=[2, 2, 0], holder77=2, **pos)
    step(st, "pass")
    assert st.scores() == [19.0, 23.0, 6.0] and st.winners() == [1]
    st = build_state(3, sevens=[4, 2, 0], holder77=2, **pos)
    step(st, "pass")
    assert st.scores() == [21.0, 23.0, 6.0] and st.winners() == [1]
    st = build_state(3, sevens=[4, 0, 2], holder77=None, **pos)
    step(st, "pass")
    assert st.scores() == [21.0, 21.0, 6.0] and st.winners() == [0, 1]


# ----- information -----------------------------------------------------------------------------


def test_view_never_shows_secret_rack_tiles():
    import json

    # Seat 0 holds the only rabbit outside the pile; it draws another one face down.
    st = build_state(2, racks=["rabbit fox", "bird"], display="swan")
    step(st, "take swan")
    step(st, "pile rabbit")  # the display is empty: a face-down draw
    v1 = st.view(1)
    assert v1["racks"][0] == {"size": 4, "known": {"swan": 1}}
    assert "rabbit" not in json.dumps(v1) and "fox" not in json.dumps(v1)
    assert "rabbit" in json.dumps(st.view(0))  # seat 0 sees its own rack
    for seed in range(20):
        det = st.determinize(1, random.Random(seed))
        assert det.racks[0][4] >= 1 and sum(det.racks[0]) == 4 and det.view(1) == v1


def test_ds71_rainbow_draw_takes_the_last_tile_then_wraparound_last_turns():
    # DS-7.1: seat 2 (of 3) draws deer (face up) and a rabbit, declares Rainbow (DS-4.3) and its
    # extra draw is the last tile of the reserve: seat 2 triggers the end, finishes its turn
    # (6 tiles: one discard, DS-6.2); seats 0 and 1 play once more with nothing to draw (DS-7.2).
    st = build_state(
        3, racks=["bird", "swan", "fox swan frog"], display="deer", pile="rabbit bird", turn=2
    )
    assert st.current_player == 2 and legal(st) == ["draw", "take deer"]  # no flip
    step(st, "take deer")
    step(st, "pile rabbit")
    assert legal(st) == ["no-rainbow", "rainbow"]
    step(st, "rainbow")
    ev = step(st, "pile bird")
    assert [e.kind for e in ev] == ["draw", "drew", "end_triggered"] and st.trigger == 2
    assert st.phase == PH_ACT and st.turn == 2
    step(st, "pass")
    assert st.phase == PH_DISCARD
    ev = step(st, "discard bird")
    assert [e.kind for e in ev] == ["discard", "turn"] and st.turn == 0
    assert st.phase == PH_ACT and st.draws_left == 0  # nothing to draw: no flip, no draw
    step(st, "pass")
    assert st.turn == 1 and st.phase == PH_ACT
    ev = step(st, "pass")
    assert st.phase == PH_OVER and [e.kind for e in ev] == ["pass", "game_over"]
