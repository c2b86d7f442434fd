"""The observation tensor of Double Seven (``State.observation_tensor``), built from a view only,
declared as named pieces (:func:`spec`).

Raw counts unless noted, ``61 + 124 n`` values: a global part, then one block per seat starting
with the observer's and going clockwise (a spectator: seat 0 first). The true bounds come from
the tile set (DS-1.1: 11 tiles of each animal, 3 clovers, 91 in all; 8 seven tokens, DS-1.2).
The table with offsets is ``spec(n).markdown()`` (in ``docs/rl.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from septet.core.observation import ObservationSpec, Piece
from septet.core.types import JSON

from .state import PHASE_NAMES
from .tiles import (
    FULL_SET,
    NUM_ANIMALS,
    NUM_CLOVERS,
    NUM_SEVEN_TOKENS,
    NUM_TILES,
    NUM_TYPES,
    TILES_PER_ANIMAL,
    counts_from_json,
    tile_from_name,
)
from .tiles import (
    MAX_FAMILY as _MAX_FAMILY,
)

MAX_FAMILY = _MAX_FAMILY  # family sizes 2..14, 14 meaning 14 or more (11 animals + 3 clovers)
_SIZES = MAX_FAMILY - 1  # 13 size slots per animal
_TYPE_HIGH = tuple(float(c) for c in FULL_SET)  # 11 per animal, 3 clovers


@lru_cache(maxsize=8)
def spec(n: int) -> ObservationSpec:
    """The layout for ``n`` players."""
    fam_high = tuple(
        float(min(TILES_PER_ANIMAL, (TILES_PER_ANIMAL + NUM_CLOVERS) // size))
        for _ in range(NUM_ANIMALS)
        for size in range(2, MAX_FAMILY + 1)
    )
    seat_pieces = (
        Piece("rack_size", (), "tiles in the rack", 0, NUM_TILES),
        Piece(
            "rack_known",
            (NUM_TYPES,),
            "tiles of that rack everyone knows (Rainbow, face-up draws), per type",
            0,
            _TYPE_HIGH,
        ),
        Piece("sevens", (), "7 tokens held", 0, NUM_SEVEN_TOKENS),
        Piece("double_seven", (), "1 if it holds the 77 token"),
        Piece(
            "families",
            (NUM_ANIMALS, _SIZES),
            "families of animal a with s tiles (s = 2..14, 14 meaning 14+), at [a, s - 2]",
            0,
            fam_high,
        ),
        Piece("clovers", (NUM_ANIMALS,), "clovers inside its families, per animal", 0, NUM_CLOVERS),
    )
    global_pieces = [
        Piece("rack", (NUM_TYPES,), "my rack per type (zeros for a spectator)", 0, _TYPE_HIGH),
        Piece("display", (NUM_TYPES,), "face-up display tiles per type", 0, _TYPE_HIGH),
        Piece(
            "blocked",
            (NUM_TYPES,),
            "tiles just put out by two-for-one (not drawable now), per type",
            0,
            _TYPE_HIGH,
        ),
        Piece("pile", (), "face-down tiles in the pile", 0, NUM_TILES),
        Piece("removed", (NUM_TYPES,), "tiles removed from the game per type", 0, _TYPE_HIGH),
        Piece("sevens_left", (), "7 tokens left", 0, NUM_SEVEN_TOKENS),
        Piece("double_seven_free", (), "1 if the 77 token is unclaimed"),
        Piece("phase", (len(PHASE_NAMES),), "phase one-hot: " + ", ".join(PHASE_NAMES)),
        Piece("draws_left", (), "draws left this turn", 0, 3),
        Piece("face_down_pending", (), "1 if a face-down draw awaits its tile"),
        Piece("rainbow_used", (), "1 once Rainbow was declared this turn"),
        Piece("two_for_one_used", (), "1 once two-for-one was used this turn"),
        Piece("turn", (4,), "seat to move, relative to me, one-hot over 4 slots"),
        Piece("end_triggered", (), "1 once the end is triggered"),
        Piece("end_trigger", (4,), "the triggering seat, relative, one-hot over 4 slots"),
    ]
    # One block of 124 per seat, mine first, then clockwise: pieces ``seat{r}_{field}``.
    pieces = list(global_pieces)
    for r in range(n):
        for p in seat_pieces:
            meaning = f"{'my' if r == 0 else f'seat +{r} (clockwise)'}: {p.meaning}"
            pieces.append(Piece(f"seat{r}_{p.name}", p.shape, meaning, p.low, p.high))
    return ObservationSpec(pieces, f"Double Seven observation, {n} players")


def observation_size(n: int) -> int:
    """Length of the tensor for ``n`` players (``61 + 124 n``)."""
    return spec(n).size


def encode(view: Mapping[str, JSON], n: int) -> list[float]:
    """The tensor of a view (layout :func:`spec`)."""
    sp = spec(n)
    o = sp.offsets
    out = sp.zeros()
    seat = view["seat"]
    me = 0 if seat is None else int(seat)
    if view["rack"] is not None:
        for t, c in enumerate(counts_from_json(view["rack"])):
            out[t] = float(c)
    for key in ("display", "blocked", "removed"):
        base = o[key]
        for t, c in enumerate(counts_from_json(view[key])):
            out[base + t] = float(c)
    out[o["pile"]] = float(view["pile"])
    out[o["sevens_left"]] = float(view["sevens_left"])
    out[o["double_seven_free"]] = 1.0 if view["double_seven"] is None else 0.0
    out[o["phase"] + PHASE_NAMES.index(str(view["phase"]))] = 1.0
    out[o["draws_left"]] = float(view["draws_left"])
    out[o["face_down_pending"]] = float(bool(view["face_down_pending"]))
    out[o["rainbow_used"]] = float(bool(view["rainbow_used"]))
    out[o["two_for_one_used"]] = float(bool(view["two_for_one_used"]))
    turn = int(view["turn"])
    if turn >= 0:
        out[o["turn"] + (turn - me) % n] = 1.0
    trig = view["end_triggered_by"]
    if trig is not None:
        out[o["end_triggered"]] = 1.0
        out[o["end_trigger"] + (int(trig) - me) % n] = 1.0
    for rel in range(n):
        s = (me + rel) % n
        pre = f"seat{rel}_"
        rack = view["racks"][s]
        out[o[pre + "rack_size"]] = float(rack["size"])
        known = o[pre + "rack_known"]
        for t, c in enumerate(counts_from_json(rack["known"])):
            out[known + t] = float(c)
        out[o[pre + "sevens"]] = float(view["sevens"][s])
        out[o[pre + "double_seven"]] = 1.0 if view["double_seven"] == s else 0.0
        fams, clovers = o[pre + "families"], o[pre + "clovers"]
        for fam in view["families"][s]:
            a = tile_from_name(str(fam["animal"]))
            size = min(int(fam["size"]), MAX_FAMILY)
            out[fams + a * _SIZES + (size - 2)] += 1.0
            out[clovers + a] += float(fam["clovers"])
    return out
