"""Fields declared once (issue 17): clone, state_dict and load derived from one list."""

from __future__ import annotations

import pytest

from septet.core.fields import (
    Field,
    copy_fields,
    copy_nested,
    dump_fields,
    load_fields,
    shared_mutables,
    slot_names,
)

NAMES = ("a", "b", "c")

FIELDS = (
    Field("phase", dump=NAMES.__getitem__, load=NAMES.index),
    Field("hands", copy=copy_nested),
    Field("_cur", key="current"),
    Field("_limit", key=None),
)


class Box:
    __slots__ = slot_names(FIELDS)


def make() -> Box:
    b = Box()
    b.phase, b.hands, b._cur, b._limit = 2, [[1, 2], [3]], 1, 99
    return b


def test_slots_and_keys_come_from_the_declaration() -> None:
    assert Box.__slots__ == ("phase", "hands", "_cur", "_limit")
    assert [f.json_key for f in FIELDS] == ["phase", "hands", "current", None]


def test_dump_encodes_and_skips_the_derived_field() -> None:
    assert dump_fields(make(), FIELDS) == {"phase": "c", "hands": [[1, 2], [3]], "current": 1}


def test_copy_shares_nothing_mutable() -> None:
    a, b = make(), Box()
    copy_fields(a, b, FIELDS)
    assert (b.phase, b.hands, b._cur, b._limit) == (2, [[1, 2], [3]], 1, 99)
    assert shared_mutables(a.hands, b.hands, "hands") == []
    b.hands[0].append(7)
    assert a.hands == [[1, 2], [3]]


def test_shared_mutables_names_the_aliased_path() -> None:
    inner = [1]
    assert shared_mutables([inner, [2]], [inner, [2]], "hands") == ["hands[0]"]
    assert shared_mutables([{"k": inner}], [{"k": inner}], "log") == ["log[0]['k']"]


def test_load_round_trips_and_a_broken_dict_changes_nothing() -> None:
    b = make()
    load_fields(b, FIELDS, {"phase": "a", "hands": [[5]], "current": 0})
    assert (b.phase, b.hands, b._cur, b._limit) == (0, [[5]], 0, 99)
    with pytest.raises(ValueError):
        load_fields(b, FIELDS, {"phase": "zzz", "hands": [[6]], "current": 1})
    assert (b.phase, b.hands, b._cur) == (0, [[5]], 0)
    with pytest.raises(KeyError):
        load_fields(b, FIELDS, {"phase": "b"})
    assert b.phase == 0


def test_duplicate_names_or_keys_are_refused() -> None:
    with pytest.raises(ValueError):
        slot_names((Field("x"), Field("x")))
    with pytest.raises(ValueError):
        slot_names((Field("_x"), Field("x")))


def test_compiled_copy_does_what_copy_fields_does() -> None:
    from septet.core.fields import compile_copy

    fields = (*FIELDS, Field("flat", copy=list))
    a, b = Box2(), Box2()
    a.phase, a.hands, a._cur, a._limit, a.flat = 2, [[1, 2], [3]], 1, 99, [4, 5]
    compile_copy(fields)(a, b)
    assert (b.phase, b.hands, b._cur, b._limit, b.flat) == (2, [[1, 2], [3]], 1, 99, [4, 5])
    assert shared_mutables(a.hands, b.hands, "hands") == []
    assert b.flat is not a.flat
    with pytest.raises(ValueError):
        compile_copy((Field("not a name"),))


class Box2:
    __slots__ = (*slot_names(FIELDS), "flat")
