"""Flip 7 actions say what they hold (issue 25): named fields per operation, the notation and
the encoding unchanged, the positional constructor of the compiled kernels still working."""

from __future__ import annotations

import pytest

from septet.games import get
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import (
    BONUS,
    HIT,
    OP_STEAL,
    OP_SWAP,
    F7Action,
    Op,
    dealer_action,
    discard_action,
    draw_action,
    parse,
    penalty_action,
    steal_action,
    swap_action,
    target_action,
)


def test_each_operation_names_its_fields() -> None:
    # F7V-4.5: a swap of seat 0's 5 with seat 2's -4, the lower seat first
    m4 = C.KIND_OF_TOKEN["-4"]
    swap = parse("swap 0:5 2:-4")
    assert swap == swap_action(0, 5, 2, m4)
    assert (swap.seat, swap.card, swap.other_seat, swap.other_card) == (0, 5, 2, m4)
    steal = parse("steal 1:l13")  # F7V-4.6
    assert steal == steal_action(1, C.L13) and (steal.seat, steal.card) == (1, C.L13)
    discard = parse("discard 3:zero")  # F7V-4.7
    assert discard == discard_action(3, C.ZERO) and (discard.seat, discard.card) == (3, C.ZERO)
    assert parse("target 2").seat == 2 and target_action(2) == parse("target 2")
    assert parse("penalty 1").seat == 1 and penalty_action(1) == parse("penalty 1")
    assert parse("dealer 4").seat == 4 and dealer_action(4) == parse("dealer 4")
    assert parse("draw 7").card == 7 and draw_action(7) == parse("draw 7")
    for action, missing in [
        (HIT, "seat"),
        (BONUS, "card"),
        (parse("target 2"), "card"),
        (steal, "other_seat"),
        (parse("draw 7"), "seat"),
        (discard, "other_card"),
    ]:
        with pytest.raises(AttributeError):
            getattr(action, missing)
    with pytest.raises(ValueError):
        swap_action(2, 5, 0, m4)


def test_the_kernels_positional_form_and_the_notation_are_unchanged() -> None:
    # the compiled kernels build and read F7Action(op, a, b, c, d) (src/septet/fast/)
    assert F7Action(OP_SWAP, 0, 5, 2, 3) == swap_action(0, 5, 2, 3)
    assert F7Action(OP_STEAL, 1, 9) == steal_action(1, 9)
    assert str(swap_action(0, 5, 2, C.KIND_OF_TOKEN["-4"])) == "swap 0:5 2:-4"
    match steal_action(1, 9):
        case F7Action(op=Op.STEAL, seat=seat, card=card):
            assert (seat, card) == (1, 9)
        case _:
            raise AssertionError("no match")


def test_the_encoding_round_trips_named_actions() -> None:
    # the integer ids (RL) of every Swap/Steal/Discard of 3 seats decode to the same action
    game = get("flip7")
    row = [C.KIND_OF_TOKEN[t] for t in ("5", "zero", "-4")]
    actions = [steal_action(1, k) for k in row] + [discard_action(2, k) for k in row]
    actions += [swap_action(0, k1, 2, k2) for k1 in row for k2 in row if k1 != k2]
    for a in actions:
        assert game.id_to_action(game.action_to_id(a, 3), 3) == a
