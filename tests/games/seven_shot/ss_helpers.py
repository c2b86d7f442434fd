"""Helpers for the Seven Shot tests: hand-built deals and card plays by notation."""

from __future__ import annotations

from collections.abc import Sequence

from septet.games import get
from septet.games.seven_shot import SevenShot, SevenShotState
from septet.games.seven_shot.cards import CARD_NAMES, HAND_SIZES, SUIT_LETTERS, SUIT_OF


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
