"""Double Seven's token rules, each once, as pure functions (the engine and the bots import them).

A family is ``(animal, animals, clovers)`` (:mod:`septet.games.double_seven.tiles`); its size is
its number of tiles. Rule ids from ``shared/rules/double-seven.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from septet.games.double_seven.tiles import Family

SEVEN: int = 7
"""The family size that earns a 7 token (DS-5.3)."""
MIN_FAMILY: int = 2
"""A family starts with at least 2 tiles (DS-5.1) and never shrinks (DS-5.2)."""
MIN_PLAYERS: int = 2
MAX_PLAYERS: int = 4
"""Double Seven is for 2 to 4 players (DS-1.3)."""
SEVEN_TOKEN_POINTS: int = 1
"""Points of each 7 token (DS-8.1)."""
DOUBLE_SEVEN_POINTS: int = 2
"""Points of the 77 token (DS-8.1)."""


def earns_seven(old_size: int, new_size: int, sevens_left: int) -> bool:
    """Seven! (DS-5.3): an expansion takes a family from 6 or fewer tiles to 7 or more while 7
    tokens are left. Starting a family, even of 7 or more tiles, earns nothing (the ruling:
    "during expansion"); sizes are tile counts, ``sevens_left`` the tokens in the supply."""
    return old_size < SEVEN <= new_size and sevens_left > 0


def has_two_big_families(sizes: Iterable[int]) -> bool:
    """Two or more families of 7 or more tiles (``sizes``: tile counts, clovers included): the
    condition of the 77 token by the default ruling ``double_seven="two_families"`` (DS-5.3)."""
    return sum(1 for size in sizes if size >= SEVEN) >= 2


def has_two_tokens(sevens: int) -> bool:
    """Two or more 7 tokens taken: the condition of the 77 token by option
    ``double_seven="second_token"`` (DS-5.3). Tokens are never given back, so a player who
    holds two has reached two."""
    return sevens >= 2


def qualifies_for_77(double_seven: str, sizes: Iterable[int], sevens: int) -> bool:
    """Whether a player with families of ``sizes`` tiles and ``sevens`` 7 tokens has met the
    condition of the 77 token under the option ``double_seven`` (DS-5.3): the first player to
    meet it takes the token, so at the end of a game someone holds it when anyone has met it,
    and its holder has. Families never shrink (DS-5.2) and an exchange gives back a family of
    the same size (DS-5.4), so what was met stays met.

    Raises:
        ValueError: an unknown ``double_seven`` mode.
    """
    if double_seven == "two_families":
        return has_two_big_families(sizes)
    if double_seven == "second_token":
        return has_two_tokens(sevens)
    raise ValueError(f"double_seven must be two_families or second_token, not {double_seven!r}")


def takes_77_on_seven(sevens_after: int, holder77: int) -> bool:
    """Double Seven! by option ``double_seven="second_token"`` (DS-5.3): the first player whose
    7 tokens reach two (``sevens_after``, counted after the token just taken) takes the 77
    token, if nobody holds it (``holder77`` is the holder's seat or ``-1``)."""
    return sevens_after == 2 and holder77 < 0


def takes_77_with_two_families(families: Iterable[Family], holder77: int) -> bool:
    """Double Seven! by the default ruling ``double_seven="two_families"`` (DS-5.3): after any
    action, a player with two families of 7 or more tiles takes the 77 token, if nobody holds
    it."""
    if holder77 >= 0:
        return False
    return has_two_big_families(f[1] + f[2] for f in families)


__all__ = [
    "MIN_FAMILY",
    "SEVEN",
    "earns_seven",
    "has_two_big_families",
    "has_two_tokens",
    "qualifies_for_77",
    "takes_77_on_seven",
    "takes_77_with_two_families",
]
