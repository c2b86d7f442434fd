"""Seven Shot actions and chance outcomes, with their notation and integer encoding.

Notation (context-free; ``action_from_str(str(a)) == a``):

- ``F7``: play the card F7 to the trick (SS-3.1); ``play F7`` is read too.
- ``pass F7``: choose F7 as one of the 3 cards to pass (SS-2.3 / SS-5.2). A seat chooses its
  cards one at a time; the choices stay hidden from the others until every seat has chosen.
- ``deal F7`` (chance): the next card of the deal is F7 (SS-2.2); cards go round the table from
  seat 0, one at a time, and the 49th card is the trump indicator.
- ``first 2`` (chance): seat 2 leads the first trick of the first deal (SS-2.4).

Integer encoding of player actions (RL), declared in :func:`encoding` (version
:data:`ENCODING_VERSION`): ``0..48`` play card ``c``; ``49..97`` pass card ``c-49``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from septet.core.encoding import ActionEncoding, ActionKind, Arg, Args
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


ENCODING_VERSION: Final = 1
"""Raise it whenever an id moves (tests pin a sample of ids)."""

_CARD = Arg("card", NUM_CARDS, meaning="card id 0..48 (suit x 7 + rank)")


def _args_of(action: object) -> tuple[str, Args]:
    t = type(action)
    if t is Play:
        return "play", (action.card,)  # type: ignore[attr-defined]
    if t is Pass:
        return "pass", (action.card,)  # type: ignore[attr-defined]
    if t is Deal:
        return "deal", (action.card,)  # type: ignore[attr-defined]
    if t is FirstLeader:
        return "first", (action.seat,)  # type: ignore[attr-defined]
    raise ValueError(f"{action!r} is not a Seven Shot action")


def _build(kind: str, args: Args) -> SevenShotAction:
    table: dict[str, tuple[SevenShotAction, ...]] = {
        "play": PLAYS,
        "pass": PASSES,
        "deal": DEALS,
        "first": FIRSTS,
    }
    return table[kind][args[0]]


def encoding(n: int) -> ActionEncoding:
    """The declared encoding for ``n`` players (the same ids for 3 and 4)."""
    return ActionEncoding(
        "seven-shot",
        ENCODING_VERSION,
        [
            ActionKind("play", (_CARD,), "play the card to the trick (SS-3.1)"),
            ActionKind("pass", (_CARD,), "choose the card as one to pass (SS-2.3, SS-5.2)"),
        ],
        _args_of,
        _build,
        chance_kinds=[
            ActionKind("deal", (_CARD,), "chance: the next card dealt (SS-2.2)"),
            ActionKind("first", (Arg("seat", n),), "chance: the first leader (SS-2.4)"),
        ],
    )
