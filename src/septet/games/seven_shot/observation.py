"""The observation tensor of Seven Shot (``State.observation_tensor``), declared as named pieces.

Seats are relative to the observer: relative seat ``r`` is absolute seat ``(seat + r) % n``
(4 players: ``r = 2`` is the partner). The layout, with true bounds, is :func:`spec`; its
table (``spec(game, n).markdown()``) is in ``docs/rl.md``. Only what ``view(seat)`` shows is
encoded (the tests check that a determinization gives the same tensor).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septet.core.observation import ObservationSpec, Piece
from septet.core.types import Seat
from septet.games.seven_shot.cards import HAND_SIZES, NUM_CARDS, SEVEN_MASK, SUIT_OF

if TYPE_CHECKING:
    from septet.games.seven_shot.game import SevenShot
    from septet.games.seven_shot.state import SevenShotState

#: most points one deal can give a side: all seven 7s against none, plus 1 (SS-4.4, SS-5.4)
MAX_DEAL_POINTS = 8


def spec(game: SevenShot, n: int) -> ObservationSpec:
    """The layout for ``n`` players (``208 + 113 n`` values: 547 for 3, 660 for 4)."""
    target = game.options.target
    hand = HAND_SIZES[n]
    tricks = 48 // n  # tricks in a deal: 16 (3 players) or 12 (4 players)
    return ObservationSpec(
        [
            Piece("hand", (NUM_CARDS,), "own hand: 1 per card held"),
            Piece("passing", (NUM_CARDS,), "own cards chosen to pass or passed this deal"),
            Piece("received", (NUM_CARDS,), "cards received this deal (SS-2.3)"),
            Piece("indicator", (NUM_CARDS,), "trump indicator, one-hot; zeros before the deal"),
            Piece("taken", (n, NUM_CARDS), "cards taken in tricks this deal, per relative seat"),
            Piece("trick", (n, NUM_CARDS), "card played to the current trick, per relative seat"),
            Piece("led_suit", (7,), "suit led in the current trick, one-hot"),
            Piece("voids", (n, 7), "suits each relative seat is known to be void in"),
            Piece("tricks_won", (n,), "tricks won this deal / 16", 0, tricks / 16),
            Piece("sevens", (n,), "7s taken this deal / 7"),
            Piece(
                "score",
                (n,),
                "game points of the seat's side / target (the last deal may pass the target by "
                f"up to {MAX_DEAL_POINTS - 1})",
                0,
                (target + MAX_DEAL_POINTS - 1) / target,
            ),
            Piece(
                "hand_size",
                (n,),
                "cards held / 16 (cards being passed count as held)",
                0,
                hand / 16,
            ),
            Piece("pass_count", (n,), "cards chosen to pass / pass_cards (0 without a pass)"),
            Piece("phase", (5,), "phase one-hot: deal, pass, first_leader, play, over"),
            Piece("to_move", (n,), "seat to move, relative one-hot (zeros at chance/end)"),
            Piece("leader", (n,), "leader of the current trick, relative one-hot"),
            Piece("first_leader", (n,), "first leader of the deal, relative one-hot"),
        ],
        title=f"Seven Shot observation, {n} players",
    )


def encode(state: SevenShotState, seat: Seat) -> list[float]:
    """The tensor of ``seat`` (layout :func:`spec`)."""
    n = state.num_players
    sp = state.game.observation_spec(n)
    o = sp.offsets
    out = sp.zeros()

    def put_mask(offset: int, mask: int) -> None:
        while mask:
            low = mask & -mask
            out[offset + low.bit_length() - 1] = 1.0
            mask ^= low

    put_mask(o["hand"], state.hands[seat])
    put_mask(o["passing"], state.pass_sel[seat] | state.passed[seat])
    put_mask(o["received"], state.received[seat])
    if state.indicator >= 0:
        out[o["indicator"] + state.indicator] = 1.0
    taken, trick = o["taken"], o["trick"]
    for r in range(n):
        put_mask(taken + NUM_CARDS * r, state.taken[(seat + r) % n])
    for i, c in enumerate(state.trick):
        s = (state.leader + i) % n
        out[trick + NUM_CARDS * ((s - seat) % n) + c] = 1.0
    if state.trick:
        out[o["led_suit"] + SUIT_OF[state.trick[0]]] = 1.0
    voids = o["voids"]
    for r in range(n):
        v = state.voids[(seat + r) % n]
        for su in range(7):
            if v >> su & 1:
                out[voids + 7 * r + su] = 1.0
    k = state._k
    side = state._side
    for r in range(n):
        s = (seat + r) % n
        out[o["tricks_won"] + r] = state.tricks_won[s] / 16.0
        out[o["sevens"] + r] = (state.taken[s] & SEVEN_MASK).bit_count() / 7.0
        out[o["score"] + r] = state.points[side[s]] / state._target
        out[o["hand_size"] + r] = (state.hands[s] | state.pass_sel[s]).bit_count() / 16.0
        if k:
            out[o["pass_count"] + r] = (state.pass_sel[s] | state.passed[s]).bit_count() / k
    out[o["phase"] + state.phase] = 1.0
    if state._cur >= 0:
        out[o["to_move"] + (state._cur - seat) % n] = 1.0
    if state.leader >= 0:
        out[o["leader"] + (state.leader - seat) % n] = 1.0
    if state.first_leader >= 0:
        out[o["first_leader"] + (state.first_leader - seat) % n] = 1.0
    return out
