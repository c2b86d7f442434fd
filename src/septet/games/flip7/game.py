"""``Flip7``: the Game object (options, notation, integer encoding, bounds, text)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from septet.core.encoding import ActionEncoding
from septet.core.errors import OptionError, RecordError
from septet.core.game import Action, Game
from septet.core.observation import ObservationSpec
from septet.core.types import JSON, Event
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import encoding as _actions_encoding
from septet.games.flip7.actions import parse
from septet.games.flip7.rules import FLIP7_BONUS
from septet.games.flip7.state import Flip7State


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off"):
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise OptionError(f"flip7: brutal must be true or false, not {value!r}")


AUTO_TWO_DECKS = 18
"""With ``decks="auto"``, two decks from this many players (the rulebook: 「18人以上でプレイする
場合は、2つ目のデッキを使うことをおすすめします」, F7V-1.5)."""


@dataclass(frozen=True)
class Flip7Options:
    """Options of Flip 7.

    Attributes:
        edition: ``"vengeance"`` (F7V-1 … F7V-8) or ``"classic"`` (F7V-9).
        brutal: brutal mode (F7V-8), Vengeance only.
        target: the points that end the game (F7V-3.7), 1 to 10000.
        decks: ``"auto"`` (two decks from 18 players), ``1`` or ``2`` (F7V-1.5).
    """

    edition: Literal["vengeance", "classic"] = field(
        default="vengeance",
        metadata={
            "help": "vengeance (default) or classic Flip 7",
            "label": "Edition",
            "label_ja": "版",
            "rule": "F7V-9",
            "help_ja": "復讐心とともに（標準）またはクラシック版フリップ7",
            "choices": {"vengeance": "With a Vengeance", "classic": "Classic"},
            "choices_ja": {"vengeance": "復讐心とともに", "classic": "クラシック"},
        },
    )
    brutal: bool = field(
        default=False,
        metadata={
            "help": "brutal mode (Vengeance only): round scores may go below 0, and a Flip 7 "
            f"gives +{FLIP7_BONUS} to you or −{FLIP7_BONUS} to another player",
            "label": "Brutal mode",
            "label_ja": "残忍モード",
            "rule": "F7V-8",
            "help_ja": "残忍モード（復讐心とともにのみ）：ラウンドの得点がマイナスにもなり、"
            f"フリップ7で自分に+{FLIP7_BONUS}点か他の1人に−{FLIP7_BONUS}点",
        },
    )
    target: int = field(
        default=200,
        metadata={
            "help": "points to win (default 200)",
            "label": "Target",
            "label_ja": "目標点",
            "rule": "F7V-3.7",
            "help_ja": "勝利に必要な点数（標準200）",
        },
    )

    decks: Literal["auto", 1, 2] = field(
        default="auto",
        metadata={
            "help": "decks shuffled together: auto (two from 18 players, as the rulebook "
            "recommends), 1 or 2",
            "label": "Decks",
            "label_ja": "デッキの数",
            "rule": "F7V-1.5",
            "help_ja": (
                "使うデッキの数：自動（ルールブックのおすすめどおり18人以上で2つ）、1 または 2"
            ),
            "choices": {"auto": "auto (two from 18 players)", 1: "1", 2: "2"},
            "choices_ja": {"auto": "自動（18人以上で2つ）", 1: "1", 2: "2"},
        },
    )

    def __post_init__(self) -> None:
        decks: object = self.decks
        if isinstance(decks, str) and decks.strip().lower() in ("auto", "1", "2"):
            word = decks.strip().lower()
            decks = "auto" if word == "auto" else int(word)
        if decks not in ("auto", 1, 2) or isinstance(decks, bool):
            raise OptionError(f"flip7: decks must be auto, 1 or 2, not {self.decks!r}")
        object.__setattr__(self, "decks", decks)
        if self.edition not in ("vengeance", "classic"):
            raise OptionError(
                f"flip7: edition must be 'vengeance' or 'classic', not {self.edition!r}"
            )
        object.__setattr__(self, "brutal", _to_bool(self.brutal))
        try:
            target = int(self.target)
        except (TypeError, ValueError):
            raise OptionError(
                f"flip7: target must be a whole number, not {self.target!r}"
            ) from None
        if not 1 <= target <= 10000 or isinstance(self.target, bool):
            raise OptionError(f"flip7: target must be between 1 and 10000, not {self.target!r}")
        object.__setattr__(self, "target", target)
        if self.brutal and self.edition != "vengeance":
            raise OptionError("flip7: brutal mode exists only in the Vengeance edition")


class Flip7(Game[Flip7Options]):
    """Flip 7: With a Vengeance, and classic Flip 7 (``edition="classic"``).

    2 to 36 players: one deck up to 17 players, two decks from 18 (F7V-1.5, option ``decks``).
    """

    name: ClassVar[str] = "flip7"
    titles: ClassVar[Mapping[str, str]] = {
        "en": "Flip 7: With a Vengeance",
        "ja": "フリップ7：復讐心とともに",
    }
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 36
    options_type: ClassVar[type[Any]] = Flip7Options

    __slots__ = ()

    @property
    def vengeance(self) -> bool:
        """Whether this is the Vengeance edition."""
        return bool(self.options.edition == "vengeance")

    def title(self, lang: str = "en") -> str:
        """The edition's title."""
        if self.vengeance:
            return self.titles.get(lang, self.titles["en"])
        return "フリップ7" if lang == "ja" else "Flip 7"

    # ----- bounds ----------------------------------------------------------------------------
    def num_decks(self, num_players: int) -> int:
        """Decks shuffled together (F7V-1.5): option ``decks``, by default (``"auto"``) 1 up
        to 17 players and 2 from 18, as the rulebook recommends (docs/rulings.md)."""
        decks = self.options.decks
        if decks == "auto":
            return 2 if num_players >= AUTO_TWO_DECKS else 1
        return int(decks)

    @classmethod
    def recorded_options(cls, options: Mapping[str, JSON], num_players: int) -> dict[str, JSON]:
        """Options stored before the ``decks`` option (issue 25, docs/rulings.md): those games
        used two decks from 19 players, which ``"auto"`` gives too except at 18 (then 1)."""
        out = dict(options)
        if "decks" not in out:
            out["decks"] = 1 if num_players == AUTO_TWO_DECKS else "auto"
        return out

    def deck_size(self, num_players: int) -> int:
        """Cards in play: 108 (Vengeance) or 94 (classic) per deck."""
        base = C.vengeance_deck() if self.vengeance else C.classic_deck()
        return sum(base) * self.num_decks(num_players)

    def round_draw_cap(self, num_players: int) -> int:
        """Ruling (docs/rulings/flip7.md): a round ends, scored as it stands, after this many
        draws (3 decks' worth); only reachable by endlessly recycling discarded cards."""
        return 3 * self.deck_size(num_players)

    def max_rounds(self) -> int:
        """Ruling: the game ends after ``100 + target`` rounds at the latest (highest total wins,
        ties share); a guard that makes every game finite, never reached in practice."""
        return 100 + int(self.options.target)

    def max_game_length(self, num_players: int) -> int:
        """A true bound: 1 (first dealer) + rounds × per round (each draw is one chance step and
        causes at most one choice about the drawn card; at most one hit per draw plus one hit
        refused by the draw cap; one stay per player; the brutal Flip 7 choice)."""
        per_round = 3 * self.round_draw_cap(num_players) + num_players + 2
        return 1 + self.max_rounds() * per_round

    # ----- states ------------------------------------------------------------------------------
    def new_state(self, num_players: int) -> Flip7State:
        """A new game: a chance node choosing the first dealer (F7V-3.1).

        Raises:
            OptionError: fewer than 2 or more than 36 players.
        """
        return Flip7State(self, num_players)

    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> Flip7State:
        """A full state from any seat's view, even a plain JSON one (a remote bot): every field
        of the game is public except the deck order, which the engine never fixes, so the view
        rebuilds the position exactly (with an empty ``history``).

        Raises:
            RecordError: the view is malformed or from another edition.
        """
        try:
            n = int(view["num_players"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a Flip 7 view: {exc!r}") from exc
        state = self.new_state(n)
        state.load_state_dict(view)
        return state

    # ----- notation ----------------------------------------------------------------------------
    def action_from_str(self, text: str) -> Action:
        """Read Flip 7 notation (see :mod:`septet.games.flip7.actions`).

        Raises:
            NotationError: not Flip 7 notation.
        """
        return parse(text)

    # ----- integer encoding --------------------------------------------------------------------
    def _row_kinds(self) -> tuple[int, ...]:
        return C.VENGEANCE_ROW_KINDS if self.vengeance else ()

    def action_encoding(self, num_players: int) -> ActionEncoding:
        """The declared action ids (:func:`septet.games.flip7.actions.encoding`): hit, stay,
        bonus, target s, penalty s, then in Vengeance steals, discards and swaps of row cards."""
        enc = self._encodings.get(num_players)
        if enc is None:
            enc = self._encodings[num_players] = _actions_encoding(num_players, self._row_kinds())
        return enc

    def num_distinct_actions(self, num_players: int) -> int:
        """``3 + 2n`` (hit, stay, bonus, target s, penalty s) plus, in Vengeance, ``n·R`` steals,
        ``n·R`` discards and ``n(n−1)/2 · R²`` swaps (a pair of seats, lower first, and a card
        kind for each; ``R = 22`` row card kinds)."""
        return self.action_encoding(num_players).size

    def action_to_id(self, action: Action, num_players: int) -> int:
        """The fixed id of a player action (layout in :meth:`action_encoding`).

        Raises:
            ValueError: not a player action for ``num_players`` seats of this edition.
        """
        enc = self._encodings.get(num_players) or self.action_encoding(num_players)
        return enc.id_of(action)

    def id_to_action(self, action_id: int, num_players: int) -> Action:
        """Inverse of :meth:`action_to_id`.

        Raises:
            ValueError: id out of range.
        """
        return self.action_encoding(num_players).action(action_id)

    # ----- observation -------------------------------------------------------------------------
    def observation_spec(self, num_players: int) -> ObservationSpec:
        """The observation's named pieces (``n(R+9) + 4K + 10`` values; see :mod:`.observation`).

        Raises:
            OptionError: an unsupported number of players.
        """
        sp = self._obs_specs.get(num_players)
        if sp is None:
            from septet.games.flip7.observation import spec

            self.check_num_players(num_players)
            sp = self._obs_specs[num_players] = spec(self, num_players)
        return sp

    def history_bound(self, num_players: int) -> tuple[int, str]:
        """The information-state history keeps the current round: at most
        ``3 × round_draw_cap + n + 2`` steps (see :meth:`max_game_length`); the rounds before
        are summed up by the observation (totals, deck and discard counts, round)."""
        return 3 * self.round_draw_cap(num_players) + num_players + 2, "round"

    # ----- text ----------------------------------------------------------------------------------
    def render(self, view: Mapping[str, JSON], lang: str = "en") -> str:
        """The table as text (one line per player), in English or Japanese."""
        from septet.games.flip7.text import render

        return render(self, view, lang)

    def describe_action(self, action: Action, lang: str = "en") -> str:
        """A short phrase for an action (``"Hit"``, ``"ヒット"``)."""
        from septet.games.flip7.text import describe_action

        return describe_action(action, lang)

    def describe_event(self, event: Event, lang: str = "en") -> str:
        """A log line for an engine event."""
        from septet.games.flip7.text import describe_event

        return describe_event(event, lang)

    def rules_text(self, lang: str = "en") -> str:
        """The rules summary with the project's rulings."""
        from septet.games.flip7.text import rules_text

        return rules_text(self, lang)
