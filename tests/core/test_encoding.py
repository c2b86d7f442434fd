"""ActionEncoding and ChoiceSequence (septet.core.encoding) on a small declared encoding whose
ids are worked out by hand."""

from __future__ import annotations

import pytest

from septet.core.encoding import ActionEncoding, ActionKind, Arg, ChoiceSequence


def _enc() -> ActionEncoding:
    # ids: 0 pass | 1..3 take(card 0..2) | 4..7 give(seat 0..1, count 1..2)
    #      | 8..10 swap(a, b) with a < b over 0..2: (0,1) (0,2) (1,2) | empty(size 0)
    kinds = [
        ActionKind("pass"),
        ActionKind("take", (Arg("card", 3),)),
        ActionKind("give", (Arg("seat", 2), Arg("count", 2, start=1))),
        ActionKind("swap", (Arg("a", 3), Arg("b", 3)), where=lambda a, b: a < b),
        ActionKind("empty", (Arg("none", 0),)),
    ]

    def args_of(action: object) -> tuple[str, tuple[int, ...]]:
        assert isinstance(action, tuple)
        return action[0], tuple(action[1:])

    return ActionEncoding(
        "toy",
        3,
        kinds,
        args_of,
        lambda kind, args: (kind, *args),
        chance_kinds=[ActionKind("deal", (Arg("card", 3),))],
    )


def test_ids_follow_the_declaration() -> None:
    enc = _enc()
    assert enc.size == 11
    assert enc.offsets == {"pass": 0, "take": 1, "give": 4, "swap": 8, "empty": 11}
    assert enc.encode("give", (1, 1)) == 6  # 4 + seat 1 * 2 + (count 1 - 1)
    assert enc.encode("swap", (1, 2)) == 10
    assert [enc.decode(i) for i in (0, 3, 7, 9)] == [
        ("pass", ()),
        ("take", (2,)),
        ("give", (1, 2)),
        ("swap", (0, 2)),
    ]
    assert all(enc.id_of(enc.action(i)) == i for i in range(enc.size))
    assert enc.kind_index["deal"] == 5  # chance kinds after the player kinds


def test_bad_ids_and_arguments_raise() -> None:
    enc = _enc()
    for call in (
        lambda: enc.decode(11),
        lambda: enc.decode(-1),
        lambda: enc.encode("swap", (2, 1)),
        lambda: enc.encode("give", (0, 0)),
        lambda: enc.encode("deal", (0,)),
        lambda: enc.encode("take", (0, 1)),
    ):
        with pytest.raises(ValueError):
            call()


def test_fingerprint_and_markdown() -> None:
    enc = _enc()
    assert enc.fingerprint() == (
        "toy/v3;pass()=1;take(card:0+3)=3;give(seat:0+2,count:1+2)=4;swap(a:0+3,b:0+3)=3;"
        "empty(none:0+0)=0"
    )
    assert "| 4 | 4 | `give` | seat 0..1, count 1..2 |" in enc.markdown()


def test_compact_choices_walk_to_the_flat_id() -> None:
    enc = _enc()
    assert enc.compact_size == 5  # five kinds; no argument has more than 3 values
    assert enc.compact_path(6) == (2, 1, 0)
    legal = [0, 6, 7, 10]
    seq = ChoiceSequence(enc, legal)
    assert seq.options() == [0, 2, 3]  # pass, give, swap
    assert seq.choose(2) is None  # give: the seat is forced (only seat 1), count is not
    assert seq.prefix == [2, 1]
    assert seq.options() == [0, 1]
    assert seq.choose(1) == 7
    seq = ChoiceSequence(enc, legal)
    assert seq.choose(3) == 10  # swap (1, 2): both arguments forced
    with pytest.raises(ValueError):
        ChoiceSequence(enc, legal).choose(1)
    with pytest.raises(ValueError):
        ChoiceSequence(enc, [])
    # a single legal action is still one choice for the player
    single = ChoiceSequence(enc, [5])
    assert single.options() == [2] and single.choose(2) == 5
