"""Double Seven rules, one or more tests per rule id of shared/rules/double-seven.md."""

from __future__ import annotations

import random

import pytest
from ds_helpers import CHANCE, fams, legal, rejects, step

from septet.core.errors import NotationError, OptionError
from septet.games import get
from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state, tiles
from septet.games.double_seven.state import (
    PH_ACT,
    PH_DISCARD,
    PH_DRAW,
    PH_FIRST,
    PH_OVER,
    PH_RAINBOW,
    PH_T41,
)

# ----- options and players ---------------------------------------------------------------------


def test_options_and_player_counts():
    g = get("double-seven")
    assert g.options.rainbow and g.options.two_for_one
    assert g.options.double_seven == "two_families"  # the Japanese source (docs/rulings.md)
    assert get("double-seven", rainbow="off").options.rainbow is False
    with pytest.raises(OptionError, match="double_seven"):
        get("double-seven", double_seven="three")
    with pytest.raises(OptionError, match="rainbow"):
        get("double-seven", rainbow=3)
    with pytest.raises(OptionError, match="unknown option"):
        get("double-seven", jokers=True)
    for n in (1, 5):  # DS-1.3
        with pytest.raises(OptionError, match="2 to 4"):
            g.new_state(n)


# ----- DS-1, DS-2 ------------------------------------------------------------------------------


def test_ds1_components():
    st = DoubleSeven().new_state(2)
    # DS-1.1: 8 animals x 11 and 3 clovers in the reserve; DS-1.2: eight 7 tokens.
    assert st.pile == [11] * 8 + [3] and sum(st.pile) == 91
    assert st.sevens_left == 8 and st.holder77 == -1


def test_ds2_setup_is_chance():
    st = DoubleSeven().new_state(3)
    # DS-2.2: 3 secret tiles each, dealt as chance nodes with probability count/remaining.
    outcomes = dict((str(a), p) for a, p in st.chance_outcomes())
    assert outcomes["deal clover"] == pytest.approx(3 / 91)
    assert outcomes["deal fox"] == pytest.approx(11 / 91)
    for t in ["fox", "fox", "swan", "clover", "bird", "bird", "deer", "frog", "rabbit"]:
        ev = step(st, f"deal {t}")
        assert ev[0].visible_to is not None  # the tile is seen by its owner only
    assert st.racks[0] == tiles("fox*2 swan") and st.racks[2] == tiles("deer frog rabbit")
    assert st.log == []  # nothing public about the deal
    # DS-2.3: first player uniformly at random.
    assert st.phase == PH_FIRST
    assert [(str(a), p) for a, p in st.chance_outcomes()] == [
        ("first 0", pytest.approx(1 / 3)),
        ("first 1", pytest.approx(1 / 3)),
        ("first 2", pytest.approx(1 / 3)),
    ]
    step(st, "first 2")
    assert st.turn == 2 and st.current_player == CHANCE  # DS-3.1 flip comes first


# ----- DS-3, DS-4 ------------------------------------------------------------------------------


def test_ds3_flip_only_when_display_empty():
    st = build_state(2, racks=["fox", "bird"], display="deer")
    # DS-3.1: a face-up tile already: no flip, straight to the draws.
    assert st.phase == PH_DRAW and st.current_player == 0
    assert legal(st) == ["draw", "take deer"]
    st = build_state(2, racks=["fox", "bird"], display="", pile="swan")
    assert st.current_player == CHANCE and str(st.chance_outcomes()[0][0]) == "flip swan"
    # With the pile empty and nothing face up, nothing to flip and nothing to draw (DS-4.2).
    st = build_state(2, racks=["fox", "bird"], display="", pile="")
    assert st.phase == PH_ACT


def test_ds41_draw_two_or_three():
    st = build_state(2, racks=["fox", ""], display="deer")
    assert st.draws_left == 2  # DS-4.1: non-empty rack
    st = build_state(2, racks=["", "fox"], display="deer")
    assert st.draws_left == 3  # empty rack
    step(st, "take deer")
    # The display is empty now: the only draw is face down, a chance node right away.
    assert st.current_player == CHANCE
    assert sum(p for _, p in st.chance_outcomes()) == pytest.approx(1.0)
    step(st, "pile clover")
    step(st, "pile clover")
    assert st.racks[0] == tiles("deer clover*2") and st.phase == PH_ACT
    assert st.known[0] == tiles("deer")  # the face-up tile is public, the others are not


def test_ds42_fewer_tiles_left():
    st = build_state(2, racks=["", "fox"], display="deer", pile="bird")
    assert st.draws_left == 2  # DS-4.2: only 2 tiles remain of the 3
    step(st, "take deer")
    step(st, "pile bird")
    assert st.phase == PH_ACT and st.trigger == 0  # DS-7.1 the last tile was drawn


def test_ds43_rainbow():
    st = build_state(3, racks=["fox swan frog deer", "", ""], display="bird rabbit")
    step(st, "take bird")
    step(st, "draw")
    step(st, "pile squirrel")
    # 6 tiles, all different animals, no clover: Rainbow may be declared (or not).
    assert st.phase == PH_RAINBOW and legal(st) == ["no-rainbow", "rainbow"]
    rejects(st, "pass", "DS-5")
    ev = step(st, "rainbow")
    assert ev[0].kind == "rainbow" and ev[0].visible_to is None
    assert st.known[0] == st.racks[0]  # the rack is public information now
    assert st.phase == PH_DRAW and st.draws_left == 1
    step(st, "take rabbit")
    assert st.phase == PH_ACT  # at most once per turn
    assert st.known[0] == tiles("bird squirrel fox swan frog deer rabbit")
    assert st.view(1)["racks"][0]["known"]["rabbit"] == 1
    # Known tiles stay known until they leave the rack.
    step(st, "two-for-one bird squirrel")
    assert st.known[0] == tiles("fox swan frog deer rabbit")


def test_ds43_rainbow_conditions_and_option():
    # A clover on the rack: no Rainbow (the decision still comes with 5+ tiles, so that it
    # does not reveal the rack; only declining is legal).
    st = build_state(2, racks=["fox swan frog clover", ""], display="bird")
    step(st, "take bird")
    step(st, "pile deer")
    assert st.phase == PH_RAINBOW and legal(st) == ["no-rainbow"]
    # Two of one animal: no Rainbow.
    st = build_state(2, racks=["fox swan frog deer", ""], display="fox")
    step(st, "take fox")
    step(st, "pile bird")
    assert st.phase == PH_RAINBOW and legal(st) == ["no-rainbow"]
    rejects(st, "rainbow", "DS-4.3")
    step(st, "no-rainbow")
    assert st.phase == PH_ACT
    # Option off.
    st = build_state(
        2, racks=["fox swan frog", ""], display="bird", game=DoubleSeven(rainbow=False)
    )
    step(st, "take bird")
    step(st, "pile deer")
    assert st.phase == PH_ACT
    # Declining keeps the rack private.
    st = build_state(2, racks=["fox swan frog", ""], display="bird")
    step(st, "take bird")
    step(st, "pile deer")
    step(st, "no-rainbow")
    assert st.phase == PH_ACT and st.known[0] == tiles("bird")


# ----- DS-5 ------------------------------------------------------------------------------------


def test_legal_action_counts_by_hand():
    st = build_state(3, racks=["fox*2 clover", "", ""], phase="actions")
    # 3 starts (fox1+1, fox2, fox2+1), 2 two-for-ones (fox fox, fox clover), pass.
    assert legal(st) == [
        "pass",
        "start fox1+1",
        "start fox2",
        "start fox2+1",
        "two-for-one fox clover",
        "two-for-one fox fox",
    ]
    st = build_state(
        3,
        racks=["fox*2 swan clover", "", ""],
        families=[["fox2"], ["swan1+1", "bird2"], ["fox2"]],
        phase="actions",
    )
    acts = legal(st)
    # 1 start + 5 expansions + 2 exchanges (not fox2 for an identical fox2) + 1 retrieve
    # + 4 two-for-ones + pass = 14.
    assert len(acts) == 14
    assert "exchange fox2 with 1:swan1+1" in acts and "exchange fox2 with 1:bird2" in acts
    assert "exchange fox2 with 2:fox2" not in acts
    assert "retrieve 1:swan1+1" in acts and "start swan1+1" in acts
    assert [a for a in acts if a.startswith("expand")] == [
        "expand fox2 with clover1",
        "expand fox2 with fox1",
        "expand fox2 with fox1+1",
        "expand fox2 with fox2",
        "expand fox2 with fox2+1",
    ]


def test_ds51_start_family():
    st = build_state(
        2,
        racks=["fox*3 swan clover*2", ""],
        families=[["swan2"], ["fox4"]],
        phase="actions",
    )
    rejects(st, "start fox1", "DS-5.1")  # at least 2 tiles
    rejects(st, "start swan1+1", "DS-5.1")  # already a swan family in front of me
    rejects(st, "start fox4", "DS-5.1")  # not on the rack
    with pytest.raises(NotationError):
        st.game.action_from_str("start clover2")  # DS-5.7 at least one animal
    step(st, "start fox1+1")  # allowed though seat 1 has foxes
    assert fams(st, 0) == ["fox1+1", "swan2"]
    assert st.racks[0] == tiles("fox*2 swan clover")
    rejects(st, "start fox2", "DS-5.1")  # now I have a fox family


def test_ds52_families_never_merge():
    st = build_state(
        2,
        racks=["fox bird", ""],
        families=[["fox2", "bird3"], ["fox3"]],
        phase="actions",
    )
    step(st, "exchange bird3 with 1:fox3")
    # DS-5.4/DS-5.2: two fox families now, kept apart; each expands on its own.
    assert fams(st, 0) == ["fox2", "fox3"]
    step(st, "expand fox3 with fox1")
    assert fams(st, 0) == ["fox2", "fox4"]
    rejects(st, "start bird1", "DS-5.1")


def test_ds53_seven_token():
    st = build_state(
        2,
        game=DoubleSeven(double_seven="second_token"),
        racks=["fox*3 swan clover", "bird"],
        families=[["fox5", "swan7"], []],
        phase="actions",
    )
    ev = step(st, "expand swan7 with swan1")
    assert [e.kind for e in ev] == ["expand"]  # already 7+: nothing more
    ev = step(st, "expand fox5 with fox1")
    assert [e.kind for e in ev] == ["expand"]  # 6: no token yet
    ev = step(st, "expand fox6 with clover1")
    assert [e.kind for e in ev] == ["expand", "seven"]  # 6 -> 7: Seven!
    assert st.sevens == [1, 0] and st.sevens_left == 7
    assert st.holder77 == -1


def test_ds53_start_with_seven_earns_nothing():
    st = build_state(2, racks=["fox*7 bird", ""], phase="actions")
    ev = step(st, "start fox7")
    assert [e.kind for e in ev] == ["start"] and st.sevens == [0, 0]


def test_ds53_jump_past_seven_and_tokens_run_out():
    st = build_state(
        2,
        racks=["fox*4 bird", ""],
        families=[["fox4"], []],
        sevens=[0, 8],
        phase="actions",
    )
    ev = step(st, "expand fox4 with fox4")  # 4 -> 8 passes 7, but no token remains
    assert [e.kind for e in ev] == ["expand"] and st.sevens == [0, 8]


def test_ds53_double_seven_second_token():
    st = build_state(
        3,
        game=DoubleSeven(double_seven="second_token"),
        racks=["fox swan bird", "", ""],
        families=[["fox6", "swan6"], [], []],
        sevens=[0, 1, 0],
        phase="actions",
    )
    step(st, "expand fox6 with fox1")
    assert st.sevens == [1, 1, 0] and st.holder77 == -1
    ev = step(st, "expand swan6 with swan1")
    # DS-5.3: the first player to take a second 7 token takes the 77 token; the end is triggered.
    assert [e.kind for e in ev] == ["expand", "seven", "double_seven", "end_triggered"]
    assert st.holder77 == 0 and st.trigger == 0
    assert st.scores() == [7 + 7 + 2 + 2, 1, 0]


def test_ds53_double_seven_two_families_option():
    game = DoubleSeven(double_seven="two_families")
    st = build_state(
        2,
        racks=["fox bird*7 swan", ""],
        families=[["fox6", "swan9"], []],
        sevens=[0, 0],
        phase="actions",
        game=game,
    )
    ev = step(st, "expand fox6 with fox1")
    # Two families of 7+ (fox7 and swan9): the 77 token, though only one 7 token.
    assert [e.kind for e in ev] == ["expand", "seven", "double_seven", "end_triggered"]
    assert st.sevens == [1, 0] and st.holder77 == 0
    # Under second_token the same move takes only the 7 token.
    st = build_state(
        2,
        racks=["fox bird", ""],
        families=[["fox6", "swan9"], []],
        phase="actions",
        game=DoubleSeven(double_seven="second_token"),
    )
    step(st, "expand fox6 with fox1")
    assert st.holder77 == -1


def test_ds53_two_families_by_starting():
    game = DoubleSeven(double_seven="two_families")
    st = build_state(
        2, racks=["bird*7 swan", ""], families=[["fox7"], []], phase="actions", game=game
    )
    ev = step(st, "start bird7")
    assert [e.kind for e in ev] == ["start", "double_seven", "end_triggered"]
    assert st.sevens == [0, 0] and st.holder77 == 0


def test_ds54_exchange():
    st = build_state(
        3,
        racks=["deer", "", ""],
        families=[["fox4", "swan2"], ["fox4", "frog3+1"], ["bird2"]],
        phase="actions",
    )
    acts = legal(st)
    # Same size only; same animal allowed but not an identical family; never with yourself.
    assert [a for a in acts if a.startswith("exchange")] == [
        "exchange fox4 with 1:frog3+1",
        "exchange swan2 with 2:bird2",
    ]
    rejects(st, "exchange fox4 with 0:swan2", "DS-5.4")
    rejects(st, "exchange fox4 with 2:bird2", "DS-5.4")
    with pytest.raises(NotationError):
        st.game.action_from_str("exchange fox4 with 2:bird2+3")  # sizes differ: not notation
    ev = step(st, "exchange fox4 with 1:frog3+1")
    assert ev[0].data == {"family": "fox4", "with_seat": 1, "other": "frog3+1"}
    assert fams(st, 0) == ["frog3+1", "swan2"] and fams(st, 1) == ["fox4", "fox4"]
    # Ruling: no taking back, this turn, a family like one given away.
    rejects(st, "exchange frog3+1 with 1:fox4", "DS-5.4")
    assert "exchange swan2 with 2:bird2" in legal(st)


def test_ds55_retrieve_clover():
    st = build_state(
        2,
        racks=["swan fox", ""],
        families=[["fox2+1"], ["swan1+2"]],
        phase="actions",
    )
    assert [a for a in legal(st) if a.startswith("retrieve")] == [
        "retrieve 0:fox2+1",
        "retrieve 1:swan1+2",
    ]
    ev = step(st, "retrieve 1:swan1+2")
    assert ev[0].kind == "retrieve"
    assert fams(st, 1) == ["swan2+1"] and st.racks[0] == tiles("fox clover")
    assert st.known[0] == tiles("clover")  # everyone saw the clover go to my rack
    rejects(st, "retrieve 1:swan2+1", "DS-5.5")  # no swan left on my rack
    # From my own family; a retrieval is not an expansion (no token even at 7 tiles).
    st = build_state(2, racks=["fox", ""], families=[["fox4+3"], []], phase="actions")
    ev = step(st, "retrieve 0:fox4+3")
    assert [e.kind for e in ev] == ["retrieve"] and st.sevens == [0, 0]
    assert fams(st, 0) == ["fox5+2"]


def test_ds56_two_for_one():
    st = build_state(
        2, racks=["deer rabbit frog", ""], display="deer", pile="bird", phase="actions"
    )
    ev = step(st, "two-for-one deer rabbit")
    assert ev[0].data == {"tiles": ["deer", "rabbit"]}
    assert st.display == tiles("deer*2 rabbit") and st.phase == PH_T41
    # The other deer (face up before) may be taken; not the two just put out.
    assert legal(st) == ["draw", "take deer"]
    rejects(st, "take rabbit", "DS-5.6")
    step(st, "take deer")
    assert st.racks[0] == tiles("deer frog") and st.display == tiles("deer rabbit")
    assert st.phase == PH_ACT
    # At most once per turn.
    assert not [a for a in legal(st) if a.startswith("two-for-one")]
    rejects(st, "two-for-one deer frog", "DS-5.6")


def test_ds56_needs_a_tile_to_draw_and_option():
    st = build_state(2, racks=["deer rabbit", ""], pile="", phase="actions")
    assert legal(st) == ["pass"]
    rejects(st, "two-for-one deer rabbit", "DS-5.6")
    st = build_state(2, racks=["deer", ""], pile="bird", phase="actions")
    assert legal(st) == ["pass"]  # needs 2 tiles
    game = DoubleSeven(two_for_one=False)
    st = build_state(2, racks=["deer rabbit", ""], game=game, phase="actions")
    rejects(st, "two-for-one deer rabbit", "DS-5.6")
    # With an empty display the draw is face down: straight to the chance node.
    st = build_state(2, racks=["deer rabbit", ""], pile="bird fox", phase="actions")
    step(st, "two-for-one deer rabbit")
    assert st.current_player == CHANCE
    assert sorted(str(a) for a, _ in st.chance_outcomes()) == ["pile bird", "pile fox"]


# ----- DS-6 ------------------------------------------------------------------------------------


def test_ds61_clear_and_pass():
    st = build_state(2, racks=["fox*2", "bird"], display="swan")
    step(st, "take swan")
    step(st, "pile fox")
    ev = step(st, "start fox3")
    assert [e.kind for e in ev] == ["start"]
    ev = step(st, "pass")
    assert [e.kind for e in ev] == ["pass", "turn"]  # 1 tile: no discard
    assert st.turn == 1
    st = build_state(2, racks=["fox*2", "bird"], display="swan", phase="actions")
    ev = step(st, "start fox2")
    assert [e.kind for e in ev] == ["start", "clear", "turn"]
    assert st.turn == 1 and st.draws_left == 2
    step(st, "take swan")
    step(st, "pile frog")
    step(st, "pass")
    # The next turn of seat 0 (flip first: nothing is face up) draws 3 (DS-4.1).
    step(st, "flip deer")
    assert st.turn == 0 and st.draws_left == 3


def test_ds62_discard_with_six_tiles():
    st = build_state(2, racks=["fox bird swan frog deer rabbit", ""], phase="actions")
    step(st, "pass")
    assert st.phase == PH_DISCARD and st.current_player == 0
    names = ["fox", "bird", "swan", "frog", "deer", "rabbit"]
    assert legal(st) == sorted(f"discard {t}" for t in names)
    rejects(st, "discard clover", "DS-6.2")
    ev = step(st, "discard deer")
    assert next(e.kind for e in ev) == "discard"
    assert st.removed == tiles("deer") and st.turn == 1
    assert "take deer" not in legal(st)  # removed tiles are never drawable
    st = build_state(2, racks=["fox bird swan frog deer", ""], phase="actions")
    step(st, "pass")
    assert st.turn == 1  # 5 tiles: no discard


# ----- DS-7 ------------------------------------------------------------------------------------


def test_ds7_last_tile_and_final_turns():
    st = build_state(3, racks=["fox", "bird", "swan"], display="deer", pile="frog", turn=1)
    step(st, "take deer")
    ev = step(st, "pile frog")
    # DS-7.1 the last tile of the reserve is drawn: seat 1 triggers, finishes the turn.
    assert "end_triggered" in [e.kind for e in ev] and st.trigger == 1
    assert st.phase == PH_ACT and st.turn == 1
    step(st, "pass")
    # DS-7.2 seat 2 plays a last turn with nothing to draw: straight to its actions.
    assert st.turn == 2 and st.phase == PH_ACT and sum(st.pile) == 0
    step(st, "pass")
    assert st.turn == 0 and st.phase == PH_ACT
    ev = step(st, "pass")
    assert st.phase == PH_OVER and st.is_terminal and ev[-1].kind == "game_over"
    assert st.legal_actions() == [] and st.chance_outcomes() == []
    rejects(st, "pass", "DS-7.2")


def test_ds7_77_trigger_then_everyone_once():
    st = build_state(
        2,
        racks=["fox bird", "swan"],
        families=[["fox6"], []],
        sevens=[1, 0],
        phase="actions",
        turn=0,
        game=DoubleSeven(double_seven="second_token"),
    )
    step(st, "expand fox6 with fox1")
    assert st.trigger == 0 and st.phase == PH_ACT  # the turn goes on normally
    step(st, "pass")
    assert st.turn == 1 and not st.is_terminal  # seat 1 plays one more turn
    while st.current_player == CHANCE or st.phase != PH_ACT:
        if st.current_player == CHANCE:
            st.apply(st.sample_chance(random.Random(1)))
        else:
            st.apply(st.legal_actions()[0])
    step(st, "pass")
    if st.phase == PH_DISCARD:
        st.apply(st.legal_actions()[0])
    assert st.is_terminal


# ----- DS-8 ------------------------------------------------------------------------------------


def test_ds83_scoring_example():
    st = build_state(
        2,
        racks=["butterfly swan", ""],
        families=[["bird7", "squirrel8", "fox2"], []],
        sevens=[2, 0],
        holder77=0,
        phase="actions",
    )
    assert st.scores()[0] == 21.0  # 7 + 8 + 2 + 1 + 1 + 2


def finish(st):
    while not st.is_terminal:
        st.apply(
            st.legal_actions()[0] if st.current_player >= 0 else st.sample_chance(random.Random(0))
        )
    return st


def test_ds82_tie_break():
    # Tied at 9: the 77 holder wins alone.
    st = build_state(
        3,
        racks=["", "", ""],
        families=[["fox7"], ["bird9"], ["swan5"]],
        holder77=0,
        trigger=0,
        pile="",
        turn=2,
        phase="actions",
    )
    step(st, "pass")
    assert st.is_terminal and st.scores() == [9.0, 9.0, 5.0] and st.winners() == [0]
    assert st.returns() == [1.0, 0.0, 0.0]
    # Tied without the 77 token: shared victory.
    st = build_state(
        3,
        racks=["", "", ""],
        families=[["fox4"], ["bird9"], ["swan9"]],
        holder77=0,
        trigger=0,
        pile="",
        turn=2,
        phase="actions",
    )
    step(st, "pass")
    assert st.scores() == [6.0, 9.0, 9.0] and st.winners() == [1, 2]


# ----- views and determinization --------------------------------------------------------------


def test_views_hide_racks_and_determinize_keeps_known():
    st = build_state(3, racks=["fox*2 clover", "bird swan", "deer"], known=["", "swan", ""])
    v1 = st.view(1)
    assert v1["rack"] == {"bird": 1, "swan": 1}
    assert v1["racks"][0] == {"size": 3, "known": {}}
    assert v1["racks"][1] == {"size": 2, "known": {"swan": 1}}
    assert st.view(None)["rack"] is None
    for seed in range(20):
        det = st.determinize(0, random.Random(seed))
        assert det.racks[0] == st.racks[0]
        assert det.racks[1][4] >= 1  # the known swan stays on seat 1's rack
        assert sum(det.racks[2]) == 1 and sum(det.pile) == sum(st.pile)
        assert det.view(0) == st.view(0)
    text = st.game.render(st.view(0), "ja")
    assert "キツネ×2" in text and "クローバー" in text
    assert "fox×2" in st.game.render(st.view(0), "en")


def test_observation_tensor():
    st = build_state(2, racks=["fox*2 clover", "bird"], families=[["swan3+1"], []])
    obs = st.observation_tensor(0)
    assert len(obs) == st.game.observation_size(2) == 61 + 124 * 2
    assert obs[2] == 2.0 and obs[8] == 1.0  # my foxes and clover
    base = 61  # my block: a swan family of 4 tiles with one clover
    assert obs[base + 12 + 4 * 13 + 2] == 1.0 and obs[base + 116 + 4] == 1.0
    assert st.observation_tensor(1)[2] == 0.0  # seat 1 does not see my foxes


def test_ds57_family_animal():
    # DS-5.7: a family is named by its animal and always holds one; it takes only that animal.
    with pytest.raises(NotationError) as exc:
        DoubleSeven().action_from_str("start clover2")
    assert exc.value.rule == "DS-5.7"
    with pytest.raises(NotationError) as exc:
        DoubleSeven().action_from_str("expand fox2 with swan1")
    assert exc.value.rule == "DS-5.3"
    st = build_state(2, racks=["fox clover*2", ""], families=[["fox1+1"], []], phase="actions")
    step(st, "expand fox1+1 with clover2")
    assert fams(st, 0) == ["fox1+3"]  # mostly clovers, still a fox family


def test_sample_state_from_json_view_and_bad_data():
    import json

    from septet.core.errors import RecordError

    st = build_state(3, racks=["fox*2", "bird swan", ""], families=[["deer3"], [], ["frog2"]])
    view = json.loads(json.dumps(st.view(2)))
    det = st.game.sample_state(view, random.Random(3))
    assert det.view(2) == st.view(2) and det.racks[2] == st.racks[2]
    assert sum(det.racks[0]) == 2 and sum(det.racks[1]) == 2
    view["pile"] += 1  # one tile too many: the view no longer adds up
    with pytest.raises(RecordError):
        st.game.sample_state(view, random.Random(3))
    data = st.to_json()
    data["state"]["racks"][0][2] += 1
    with pytest.raises(RecordError):
        type(st).from_json(data)
