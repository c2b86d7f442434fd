"""Seven Shot's trick rules, each once, as pure functions on ints (engine and bots import them).

Cards are ints ``0..48`` and sets of cards bit masks (:mod:`septet.games.seven_shot.cards`);
suits are ``0..6``. Rule ids from ``shared/rules/seven-shot.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from septet.games.seven_shot.cards import ACE, RANK_OF, SUIT_MASK, SUIT_OF

HowWon = Literal["ace", "trump", "suit"]

TEAM_PLAYERS: Final = 4
"""The player count that plays in two teams, partners opposite (SS-2, SS-2.1); with 3 players
each plays for themselves (SS-5.1). The compiled kernels (``septet.fast.seven_shot``) compare
with this constant; Python code asks :func:`team_play`."""


def team_play(num_players: int) -> bool:
    """Whether ``num_players`` play in two teams, partners opposite (SS-2.1), not alone (SS-5.1)."""
    return num_players == TEAM_PLAYERS


def num_sides(num_players: int) -> int:
    """How many sides score: 2 teams with 4 players (SS-2.1), else one per player (SS-5.1)."""
    return 2 if team_play(num_players) else num_players


def side_of(seat: int, num_players: int) -> int:
    """The side of ``seat``: its team (seats 0 & 2 are team 0, 1 & 3 team 1, SS-2.1), or the
    seat itself with 3 players (SS-5.1)."""
    return seat % 2 if team_play(num_players) else seat


def playable(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played to a trick (SS-3.1).

    Args:
        hand: the player's cards (mask).
        led: the suit led to the trick (``0..6``), or ``-1`` when the player leads.

    Returns:
        A mask: the cards of the led suit if the hand holds any (follow suit), else the whole
        hand (a player who leads, or cannot follow, plays any card).
    """
    if led < 0:
        return hand
    m = hand & SUIT_MASK[led]
    return m if m else hand


def card_power(card: int, led: int, trump: int) -> int:
    """How strong ``card`` is in a trick led in suit ``led`` with trump suit ``trump`` (SS-3.2).

    The A beats everything (1000), then trumps (``100 + rank``), then the led suit (its rank);
    a card of any other suit cannot win (-1). The card with the greatest power wins the trick,
    and two cards never tie (a suit holds each rank once).
    """
    if card == ACE:
        return 1000
    s = SUIT_OF[card]
    if s == trump:
        return 100 + RANK_OF[card]
    if s == led:
        return RANK_OF[card]
    return -1


def trick_winner(cards: Sequence[int], trump: int) -> tuple[int, HowWon]:
    """The winning card of a (possibly partial) trick, SS-3.2.

    Args:
        cards: the cards played so far, in play order (the first one sets the led suit); at
            least one.
        trump: the trump suit of the deal (the indicator's suit, SS-2.2).

    Returns:
        ``(index, how)``: the position in ``cards`` of the winning card (the winner's seat is
        ``(leader + index) % num_players``) and how it wins: ``"ace"`` (the A was played),
        ``"trump"`` (the highest trump) or ``"suit"`` (the highest card of the led suit).

    Raises:
        IndexError: ``cards`` is empty.
    """
    led = SUIT_OF[cards[0]]
    best = 0
    top = card_power(cards[0], led, trump)
    for i in range(1, len(cards)):
        p = card_power(cards[i], led, trump)
        if p > top:
            best, top = i, p
    return best, how_won(cards[best], trump)


def how_won(card: int, trump: int) -> HowWon:
    """How the winning ``card`` of a trick won it (SS-3.2): ``"ace"``, ``"trump"`` or ``"suit"``
    (``trump`` is ``-1`` when unknown: then only the A is told apart)."""
    if card == ACE:
        return "ace"
    return "trump" if SUIT_OF[card] == trump else "suit"


__all__ = ["HowWon", "card_power", "how_won", "playable", "trick_winner"]
