"""The Flip 7 rules that more than one place needs, each once, as pure functions.

The engine (:mod:`.state`), the scoring helpers (:mod:`.scoring`), the greedy bot and the
expected-value solvers (:mod:`septet.bots.flip7_ev`) all import these instead of writing the rule
again. Rule ids refer to ``shared/rules/flip7-vengeance.md``.

Cards are the kinds of :mod:`.cards` (ints). Nothing here knows a State: callers pass the few
facts of a row that a rule reads (how many cards of a value it holds, whether it holds the Lucky
13 or a Second Chance), so that the engine's bit masks, the greedy bot's lists and the solver's
compressed rows can all ask the same question.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from septet.games.flip7.cards import IS_NUM, IS_ROW, L13, SECOND, U7, VALUE

FLIP7_BONUS: Final = 15
"""Points a Flip 7 adds (F7V-7.2), or, in brutal mode, takes from one other player (F7V-8.3)."""
FLIP7_CARDS: Final = 7
"""Number cards that make a Flip 7 and end the round at once (F7V-3.4, F7V-7)."""
FLIP4_CARDS: Final = 4
"""Cards a Flip 4! makes its target flip, one by one (F7V-4.8)."""
FLIP3_CARDS: Final = 3
"""Cards a classic Flip Three makes its target flip (F7V-9: like Flip 4 with 3 cards)."""


class Arrival(IntEnum):
    """What a number card does when it arrives in a live row (:func:`number_arrival`)."""

    KEEP = 0
    """It joins the row."""
    BUST = 1
    """A duplicate: the row busts (F7V-2)."""
    SAVED = 2
    """A duplicate saved by the row's Second Chance: both are discarded (F7V-9)."""
    UNLUCKY7 = 3
    """The Unlucky 7: the row's numbers and modifiers are discarded, it stays (F7V-6.2)."""


def unlucky7_discards(kind: int) -> bool:
    """Whether an arriving Unlucky 7 discards card ``kind`` from the row (F7V-6.2): every
    number and modifier card, an Unlucky 7 already there included; action cards held (a
    classic Second Chance) stay. So a row holds one Unlucky 7 at most, even with two decks."""
    return IS_ROW[kind]


def copies_allowed(value: int, *, vengeance: bool, lucky: bool) -> int:
    """How many number cards of ``value`` a live row may hold: 1 (F7V-2), or 2 for value 13 in
    Vengeance when one of them is the Lucky 13 (``lucky``: the Lucky 13 is among them, F7V-6.3).
    """
    return 2 if lucky and value == 13 and vengeance else 1


def number_arrival(
    kind: int, same: int, lucky: bool, *, vengeance: bool, second_chance: bool
) -> Arrival:
    """What number card ``kind`` does on arriving in a live row (F7V-2, F7V-6.2, F7V-6.3, F7V-9).

    Args:
        kind: a number card kind (``cards.IS_NUM``), the Zero, Unlucky 7 and Lucky 13 included.
        same: how many number cards of the same value the row holds already (a 7 and the
            Unlucky 7 share value 7; a 13 and the Lucky 13 share 13; the Zero is value 0).
        lucky: the row already holds the Lucky 13.
        vengeance: the Vengeance edition (else classic).
        second_chance: the row holds a Second Chance (classic, F7V-9).

    Returns:
        :class:`Arrival`: ``UNLUCKY7`` for the Unlucky 7 whatever the row (it never busts);
        ``KEEP`` when the row may hold one more of the value; else ``SAVED`` with a Second
        Chance, ``BUST`` without.

    Raises:
        ValueError: ``kind`` is not a number card.
    """
    if not IS_NUM[kind]:
        raise ValueError(f"card kind {kind} is not a number card")
    if kind == U7:
        return Arrival.UNLUCKY7
    if same < copies_allowed(VALUE[kind], vengeance=vengeance, lucky=lucky or kind == L13):
        return Arrival.KEEP
    return Arrival.SAVED if second_chance else Arrival.BUST


def busts(kind: int, same: int, lucky: bool, *, vengeance: bool, second_chance: bool) -> bool:
    """Whether card ``kind`` arriving in a live row busts it (F7V-2, F7V-6.3, F7V-9); ``False``
    for cards that are not numbers. Arguments as for :func:`number_arrival`."""
    if not IS_NUM[kind]:
        return False
    arrival = number_arrival(kind, same, lucky, vengeance=vengeance, second_chance=second_chance)
    return arrival is Arrival.BUST


def row_busts(row: list[int] | tuple[int, ...], kind: int, *, vengeance: bool) -> bool:
    """Whether card ``kind`` arriving in ``row`` (card kinds of a live row) busts it: the
    facts of :func:`busts` read from the row (F7V-2, F7V-6.3, F7V-9)."""
    if not IS_NUM[kind]:
        return False
    v = VALUE[kind]
    same = sum(1 for c in row if VALUE[c] == v)
    return busts(kind, same, L13 in row, vengeance=vengeance, second_chance=SECOND in row)


def is_flip7(numbers: int) -> bool:
    """Whether a row holding ``numbers`` number cards has achieved Flip 7 (F7V-3.4, F7V-7)."""
    return numbers >= FLIP7_CARDS


def may_stay(holds_zero: bool, vengeance: bool) -> bool:
    """Whether a player may stay: not while holding the Vengeance Zero (F7V-6.1)."""
    return not (vengeance and holds_zero)


__all__ = [
    "FLIP3_CARDS",
    "FLIP4_CARDS",
    "FLIP7_BONUS",
    "FLIP7_CARDS",
    "Arrival",
    "busts",
    "copies_allowed",
    "is_flip7",
    "may_stay",
    "number_arrival",
    "row_busts",
    "unlucky7_discards",
]
