"""The Seven Shot position: deal (chance), pass, first leader (chance), tricks, deal end, scores.

Phases of a deal (rule ids from ``shared/rules/seven-shot.md``):

1. ``deal`` (chance, SS-2.2): 49 chance nodes, one per card, each uniform over the cards not yet
   dealt. Card ``i`` (``i < 48``) goes to seat ``i % n``; the 49th card is the trump indicator,
   turned face up (its suit is trump for the deal).
2. ``pass`` (SS-2.3, SS-5.2): seats 0, 1, … in turn each choose ``pass_cards`` cards (3), one
   ``pass`` action per card. The choice is simultaneous in the rules: until every seat has chosen,
   a seat's chosen cards are shown to nobody else (views only show how many each has chosen, which
   says nothing about which), and no seat receives anything before all have chosen.
3. ``first_leader`` (chance, SS-2.4): first deal only, uniform over the seats. Later deals: the
   seat left (clockwise, ``+1``) of the previous deal's first leader.
4. ``play`` (SS-3): tricks; follow suit if you can; A, else the highest trump, else the highest
   card of the led suit wins; the winner leads.
5. After every trick the deal-end conditions are checked in order (SS-4.1 … SS-4.3); the deal is
   scored (SS-4.4, SS-5.4, SS-5.5), then the game ends (a side at ``target`` points or more,
   SS-2.1, SS-5.6) or the next deal starts.

"Side": a team of two partners (4 players, seats ``s`` and ``s+2``, side ``s % 2``) or a single
player (3 players, side = seat).

Observation tensor (``observation_tensor(seat)``): declared as named pieces with true bounds in
``septet.games.seven_shot.observation`` (``SevenShot.observation_spec(n)``; the table is in
``docs/rl.md``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from septet.core.errors import IllegalActionError, RecordError
from septet.core.fields import (
    Field,
    compile_copy,
    copy_nested,
    dump_fields,
    load_fields,
    slot_names,
)
from septet.core.game import Action, State
from septet.core.types import CHANCE, JSON, TERMINAL, Event, Seat
from septet.games.seven_shot.actions import (
    DEALS,
    FIRSTS,
    PASSES,
    PLAYS,
    Deal,
    FirstLeader,
    Pass,
    Play,
)
from septet.games.seven_shot.cards import (
    CARD_NAMES,
    NUM_CARDS,
    SEVEN_MASK,
    SUIT_LETTERS,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    mask_from_names,
    names_of,
    parse_card,
)
from septet.games.seven_shot.rules import how_won, playable, team_play, trick_winner
from septet.games.seven_shot.scoring import (
    CONDITION_RULES,
    TRICKS_TO_LOSE,
    Ending,
    deal_points,
    race_winners,
    threshold,
)

if TYPE_CHECKING:
    from septet.games.seven_shot.game import SevenShot

PH_DEAL = 0
PH_PASS = 1
PH_FIRST = 2
PH_PLAY = 3
PH_OVER = 4
PHASE_NAMES = ("deal", "pass", "first_leader", "play", "over")

HAND_CARDS = 48  # cards dealt to the players; the 49th is the trump indicator (SS-2.2)

_ONLY = tuple(frozenset((s,)) for s in range(4))


def _popcount(m: int) -> int:
    return m.bit_count()


# ----- the fields, declared once (issue 17): slots, clone, state_dict and load derive from them --
def _masks_dump(ms: list[int]) -> list[list[str]]:
    return [names_of(m) for m in ms]


def _masks_load(xs: Any) -> list[int]:
    return [mask_from_names(h) for h in xs]


def _cards_dump(cs: list[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cs]


def _ints_load(xs: Any) -> list[int]:
    return [int(x) for x in xs]


def _tricks_dump(ts: list[tuple[int, tuple[int, ...], int]]) -> list[JSON]:
    return [[lead, [CARD_NAMES[c] for c in cs], w] for lead, cs, w in ts]


def _tricks_load(xs: Any) -> list[tuple[int, tuple[int, ...], int]]:
    return [(int(lead), tuple(parse_card(c) for c in cs), int(w)) for lead, cs, w in xs]


def _card_or_none_dump(c: int) -> str | None:
    return CARD_NAMES[c] if c >= 0 else None


def _card_or_none_load(x: Any) -> int:
    return -1 if x is None else parse_card(x)


def _summaries_copy(log: list[dict[str, Any]]) -> list[dict[str, JSON]]:
    """Deal summaries (``_end_deal``) copied at every depth, so that a clone shares no list or
    dict with its original (the kit's ``check_fields``): flat values are kept, lists and dicts
    (``sevens``, ``seven_cards``, ``terms``…) copied."""
    out: list[dict[str, JSON]] = []
    for d in log:
        copied = dict(d)
        for k, v in d.items():
            if type(v) is list or type(v) is dict:
                copied[k] = copy_nested(v)
        out.append(copied)
    return out


def _summaries_load(xs: Any) -> list[dict[str, JSON]]:
    return [dict(x) for x in xs]


_FIELDS = (
    # Serialised, in the order of ``state_dict`` (saved games and server records rely on it).
    Field("phase", dump=PHASE_NAMES.__getitem__, load=lambda x: PHASE_NAMES.index(str(x))),
    Field("_cur", key="current", load=int),
    Field("deal_number", load=int),
    Field("deal_pos", load=int),
    Field("deal_start", load=int),
    Field("undealt", copy=list, dump=_cards_dump, load=lambda xs: sorted(map(parse_card, xs))),
    Field("hands", copy=list, dump=_masks_dump, load=_masks_load),
    Field("indicator", dump=_card_or_none_dump, load=_card_or_none_load),
    Field("pass_sel", copy=list, dump=_masks_dump, load=_masks_load),
    Field("passed", copy=list, dump=_masks_dump, load=_masks_load),
    Field("received", copy=list, dump=_masks_dump, load=_masks_load),
    Field("first_leader", load=int),
    Field("leader", load=int),
    Field("trick", copy=list, dump=_cards_dump, load=lambda xs: [parse_card(c) for c in xs]),
    Field("tricks", copy=list, dump=_tricks_dump, load=_tricks_load),
    Field("played", copy=list, dump=_masks_dump, load=_masks_load),
    Field("tricks_won", copy=list, dump=list, load=_ints_load),
    Field("taken", copy=list, dump=_masks_dump, load=_masks_load),
    Field("bonus", copy=list, dump=_masks_dump, load=_masks_load),
    Field("voids", copy=list, dump=list, load=_ints_load),
    Field("points", copy=list, dump=list, load=_ints_load),
    # Deal summaries hold lists: copied at every depth so a clone shares nothing with its original.
    Field("deal_log", copy=_summaries_copy, dump=_summaries_copy, load=_summaries_load),
    Field("last_tricks", copy=list, dump=_tricks_dump, load=_tricks_load),
    Field("final_winners", key="winners", copy=list, dump=list, load=_ints_load),
    # Derived from the options and the player count (set by the constructor): not serialised.
    Field("_k", key=None),
    Field("_members", key=None),
    Field("_pass_to", key=None),
    Field("_side", key=None),
    Field("_target", key=None),
    Field("_threshold", key=None),
)


_copy = compile_copy(_FIELDS)


class SevenShotState(State):
    """A Seven Shot position (see the module docstring for the phases and the encoding).

    Cards are ints ``0..48`` and sets of cards are bit masks (``septet.games.seven_shot.cards``).
    Public fields are read-only for consumers; change the state only through :meth:`apply`.
    """

    FIELDS = _FIELDS
    __slots__ = slot_names(_FIELDS)

    def __init__(self, game: SevenShot, num_players: int) -> None:
        super().__init__(game, num_players)
        n = num_players
        self._k: int = game.options.pass_cards
        self._target: int = game.options.target
        if team_play(n):
            # SS-2.1: partners sit opposite.
            self._side: tuple[int, ...] = (0, 1, 0, 1)
            self._members: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
            self._pass_to: tuple[int, ...] = (2, 3, 0, 1)  # SS-2.3: to the partner
        else:
            self._side = tuple(range(n))
            self._members = tuple((s,) for s in range(n))
            self._pass_to = tuple((s + 1) % n for s in range(n))  # SS-5.2: to the left
        self._threshold: int = threshold(len(self._members))  # SS-4.1, SS-5.3
        self.points: list[int] = [0] * len(self._members)
        """Game score per side (SS-2.1)."""
        self.deal_number = 1
        self.first_leader = -1
        self.deal_log: list[dict[str, JSON]] = []
        """One summary per finished deal (condition, transfers, 7s, points; see ``_end_deal``)."""
        self.final_winners: list[int] = []
        self.last_tricks: list[tuple[int, tuple[int, ...], int]] = []
        """The tricks of the previous deal (to review its last trick once it is over)."""
        self._reset_deal()
        self.deal_start = 0

    def _reset_deal(self) -> None:
        n = self.num_players
        self.phase = PH_DEAL
        self._cur = CHANCE
        self.deal_pos = 0
        self.undealt: list[int] = list(range(NUM_CARDS))
        self.hands: list[int] = [0] * n
        self.indicator = -1
        self.pass_sel: list[int] = [0] * n
        self.passed: list[int] = [0] * n
        self.received: list[int] = [0] * n
        self.leader = -1
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.played: list[int] = [0] * n
        self.tricks_won: list[int] = [0] * n
        self.taken: list[int] = [0] * n
        self.bonus: list[int] = [0] * len(self._members)
        self.voids: list[int] = [0] * n

    # ----- sides -----------------------------------------------------------------------------
    @property
    def num_sides(self) -> int:
        """2 teams (4 players) or 3 individual players."""
        return len(self._members)

    def side_of(self, seat: Seat) -> int:
        """The side (team index or the seat itself) of ``seat``."""
        return self._side[seat]

    def side_members(self, side: int) -> tuple[int, ...]:
        """The seats of a side."""
        return self._members[side]

    def pass_target(self, seat: Seat) -> Seat:
        """The seat ``seat`` passes to: the partner (SS-2.3) or the left neighbour (SS-5.2)."""
        return self._pass_to[seat]

    def side_sevens(self) -> list[int]:
        """7s taken per side this deal, cards added at the deal end included (SS-4.2/4.3)."""
        return [
            _popcount((self.bonus[s] | self._side_taken(s)) & SEVEN_MASK)
            for s in range(self.num_sides)
        ]

    def side_tricks(self) -> list[int]:
        """Tricks won per side this deal."""
        return [sum(self.tricks_won[p] for p in m) for m in self._members]

    def _side_taken(self, side: int) -> int:
        m = 0
        for p in self._members[side]:
            m |= self.taken[p]
        return m

    # ----- whose turn ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._cur

    def legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == PH_PLAY:
            trick = self.trick
            m = playable(self.hands[self._cur], SUIT_OF[trick[0]] if trick else -1)  # SS-3.1
            out: list[Action] = []
            while m:
                low = m & -m
                out.append(PLAYS[low.bit_length() - 1])
                m ^= low
            return out
        if ph == PH_PASS:
            m = self.hands[self._cur]
            passes: list[Action] = []
            while m:
                low = m & -m
                passes.append(PASSES[low.bit_length() - 1])
                m ^= low
            return passes
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == PH_DEAL:
            p = 1.0 / len(self.undealt)
            return [(DEALS[c], p) for c in self.undealt]
        if self.phase == PH_FIRST:
            q = 1.0 / self.num_players
            return [(FIRSTS[s], q) for s in range(self.num_players)]
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        """Exact: uniform over the undealt cards (deal) or the seats (first leader)."""
        if self.phase == PH_DEAL:
            u = self.undealt
            return DEALS[u[rng.randrange(len(u))]]
        if self.phase == PH_FIRST:
            return FIRSTS[rng.randrange(self.num_players)]
        raise IllegalActionError("not a chance node", reason_ja="今は偶然の手番ではありません")

    # ----- validation ------------------------------------------------------------------------
    def _illegal(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is illegal now (with the rule id), or ``None`` if it is legal."""
        ph = self.phase
        if ph == PH_PLAY:
            return self._illegal_play(action)
        if ph == PH_PASS:
            return self._illegal_pass(action)
        if ph == PH_DEAL:
            return self._illegal_deal(action)
        if ph == PH_FIRST:
            return self._illegal_first(action)
        return IllegalActionError("the game is over", reason_ja="ゲームは終了しています")

    def _illegal_play(self, action: Action) -> IllegalActionError | None:
        """SS-3.1: a card of the hand, following suit if possible."""
        if type(action) is not Play:
            return IllegalActionError(
                f"{action} is not a card play; it is seat {self._cur}'s turn to play a "
                "card to the trick",
                rule="SS-3.1",
                reason_ja=f"{action}はカードを出す手ではありません。席{self._cur}が"
                "トリックにカードを出す番です",
            )
        assert isinstance(action, Play)
        c = action.card
        hand = self.hands[self._cur]
        if not (isinstance(c, int) and 0 <= c < NUM_CARDS and hand >> c & 1):
            return IllegalActionError(
                f"{action} is not in your hand",
                rule="SS-3.1",
                reason_ja=f"{action}は手札にありません",
            )
        if self.trick:
            led = SUIT_OF[self.trick[0]]
            if not playable(hand, led) >> c & 1:
                return IllegalActionError(
                    f"you must follow suit: {SUITS[led].en} ({SUIT_LETTERS[led]}) was led "
                    "and you hold "
                    f"{', '.join(names_of(hand & SUIT_MASK[led]))}",
                    rule="SS-3.1",
                    reason_ja=f"フォローしてください: リードは{SUITS[led].ja}"
                    f"（{SUIT_LETTERS[led]}）で、手札に"
                    f"{'、'.join(names_of(hand & SUIT_MASK[led]))}があります",
                )
        return None

    def _illegal_pass(self, action: Action) -> IllegalActionError | None:
        """SS-2.3 / SS-5.2: a card of the hand not chosen yet."""
        rule = "SS-2.3" if team_play(self.num_players) else "SS-5.2"
        if type(action) is not Pass:
            return IllegalActionError(
                f"{action} is not a pass; seat {self._cur} is choosing cards to pass "
                "(write 'pass F7')",
                rule=rule,
                reason_ja=f"{action}は渡すカードの指定ではありません。席{self._cur}が渡す"
                "カードを選んでいます（pass F7 のように書いてください）",
            )
        assert isinstance(action, Pass)
        c = action.card
        if not (isinstance(c, int) and 0 <= c < NUM_CARDS and self.hands[self._cur] >> c & 1):
            name = CARD_NAMES[c] if isinstance(c, int) and 0 <= c < NUM_CARDS else c
            return IllegalActionError(
                f"{name} is not in your hand (or is already chosen)",
                rule=rule,
                reason_ja=f"{name}は手札にありません（またはもう選んであります）",
            )
        return None

    def _illegal_deal(self, action: Action) -> IllegalActionError | None:
        """SS-2.2: a card not dealt yet."""
        if type(action) is not Deal:
            return IllegalActionError(
                f"{action}: the cards are being dealt (a chance node)",
                rule="SS-2.2",
                reason_ja=f"{action}: 今はカードを配っているところです",
            )
        assert isinstance(action, Deal)
        c = action.card
        if not (isinstance(c, int) and 0 <= c < NUM_CARDS and c in self.undealt):
            return IllegalActionError(
                f"{action}: that card is already dealt",
                rule="SS-2.2",
                reason_ja=f"{action}: そのカードはもう配られています",
            )
        return None

    def _illegal_first(self, action: Action) -> IllegalActionError | None:
        """SS-2.4: a seat of the table."""
        if type(action) is not FirstLeader:
            return IllegalActionError(
                f"{action}: the first leader is being chosen (a chance node)",
                rule="SS-2.4",
                reason_ja=f"{action}: 今は最初のリードを決めているところです",
            )
        assert isinstance(action, FirstLeader)
        if not (isinstance(action.seat, int) and 0 <= action.seat < self.num_players):
            return IllegalActionError(
                f"{action}: no such seat",
                rule="SS-2.4",
                reason_ja=f"{action}: その席はありません",
            )
        return None

    def check_action(self, action: Action) -> None:
        err = self._illegal(action)
        if err is not None:
            raise err

    # ----- applying --------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        ph = self.phase
        # Fast path: a legal card play (the hot loop of every playout).
        if ph == PH_PLAY and type(action) is Play:
            seat = self._cur
            c = action.card
            hand = self.hands[seat]
            if isinstance(c, int) and 0 <= c < NUM_CARDS and hand >> c & 1:
                trick = self.trick
                if trick:
                    led = SUIT_OF[trick[0]]
                    if SUIT_OF[c] != led:
                        if not playable(hand, led) >> c & 1:  # SS-3.1
                            raise self._illegal(action) or IllegalActionError(
                                "illegal", reason_ja="その手は出せません"
                            )
                        self.voids[seat] |= 1 << led  # a void revealed (for determinize)
                self.history.append(action)
                bit = 1 << c
                self.hands[seat] = hand ^ bit
                self.played[seat] |= bit
                trick.append(c)
                events = [
                    Event("card_played", seat, {"card": CARD_NAMES[c], "position": len(trick) - 1})
                ]
                if len(trick) < self.num_players:
                    self._cur = (seat + 1) % self.num_players
                    return events
                events.extend(self._finish_trick())
                return events
        # Fast path: a card not dealt yet (every deal, and every determinization, SS-2.2).
        if ph == PH_DEAL and type(action) is Deal and isinstance(action.card, int):
            undealt = self.undealt
            try:
                i = undealt.index(action.card)
            except ValueError:
                i = -1
            if i >= 0:
                self.history.append(action)
                del undealt[i]
                return self._apply_deal(action.card)
        err = self._illegal(action)
        if err is not None:
            raise err
        self.history.append(action)
        if ph == PH_DEAL:
            assert isinstance(action, Deal)
            self.undealt.remove(action.card)
            return self._apply_deal(action.card)
        if ph == PH_PASS:
            assert isinstance(action, Pass)
            return self._apply_pass(action.card)
        assert isinstance(action, FirstLeader)
        self.first_leader = action.seat
        self._start_play()
        return [Event("first_leader", action.seat, {"seat": action.seat})]

    def _apply_deal(self, c: int) -> list[Event]:
        """Card ``c`` (already taken out of ``undealt``) to the next seat, or as the indicator."""
        pos = self.deal_pos
        self.deal_pos = pos + 1
        if pos < HAND_CARDS:
            seat = pos % self.num_players
            self.hands[seat] |= 1 << c
            # Private: only the receiver sees the card (search bots key chance nodes on this).
            return [Event("card_dealt", seat, {"card": CARD_NAMES[c]}, visible_to=_ONLY[seat])]
        # SS-2.2: the card left over is the trump indicator, face up.
        self.indicator = c
        events = [
            Event(
                "trump_indicator",
                None,
                {"card": CARD_NAMES[c], "trump": SUIT_LETTERS[SUIT_OF[c]]},
            )
        ]
        self._after_deal()
        return events

    def _after_deal(self) -> None:
        if self._k > 0:
            self.phase = PH_PASS
            self._cur = 0
        else:
            self._after_pass()

    def _after_pass(self) -> None:
        if self.first_leader < 0:
            self.phase = PH_FIRST
            self._cur = CHANCE
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PH_PLAY
        self.leader = self.first_leader
        self._cur = self.first_leader

    def _apply_pass(self, c: int) -> list[Event]:
        seat = self._cur
        bit = 1 << c
        self.hands[seat] ^= bit
        self.pass_sel[seat] |= bit
        # Private: nobody else learns which card (SS-2.3: the choice is simultaneous).
        events = [Event("pass_chosen", seat, {"card": CARD_NAMES[c]}, visible_to=_ONLY[seat])]
        if _popcount(self.pass_sel[seat]) < self._k:
            return events
        # Public: that this seat has chosen (views show the counts too), never which cards.
        events.append(Event("pass_ready", seat, {"count": self._k, "to": self._pass_to[seat]}))
        if seat + 1 < self.num_players:
            self._cur = seat + 1
            return events
        # Every seat has chosen: the cards change hands at once.
        n = self.num_players
        for s in range(n):
            t = self._pass_to[s]
            self.passed[s] = self.pass_sel[s]
            self.received[t] = self.pass_sel[s]
        for s in range(n):
            self.hands[self._pass_to[s]] |= self.passed[s]
        self.pass_sel = [0] * n
        events.append(Event("passes_done", None, {}))
        for s in range(n):
            t = self._pass_to[s]
            events.append(
                Event(
                    "cards_received",
                    t,
                    {"from": s, "cards": names_of(self.passed[s])},
                    visible_to=frozenset((s, t)),
                )
            )
        self._after_pass()
        return events

    def _finish_trick(self) -> list[Event]:
        n = self.num_players
        cards = self.trick
        leader = self.leader
        # SS-3.2: the A wins; else the highest trump; else the highest card of the led suit.
        idx, how = trick_winner(cards, SUIT_OF[self.indicator])
        winner = (leader + idx) % n
        mask = 0
        for c in cards:
            mask |= 1 << c
        self.taken[winner] |= mask  # SS-3.3
        self.tricks_won[winner] += 1
        self.tricks.append((leader, tuple(cards), winner))
        self.trick = []
        events = [
            Event(
                "trick_won",
                winner,
                {
                    "leader": leader,
                    "cards": [CARD_NAMES[c] for c in cards],
                    "how": how,
                    "sevens": names_of(mask & SEVEN_MASK),
                    "trick": len(self.tricks),
                    "seats": [(leader + i) % n for i in range(len(cards))],
                    "winner": winner,
                },
            )
        ]
        ended = self._check_deal_end(winner)
        if ended is None:
            self.leader = winner  # SS-3.3: the winner leads the next trick
            self._cur = winner
            return events
        events.extend(ended)
        return events

    # ----- end of a deal ---------------------------------------------------------------------
    def _check_deal_end(self, winner: Seat) -> list[Event] | None:
        """SS-4: the deal-end conditions, in order, after a trick won by ``winner``."""
        side = self._side[winner]
        # Only the trick winner's side can newly reach a threshold.
        if _popcount(self._side_taken(side) & SEVEN_MASK) >= self._threshold:
            return self._end_deal("sevens", side, winner)  # SS-4.1 / SS-5.3
        if sum(self.tricks_won[p] for p in self._members[side]) >= TRICKS_TO_LOSE:
            return self._end_deal("seven_tricks", side, winner)  # SS-4.2 / SS-5.5
        if not any(self.hands):
            return self._end_deal("hands_empty", side, winner)  # SS-4.3
        return None

    def _end_deal(self, condition: Ending, side: int, last_winner: Seat) -> list[Event]:
        """SS-4.2 … SS-4.4, SS-5.4, SS-5.5: the deal-end additions, the points, the summary;
        then the game's end (SS-2.1, SS-5.6) or the next deal (SS-2.4)."""
        taken = self.side_sevens()  # before the deal-end additions (bonus is empty until now)
        transferred, indicator_to, hand_sevens = self._deal_end_additions(
            condition, side, last_winner
        )
        # The points are scoring.deal_points (SS-4.4, SS-5.4, SS-5.5).
        scored = deal_points(
            condition,
            side,
            taken,
            hand_sevens=hand_sevens,
            indicator_seven=bool((1 << self.indicator) & SEVEN_MASK),
        )
        gains = list(scored.gains)
        for s in range(self.num_sides):
            self.points[s] += gains[s]
        ns = self.num_sides
        summary: dict[str, JSON] = {
            "deal": self.deal_number,
            "condition": condition,
            "rule": CONDITION_RULES[condition],
            "side": side,
            "last_trick_winner": last_winner,
            "winning_sides": list(scored.winning_sides),
            "transferred": names_of(transferred),
            "indicator": CARD_NAMES[self.indicator],
            "indicator_to": indicator_to,
            "sevens": list(scored.sevens),
            "tricks": self.side_tricks(),
            "gains": gains,
            "formula": scored.formula,
            "points": list(self.points),
            # For the deal-end screen (issue 15): the 7s of each side by card (transferred ones
            # and a 7 indicator included), the threshold of SS-4.1/SS-5.3, the formula's terms
            # (None for SS-5.5's flat 2 points) and the sides paid half as second (SS-5.4).
            "threshold": self._threshold,
            "seven_cards": [
                names_of((self.bonus[s] | self._side_taken(s)) & SEVEN_MASK) for s in range(ns)
            ],
            "terms": dict(scored.terms) if scored.terms is not None else None,
            "second": list(scored.second),
        }
        self.deal_log.append(summary)
        events = [Event("deal_end", None, dict(summary))]
        events.extend(self._after_deal_end())
        return events

    def _deal_end_additions(
        self, condition: Ending, side: int, last_winner: Seat
    ) -> tuple[int, int | None, int]:
        """The cards a side gets at the deal end: SS-4.2 (4 players: the losers' 7s in hand and
        a 7 indicator go to the other team; SS-5.5, 3 players: none, it cannot matter) or
        SS-4.3 (the last trick's winner takes the trump indicator).

        Returns:
            ``(transferred, indicator_to, hand_sevens)``: the cards moved by SS-4.2 (mask), the
            seat given the indicator by SS-4.3 (or ``None``), and how many 7s came from hands.
        """
        transferred = 0
        hand_sevens = 0
        if condition == "seven_tricks" and self.num_sides == 2:
            for p in self._members[side]:
                transferred |= self.hands[p] & SEVEN_MASK
                self.hands[p] &= ~SEVEN_MASK
            hand_sevens = _popcount(transferred)
            transferred |= (1 << self.indicator) & SEVEN_MASK
            self.bonus[1 - side] |= transferred
        elif condition == "hands_empty":
            self.bonus[side] |= 1 << self.indicator
            return transferred, last_winner, hand_sevens
        return transferred, None, hand_sevens

    def _after_deal_end(self) -> list[Event]:
        """SS-2.1 / SS-5.6: the game ends once a side has reached the target; else the next deal
        starts, its first leader left of the previous one (SS-2.4)."""
        won = race_winners(self.points, self._target)
        if won:
            self.final_winners = won
            self.phase = PH_OVER
            self._cur = TERMINAL
            return [
                Event("game_end", None, {"winners": self.winners(), "points": list(self.points)})
            ]
        self.last_tricks = self.tricks
        next_leader = (self.first_leader + 1) % self.num_players
        self.deal_number += 1
        self.first_leader = next_leader
        self._reset_deal()
        self.deal_start = len(self.history)
        return [Event("new_deal", None, {"deal": self.deal_number, "first_leader": next_leader})]

    # ----- results ---------------------------------------------------------------------------
    def round_index(self) -> int:
        """The deal being played, 1 for the first (SS-2.1: deals go on until a side reaches
        the target)."""
        return self.deal_number

    def scores(self) -> list[float]:
        """Game points per seat (a team's points for both partners), SS-2.1/SS-5.1."""
        return [float(self.points[self._side[s]]) for s in range(self.num_players)]

    def winners(self) -> list[Seat]:
        """The seats of the winning side(s) (SS-2.1, SS-5.6); ``[]`` before the end."""
        if self.phase != PH_OVER:
            return []
        return [s for s in range(self.num_players) if self._side[s] in self.final_winners]

    # ----- information -----------------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` sees (``None``: a spectator). Keys:

        ``game, num_players, seat, teams, phase, to_move, deal_number, target, pass_cards,
        cards_dealt, trump_indicator, trump, first_leader, leader, hand (own, or None),
        hand_sizes, pass_counts, passing (own chosen cards, pass phase), passed, passed_to,
        received, received_from, trick ([{seat, card}]), led_suit, tricks ([{leader, cards,
        winner}] this deal), tricks_won, taken, sevens_taken, side_tricks, side_sevens, bonus,
        voids (suit letters per seat), scores (per seat), side_points, deals (summaries of finished
        deals), last_deal_tricks (the previous deal's tricks), winners``. Cards are in notation
        (``"F7"``), sorted.
        """
        view = self._view_deal(seat)
        view.update(self._view_seat(seat))
        view.update(self._view_tricks())
        # Additive keys for the browser's moments and end screens (issue 15).
        last_trick: JSON = None
        if self.tricks:
            last_trick = dict(self._trick_json(self.tricks[-1], self.indicator))
            last_trick["deal"] = self.deal_number
        elif self.last_tricks:
            last_trick = dict(self._trick_json(self.last_tricks[-1], self._last_indicator()))
            last_trick["deal"] = self.deal_number - 1
        view["last_trick"] = last_trick
        view["threshold"] = self._threshold
        view["forced_public"] = self._forced_public(seat)
        return view

    def _view_deal(self, seat: Seat | None) -> dict[str, JSON]:
        """The view's table and deal keys (``game`` … ``leader``)."""
        n = self.num_players
        ind = self.indicator
        return {
            "game": "seven-shot",
            "num_players": n,
            "seat": seat,
            "teams": [list(m) for m in self._members] if team_play(n) else None,
            "phase": PHASE_NAMES[self.phase],
            "to_move": self._cur,
            "deal_number": self.deal_number,
            "target": self._target,
            "pass_cards": self._k,
            "cards_dealt": self.deal_pos,
            "trump_indicator": CARD_NAMES[ind] if ind >= 0 else None,
            "trump": SUIT_LETTERS[SUIT_OF[ind]] if ind >= 0 else None,
            "first_leader": self.first_leader if self.first_leader >= 0 else None,
            "leader": self.leader if self.leader >= 0 else None,
        }

    def _view_seat(self, seat: Seat | None) -> dict[str, JSON]:
        """The view's hand and pass keys (``hand`` … ``received_from``): the seat's own cards
        (``None`` for a spectator), and only counts of the others'."""
        n = self.num_players
        own = seat is not None and 0 <= seat < n
        return {
            "hand": names_of(self.hands[seat]) if own and seat is not None else None,
            "hand_sizes": [_popcount(self.hands[s] | self.pass_sel[s]) for s in range(n)],
            "pass_counts": [_popcount(self.pass_sel[s] | self.passed[s]) for s in range(n)],
            "passing": names_of(self.pass_sel[seat]) if own and seat is not None else None,
            "passed": names_of(self.passed[seat]) if own and seat is not None else None,
            "passed_to": self._pass_to[seat] if own and seat is not None else None,
            "received": names_of(self.received[seat]) if own and seat is not None else None,
            "received_from": self._pass_to.index(seat) if own and seat is not None else None,
        }

    def _view_tricks(self) -> dict[str, JSON]:
        """The view's public play keys (``trick`` … ``winners``)."""
        n = self.num_players
        trick = [
            {"seat": (self.leader + i) % n, "card": CARD_NAMES[c]} for i, c in enumerate(self.trick)
        ]
        return {
            "trick": trick,
            "led_suit": SUIT_LETTERS[SUIT_OF[self.trick[0]]] if self.trick else None,
            "tricks": [self._trick_json(t, self.indicator) for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "taken": [names_of(m) for m in self.taken],
            "sevens_taken": [_popcount(m & SEVEN_MASK) for m in self.taken],
            "side_tricks": self.side_tricks(),
            "side_sevens": self.side_sevens(),
            "bonus": [names_of(m) for m in self.bonus],
            "voids": [[SUIT_LETTERS[s] for s in range(7) if v >> s & 1] for v in self.voids],
            "scores": [self.points[self._side[s]] for s in range(n)],
            "side_points": list(self.points),
            "deals": [dict(d) for d in self.deal_log],
            "last_deal_tricks": [
                self._trick_json(t, self._last_indicator()) for t in self.last_tricks
            ],
            "winners": self.winners(),
        }

    def _last_indicator(self) -> int:
        """The trump indicator of the previous deal (its summary keeps it), or -1."""
        if not self.deal_log:
            return -1
        return parse_card(str(self.deal_log[-1]["indicator"]))

    def _trick_json(
        self, trick: tuple[int, tuple[int, ...], int], indicator: int
    ) -> dict[str, JSON]:
        """A finished trick for views: ``leader``, ``cards`` and ``seats`` in play order (the
        seat of each card), ``winner`` and ``how`` it was won (``"ace"``, ``"trump"`` or
        ``"suit"``, SS-3.2: read off the winning card and the deal's ``indicator``, never decided
        again here)."""
        lead, cs, w = trick
        n = self.num_players
        how = how_won(cs[(w - lead) % n], SUIT_OF[indicator] if indicator >= 0 else -1)
        return {
            "leader": lead,
            "cards": [CARD_NAMES[c] for c in cs],
            "seats": [(lead + i) % n for i in range(len(cs))],
            "winner": w,
            "how": how,
        }

    def _forced_public(self, seat: Seat | None) -> bool:
        """Whether ``seat`` is to move with a single legal action that everybody can see is
        forced: only a play from a hand of one card (SS-3.1). Following with the only card of the
        led suit is forced too, but nobody else knows it, so it is not public."""
        return (
            seat is not None
            and seat == self._cur
            and self.phase == PH_PLAY
            and _popcount(self.hands[seat]) == 1
        )

    def deal_start_state(self) -> SevenShotState:
        """The position at the start of the current deal: before its first card is dealt, with
        the earlier deals' results (points, summaries, the next first leader, SS-2.4) and their
        history. ``determinize`` replays a sampled deal from it. ``self`` is not changed."""
        if self.deal_number == 1:
            fresh = self.game.new_state(self.num_players)
            assert isinstance(fresh, SevenShotState)
            return fresh
        start = self.clone()
        start._reset_deal()  # what _end_deal does between two deals
        del start.history[self.deal_start :]
        return start

    def determinize(self, seat: Seat, rng: random.Random) -> SevenShotState:
        """A full state drawn from what ``seat`` cannot rule out (see ``determinize.py``)."""
        from septet.games.seven_shot.determinize import determinize

        return determinize(self, seat, rng)

    def observation_tensor(self, seat: Seat) -> list[float]:
        """The encoding of ``septet.games.seven_shot.observation`` (named pieces, true bounds);
        only what ``view(seat)`` shows."""
        from septet.games.seven_shot.observation import encode

        return encode(self, seat)

    def action_visibility(self, action: Action) -> frozenset[Seat] | None:
        """A card dealt to a hand is seen by that seat only (the 49th, the trump indicator, by
        everyone, SS-2.2); a card chosen to pass by the passer only (SS-2.3); the rest is
        public."""
        if type(action) is Deal:
            pos = self.deal_pos
            return None if pos >= HAND_CARDS else _ONLY[pos % self.num_players]
        if type(action) is Pass:
            return _ONLY[self._cur]
        return None

    # ----- copying and serialisation ---------------------------------------------------------
    def clone(self) -> SevenShotState:
        new = object.__new__(SevenShotState)
        new.game = self.game
        new.num_players = self.num_players
        new.history = list(self.history)
        _copy(self, new)  # every field of _FIELDS (septet.core.fields.compile_copy)
        return new

    def state_dict(self) -> dict[str, JSON]:
        return dump_fields(self, _FIELDS)

    def load_state_dict(self, data: Mapping[str, JSON]) -> None:
        n = self.num_players
        try:
            d: Any = data
            per_seat = ("hands", "pass_sel", "passed", "received", "played", "taken")
            if any(len(d[k]) != n for k in per_seat):
                raise ValueError("one entry per seat expected")
            if len(d["bonus"]) != self.num_sides or len(d["points"]) != self.num_sides:
                raise ValueError("one entry per side expected")
            load_fields(self, _FIELDS, d)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(f"not a valid Seven Shot state: {exc}") from exc


__all__ = ["PHASE_NAMES", "SevenShotState"]
