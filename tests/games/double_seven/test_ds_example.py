"""DS-9: the worked example of the seed rules ("進行中のゲームの例"), replayed action by action.

Seats: 0 Deborah, 1 Julian, 2 David. The pictures of the source are not in the text, so the
position is the smallest one the narrative fixes: Deborah has a fox on her rack and a family of 2
swans; Julian's rack is empty (he cleared last turn) with families of 2 foxes and 5 squirrels;
David has 4 frogs and a family of swans holding a clover (swan2+1), and two tiles on his rack.
"""

from __future__ import annotations

from septet.games.double_seven import DoubleSeven
from septet.games.double_seven.builder import build_state, tiles
from septet.games.double_seven.state import PH_ACT, PH_DRAW, PH_FLIP, PH_T41

CHANCE = -1


def fams(st, seat):
    from septet.games.double_seven.tiles import family_str

    return sorted(family_str(f) for f in st.families[seat])


def step(st, text):
    return st.apply(st.game.parse_action(st, text))


def kinds(events):
    return [e.kind for e in events]


def test_ds9_worked_example():
    game = DoubleSeven()
    st = build_state(
        3,
        racks=["fox", "", "bird deer"],
        families=[["swan2"], ["fox2", "squirrel5"], ["frog4", "swan2+1"]],
        turn=0,
        game=game,
    )
    # A) No tile is face up: Deborah's turn starts by flipping one (DS-3.1) - a chance node.
    assert st.phase == PH_FLIP and st.current_player == CHANCE
    ev = step(st, "flip bird")
    assert kinds(ev) == ["flip"]
    assert st.display == tiles("bird")
    # B) Her rack is not empty (one fox): she draws 2 (DS-4.1), both face down.
    assert st.phase == PH_DRAW and st.draws_left == 2 and st.current_player == 0
    step(st, "draw")
    assert st.current_player == CHANCE
    step(st, "pile frog")
    assert st.racks[0] == tiles("fox frog") and st.draws_left == 1
    step(st, "draw")
    step(st, "pile fox")
    assert st.racks[0] == tiles("fox*2 frog")
    assert st.phase == PH_ACT and st.current_player == 0  # no Rainbow: only 3 tiles
    # C) Exchange her 2 swans for Julian's 2 foxes (DS-5.4).
    ev = step(st, "exchange swan2 with 1:fox2")
    assert kinds(ev) == ["exchange"]
    assert fams(st, 0) == ["fox2"]
    assert fams(st, 1) == ["squirrel5", "swan2"]
    # D) Expand the foxes with the foxes of her rack: 4 foxes (DS-5.3).
    step(st, "expand fox2 with fox2")
    assert fams(st, 0) == ["fox4"] and st.racks[0] == tiles("frog")
    # E) Exchange the 4 foxes for David's 4 frogs.
    step(st, "exchange fox4 with 2:frog4")
    assert fams(st, 0) == ["frog4"]
    assert fams(st, 2) == ["fox4", "swan2+1"]
    # F) Expand with the frog: the rack is empty, "Clear!" ends the turn (DS-6.1).
    ev = step(st, "expand frog4 with frog1")
    assert kinds(ev) == ["expand", "clear", "turn"]
    assert fams(st, 0) == ["frog5"] and sum(st.racks[0]) == 0
    assert st.sevens == [0, 0, 0]
    # Julian: a bird is face up, so no flip; his rack was empty, so he draws 3.
    assert st.turn == 1 and st.phase == PH_DRAW and st.draws_left == 3
    assert st.display == tiles("bird")
    # G) He draws a frog, a deer and a rabbit face down, leaving the bird.
    for tile in ("frog", "deer", "rabbit"):
        step(st, "draw")
        step(st, f"pile {tile}")
    assert st.racks[1] == tiles("frog deer rabbit")
    assert st.phase == PH_ACT
    # H) Two for one: deer and rabbit go face up into the display; he draws a swan face down.
    ev = step(st, "two-for-one deer rabbit")
    assert kinds(ev) == ["two_for_one"]
    assert st.display == tiles("bird deer rabbit") and st.phase == PH_T41
    assert "take deer" not in {str(a) for a in st.legal_actions()}  # not one of those two
    step(st, "draw")
    step(st, "pile swan")
    assert st.racks[1] == tiles("frog swan") and st.phase == PH_ACT
    assert st.display == tiles("bird deer rabbit")
    # I) Retrieve the clover from David's swan family with his swan (DS-5.5).
    ev = step(st, "retrieve 2:swan2+1")
    assert kinds(ev) == ["retrieve"]
    assert fams(st, 2) == ["fox4", "swan3"]
    assert st.racks[1] == tiles("frog clover")
    # J) Exchange his 5 squirrels for Deborah's 5 frogs.
    step(st, "exchange squirrel5 with 0:frog5")
    assert fams(st, 1) == ["frog5", "swan2"]
    assert fams(st, 0) == ["squirrel5"]
    # K) Expand the frogs with the frog and the clover: 7 tiles, "Seven!" (DS-5.3), then Clear!
    ev = step(st, "expand frog5 with frog1+1")
    assert kinds(ev) == ["expand", "seven", "clear", "turn"]
    assert fams(st, 1) == ["frog6+1", "swan2"]
    assert st.sevens == [0, 1, 0] and st.sevens_left == 7
    assert st.turn == 2
    assert st.scores() == [5.0, 10.0, 7.0]
    # The public knowledge of the racks: Julian's retrieved clover was played again.
    assert st.known[1] == [0] * 9


# The same replay as a table: after each step, every rack ("-": empty), every family, the 7
# tokens and the display. David's rack (bird deer) never changes.
D_RACK = "bird deer"
STEPS = """
action                          | Deborah     | Julian           | Deborah's  | Julian's        | David's       | 7s    | display
flip bird                       | fox         | -                | swan2      | fox2 squirrel5  | frog4 swan2+1 | 0 0 0 | bird
draw                            | fox         | -                | swan2      | fox2 squirrel5  | frog4 swan2+1 | 0 0 0 | bird
pile frog                       | fox frog    | -                | swan2      | fox2 squirrel5  | frog4 swan2+1 | 0 0 0 | bird
draw                            | fox frog    | -                | swan2      | fox2 squirrel5  | frog4 swan2+1 | 0 0 0 | bird
pile fox                        | fox*2 frog  | -                | swan2      | fox2 squirrel5  | frog4 swan2+1 | 0 0 0 | bird
exchange swan2 with 1:fox2      | fox*2 frog  | -                | fox2       | squirrel5 swan2 | frog4 swan2+1 | 0 0 0 | bird
expand fox2 with fox2           | frog        | -                | fox4       | squirrel5 swan2 | frog4 swan2+1 | 0 0 0 | bird
exchange fox4 with 2:frog4      | frog        | -                | frog4      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
expand frog4 with frog1         | -           | -                | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
draw                            | -           | -                | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
pile frog                       | -           | frog             | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
draw                            | -           | frog             | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
pile deer                       | -           | frog deer        | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
draw                            | -           | frog deer        | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
pile rabbit                     | -           | frog deer rabbit | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird
two-for-one deer rabbit         | -           | frog             | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird deer rabbit
draw                            | -           | frog             | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird deer rabbit
pile swan                       | -           | frog swan        | frog5      | squirrel5 swan2 | fox4 swan2+1  | 0 0 0 | bird deer rabbit
retrieve 2:swan2+1              | -           | frog clover      | frog5      | squirrel5 swan2 | fox4 swan3    | 0 0 0 | bird deer rabbit
exchange squirrel5 with 0:frog5 | -           | frog clover      | squirrel5  | frog5 swan2     | fox4 swan3    | 0 0 0 | bird deer rabbit
expand frog5 with frog1+1       | -           | -                | squirrel5  | frog6+1 swan2   | fox4 swan3    | 0 1 0 | bird deer rabbit
"""  # noqa: E501


def test_ds9_every_intermediate_state():
    st = build_state(
        3,
        racks=["fox", "", D_RACK],
        families=[["swan2"], ["fox2", "squirrel5"], ["frog4", "swan2+1"]],
        turn=0,
    )
    rows = [line.split("|") for line in STEPS.strip().splitlines()[1:]]
    assert len(rows) == 21
    for i, row in enumerate(rows):
        action, r0, r1, f0, f1, f2, sevens, display = (c.strip() for c in row)
        step(st, action)
        for seat, rack in enumerate((r0, r1, D_RACK)):
            assert st.racks[seat] == tiles("" if rack == "-" else rack), (i, action, seat)
        for seat, families in enumerate((f0, f1, f2)):
            assert fams(st, seat) == sorted(families.split()), (i, action, seat)
        assert st.sevens == [int(x) for x in sevens.split()], (i, action)
        assert st.display == tiles(display), (i, action)
        assert st.holder77 == -1 and st.trigger == -1
    assert st.turn == 2 and st.sevens_left == 7
