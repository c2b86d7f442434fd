"""The Double Seven position and its rules (DS-2 .. DS-8).

The state is plain lists of ints (hot loops stay on ints and tuples):

- ``pile``, ``display``, ``removed``: 9 counts each (see :mod:`.tiles`); the pile is a multiset,
  not an order: a face-down draw is a chance node over tile types (probability count/remaining).
- ``racks[s]``: 9 counts; ``known[s]``: the part of ``racks[s]`` every player knows (tiles taken
  face up, clovers retrieved, a rack shown by Rainbow), a lower bound kept from public events.
- ``families[s]``: a sorted tuple of families ``(animal, animals, clovers)``; identical families
  are interchangeable, so sorting keeps one canonical position.
- tokens: ``sevens[s]``, ``sevens_left``, ``holder77`` (-1 while the 77 token is unclaimed).
- turn bookkeeping: ``phase``, ``turn`` (seat), ``draws_left``, ``await_pile`` (the player asked
  for a face-down tile: a chance node), ``rainbow_used``, ``t41_used``, ``blocked`` (the two tiles
  just put into the display by two-for-one, not drawable now), ``given`` (families given away by
  exchange this turn), ``trigger`` (seat that triggered the end, -1 if none), ``dealt``.
- ``log``: the public event log, as JSON dicts.

Phases: deal (chance, DS-2.2) → first player (chance, DS-2.3) → per turn: flip (chance, DS-3.1)
→ draw (DS-4) → rainbow decision (DS-4.3) → actions (DS-5) → end-of-turn discard (DS-6.2) → next
turn or the end (DS-7).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from septet.core.errors import IllegalActionError, RecordError
from septet.core.fields import (
    Field,
    compile_copy,
    copy_nested,
    dump_fields,
    load_fields,
    slot_names,
)
from septet.core.game import State
from septet.core.types import CHANCE, JSON, TERMINAL, Event

from . import actions as A
from .rules import (
    DOUBLE_SEVEN_POINTS,
    MIN_FAMILY,
    SEVEN,
    SEVEN_TOKEN_POINTS,
    earns_seven,
    takes_77_on_seven,
    takes_77_with_two_families,
)
from .scoring import score_of, winners
from .tiles import (
    CLOVER,
    FULL_SET,
    NAMES_EN,
    NAMES_JA,
    NUM_ANIMALS,
    NUM_SEVEN_TOKENS,
    NUM_TILES,
    NUM_TYPES,
    Family,
    counts_to_json,
    family_str,
)

if TYPE_CHECKING:
    from .game import DoubleSeven

PH_DEAL: Final = 0
PH_FIRST: Final = 1
PH_FLIP: Final = 2
PH_DRAW: Final = 3
PH_RAINBOW: Final = 4
PH_ACT: Final = 5
PH_T41: Final = 6
PH_DISCARD: Final = 7
PH_OVER: Final = 8
PHASE_NAMES: Final = (
    "deal",
    "first_player",
    "flip",
    "draw",
    "rainbow",
    "actions",
    "two_for_one_draw",
    "discard",
    "over",
)
_PHASE_BY_NAME: Final = {n: i for i, n in enumerate(PHASE_NAMES)}


def _reduce_known(known: list[int], tile: int, n: int) -> None:
    # The public lower bound drops by what left the rack (DS-4.3 racks stay known after).
    v = known[tile] - n
    known[tile] = v if v > 0 else 0


def score_breakdown(families: tuple[Family, ...], sevens: int, has77: bool) -> dict[str, JSON]:
    """A seat's points by source (DS-8.1), for the end screen: ``families`` (one
    ``{"animal", "size", "points"}`` per family, in table order), ``tile_points`` (their sum),
    ``sevens`` (points of the 7 tokens, 1 each), ``seventy_seven`` (2 with the 77 token, else 0)
    and ``total`` (equal to :func:`score_of`). Rack tiles score nothing and are not listed."""
    fams: list[JSON] = [
        {"animal": NAMES_EN[f[0]], "size": f[1] + f[2], "points": f[1] + f[2]} for f in families
    ]
    tiles = sum(f[1] + f[2] for f in families)
    bonus77 = DOUBLE_SEVEN_POINTS if has77 else 0
    return {
        "families": fams,
        "tile_points": tiles,
        "sevens": SEVEN_TOKEN_POINTS * sevens,
        "seventy_seven": bonus77,
        "total": score_of(families, sevens, has77),  # DS-8.1, scoring.score_of
    }


# ----- the fields, declared once (issue 17): slots, clone, state_dict and load derive from them --
def _counts_load(x: Any) -> list[int]:
    v = [int(i) for i in x]
    if len(v) != NUM_TYPES or min(v) < 0:
        raise ValueError(f"bad tile counts {x!r}")
    return v


def _family_load(x: Any) -> Family:
    a, k, c = (int(i) for i in x)
    return (a, k, c)


def _rows_copy(rows: list[list[int]]) -> list[list[int]]:
    return [r[:] for r in rows]


def _families_dump(fams: list[tuple[Family, ...]]) -> list[JSON]:
    return [[list(f) for f in fs] for fs in fams]


def _log_copy(log: list[dict[str, Any]]) -> list[dict[str, JSON]]:
    """The public log, copied at every depth so that a copy shares no dict or list with the
    original (the kit's ``check_fields``). Each entry is ``{"kind", "seat", "data"}``; most
    ``data`` values are strings and ints (kept), a few are lists or dicts (copied)."""
    out: list[dict[str, JSON]] = []
    for e in log:
        entry = dict(e)
        data = e.get("data")
        if type(data) is dict:
            copied = dict(data)
            for k, v in data.items():
                if type(v) is list or type(v) is dict:
                    copied[k] = copy_nested(v)
            entry["data"] = copied
        out.append(entry)
    return out


_FIELDS = (
    # Serialised, in the order of ``state_dict`` (saved games and server records rely on it).
    Field("phase", dump=PHASE_NAMES.__getitem__, load=lambda x: _PHASE_BY_NAME[str(x)]),
    Field("turn", load=int),
    Field("dealt", load=int),
    Field("draws_left", load=int),
    Field("await_pile", load=bool),
    Field("rainbow_used", load=bool),
    Field("t41_used", load=bool),
    Field("blocked", copy=list, dump=list, load=_counts_load),
    Field(
        "given",
        copy=list,
        dump=lambda g: [list(f) for f in g],
        load=lambda xs: [_family_load(f) for f in xs],
    ),
    Field("pile", copy=list, dump=list, load=_counts_load),
    Field("display", copy=list, dump=list, load=_counts_load),
    Field("removed", copy=list, dump=list, load=_counts_load),
    Field("racks", copy=_rows_copy, dump=_rows_copy, load=lambda xs: [_counts_load(r) for r in xs]),
    Field("known", copy=_rows_copy, dump=_rows_copy, load=lambda xs: [_counts_load(r) for r in xs]),
    Field(
        "families",
        copy=list,
        dump=_families_dump,
        load=lambda xs: [tuple(sorted(_family_load(f) for f in fs)) for fs in xs],
    ),
    Field("sevens", copy=list, dump=list, load=lambda xs: [int(x) for x in xs]),
    Field("sevens_left", load=int),
    Field("holder77", load=int),
    Field("trigger", load=int),
    # The log is append-only (entries are never changed once appended): clone copies the list
    # and shares the entries (a deep copy made Double Seven's clone 36× slower late in a game).
    Field(
        "log", copy=list, dump=_log_copy, load=lambda xs: [dict(e) for e in xs], shared_entries=True
    ),
    # Derived from the options (set by the constructor): not serialised.
    Field("_opt_rainbow", key=None),
    Field("_opt_t41", key=None),
    Field("_opt_two_families", key=None),
    Field("_opt_dry_clears", key=None),
)


def _two_for_one(rack: list[int], out: list[Any]) -> None:
    """Append the two-for-one actions of ``rack`` (DS-5.6): every pair of its tiles, a tile
    type twice when it holds two."""
    pairs = A.TWO_FOR_ONE
    for x in range(NUM_TYPES):
        if rack[x]:
            if rack[x] >= 2:
                out.append(pairs[(x, x)])
            for y in range(x + 1, NUM_TYPES):
                if rack[y]:
                    out.append(pairs[(x, y)])


_copy = compile_copy(_FIELDS)


class DoubleSevenState(State):
    """A Double Seven position (see the module docstring for the fields)."""

    FIELDS = _FIELDS
    __slots__ = slot_names(_FIELDS)

    game: DoubleSeven

    def __init__(self, game: DoubleSeven, num_players: int) -> None:
        super().__init__(game, num_players)
        n = num_players
        opts = game.options
        self._opt_rainbow: bool = opts.rainbow
        self._opt_t41: bool = opts.two_for_one
        self._opt_two_families: bool = opts.double_seven == "two_families"
        self._opt_dry_clears: bool = opts.empty_rack_clears
        self.phase = PH_DEAL
        self.turn = -1
        self.dealt = 0
        self.draws_left = 0
        self.await_pile = False
        self.rainbow_used = False
        self.t41_used = False
        self.blocked: list[int] = [0] * NUM_TYPES
        self.given: list[Family] = []
        self.pile: list[int] = list(FULL_SET)
        self.display: list[int] = [0] * NUM_TYPES
        self.removed: list[int] = [0] * NUM_TYPES
        self.racks: list[list[int]] = [[0] * NUM_TYPES for _ in range(n)]
        self.known: list[list[int]] = [[0] * NUM_TYPES for _ in range(n)]
        self.families: list[tuple[Family, ...]] = [() for _ in range(n)]
        self.sevens = [0] * n
        self.sevens_left = NUM_SEVEN_TOKENS
        self.holder77 = -1
        self.trigger = -1
        self.log: list[dict[str, JSON]] = []

    # ----- whose turn ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph <= PH_FLIP or self.await_pile:
            return CHANCE
        if ph == PH_OVER:
            return TERMINAL
        return self.turn

    # ----- chance --------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        ph = self.phase
        if ph == PH_FIRST:
            p = 1.0 / self.num_players
            return [(A.FIRST[s], p) for s in range(self.num_players)]
        table: tuple[Any, ...]
        if ph in (PH_DEAL, PH_FLIP):
            table = A.DEAL if ph == PH_DEAL else A.FLIP
        elif self.await_pile:
            table = A.PILE
        else:
            return []
        pile = self.pile
        total = sum(pile)
        return [(table[t], pile[t] / total) for t in range(NUM_TYPES) if pile[t]]

    def sample_chance(self, rng: random.Random) -> Any:
        """An exact sample: a uniform tile of the pile (or a uniform first player)."""
        ph = self.phase
        if ph == PH_FIRST:
            return A.FIRST[rng.randrange(self.num_players)]
        table: tuple[Any, ...]
        if ph == PH_DEAL:
            table = A.DEAL
        elif ph == PH_FLIP:
            table = A.FLIP
        elif self.await_pile and ph != PH_OVER:
            table = A.PILE
        else:
            raise IllegalActionError("not a chance node", reason_ja="今は偶然の手番ではありません")
        pile = self.pile
        r = rng.randrange(sum(pile))
        for t in range(NUM_TYPES):
            r -= pile[t]
            if r < 0:
                return table[t]
        raise AssertionError("unreachable")  # pragma: no cover

    # ----- legal actions -------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        ph = self.phase
        if ph <= PH_FLIP or self.await_pile or ph == PH_OVER:
            return []
        if ph == PH_ACT:
            return self._legal_act()
        if ph in (PH_DRAW, PH_T41):
            out: list[Any] = []
            if sum(self.pile):
                out.append(A.DRAW)
            disp = self.display
            blocked = self.blocked
            take = A.TAKE
            for t in range(NUM_TYPES):
                if disp[t] > blocked[t]:
                    out.append(take[t])
            return out
        rack = self.racks[self.turn]
        if ph == PH_DISCARD:
            return [A.DISCARD[t] for t in range(NUM_TYPES) if rack[t]]
        # PH_RAINBOW: declining is always possible; declaring only with a Rainbow rack.
        return [A.RAINBOW_YES, A.RAINBOW_NO] if self._rainbow_ok() else [A.RAINBOW_NO]

    def _legal_act(self) -> list[Any]:
        me = self.turn
        rack = self.racks[me]
        mine = self.families[me]
        out: list[Any] = [A.PASS]
        rc = rack[CLOVER]
        own_animals = {f[0] for f in mine}
        # DS-5.1 start a family: k animals + c clovers, k >= 1, k + c >= 2, animal not already
        # in front of me (tables of actions built once, see actions.START_LISTS).
        starts = A.START_LISTS
        for a in range(NUM_ANIMALS):
            ra = rack[a]
            if ra and a not in own_animals:
                out.extend(starts[a][ra][rc])
        if mine:
            # DS-5.3 expand one of my families (identical families: one action).
            expand_list = A.expand_list
            prev = None
            for f in mine:
                if f != prev:
                    out.extend(expand_list(f, rack[f[0]], rc))
                    prev = f
            self._exchanges(me, mine, out)  # DS-5.4
        # DS-5.5 retrieve a clover from any family, with a matching animal from my rack.
        retrieve = A.retrieve
        for q in range(self.num_players):
            prev = None
            for g in self.families[q]:
                if g[2] and g != prev and rack[g[0]]:
                    out.append(retrieve(q, g))
                prev = g
        # DS-5.6 two for one: once a turn, 2 tiles on the rack and a tile left to draw.
        if (
            self._opt_t41
            and not self.t41_used
            and sum(rack) >= 2
            and sum(self.pile) + sum(self.display)
        ):
            _two_for_one(rack, out)
        return out

    def _exchanges(self, me: int, mine: tuple[Family, ...], out: list[Any]) -> None:
        """Append the exchanges ``me`` may make (DS-5.4; ruling: never receive a composition
        given away this turn); identical families give one action."""
        given = self.given
        families = self.families
        cache = A.EXCHANGES
        for q in range(self.num_players):
            theirs = families[q]
            if q == me or not theirs:
                continue
            prev = None
            for f in mine:
                if f == prev:
                    continue
                prev = f
                size = f[1] + f[2]
                prev_g = None
                for g in theirs:
                    if g != prev_g:
                        prev_g = g
                        if g[1] + g[2] == size and g != f and g not in given:
                            key = (f, q, g)
                            act = cache.get(key)
                            out.append(act if act is not None else A.exchange(f, q, g))

    # ----- validation ----------------------------------------------------------------------
    def check_action(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is not legal now."""
        self._check(action)

    def _check(self, action: Any) -> None:
        ph = self.phase
        cls = type(action)
        if ph == PH_OVER:
            raise IllegalActionError(
                "the game is over", "DS-7.2", reason_ja="ゲームは終了しています"
            )
        if ph <= PH_FLIP or self.await_pile:
            want = {PH_DEAL: A.Deal, PH_FIRST: A.FirstPlayer, PH_FLIP: A.Flip}.get(ph, A.PileDraw)
            if cls is not want:
                raise IllegalActionError(
                    f"{action} is not possible now: a chance outcome ({want.__name__}) is due",
                    reason_ja=f"今は{action}はできません（偶然の結果（{want.__name__}）の番です）",
                )
            if cls is A.FirstPlayer:
                if not (isinstance(action.seat, int) and 0 <= action.seat < self.num_players):
                    raise IllegalActionError(
                        f"there is no seat {action.seat}",
                        "DS-2.3",
                        reason_ja=f"席{action.seat}はありません",
                    )
            elif not (0 <= action.tile < NUM_TYPES and self.pile[action.tile]):
                raise IllegalActionError(
                    f"the pile holds no such tile ({action!r})",
                    "DS-2.1",
                    reason_ja=f"山札にそのタイルはありません（{action!r}）",
                )
            return
        if cls in (A.Deal, A.FirstPlayer, A.Flip, A.PileDraw):
            raise IllegalActionError(
                f"{action} is a chance outcome; a player must act now",
                reason_ja=f"{action}は偶然の結果です。今はプレイヤーの手番です",
            )
        checker = _CHECKERS.get(cls)
        if checker is None:
            raise IllegalActionError(
                f"{action!r} is not a Double Seven action",
                reason_ja=f"{action!r}はダブルセブンのアクションではありません",
            )
        checker(self, action)

    def _chk_draw(self, action: A.Draw) -> None:
        if self.phase not in (PH_DRAW, PH_T41):
            raise IllegalActionError(
                "you can draw only in the draw phase",
                "DS-4.1",
                reason_ja="タイルを引けるのはドローのときだけです",
            )
        if not sum(self.pile):
            raise IllegalActionError(
                "the face-down pile is empty", "DS-4.2", reason_ja="裏向きの山札がもうありません"
            )

    def _chk_take(self, action: A.Take) -> None:
        if self.phase not in (PH_DRAW, PH_T41):
            raise IllegalActionError(
                "you can draw only in the draw phase",
                "DS-4.1",
                reason_ja="タイルを引けるのはドローのときだけです",
            )
        t = action.tile
        if not (0 <= t < NUM_TYPES) or self.display[t] <= self.blocked[t]:
            if 0 <= t < NUM_TYPES and self.display[t]:
                raise IllegalActionError(
                    "you cannot take back a tile you just put out with two-for-one",
                    "DS-5.6",
                    reason_ja="2対1のトレードで出したばかりのタイルは取れません",
                )
            name = NAMES_EN[t] if 0 <= t < NUM_TYPES else repr(t)
            name_ja = NAMES_JA[t] if 0 <= t < NUM_TYPES else repr(t)
            raise IllegalActionError(
                f"no face-up {name} in the display",
                "DS-4.1",
                reason_ja=f"表向きの{name_ja}はありません",
            )

    def _chk_rainbow(self, action: A.Rainbow) -> None:
        if self.phase != PH_RAINBOW or (action.declare and not self._rainbow_ok()):
            raise IllegalActionError(
                "Rainbow is declared right after the draws, with at least 5 tiles of "
                "different animals and no clover",
                "DS-4.3",
                reason_ja="レインボー!を宣言できるのはドローの直後、5枚以上がすべて違う動物で"
                "クローバーがないときだけです",
            )

    def _need_act(self) -> None:
        if self.phase != PH_ACT:
            raise IllegalActionError(
                f"this is not the action phase (now: {PHASE_NAMES[self.phase]})",
                "DS-5",
                reason_ja="今はアクションのときではありません",
            )

    def _chk_start(self, action: A.Start) -> None:
        self._need_act()
        a, k, c = action.family
        rack = self.racks[self.turn]
        if not (0 <= a < NUM_ANIMALS) or k < 1 or c < 0:
            raise IllegalActionError(
                "a family needs at least one animal tile",
                "DS-5.1",
                reason_ja="家族には動物のタイルが1枚以上必要です",
            )
        if k + c < MIN_FAMILY:
            raise IllegalActionError(
                "a family starts with at least 2 tiles",
                "DS-5.1",
                reason_ja="家族は2枚以上で始めます",
            )
        if rack[a] < k or rack[CLOVER] < c:
            raise IllegalActionError(
                "those tiles are not on your rack",
                "DS-5.1",
                reason_ja="ラックにそのタイルがありません",
            )
        if any(f[0] == a for f in self.families[self.turn]):
            raise IllegalActionError(
                f"you already have a family of {NAMES_EN[a]} in front of you",
                "DS-5.1",
                reason_ja=f"{NAMES_JA[a]}の家族はもう出ています",
            )

    def _chk_expand(self, action: A.Expand) -> None:
        self._need_act()
        f = action.family
        if f not in self.families[self.turn]:
            raise IllegalActionError(
                f"you have no family {family_str(f)}",
                "DS-5.3",
                reason_ja=f"家族{family_str(f)}は出ていません",
            )
        k, c = action.animals, action.clovers
        rack = self.racks[self.turn]
        if k < 0 or c < 0 or k + c < 1:
            raise IllegalActionError(
                "add at least one tile", "DS-5.3", reason_ja="1枚以上追加してください"
            )
        if rack[f[0]] < k or rack[CLOVER] < c:
            raise IllegalActionError(
                "those tiles are not on your rack",
                "DS-5.3",
                reason_ja="ラックにそのタイルがありません",
            )

    def _chk_exchange(self, action: A.Exchange) -> None:
        self._need_act()
        f, q, g = action.family, action.seat, action.other
        if f not in self.families[self.turn]:
            raise IllegalActionError(
                f"you have no family {family_str(f)}",
                "DS-5.4",
                reason_ja=f"家族{family_str(f)}は出ていません",
            )
        if not (isinstance(q, int) and 0 <= q < self.num_players) or q == self.turn:
            raise IllegalActionError(
                "exchange with another player's family",
                "DS-5.4",
                reason_ja="交換の相手は他のプレイヤーの家族です",
            )
        if g not in self.families[q]:
            raise IllegalActionError(
                f"seat {q} has no family {family_str(g)}",
                "DS-5.4",
                reason_ja=f"席{q}に家族{family_str(g)}はありません",
            )
        if f[1] + f[2] != g[1] + g[2]:
            raise IllegalActionError(
                "both families must have the same number of tiles",
                "DS-5.4",
                reason_ja="交換する家族はどちらも同じ枚数でなければなりません",
            )
        if g == f or g in self.given:
            raise IllegalActionError(
                "you cannot take back a family like one you gave away this turn "
                "(ruling: an exchange must change the table)",
                "DS-5.4",
                reason_ja="このターンに交換で手放したのと同じ家族は受け取れません"
                "（裁定: 交換では場が変わらなければならない）",
            )

    def _chk_retrieve(self, action: A.Retrieve) -> None:
        self._need_act()
        q, g = action.seat, action.family
        if not (isinstance(q, int) and 0 <= q < self.num_players):
            raise IllegalActionError(
                f"there is no seat {q}", "DS-5.5", reason_ja=f"席{q}はありません"
            )
        if g not in self.families[q]:
            raise IllegalActionError(
                f"seat {q} has no family {family_str(g)}",
                "DS-5.5",
                reason_ja=f"席{q}に家族{family_str(g)}はありません",
            )
        if g[2] < 1:
            raise IllegalActionError(
                "that family holds no clover",
                "DS-5.5",
                reason_ja="その家族にクローバーはありません",
            )
        if not self.racks[self.turn][g[0]]:
            raise IllegalActionError(
                f"you need a {NAMES_EN[g[0]]} on your rack to replace the clover",
                "DS-5.5",
                reason_ja=f"クローバーと置き換える{NAMES_JA[g[0]]}がラックにありません",
            )

    def _chk_t41(self, action: A.TwoForOne) -> None:
        self._need_act()
        if not self._opt_t41:
            raise IllegalActionError(
                "two-for-one is off in this game",
                "DS-5.6",
                reason_ja="このゲームでは2対1のトレードはありません",
            )
        if self.t41_used:
            raise IllegalActionError(
                "two-for-one only once per turn",
                "DS-5.6",
                reason_ja="2対1のトレードは1ターンに1回だけです",
            )
        x, y = action.first, action.second
        if not (0 <= x <= y < NUM_TYPES):
            raise IllegalActionError(
                "name two tiles of your rack",
                "DS-5.6",
                reason_ja="ラックのタイルを2枚指定してください",
            )
        rack = self.racks[self.turn]
        if rack[x] < 1 or rack[y] < 1 or (x == y and rack[x] < 2):
            raise IllegalActionError(
                "those tiles are not on your rack",
                "DS-5.6",
                reason_ja="ラックにそのタイルがありません",
            )
        if not (sum(self.pile) + sum(self.display)):
            raise IllegalActionError(
                "no tile left to draw", "DS-5.6", reason_ja="引けるタイルがもう残っていません"
            )

    def _chk_pass(self, action: A.Pass) -> None:
        self._need_act()

    def _chk_discard(self, action: A.Discard) -> None:
        if self.phase != PH_DISCARD:
            raise IllegalActionError(
                "you discard only at the end of your turn with 6 or more tiles",
                "DS-6.2",
                reason_ja="捨てるのは、ターン終了時にラックが6枚以上あるときだけです",
            )
        t = action.tile
        if not (0 <= t < NUM_TYPES) or not self.racks[self.turn][t]:
            raise IllegalActionError(
                "that tile is not on your rack",
                "DS-6.2",
                reason_ja="ラックにそのタイルはありません",
            )

    # ----- apply ---------------------------------------------------------------------------
    def apply(self, action: Any) -> list[Event]:
        self._check(action)
        self.history.append(action)
        events: list[Event] = []
        _APPLIERS[type(action)](self, action, events)
        return events

    def _emit(
        self,
        events: list[Event],
        kind: str,
        seat: int | None,
        data: dict[str, JSON],
        private: bool = False,
    ) -> None:
        if private:
            assert seat is not None
            events.append(Event(kind, seat, data, frozenset((seat,))))
        else:
            events.append(Event(kind, seat, data))
            self.log.append({"kind": kind, "seat": seat, "data": data})

    def _do_deal(self, action: A.Deal, events: list[Event]) -> None:
        s = self.dealt // 3
        t = action.tile
        self.pile[t] -= 1
        self.racks[s][t] += 1
        self.dealt += 1
        self._emit(events, "dealt", s, {"tile": NAMES_EN[t]}, private=True)
        if self.dealt == 3 * self.num_players:
            self.phase = PH_FIRST

    def _do_first(self, action: A.FirstPlayer, events: list[Event]) -> None:
        self._emit(events, "first_player", action.seat, {})
        self._begin_turn(action.seat, events)

    def _begin_turn(self, seat: int, events: list[Event]) -> None:
        self.turn = seat
        self.rainbow_used = False
        self.t41_used = False
        self.given = []
        # DS-4.1: 3 tiles if the rack was empty at the start of the turn, otherwise 2.
        self.draws_left = 2 if sum(self.racks[seat]) else 3
        self._emit(events, "turn", seat, {})
        if sum(self.display) == 0 and sum(self.pile) > 0:
            self.phase = PH_FLIP  # DS-3.1
            self.await_pile = False
        else:
            self._enter_draw()

    def _do_flip(self, action: A.Flip, events: list[Event]) -> None:
        t = action.tile
        self.pile[t] -= 1
        self.display[t] += 1
        self._emit(events, "flip", None, {"tile": NAMES_EN[t]})
        self._enter_draw()

    def _enter_draw(self) -> None:
        reserve = sum(self.pile) + sum(self.display)
        if self.draws_left > reserve:
            self.draws_left = reserve  # DS-4.2
        if self.draws_left:
            self.phase = PH_DRAW
            # With no face-up tile the only draw is face down: straight to the chance node.
            self.await_pile = not sum(self.display)
        else:
            self._after_draws()

    def _after_draws(self) -> None:
        self.await_pile = False
        # DS-4.3: the decision comes whenever the rack holds 5+ tiles (public) and a tile is
        # left to draw, so that it does not tell the table whether the rack qualifies (see
        # _rainbow_ok).
        if (
            self._opt_rainbow
            and not self.rainbow_used
            and sum(self.racks[self.turn]) >= 5
            and (sum(self.pile) + sum(self.display))
        ):
            self.phase = PH_RAINBOW
            return
        self.phase = PH_ACT

    def _rainbow_ok(self) -> bool:
        # DS-4.3: at least 5 tiles, all of different animals, no clover.
        rack = self.racks[self.turn]
        return not rack[CLOVER] and sum(rack) >= 5 and max(rack) == 1

    def _do_draw(self, action: A.Draw, events: list[Event]) -> None:
        self.await_pile = True

    def _do_take(self, action: A.Take, events: list[Event]) -> None:
        t = action.tile
        me = self.turn
        self.display[t] -= 1
        self.racks[me][t] += 1
        self.known[me][t] += 1
        self._emit(events, "take", me, {"tile": NAMES_EN[t]})
        self._after_one_draw(events)

    def _do_pile(self, action: A.PileDraw, events: list[Event]) -> None:
        t = action.tile
        me = self.turn
        self.pile[t] -= 1
        self.racks[me][t] += 1
        self._emit(events, "draw", me, {})
        self._emit(events, "drew", me, {"tile": NAMES_EN[t]}, private=True)
        self._after_one_draw(events)

    def _after_one_draw(self, events: list[Event]) -> None:
        reserve = sum(self.pile) + sum(self.display)
        if not reserve and self.trigger < 0:
            # DS-7.1: the last tile of the reserve is drawn.
            self.trigger = self.turn
            self._emit(events, "end_triggered", self.turn, {"reason": "reserve"})
        if self.phase == PH_T41:
            self.phase = PH_ACT
            self.await_pile = False
            self.blocked = [0] * NUM_TYPES
            return
        self.draws_left -= 1
        if self.draws_left and reserve:
            self.await_pile = not sum(self.display)
        else:
            self.draws_left = 0
            self._after_draws()

    def _do_rainbow(self, action: A.Rainbow, events: list[Event]) -> None:
        self.rainbow_used = True
        me = self.turn
        if action.declare:
            rack = self.racks[me]
            self.known[me] = rack[:]
            self._emit(events, "rainbow", me, {"rack": counts_to_json(rack)})
            self.draws_left = 1
            self._enter_draw()
        else:
            self.phase = PH_ACT

    def _set_families(self, seat: int, fams: list[Family]) -> None:
        fams.sort()
        self.families[seat] = tuple(fams)

    def _take_from_rack(self, tile: int, n: int) -> None:
        me = self.turn
        self.racks[me][tile] -= n
        _reduce_known(self.known[me], tile, n)

    def _do_start(self, action: A.Start, events: list[Event]) -> None:
        me = self.turn
        a, k, c = f = action.family
        self._take_from_rack(a, k)
        if c:
            self._take_from_rack(CLOVER, c)
        fams = list(self.families[me])
        fams.append(f)
        self._set_families(me, fams)
        self._emit(
            events,
            "start",
            me,
            {"family": family_str(f), "animal": NAMES_EN[a], "animals": k, "clovers": c},
        )
        # Ruling: starting a family, even of 7+, earns no 7 token (DS-5.3 "during expansion").
        self._after_placement(events)

    def _do_expand(self, action: A.Expand, events: list[Event]) -> None:
        me = self.turn
        f = action.family
        a, k0, c0 = f
        k, c = action.animals, action.clovers
        if k:
            self._take_from_rack(a, k)
        if c:
            self._take_from_rack(CLOVER, c)
        fams = list(self.families[me])
        fams.remove(f)
        new = (a, k0 + k, c0 + c)
        fams.append(new)
        self._set_families(me, fams)
        self._emit(
            events,
            "expand",
            me,
            {
                "family": family_str(f),
                "new_family": family_str(new),
                "animal": NAMES_EN[a],
                "animals": k,
                "clovers": c,
            },
        )
        # DS-5.3 Seven!: from 6 or fewer tiles to 7 or more, while tokens remain.
        if earns_seven(k0 + c0, new[1] + new[2], self.sevens_left):
            self.sevens_left -= 1
            self.sevens[me] += 1
            self._emit(
                events, "seven", me, {"family": family_str(new), "tokens_left": self.sevens_left}
            )
            if not self._opt_two_families and takes_77_on_seven(self.sevens[me], self.holder77):
                self._take_77(events)
        self._after_placement(events)

    def _take_77(self, events: list[Event]) -> None:
        me = self.turn
        self.holder77 = me
        self._emit(events, "double_seven", me, {})
        if self.trigger < 0:
            self.trigger = me  # DS-7.1
            self._emit(events, "end_triggered", me, {"reason": "double_seven"})

    def _after_placement(self, events: list[Event]) -> None:
        me = self.turn
        # Option two_families: two families of 7+ in front of you take the 77 token.
        if self._opt_two_families and takes_77_with_two_families(self.families[me], self.holder77):
            self._take_77(events)
        if not sum(self.racks[me]):
            self._emit(events, "clear", me, {})  # DS-6.1 "Clear!"
            self._end_turn(events)

    def _do_exchange(self, action: A.Exchange, events: list[Event]) -> None:
        me, q = self.turn, action.seat
        f, g = action.family, action.other
        mine = list(self.families[me])
        mine.remove(f)
        mine.append(g)
        theirs = list(self.families[q])
        theirs.remove(g)
        theirs.append(f)
        self._set_families(me, mine)
        self._set_families(q, theirs)
        self.given.append(f)
        self._emit(
            events,
            "exchange",
            me,
            {"family": family_str(f), "with_seat": q, "other": family_str(g)},
        )

    def _do_retrieve(self, action: A.Retrieve, events: list[Event]) -> None:
        me, q = self.turn, action.seat
        g = action.family
        a, k, c = g
        self._take_from_rack(a, 1)
        self.racks[me][CLOVER] += 1
        self.known[me][CLOVER] += 1
        fams = list(self.families[q])
        fams.remove(g)
        fams.append((a, k + 1, c - 1))
        self._set_families(q, fams)
        self._emit(
            events,
            "retrieve",
            me,
            {
                "from_seat": q,
                "family": family_str(g),
                "new_family": family_str((a, k + 1, c - 1)),
                "animal": NAMES_EN[a],
            },
        )

    def _do_t41(self, action: A.TwoForOne, events: list[Event]) -> None:
        x, y = action.first, action.second
        self._take_from_rack(x, 1)
        self._take_from_rack(y, 1)
        blocked = [0] * NUM_TYPES
        blocked[x] += 1
        blocked[y] += 1
        self.display[x] += 1
        self.display[y] += 1
        self.blocked = blocked
        self.t41_used = True
        self.phase = PH_T41
        self.await_pile = sum(self.display) == 2  # only the pile is left to draw from
        self._emit(events, "two_for_one", self.turn, {"tiles": [NAMES_EN[x], NAMES_EN[y]]})

    def _do_pass(self, action: A.Pass, events: list[Event]) -> None:
        me = self.turn
        self._emit(events, "pass", me, {})  # DS-6.1 "Pass!"
        if sum(self.racks[me]) >= 6:
            self.phase = PH_DISCARD  # DS-6.2
        else:
            self._end_turn(events)

    def _do_discard(self, action: A.Discard, events: list[Event]) -> None:
        t = action.tile
        self._take_from_rack(t, 1)
        self.removed[t] += 1
        self._emit(events, "discard", self.turn, {"tile": NAMES_EN[t]})
        self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        nxt = (self.turn + 1) % self.num_players
        self.given = []
        if self.trigger >= 0 and nxt == self.trigger:
            # DS-7.2: everyone after the trigger has played one more turn.
            self.phase = PH_OVER
            self.await_pile = False
            self._emit(
                events,
                "game_over",
                None,
                {"scores": self.scores(), "winners": self.winners()},
            )
            return
        self._begin_turn(nxt, events)
        me = self.turn
        if self._opt_dry_clears and self.phase == PH_ACT and not sum(self.racks[me]):
            # DS-6.1 (ruling, docs/rulings.md): an empty rack after the draw phase, with
            # nothing left to draw, ends the turn at once too. Bounded: the reserve is empty,
            # so the end is triggered and the turns run out at the trigger (DS-7.2).
            self._emit(events, "clear", me, {})
            self._end_turn(events)

    # ----- results -------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """DS-8.1 points per seat (families + 7 tokens + 77 token); rack tiles score 0."""
        return [
            float(score_of(self.families[s], self.sevens[s], self.holder77 == s))
            for s in range(self.num_players)
        ]

    def winners(self) -> list[int]:
        """DS-8.2: most points; a tied holder of the 77 token wins alone, otherwise the tied
        players share the win. ``[]`` before the end."""
        if self.phase != PH_OVER:
            return []
        return winners(self.scores(), self.holder77 if self.holder77 >= 0 else None)

    # ----- information ---------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` knows (``None``: a spectator), as JSON.

        Keys: ``game``, ``num_players``, ``seat``, ``phase``, ``to_move``, ``turn``, ``dealt``,
        ``draws_left``, ``face_down_pending``, ``rainbow_used``, ``two_for_one_used``,
        ``blocked`` (tiles just put out by two-for-one), ``given_away`` (families given by
        exchange this turn), ``rack`` (own rack, ``{tile: count}``; ``None`` for a spectator),
        ``racks`` (per seat ``{"size", "known"}``: rack size and the tiles everyone knows are
        on it), ``families`` (per seat, list of ``{"animal", "animals", "clovers", "size"}``),
        ``sevens`` (7 tokens per seat), ``sevens_left``, ``double_seven`` (seat holding the 77
        token or ``None``), ``display``, ``pile`` (size), ``removed``, ``end_triggered_by``
        (seat or ``None``), ``scores``, ``winners``, ``log`` (public events),
        ``score_breakdown`` (per seat, see :func:`score_breakdown`), ``tie_break`` (see
        ``_tie_break``: ``None`` unless a tie for the most points is settled at the end) and
        ``forced_public`` (``seat`` is to move with one legal action everybody can see is forced).
        """
        n = self.num_players
        return {
            "game": "double-seven",
            "num_players": n,
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.current_player,
            "turn": self.turn,
            "dealt": self.dealt,
            "draws_left": self.draws_left,
            "face_down_pending": self.await_pile,
            "rainbow_used": self.rainbow_used,
            "two_for_one_used": self.t41_used,
            "blocked": counts_to_json(self.blocked),
            "given_away": [family_str(f) for f in self.given],
            "rack": counts_to_json(self.racks[seat]) if seat is not None else None,
            "racks": [
                {"size": sum(self.racks[s]), "known": counts_to_json(self.known[s])}
                for s in range(n)
            ],
            "families": self._families_json(),
            "sevens": list(self.sevens),
            "sevens_left": self.sevens_left,
            "double_seven": self.holder77 if self.holder77 >= 0 else None,
            "display": counts_to_json(self.display),
            "pile": sum(self.pile),
            "removed": counts_to_json(self.removed),
            "end_triggered_by": self.trigger if self.trigger >= 0 else None,
            "scores": self.scores(),
            "winners": self.winners(),
            "log": list(self.log),
            # Added for the end screen and the opt-in auto-play (issue 15).
            "score_breakdown": [
                score_breakdown(self.families[s], self.sevens[s], self.holder77 == s)
                for s in range(n)
            ],
            "tie_break": self._tie_break(),
            "forced_public": self._forced_public(seat),
        }

    def _families_json(self) -> list[JSON]:
        """Every seat's families for views: ``{"animal", "animals", "clovers", "size",
        "seven"}``; ``seven``: the family is of the size that earns a 7 token (``rules.SEVEN``,
        DS-5.3), so that clients mark it without restating the number."""
        return [
            [
                {
                    "animal": NAMES_EN[f[0]],
                    "animals": f[1],
                    "clovers": f[2],
                    "size": f[1] + f[2],
                    "seven": f[1] + f[2] >= SEVEN,
                }
                for f in fams
            ]
            for fams in self.families
        ]

    def _tie_break(self) -> JSON:
        """Once the game is over and several seats share the most points (DS-8.2): ``{"tied",
        "by": "77", "winner"}`` when one of them holds the 77 token and wins alone, else
        ``{"tied", "by": "shared", "winner": None}`` (a shared win). ``None`` otherwise."""
        if self.phase != PH_OVER:
            return None
        sc = self.scores()
        best = max(sc)
        tied = [s for s in range(self.num_players) if sc[s] == best]
        if len(tied) < 2:
            return None
        won = self.winners()  # scoring.winners (DS-8.2)
        if len(won) == 1:
            return {"tied": tied, "by": "77", "winner": won[0]}
        return {"tied": tied, "by": "shared", "winner": None}

    def _forced_public(self, seat: int | None) -> bool:
        """Whether ``seat`` is to move with a single legal action that everybody can see is
        forced. The draw choices (DS-4.1) depend only on the reserve, which is public; any other
        phase depends on the rack, so it counts only when the whole rack is known to all (a
        Rainbow rack, DS-4.3). A lone "no Rainbow" on a hidden rack is not public: it would
        tell the table the rack does not qualify."""
        if seat is None or seat != self.current_player:
            return False
        if self.phase in (PH_DRAW, PH_T41):
            return len(self.legal_actions()) == 1
        if sum(self.known[seat]) != sum(self.racks[seat]):
            return False
        return len(self.legal_actions()) == 1

    def determinize(self, seat: int, rng: random.Random) -> DoubleSevenState:
        """A state consistent with ``view(seat)``: the tiles ``seat`` cannot see (other racks
        beyond their known tiles, the pile) dealt at random. History is left empty."""
        return self.game.sample_state(self.view(seat), rng)

    def observation_tensor(self, seat: int) -> list[float]:
        """The encoding of ``view(seat)`` laid out by :mod:`septet.games.double_seven.observation`
        (named pieces, true bounds)."""
        from .observation import encode

        return encode(self.view(seat), self.num_players)

    def action_visibility(self, action: Any) -> frozenset[int] | None:
        """A setup tile dealt face down is seen by the seat it goes to (DS-2.2), a tile drawn
        from the pile by the drawer (DS-4.1); everything else is public."""
        if type(action) is A.Deal:
            return frozenset((self.dealt // 3,))
        if type(action) is A.PileDraw:
            return frozenset((self.turn,))
        return None

    # ----- copying and serialisation -------------------------------------------------------
    def clone(self) -> DoubleSevenState:
        new = DoubleSevenState.__new__(DoubleSevenState)
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
            if any(len(d[k]) != n for k in ("racks", "known", "families", "sevens")):
                raise ValueError("per-seat lists must have one entry per seat")
            load_fields(self, _FIELDS, d)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a Double Seven state: {exc}") from exc
        self.check_invariants()

    def check_invariants(self) -> None:
        """Raise :class:`RecordError` unless the tile counts add up to the 91 tiles (DS-1.1) and
        the known tiles are part of their racks.

        Raises:
            RecordError: an inconsistent position.
        """
        total = [0] * NUM_TYPES
        for t in range(NUM_TYPES):
            total[t] = self.pile[t] + self.display[t] + self.removed[t]
            total[t] += sum(r[t] for r in self.racks)
        for fs in self.families:
            for a, k, c in fs:
                if not (0 <= a < NUM_ANIMALS) or k < 1 or c < 0:
                    raise RecordError(f"bad family {(a, k, c)!r}")
                total[a] += k
                total[CLOVER] += c
        if total != list(FULL_SET):
            raise RecordError(
                f"the tiles do not add up to the {NUM_TILES} tiles of the game: {total}"
            )
        for r, kn in zip(self.racks, self.known, strict=True):
            if any(kn[t] > r[t] for t in range(NUM_TYPES)):
                raise RecordError("known rack tiles must be on the rack")
        if sum(self.sevens) + self.sevens_left != NUM_SEVEN_TOKENS:
            raise RecordError("the 7 tokens do not add up to 8")


_CHECKERS: dict[type, Any] = {
    A.Draw: DoubleSevenState._chk_draw,
    A.Take: DoubleSevenState._chk_take,
    A.Rainbow: DoubleSevenState._chk_rainbow,
    A.Start: DoubleSevenState._chk_start,
    A.Expand: DoubleSevenState._chk_expand,
    A.Exchange: DoubleSevenState._chk_exchange,
    A.Retrieve: DoubleSevenState._chk_retrieve,
    A.TwoForOne: DoubleSevenState._chk_t41,
    A.Pass: DoubleSevenState._chk_pass,
    A.Discard: DoubleSevenState._chk_discard,
}
_APPLIERS: dict[type, Any] = {
    A.Deal: DoubleSevenState._do_deal,
    A.FirstPlayer: DoubleSevenState._do_first,
    A.Flip: DoubleSevenState._do_flip,
    A.PileDraw: DoubleSevenState._do_pile,
    A.Draw: DoubleSevenState._do_draw,
    A.Take: DoubleSevenState._do_take,
    A.Rainbow: DoubleSevenState._do_rainbow,
    A.Start: DoubleSevenState._do_start,
    A.Expand: DoubleSevenState._do_expand,
    A.Exchange: DoubleSevenState._do_exchange,
    A.Retrieve: DoubleSevenState._do_retrieve,
    A.TwoForOne: DoubleSevenState._do_t41,
    A.Pass: DoubleSevenState._do_pass,
    A.Discard: DoubleSevenState._do_discard,
}

__all__ = ["PHASE_NAMES", "DoubleSevenState", "score_of"]
