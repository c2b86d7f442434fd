"""The observation tensor of Double Seven (``State.observation_tensor``), built from a view only.

Layout for ``n`` players (floats, raw counts unless noted), ``61 + 124 * n`` values:

Global block (61):
    [0:9]    my rack, count per tile type (bird .. rabbit, clover); zeros for a spectator
    [9:18]   display (face-up tiles) per type
    [18:27]  blocked: tiles just put out by two-for-one (not drawable now)
    [27]     pile size (face-down tiles)
    [28:37]  tiles removed from the game per type
    [37]     7 tokens left; [38] 1.0 if the 77 token is unclaimed
    [39:48]  phase one-hot (deal, first_player, flip, draw, rainbow, actions,
             two_for_one_draw, discard, over)
    [48]     draws left; [49] face-down draw pending; [50] Rainbow used; [51] two-for-one used
    [52:56]  seat to move (turn), relative to me, one-hot over 4 slots
    [56]     1.0 if the end is triggered; [57:61] the triggering seat, relative, one-hot

Then one block of 124 per seat, starting with mine and going clockwise (a spectator: seat 0
first):
    [0]      rack size; [1:10] tiles of that rack everyone knows (Rainbow, face-up draws)
    [10]     7 tokens; [11] 1.0 if it holds the 77 token
    [12:116] families: for animal a (0..7) and size s (2..14, 14 meaning 14+), the number of
             families of a with s tiles, at 12 + a * 13 + (s - 2)
    [116:124] clovers inside that seat's families, per animal
"""

from __future__ import annotations

from collections.abc import Mapping

from septet.core.types import JSON

from .state import PHASE_NAMES
from .tiles import NUM_ANIMALS, NUM_TYPES, counts_from_json, tile_from_name

GLOBAL_SIZE = 61
SEAT_SIZE = 124


def observation_size(n: int) -> int:
    """Length of the tensor for ``n`` players."""
    return GLOBAL_SIZE + SEAT_SIZE * n


def encode(view: Mapping[str, JSON], n: int) -> list[float]:
    """The tensor of a view (see the module docstring for the layout)."""
    out = [0.0] * observation_size(n)
    seat = view["seat"]
    me = 0 if seat is None else int(seat)
    if view["rack"] is not None:
        for t, c in enumerate(counts_from_json(view["rack"])):
            out[t] = float(c)
    for base, key in ((9, "display"), (18, "blocked"), (28, "removed")):
        for t, c in enumerate(counts_from_json(view[key])):
            out[base + t] = float(c)
    out[27] = float(view["pile"])
    out[37] = float(view["sevens_left"])
    out[38] = 1.0 if view["double_seven"] is None else 0.0
    out[39 + PHASE_NAMES.index(str(view["phase"]))] = 1.0
    out[48] = float(view["draws_left"])
    out[49] = float(bool(view["face_down_pending"]))
    out[50] = float(bool(view["rainbow_used"]))
    out[51] = float(bool(view["two_for_one_used"]))
    turn = int(view["turn"])
    if turn >= 0:
        out[52 + (turn - me) % n] = 1.0
    trig = view["end_triggered_by"]
    if trig is not None:
        out[56] = 1.0
        out[57 + (int(trig) - me) % n] = 1.0
    for rel in range(n):
        s = (me + rel) % n
        base = GLOBAL_SIZE + SEAT_SIZE * rel
        rack = view["racks"][s]
        out[base] = float(rack["size"])
        for t, c in enumerate(counts_from_json(rack["known"])):
            out[base + 1 + t] = float(c)
        out[base + 10] = float(view["sevens"][s])
        out[base + 11] = 1.0 if view["double_seven"] == s else 0.0
        for fam in view["families"][s]:
            a = tile_from_name(str(fam["animal"]))
            size = min(int(fam["size"]), 14)
            out[base + 12 + a * 13 + (size - 2)] += 1.0
            out[base + 116 + a] += float(fam["clovers"])
    assert NUM_TYPES == 9 and NUM_ANIMALS == 8
    return out
