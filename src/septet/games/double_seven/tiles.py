"""Tiles of Double Seven (DS-1): eight animals and the clover, as small ints.

A tile type is an int: ``0..7`` the animals in the order of the rules (bird, squirrel, fox,
butterfly, swan, frog, deer, rabbit) and ``8`` the clover (the wild tile). Racks, the pile, the
display and the removed tiles are lists of 9 counts indexed by tile type.

A family is a tuple ``(animal, animals, clovers)``: its animal (0..7), how many animal tiles and
how many clovers it holds (DS-5.7: ``animals >= 1``). Its notation is ``fox3+1`` (3 foxes and a
clover) or ``fox3`` (no clover).
"""

from __future__ import annotations

import re
from typing import Final, TypeAlias

from septet.core.errors import NotationError

Tile: TypeAlias = int
"""A tile type: 0..7 an animal, 8 the clover."""

Family: TypeAlias = tuple[int, int, int]
"""``(animal, animals, clovers)``: a family on the table (DS-5.1, DS-5.7)."""

NUM_ANIMALS: Final = 8
CLOVER: Final = 8
NUM_TYPES: Final = 9
TILES_PER_ANIMAL: Final = 11
NUM_CLOVERS: Final = 3
NUM_TILES: Final = NUM_ANIMALS * TILES_PER_ANIMAL + NUM_CLOVERS  # 91, DS-1.1
NUM_SEVEN_TOKENS: Final = 8  # DS-1.2
MAX_FAMILY: Final = TILES_PER_ANIMAL + NUM_CLOVERS  # every tile of one animal and every clover
FULL_SET: Final = (TILES_PER_ANIMAL,) * NUM_ANIMALS + (NUM_CLOVERS,)

NAMES_EN: Final = (
    "bird",
    "squirrel",
    "fox",
    "butterfly",
    "swan",
    "frog",
    "deer",
    "rabbit",
    "clover",
)
NAMES_JA: Final = ("鳥", "リス", "キツネ", "蝶", "白鳥", "カエル", "鹿", "ウサギ", "クローバー")
PLURALS_EN: Final = (
    "birds",
    "squirrels",
    "foxes",
    "butterflies",
    "swans",
    "frogs",
    "deer",
    "rabbits",
    "clovers",
)

_BY_NAME: dict[str, int] = {}
for _i, _n in enumerate(NAMES_EN):
    _BY_NAME[_n] = _i
for _i, _n in enumerate(NAMES_JA):
    _BY_NAME[_n] = _i
for _i, _n in enumerate(PLURALS_EN):
    _BY_NAME[_n] = _i


def tile_name(tile: Tile, lang: str = "en") -> str:
    """The name of a tile type in ``lang`` (``"en"`` or ``"ja"``)."""
    return (NAMES_JA if lang == "ja" else NAMES_EN)[tile]


def tile_from_name(name: str) -> Tile:
    """The tile type named ``name`` (English singular or plural, or Japanese).

    Raises:
        NotationError: no tile has that name.
    """
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise NotationError(
            f"unknown tile {name!r}; tiles are: {', '.join(NAMES_EN)}",
            rule="DS-1.1",
            reason_ja=f"{name!r}というタイルはありません。タイル: {', '.join(NAMES_EN)}",
        ) from None


def family_str(family: Family) -> str:
    """The notation of a family (or of tiles of one animal plus clovers): ``fox3+1``, ``fox3``."""
    a, k, c = family
    return f"{NAMES_EN[a]}{k}+{c}" if c else f"{NAMES_EN[a]}{k}"


_FAMILY_RE = re.compile(r"^([a-z]+)(\d+)(?:\+(\d+))?$")


def family_from_str(text: str) -> Family:
    """Read ``fox3+1`` / ``fox3`` (inverse of :func:`family_str`).

    Raises:
        NotationError: not in that form, not an animal, or no animal tile (DS-5.7).
    """
    m = _FAMILY_RE.match(text.strip().lower())
    if not m:
        raise NotationError(
            f"{text!r} is not a family like 'fox3' or 'fox3+1'",
            reason_ja=f"{text!r}は家族の書き方ではありません（例: fox3、fox3+1）",
        )
    a = tile_from_name(m.group(1))
    if a == CLOVER:
        raise NotationError(
            f"{text!r}: a family is named by its animal, not clover",
            "DS-5.7",
            reason_ja=f"{text!r}: 家族は動物の名前で書きます（クローバーではなく）",
        )
    k = int(m.group(2))
    c = int(m.group(3) or 0)
    if k < 1:
        raise NotationError(
            f"{text!r}: a family holds at least one {NAMES_EN[a]}",
            "DS-5.7",
            reason_ja=f"{text!r}: 家族には{NAMES_JA[a]}が1枚以上必要です",
        )
    if k > TILES_PER_ANIMAL or c > NUM_CLOVERS:
        raise NotationError(
            f"{text!r}: there are only {TILES_PER_ANIMAL} tiles per animal and "
            f"{NUM_CLOVERS} clovers",
            "DS-1.1",
            reason_ja=f"{text!r}: タイルは動物ごとに{TILES_PER_ANIMAL}枚、"
            f"クローバーは{NUM_CLOVERS}枚しかありません",
        )
    return (a, k, c)


def counts_to_json(counts: list[int] | tuple[int, ...]) -> dict[str, int]:
    """``{name: count}`` for the non-zero counts of a 9-count list, in tile order."""
    return {NAMES_EN[t]: n for t, n in enumerate(counts) if n}


def counts_from_json(data: object) -> list[int]:
    """Inverse of :func:`counts_to_json`.

    Raises:
        NotationError: an unknown tile name; ValueError: a count that is not a non-negative int.
    """
    out = [0] * NUM_TYPES
    if not isinstance(data, dict):
        raise ValueError(f"tile counts must be an object, not {data!r}")
    for name, n in data.items():
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"bad tile count {n!r} for {name!r}")
        out[tile_from_name(str(name))] += n
    return out


def family_size(family: Family) -> int:
    """Tiles in a family (its points, DS-8.1)."""
    return family[1] + family[2]
