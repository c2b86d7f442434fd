"""A State's fields declared once: slots, clone, serialisation and load derived from one list.

Each engine lists its mutable fields as :class:`Field` values in one tuple (in the order they
appear in ``state_dict``) and derives the rest::

    FIELDS = (
        Field("phase", dump=PHASE_NAMES.__getitem__, load=PHASE_NAMES.index),
        Field("hands", copy=list, dump=lambda hs: [names_of(m) for m in hs], load=...),
        Field("_cur", key="current"),
        Field("_threshold", key=None),      # derived from the options: not serialised
    )
    class MyState(State):
        __slots__ = slot_names(FIELDS)
        def clone(self):
            new = object.__new__(MyState)
            new.game, new.num_players, new.history = self.game, self.num_players, list(self.history)
            copy_fields(self, new, FIELDS)
            return new
        def state_dict(self):
            return dump_fields(self, FIELDS)
        def load_state_dict(self, data):
            load_fields(self, FIELDS, data)

A field forgotten in ``clone`` or ``state_dict`` is then impossible by construction, and the
shared kit (:func:`septet.core.testkit.check_fields`) checks what cannot be derived: that every
slot is declared, that a clone shares no mutable container with its original, and that
``load_state_dict(state_dict())`` restores every serialised field.

This module is standard library only; it knows nothing of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any


def same(value: Any) -> Any:
    """Identity: the copy (or codec) of an immutable value (int, str, tuple, frozenset, None)."""
    return value


def copy_nested(value: Any) -> Any:
    """Copy lists, dicts and sets at every depth; tuples, numbers and strings are shared.

    The copy for fields such as a list of per-seat lists or a list of dicts (``deal_log``).
    """
    if isinstance(value, list):
        return [copy_nested(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_nested(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a State.

    Attributes:
        name: the attribute (slot) name, e.g. ``"hands"`` or ``"_cur"``.
        copy: how :func:`copy_fields` copies it: :func:`same` for immutable values (the
            default), ``list`` for a flat list of immutables, :func:`copy_nested` for nested
            containers.
        key: its key in ``state_dict``; ``""`` (the default) means the name without a leading
            underscore; ``None`` means not serialised (a value derived from the game's options,
            set by the constructor and copied by ``clone``).
        dump: value → JSON (``state_dict``); identity by default.
        load: JSON → value (``load_state_dict``); identity by default.
        shared_entries: the field is an append-only list whose entries are never changed once
            appended (an event log): ``copy`` copies the list and shares the entries, which
            keeps ``clone`` O(1) per entry instead of a deep copy of a log hundreds of entries
            long. :func:`septet.core.testkit.check_fields` then checks only that the list itself
            is not shared; the kit's clone-independence check (apply to the clone, the original
            unchanged) catches an engine that changes an entry after appending it.
    """

    name: str
    copy: Callable[[Any], Any] = same
    key: str | None = ""
    dump: Callable[[Any], Any] = same
    load: Callable[[Any], Any] = same
    shared_entries: bool = False

    @property
    def json_key(self) -> str | None:
        """The ``state_dict`` key, or ``None`` for a field that is not serialised."""
        if self.key is None:
            return None
        return self.key or self.name.lstrip("_")


def slot_names(fields: Iterable[Field], *extra: str) -> tuple[str, ...]:
    """The ``__slots__`` tuple of a State with these fields (plus ``extra`` names).

    Raises:
        ValueError: two fields share a name or a ``state_dict`` key.
    """
    fs = tuple(fields)
    names = [f.name for f in fs] + list(extra)
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate field names in {names}")
    keys = [f.json_key for f in fs if f.json_key is not None]
    if len(set(keys)) != len(keys):
        raise ValueError(f"duplicate state_dict keys in {keys}")
    return tuple(names)


def copy_fields(src: object, dst: object, fields: Iterable[Field]) -> None:
    """Copy every field of ``src`` onto ``dst`` with the field's own copy (used by ``clone``)."""
    for f in fields:
        setattr(dst, f.name, f.copy(getattr(src, f.name)))


def dump_fields(obj: object, fields: Iterable[Field]) -> dict[str, Any]:
    """The JSON dict of the serialised fields, in declaration order (``state_dict``)."""
    out: dict[str, Any] = {}
    for f in fields:
        k = f.json_key
        if k is not None:
            out[k] = f.dump(getattr(obj, f.name))
    return out


def load_fields(obj: object, fields: Iterable[Field], data: Mapping[str, Any]) -> None:
    """Set every serialised field of ``obj`` from ``data`` (``load_state_dict``).

    Fields are parsed first and assigned only when all of them parsed, so a broken dict leaves
    ``obj`` unchanged.

    Raises:
        KeyError: a serialised field's key is missing from ``data``.
        ValueError, TypeError, IndexError: a value that the field's ``load`` rejects.
    """
    parsed: list[tuple[str, Any]] = []
    for f in fields:
        k = f.json_key
        if k is not None:
            parsed.append((f.name, f.load(data[k])))
    for name, value in parsed:
        setattr(obj, name, value)


def shared_mutables(a: Any, b: Any, path: str = "") -> list[str]:
    """Paths where ``a`` and ``b`` hold the very same mutable container (an aliasing bug).

    Walks lists, dicts and sets in parallel; returns e.g. ``["hands[2]"]``. Empty when the two
    values share nothing mutable.
    """
    out: list[str] = []
    if isinstance(a, (list, dict, set, bytearray)) and a is b:
        return [path or "<value>"]
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            out += shared_mutables(x, y, f"{path}[{i}]")
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() & b.keys():
            out += shared_mutables(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, tuple) and isinstance(b, tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            out += shared_mutables(x, y, f"{path}[{i}]")
    return out


def compile_copy(fields: Iterable[Field]) -> Callable[[Any, Any], None]:
    """A function ``copy(src, dst)`` that does what :func:`copy_fields` does, as straight-line
    code: one assignment per field, no loop and no call for a field copied with :func:`same`
    (``list`` copies become ``[*value]``). As fast as a hand-written ``clone``; use it in the
    engines' hot paths::

        _copy = compile_copy(FIELDS)
        def clone(self):
            new = object.__new__(MyState)
            ...
            _copy(self, new)

    Raises:
        ValueError: a field name that is not a Python identifier.
    """
    env: dict[str, Any] = {}
    lines = ["def _copy(src, dst):"]
    for i, f in enumerate(fields):
        if not f.name.isidentifier():
            raise ValueError(f"not an attribute name: {f.name!r}")
        if f.copy is same:
            lines.append(f"    dst.{f.name} = src.{f.name}")
        elif f.copy is list:
            lines.append(f"    dst.{f.name} = [*src.{f.name}]")
        else:
            env[f"_c{i}"] = f.copy
            lines.append(f"    dst.{f.name} = _c{i}(src.{f.name})")
    lines.append("    return None")
    exec("\n".join(lines), env)
    copy: Callable[[Any, Any], None] = env["_copy"]
    return copy
