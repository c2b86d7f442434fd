"""The lobby's description of a game's options, derived from its options dataclass.

For each field of ``Game.options_type``: its name, default, kind (``bool``, ``int``, ``float``,
``choice`` or ``text``), its label and help in English and Japanese and, for a field with a fixed
set of values, those ``choices``. Everything comes from the engine, never from per-game tables
here:

- choices: the field's type, ``Literal["a", "b"]`` (also inside ``Optional``/``X | None``), else
  ``metadata={"choices": {value: English name}}`` (or a plain sequence of values);
- names and help: ``metadata`` keys ``help``, ``help_ja``, ``label``, ``label_ja``, ``choices``
  and ``choices_ja`` (each falls back to the English text, then to the field name or value).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any


def _literal_choices(tp: Any) -> list[Any] | None:
    """The values of a ``Literal[...]`` type (or ``Literal[...] | None``), else None."""
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return list(typing.get_args(tp))
    if origin is typing.Union or origin is types.UnionType:
        for arg in typing.get_args(tp):
            found = _literal_choices(arg)
            if found:
                return found
    return None


def _kind(default: Any, choices: list[Any] | None) -> str:
    if choices:
        return "choice"
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, float):
        return "float"
    return "text"


def describe_options(game_name: str, options_type: type[Any]) -> list[dict[str, Any]]:
    """The options of ``options_type`` (a dataclass) for the lobby, in field order.

    Each item: ``name``, ``default``, ``help`` (English, as ``Game.option_specs``), ``kind``,
    ``label`` and ``help_i18n`` (``{"en", "ja"}``), and ``choices`` (``[{"value", "en", "ja"}]``,
    or None). Never raises for a dataclass whose fields have defaults.
    """
    try:
        hints = typing.get_type_hints(options_type)
    except Exception:  # unresolvable annotations: no Literal choices
        hints = {}
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(options_type):
        default = f.default if f.default is not dataclasses.MISSING else None
        choices = _literal_choices(hints.get(f.name))
        if not choices and f.metadata.get("choices"):
            choices = list(f.metadata["choices"])
        help_en = str(f.metadata.get("help", ""))
        help_ja = str(f.metadata.get("help_ja", help_en))
        label_en = str(f.metadata.get("label", f.name.replace("_", " ")))
        label_ja = str(f.metadata.get("label_ja", label_en))
        raw_choices = f.metadata.get("choices")
        choice_en = dict(raw_choices) if isinstance(raw_choices, Mapping) else {}
        choice_ja = dict(f.metadata.get("choices_ja") or {})
        out.append(
            {
                "name": f.name,
                "default": default,
                "help": help_en,
                "kind": _kind(default, choices),
                "label": {"en": label_en, "ja": label_ja},
                "help_i18n": {"en": help_en, "ja": help_ja},
                "choices": (
                    [
                        {
                            "value": c,
                            "en": choice_en.get(str(c), str(c)),
                            "ja": choice_ja.get(str(c), choice_en.get(str(c), str(c))),
                        }
                        for c in choices
                    ]
                    if choices
                    else None
                ),
            }
        )
    return out


# Options of a table rather than of its game (issue 24): sent in ``POST /api/tables``'s
# ``options`` beside the game's, listed in ``GET /api/games`` as ``table_options``.
TABLE_OPTIONS: list[dict[str, Any]] = [
    {
        "name": "rated",
        "default": True,
        "help": "the game counts for the players' ratings",
        "kind": "bool",
        "label": {"en": "Rated", "ja": "レーティング対象"},
        "help_i18n": {
            "en": "the game counts for the players' ratings",
            "ja": "このゲームの結果をレーティングに反映します",
        },
        "choices": None,
    }
]
"""The table options: ``rated`` (on by default)."""


# ----- table options (issue 28) ------------
def pace_options() -> list[dict[str, Any]]:
    """The table options of the pace, in the shape of :func:`describe_options`: ``pace``
    (``live`` / ``turn-based``), ``turn_hours`` (hours per move of a turn-based table) and
    ``on_timeout`` (what a missed deadline does). See :mod:`septet.server.turns.deadlines`."""

    def choice(value: str, en: str, ja: str) -> dict[str, Any]:
        return {"value": value, "en": en, "ja": ja}

    def item(name: str, default: Any, kind: str, label: tuple[str, str], help_: tuple[str, str],
             choices: list[dict[str, Any]] | None = None) -> dict[str, Any]:  # fmt: skip
        return {"name": name, "default": default, "help": help_[0], "kind": kind,
                "label": {"en": label[0], "ja": label[1]},
                "help_i18n": {"en": help_[0], "ja": help_[1]}, "choices": choices}  # fmt: skip

    return [
        item("pace", "live", "choice", ("Pace", "進め方"),
             ("Live: everyone plays now. Turn-based: each move within a deadline, for days.",
              "リアルタイム: 全員が今遊びます。手番制: 1手ずつ期限内に、何日もかけて。"),
             [choice("live", "Live", "リアルタイム"),
              choice("turn-based", "Turn-based", "手番制")]),
        item("turn_hours", 24, "int", ("Hours per move", "1手の時間"),
             ("Turn-based: hours each player has for a move (1-336).",
              "手番制: 1手に使える時間（1〜336時間）。")),
        item("on_timeout", "move", "choice", ("Missed deadline", "期限切れ"),
             ("Turn-based: what happens when time runs out.", "手番制: 時間切れのときの扱い。"),
             [choice("move", "A Normal bot makes that move", "普通のボットがその1手を指す"),
              choice("replace", "After a second miss, a Normal bot takes the seat",
                     "2回目の時間切れで普通のボットが席を引き継ぐ")]),
    ]  # fmt: skip


TABLE_OPTIONS += pace_options()
