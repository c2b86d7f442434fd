"""The Flip 7 rules engine (Vengeance and classic editions): ``Flip7State``.

Rules: ``shared/rules/flip7-vengeance.md`` (ids F7V-1 … F7V-9); rulings in
``docs/rulings/flip7.md``.

Model
-----
The deck is a multiset (counts per card kind, :mod:`.cards`): nobody knows its order, so every
draw is a chance node over card kinds with probability ``count / cards left`` (exact). The
discard pile is public (counts), so the deck composition is public too; the only hidden thing
in the game is the deck order, which the engine never fixes. ``determinize`` therefore returns
an equivalent copy. The first dealer is a chance node (``dealer N``).

Every choice is a player action: hit/stay, the target of each action or modifier card, the cards
picked for Swap/Steal/Discard, the brutal Flip 7 choice. A choice with exactly one legal option
is made automatically (an event records it), so no player node ever has a single forced option
except a Zero holder's ``hit``.

The round is driven by a small stack of frames (:mod:`.frames`: dealing, turns, a pending Just
One More, a Flip 4 with its set-aside cards); ``_run`` advances it, matching on the top frame, until
a player decision or a draw is needed. The step functions append their events to the list that
``apply`` returns (passed to them explicitly). The rules that bots and scoring also need (bust,
Lucky 13, Second Chance, Flip 7, the Zero's stay) are the pure functions of :mod:`.rules`.

Fields are declared once in :data:`FIELDS` (:mod:`septet.core.fields`): ``__slots__``, ``clone``
and the one-to-one ``state_dict`` keys derive from it; the grouped keys (``decision``, ``draw``,
``players``, ``deck``/``discard``, ``rounds``, ``last_round_detail``) are written by
``_dump_groups`` and read by ``_load_groups``.

View format (``view(seat)``; also the ``state_dict`` format, stable)
--------------------------------------------------------------------
A JSON object; every field is public (all rows are face up, piles are counted):

- ``game`` (``"flip7"``), ``edition`` (``"vengeance"``/``"classic"``), ``brutal`` (bool),
  ``target`` (int), ``num_players``, ``seat`` (the viewer, ``None`` for spectators; absent from
  ``state_dict``)
- ``round`` (1-based; 0 before the first dealer is drawn), ``dealer`` (seat or ``None``)
- ``to_move``: ``current_player`` (seat, -1 chance, -4 terminal)
- ``decision``: ``None`` or ``{"kind", "player", "card"}`` with kind ``"hit_stay"``,
  ``"target"`` (give ``card``), ``"swap"``, ``"steal"``, ``"discard"``, ``"flip7_choice"``
- ``draw``: ``None`` or ``{"player", "set_aside"}`` at a card draw (who receives it; whether it is
  flipped by a Flip 4/Flip Three so that actions and modifiers are set aside)
- ``players``: one object per seat: ``row`` (tokens of the face-up cards in arrival order:
  numbers, special numbers, modifiers, a classic Second Chance), ``status`` (``"active"``,
  ``"stayed"``, ``"busted"``; a busted row is face down but its cards are known), ``after_bust``
  (brutal: modifiers received after busting), ``total`` (game total before this round),
  ``round_score`` (what the row would score if the round ended now), ``numbers`` (count of number
  cards toward Flip 7)
- ``flip7`` (seat that achieved Flip 7 this round or ``None``), ``flip7_choice`` (brutal: seat
  receiving the ±15, the achiever itself for +15, or ``None``)
- ``stack``: pending work, bottom first: ``{"kind": "deal", "next": k}`` (deal offset from the
  dealer), ``{"kind": "turn", "next": seat}``, ``{"kind": "just_one_more", "player", "drawn"}``,
  ``{"kind": "flip", "player", "left", "set_aside": [tokens]}``; each ``just_one_more`` and
  ``flip`` frame also holds its action card, which is in play (in neither pile, F7V-3.6) until the
  frame ends and it goes to the discard pile (F7V-4.3)
- ``deck`` and ``discard``: ``{token: count}`` for every card kind of the edition;
  ``deck_size``, ``discard_size``; ``round_draws`` (cards drawn this round), ``round_over``
  (bool), ``last_round`` (round scores of the last finished round or ``None``), ``winners``.
- ``rounds``: every finished round, oldest first: ``{"round", "scores": [per seat], "status":
  [per seat: "flip7" (the seat that achieved it), "busted", "stayed", or "active" (still in when
  the round ended at once)], "flip7": seat or None, "totals": [per seat after the round]}``
- ``last_round_detail``: the ``round_end`` event data of the last finished round (rows as they
  ended, ``after_bust``, ``status``, ``flip7``, ``flip7_choice``, ``scores``, ``breakdown`` per
  seat with the arithmetic, ``totals``), or ``None`` before the first round ends
- ``forced_public`` (``view`` only, not ``state_dict``): ``seat`` is to move with exactly one
  legal action (a Zero holder's hit); everything is public, so everyone sees it is forced.
- ``flip7_bonus`` (``view`` only): the points a Flip 7 adds, or in brutal mode takes from one
  other player (``rules.FLIP7_BONUS``, F7V-7.2, F7V-8.3), so that clients write the number
  from the engine instead of restating it.

Events (``apply`` returns them; ``seat`` is the player concerned; all public)
-------------------------------------------------------------------------
``dealer``, ``round_start`` {round}, ``hit`` (the seat asks for a card; a ``draw`` follows),
``draw`` {card} (the seat receiving it), ``set_aside``
{card}, ``set_aside_lost`` {cards}, ``bust`` {card}, ``flip7``, ``unlucky7`` {discarded},
``second_chance`` {card}, ``stay`` {forced?, frozen?}, ``give`` {card, to} (a modifier or an
action played on a seat), ``forced`` {card} (a choice with one option, made automatically),
``no_target`` {card}, ``steal`` {from, card}, ``discard`` {from, card}, ``swap`` {seats, cards},
``reshuffle`` {cards}, ``no_cards``, ``draw_limit``, ``flip7_bonus``, ``flip7_penalty`` {to},
``round_end`` {round, rows, after_bust, status, flip7, flip7_choice, scores, breakdown (per seat,
see ``round_breakdown``), totals},
``game_end`` {winners}.

Observation tensor: see :mod:`septet.games.flip7.observation`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from septet.core.errors import IllegalActionError, RecordError
from septet.core.fields import Field, compile_copy, load_fields, same, slot_names
from septet.core.game import Action, State
from septet.core.types import CHANCE, JSON, TERMINAL, Event, Seat
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import (
    BONUS,
    HIT,
    OP_DEALER,
    OP_DRAW,
    OP_HIT,
    OP_STAY,
    STAY,
    F7Action,
    Op,
    dealer_action,
    discard_action,
    draw_action,
    penalty_action,
    steal_action,
    swap_action,
    target_action,
)
from septet.games.flip7.frames import (
    DEALS,
    FLIPS,
    JOMS,
    TURNS,
    Flip,
    Frame,
    JustOneMore,
    just_one_more,
    stack_from_json,
    stack_to_json,
)
from septet.games.flip7.frames import Deal as _Deal
from septet.games.flip7.frames import Turn as _Turn
from septet.games.flip7.rules import (
    FLIP3_CARDS,
    FLIP4_CARDS,
    FLIP7_BONUS,
    FLIP7_CARDS,
    Arrival,
    may_stay,
    number_arrival,
    unlucky7_discards,
)
from septet.games.flip7.scoring import RowScore, game_winners, score_row

if TYPE_CHECKING:
    from septet.games.flip7.game import Flip7

ACTIVE, STAYED, BUSTED = 0, 1, 2
STATUS_NAMES = ("active", "stayed", "busted")
_RUN = -2  # current_player while the engine resolves (never seen outside apply)

# Decisions
D_NONE, D_HITSTAY, D_TARGET, D_SWAP, D_STEAL, D_DISCARD, D_BRUTAL = range(7)
DECISION_NAMES = (None, "hit_stay", "target", "swap", "steal", "discard", "flip7_choice")

_VALUE = C.VALUE
_IS_NUM = C.IS_NUM
_IS_MOD = C.IS_MOD
_IS_ROW = C.IS_ROW
_TOK = C.TOKENS
_ZERO = C.ZERO
_U7 = C.U7
_L13 = C.L13
_SECOND = C.SECOND
# Events are immutable: the frequent ones (draw, bust, stay) are made once per (kind, seat, card)
# and shared between states (a measured ~10% of a random playout).
_EVENTS: dict[tuple[str, int, int], Event] = {}


def _card_event(kind: str, seat: int, card: int) -> Event:
    ev = _EVENTS.get((kind, seat, card))
    if ev is None:
        data = {"card": _TOK[card]} if card >= 0 else {}
        ev = _EVENTS[(kind, seat, card)] = Event(kind, seat, data)
    return ev


_DECISION_OF_CARD = {C.SWAP: D_SWAP, C.STEAL: D_STEAL, C.DISCARD: D_DISCARD}


class _Frozen(tuple[tuple[str, Any], ...]):
    """A JSON object frozen as a tuple of ``(key, value)`` pairs (see :func:`_freeze`)."""

    __slots__ = ()


def _freeze(value: Any) -> Any:
    """JSON data made immutable (objects → :class:`_Frozen`, lists → tuples), so that clones share
    the finished rounds without sharing a mutable container."""
    if isinstance(value, dict):
        return _Frozen((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """The plain JSON data of :func:`_freeze`d data (a fresh copy)."""
    if type(value) is _Frozen:
        return {k: _thaw(v) for k, v in value}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def _none_if_neg(x: int) -> int | None:
    return x if x >= 0 else None


def _neg_if_none(x: Any) -> int:
    return -1 if x is None else int(x)


def _opt_list(x: list[int] | None) -> list[int] | None:
    return None if x is None else list(x)


def _opt_ints(x: Any) -> list[int] | None:
    return None if x is None else [int(v) for v in x]


def _ints(x: Any) -> list[int]:
    return [int(v) for v in x]


def _copy_rows(rows: list[list[int]]) -> list[list[int]]:
    """A copy of per-seat lists of card kinds (ints)."""
    return [r[:] for r in rows]


def _compile_dump(
    fields: tuple[Field, ...], keys: tuple[str, ...]
) -> Callable[[Any, dict[str, JSON]], dict[str, JSON]]:
    """``dump(state, groups)``: the ``state_dict`` with its keys in the order ``keys``, each
    either a serialised field (its ``dump`` of the attribute, as
    :func:`septet.core.fields.dump_fields`) or taken from ``groups``; unrolled like
    :func:`septet.core.fields.compile_copy` (views are built at every move of a served game).

    Raises:
        ValueError: a serialised field whose key is not in ``keys``.
    """
    by_key = {f.json_key: (i, f) for i, f in enumerate(fields) if f.json_key is not None}
    missing = set(by_key) - set(keys)
    if missing:
        raise ValueError(f"serialised fields missing from the key order: {sorted(missing)}")
    env: dict[str, Any] = {}
    items = []
    for k in keys:
        if k not in by_key:
            items.append(f"{k!r}: groups[{k!r}]")
            continue
        i, f = by_key[k]
        if f.dump is same:
            items.append(f"{k!r}: obj.{f.name}")
        else:
            env[f"dump{i}"] = f.dump
            items.append(f"{k!r}: dump{i}(obj.{f.name})")
    exec("def dump(obj, groups):\n    return {" + ", ".join(items) + "}", env)
    dump: Callable[[Any, dict[str, JSON]], dict[str, JSON]] = env["dump"]
    return dump


FIELDS: tuple[Field, ...] = (
    # From the game's options (set by the constructor, copied by clone, not serialised).
    Field("_v", key=None),
    Field("_brutal", key=None),
    Field("_target", key=None),
    Field("_kinds", key=None),
    Field("_cap", key=None),
    Field("_max_rounds", key=None),
    # Serialised one to one (key, codec).
    Field("_round", key="round", load=int),
    Field("_dealer", dump=_none_if_neg, load=_neg_if_none),
    Field("_to_move", load=int),
    Field("_flip7", dump=_none_if_neg, load=_neg_if_none),
    Field("_bonus_to", key="flip7_choice", dump=_none_if_neg, load=_neg_if_none),
    Field("_stack", copy=list, dump=stack_to_json, load=stack_from_json),
    Field("_draws", key="round_draws", load=int),
    Field("_round_end", key="round_over", load=bool),
    Field("_last", key="last_round", copy=_opt_list, dump=_opt_list, load=_opt_ints),
    Field("_winners", copy=list, dump=list, load=_ints),
    # Serialised in groups by Flip7State._dump_groups / _load_groups: "decision", "draw",
    # "players" (with _mask and _ncount derived from the rows), "deck" and "discard" (with _deck
    # derived from the counts), "rounds" and "last_round_detail" (optional keys).
    Field("_dec", key=None),
    Field("_dec_card", key=None),
    Field("_draw_for", key=None),
    Field("_draw_flip", key=None),
    Field("_rows", copy=_copy_rows, key=None),
    Field("_post", copy=_copy_rows, key=None),
    Field("_status", copy=list, key=None),
    Field("_totals", copy=list, key=None),
    Field("_mask", copy=list, key=None),
    Field("_ncount", copy=list, key=None),
    Field("_dcount", copy=list, key=None),
    Field("_deck", copy=list, key=None),
    Field("_disc", copy=list, key=None),
    Field("_rounds", key=None),  # a tuple of frozen summaries: shared by clones
    Field("_last_detail", key=None),  # frozen JSON (see Flip7State._share)
)
"""Every field of a Flip7State, declared once: slots, clone and serialisation derive from it."""
_copy_fields = compile_copy(FIELDS)

_KEYS = (
    "game",
    "edition",
    "brutal",
    "target",
    "num_players",
    "round",
    "dealer",
    "to_move",
    "decision",
    "draw",
    "players",
    "flip7",
    "flip7_choice",
    "stack",
    "deck",
    "deck_size",
    "discard",
    "discard_size",
    "round_draws",
    "round_over",
    "last_round",
    "winners",
    "rounds",
    "last_round_detail",
)
"""The ``state_dict`` keys in their (stable) order."""
_dump_fields = _compile_dump(FIELDS, _KEYS)


class Flip7State(State):
    """A position of Flip 7 (either edition). See the module docstring for the model and view."""

    FIELDS = FIELDS
    __slots__ = slot_names(FIELDS)

    game: Flip7
    _stack: list[Frame]
    _last: list[int] | None
    _rounds: tuple[Any, ...]
    _last_detail: Any

    def __init__(self, game: Flip7, num_players: int) -> None:
        super().__init__(game, num_players)
        n = num_players
        opts = game.options
        self._v = opts.edition == "vengeance"
        self._brutal = bool(opts.brutal)
        self._target = int(opts.target)
        self._kinds = C.VENGEANCE_KINDS if self._v else C.CLASSIC_KINDS
        decks = game.num_decks(n)
        base = C.vengeance_deck() if self._v else C.classic_deck()
        self._dcount = [c * decks for c in base]
        self._deck = [k for k in range(C.NUM_KINDS) for _ in range(self._dcount[k])]
        self._disc = [0] * C.NUM_KINDS
        self._cap = game.round_draw_cap(n)
        self._max_rounds = game.max_rounds()
        self._to_move = CHANCE
        self._dec = D_NONE
        self._dec_card = -1
        self._draw_for = -1  # -1 at the first-dealer chance node
        self._draw_flip = False
        self._dealer = -1
        self._round = 0
        self._rows: list[list[int]] = [[] for _ in range(n)]
        self._post: list[list[int]] = [[] for _ in range(n)]
        self._status = [ACTIVE] * n
        self._mask = [0] * n
        self._ncount = [0] * n
        self._totals = [0] * n
        self._stack = []
        self._round_end = False
        self._flip7 = -1
        self._bonus_to = -1
        self._draws = 0
        self._last = None
        # Finished rounds for the end screens (issue 15): summaries, and the last round's
        # ``round_end`` data, frozen (immutable) so that clones share them.
        self._rounds = ()
        self._last_detail = None
        self._winners: list[int] = []

    # ----- whose turn ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` (a card or the first dealer is drawn) or ``TERMINAL``."""
        return self._to_move

    # ----- moves -----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The choices of the player to move, in a stable order: ``[hit, stay]`` (``[hit]`` with
        the Zero, F7V-6.1), ``target s`` by seat, Swap/Steal/Discard picks by seat then card
        kind, or ``[bonus, penalty s...]`` (F7V-8.3); ``[]`` at chance and terminal nodes."""
        dec = self._dec
        if self._to_move < 0:
            return []
        if dec == D_HITSTAY:
            # F7V-6.1 (rules.may_stay) restricts only a Zero holder: ask it then.
            if _ZERO in self._rows[self._to_move] and not may_stay(True, self._v):
                return [HIT]
            return [HIT, STAY]
        if dec == D_TARGET:
            return [target_action(s) for s in self._targets(self._to_move, self._dec_card)]
        if dec == D_BRUTAL:
            me = self._to_move
            return [BONUS, *(penalty_action(s) for s in range(self.num_players) if s != me)]
        return list(self._picks(self._to_move, self._dec_card))

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(draw k, count_k / cards left)`` for every kind left in the deck (F7V-3.6: the deck
        was refilled from the discard pile if it ran out), or ``(dealer s, 1/n)`` first."""
        if self._to_move != CHANCE:
            return []
        if self._draw_for < 0:
            p = 1.0 / self.num_players
            return [(dealer_action(s), p) for s in range(self.num_players)]
        total = len(self._deck)
        dc = self._dcount
        return [(draw_action(k), dc[k] / total) for k in range(C.NUM_KINDS) if dc[k]]

    def sample_chance(self, rng: random.Random) -> Action:
        """Exact and fast: the deck is kept as a list sorted by kind (a function of the counts),
        so a uniform index picks each kind with probability ``count / cards left``."""
        if self._to_move != CHANCE:
            raise IllegalActionError("not a chance node", reason_ja="今は偶然の手番ではありません")
        if self._draw_for < 0:
            return dealer_action(int(rng.random() * self.num_players))
        deck = self._deck
        return draw_action(deck[int(rng.random() * len(deck))])

    # ----- targets and picks -------------------------------------------------------------------
    def _targets(self, me: int, card: int) -> list[int]:
        """Seats that may receive ``card`` resolved by ``me`` (F7V-4.1, F7V-5.1, F7V-8.2, F7V-9)."""
        st = self._status
        n = self.num_players
        if self._v:
            if self._brutal and _IS_MOD[card]:
                return list(range(n))  # F7V-8.2
            return [s for s in range(n) if st[s] != BUSTED]
        if card == _SECOND:
            rows = self._rows
            return [s for s in range(n) if s != me and st[s] == ACTIVE and _SECOND not in rows[s]]
        return [s for s in range(n) if st[s] == ACTIVE]

    def _picks(self, me: int, card: int) -> list[F7Action]:
        """Every Swap/Steal/Discard choice for ``me`` (F7V-4.5 … F7V-4.7), in a stable order."""
        st = self._status
        rows = self._rows
        n = self.num_players
        out: list[F7Action] = []
        if card == C.STEAL:
            for s in range(n):
                if s != me and st[s] != BUSTED:
                    out.extend(steal_action(s, k) for k in sorted(set(rows[s])))
        elif card == C.DISCARD:
            for s in range(n):
                if st[s] != BUSTED:
                    out.extend(discard_action(s, k) for k in sorted(set(rows[s])))
        elif card == C.SWAP:
            live = [(s, sorted(set(rows[s]))) for s in range(n) if st[s] != BUSTED and rows[s]]
            for i, (s1, ks1) in enumerate(live):
                for s2, ks2 in live[i + 1 :]:
                    # Swapping two equal cards changes nothing, except two Unlucky 7s (two decks)
                    # next to other cards: each arrival discards its receiver's row (F7V-6.2).
                    same_u7 = len(rows[s1]) > 1 or len(rows[s2]) > 1
                    for k1 in ks1:
                        for k2 in ks2:
                            if k1 != k2 or (k1 == _U7 and same_u7):
                                out.append(swap_action(s1, k1, s2, k2))
        return out

    # ----- applying -----------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply a player action or a chance outcome and resolve everything it triggers until the
        next decision or draw (see the module docstring for the events returned).

        Raises:
            IllegalActionError: not legal now (with the rule id); the state is unchanged.
        """
        if type(action) is not F7Action:
            self._reject(action)
        ev: list[Event] = []
        tm = self._to_move
        if tm == CHANCE:
            arg = action.a  # the drawn card or the dealer (.card / .seat; the slot: hot path)
            op = action.op
            if (
                op == OP_DRAW
                and self._draw_for >= 0
                and 0 <= arg < C.NUM_KINDS
                and self._dcount[arg]
            ):
                self._to_move = _RUN
                self._on_draw(arg, ev)  # F7V-3.2
            elif op == OP_DEALER and self._draw_for < 0 and 0 <= arg < self.num_players:
                self._to_move = _RUN
                self._dealer = arg  # F7V-3.1
                ev.append(Event("dealer", arg))
                self._start_round(ev)
            else:
                self._reject(action)
        elif tm >= 0:
            hit_stay = self._dec == D_HITSTAY
            op = action.op
            if op == OP_HIT and hit_stay:  # F7V-3.3
                self._dec = D_NONE
                self._to_move = _RUN
                self._stack[-1] = TURNS[(tm + 1) % self.num_players]
                ev.append(_card_event("hit", tm, -1))
                self._draw(tm, False, ev)  # at CHANCE now, or _RUN when the round ends
            elif (
                op == OP_STAY
                and hit_stay
                and (_ZERO not in self._rows[tm] or may_stay(True, self._v))
            ):
                self._dec = D_NONE
                self._to_move = _RUN
                self._stack[-1] = TURNS[(tm + 1) % self.num_players]
                self._status[tm] = STAYED
                ev.append(_card_event("stay", tm, -1))
            elif action in self.legal_actions():
                self._dec = D_NONE
                self._to_move = _RUN
                self._on_decision(tm, action, ev)
            else:
                self._reject(action)
        else:
            self._reject(action)
        if self._to_move == _RUN:
            self._run(ev)
        self.history.append(action)
        return ev

    def _reject(self, action: Action) -> NoReturn:
        self.check_action(action)  # raises with the rule broken
        raise IllegalActionError(
            f"{action} is not legal now", reason_ja=f"今は{action}はできません"
        )

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is illegal now."""
        if type(action) is not F7Action:
            raise IllegalActionError(
                f"{action!r} is not a Flip 7 action",
                reason_ja=f"{action!r}はフリップ7のアクションではありません",
            )
        tm = self._to_move
        if tm == TERMINAL:
            raise IllegalActionError(
                "the game is over", rule="F7V-3.7", reason_ja="ゲームは終了しています"
            )
        if tm == CHANCE:
            self._check_chance(action)
            return
        if action.op in (Op.DRAW, Op.DEALER):
            raise IllegalActionError(
                f"{action} is a chance outcome; a player is to move",
                reason_ja=f"{action}は偶然の結果です。今はプレイヤーの手番です",
            )
        if action not in self.legal_actions():
            self._check_decision(action)

    def _check_chance(self, action: F7Action) -> None:
        """Raise unless ``action`` is a possible chance outcome now (F7V-3.1, F7V-3.6)."""
        match action:
            case F7Action(op=Op.DEALER, seat=seat) if self._draw_for < 0:
                if 0 <= seat < self.num_players:
                    return
                raise IllegalActionError(
                    f"there is no seat {seat}", rule="F7V-3.1", reason_ja=f"席{seat}はありません"
                )
            case F7Action(op=Op.DRAW, card=k) if self._draw_for >= 0:
                if 0 <= k < C.NUM_KINDS and self._dcount[k]:
                    return
                raise IllegalActionError(
                    f"no {C.TOKENS[k] if 0 <= k < C.NUM_KINDS else k} is left in the deck",
                    rule="F7V-3.6",
                    reason_ja=f"山札に{C.card_name(k, 'ja') if 0 <= k < C.NUM_KINDS else k}"
                    "はもう残っていません",
                )
        raise IllegalActionError(
            f"{action} is not a possible chance outcome now",
            reason_ja=f"{action}は今ありうる偶然の結果ではありません",
        )

    def _check_decision(self, action: F7Action) -> NoReturn:
        """Raise for a player action that the pending decision does not allow, naming the rule."""
        dec = self._dec
        card = self._dec_card
        if dec == D_HITSTAY:
            if action.op == Op.STAY:
                raise IllegalActionError(
                    "a player holding the Zero may only hit",
                    rule="F7V-6.1",
                    reason_ja="ゼロを持っているとヒットしか選べません",
                )
            raise IllegalActionError(
                "choose hit or stay", rule="F7V-3.3", reason_ja="ヒットかステイを選んでください"
            )
        if dec == D_TARGET:
            rule = "F7V-5.1" if _IS_MOD[card] else "F7V-4.1"
            raise IllegalActionError(
                f"{action} is not a valid target for {C.TOKENS[card]}",
                rule=rule if self._v else "F7V-9",
                reason_ja=f"{action}: その席は{C.card_name(card, 'ja')}の対象に選べません",
            )
        if dec == D_BRUTAL:
            raise IllegalActionError(
                f"choose +{FLIP7_BONUS} for yourself (bonus) or −{FLIP7_BONUS} to another player",
                rule="F7V-8.3",
                reason_ja=f"自分に+{FLIP7_BONUS}（bonus）か、他の1人に−{FLIP7_BONUS}"
                "（penalty N）を選んでください",
            )
        rule = {D_SWAP: "F7V-4.5", D_STEAL: "F7V-4.6", D_DISCARD: "F7V-4.7"}.get(dec, "")
        raise IllegalActionError(
            f"{action} does not pick face-up cards this {C.TOKENS[card]} may take",
            rule=rule,
            reason_ja=f"{action}: この{C.card_name(card, 'ja')}で選べる表向きのカードでは"
            "ありません",
        )

    # ----- the engine ----------------------------------------------------------------------------
    def _draw(self, seat: int, flip: bool, ev: list[Event]) -> bool:
        """Prepare a draw for ``seat``; reshuffle if needed (F7V-3.6). False: the round ends."""
        if self._draws >= self._cap:
            ev.append(Event("draw_limit", None, {"draws": self._draws}))
            self._round_end = True
            return False
        if not self._deck:
            disc = self._disc
            if not any(disc):
                ev.append(Event("no_cards", None))
                self._round_end = True
                return False
            # F7V-3.6: only the discard pile is shuffled; cards in front of players stay out.
            self._dcount = disc
            self._disc = [0] * C.NUM_KINDS
            self._deck = [k for k in range(C.NUM_KINDS) for _ in range(disc[k])]
            ev.append(Event("reshuffle", None, {"cards": len(self._deck)}))
        self._to_move = CHANCE
        self._draw_for = seat
        self._draw_flip = flip
        return True

    def _on_draw(self, k: int, ev: list[Event]) -> None:
        """The drawn card ``k`` reaches the receiver (F7V-3.2, F7V-4.4, F7V-4.8)."""
        deck = self._deck
        del deck[deck.index(k)]
        self._dcount[k] -= 1
        self._draws += 1
        t = self._draw_for
        ev.append(_card_event("draw", t, k))
        if _IS_NUM[k] or (_IS_MOD[k] and not self._v):
            self._arrive(t, k, ev)
        elif self._draw_flip and not (k == _SECOND and _SECOND not in self._rows[t]):
            # F7V-4.8: set aside, resolved after the flips (a classic Second Chance is kept at
            # once when its receiver has none, so it protects the rest of the Flip Three).
            fr = self._stack[-1]
            assert type(fr) is Flip
            self._stack[-1] = Flip(fr.player, fr.left, (*fr.set_aside, k))
            ev.append(Event("set_aside", t, {"card": _TOK[k]}))
        else:
            self._start_card(t, k, ev)

    def _arrive(self, p: int, k: int, ev: list[Event]) -> None:
        """A number or modifier card enters ``p``'s row like a dealt card (F7V-4.9)."""
        row = self._rows[p]
        if not _IS_NUM[k]:
            row.append(k)
            return
        bit = 1 << _VALUE[k]
        if k == _U7 or self._mask[p] & bit:  # else a new value: always kept (F7V-2)
            v = _VALUE[k]
            same = sum(1 for c in row if _VALUE[c] == v)
            arrival = number_arrival(
                k, same, _L13 in row, vengeance=self._v, second_chance=_SECOND in row
            )
            if arrival is not Arrival.KEEP:
                self._arrive_special(p, k, arrival, ev)
                return
        row.append(k)
        self._mask[p] |= bit
        n = self._ncount[p] + 1
        self._ncount[p] = n
        if n >= FLIP7_CARDS and self._flip7 < 0:  # is_flip7(n), inline
            self._flip7 = p  # F7V-3.4: the round ends at once
            self._round_end = True
            ev.append(Event("flip7", p))

    def _arrive_special(self, p: int, k: int, arrival: Arrival, ev: list[Event]) -> None:
        """Number card ``k`` reaches ``p``'s row as the Unlucky 7 (F7V-6.2), a duplicate saved
        by a Second Chance (F7V-9) or a bust (F7V-2)."""
        row = self._rows[p]
        disc = self._disc
        if arrival is Arrival.UNLUCKY7:
            # F7V-6.2: discard every number and modifier card, keep only this 7; never busts.
            gone = [c for c in row if unlucky7_discards(c)]
            for c in gone:
                disc[c] += 1
            row[:] = [c for c in row if not unlucky7_discards(c)]
            row.append(k)
            self._mask[p] = 1 << _VALUE[k]
            self._ncount[p] = 1
            ev.append(Event("unlucky7", p, {"discarded": [_TOK[c] for c in gone]}))
        elif arrival is Arrival.SAVED:
            row.remove(_SECOND)  # F7V-9: discard it and the duplicate instead of busting
            disc[_SECOND] += 1
            disc[k] += 1
            ev.append(Event("second_chance", p, {"card": _TOK[k]}))
        else:
            row.append(k)
            self._ncount[p] += 1  # counts the number cards in the row, face down or not
            self._status[p] = BUSTED
            ev.append(_card_event("bust", p, k))

    def _recount(self, p: int) -> None:
        mask = 0
        n = 0
        for c in self._rows[p]:
            if _IS_NUM[c]:
                mask |= 1 << _VALUE[c]
                n += 1
        self._mask[p] = mask
        self._ncount[p] = n

    def _start_card(self, t: int, k: int, ev: list[Event]) -> None:
        """``t`` resolves modifier or action card ``k`` now: decide, or act if forced."""
        if k == _SECOND and _SECOND not in self._rows[t]:
            self._rows[t].append(k)  # F7V-9: keep it
            return
        targeted = _IS_MOD[k] or k in (C.JOM, C.FLIP4, C.FREEZE, C.FLIP3, _SECOND)
        options: list[Any] = self._targets(t, k) if targeted else self._picks(t, k)
        if len(options) > 1:
            self._to_move = t
            self._dec = D_TARGET if targeted else _DECISION_OF_CARD[k]
            self._dec_card = k
        elif options:
            ev.append(Event("forced", t, {"card": _TOK[k]}))
            if targeted:
                self._give(t, k, options[0], ev)
            else:
                self._pick(t, k, options[0], ev)
        else:
            self._disc[k] += 1  # F7V-4.1 ruling: no valid target, discarded
            ev.append(Event("no_target", t, {"card": _TOK[k]}))

    def _give(self, t: int, k: int, s: int, ev: list[Event]) -> None:
        """``t`` plays card ``k`` on seat ``s``."""
        ev.append(Event("give", t, {"card": _TOK[k], "to": s}))
        if _IS_MOD[k]:
            if self._status[s] == BUSTED:
                self._post[s].append(k)  # F7V-8.2
            else:
                self._rows[s].append(k)
            return
        if k == _SECOND:
            self._rows[s].append(k)
            return
        # F7V-4.3, F7V-3.6: a Just One More, Flip 4 or Flip Three stays in play (out of any
        # reshuffle) until its frame leaves the stack, then goes to the discard pile.
        if k == C.JOM:
            self._stack.append(just_one_more(s, False))
        elif k == C.FLIP4:
            self._stack.append(FLIPS[s][FLIP4_CARDS])  # F7V-4.8
        elif k == C.FLIP3:
            self._stack.append(FLIPS[s][FLIP3_CARDS])  # F7V-9
        else:  # Freeze
            self._disc[k] += 1
        if k == C.FREEZE and self._status[s] == ACTIVE:
            self._status[s] = STAYED
            ev.append(Event("stay", s, {"frozen": True}))

    def _take(self, s: int, k: int) -> None:
        self._rows[s].remove(k)
        if _IS_NUM[k]:
            self._recount(s)

    def _pick(self, t: int, card: int, a: F7Action, ev: list[Event]) -> None:
        """Swap/Steal/Discard by ``t`` (F7V-4.5 … F7V-4.7, F7V-4.9)."""
        self._disc[card] += 1
        match a:
            case F7Action(op=Op.STEAL, seat=seat, card=k):
                ev.append(Event("steal", t, {"from": seat, "card": _TOK[k]}))
                self._take(seat, k)
                self._arrive(t, k, ev)
            case F7Action(op=Op.DISCARD, seat=seat, card=k):
                ev.append(Event("discard", t, {"from": seat, "card": _TOK[k]}))
                self._take(seat, k)
                self._disc[k] += 1
            case F7Action(op=Op.SWAP, seat=s1, card=k1, other_seat=s2, other_card=k2):
                ev.append(Event("swap", t, {"seats": [s1, s2], "cards": [_TOK[k1], _TOK[k2]]}))
                self._take(s1, k1)
                self._take(s2, k2)
                self._arrive(s2, k1, ev)
                self._arrive(s1, k2, ev)

    def _on_decision(self, t: int, a: F7Action, ev: list[Event]) -> None:
        card = self._dec_card
        self._dec_card = -1
        match a:
            case F7Action(op=Op.TARGET, seat=seat):
                self._give(t, card, seat, ev)
            case F7Action(op=Op.BONUS):
                self._bonus_to = t
                ev.append(Event("flip7_bonus", t))
            case F7Action(op=Op.PENALTY, seat=seat):
                self._bonus_to = seat
                ev.append(Event("flip7_penalty", t, {"to": seat}))
            case _:
                self._pick(t, card, a, ev)

    def _start_round(self, ev: list[Event]) -> None:
        self._round += 1
        self._stack = [DEALS[1]]
        ev.append(Event("round_start", self._dealer, {"round": self._round}))

    def _run(self, ev: list[Event]) -> None:
        """Advance until a player decision, a draw, or the end of the game."""
        stack = self._stack
        st = self._status
        n = self.num_players
        while True:
            if self._round_end:
                if self._finish_round(ev):
                    return
                stack = self._stack
                continue
            fr: Any = stack[-1]  # a Frame (mypy does not narrow on `type(fr) is`)
            # Dispatched on the frame's type by identity: a class pattern (`case Turn()`)
            # measured ~5% slower on random playouts, a value pattern (`case F.Turn`) ~2% (so
            # apply tests its op codes with if/elif too).
            tf = type(fr)
            if tf is _Turn:
                ptr = fr.next
                for i in range(n):
                    s = (ptr + i) % n
                    if st[s] == ACTIVE:
                        self._to_move = s
                        self._dec = D_HITSTAY
                        return
                self._round_end = True  # F7V-3.4: nobody active
            elif tf is _Deal:
                k = fr.next
                d = self._dealer
                while k <= n and st[(d + k) % n] != ACTIVE:
                    k += 1
                if k > n:
                    stack[-1] = TURNS[(d + 1) % n]  # F7V-3.3
                    continue
                stack[-1] = DEALS[k + 1]
                if self._draw((d + k) % n, False, ev):
                    return
            elif tf is JustOneMore:
                t = fr.player
                if not fr.drawn and st[t] != BUSTED:
                    stack[-1] = JOMS[t][True]
                    if self._draw(t, False, ev):
                        return
                else:
                    stack.pop()
                    self._disc[C.JOM] += 1  # F7V-4.3: used up
                    if st[t] == ACTIVE:  # F7V-4.4: then must stay (even with the Zero)
                        st[t] = STAYED
                        ev.append(Event("stay", t, {"forced": True}))
            else:  # Flip
                t, left, queue = fr.player, fr.left, fr.set_aside
                if st[t] == BUSTED:
                    stack.pop()  # F7V-4.8: set-aside cards are discarded on a bust
                    self._discard_frame(fr)
                    if queue:
                        ev.append(Event("set_aside_lost", t, {"cards": [_TOK[c] for c in queue]}))
                elif left > 0:
                    stack[-1] = Flip(t, left - 1, queue) if queue else FLIPS[t][left - 1]
                    if self._draw(t, True, ev):
                        return
                elif queue:
                    stack[-1] = Flip(t, 0, queue[1:])
                    self._start_card(t, queue[0], ev)
                    if self._to_move >= 0:
                        return
                else:
                    stack.pop()
                    self._disc[self._flip_card] += 1  # F7V-4.3: used up

    @property
    def _flip_card(self) -> int:
        """The card behind a flip frame: Flip 4 (Vengeance) or Flip Three (classic)."""
        return C.FLIP4 if self._v else C.FLIP3

    def _discard_frame(self, fr: Frame) -> None:
        """A frame's cards in play go to the discard pile: a Flip 4 (Flip Three) with its set-aside
        cards, a Just One More (F7V-4.3, F7V-4.8)."""
        match fr:
            case Flip(set_aside=queue):
                self._disc[self._flip_card] += 1
                for c in queue:
                    self._disc[c] += 1
            case JustOneMore():
                self._disc[C.JOM] += 1

    def _finish_round(self, ev: list[Event]) -> bool:
        """Score the round (F7V-7); start the next or end the game. True: stop running."""
        for fr in self._stack:  # F7V-3.4: the Flip 4 and its set-aside cards, a Just One More
            if type(fr) is Flip or type(fr) is JustOneMore:
                self._discard_frame(fr)
        self._stack = []
        f = self._flip7
        if self._brutal and f >= 0 and self._bonus_to < 0:
            self._to_move = f  # F7V-8.3
            self._dec = D_BRUTAL
            self._dec_card = -1
            return True
        totals = self._score_round(ev)
        # F7V-3.7: a lone leader at or above the target wins; ties play on (round cap: rulings).
        if game_winners(totals, self._target) or self._round >= self._max_rounds:
            best = max(totals)
            self._winners = [p for p in range(self.num_players) if totals[p] == best]
            self._to_move = TERMINAL
            self._dec = D_NONE
            ev.append(Event("game_end", None, {"winners": list(self._winners)}))
            return True
        self._next_round(ev)
        return False

    def _score_round(self, ev: list[Event]) -> list[int]:
        """Add the round's scores to the totals, record the round, emit ``round_end`` (F7V-7);
        returns the totals."""
        n = self.num_players
        f = self._flip7
        rows = [self._row_score(p) for p in range(n)]
        totals = self._totals
        for p in range(n):
            totals[p] += rows[p].score
        self._last = [r.score for r in rows]
        status = [STATUS_NAMES[s] for s in self._status]
        detail: dict[str, JSON] = {
            "round": self._round,
            "rows": [[_TOK[c] for c in r] for r in self._rows],
            "after_bust": [[_TOK[c] for c in r] for r in self._post],
            "status": status,
            "flip7": f if f >= 0 else None,
            "flip7_choice": self._bonus_to if self._bonus_to >= 0 else None,
            "scores": self._last,
            "breakdown": [r.breakdown() for r in rows],
            "totals": list(totals),
        }
        # Shared with the event until the first clone or view freezes it (_share): a random
        # playout never pays for the copy.
        self._last_detail = detail
        summary = (
            ("round", self._round),
            ("scores", tuple(self._last)),
            ("status", tuple(["flip7" if p == f else status[p] for p in range(n)])),
            ("flip7", f if f >= 0 else None),
            ("totals", tuple(totals)),
        )
        self._rounds = (*self._rounds, _Frozen(summary))
        ev.append(Event("round_end", None, detail))
        return totals

    def _next_round(self, ev: list[Event]) -> None:
        """F7V-3.5: the round's cards go to the discard pile; the deck passes left."""
        disc = self._disc
        for p in range(self.num_players):
            for c in self._rows[p]:
                disc[c] += 1
            for c in self._post[p]:
                disc[c] += 1
            self._rows[p] = []
            self._post[p] = []
            self._status[p] = ACTIVE
            self._mask[p] = 0
            self._ncount[p] = 0
        self._dealer = (self._dealer + 1) % self.num_players
        self._draws = 0
        self._flip7 = -1
        self._bonus_to = -1
        self._round_end = False
        self._start_round(ev)

    def round_breakdown(self, p: int) -> dict[str, JSON]:
        """Seat ``p``'s round scoring step by step, for the end-of-round display (F7V-7.2):
        ``numbers`` (sum of number cards), ``after_multiplier`` (after ÷2 or ×2), ``modifiers``
        (points added by ±modifiers), ``zero`` (the Zero zeroed it), ``bonus`` (+15 Flip 7),
        ``penalty`` (brutal −15 received), ``busted`` and ``score``."""
        return self._row_score(p).breakdown()

    def round_score(self, p: int) -> int:
        """What seat ``p`` scores for the current round if it ended now (F7V-7, F7V-8, F7V-9)."""
        return self._row_score(p).score

    def _row_score(self, p: int) -> RowScore:
        # The rule is scoring.score_row (F7V-7, F7V-8); until the brutal achiever chooses, the
        # +15 counts for them (rulings).
        f = self._flip7
        return score_row(
            self._rows[p],
            vengeance=self._v,
            brutal=self._brutal,
            busted=self._status[p] == BUSTED,
            after_bust=self._post[p],
            flip7=f == p,
            bonus=self._bonus_to in (p, -1),
            penalized=f >= 0 and self._bonus_to == p and p != f,
        )

    # ----- information ---------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """The public table (the format in the module docstring) with ``seat`` added; every seat
        sees the same thing since only the deck order is hidden."""
        data = self._public()
        data["seat"] = seat
        # The rule's number, so that clients write it from the engine (F7V-7.2, F7V-8.3)
        data["flip7_bonus"] = FLIP7_BONUS
        # Everything is public in Flip 7, so a single legal action (a Zero holder's hit,
        # F7V-6.1) is seen by all to be forced.
        data["forced_public"] = (
            seat is not None and seat == self._to_move and len(self.legal_actions()) == 1
        )
        return data

    def _public(self) -> dict[str, JSON]:
        # dump_fields(self, FIELDS) and the groups, in the order of _KEYS, unrolled
        return _dump_fields(self, self._dump_groups())

    def _dump_groups(self) -> dict[str, JSON]:
        """The ``state_dict`` entries that are not one field each (see :data:`FIELDS`)."""
        tok = _TOK
        n = self.num_players
        dc = self._dcount
        disc = self._disc
        kinds = self._kinds
        ktoks = [tok[k] for k in kinds]
        decision: JSON = None
        if self._dec != D_NONE and self._to_move >= 0:
            decision = {
                "kind": DECISION_NAMES[self._dec],
                "player": self._to_move,
                "card": tok[self._dec_card] if self._dec_card >= 0 else None,
            }
        draw: JSON = None
        if self._to_move == CHANCE and self._draw_for >= 0:
            draw = {"player": self._draw_for, "set_aside": self._draw_flip}
        return {
            "game": "flip7",
            "edition": "vengeance" if self._v else "classic",
            "brutal": self._brutal,
            "target": self._target,
            "num_players": n,
            "decision": decision,
            "draw": draw,
            "players": [
                {
                    "row": list(map(tok.__getitem__, self._rows[p])),
                    "status": STATUS_NAMES[self._status[p]],
                    "after_bust": list(map(tok.__getitem__, self._post[p])),
                    "total": self._totals[p],
                    "round_score": self.round_score(p),
                    "numbers": self._ncount[p],
                }
                for p in range(n)
            ],
            "deck": dict(zip(ktoks, [dc[k] for k in kinds], strict=True)),
            "deck_size": len(self._deck),
            "discard": dict(zip(ktoks, [disc[k] for k in kinds], strict=True)),
            "discard_size": sum(disc),
            # Added for the round-end and end screens (issue 15); see the module docstring.
            "rounds": _thaw(self._rounds),
            "last_round_detail": _thaw(self._share()),
        }

    def determinize(self, seat: Seat, rng: random.Random) -> Flip7State:
        """The deck order is the only hidden thing and the engine never fixes it (draws are chance
        nodes over the remaining multiset), so every determinization is an equivalent copy."""
        return self.clone()

    def observation_tensor(self, seat: Seat) -> list[float]:
        """Fixed-size floats for ``seat`` (layout in :mod:`septet.games.flip7.observation`)."""
        from septet.games.flip7.observation import encode

        return encode(self, seat)

    # ----- results -----------------------------------------------------------------------------
    def round_index(self) -> int:
        """The round being played: 0 before the first dealer is drawn, then 1 for the first
        round (F7V-3); it goes up in the step that scores a round and deals the next."""
        return self._round

    def scores(self) -> list[float]:
        """Game totals per seat (the sum of the round scores, F7V-7)."""
        return [float(t) for t in self._totals]

    def winners(self) -> list[Seat]:
        """The lone leader at or above the target (F7V-3.7), or every seat sharing the highest
        total when the round cap ends the game; ``[]`` before the end."""
        return list(self._winners) if self._to_move == TERMINAL else []

    # ----- copying and serialisation ------------------------------------------------------------
    def clone(self) -> Flip7State:
        """An independent copy (history included): every field of :data:`FIELDS` copied."""
        self._share()
        new = object.__new__(Flip7State)
        new.game = self.game
        new.num_players = self.num_players
        new.history = list(self.history)
        _copy_fields(self, new)  # copy_fields(self, new, FIELDS), unrolled
        return new

    def _share(self) -> Any:
        """Freeze the last round's detail (a dict shared with the ``round_end`` event when the
        round has just ended) so that clones and views may share it; returns it."""
        detail = self._last_detail
        if type(detail) is dict:
            detail = self._last_detail = _freeze(detail)
        return detail

    def state_dict(self) -> dict[str, JSON]:
        """Every field of the position as JSON: the view format without ``seat``."""
        return self._public()

    def load_state_dict(self, data: Mapping[str, JSON]) -> None:
        """Restore from :meth:`state_dict` or a view (the ``seat`` field is ignored).

        Raises:
            RecordError: malformed data or another edition.
        """
        try:
            self._load(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(f"not a valid Flip 7 state: {exc!r}") from exc

    def _load(self, data: Mapping[str, Any]) -> None:
        n = self.num_players
        edition = "vengeance" if self._v else "classic"
        if data["edition"] != edition or bool(data["brutal"]) != self._brutal:
            raise RecordError("the state is from another edition or mode of Flip 7")
        if int(data["num_players"]) != n:
            raise RecordError("the state has another number of players")
        players = data["players"]
        if len(players) != n:
            raise RecordError("one player object per seat expected")
        load_fields(self, FIELDS, data)
        self._load_groups(data)

    def _load_groups(self, data: Mapping[str, Any]) -> None:
        """Read the ``state_dict`` entries that are not one field each (see :data:`FIELDS`)."""
        kind_of = C.KIND_OF_TOKEN

        def kinds(tokens: Any) -> list[int]:
            return [kind_of[str(t)] for t in tokens]

        dec = data["decision"]
        if dec is None:
            self._dec, self._dec_card = D_NONE, -1
        else:
            self._dec = DECISION_NAMES.index(dec["kind"])
            self._dec_card = -1 if dec["card"] is None else kind_of[dec["card"]]
        draw = data["draw"]
        if draw is None:
            self._draw_for, self._draw_flip = -1, False
        else:
            self._draw_for, self._draw_flip = int(draw["player"]), bool(draw["set_aside"])
        players = data["players"]
        self._rows = [kinds(pl["row"]) for pl in players]
        self._post = [kinds(pl["after_bust"]) for pl in players]
        self._status = [STATUS_NAMES.index(pl["status"]) for pl in players]
        self._totals = [int(pl["total"]) for pl in players]
        self._mask = [0] * self.num_players
        self._ncount = [0] * self.num_players
        for p in range(self.num_players):
            self._recount(p)
        self.set_piles(data["deck"], data["discard"])
        # Optional: states written before these keys existed load with no round history.
        self._rounds = tuple(_freeze(r) for r in data.get("rounds") or ())
        self._last_detail = _freeze(data.get("last_round_detail"))

    # ----- helpers for tests and puzzles ---------------------------------------------------------
    def set_piles(self, deck: Mapping[str, int], discard: Mapping[str, int] | None = None) -> None:
        """Replace the deck and discard pile compositions (``{token: count}``), for hand-built
        test positions. Cards in rows are not checked against the edition's card counts."""
        dc = [0] * C.NUM_KINDS
        disc = [0] * C.NUM_KINDS
        for t, c in deck.items():
            dc[C.KIND_OF_TOKEN[t]] = int(c)
        for t, c in (discard or {}).items():
            disc[C.KIND_OF_TOKEN[t]] = int(c)
        self._dcount = dc
        self._disc = disc
        self._deck = [k for k in range(C.NUM_KINDS) for _ in range(dc[k])]
