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

The round is driven by a small stack of frames (dealing, turns, a pending Just One More, a Flip 4
with its set-aside cards); ``_run`` advances it until a player decision or a draw is needed.

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from septet.core.errors import IllegalActionError, RecordError
from septet.core.game import Action, State
from septet.core.types import CHANCE, JSON, TERMINAL, Event, Seat
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import (
    BONUS,
    HIT,
    OP_BONUS,
    OP_DEALER,
    OP_DISCARD,
    OP_DRAW,
    OP_HIT,
    OP_PENALTY,
    OP_STAY,
    OP_STEAL,
    OP_SWAP,
    OP_TARGET,
    STAY,
    F7Action,
    dealer_action,
    draw_action,
    penalty_action,
    target_action,
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
# Frames
F_DEAL, F_TURN, F_JOM, F_FLIP = range(4)

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


def _copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (lists, tuples as lists, dicts), so that a view handed out
    never shares a list with the state."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy_json(v) for v in value]
    return value


class Flip7State(State):
    """A position of Flip 7 (either edition). See the module docstring for the model and view."""

    __slots__ = (
        "_bonus_to",
        "_brutal",
        "_cap",
        "_dcount",
        "_dealer",
        "_dec",
        "_dec_card",
        "_deck",
        "_disc",
        "_draw_flip",
        "_draw_for",
        "_draws",
        "_ev",
        "_flip7",
        "_kinds",
        "_last",
        "_last_detail",
        "_mask",
        "_max_rounds",
        "_ncount",
        "_post",
        "_round",
        "_round_end",
        "_rounds",
        "_rows",
        "_stack",
        "_status",
        "_target",
        "_to_move",
        "_totals",
        "_v",
        "_winners",
    )

    game: Flip7

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
        self._stack: list[tuple[Any, ...]] = []
        self._round_end = False
        self._flip7 = -1
        self._bonus_to = -1
        self._draws = 0
        self._last: list[int] | None = None
        # Finished rounds for the end screens (issue 15): summaries, and the last round's
        # ``round_end`` data. Tuples and dicts never changed once made, so clones share them.
        self._rounds: tuple[dict[str, JSON], ...] = ()
        self._last_detail: dict[str, JSON] | None = None
        self._winners: list[int] = []
        self._ev: list[Event] = []

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
            if self._v and _ZERO in self._rows[self._to_move]:
                return [HIT]  # F7V-6.1
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
                    out.extend(F7Action(OP_STEAL, s, k) for k in sorted(set(rows[s])))
        elif card == C.DISCARD:
            for s in range(n):
                if st[s] != BUSTED:
                    out.extend(F7Action(OP_DISCARD, s, k) for k in sorted(set(rows[s])))
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
                                out.append(F7Action(OP_SWAP, s1, k1, s2, k2))
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
        act: F7Action = action
        op = act[0]
        tm = self._to_move
        ev: list[Event] = []
        if tm == CHANCE:
            if op == OP_DRAW and self._draw_for >= 0:
                k = act[1]
                if not (0 <= k < C.NUM_KINDS and self._dcount[k]):
                    self._reject(action)
                self._ev = ev
                self._to_move = _RUN
                self._on_draw(k)
            elif op == OP_DEALER and self._draw_for < 0 and 0 <= act[1] < self.num_players:
                self._ev = ev
                self._to_move = _RUN
                self._dealer = act[1]
                ev.append(Event("dealer", act[1]))
                self._start_round()
            else:
                self._reject(action)
        elif tm >= 0:
            dec = self._dec
            if dec == D_HITSTAY and op == OP_HIT:
                self._ev = ev
                self._dec = D_NONE
                self._to_move = _RUN
                self._stack[-1] = (F_TURN, (tm + 1) % self.num_players)
                ev.append(_card_event("hit", tm, -1))
                if self._draw(tm, False):
                    self.history.append(action)
                    return ev
            elif dec == D_HITSTAY and op == OP_STAY and not (self._v and _ZERO in self._rows[tm]):
                self._ev = ev
                self._dec = D_NONE
                self._to_move = _RUN
                self._stack[-1] = (F_TURN, (tm + 1) % self.num_players)
                self._status[tm] = STAYED
                ev.append(_card_event("stay", tm, -1))
            elif action in self.legal_actions():
                self._ev = ev
                self._dec = D_NONE
                self._to_move = _RUN
                self._on_decision(tm, act)
            else:
                self._reject(action)
        else:
            self._reject(action)
        if self._to_move == _RUN:
            self._run()
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
        op = action[0]
        if tm == TERMINAL:
            raise IllegalActionError(
                "the game is over", rule="F7V-3.7", reason_ja="ゲームは終了しています"
            )
        if tm == CHANCE:
            if op == OP_DEALER and self._draw_for < 0:
                if 0 <= action[1] < self.num_players:
                    return
                raise IllegalActionError(
                    f"there is no seat {action[1]}",
                    rule="F7V-3.1",
                    reason_ja=f"席{action[1]}はありません",
                )
            if op == OP_DRAW and self._draw_for >= 0:
                k = action[1]
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
        if op in (OP_DRAW, OP_DEALER):
            raise IllegalActionError(
                f"{action} is a chance outcome; a player is to move",
                reason_ja=f"{action}は偶然の結果です。今はプレイヤーの手番です",
            )
        if action in self.legal_actions():
            return
        dec = self._dec
        if dec == D_HITSTAY:
            if op == OP_STAY:
                raise IllegalActionError(
                    "a player holding the Zero may only hit",
                    rule="F7V-6.1",
                    reason_ja="ゼロを持っているとヒットしか選べません",
                )
            raise IllegalActionError(
                "choose hit or stay", rule="F7V-3.3", reason_ja="ヒットかステイを選んでください"
            )
        if dec == D_TARGET:
            rule = "F7V-5.1" if _IS_MOD[self._dec_card] else "F7V-4.1"
            if not self._v:
                rule = "F7V-9"
            raise IllegalActionError(
                f"{action} is not a valid target for {C.TOKENS[self._dec_card]}",
                rule=rule,
                reason_ja=f"{action}: その席は{C.card_name(self._dec_card, 'ja')}"
                "の対象に選べません",
            )
        if dec == D_BRUTAL:
            raise IllegalActionError(
                "choose +15 for yourself (bonus) or −15 to another player",
                rule="F7V-8.3",
                reason_ja="自分に+15（bonus）か、他の1人に−15（penalty N）を選んでください",
            )
        rule = {D_SWAP: "F7V-4.5", D_STEAL: "F7V-4.6", D_DISCARD: "F7V-4.7"}.get(dec, "")
        raise IllegalActionError(
            f"{action} does not pick face-up cards this {C.TOKENS[self._dec_card]} may take",
            rule=rule,
            reason_ja=f"{action}: この{C.card_name(self._dec_card, 'ja')}で選べる表向きのカードでは"
            "ありません",
        )

    # ----- the engine ----------------------------------------------------------------------------
    def _draw(self, seat: int, flip: bool) -> bool:
        """Prepare a draw for ``seat``; reshuffle if needed (F7V-3.6). False: the round ends."""
        if self._draws >= self._cap:
            self._ev.append(Event("draw_limit", None, {"draws": self._draws}))
            self._round_end = True
            return False
        if not self._deck:
            disc = self._disc
            if not any(disc):
                self._ev.append(Event("no_cards", None))
                self._round_end = True
                return False
            # F7V-3.6: only the discard pile is shuffled; cards in front of players stay out.
            self._dcount = disc
            self._disc = [0] * C.NUM_KINDS
            self._deck = [k for k in range(C.NUM_KINDS) for _ in range(disc[k])]
            self._ev.append(Event("reshuffle", None, {"cards": len(self._deck)}))
        self._to_move = CHANCE
        self._draw_for = seat
        self._draw_flip = flip
        return True

    def _on_draw(self, k: int) -> None:
        """The drawn card ``k`` reaches the receiver (F7V-3.2, F7V-4.4, F7V-4.8)."""
        deck = self._deck
        del deck[deck.index(k)]
        self._dcount[k] -= 1
        self._draws += 1
        t = self._draw_for
        self._ev.append(_card_event("draw", t, k))
        if _IS_NUM[k] or (_IS_MOD[k] and not self._v):
            self._arrive(t, k)
        elif self._draw_flip and not (k == _SECOND and _SECOND not in self._rows[t]):
            # F7V-4.8: set aside, resolved after the flips (a classic Second Chance is kept at
            # once when its receiver has none, so it protects the rest of the Flip Three).
            fr = self._stack[-1]
            self._stack[-1] = (F_FLIP, fr[1], fr[2], (*fr[3], k))
            self._ev.append(Event("set_aside", t, {"card": _TOK[k]}))
        else:
            self._start_card(t, k)

    def _arrive(self, p: int, k: int) -> None:
        """A number or modifier card enters ``p``'s row like a dealt card (F7V-4.9)."""
        row = self._rows[p]
        if not _IS_NUM[k]:
            row.append(k)
            return
        v = _VALUE[k]
        bit = 1 << v
        if k == _U7:
            # F7V-6.2: discard every number and modifier card, keep only this 7; never busts.
            gone = [c for c in row if _IS_ROW[c]]
            disc = self._disc
            for c in gone:
                disc[c] += 1
            row[:] = [c for c in row if not _IS_ROW[c]]
            row.append(k)
            self._mask[p] = bit
            self._ncount[p] = 1
            self._ev.append(Event("unlucky7", p, {"discarded": [_TOK[c] for c in gone]}))
            return
        if self._mask[p] & bit:
            bust = True
            if v == 13 and self._v:
                # F7V-6.3: a second 13 is fine when one of the two is the Lucky 13.
                held = [c for c in row if _VALUE[c] == 13]
                bust = len(held) >= 2 or (_L13 not in held and k != _L13)
            elif not self._v and _SECOND in row:
                # F7V-9: Second Chance: discard it and the duplicate instead of busting.
                row.remove(_SECOND)
                self._disc[_SECOND] += 1
                self._disc[k] += 1
                self._ev.append(Event("second_chance", p, {"card": _TOK[k]}))
                return
            if bust:
                row.append(k)
                self._ncount[p] += 1  # counts the number cards in the row, face down or not
                self._status[p] = BUSTED
                self._ev.append(_card_event("bust", p, k))
                return
        row.append(k)
        self._mask[p] |= bit
        n = self._ncount[p] + 1
        self._ncount[p] = n
        if n >= 7 and self._flip7 < 0:
            self._flip7 = p  # F7V-3.4: the round ends at once
            self._round_end = True
            self._ev.append(Event("flip7", p))

    def _recount(self, p: int) -> None:
        mask = 0
        n = 0
        for c in self._rows[p]:
            if _IS_NUM[c]:
                mask |= 1 << _VALUE[c]
                n += 1
        self._mask[p] = mask
        self._ncount[p] = n

    def _start_card(self, t: int, k: int) -> None:
        """``t`` resolves modifier or action card ``k`` now: decide, or act if forced."""
        if _IS_MOD[k] or k in (C.JOM, C.FLIP4, C.FREEZE, C.FLIP3) or k == _SECOND:
            if k == _SECOND and _SECOND not in self._rows[t]:
                self._rows[t].append(k)  # F7V-9: keep it
                return
            targets = self._targets(t, k)
            if len(targets) > 1:
                self._to_move = t
                self._dec = D_TARGET
                self._dec_card = k
            elif targets:
                self._ev.append(Event("forced", t, {"card": _TOK[k]}))
                self._give(t, k, targets[0])
            else:
                self._disc[k] += 1  # F7V-4.1 ruling: no valid target, discarded
                self._ev.append(Event("no_target", t, {"card": _TOK[k]}))
            return
        picks = self._picks(t, k)
        if len(picks) > 1:
            self._to_move = t
            self._dec = _DECISION_OF_CARD[k]
            self._dec_card = k
        elif picks:
            self._ev.append(Event("forced", t, {"card": _TOK[k]}))
            self._pick(t, k, picks[0])
        else:
            self._disc[k] += 1
            self._ev.append(Event("no_target", t, {"card": _TOK[k]}))

    def _give(self, t: int, k: int, s: int) -> None:
        """``t`` plays card ``k`` on seat ``s``."""
        self._ev.append(Event("give", t, {"card": _TOK[k], "to": s}))
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
            self._stack.append((F_JOM, s, False))
        elif k == C.FLIP4:
            self._stack.append((F_FLIP, s, 4, ()))
        elif k == C.FLIP3:
            self._stack.append((F_FLIP, s, 3, ()))
        else:  # Freeze
            self._disc[k] += 1
        if k == C.FREEZE and self._status[s] == ACTIVE:
            self._status[s] = STAYED
            self._ev.append(Event("stay", s, {"frozen": True}))

    def _take(self, s: int, k: int) -> None:
        self._rows[s].remove(k)
        if _IS_NUM[k]:
            self._recount(s)

    def _pick(self, t: int, card: int, a: F7Action) -> None:
        """Swap/Steal/Discard by ``t`` (F7V-4.5 … F7V-4.7, F7V-4.9)."""
        self._disc[card] += 1
        op = a[0]
        if op == OP_STEAL:
            s, k = a[1], a[2]
            self._ev.append(Event("steal", t, {"from": s, "card": _TOK[k]}))
            self._take(s, k)
            self._arrive(t, k)
        elif op == OP_DISCARD:
            s, k = a[1], a[2]
            self._ev.append(Event("discard", t, {"from": s, "card": _TOK[k]}))
            self._take(s, k)
            self._disc[k] += 1
        else:
            s1, k1, s2, k2 = a[1], a[2], a[3], a[4]
            self._ev.append(Event("swap", t, {"seats": [s1, s2], "cards": [_TOK[k1], _TOK[k2]]}))
            self._take(s1, k1)
            self._take(s2, k2)
            self._arrive(s2, k1)
            self._arrive(s1, k2)

    def _on_decision(self, t: int, a: F7Action) -> None:
        op = a[0]
        card = self._dec_card
        self._dec_card = -1
        if op == OP_TARGET:
            self._give(t, card, a[1])
        elif op == OP_BONUS:
            self._bonus_to = t
            self._ev.append(Event("flip7_bonus", t))
        elif op == OP_PENALTY:
            self._bonus_to = a[1]
            self._ev.append(Event("flip7_penalty", t, {"to": a[1]}))
        else:
            self._pick(t, card, a)

    def _start_round(self) -> None:
        self._round += 1
        self._stack = [(F_DEAL, 1)]
        self._ev.append(Event("round_start", self._dealer, {"round": self._round}))

    def _run(self) -> None:
        """Advance until a player decision, a draw, or the end of the game."""
        stack = self._stack
        st = self._status
        n = self.num_players
        while True:
            if self._round_end:
                if self._finish_round():
                    return
                stack = self._stack
                continue
            fr = stack[-1]
            kind = fr[0]
            if kind == F_TURN:
                ptr = fr[1]
                for i in range(n):
                    s = (ptr + i) % n
                    if st[s] == ACTIVE:
                        self._to_move = s
                        self._dec = D_HITSTAY
                        return
                self._round_end = True  # F7V-3.4: nobody active
            elif kind == F_DEAL:
                k = fr[1]
                d = self._dealer
                while k <= n and st[(d + k) % n] != ACTIVE:
                    k += 1
                if k > n:
                    stack[-1] = (F_TURN, (d + 1) % n)  # F7V-3.3
                    continue
                stack[-1] = (F_DEAL, k + 1)
                if self._draw((d + k) % n, False):
                    return
            elif kind == F_JOM:
                t = fr[1]
                if not fr[2] and st[t] != BUSTED:
                    stack[-1] = (F_JOM, t, True)
                    if self._draw(t, False):
                        return
                else:
                    stack.pop()
                    self._disc[C.JOM] += 1  # F7V-4.3: used up
                    if st[t] == ACTIVE:  # F7V-4.4: then must stay (even with the Zero)
                        st[t] = STAYED
                        self._ev.append(Event("stay", t, {"forced": True}))
            else:  # F_FLIP
                t, left, queue = fr[1], fr[2], fr[3]
                if st[t] == BUSTED:
                    stack.pop()  # F7V-4.8: set-aside cards are discarded on a bust
                    self._disc[self._flip_card] += 1
                    for c in queue:
                        self._disc[c] += 1
                    if queue:
                        self._ev.append(
                            Event("set_aside_lost", t, {"cards": [_TOK[c] for c in queue]})
                        )
                elif left > 0:
                    stack[-1] = (F_FLIP, t, left - 1, queue)
                    if self._draw(t, True):
                        return
                elif queue:
                    stack[-1] = (F_FLIP, t, 0, queue[1:])
                    self._start_card(t, queue[0])
                    if self._to_move >= 0:
                        return
                else:
                    stack.pop()
                    self._disc[self._flip_card] += 1  # F7V-4.3: used up

    @property
    def _flip_card(self) -> int:
        """The card behind a flip frame: Flip 4 (Vengeance) or Flip Three (classic)."""
        return C.FLIP4 if self._v else C.FLIP3

    def _finish_round(self) -> bool:
        """Score the round (F7V-7); start the next or end the game. True: stop running."""
        if self._stack:
            for fr in self._stack:
                if fr[0] == F_FLIP:  # F7V-3.4: the Flip 4 and its set-aside cards
                    self._disc[self._flip_card] += 1
                    for c in fr[3]:
                        self._disc[c] += 1
                elif fr[0] == F_JOM:
                    self._disc[C.JOM] += 1
            self._stack = []
        f = self._flip7
        if self._brutal and f >= 0 and self._bonus_to < 0:
            self._to_move = f  # F7V-8.3
            self._dec = D_BRUTAL
            self._dec_card = -1
            return True
        breakdown = [self.round_breakdown(p) for p in range(self.num_players)]
        scores: list[int] = [b["score"] for b in breakdown]
        totals = self._totals
        for p in range(self.num_players):
            totals[p] += scores[p]
        self._last = scores
        detail: dict[str, JSON] = {
            "round": self._round,
            "rows": [[_TOK[c] for c in r] for r in self._rows],
            "after_bust": [[_TOK[c] for c in r] for r in self._post],
            "status": [STATUS_NAMES[s] for s in self._status],
            "flip7": f if f >= 0 else None,
            "flip7_choice": self._bonus_to if self._bonus_to >= 0 else None,
            "scores": scores,
            "breakdown": breakdown,
            "totals": list(totals),
        }
        self._last_detail = detail
        self._rounds = (
            *self._rounds,
            {
                "round": self._round,
                "scores": list(scores),
                "status": [
                    "flip7" if p == f else STATUS_NAMES[self._status[p]]
                    for p in range(self.num_players)
                ],
                "flip7": f if f >= 0 else None,
                "totals": list(totals),
            },
        )
        self._ev.append(Event("round_end", None, detail))
        best = max(totals)
        # F7V-3.7: a lone leader at or above the target wins; ties play on (round cap: rulings).
        if game_winners(totals, self._target) or self._round >= self._max_rounds:
            self._winners = [p for p in range(self.num_players) if totals[p] == best]
            self._to_move = TERMINAL
            self._dec = D_NONE
            self._ev.append(Event("game_end", None, {"winners": list(self._winners)}))
            return True
        # F7V-3.5: the round's cards go to the discard pile; the deck passes left.
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
        self._start_round()
        return False

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
        # Everything is public in Flip 7, so a single legal action (a Zero holder's hit,
        # F7V-6.1) is seen by all to be forced.
        data["forced_public"] = (
            seat is not None and seat == self._to_move and len(self.legal_actions()) == 1
        )
        return data

    def _public(self) -> dict[str, JSON]:
        tok = _TOK
        n = self.num_players
        frames: list[JSON] = []
        for fr in self._stack:
            if fr[0] == F_DEAL:
                frames.append({"kind": "deal", "next": fr[1]})
            elif fr[0] == F_TURN:
                frames.append({"kind": "turn", "next": fr[1]})
            elif fr[0] == F_JOM:
                frames.append({"kind": "just_one_more", "player": fr[1], "drawn": fr[2]})
            else:
                frames.append(
                    {
                        "kind": "flip",
                        "player": fr[1],
                        "left": fr[2],
                        "set_aside": [tok[c] for c in fr[3]],
                    }
                )
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
            "round": self._round,
            "dealer": self._dealer if self._dealer >= 0 else None,
            "to_move": self._to_move,
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
            "flip7": self._flip7 if self._flip7 >= 0 else None,
            "flip7_choice": self._bonus_to if self._bonus_to >= 0 else None,
            "stack": frames,
            "deck": dict(zip(ktoks, [dc[k] for k in kinds], strict=True)),
            "deck_size": len(self._deck),
            "discard": dict(zip(ktoks, [disc[k] for k in kinds], strict=True)),
            "discard_size": sum(disc),
            "round_draws": self._draws,
            "round_over": self._round_end,
            "last_round": list(self._last) if self._last is not None else None,
            "winners": list(self._winners),
            # Added for the round-end and end screens (issue 15); see the module docstring.
            "rounds": _copy_json(self._rounds),
            "last_round_detail": _copy_json(self._last_detail),
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
        """An independent copy (history included)."""
        new = object.__new__(Flip7State)
        new.game = self.game
        new.num_players = self.num_players
        new.history = list(self.history)
        for name in (
            "_bonus_to",
            "_brutal",
            "_cap",
            "_dealer",
            "_dec",
            "_dec_card",
            "_draw_flip",
            "_draw_for",
            "_draws",
            "_flip7",
            "_kinds",
            "_max_rounds",
            "_round",
            "_round_end",
            "_target",
            "_to_move",
            "_v",
        ):
            object.__setattr__(new, name, getattr(self, name))
        new._dcount = list(self._dcount)
        new._deck = list(self._deck)
        new._disc = list(self._disc)
        new._rows = [list(r) for r in self._rows]
        new._post = [list(r) for r in self._post]
        new._status = list(self._status)
        new._mask = list(self._mask)
        new._ncount = list(self._ncount)
        new._totals = list(self._totals)
        new._stack = list(self._stack)
        new._last = list(self._last) if self._last is not None else None
        new._rounds = self._rounds
        new._last_detail = self._last_detail
        new._winners = list(self._winners)
        new._ev = []
        return new

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

    def _load(self, data: Mapping[str, JSON]) -> None:
        n = self.num_players
        edition = "vengeance" if self._v else "classic"
        if data["edition"] != edition or bool(data["brutal"]) != self._brutal:
            raise RecordError("the state is from another edition or mode of Flip 7")
        if int(data["num_players"]) != n:
            raise RecordError("the state has another number of players")
        kind_of = C.KIND_OF_TOKEN

        def kinds(tokens: Any) -> list[int]:
            return [kind_of[str(t)] for t in tokens]

        self._round = int(data["round"])
        self._dealer = -1 if data["dealer"] is None else int(data["dealer"])
        self._to_move = int(data["to_move"])
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
        if len(players) != n:
            raise RecordError("one player object per seat expected")
        self._rows = [kinds(pl["row"]) for pl in players]
        self._post = [kinds(pl["after_bust"]) for pl in players]
        self._status = [STATUS_NAMES.index(pl["status"]) for pl in players]
        self._totals = [int(pl["total"]) for pl in players]
        for p in range(n):
            self._recount(p)
        self._flip7 = -1 if data["flip7"] is None else int(data["flip7"])
        self._bonus_to = -1 if data["flip7_choice"] is None else int(data["flip7_choice"])
        stack: list[tuple[Any, ...]] = []
        for fr in data["stack"]:
            k = fr["kind"]
            if k == "deal":
                stack.append((F_DEAL, int(fr["next"])))
            elif k == "turn":
                stack.append((F_TURN, int(fr["next"])))
            elif k == "just_one_more":
                stack.append((F_JOM, int(fr["player"]), bool(fr["drawn"])))
            elif k == "flip":
                stack.append(
                    (F_FLIP, int(fr["player"]), int(fr["left"]), tuple(kinds(fr["set_aside"])))
                )
            else:
                raise RecordError(f"unknown stack frame {k!r}")
        self._stack = stack
        dc = [0] * C.NUM_KINDS
        disc = [0] * C.NUM_KINDS
        for t, c in data["deck"].items():
            dc[kind_of[t]] = int(c)
        for t, c in data["discard"].items():
            disc[kind_of[t]] = int(c)
        self._dcount = dc
        self._disc = disc
        self._deck = [k for k in range(C.NUM_KINDS) for _ in range(dc[k])]
        self._draws = int(data["round_draws"])
        self._round_end = bool(data["round_over"])
        last = data["last_round"]
        self._last = None if last is None else [int(x) for x in last]
        # Optional: states written before these keys existed load with no round history.
        self._rounds = tuple(_copy_json(r) for r in data.get("rounds") or ())
        detail = data.get("last_round_detail")
        self._last_detail = None if detail is None else _copy_json(detail)
        self._winners = [int(w) for w in data["winners"]]

    # ----- helpers for tests and puzzles ---------------------------------------------------------
    def set_piles(self, deck: Mapping[str, int], discard: Mapping[str, int] | None = None) -> None:
        """Replace the deck and discard pile compositions (``{token: count}``), for hand-built
        test positions. Cards in rows are not checked against the edition's card counts."""
        dc = [0] * C.NUM_KINDS
        disc = [0] * C.NUM_KINDS
        for t, c in deck.items():
            dc[C.KIND_OF_TOKEN[t]] = c
        for t, c in (discard or {}).items():
            disc[C.KIND_OF_TOKEN[t]] = c
        self._dcount = dc
        self._disc = disc
        self._deck = [k for k in range(C.NUM_KINDS) for _ in range(dc[k])]
