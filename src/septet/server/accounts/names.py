"""Player names: the one check every name goes through (guests' and accounts'), and the key that
makes account names unique.

A name a person could not tell apart from another must not pass for it: ``Aki``, ``AKI``,
``Ａｋｉ`` (full width) and ``A\u200bki`` (a zero-width space inside) are one name. So:

- :func:`check_name` refuses control characters (NUL included), format characters (zero-width
  spaces and joiners, bidi embeddings, overrides and isolates, the BOM, soft hyphens), line and
  paragraph separators, surrogates, private-use and unassigned code points, and the invisible
  fillers that are letters to Unicode (Hangul fillers, the blank Braille pattern);
- :func:`name_key` is the name after NFKC normalisation and case folding (NFKC again after the
  fold, which may undo it), with runs of spaces made one: the ``name_key`` column, unique among
  accounts (``septet_players``).
"""

from __future__ import annotations

import unicodedata

from septet.server.live import LobbyError

MAX_NAME = 32
"""Longest name, in characters (as typed, before normalisation)."""

MAX_KEY = 128
"""Longest :func:`name_key` (NFKC may lengthen a name: one ligature can become 18 letters)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Invisible although Unicode calls them letters or symbols; variation selectors and the
# combining grapheme joiner change nothing a reader sees.
_INVISIBLE = frozenset(
    {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F}
    | set(range(0xFE00, 0xFE10))
    | set(range(0xE0100, 0xE01F0))
)


def _bad(message: str, message_ja: str) -> LobbyError:
    return LobbyError("bad_name", message, status=400, message_ja=message_ja)


def refused_character(name: str) -> str | None:
    """The first character of ``name`` that no name may hold, or ``None``."""
    for ch in name:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ord(ch) in _INVISIBLE:
            return ch
    return None


def check_name(name: str) -> str:
    """``name`` with surrounding spaces removed, if it may be a player's name.

    Args:
        name: the name as typed (any string).

    Returns:
        the stripped name: 1 to :data:`MAX_NAME` characters, none refused (see the module).

    Raises:
        LobbyError: ``bad_name`` (400) with a sentence in English and Japanese.
    """
    stripped = name.strip()
    bad = refused_character(stripped)
    if bad is not None:
        raise _bad(
            f"Names may not contain invisible or control characters (U+{ord(bad):04X}).",
            f"名前に見えない文字や制御文字は使えません（U+{ord(bad):04X}）。",
        )
    key = name_key(stripped)
    if not key:
        raise _bad("Choose a name (at least one visible character).",
                   "名前を入力してください（見える文字を1文字以上）。")  # fmt: skip
    if len(stripped) > MAX_NAME or len(key) > MAX_KEY:
        raise _bad(f"Names have at most {MAX_NAME} characters.",
                   f"名前は{MAX_NAME}文字までです。")  # fmt: skip
    return stripped


def name_key(name: str) -> str:
    """The key under which ``name`` is unique among accounts: NFKC, case folded, NFKC again,
    spaces (any width) collapsed to one and trimmed. ``name_key("Ａｋｉ ") == "aki"``."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())
