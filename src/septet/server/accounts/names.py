"""Player names: the one check every name goes through (guests' and accounts'), and the key that
makes account names unique.

A name a person could not tell apart from another must not pass for it: ``Aki``, ``AKI``,
``Ａｋｉ`` (full width) and ``A\u200bki`` (a zero-width space inside) are one name. So:

- :func:`check_name` refuses control characters (NUL included), format characters (zero-width
  spaces and joiners, bidi embeddings, overrides and isolates, the BOM, soft hyphens), line and
  paragraph separators, surrogates, private-use and unassigned code points, and the invisible
  fillers that are letters to Unicode (Hangul fillers, the blank Braille pattern);
- :func:`check_name` also refuses a name whose letters mix the Latin, Cyrillic and Greek
  alphabets (``Bеn`` with a Cyrillic ``е``: UTS #39's "highly restrictive" level for these three;
  Latin beside kana and kanji is fine);
- :func:`name_key` is the name after NFKC normalisation and case folding (NFKC again after the
  fold, which may undo it), with runs of spaces made one, and the Cyrillic and Greek letters that
  look like Latin ones read as those (``АКІ`` in Cyrillic is ``aki``): the ``name_key`` column,
  unique among accounts (``septet_players``). Accounts made before the look-alike letters were
  read hold :func:`legacy_key`; :func:`name_keys` gives both, and every lookup asks for both.
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


# Cyrillic and Greek letters (after case folding) that look like a Latin letter, upper or lower
# case (Unicode's confusables.txt, the ones a name could pass for): read as that letter.
_LOOK_ALIKE = str.maketrans(
    {
        **dict.fromkeys("а", "a"), **dict.fromkeys("в", "b"), **dict.fromkeys("е", "e"),
        **dict.fromkeys("к", "k"), **dict.fromkeys("м", "m"), **dict.fromkeys("нһ", "h"),
        **dict.fromkeys("о", "o"), **dict.fromkeys("р", "p"), **dict.fromkeys("с", "c"),
        **dict.fromkeys("т", "t"), **dict.fromkeys("у", "y"), **dict.fromkeys("х", "x"),
        **dict.fromkeys("ѕ", "s"), **dict.fromkeys("і", "i"), **dict.fromkeys("ј", "j"),
        **dict.fromkeys("ԁ", "d"), **dict.fromkeys("ԛ", "q"), **dict.fromkeys("ԝ", "w"),
        **dict.fromkeys("ӏ", "l"),
        **dict.fromkeys("α", "a"), **dict.fromkeys("β", "b"), **dict.fromkeys("ε", "e"),
        **dict.fromkeys("ζ", "z"), **dict.fromkeys("η", "h"), **dict.fromkeys("ι", "i"),
        **dict.fromkeys("κ", "k"), **dict.fromkeys("μ", "m"), **dict.fromkeys("ν", "n"),
        **dict.fromkeys("ο", "o"), **dict.fromkeys("ρ", "p"), **dict.fromkeys("τ", "t"),
        **dict.fromkeys("υ", "y"), **dict.fromkeys("χ", "x"),
    }
)  # fmt: skip
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def _bad(message: str, message_ja: str) -> LobbyError:
    return LobbyError("bad_name", message, status=400, message_ja=message_ja)


def refused_character(name: str) -> str | None:
    """The first character of ``name`` that no name may hold, or ``None``."""
    for ch in name:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ord(ch) in _INVISIBLE:
            return ch
    return None


ID_MARK = "~"
"""What begins a profile reference that is a player's id, not a name (``/u/~ID``,
:func:`septet.server.players.profiles.find_player`): no name may begin with it."""


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
    if len(scripts_of(stripped)) > 1:
        raise _bad("Names may not mix Latin, Cyrillic and Greek letters (they can look alike).",
                   "名前にラテン文字・キリル文字・ギリシャ文字を混ぜることはできません"
                   "（見分けにくいため）。")  # fmt: skip
    if unicodedata.normalize("NFKC", stripped).startswith(ID_MARK):
        raise _bad(f"Names may not begin with {ID_MARK} (it marks a player's id in links).",
                   f"名前を{ID_MARK}で始めることはできません"
                   "（リンクでプレイヤーIDを表す記号です）。")  # fmt: skip
    key = name_key(stripped)
    if not key:
        raise _bad("Choose a name (at least one visible character).",
                   "名前を入力してください（見える文字を1文字以上）。")  # fmt: skip
    if len(stripped) > MAX_NAME or len(key) > MAX_KEY:
        raise _bad(f"Names have at most {MAX_NAME} characters.",
                   f"名前は{MAX_NAME}文字までです。")  # fmt: skip
    return stripped


def scripts_of(name: str) -> set[str]:
    """Which of Latin, Cyrillic and Greek the letters of ``name`` are written in."""
    found = set()
    for ch in unicodedata.normalize("NFKC", name):
        if unicodedata.category(ch).startswith("L"):
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in _SCRIPTS:
                found.add(script)
    return found


def legacy_key(name: str) -> str:
    """The key of accounts made before :func:`name_key` read look-alike letters: NFKC, case
    folded, NFKC again, spaces (any width) collapsed to one and trimmed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def name_key(name: str) -> str:
    """The key under which ``name`` is unique among accounts: :func:`legacy_key` with the
    Cyrillic and Greek look-alikes of Latin letters read as those.
    ``name_key("Ａｋｉ ") == name_key("АКІ") == "aki"``."""
    return legacy_key(name).translate(_LOOK_ALIKE)


def name_keys(name: str) -> tuple[str, ...]:
    """The keys an account named ``name`` may be stored under: :func:`name_key`, and
    :func:`legacy_key` when it differs (accounts made before look-alikes were read)."""
    key, old = name_key(name), legacy_key(name)
    return (key,) if key == old else (key, old)
