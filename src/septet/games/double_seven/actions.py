"""Actions and chance outcomes of Double Seven, their notation and integer encoding.

Player actions (notation in quotes; seats are absolute, 0-based; families are written by their
composition, see :mod:`.tiles`):

====================================  ===================================================  ========
``draw``                              draw the top face-down tile of the pile               DS-4.1
``take fox``                          take a face-up fox from the display                    DS-4.1
``rainbow`` / ``no-rainbow``          declare Rainbow (or not) after the draws               DS-4.3
``start fox3+1``                      start a family with 3 foxes and 1 clover               DS-5.1
``expand fox2 with fox1+1``           add 1 fox and 1 clover to my family fox2               DS-5.3
``expand fox2 with clover1``          add 1 clover only                                      DS-5.3
``exchange fox4 with 2:frog4``        swap my family fox4 for seat 2's family frog4          DS-5.4
``retrieve 1:swan2+1``                take a clover from seat 1's family swan2+1, giving a   DS-5.5
                                      swan from my rack
``two-for-one deer rabbit``           put a deer and a rabbit into the display (then draw)   DS-5.6
``pass``                              end the turn ("Pass!")                                 DS-6.1
``discard fox``                       end-of-turn discard, removed from the game             DS-6.2
====================================  ===================================================  ========

Chance outcomes: ``deal fox`` (a setup tile, DS-2.2), ``first 2`` (first player, DS-2.3),
``flip bird`` (the tile flipped face up, DS-3.1), ``pile fox`` (the tile drawn face down).

Tiles of one animal are interchangeable, so actions name tile *types* and counts: two actions
that would lead to the same position are one action. Action objects are interned (the legal-move
generator hands out the same objects every time).

Integer encoding (``action_to_id``): declared once in :func:`encoding` (version
:data:`ENCODING_VERSION`) as kinds with their arguments; the ids follow (kinds in order, each
kind's argument tuples in lexicographic order), for ``n`` players::

    0 draw | 1 rainbow | 2 no-rainbow | 3 pass | 4..12 take t | 13..21 discard t
    22..66 two-for-one (first <= second, 45 pairs)
    +352     start (animal, animals 1..11, clovers 0..3)
    +352*44  expand (the family, then added animals 0..10 and clovers 0..3)
    +P*n     exchange (my family, their equal-size family, their seat)
    +352*n   retrieve (seat, family)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from septet.core.encoding import ActionEncoding, ActionKind, Arg, Args
from septet.core.errors import NotationError

from .tiles import (
    CLOVER,
    NAMES_EN,
    NAMES_JA,
    NUM_ANIMALS,
    NUM_CLOVERS,
    NUM_TYPES,
    TILES_PER_ANIMAL,
    Family,
    Tile,
    family_from_str,
    family_str,
    tile_from_name,
)

# ----- player actions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top face-down tile (a chance node then reveals it to the drawer). DS-4.1."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take:
    """Take a face-up tile of type ``tile`` from the display. DS-4.1, DS-4.3, DS-5.6."""

    tile: Tile

    def __str__(self) -> str:
        return f"take {NAMES_EN[self.tile]}"


@dataclass(frozen=True, slots=True)
class Rainbow:
    """Declare Rainbow (``declare=True``) or decline it. DS-4.3."""

    declare: bool

    def __str__(self) -> str:
        return "rainbow" if self.declare else "no-rainbow"


@dataclass(frozen=True, slots=True)
class Start:
    """Start a new family of composition ``family`` = (animal, animals, clovers). DS-5.1."""

    family: Family

    def __str__(self) -> str:
        return f"start {family_str(self.family)}"


@dataclass(frozen=True, slots=True)
class Expand:
    """Add ``animals`` tiles of the family's animal and ``clovers`` clovers to my ``family``.
    DS-5.3."""

    family: Family
    animals: int
    clovers: int

    def __str__(self) -> str:
        if self.animals:
            added = family_str((self.family[0], self.animals, self.clovers))
        else:
            added = f"clover{self.clovers}"
        return f"expand {family_str(self.family)} with {added}"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Swap my ``family`` for the equal-size family ``other`` of seat ``seat``. DS-5.4."""

    family: Family
    seat: int
    other: Family

    def __str__(self) -> str:
        return f"exchange {family_str(self.family)} with {self.seat}:{family_str(self.other)}"


@dataclass(frozen=True, slots=True)
class Retrieve:
    """Take a clover from ``seat``'s ``family``, replacing it with a tile of that animal from my
    rack. DS-5.5."""

    seat: int
    family: Family

    def __str__(self) -> str:
        return f"retrieve {self.seat}:{family_str(self.family)}"


@dataclass(frozen=True, slots=True)
class TwoForOne:
    """Put tiles ``first`` and ``second`` (``first <= second``) face up into the display; a draw
    follows. DS-5.6."""

    first: Tile
    second: Tile

    def __str__(self) -> str:
        return f"two-for-one {NAMES_EN[self.first]} {NAMES_EN[self.second]}"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn ("Pass!"). DS-6.1."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Discard:
    """End-of-turn discard of one ``tile``, removed from the game. DS-6.2."""

    tile: Tile

    def __str__(self) -> str:
        return f"discard {NAMES_EN[self.tile]}"


# ----- chance outcomes -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the next setup tile dealt face down is a ``tile``. DS-2.2."""

    tile: Tile

    def __str__(self) -> str:
        return f"deal {NAMES_EN[self.tile]}"


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """Chance: seat ``seat`` plays first. DS-2.3."""

    seat: int

    def __str__(self) -> str:
        return f"first {self.seat}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Chance: the tile flipped face up into the empty display is a ``tile``. DS-3.1."""

    tile: Tile

    def __str__(self) -> str:
        return f"flip {NAMES_EN[self.tile]}"


@dataclass(frozen=True, slots=True)
class PileDraw:
    """Chance: the tile drawn face down is a ``tile``. DS-4.1."""

    tile: Tile

    def __str__(self) -> str:
        return f"pile {NAMES_EN[self.tile]}"


PlayerAction = (
    Draw | Take | Rainbow | Start | Expand | Exchange | Retrieve | TwoForOne | Pass | Discard
)
ChanceOutcome = Deal | FirstPlayer | Flip | PileDraw
DSAction = PlayerAction | ChanceOutcome

# ----- interned objects ----------------------------------------------------------------------

DRAW: Final = Draw()
PASS: Final = Pass()
RAINBOW_YES: Final = Rainbow(True)
RAINBOW_NO: Final = Rainbow(False)
TAKE: Final = tuple(Take(t) for t in range(NUM_TYPES))
DISCARD: Final = tuple(Discard(t) for t in range(NUM_TYPES))
DEAL: Final = tuple(Deal(t) for t in range(NUM_TYPES))
FLIP: Final = tuple(Flip(t) for t in range(NUM_TYPES))
PILE: Final = tuple(PileDraw(t) for t in range(NUM_TYPES))
FIRST: Final = tuple(FirstPlayer(s) for s in range(4))
PAIRS: Final = tuple((x, y) for x in range(NUM_TYPES) for y in range(x, NUM_TYPES))
TWO_FOR_ONE: Final = {p: TwoForOne(*p) for p in PAIRS}

#: every family composition with 1..11 animals and 0..3 clovers, in encoding order
FAMILIES: Final = tuple(
    (a, k, c)
    for a in range(NUM_ANIMALS)
    for k in range(1, TILES_PER_ANIMAL + 1)
    for c in range(NUM_CLOVERS + 1)
)
NUM_FAMILIES: Final = len(FAMILIES)  # 352
START: Final = {f: Start(f) for f in FAMILIES}
_EXPAND: dict[tuple[Family, int, int], Expand] = {}
_EXCHANGE: dict[tuple[Family, int, Family], Exchange] = {}
EXCHANGES: Final = _EXCHANGE  # read by the move generator
_RETRIEVE: dict[tuple[int, Family], Retrieve] = {}


# Hot-path tables for the move generator (state.py): every start with k animals and c clovers
# for rack counts (ra, rc), and the expansions of a family, built once.
START_LISTS: Final = tuple(
    tuple(
        tuple(
            tuple(
                START[(a, k, c)]
                for k in range(1, ra + 1)
                for c in range(0 if k >= 2 else 1, rc + 1)
            )
            for rc in range(NUM_CLOVERS + 1)
        )
        for ra in range(TILES_PER_ANIMAL + 1)
    )
    for a in range(NUM_ANIMALS)
)
_EXPAND_LISTS: dict[tuple[Family, int, int], tuple[Expand, ...]] = {}


def expand_list(f: Family, ra: int, rc: int) -> tuple[Expand, ...]:
    """Every expansion of ``f`` with up to ``ra`` of its animal and ``rc`` clovers (cached)."""
    key = (f, ra, rc)
    out = _EXPAND_LISTS.get(key)
    if out is None:
        out = _EXPAND_LISTS[key] = tuple(
            expand(f, k, c) for k in range(ra + 1) for c in range(0 if k else 1, rc + 1)
        )
    return out


def family_index(f: Family) -> int:
    """Index of a family composition in :data:`FAMILIES`.

    Raises:
        ValueError: not a composition with 1..11 animals and 0..3 clovers.
    """
    a, k, c = f
    if not (0 <= a < NUM_ANIMALS and 1 <= k <= TILES_PER_ANIMAL and 0 <= c <= NUM_CLOVERS):
        raise ValueError(f"no family {f!r} in the encoding")
    return (a * TILES_PER_ANIMAL + k - 1) * (NUM_CLOVERS + 1) + c


def expand(f: Family, animals: int, clovers: int) -> Expand:
    """The interned :class:`Expand` action."""
    key = (f, animals, clovers)
    act = _EXPAND.get(key)
    if act is None:
        act = _EXPAND[key] = Expand(f, animals, clovers)
    return act


def exchange(f: Family, seat: int, other: Family) -> Exchange:
    """The interned :class:`Exchange` action."""
    key = (f, seat, other)
    act = _EXCHANGE.get(key)
    if act is None:
        act = _EXCHANGE[key] = Exchange(f, seat, other)
    return act


def retrieve(seat: int, f: Family) -> Retrieve:
    """The interned :class:`Retrieve` action."""
    key = (seat, f)
    act = _RETRIEVE.get(key)
    if act is None:
        act = _RETRIEVE[key] = Retrieve(seat, f)
    return act


# ----- notation ------------------------------------------------------------------------------

_SEAT_FAMILY = re.compile(r"^(\d+):(\S+)$")


def _seat_family(text: str) -> tuple[int, Family]:
    m = _SEAT_FAMILY.match(text)
    if not m:
        raise NotationError(
            f"{text!r} is not a seat's family like '2:frog4'",
            reason_ja=f"{text!r}は「席:家族」の書き方ではありません（例: 2:frog4）",
        )
    return int(m.group(1)), family_from_str(m.group(2))


def _added(text: str, animal: int) -> tuple[int, int]:
    if text.lower().startswith("clover"):
        rest = text[len("clover") :]
        if not rest.isdigit():
            raise NotationError(
                f"{text!r} is not tiles like 'clover1'",
                reason_ja=f"{text!r}はタイルの書き方ではありません（例: clover1）",
            )
        return 0, int(rest)
    f = family_from_str(text)
    if f[0] != animal:
        raise NotationError(
            f"a family of {NAMES_EN[animal]} can only take {NAMES_EN[animal]} and clovers",
            "DS-5.3",
            reason_ja=f"{NAMES_JA[animal]}の家族に加えられるのは"
            f"{NAMES_JA[animal]}とクローバーだけです",
        )
    return f[1], f[2]


def action_from_str(text: str) -> DSAction:
    """Read an action or chance outcome in the notation above (inverse of ``str``).

    Raises:
        NotationError: the text is not in the notation.
    """
    words = text.strip().split()
    if not words:
        raise NotationError("empty action", reason_ja="アクションが入力されていません")
    head, args = words[0].lower(), words[1:]
    try:
        if head == "draw" and not args:
            return DRAW
        if head == "pass" and not args:
            return PASS
        if head == "rainbow" and not args:
            return RAINBOW_YES
        if head == "no-rainbow" and not args:
            return RAINBOW_NO
        if head in ("take", "discard", "deal", "flip", "pile") and len(args) == 1:
            t = tile_from_name(args[0])
            table: dict[str, tuple[DSAction, ...]] = {
                "take": TAKE,
                "discard": DISCARD,
                "deal": DEAL,
                "flip": FLIP,
                "pile": PILE,
            }
            return table[head][t]
        if head == "first" and len(args) == 1 and args[0].isdigit():
            s = int(args[0])
            return FIRST[s] if s < len(FIRST) else FirstPlayer(s)
        found = _family_action(head, args)
        if found is not None:
            return found
    except NotationError:
        raise
    raise NotationError(
        f"{text!r} is not a Double Seven action (e.g. 'draw', 'take fox', 'start fox3+1', "
        "'expand fox2 with fox1', 'exchange fox4 with 2:frog4', 'retrieve 1:swan2+1', "
        "'two-for-one deer rabbit', 'pass', 'discard fox')",
        reason_ja=f"{text!r}はダブルセブンのアクションではありません（例: draw、take fox、"
        "start fox3+1、expand fox2 with fox1、exchange fox4 with 2:frog4、"
        "retrieve 1:swan2+1、two-for-one deer rabbit、pass、discard fox）",
    )


def _family_action(head: str, args: list[str]) -> DSAction | None:
    """``action_from_str`` for the actions on families (DS-5.1, DS-5.3 … DS-5.6), or ``None``.

    Raises:
        NotationError: a malformed family, tile or seat, or an exchange of unequal sizes.
    """
    if head == "start" and len(args) == 1:
        f = family_from_str(args[0])
        return START[f]
    if head == "expand" and len(args) == 3 and args[1].lower() == "with":
        f = family_from_str(args[0])
        k, c = _added(args[2], f[0])
        return expand(f, k, c)
    if head == "exchange" and len(args) == 3 and args[1].lower() == "with":
        f = family_from_str(args[0])
        seat, other = _seat_family(args[2])
        if f[1] + f[2] != other[1] + other[2]:
            raise NotationError(
                "an exchange needs two families of the same number of tiles",
                "DS-5.4",
                reason_ja="交換できるのは同じ枚数の家族どうしだけです",
            )
        return exchange(f, seat, other)
    if head == "retrieve" and len(args) == 1:
        seat, f = _seat_family(args[0])
        return retrieve(seat, f)
    if head == "two-for-one" and len(args) == 2:
        x, y = sorted((tile_from_name(args[0]), tile_from_name(args[1])))
        return TWO_FOR_ONE[(x, y)]
    return None


# ----- integer encoding ----------------------------------------------------------------------

ENCODING_VERSION: Final = 1
"""Raise it whenever an id moves (tests pin a sample of ids of every kind)."""

_TILE = Arg("tile", NUM_TYPES, meaning="tile type: 0..7 the animals, 8 the clover")
_ANIMAL = Arg("animal", NUM_ANIMALS, meaning="the family's animal 0..7")
_ANIMALS = Arg("animals", TILES_PER_ANIMAL, 1, "animal tiles in the family")
_CLOVERS = Arg("clovers", NUM_CLOVERS + 1, meaning="clovers in the family")
_FAMILY = (_ANIMAL, _ANIMALS, _CLOVERS)


def _other(arg: Arg) -> Arg:
    return Arg("other_" + arg.name, arg.size, arg.start, "the other family's " + arg.name)


def _args_of(action: object) -> tuple[str, Args]:
    t = type(action)
    if t is Draw:
        return "draw", ()
    if t is Pass:
        return "pass", ()
    if t is Rainbow:
        return ("rainbow" if action.declare else "no-rainbow"), ()  # type: ignore[attr-defined]
    if t is Take or t is Discard or t is Deal or t is Flip or t is PileDraw:
        return _KIND_NAME[t], (action.tile,)  # type: ignore[attr-defined]
    if t is TwoForOne:
        return "two-for-one", (action.first, action.second)  # type: ignore[attr-defined]
    if t is Start:
        return "start", action.family  # type: ignore[attr-defined]
    if t is Expand:
        return "expand", (*action.family, action.animals, action.clovers)  # type: ignore[attr-defined]
    if t is Exchange:
        return "exchange", (*action.family, *action.other, action.seat)  # type: ignore[attr-defined]
    if t is Retrieve:
        return "retrieve", (action.seat, *action.family)  # type: ignore[attr-defined]
    if t is FirstPlayer:
        return "first", (action.seat,)  # type: ignore[attr-defined]
    raise ValueError(f"{action!r} is not a Double Seven action")


_KIND_NAME: Final = {Take: "take", Discard: "discard", Deal: "deal", Flip: "flip", PileDraw: "pile"}


def _build(kind: str, a: Args) -> DSAction:
    simple: dict[str, DSAction] = {
        "draw": DRAW,
        "pass": PASS,
        "rainbow": RAINBOW_YES,
        "no-rainbow": RAINBOW_NO,
    }
    if kind in simple:
        return simple[kind]
    tables: dict[str, tuple[DSAction, ...]] = {
        "take": TAKE,
        "discard": DISCARD,
        "deal": DEAL,
        "flip": FLIP,
        "pile": PILE,
    }
    if kind in tables:
        return tables[kind][a[0]]
    if kind == "first":
        return FIRST[a[0]]
    if kind == "two-for-one":
        return TWO_FOR_ONE[(a[0], a[1])]
    if kind == "start":
        return START[(a[0], a[1], a[2])]
    if kind == "expand":
        return expand((a[0], a[1], a[2]), a[3], a[4])
    if kind == "exchange":
        return exchange((a[0], a[1], a[2]), a[6], (a[3], a[4], a[5]))
    if kind == "retrieve":
        return retrieve(a[0], (a[1], a[2], a[3]))
    raise ValueError(f"no Double Seven action kind {kind!r}")


def encoding(n: int) -> ActionEncoding:
    """The declared encoding for ``n`` players (see the module docstring)."""
    seat = Arg("seat", n, meaning="the other player's seat (absolute)")
    return ActionEncoding(
        "double-seven",
        ENCODING_VERSION,
        [
            ActionKind("draw", (), "draw the top face-down tile (DS-4.1)"),
            ActionKind("rainbow", (), "declare Rainbow (DS-4.3)"),
            ActionKind("no-rainbow", (), "decline Rainbow (DS-4.3)"),
            ActionKind("pass", (), "end the turn, Pass! (DS-6.1)"),
            ActionKind("take", (_TILE,), "take a face-up tile from the display (DS-4.1)"),
            ActionKind("discard", (_TILE,), "end-of-turn discard (DS-6.2)"),
            ActionKind(
                "two-for-one",
                (Arg("first", NUM_TYPES), Arg("second", NUM_TYPES)),
                "put two tiles into the display, then draw (DS-5.6)",
                lambda x, y: x <= y,
                "first <= second",
            ),
            ActionKind("start", _FAMILY, "start a family (DS-5.1)"),
            ActionKind(
                "expand",
                (
                    *_FAMILY,
                    Arg("add_animals", TILES_PER_ANIMAL, meaning="animal tiles added"),
                    Arg("add_clovers", NUM_CLOVERS + 1, meaning="clovers added"),
                ),
                "add tiles to my family (DS-5.3)",
            ),
            ActionKind(
                "exchange",
                (*_FAMILY, *(_other(x) for x in _FAMILY), seat),
                "swap my family for another player's of the same size (DS-5.4)",
                lambda a, k, c, oa, ok, oc, s: k + c == ok + oc,
                "animals + clovers == other_animals + other_clovers",
            ),
            ActionKind(
                "retrieve",
                (seat, *_FAMILY),
                "take a clover from a family, giving a tile of its animal (DS-5.5)",
            ),
        ],
        _args_of,
        _build,
        chance_kinds=[
            ActionKind("deal", (_TILE,), "chance: a setup tile dealt face down (DS-2.2)"),
            ActionKind("first", (Arg("seat", n),), "chance: the first player (DS-2.3)"),
            ActionKind("flip", (_TILE,), "chance: the tile flipped into the display (DS-3.1)"),
            ActionKind("pile", (_TILE,), "chance: the tile drawn face down (DS-4.1)"),
        ],
    )


__all__ = [
    "CLOVER",
    "DRAW",
    "PASS",
    "ChanceOutcome",
    "DSAction",
    "Deal",
    "Discard",
    "Draw",
    "Exchange",
    "Expand",
    "FirstPlayer",
    "Flip",
    "Pass",
    "PileDraw",
    "PlayerAction",
    "Rainbow",
    "Retrieve",
    "Start",
    "Take",
    "TwoForOne",
    "action_from_str",
    "encoding",
]
