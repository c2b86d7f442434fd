"""Seat placeholders in engine texts and names in their place (``septet.core.text``)."""

from __future__ import annotations

from septet.core.text import relabel, seat_ref

NAMES = ["You", "Ben", "Cleo"]


def test_names_replace_seat_references() -> None:
    assert seat_ref(2) == "P2"
    assert relabel("P1 plays Flip 4! on P2", NAMES) == "Ben plays Flip 4! on Cleo"
    assert relabel("P1がP2にフリップ4！を出した", ["あなた", "けんた", "さくら"], lang="ja") == (
        "けんたがさくらにフリップ4！を出した"
    )
    # Only whole references to seats that exist: P12 and XP1 are left alone.
    assert relabel("P12 and XP1 and P1", NAMES) == "P12 and XP1 and Ben"


def test_the_reader_is_addressed_as_you_in_english() -> None:
    def you(text: str) -> str:
        return relabel(text, NAMES, you=0)

    assert you("P0 hits") == "You hit"
    assert you("P0 busts: another 5!") == "You bust: another 5!"
    assert you("P0 passes") == "You pass"
    assert you("P0 exchanges their 4 foxes for P1's 4 frogs") == (
        "You exchange your 4 foxes for Ben's 4 frogs"
    )
    assert you("P0 is dealt the A") == "You are dealt the A"
    assert you("P0 has chosen 3 cards to pass") == "You have chosen 3 cards to pass"
    assert you("P1 steals P0's 5") == "Ben steals your 5"
    assert you("P0 plays Flip 4! on themselves") == "You play Flip 4! on yourself"
    assert you("Seven! P0's family reaches 7 frogs and P0 takes a 7 token") == (
        "Seven! Your family reaches 7 frogs and you take a 7 token"
    )
    assert you("It is P0's turn") == "It is your turn"
    assert you("Game over: P0 and P2 win") == "Game over: you and Cleo win"
    assert you("P0 drew a fox") == "You drew a fox"
    # Another seat's sentence keeps its third person and its "their".
    assert you("P1 exchanges their 4 foxes for P0's 4 frogs") == (
        "Ben exchanges their 4 foxes for your 4 frogs"
    )
    # Japanese needs no change of form.
    assert relabel("P0がヒットした", ["あなた"], you=0, lang="ja") == "あなたがヒットした"
