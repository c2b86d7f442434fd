"""Seven Shot actions and chance outcomes, with their notation and integer encoding.

Notation (context-free; ``action_from_str(str(a)) == a``):

- ``F7``: play the card F7 to the trick (SS-3.1); ``play F7`` is read too.
- ``pass F7``: choose F7 as one of the 3 cards to pass (SS-2.3 / SS-5.2). A seat chooses its
  cards one at a time; the choices stay hidden from the others until every seat has chosen.
- ``deal F7`` (chance): the next card of the deal is F7 (SS-2.2); cards go round the table from
  seat 0, one at a time, and the 49th card is the trump indicator.
- ``first 2`` (chance): seat 2 leads the first trick of the first deal (SS-2.4).

Integer encoding of player actions (RL): ``0..48`` play card ``c``; ``49..97`` pass card ``c-49``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from septet.core.errors import NotationError
from septet.games.seven_shot.cards import CARD_NAMES, NUM_CARDS, parse_card


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (0..48) to the current trick (SS-3.1)."""

    card: int

    def __str__(self) -> str:
        return CARD_NAMES[self.card]


@dataclass(frozen=True, slots=True)
class Pass:
    """Choose ``card`` as one of the cards to pass (SS-2.3, SS-5.2)."""

    card: int

    def __str__(self) -> str:
        return "pass " + CARD_NAMES[self.card]


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance outcome: the next card dealt is ``card`` (SS-2.2)."""

    card: int

    def __str__(self) -> str:
        return "deal " + CARD_NAMES[self.card]


@dataclass(frozen=True, slots=True)
class FirstLeader:
    """Chance outcome: ``seat`` leads the first trick of the first deal (SS-2.4)."""

    seat: int

    def __str__(self) -> str:
        return f"first {self.seat}"


SevenShotAction = Play | Pass | Deal | FirstLeader

# Interned instances: the engine hands these out so that hot loops allocate nothing.
PLAYS: Final = tuple(Play(c) for c in range(NUM_CARDS))
PASSES: Final = tuple(Pass(c) for c in range(NUM_CARDS))
DEALS: Final = tuple(Deal(c) for c in range(NUM_CARDS))
FIRSTS: Final = tuple(FirstLeader(s) for s in range(4))
NUM_DISTINCT_ACTIONS: Final = 2 * NUM_CARDS


def action_from_str(text: str) -> SevenShotAction:
    """Read an action or chance outcome from its notation (see the module docstring).

    Raises:
        NotationError: not in the notation.
    """
    t = " ".join(text.strip().split())
    word, _, rest = t.partition(" ")
    low = word.lower()
    if not rest:
        if low in ("pass", "deal", "play", "first"):
            raise NotationError(
                f"{text!r}: a card (or a seat for 'first') must follow {word!r}",
                reason_ja=f"{text!r}: {word!r}の後にカード（firstなら席番号）を書いてください",
            )
        return PLAYS[parse_card(word)]
    if low == "play":
        return PLAYS[parse_card(rest)]
    if low == "pass":
        return PASSES[parse_card(rest)]
    if low == "deal":
        return DEALS[parse_card(rest)]
    if low == "first":
        if rest.isdigit() and int(rest) < len(FIRSTS):
            return FIRSTS[int(rest)]
        raise NotationError(
            f"{text!r}: 'first' takes a seat number 0..3",
            reason_ja=f"{text!r}: firstの後には席番号（0〜3）を書いてください",
        )
    raise NotationError(
        f"{text!r} is not a Seven Shot action: write a card (F7), 'pass F7', 'deal F7' "
        "or 'first 2'",
        reason_ja=f"{text!r}はセブンショットのアクションではありません。カード（F7）、pass F7、"
        "deal F7、first 2 のように書いてください",
    )


def action_to_id(action: object) -> int:
    """The integer id of a player action (see the module docstring).

    Raises:
        ValueError: a chance outcome or something that is not a Seven Shot action.
    """
    if isinstance(action, Play) and 0 <= action.card < NUM_CARDS:
        return action.card
    if isinstance(action, Pass) and 0 <= action.card < NUM_CARDS:
        return NUM_CARDS + action.card
    raise ValueError(f"{action!r} is not a Seven Shot player action")


def id_to_action(action_id: int) -> SevenShotAction:
    """Inverse of :func:`action_to_id`.

    Raises:
        ValueError: id outside ``0..97``.
    """
    if 0 <= action_id < NUM_CARDS:
        return PLAYS[action_id]
    if NUM_CARDS <= action_id < NUM_DISTINCT_ACTIONS:
        return PASSES[action_id - NUM_CARDS]
    raise ValueError(f"action id {action_id} is outside 0..{NUM_DISTINCT_ACTIONS - 1}")
