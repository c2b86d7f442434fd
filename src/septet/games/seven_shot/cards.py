"""Seven Shot cards (SS-1): 49 cards in 7 suits of 7 consecutive ranks, as ints ``0..48``.

Card ``c`` is in suit ``c // 7`` and has rank ``c // 7 + 1 + c % 7``: suit 0 holds ranks 1–7,
suit 1 ranks 2–8, … suit 6 ranks 7–13 (SS-1.1). Within a suit a higher id is a higher rank, so
"highest card of a suit" is "highest id". Card 0 (rank 1 of suit 0) is the **A** (SS-1.2).

Sets of cards are 49-bit masks (bit ``c`` set when card ``c`` is in the set): hands, taken cards
and the like are single ints, which keeps the rules fast.

Suits (SS-1.3, the project's choice): the seven days of the Japanese week (七曜), each with a
letter (used in the notation), an English and a Japanese name, a symbol and a colour:

=====  =======  ====  ======  ======  =======
Index  Letter   Name  和名     Symbol  Ranks
=====  =======  ====  ======  ======  =======
0      S        Sun   日       ☀       1–7
1      M        Moon  月       ☾       2–8
2      F        Fire  火       ▲       3–9
3      W        Water 水       ≈       4–10
4      T        Tree  木       ♣       5–11
5      G        Gold  金       ◆       6–12
6      E        Earth 土       ■       7–13
=====  =======  ====  ======  ======  =======

Notation of a card: suit letter + rank, e.g. ``S1`` (the A), ``F7``, ``E13``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from septet.core.errors import NotationError

NUM_SUITS: Final = 7
NUM_CARDS: Final = 49
ACE: Final = 0
"""The A: rank 1 of the Sun suit (SS-1.2)."""
FULL_MASK: Final = (1 << NUM_CARDS) - 1


@dataclass(frozen=True, slots=True)
class SuitInfo:
    """Display facts of one suit (SS-1.3).

    Attributes:
        index: 0..6. letter: notation letter. en/ja: names. symbol: a text symbol (so that colour
        is never the only cue). colour_en/colour_ja: the colour. low/high: rank range.
    """

    index: int
    letter: str
    en: str
    ja: str
    symbol: str
    colour_en: str
    colour_ja: str
    low: int
    high: int


SUITS: Final = (
    SuitInfo(0, "S", "Sun", "日", "☀", "orange", "橙", 1, 7),
    SuitInfo(1, "M", "Moon", "月", "☾", "silver", "銀", 2, 8),
    SuitInfo(2, "F", "Fire", "火", "▲", "red", "赤", 3, 9),
    SuitInfo(3, "W", "Water", "水", "≈", "blue", "青", 4, 10),
    SuitInfo(4, "T", "Tree", "木", "♣", "green", "緑", 5, 11),
    SuitInfo(5, "G", "Gold", "金", "◆", "yellow", "黄", 6, 12),
    SuitInfo(6, "E", "Earth", "土", "■", "brown", "茶", 7, 13),
)
SUIT_LETTERS: Final = "SMFWTGE"

SUIT_OF: Final[tuple[int, ...]] = tuple(c // 7 for c in range(NUM_CARDS))
RANK_OF: Final[tuple[int, ...]] = tuple(c // 7 + 1 + c % 7 for c in range(NUM_CARDS))
SUIT_MASK: Final[tuple[int, ...]] = tuple(0x7F << (7 * s) for s in range(NUM_SUITS))
SEVENS: Final[tuple[int, ...]] = tuple(7 * s + (6 - s) for s in range(NUM_SUITS))
"""The seven 7s, one per suit (SS-1.1)."""
SEVEN_MASK: Final = sum(1 << c for c in SEVENS)
CARD_NAMES: Final[tuple[str, ...]] = tuple(
    f"{SUIT_LETTERS[SUIT_OF[c]]}{RANK_OF[c]}" for c in range(NUM_CARDS)
)
_BY_NAME: Final = {name: c for c, name in enumerate(CARD_NAMES)}


def card_id(suit: int, rank: int) -> int:
    """The card of ``suit`` (0..6) and ``rank``.

    Raises:
        ValueError: no such card (the rank is outside the suit's range ``suit+1 .. suit+7``).
    """
    if not (0 <= suit < NUM_SUITS) or not (suit + 1 <= rank <= suit + 7):
        raise ValueError(f"no card of suit {suit} and rank {rank}")
    return 7 * suit + rank - suit - 1


def card_str(card: int) -> str:
    """The notation of a card (``"F7"``)."""
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """Read a card from its notation (suit letter, case-insensitive, then the rank).

    Raises:
        NotationError: not a card of this deck (the message gives the suit's rank range).
    """
    t = text.strip().upper()
    card = _BY_NAME.get(t)
    if card is not None:
        return card
    if t and t[0] in SUIT_LETTERS and t[1:].isdigit():
        s = SUITS[SUIT_LETTERS.index(t[0])]
        raise NotationError(
            f"{text!r}: the {s.en} suit ({s.letter}) has ranks {s.low}–{s.high} only",
            rule="SS-1.1",
            reason_ja=f"{text!r}: {s.ja}（{s.letter}）のスートの数字は{s.low}〜{s.high}だけです",
        )
    raise NotationError(
        f"{text!r} is not a card: write a suit letter ({'/'.join(SUIT_LETTERS)}) and a rank, "
        "e.g. F7",
        rule="SS-1.1",
        reason_ja=f"{text!r}はカードではありません。スートの文字（{'/'.join(SUIT_LETTERS)}）と"
        "数字で書いてください（例: F7）",
    )


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in increasing order (suit, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    """The mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def names_of(mask: int) -> list[str]:
    """The notation of each card of a mask, in increasing order."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def mask_from_names(names: list[str] | tuple[str, ...]) -> int:
    """The mask of a list of card notations.

    Raises:
        NotationError: a name that is not a card.
    """
    m = 0
    for n in names:
        m |= 1 << parse_card(n)
    return m


def card_label(card: int, lang: str = "en") -> str:
    """A player-facing card name with its suit symbol: ``"▲F7"`` (en) or ``"▲火7"`` (ja)."""
    s = SUITS[SUIT_OF[card]]
    if lang == "ja":
        return f"{s.symbol}{s.ja}{RANK_OF[card]}"
    return f"{s.symbol}{CARD_NAMES[card]}"


def card_words(card: int, lang: str = "en") -> str:
    """A card as a player says it, without an article: ``"8 of Earth"`` / ``"土の8"``, and the
    A as ``"A"`` in both languages (SS-1.2; the Japanese rulebook writes 「A」)."""
    if card == ACE:
        return "A"
    s = SUITS[SUIT_OF[card]]
    if lang == "ja":
        return f"{s.ja}の{RANK_OF[card]}"
    return f"{RANK_OF[card]} of {s.en}"


def the_card(card: int, lang: str = "en") -> str:
    """:func:`card_words` ready for a sentence: ``"the 8 of Earth"``, ``"the A"`` (English takes
    the article; Japanese has none: ``"土の8"``)."""
    words = card_words(card, lang)
    return words if lang == "ja" else f"the {words}"


def suit_label(suit: int, lang: str = "en", *, colour: bool = True) -> str:
    """A suit with its symbol, name, rank range (and colour): ``"▲ Fire (red, 3–9)"``."""
    s = SUITS[suit]
    if lang == "ja":
        extra = f"{s.colour_ja}・{s.low}〜{s.high}" if colour else f"{s.low}〜{s.high}"
        return f"{s.symbol}{s.ja}（{extra}）"
    extra = f"{s.colour_en}, {s.low}–{s.high}" if colour else f"{s.low}–{s.high}"
    return f"{s.symbol} {s.en} ({extra})"


HAND_SIZES: Final = {3: 16, 4: 12}
"""Cards dealt to each player (SS-2.2, SS-5.1)."""
