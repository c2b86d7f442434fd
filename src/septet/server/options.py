"""The lobby's description of a game's options, derived from its options dataclass.

For each field of ``Game.options_type``: its name, default, kind (``bool``, ``int``, ``float``,
``choice`` or ``text``), its help in English and Japanese and, for a field with a fixed set of
values, those ``choices``. Choices come from the engine:

1. the field's type, ``Literal["a", "b"]`` (also inside ``Optional``/``X | None``);
2. else ``metadata={"choices": (...)}`` on the field;
3. else, for a ``str`` field whose values the dataclass validates (``__post_init__`` raising
   ``OptionError``): the words of its help text that the dataclass accepts, when it refuses a
   nonsense value (so a free-text field stays free text).

Japanese help: ``metadata={"help_ja": ...}`` on the field, else this module's translations of the
bundled games' help texts (keyed by game and option), else the English help.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from typing import Any

# Japanese help, labels and choice names for the bundled games' options, used when the engine's
# field metadata has no "help_ja" / "label_ja" / "choices_ja".
_JA: dict[tuple[str, str], dict[str, Any]] = {
    ("double-seven", "rainbow"): {
        "label": "レインボー",
        "help": "ドローの後のレインボー！を使う (DS-4.3)",
    },
    ("double-seven", "two_for_one"): {
        "label": "2対1",
        "help": "特殊アクション「2対1」を使う（1ターンに1回） (DS-5.6)",
    },
    ("double-seven", "double_seven"): {
        "label": "77トークン",
        "help": "77トークンを取る人：2枚目の7トークンを最初に取った人、または7枚以上の家族を"
        "最初に2つ持った人 (DS-5.3)",
        "choices": {
            "second_token": "2枚目の7トークン",
            "two_families": "7枚以上の家族2つ",
        },
    },
    ("flip7", "edition"): {
        "label": "版",
        "help": "復讐心とともに（標準）またはクラシック版フリップ7",
        "choices": {"vengeance": "復讐心とともに", "classic": "クラシック"},
    },
    ("flip7", "brutal"): {
        "label": "残忍モード",
        "help": "残忍モード（復讐心とともにのみ）：0点未満あり、±15",
    },
    ("flip7", "target"): {"label": "目標点", "help": "勝利に必要な点数（標準200）"},
    ("seven-shot", "target"): {"label": "目標点", "help": "ゲームに勝つ点数 (SS-2.1)"},
    ("seven-shot", "pass_cards"): {
        "label": "渡す枚数",
        "help": "各ディールの最初に渡すカードの枚数 (SS-2.3)；0〜5",
    },
}

_EN_CHOICES: dict[str, str] = {
    "vengeance": "With a Vengeance",
    "classic": "classic",
    "second_token": "second 7 token",
    "two_families": "two families of 7+",
}


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


def _accepts(options_type: type[Any], name: str, value: Any) -> bool:
    try:
        options_type(**{name: value})
    except Exception:  # OptionError, or anything else the dataclass raises on a bad value
        return False
    return True


def _probed_choices(options_type: type[Any], f: dataclasses.Field[Any]) -> list[str] | None:
    """The words of the field's help (and default) that the dataclass accepts as values, when it
    refuses a nonsense value; else None (a free-text field)."""
    if _accepts(options_type, f.name, "\u2063not-a-choice\u2063"):
        return None
    help_text = str(f.metadata.get("help", ""))
    words = [str(f.default), *re.findall(r"[A-Za-z_][\w-]*", help_text)]
    out: list[str] = []
    for w in words:
        if w not in out and _accepts(options_type, f.name, w):
            out.append(w)
    return out if len(out) >= 2 else None


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
        if not choices and isinstance(default, str):
            choices = _probed_choices(options_type, f)
        ja = _JA.get((game_name, f.name), {})
        help_en = str(f.metadata.get("help", ""))
        help_ja = str(f.metadata.get("help_ja", ja.get("help", help_en)))
        label_ja = str(f.metadata.get("label_ja", ja.get("label", f.name)))
        choice_ja = dict(f.metadata.get("choices_ja", ja.get("choices", {})))
        out.append(
            {
                "name": f.name,
                "default": default,
                "help": help_en,
                "kind": _kind(default, choices),
                "label": {"en": f.name.replace("_", " "), "ja": label_ja},
                "help_i18n": {"en": help_en, "ja": help_ja},
                "choices": (
                    [
                        {
                            "value": c,
                            "en": _EN_CHOICES.get(str(c), str(c)),
                            "ja": choice_ja.get(str(c), _EN_CHOICES.get(str(c), str(c))),
                        }
                        for c in choices
                    ]
                    if choices
                    else None
                ),
            }
        )
    return out
