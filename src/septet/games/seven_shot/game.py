"""The Seven Shot game: options, notation, encoding, text (``shared/rules/seven-shot.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from septet.core.encoding import ActionEncoding
from septet.core.errors import OptionError
from septet.core.game import Action, Game, State
from septet.core.observation import ObservationSpec
from septet.core.types import JSON, Event
from septet.games.seven_shot import actions as _actions
from septet.games.seven_shot.actions import DEALS, FIRSTS, PASSES
from septet.games.seven_shot.cards import HAND_SIZES, parse_card
from septet.games.seven_shot.rules import num_sides, team_play
from septet.games.seven_shot.state import HAND_CARDS, PH_FIRST, SevenShotState


@dataclass(frozen=True)
class SevenShotOptions:
    """Options of Seven Shot (defaults follow the rules).

    Attributes:
        target: game points that end the game (SS-2.1: 7).
        pass_cards: cards each player passes at the start of a deal (SS-2.3: 3; 0 = no pass).
    """

    target: int = field(
        default=7,
        metadata={
            "help": "points to win the game",
            "label": "Target",
            "label_ja": "目標点",
            "help_ja": "ゲームに勝つ点数",
            "rule": "SS-2.1",
        },
    )
    pass_cards: int = field(
        default=3,
        metadata={
            "help": "cards each player passes at the start of a deal (0 to 5)",
            "label": "Cards passed",
            "label_ja": "渡す枚数",
            "help_ja": "各ディールの最初に渡すカードの枚数（0〜5）",
            "rule": "SS-2.3",
        },
    )

    def __post_init__(self) -> None:
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise OptionError(
                f"seven-shot: target must be a whole number >= 1, not {self.target!r}"
            )
        if (
            not isinstance(self.pass_cards, int)
            or isinstance(self.pass_cards, bool)
            or not 0 <= self.pass_cards <= 5
        ):
            raise OptionError(
                f"seven-shot: pass_cards must be a whole number 0..5, not {self.pass_cards!r}"
            )


class SevenShot(Game[SevenShotOptions]):
    """Seven Shot (セブンショット): a trick-taking game about taking 7s.

    3 players (each for themselves) or 4 players (partners opposite), deals until a side reaches
    ``target`` (7) points. See ``septet.games.seven_shot.state`` for the phases and the
    observation encoding, ``actions`` for the notation, ``docs/rulings/seven-shot.md`` for rulings.
    """

    name: ClassVar[str] = "seven-shot"
    titles: ClassVar[Mapping[str, str]] = {"en": "Seven Shot", "ja": "セブンショット"}
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type[Any]] = SevenShotOptions

    __slots__ = ()

    def new_state(self, num_players: int) -> SevenShotState:
        """A new game: the first deal's first card is about to be dealt (a chance node).

        Raises:
            OptionError: not 3 or 4 players.
        """
        return SevenShotState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        """Deals x (49 dealt + passes + first leader + at most 48 plays).

        Every deal gives a side at least 1 point, so there are at most ``sides x (target - 1) + 1``
        deals.
        """
        sides = num_sides(num_players)
        deals = sides * (self.options.target - 1) + 1
        per_deal = 49 + num_players * self.options.pass_cards + 1 + HAND_CARDS
        return deals * per_deal

    # ----- notation and encoding ----------------------------------------------------------
    def action_from_str(self, text: str) -> Action:
        return _actions.action_from_str(text)

    def num_distinct_actions(self, num_players: int) -> int:
        """98: play or pass one of the 49 cards."""
        return self.action_encoding(num_players).size

    def action_to_id(self, action: Action, num_players: int) -> int:
        """``0..48`` play card ``c``; ``49..97`` pass card ``c - 49``.

        Raises:
            ValueError: a chance outcome or not a Seven Shot action.
        """
        enc = self._encodings.get(num_players) or self.action_encoding(num_players)
        return enc.id_of(action)

    def id_to_action(self, action_id: int, num_players: int) -> Action:
        """Inverse of :meth:`action_to_id`.

        Raises:
            ValueError: id outside ``0..97``.
        """
        return self.action_encoding(num_players).action(action_id)

    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> State:
        """A state drawn from the information set of the seat whose view this is; works from a
        plain JSON view too (a remote bot), with an empty history.

        Raises:
            RecordError: a spectator's view, another game's, or a malformed one.
        """
        sampler = getattr(view, "sample_information_set", None)
        if sampler is not None:
            state: State = sampler(rng)
            return state
        from septet.games.seven_shot.determinize import state_from_view

        return state_from_view(self, view, rng)

    def action_encoding(self, num_players: int) -> ActionEncoding:
        """The declared action ids (see :mod:`septet.games.seven_shot.actions`)."""
        enc = self._encodings.get(num_players)
        if enc is None:
            enc = self._encodings[num_players] = _actions.encoding(num_players)
        return enc

    def observation_spec(self, num_players: int) -> ObservationSpec:
        """The observation's named pieces (``208 + 113 n`` values; see
        :mod:`septet.games.seven_shot.observation`).

        Raises:
            OptionError: not 3 or 4 players.
        """
        sp = self._obs_specs.get(num_players)
        if sp is None:
            from septet.games.seven_shot.observation import spec

            self.check_num_players(num_players)
            sp = self._obs_specs[num_players] = spec(self, num_players)
        return sp

    def teams(self, num_players: int) -> list[list[int]]:
        """Partners opposite with 4 players (SS-2.1); each for themselves with 3 (SS-5.1)."""
        if team_play(num_players):
            return [[0, 2], [1, 3]]
        return [[s] for s in range(num_players)]

    # ----- text -----------------------------------------------------------------------------
    def render(self, view: Mapping[str, JSON], lang: str = "en") -> str:
        from septet.games.seven_shot.render import render

        return render(view, lang)

    def describe_action(self, action: Action, lang: str = "en") -> str:
        from septet.games.seven_shot.render import describe_action

        return describe_action(action, lang)

    def describe_event(self, event: Event, lang: str = "en") -> str:
        from septet.games.seven_shot.render import describe_event

        return describe_event(event, lang)

    def rules_text(self, lang: str = "en") -> str:
        from septet.games.seven_shot.render import rules_text

        return rules_text(lang, target=self.options.target, pass_cards=self.options.pass_cards)

    # ----- hand-built positions (tests, puzzles, the advisor) --------------------------------
    def deal_state(
        self,
        hands: Sequence[Sequence[str | int]],
        indicator: str | int,
        *,
        first_leader: int = 0,
        points: Sequence[int] | None = None,
        deal_number: int = 1,
        passes: Sequence[Sequence[str | int]] | None = None,
    ) -> SevenShotState:
        """A state whose current deal has the given hands and trump indicator.

        The deal is made of real ``deal`` chance outcomes (so the state's history replays the
        deal), then the given ``passes`` (one list of ``pass_cards`` cards per seat) are applied
        as ``pass`` actions, then ``first_leader`` leads. Without ``passes`` (and with
        ``pass_cards > 0``) the state waits in the pass phase.

        Args:
            hands: one list of cards (notation or ids) per seat, 16 (3 players) or 12 (4 players)
                each, as dealt (before the pass).
            indicator: the 49th card, the trump indicator.
            first_leader: the seat that leads the first trick.
            points: game points per side before this deal (default zeros).
            deal_number: the number of this deal (for display and SS-2.4).
            passes: the cards each seat passes.

        Raises:
            ValueError: the cards are not the 49 cards of the deck, or bad sizes.
            IllegalActionError: a pass that is not legal.
        """
        n = len(hands)
        state = self.new_state(n)
        ids = [[c if isinstance(c, int) else parse_card(c) for c in h] for h in hands]
        ind = indicator if isinstance(indicator, int) else parse_card(indicator)
        size = HAND_SIZES[n]
        if any(len(h) != size for h in ids):
            raise ValueError(f"{n} players hold {size} cards each")
        flat = sorted([c for h in ids for c in h] + [ind])
        if flat != list(range(49)):
            raise ValueError("the hands and the indicator must be the 49 cards, each once")
        if points is not None:
            if len(points) != state.num_sides:
                raise ValueError(f"one score per side ({state.num_sides}) expected")
            state.points = [int(p) for p in points]
        state.deal_number = deal_number
        if deal_number > 1:
            state.first_leader = first_leader
        for pos in range(HAND_CARDS):
            state.apply(DEALS[ids[pos % n][pos // n]])
        state.apply(DEALS[ind])
        if passes is not None and self.options.pass_cards > 0:
            for s in range(n):
                for c in passes[s]:
                    state.apply(PASSES[c if isinstance(c, int) else parse_card(c)])
        if state.phase == PH_FIRST:  # the first leader's chance node (deal 1)
            state.apply(FIRSTS[first_leader])
        return state


__all__ = ["SevenShot", "SevenShotOptions"]
