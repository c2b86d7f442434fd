"""Double Seven's token rules, each once, as pure functions (the engine and the bots import them).

A family is ``(animal, animals, clovers)`` (:mod:`septet.games.double_seven.tiles`); its size is
its number of tiles. Rule ids from ``shared/rules/double-seven.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from septet.games.double_seven.tiles import Family

SEVEN: int = 7
"""The family size that earns a 7 token (DS-5.3)."""


def earns_seven(old_size: int, new_size: int, sevens_left: int) -> bool:
    """Seven! (DS-5.3): an expansion takes a family from 6 or fewer tiles to 7 or more while 7
    tokens are left. Starting a family, even of 7 or more tiles, earns nothing (the ruling:
    "during expansion"); sizes are tile counts, ``sevens_left`` the tokens in the supply."""
    return old_size < SEVEN <= new_size and sevens_left > 0


def takes_77_on_seven(sevens_after: int, holder77: int) -> bool:
    """Double Seven! by the default ruling (``double_seven="second_token"``, DS-5.3): the first
    player whose 7 tokens reach two (``sevens_after``, counted after the token just taken) takes
    the 77 token, if nobody holds it (``holder77`` is the holder's seat or ``-1``)."""
    return sevens_after == 2 and holder77 < 0


def takes_77_with_two_families(families: Iterable[Family], holder77: int) -> bool:
    """Double Seven! by option ``double_seven="two_families"`` (DS-5.3): after any action, a
    player with two families of 7 or more tiles takes the 77 token, if nobody holds it."""
    if holder77 >= 0:
        return False
    return sum(1 for f in families if f[1] + f[2] >= SEVEN) >= 2


__all__ = ["SEVEN", "earns_seven", "takes_77_on_seven", "takes_77_with_two_families"]
