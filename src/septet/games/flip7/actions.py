"""Flip 7 actions and chance outcomes: one small immutable tuple type with a text notation.

Notation (seats are 0-based indices; cards are the tokens of :mod:`.cards`):

==========================  ==============================================================
``hit`` / ``stay``          the player to move takes the next card / stops (F7V-3.3)
``target 2``                give the card being resolved (modifier, Just One More, Flip 4,
                            Freeze, Flip Three, Second Chance) to seat 2 (F7V-4.1, F7V-5.1)
``swap 0:5 2:-4``           Swap: seat 0's 5 with seat 2's −4; the lower seat comes first
``steal 1:l13``             Steal seat 1's Lucky 13 into the resolver's row (F7V-4.6)
``discard 3:zero``          Discard: seat 3 discards its Zero (F7V-4.7)
``bonus`` / ``penalty 2``   brutal Flip 7 choice: +15 for oneself / −15 to seat 2 (F7V-8.3)
``draw 7``                  chance: the next card of the deck is a 7
``dealer 1``                chance: seat 1 deals the first round (F7V-3.1)
==========================  ==============================================================

``F7Action`` is a ``NamedTuple`` ``(op, a, b, c, d)`` so that hashing and equality run at C
speed in the hot loop; the common ones are interned (``HIT``, ``STAY``, ``draw_action(k)``...).
Read and build it by name: ``action.seat``, ``action.card``, ``action.other_seat``,
``action.other_card`` (see :class:`F7Action` for which operation has which) and
``steal_action(seat, card)``, ``swap_action(seat, card, other_seat, other_card)``...; the slots
``a`` … ``d`` are the storage (the compiled kernels read them), not the interface. Records and
JSON hold the notation above, never the tuple.

Integer ids (RL): declared in :func:`encoding` (version :data:`ENCODING_VERSION`) as kinds with
arguments: ``hit`` 0, ``stay`` 1, ``bonus`` 2, ``target`` seat, ``penalty`` seat, then in
Vengeance ``steal`` (seat, card), ``discard`` (seat, card) and ``swap`` (seat, other seat, card,
other card; seat < other seat), a card being the index of its kind among the edition's row kinds.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from septet.core.encoding import ActionEncoding, ActionKind, Arg, Args
from septet.core.errors import NotationError
from septet.games.flip7.cards import KIND_OF_TOKEN, NUM_KINDS, TOKENS
from septet.games.flip7.rules import FLIP7_BONUS

OP_HIT: Final = 0
OP_STAY: Final = 1
OP_TARGET: Final = 2
OP_SWAP: Final = 3
OP_STEAL: Final = 4
OP_DISCARD: Final = 5
OP_BONUS: Final = 6
OP_PENALTY: Final = 7
OP_DRAW: Final = 8
OP_DEALER: Final = 9

MAX_SEATS: Final = 64


class Op:
    """The ``OP_*`` codes as dotted names, for ``match`` value patterns::

    match action:
        case F7Action(op=Op.STEAL, seat=seat, card=card): ...
    """

    HIT: Final = OP_HIT
    STAY: Final = OP_STAY
    TARGET: Final = OP_TARGET
    SWAP: Final = OP_SWAP
    STEAL: Final = OP_STEAL
    DISCARD: Final = OP_DISCARD
    BONUS: Final = OP_BONUS
    PENALTY: Final = OP_PENALTY
    DRAW: Final = OP_DRAW
    DEALER: Final = OP_DEALER


_SEATED_OPS: Final = frozenset((OP_TARGET, OP_SWAP, OP_STEAL, OP_DISCARD, OP_PENALTY, OP_DEALER))
_CARD_OPS: Final = frozenset((OP_SWAP, OP_STEAL, OP_DISCARD))


class F7Action(NamedTuple):
    """A Flip 7 action or chance outcome: ``op`` (an ``OP_*`` code) and what it holds, read by
    name:

    ============  ===========================  =========================================
    ``op``        fields                       example
    ============  ===========================  =========================================
    ``hit``       —                            ``HIT``
    ``stay``      —                            ``STAY``
    ``bonus``     —                            ``BONUS``
    ``target``    ``seat``                     ``target_action(2)``
    ``penalty``   ``seat``                     ``penalty_action(2)``
    ``dealer``    ``seat``                     ``dealer_action(1)``
    ``draw``      ``card``                     ``draw_action(kind)``
    ``steal``     ``seat``, ``card``           ``steal_action(1, kind)``
    ``discard``   ``seat``, ``card``           ``discard_action(3, kind)``
    ``swap``      ``seat``, ``card``,          ``swap_action(0, k5, 2, k_minus4)``
                  ``other_seat``,              (``seat < other_seat``)
                  ``other_card``
    ============  ===========================  =========================================

    Seats are 0-based; cards are kinds of :mod:`.cards`. Reading a field the operation does
    not hold raises ``AttributeError``. The slots ``a`` … ``d`` store them (``seat`` or the
    drawn card in ``a``, ``card`` in ``b``, ``other_seat`` in ``c``, ``other_card`` in ``d``);
    ``F7Action(op, a, b, c, d)`` keeps working for the compiled kernels.
    """

    op: int
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0

    @property
    def seat(self) -> int:
        """The seat acted on: the target, the seat penalised, the dealer, the row a card is
        stolen or discarded from, a swap's lower seat."""
        if self.op not in _SEATED_OPS:
            raise AttributeError(f"{self} has no seat")
        return self.a

    @property
    def card(self) -> int:
        """The card kind: drawn (``draw``), stolen, discarded, or taken from ``seat`` by a
        swap."""
        if self.op == OP_DRAW:
            return self.a
        if self.op not in _CARD_OPS:
            raise AttributeError(f"{self} has no card")
        return self.b

    @property
    def other_seat(self) -> int:
        """A swap's higher seat."""
        if self.op != OP_SWAP:
            raise AttributeError(f"{self} has no other seat")
        return self.c

    @property
    def other_card(self) -> int:
        """The card kind a swap takes from ``other_seat``."""
        if self.op != OP_SWAP:
            raise AttributeError(f"{self} has no other card")
        return self.d

    def __str__(self) -> str:
        op = self.op
        if op == OP_HIT:
            return "hit"
        if op == OP_STAY:
            return "stay"
        if op == OP_TARGET:
            return f"target {self.seat}"
        if op == OP_SWAP:
            return (
                f"swap {self.seat}:{TOKENS[self.card]} {self.other_seat}:{TOKENS[self.other_card]}"
            )
        if op == OP_STEAL:
            return f"steal {self.seat}:{TOKENS[self.card]}"
        if op == OP_DISCARD:
            return f"discard {self.seat}:{TOKENS[self.card]}"
        if op == OP_BONUS:
            return "bonus"
        if op == OP_PENALTY:
            return f"penalty {self.seat}"
        if op == OP_DRAW:
            return f"draw {TOKENS[self.card]}"
        return f"dealer {self.seat}"


HIT: Final = F7Action(OP_HIT)
STAY: Final = F7Action(OP_STAY)
BONUS: Final = F7Action(OP_BONUS)
_TARGETS: Final = tuple(F7Action(OP_TARGET, s) for s in range(MAX_SEATS))
_PENALTIES: Final = tuple(F7Action(OP_PENALTY, s) for s in range(MAX_SEATS))
_DEALERS: Final = tuple(F7Action(OP_DEALER, s) for s in range(MAX_SEATS))
_DRAWS: Final = tuple(F7Action(OP_DRAW, k) for k in range(NUM_KINDS))


def target_action(seat: int) -> F7Action:
    """The interned ``target <seat>``."""
    return _TARGETS[seat]


def penalty_action(seat: int) -> F7Action:
    """The interned ``penalty <seat>``."""
    return _PENALTIES[seat]


def dealer_action(seat: int) -> F7Action:
    """The interned chance outcome ``dealer <seat>``."""
    return _DEALERS[seat]


def draw_action(kind: int) -> F7Action:
    """The interned chance outcome ``draw <token>``."""
    return _DRAWS[kind]


def steal_action(seat: int, card: int) -> F7Action:
    """``steal <seat>:<card>``: take card kind ``card`` from ``seat``'s row (F7V-4.6)."""
    return F7Action(OP_STEAL, seat, card)


def discard_action(seat: int, card: int) -> F7Action:
    """``discard <seat>:<card>``: ``seat`` discards its card of kind ``card`` (F7V-4.7)."""
    return F7Action(OP_DISCARD, seat, card)


def swap_action(seat: int, card: int, other_seat: int, other_card: int) -> F7Action:
    """``swap <seat>:<card> <other_seat>:<other_card>`` (F7V-4.5); ``seat < other_seat``.

    Raises:
        ValueError: the seats are not in increasing order.
    """
    if not seat < other_seat:
        raise ValueError(f"swap: the lower seat comes first, not {seat} then {other_seat}")
    return F7Action(OP_SWAP, seat, card, other_seat, other_card)


def _seat(text: str, whole: str) -> int:
    if text[:1] == "p":  # "p2" as the table shows it
        text = text[1:]
    if not text.isdigit() or int(text) >= MAX_SEATS:
        raise NotationError(
            f"{whole!r}: {text!r} is not a seat number (0, 1, 2, ...)",
            reason_ja=f"{whole!r}: {text!r}は席番号ではありません（0、1、2、…）",
        )
    return int(text)


def _card(text: str, whole: str) -> int:
    kind = KIND_OF_TOKEN.get(text.lower())
    if kind is None:
        raise NotationError(
            f"{whole!r}: {text!r} is not a card (cards: {', '.join(TOKENS)})",
            reason_ja=f"{whole!r}: {text!r}というカードはありません（カード: {', '.join(TOKENS)}）",
        )
    return kind


def _seat_card(text: str, whole: str) -> tuple[int, int]:
    seat, colon, card = text.partition(":")
    if not colon:
        raise NotationError(
            f"{whole!r}: expected seat:card such as 2:7, got {text!r}",
            reason_ja=f"{whole!r}: 「席:カード」（例: 2:7）と書いてください（{text!r}）",
        )
    return _seat(seat, whole), _card(card, whole)


def parse(text: str) -> F7Action:
    """Read the notation above (case-insensitive, extra spaces allowed; a seat may be written
    ``p2`` as the table shows it).

    Raises:
        NotationError: not Flip 7 notation.
    """
    words = text.strip().lower().split()
    if not words:
        raise NotationError(
            "empty action; try 'hit' or 'stay'",
            reason_ja="アクションが入力されていません。hit（ヒット）か stay（ステイ）をどうぞ",
        )
    head, args = words[0], words[1:]
    if head in ("hit", "stay", "bonus") and not args:
        return {"hit": HIT, "stay": STAY, "bonus": BONUS}[head]
    if head in ("target", "penalty", "dealer") and len(args) == 1:
        seat = _seat(args[0], text)
        return {"target": _TARGETS, "penalty": _PENALTIES, "dealer": _DEALERS}[head][seat]
    if head == "draw" and len(args) == 1:
        return _DRAWS[_card(args[0], text)]
    if head in ("steal", "discard") and len(args) == 1:
        seat, kind = _seat_card(args[0], text)
        return (steal_action if head == "steal" else discard_action)(seat, kind)
    if head == "swap" and len(args) == 2:
        s1, k1 = _seat_card(args[0], text)
        s2, k2 = _seat_card(args[1], text)
        if s1 >= s2:
            raise NotationError(
                f"{text!r}: write the lower seat first, two different seats",
                reason_ja=f"{text!r}: 違う2つの席を、番号の小さい席から書いてください",
            )
        return swap_action(s1, k1, s2, k2)
    raise NotationError(
        f"{text!r} is not a Flip 7 action (hit, stay, target N, swap N:card N:card, "
        "steal N:card, discard N:card, bonus, penalty N, draw card, dealer N)",
        reason_ja=f"{text!r}はフリップ7のアクションではありません（hit、stay、target N、"
        "swap N:カード N:カード、steal N:カード、discard N:カード、bonus、penalty N、"
        "draw カード、dealer N）",
    )


# ----- integer encoding --------------------------------------------------------------------------

ENCODING_VERSION: Final = 1
"""Raise it whenever an id moves (tests pin a sample of ids)."""

_SIMPLE: Final = {OP_HIT: "hit", OP_STAY: "stay", OP_BONUS: "bonus"}
_SEATED: Final = {OP_TARGET: "target", OP_PENALTY: "penalty", OP_DEALER: "dealer"}


def _args_of(action: object, index: dict[int, int]) -> tuple[str, Args]:
    """The encoding's kind and arguments of ``action`` (``index``: row kind → card index).

    Raises:
        ValueError: not a Flip 7 player action of this game.
    """
    if type(action) is not F7Action:
        raise ValueError(f"{action!r} is not a Flip 7 action")
    op = action.op
    if op in _SIMPLE:
        return _SIMPLE[op], ()
    if op in _SEATED:
        return _SEATED[op], (action.seat,)
    if op == OP_DRAW:
        return "draw", (action.card,)
    if op in (OP_STEAL, OP_DISCARD) and action.card in index:
        return ("steal" if op == OP_STEAL else "discard"), (action.seat, index[action.card])
    if op == OP_SWAP and action.card in index and action.other_card in index:
        return "swap", (
            action.seat,
            action.other_seat,
            index[action.card],
            index[action.other_card],
        )
    raise ValueError(f"{action} is not a player action of this Flip 7 game")


def _build(kind: str, a: Args, row_kinds: tuple[int, ...]) -> F7Action:
    """The action of an encoding kind and its arguments (the inverse of :func:`_args_of`)."""
    simple = {"hit": HIT, "stay": STAY, "bonus": BONUS}
    if kind in simple:
        return simple[kind]
    if kind == "target":
        return target_action(a[0])
    if kind == "penalty":
        return penalty_action(a[0])
    if kind == "dealer":
        return dealer_action(a[0])
    if kind == "draw":
        return draw_action(a[0])
    if kind == "steal":
        return steal_action(a[0], row_kinds[a[1]])
    if kind == "discard":
        return discard_action(a[0], row_kinds[a[1]])
    return swap_action(a[0], row_kinds[a[2]], a[1], row_kinds[a[3]])


def encoding(n: int, row_kinds: tuple[int, ...]) -> ActionEncoding:
    """The declared encoding for ``n`` seats; ``row_kinds`` are the card kinds Swap, Steal and
    Discard can pick (the Vengeance row kinds; none in classic, whose blocks are then empty)."""
    r = len(row_kinds)
    index = {k: i for i, k in enumerate(row_kinds)}
    seat = Arg("seat", n, meaning="a seat (absolute)")
    other = Arg("other_seat", n, meaning="the second seat of a swap (absolute)")
    card = Arg("card", r, meaning="index of a card kind among the edition's row kinds")
    other_card = Arg("other_card", r, meaning="the second seat's card, as for card")

    def args_of(action: object) -> tuple[str, Args]:
        return _args_of(action, index)

    def build(kind: str, a: Args) -> F7Action:
        return _build(kind, a, row_kinds)

    return ActionEncoding(
        "flip7",
        ENCODING_VERSION,
        [
            ActionKind("hit", (), "take the next card (F7V-3.3)"),
            ActionKind("stay", (), "stop and bank the row (F7V-3.3)"),
            ActionKind("bonus", (), f"brutal Flip 7: +{FLIP7_BONUS} for oneself (F7V-8.3)"),
            ActionKind("target", (seat,), "give the card being resolved to a seat (F7V-4.1)"),
            ActionKind("penalty", (seat,), f"brutal Flip 7: -{FLIP7_BONUS} to a seat (F7V-8.3)"),
            ActionKind("steal", (seat, card), "Steal a seat's row card (F7V-4.6)"),
            ActionKind("discard", (seat, card), "Discard: a seat discards a row card (F7V-4.7)"),
            ActionKind(
                "swap",
                (seat, other, card, other_card),
                "Swap two seats' row cards (F7V-4.5)",
                lambda s1, s2, k1, k2: s1 < s2,
                "seat < other_seat",
            ),
        ],
        args_of,
        build,
        chance_kinds=[
            ActionKind(
                "draw", (Arg("card", NUM_KINDS, meaning="card kind"),), "chance: a card drawn"
            ),
            ActionKind("dealer", (seat,), "chance: the first dealer (F7V-3.1)"),
        ],
    )
