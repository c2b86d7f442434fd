"""The pure rule functions of ``septet.games.seven_shot.rules``, on hand-worked tricks and hands.

Suits: S=0 (Sun, with the A = S1), M=1, F=2, W=3, T=4, G=5, E=6.
"""

from __future__ import annotations

from septet.games.seven_shot.cards import SUIT_LETTERS, mask_from_names, names_of, parse_card
from septet.games.seven_shot.rules import card_power, how_won, playable, trick_winner


def _ids(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _suit(letter: str) -> int:
    return SUIT_LETTERS.index(letter)


# ----- SS-3.1 follow suit ----------------------------------------------------------------------
def test_follow_suit_when_the_hand_holds_the_led_suit() -> None:
    # SS-3.1: F led, the hand holds F3 and F9: only those two may be played.
    hand = mask_from_names(["F3", "F9", "M2", "W10"])
    assert names_of(playable(hand, _suit("F"))) == ["F3", "F9"]


def test_any_card_when_void_in_the_led_suit_or_leading() -> None:
    # SS-3.1: no E card in hand: any card; the leader (led = -1) plays any card.
    hand = mask_from_names(["F3", "F9", "M2", "W10"])
    assert playable(hand, _suit("E")) == hand
    assert playable(hand, -1) == hand
    assert playable(0, _suit("F")) == 0


# ----- SS-3.2 the winner of a trick ------------------------------------------------------------
def test_highest_trump_beats_a_higher_card_of_the_led_suit() -> None:
    # SS-3.2: trump W. F5 led, F9, W4 (trump), M8: the W4 wins though F9 and M8 rank higher.
    assert trick_winner(_ids("F5 F9 W4 M8"), _suit("W")) == (2, "trump")


def test_the_highest_of_two_trumps_wins() -> None:
    # SS-3.2: trump W. T6 led, W4, W10, T11: W10 (the higher trump).
    assert trick_winner(_ids("T6 W4 W10 T11"), _suit("W")) == (2, "trump")


def test_the_ace_beats_every_trump() -> None:
    # SS-3.2: trump W. F5 led, W10, S1 (the A), F9: the A wins.
    assert trick_winner(_ids("F5 W10 S1 F9"), _suit("W")) == (2, "ace")
    # The A wins in its own suit too, even when Sun is trump: S5 S7 S1 -> the A.
    assert trick_winner(_ids("S5 S7 S1"), _suit("S")) == (2, "ace")


def test_without_trumps_the_highest_card_of_the_led_suit_wins() -> None:
    # SS-3.2: trump E. F5 led, M8 (off suit, higher rank), F9, G12: F9 wins.
    assert trick_winner(_ids("F5 M8 F9 G12"), _suit("E")) == (2, "suit")
    # The leader keeps the trick when nobody follows higher: F9, M8, F5.
    assert trick_winner(_ids("F9 M8 F5"), _suit("E")) == (0, "suit")


def test_a_lead_in_the_trump_suit() -> None:
    # SS-3.2: trump W, W5 led, W4, F9: the W5 (highest trump).
    assert trick_winner(_ids("W5 W4 F9"), _suit("W")) == (0, "trump")


def test_card_power_orders_ace_trumps_led_suit_and_the_rest() -> None:
    # SS-3.2: A > any trump > any card of the led suit > any other card (which cannot win).
    w, f = _suit("W"), _suit("F")
    powers = [card_power(c, f, w) for c in _ids("S1 W10 W4 F9 F3 E13")]
    assert powers == [1000, 110, 104, 9, 3, -1]
    assert how_won(parse_card("S1"), w) == "ace"
    assert how_won(parse_card("W4"), w) == "trump"
    assert how_won(parse_card("F9"), w) == "suit"
    assert how_won(parse_card("W4"), -1) == "suit"
