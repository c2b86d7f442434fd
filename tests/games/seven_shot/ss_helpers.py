"""Helpers for the Seven Shot tests: hand-built deals and card plays by notation."""

from __future__ import annotations

from collections.abc import Sequence

from septet.games import get
from septet.games.seven_shot import SevenShot, SevenShotState
from septet.games.seven_shot.cards import CARD_NAMES, HAND_SIZES, SUIT_LETTERS, SUIT_OF


def cards(text: str) -> list[str]:
    """The card names of a space-separated list."""
    return text.split()


def fill_hands(
    n: int,
    fixed: Sequence[Sequence[str]],
    indicator: str,
    voids: dict[int, str] | None = None,
) -> list[list[str]]:
    """Complete ``fixed`` (cards per seat) to full hands with the remaining cards, in deck order,
    each card to the seat with the most room that is not listed void in its suit
    (``voids = {seat: "WE"}``). Deterministic."""
    voids = voids or {}
    hands = [list(h) for h in fixed] + [[] for _ in range(n - len(fixed))]
    used = {c for h in hands for c in h} | {indicator}
    size = HAND_SIZES[n]
    for c in range(49):
        name = CARD_NAMES[c]
        if name in used:
            continue
        letter = SUIT_LETTERS[SUIT_OF[c]]
        seats = [s for s in range(n) if len(hands[s]) < size and letter not in voids.get(s, "")]
        assert seats, f"cannot place {name}"
        seat = max(seats, key=lambda s: (size - len(hands[s]), -s))
        hands[seat].append(name)
    return hands


def play(state: SevenShotState, cards: str) -> None:
    """Play the cards (space-separated notation) in turn."""
    game = state.game
    for text in cards.split():
        state.apply(game.parse_action(state, text))


def game(**options: object) -> SevenShot:
    """The registered game with ``options``."""
    g = get("seven-shot", **options)
    assert isinstance(g, SevenShot)
    return g


# SS-4.2 scenario (4 players, no pass, trump G7 indicator, seat 1 leads): team B wins the first
# seven tricks, each led by seat 1 with the top card played.
SEVEN_TRICKS_HANDS = [
    cards("S4 M3 F5 W6 T8 E10 G9 S5 S7 M6 F7 W9"),
    cards("S6 M8 F9 W10 T11 E13 G12 S1 W7 M4 F6 G10"),
    cards("S2 M2 F3 W4 T5 E8 G6 T9 T10 G11 E11 E12"),
    cards("S3 M7 F4 W5 T6 E9 G8 T7 E7 M5 F8 W8"),
]
SEVEN_TRICKS_PLAYS = (
    "S6 S2 S3 S4  M8 M2 M7 M3  F9 F3 F4 F5  W10 W4 W5 W6  T11 T5 T6 T8  E13 E8 E9 E10  G12 G6 G8 G9"
)
