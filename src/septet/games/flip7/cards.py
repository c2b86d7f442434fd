"""Cards of Flip 7: With a Vengeance and classic Flip 7, as small integer *kinds*.

A deck is a multiset: a list of 37 counts indexed by kind (F7V-1, F7V-9). Kinds:

====  ===========  ============================================================
kind  token        card
====  ===========  ============================================================
0-13  ``0``-``13``  plain number card of that value (0 and 1..12 classic; 1..13 Vengeance)
14    ``zero``     the Zero (Vengeance special number card, value 0, F7V-6.1)
15    ``u7``       Unlucky 7 (value 7, F7V-6.2)
16    ``l13``      Lucky 13 (value 13, F7V-6.3)
17    ``/2``       ÷2 modifier (F7V-5, F7V-7.2)
18-22 ``-2``..``-10``  negative modifiers
23-27 ``+2``..``+10``  classic positive modifiers
28    ``x2``       classic ×2 modifier
29    ``jom``      Just One More! (F7V-4.4)
30    ``flip4``    Flip 4! (F7V-4.8)
31    ``swap``     Swap (F7V-4.5)
32    ``steal``    Steal (F7V-4.6)
33    ``discard``  Discard (F7V-4.7)
34    ``freeze``   classic Freeze (F7V-9)
35    ``flip3``    classic Flip Three (F7V-9)
36    ``second``   classic Second Chance (F7V-9)
====  ===========  ============================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

NUM_KINDS: Final = 37
ZERO: Final = 14
U7: Final = 15
L13: Final = 16
DIV2: Final = 17
M2, M4, M6, M8, M10 = 18, 19, 20, 21, 22
P2, P4, P6, P8, P10 = 23, 24, 25, 26, 27
X2: Final = 28
JOM: Final = 29
FLIP4: Final = 30
SWAP: Final = 31
STEAL: Final = 32
DISCARD: Final = 33
FREEZE: Final = 34
FLIP3: Final = 35
SECOND: Final = 36

TOKENS: Final[tuple[str, ...]] = (
    *(str(v) for v in range(14)),
    "zero",
    "u7",
    "l13",
    "/2",
    "-2",
    "-4",
    "-6",
    "-8",
    "-10",
    "+2",
    "+4",
    "+6",
    "+8",
    "+10",
    "x2",
    "jom",
    "flip4",
    "swap",
    "steal",
    "discard",
    "freeze",
    "flip3",
    "second",
)
KIND_OF_TOKEN: Final[dict[str, int]] = {t: k for k, t in enumerate(TOKENS)}

VALUE: Final[tuple[int, ...]] = (*range(14), 0, 7, 13, *([-1] * 20))
"""Number value per kind; -1 for modifiers and actions."""
IS_NUM: Final[tuple[bool, ...]] = tuple(v >= 0 for v in VALUE)
IS_MOD: Final[tuple[bool, ...]] = tuple(DIV2 <= k <= X2 for k in range(NUM_KINDS))
IS_ACT: Final[tuple[bool, ...]] = tuple(k >= JOM for k in range(NUM_KINDS))
MOD_ADD: Final[tuple[int, ...]] = tuple(
    {M2: -2, M4: -4, M6: -6, M8: -8, M10: -10, P2: 2, P4: 4, P6: 6, P8: 8, P10: 10}.get(k, 0)
    for k in range(NUM_KINDS)
)
"""The points a modifier adds (negative for −2..−10); 0 for ÷2, ×2 and non-modifiers."""
IS_ROW: Final[tuple[bool, ...]] = tuple(IS_NUM[k] or IS_MOD[k] for k in range(NUM_KINDS))


def row_arithmetic(
    row: Sequence[int], vengeance: bool, brutal: bool = False, flip7: bool = False
) -> tuple[int, int, int, bool, bool, int]:
    """The steps of a live row's round score (F7V-7.2, F7V-9), before the Flip 7 bonus and the
    brutal penalty: ``(number_sum, after_multiplier, modifier_sum, floored, zeroed, points)``.

    ``number_sum`` is the number cards' sum; ``after_multiplier`` that sum halved (rounding down)
    for each ÷2, or doubled for each ×2; ``modifier_sum`` the ± modifiers; ``floored`` says the
    result was raised to 0 (not below 0 unless ``brutal``, F7V-8.1); ``zeroed`` says the Zero made
    it 0 (unless the row achieved Flip 7, ``flip7``, F7V-6.1); ``points`` is the result.

    Args:
        row: card kinds in the row (numbers, modifiers, special cards).
        vengeance: the Vengeance edition (else classic).
    """
    s = sum(VALUE[c] for c in row if IS_NUM[c])
    mult = s
    if vengeance:
        for _ in range(row.count(DIV2)):
            mult //= 2
    else:
        for _ in range(row.count(X2)):
            mult *= 2
    add = sum(MOD_ADD[c] for c in row)
    points = mult + add
    floored = vengeance and not brutal and points < 0
    if floored:
        points = 0
    zeroed = vengeance and ZERO in row and not flip7
    if zeroed:
        points = 0
    return s, mult, add, floored, zeroed, points


def row_points(
    row: Sequence[int], vengeance: bool, brutal: bool = False, flip7: bool = False
) -> int:
    """Round score of a row that has not busted, before the Flip 7 bonus and the brutal
    penalty (F7V-7.2, F7V-9): the number cards' sum, halved (rounding down) for each ÷2 or
    doubled for each ×2, then the ± modifiers; not below 0 unless ``brutal`` (F7V-8.1); 0 with
    the Zero unless the row achieved Flip 7 (``flip7``, F7V-6.1). The last step of
    :func:`row_arithmetic`.

    Args:
        row: card kinds in the row (numbers, modifiers, special cards).
        vengeance: the Vengeance edition (else classic).
    """
    return row_arithmetic(row, vengeance, brutal, flip7)[5]


def vengeance_deck() -> list[int]:
    """Counts per kind of one Vengeance deck (108 cards, F7V-1)."""
    c = [0] * NUM_KINDS
    for v in range(1, 14):
        c[v] = v
    c[7] -= 1  # one of the 7s is the Unlucky 7
    c[13] -= 1  # one of the 13s is the Lucky 13
    for k in (ZERO, U7, L13, DIV2, M2, M4, M6, M8, M10):
        c[k] = 1
    for k in (JOM, FLIP4, SWAP, STEAL, DISCARD):
        c[k] = 2
    return c


def classic_deck() -> list[int]:
    """Counts per kind of one classic Flip 7 deck (94 cards, F7V-9)."""
    c = [0] * NUM_KINDS
    c[0] = 1
    for v in range(1, 13):
        c[v] = v
    for k in (P2, P4, P6, P8, P10, X2):
        c[k] = 1
    for k in (FREEZE, FLIP3, SECOND):
        c[k] = 3
    return c


VENGEANCE_KINDS: Final = tuple(k for k, c in enumerate(vengeance_deck()) if c)
CLASSIC_KINDS: Final = tuple(k for k, c in enumerate(classic_deck()) if c)
VENGEANCE_ROW_KINDS: Final = tuple(k for k in VENGEANCE_KINDS if IS_ROW[k])
"""Kinds that can lie face up in a Vengeance row (22): the cards Swap/Steal/Discard pick."""
CLASSIC_ROW_KINDS: Final = (*(k for k in CLASSIC_KINDS if IS_ROW[k]), SECOND)

NAMES_EN: Final[dict[int, str]] = {
    ZERO: "Zero",
    U7: "Unlucky 7",
    L13: "Lucky 13",
    DIV2: "÷2",
    X2: "×2",
    JOM: "Just One More!",
    FLIP4: "Flip 4!",
    SWAP: "Swap",
    STEAL: "Steal",
    DISCARD: "Discard",
    FREEZE: "Freeze",
    FLIP3: "Flip Three",
    SECOND: "Second Chance",
}
NAMES_JA: Final[dict[int, str]] = {
    # The Japanese rulebook's names (shared/rules/source/002), with Japanese full-width "！".
    ZERO: "ゼロ",
    U7: "アンラッキー7",
    L13: "ラッキー13",
    DIV2: "÷2",
    X2: "×2",
    JOM: "ジャスト・ワンモア！",
    FLIP4: "フリップ4！",
    SWAP: "スワップ",
    STEAL: "スティール",
    DISCARD: "ディスカード",
    FREEZE: "フリーズ",
    FLIP3: "フリップ3",
    SECOND: "セカンドチャンス",
}


def card_name(kind: int, lang: str = "en") -> str:
    """A card's display name (``"Lucky 13"``, ``"ラッキー13"``, ``"-4"``, ``"7"``)."""
    names = NAMES_JA if lang == "ja" else NAMES_EN
    name = names.get(kind)
    if name is not None:
        return name
    return TOKENS[kind].replace("-", "−")
