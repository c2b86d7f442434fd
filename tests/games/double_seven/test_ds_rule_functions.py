"""The pure rule functions of ``septet.games.double_seven.rules`` on hand-worked cases.

Families are ``(animal, animals, clovers)``; animal 0 is any animal (the rules do not care which).
"""

from __future__ import annotations

from septet.games.double_seven.rules import (
    earns_seven,
    takes_77_on_seven,
    takes_77_with_two_families,
)


def test_seven_from_six_or_fewer_to_seven_or_more() -> None:
    # DS-5.3 Seven!: 6 -> 7 and 5 -> 8 earn a token; 7 -> 8 (already 7) and 4 -> 6 do not.
    assert earns_seven(6, 7, sevens_left=8)
    assert earns_seven(5, 8, sevens_left=1)
    assert not earns_seven(7, 8, sevens_left=8)
    assert not earns_seven(4, 6, sevens_left=8)


def test_no_seven_when_the_tokens_are_gone() -> None:
    # DS-5.3: "take a 7 token (if any are left)".
    assert not earns_seven(6, 7, sevens_left=0)


def test_double_seven_by_the_second_token() -> None:
    # DS-5.3 default ruling: the first player to take a second 7 token takes the 77 token.
    assert takes_77_on_seven(sevens_after=2, holder77=-1)
    assert not takes_77_on_seven(sevens_after=1, holder77=-1)
    assert not takes_77_on_seven(sevens_after=2, holder77=0)  # somebody holds it already
    assert not takes_77_on_seven(sevens_after=3, holder77=-1)  # not the second token


def test_double_seven_by_two_families_of_seven() -> None:
    # DS-5.3 option two_families: two families of 7+ tiles (clovers count) take the 77 token.
    assert takes_77_with_two_families([(0, 7, 0), (1, 5, 2), (2, 3, 0)], holder77=-1)
    assert not takes_77_with_two_families([(0, 7, 0), (1, 5, 1)], holder77=-1)  # 7 and 6
    assert not takes_77_with_two_families([(0, 7, 0), (1, 8, 0)], holder77=2)
    assert not takes_77_with_two_families([], holder77=-1)
