"""The Double Seven game: options, notation, encoding, text, and rebuilding states from views."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from septet.core.encoding import ActionEncoding
from septet.core.errors import OptionError, RecordError
from septet.core.game import Game
from septet.core.observation import ObservationSpec
from septet.core.types import JSON, Event

from . import actions as A
from . import render as R
from .observation import spec as _obs_spec
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import _PHASE_BY_NAME, DoubleSevenState
from .tiles import (
    CLOVER,
    FULL_SET,
    NAMES_EN,
    NUM_SEVEN_TOKENS,
    NUM_TILES,
    NUM_TYPES,
    counts_from_json,
    family_from_str,
)

DOUBLE_SEVEN_MODES = ("second_token", "two_families")

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise OptionError(f"double-seven: option {name} must be true or false, not {value!r}")


@dataclass(frozen=True)
class DoubleSevenOptions:
    """Options of Double Seven (defaults follow ``shared/rules/double-seven.md``).

    Raises:
        OptionError: a value of the wrong type or an unknown ``double_seven`` mode.
    """

    rainbow: bool = field(
        default=True,
        metadata={
            "help": "Rainbow!: after the draws, a rack of 5+ tiles, all different animals and no "
            "clover, may be shown to draw one more tile",
            "label": "Rainbow!",
            "label_ja": "レインボー",
            "help_ja": "レインボー！：引き終えた後、ラックの5枚以上がすべて違う動物でクローバーが"
            "なければ、ラックを公開してもう1枚引ける",
            "rule": "DS-4.3",
        },
    )
    two_for_one: bool = field(
        default=True,
        metadata={
            "help": "two for one, once a turn: put 2 rack tiles face up and draw 1 other tile",
            "label": "Two for one",
            "label_ja": "2対1のトレード",
            "help_ja": "2対1のトレード（1手番に1回）：ラックの2枚を表向きに出し、別の1枚を引く",
            "rule": "DS-5.6",
        },
    )
    double_seven: Literal["second_token", "two_families"] = field(
        default="two_families",
        metadata={
            "help": "who takes the 77 token: the first with two families of 7 or more "
            "(the rulebook), or the first to take a second 7 token",
            "label": "77 token",
            "label_ja": "「77」トークン",
            "help_ja": "「77」トークンを取る人：7枚以上の家族を最初に2つ持った人（ルールブック）、"
            "または「7」トークンを最初に2枚取った人",
            "rule": "DS-5.3",
            "choices": {"second_token": "second 7 token", "two_families": "two families of 7+"},
            "choices_ja": {
                "second_token": "2枚目の「7」トークン",
                "two_families": "7枚以上の家族2つ",
            },
        },
    )

    empty_rack_clears: bool = field(
        default=True,
        metadata={
            "help": "an empty rack ends the turn (Clear!) also when nothing was left to draw; "
            "off only to replay games recorded before this ruling",
            "label": "Clear! with nothing to draw",
            "label_ja": "引くタイルがなくてもクリア",
            "help_ja": "引くタイルが残っていなくても、スタンドが空なら手番はすぐ終わる（クリア）。"
            "オフはこの裁定より前に記録されたゲームを再生するときだけ",
            "rule": "DS-6.1",
        },
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "rainbow", _as_bool("rainbow", self.rainbow))
        object.__setattr__(
            self, "empty_rack_clears", _as_bool("empty_rack_clears", self.empty_rack_clears)
        )
        object.__setattr__(self, "two_for_one", _as_bool("two_for_one", self.two_for_one))
        if self.double_seven not in DOUBLE_SEVEN_MODES:
            raise OptionError(
                f"double-seven: option double_seven must be one of "
                f"{', '.join(DOUBLE_SEVEN_MODES)}, not {self.double_seven!r}"
            )


class DoubleSeven(Game[DoubleSevenOptions]):
    """Double Seven (Michael Schacht; TIKI Editions 2025), rules DS-1 .. DS-9.

    ``DoubleSeven(rainbow=True, two_for_one=True, double_seven="two_families")``.
    """

    name: ClassVar[str] = "double-seven"
    titles: ClassVar[Mapping[str, str]] = {"en": "Double Seven", "ja": "ダブルセブン"}
    min_players: ClassVar[int] = MIN_PLAYERS  # DS-1.3
    max_players: ClassVar[int] = MAX_PLAYERS
    options_type: ClassVar[type[Any]] = DoubleSevenOptions

    @classmethod
    def recorded_options(cls, options: Mapping[str, JSON], num_players: int) -> dict[str, JSON]:
        """Options stored before issue 25 (docs/rulings.md): without ``empty_rack_clears`` the
        game was played with an empty rack and nothing to draw left in the actions phase
        (``False``); without ``double_seven``, with the old default ``second_token``."""
        out = dict(options)
        out.setdefault("empty_rack_clears", False)
        out.setdefault("double_seven", "second_token")
        return out

    def new_state(self, num_players: int) -> DoubleSevenState:
        """The initial state: a chance node dealing the first setup tile (DS-2.2).

        Raises:
            OptionError: not 2 to 4 players.
        """
        return DoubleSevenState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        """An upper bound on steps (actions and chance outcomes) in one game.

        Each turn before the end trigger takes at least one tile out of the reserve (two-for-one
        gives back at most one), so there are at most ``91 - 2n`` turns; a turn has at most 15
        steps besides placements and exchanges; starts, expansions and clover retrievals number at
        most 179 in a game (each puts an animal on the table for good, or a clover that only a
        retrieval brings back); and exchanges in a turn are at most the 45 families the table can
        hold plus that turn's placements (ruling on DS-5.4).
        """
        n = num_players
        return 3 * n + 1 + (NUM_TILES - 2 * n) * (15 + 45) + 2 * 179 + 10

    # ----- notation and encoding -----------------------------------------------------------
    def action_from_str(self, text: str) -> Any:
        """Read an action (see :mod:`septet.games.double_seven.actions` for the notation)."""
        return A.action_from_str(text)

    def action_encoding(self, num_players: int) -> ActionEncoding:
        """The declared action ids (kinds and arguments; see
        :mod:`septet.games.double_seven.actions`)."""
        enc = self._encodings.get(num_players)
        if enc is None:
            enc = self._encodings[num_players] = A.encoding(num_players)
        return enc

    def num_distinct_actions(self, num_players: int) -> int:
        """36 579 / 46 915 / 57 251 ids for 2 / 3 / 4 players."""
        return self.action_encoding(num_players).size

    def action_to_id(self, action: Any, num_players: int) -> int:
        """The id of a player action (see :meth:`action_encoding`).

        Raises:
            ValueError: not a player action of the encoding for ``num_players``.
        """
        enc = self._encodings.get(num_players) or self.action_encoding(num_players)
        return enc.id_of(action)

    def id_to_action(self, action_id: int, num_players: int) -> Any:
        """Inverse of :meth:`action_to_id`.

        Raises:
            ValueError: id out of range.
        """
        return self.action_encoding(num_players).action(action_id)

    def observation_from_view(self, view: Mapping[str, JSON], rng: random.Random) -> list[float]:
        """The observation tensor, built from the view itself (no sampling needed)."""
        from .observation import encode

        return encode(view, int(view["num_players"]))

    def observation_spec(self, num_players: int) -> ObservationSpec:
        """The observation's named pieces (``61 + 124 n`` values; see
        :mod:`septet.games.double_seven.observation`).

        Raises:
            OptionError: not 2 to 4 players.
        """
        self.check_num_players(num_players)
        return _obs_spec(num_players)

    # ----- text ----------------------------------------------------------------------------
    def render(self, view: Mapping[str, JSON], lang: str = "en") -> str:
        return R.render(view, lang)

    def describe_action(self, action: Any, lang: str = "en") -> str:
        return R.describe_action(action, lang)

    def describe_event(self, event: Event, lang: str = "en") -> str:
        return R.describe_event(event, lang)

    def rules_text(self, lang: str = "en") -> str:
        o = self.options
        return R.rules_text(
            lang, rainbow=o.rainbow, two_for_one=o.two_for_one, double_seven=o.double_seven
        )

    # ----- information sets ----------------------------------------------------------------
    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> DoubleSevenState:
        """A state drawn uniformly from the information set of ``view``: the tiles the viewer
        cannot see (pile, other racks beyond their known tiles) shuffled and dealt.

        Raises:
            RecordError: a malformed view or one that does not add up to the 91 tiles.
        """
        try:
            if view.get("game") != self.name:
                raise ValueError("not a Double Seven view")
            n = int(view["num_players"])
            seat = view["seat"]
            st = DoubleSevenState(self, n)
            _public_from_view(st, view)
            _deal_unseen(st, view, seat, rng)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(f"not a Double Seven view: {exc}") from exc
        if sum(st.sevens) + st.sevens_left != NUM_SEVEN_TOKENS:
            raise RecordError("not a Double Seven view: the 7 tokens do not add up")
        st.check_invariants()
        return st


def _public_from_view(st: DoubleSevenState, view: Mapping[str, Any]) -> None:
    """Set the public fields of ``st`` from ``view`` (``DoubleSevenState.view``)."""
    st.phase = _PHASE_BY_NAME[str(view["phase"])]
    st.turn = int(view["turn"])
    st.dealt = int(view["dealt"])
    st.draws_left = int(view["draws_left"])
    st.await_pile = bool(view["face_down_pending"])
    st.rainbow_used = bool(view["rainbow_used"])
    st.t41_used = bool(view["two_for_one_used"])
    st.blocked = counts_from_json(view["blocked"])
    st.given = [family_from_str(str(x)) for x in view["given_away"]]
    st.display = counts_from_json(view["display"])
    st.removed = counts_from_json(view["removed"])
    st.families = [
        tuple(
            sorted(
                (NAMES_EN.index(str(f["animal"])), int(f["animals"]), int(f["clovers"]))
                for f in fams
            )
        )
        for fams in view["families"]
    ]
    st.sevens = [int(x) for x in view["sevens"]]
    st.sevens_left = int(view["sevens_left"])
    st.holder77 = -1 if view["double_seven"] is None else int(view["double_seven"])
    st.trigger = -1 if view["end_triggered_by"] is None else int(view["end_triggered_by"])
    st.log = list(view["log"])  # append-only entries, shared (FIELDS: shared_entries)


def _deal_unseen(
    st: DoubleSevenState, view: Mapping[str, Any], seat: Any, rng: random.Random
) -> None:
    """Set the racks (the viewer's own, the others' known tiles) and deal the tiles nobody has
    seen, shuffled, to the others' unknown rack places and the pile.

    Raises:
        ValueError: the view's tiles do not add up to the 91 tiles (DS-1.1).
    """
    n = st.num_players
    racks_info = view["racks"]
    if len(racks_info) != n or len(st.families) != n or len(st.sevens) != n:
        raise ValueError("one entry per seat expected")
    unseen = list(FULL_SET)
    for t in range(NUM_TYPES):
        unseen[t] -= st.display[t] + st.removed[t]
    for fams in st.families:
        for a, k, c in fams:
            unseen[a] -= k
            unseen[CLOVER] -= c
    slots = [0] * n
    for s in range(n):
        known = counts_from_json(racks_info[s]["known"])
        st.known[s] = known
        if seat is not None and s == seat:
            rack = counts_from_json(view["rack"])
        else:
            rack = known[:]
            slots[s] = int(racks_info[s]["size"]) - sum(known)
        st.racks[s] = rack
        for t in range(NUM_TYPES):
            unseen[t] -= rack[t]
    pile_size = int(view["pile"])
    if min(unseen) < 0 or min(slots) < 0 or sum(unseen) != sum(slots) + pile_size:
        raise ValueError("the view's tiles do not add up to the 91 tiles")
    bag = [t for t in range(NUM_TYPES) for _ in range(unseen[t])]
    rng.shuffle(bag)
    i = 0
    for s in range(n):
        for t in bag[i : i + slots[s]]:
            st.racks[s][t] += 1
        i += slots[s]
    st.pile = [0] * NUM_TYPES
    for t in bag[i:]:
        st.pile[t] += 1


__all__ = ["DOUBLE_SEVEN_MODES", "DoubleSeven", "DoubleSevenOptions"]
