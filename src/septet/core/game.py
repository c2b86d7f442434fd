"""The game contract: ``Game`` (rules + options) and ``State`` (a position with chance nodes).

Modelled on OpenSpiel's Python games (explicit chance nodes with exact probabilities) and
python-chess (a small API around one object, a text notation for moves, typed errors).

A consumer (bot, terminal, server, environment) only ever calls what is defined here; the rules
live in each game's engine under ``septet.games``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from septet.core.encoding import ActionEncoding
from septet.core.errors import IllegalActionError, NotationError, OptionError, RecordError
from septet.core.observation import ObservationSpec
from septet.core.registry import get as get_game
from septet.core.types import CHANCE, JSON, TERMINAL, Event, Seat

Action = Hashable
"""An action or a chance outcome: a small immutable value (usually a frozen dataclass) whose
``str()`` is its notation. Each game documents its notation."""

OptionsT = TypeVar("OptionsT")
S = TypeVar("S", bound="State")


class Game(ABC, Generic[OptionsT]):
    """A game's rules with a fixed set of options; immutable and hashable.

    Subclasses set the class attributes and implement :meth:`new_state`, the notation
    (:meth:`action_from_str`) and the integer encoding of actions.

    Args:
        options: keyword options of the game (see ``options_type``); unknown names or invalid
            values raise :class:`OptionError`.
    """

    name: ClassVar[str]
    """Registry name, e.g. ``"double-seven"``."""
    titles: ClassVar[Mapping[str, str]]
    """Display title per language code (``"en"``, ``"ja"``)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[Any]]
    """A frozen dataclass of options with defaults following the rule spec; its
    ``__post_init__`` validates and raises :class:`OptionError`."""

    __slots__ = ("_encodings", "_obs_specs", "options")
    options: OptionsT
    _encodings: dict[int, ActionEncoding]
    """Declared action encodings by player count, built once (see :meth:`action_encoding`)."""
    _obs_specs: dict[int, ObservationSpec]
    """Declared observation specs by player count, built once."""

    def __init__(self, **options: Any) -> None:
        names = {f.name for f in dataclasses.fields(self.options_type)}
        unknown = sorted(set(options) - names)
        if unknown:
            raise OptionError(
                f"{self.name}: unknown option(s) {', '.join(unknown)}; "
                f"options are: {', '.join(sorted(names)) or 'none'}"
            )
        try:
            opts = self.options_type(**options)
        except OptionError:
            raise
        except (TypeError, ValueError) as exc:
            raise OptionError(f"{self.name}: invalid options: {exc}") from exc
        object.__setattr__(self, "options", opts)
        object.__setattr__(self, "_encodings", {})
        object.__setattr__(self, "_obs_specs", {})

    def __getstate__(self) -> dict[str, Any]:
        # The caches hold functions (constraints): a Game pickles as its options alone.
        return {"options": self.options}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "options", state["options"])
        object.__setattr__(self, "_encodings", {})
        object.__setattr__(self, "_obs_specs", {})

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Game objects are immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, self.options))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    # ----- options -------------------------------------------------------------------------
    def options_dict(self) -> dict[str, JSON]:
        """The options as a JSON object (every option, defaults included)."""
        # Through JSON so tuples become lists: a record's options compare equal after a reload.
        raw = dataclasses.asdict(self.options)  # type: ignore[call-overload]
        return json.loads(json.dumps(raw))  # type: ignore[no-any-return]

    @classmethod
    def recorded_options(cls, options: Mapping[str, JSON], num_players: int) -> dict[str, JSON]:
        """The options of a game stored before some option existed or changed its default (a
        record, a server table, a score sheet), each missing option given the value it had
        when that game was played, so that it replays as it was played. Stored options are
        complete (:meth:`options_dict`), so only options added later can be missing.

        The base class returns them unchanged; a game whose defaults changed overrides it
        (``docs/rulings.md`` says which). Never raises.
        """
        return dict(options)

    @classmethod
    def option_specs(cls) -> list[tuple[str, Any, str]]:
        """``(name, default, help)`` for each option, for listings (``septet games``)."""
        out = []
        for f in dataclasses.fields(cls.options_type):
            out.append((f.name, f.default, str(f.metadata.get("help", ""))))
        return out

    def check_num_players(self, num_players: int) -> None:
        """Raise :class:`OptionError` unless ``num_players`` is supported."""
        if not isinstance(num_players, int) or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise OptionError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {num_players!r}"
            )

    # ----- states --------------------------------------------------------------------------
    @abstractmethod
    def new_state(self, num_players: int) -> State:
        """The initial state for ``num_players`` seats (often a chance node: the deal).

        Raises:
            OptionError: unsupported number of players.
        """

    @abstractmethod
    def max_game_length(self, num_players: int) -> int:
        """An upper bound on the number of actions and chance outcomes in one game."""

    # ----- notation ------------------------------------------------------------------------
    @abstractmethod
    def action_from_str(self, text: str) -> Action:
        """Read an action or chance outcome from its notation, without a state.

        ``action_from_str(str(a)) == a`` for every action ``a`` of the game.

        Raises:
            NotationError: the text is not in the game's notation.
        """

    def parse_action(self, state: State, text: str) -> Action:
        """Read a legal action (or chance outcome at a chance node) of ``state`` from text.

        Raises:
            NotationError: not in the notation.
            IllegalActionError: well formed but not legal now.
        """
        action = self.action_from_str(text.strip())
        if state.current_player == CHANCE:
            if action not in {a for a, _ in state.chance_outcomes()}:
                raise IllegalActionError(
                    f"{text!r} is not a possible chance outcome now",
                    reason_ja=f"{text!r}は今ありうる偶然の結果ではありません",
                )
        elif action not in state.legal_actions():
            state.check_action(action)  # raises with the rule id
            raise IllegalActionError(
                f"{text!r} is not a legal action now", reason_ja=f"今は{text!r}はできません"
            )
        return action

    # ----- information sets (search bots) ----------------------------------------------------
    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> State:
        """A full state drawn from the information set of the seat whose view this is.

        This is how a search bot, which only ever receives a view, gets states to search: every
        hidden element (other players' racks or hands, the pile, cards passed unseen) is
        resampled from what that seat cannot rule out, and everything the view shows is kept
        (``result.view(seat) == view``, same ``current_player`` and ``legal_actions()``).

        The default works for the views the play loop, the arena and the server hand to agents
        (:class:`septet.core.play.SeatView`): they carry the seat's information-set sampler,
        ``State.determinize(seat, rng)`` of the real state, as in OpenSpiel's
        ``resample_from_infostate``. An engine may override this to rebuild states from plain
        JSON views (a remote bot).

        Args:
            view: a seat's view as handed to ``Agent.act``.
            rng: the source of randomness; the same ``rng`` state gives the same sample.

        Raises:
            NotImplementedError: a plain view without a sampler, and no engine override.
        """
        sampler = getattr(view, "sample_information_set", None)
        if sampler is None:
            raise NotImplementedError(
                f"{self.name}: this view carries no information-set sampler (pass agents a "
                "SeatView, see septet.core.play.seat_view), so search bots cannot use it"
            )
        state: State = sampler(rng)
        return state

    # ----- text (terminal, logs, web) --------------------------------------------------------
    def render(self, view: Mapping[str, JSON], lang: str = "en") -> str:
        """The table as plain text from a view (``State.view``), in ``lang`` (``"en"``/``"ja"``).

        Engines override this; the default dumps the view.
        """
        return json.dumps(view, ensure_ascii=False, indent=1)

    def describe_action(self, action: Action, lang: str = "en") -> str:
        """An action in player words, never notation or rule ids (``"Hit"``, ``"ヒット"``,
        ``"Play the 8 of Earth"``). Seats are written ``P{n}`` (see :mod:`septet.core.text`)."""
        return str(action)

    def describe_event(self, event: Event, lang: str = "en") -> str:
        """A log line for an event, a full sentence with its verb (``"Seven! P1 takes a 7
        token"``); seats are written ``P{n}`` for consumers to replace with names
        (:func:`septet.core.text.relabel`). Event kinds and data: ``docs/events.md``."""
        return f"{event.kind} {dict(event.data)}"

    def rules_text(self, lang: str = "en") -> str:
        """The rules summary with the project's rulings, as Markdown-ish text."""
        return self.titles.get(lang, self.name)

    # ----- integer encoding (RL) ------------------------------------------------------------
    @abstractmethod
    def num_distinct_actions(self, num_players: int) -> int:
        """Size of the fixed player-action space for ``num_players`` seats."""

    @abstractmethod
    def action_to_id(self, action: Action, num_players: int) -> int:
        """The fixed integer id of a player action, in ``range(num_distinct_actions(n))``.

        Raises:
            ValueError: not a player action of this game.
        """

    def action_encoding(self, num_players: int) -> ActionEncoding:
        """The declared, versioned layout of the action ids for ``num_players`` seats (kinds and
        their arguments, see :mod:`septet.core.encoding`); engines that declare one derive
        :meth:`action_to_id` and :meth:`id_to_action` from it.

        Raises:
            NotImplementedError: the engine declares none.
        """
        raise NotImplementedError(f"{self.name} declares no action encoding")

    # ----- observations (RL) ----------------------------------------------------------------
    def observation_spec(self, num_players: int) -> ObservationSpec:
        """The layout of ``State.observation_tensor`` for ``num_players`` seats, as named pieces
        with true bounds (see :mod:`septet.core.observation`).

        Raises:
            NotImplementedError: the engine has no observation tensor.
        """
        raise NotImplementedError(f"{self.name} has no observation tensor")

    def observation_size(self, num_players: int) -> int:
        """Length of ``State.observation_tensor`` for ``num_players`` seats (the spec's size).

        Raises:
            NotImplementedError: the engine has no observation tensor.
        """
        return self.observation_spec(num_players).size

    def observation_from_view(self, view: Mapping[str, JSON], rng: random.Random) -> list[float]:
        """The observation tensor of the seat whose view this is, for an agent that only gets
        views (a trained policy): equal to ``state.observation_tensor(seat)`` of the real state,
        since that tensor holds nothing the seat cannot see. Default: the tensor of a state
        drawn from the view's information set (:meth:`sample_state`); an engine whose tensor is
        built from the view itself overrides this.

        Raises:
            NotImplementedError: no observation tensor, or a view without a sampler.
        """
        seat = int(view["seat"])
        return self.sample_state(view, rng).observation_tensor(seat)

    def history_bound(self, num_players: int) -> tuple[int, str]:
        """``(steps, scope)`` for the history part of the information-state tensor: ``scope``
        ``"game"`` keeps every step of the game, ``"round"`` the steps of the current round
        (``State.round_index``), the rounds before being summed up by the observation; ``steps``
        is a true bound on the steps in that scope. Default: the whole game,
        :meth:`max_game_length` steps."""
        return self.max_game_length(num_players), "game"

    def teams(self, num_players: int) -> list[list[Seat]]:
        """The seats that win and score together, as lists (default: each seat alone)."""
        return [[s] for s in range(num_players)]

    @abstractmethod
    def id_to_action(self, action_id: int, num_players: int) -> Action:
        """Inverse of :meth:`action_to_id`.

        Raises:
            ValueError: id out of range.
        """


class State(ABC):
    """A position of a game, with explicit chance nodes (OpenSpiel-style).

    Mutable: :meth:`apply` changes it in place; :meth:`clone` gives an independent copy.
    Subclasses implement the abstract methods; they keep ``self.history`` up to date in
    :meth:`apply` (append the action once it is known to be legal).
    """

    __slots__ = ("game", "history", "num_players")

    game: Game[Any]
    num_players: int
    history: list[Action]

    def __init__(self, game: Game[Any], num_players: int) -> None:
        game.check_num_players(num_players)
        self.game = game
        self.num_players = num_players
        self.history = []

    # ----- whose turn ----------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player == TERMINAL

    @property
    def is_chance_node(self) -> bool:
        """Whether the next step is a chance outcome."""
        return self.current_player == CHANCE

    # ----- moves ---------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, exact and in a stable order; ``[]`` at a
        chance node or a terminal state. No two actions lead to the same state."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, ``(outcome, probability)`` pairs with positive probabilities summing
        to 1; ``[]`` elsewhere."""

    def sample_chance(self, rng: random.Random) -> Action:
        """One chance outcome drawn with its probability (games may override with a faster,
        equally exact sampler). Deterministic for a given ``rng`` state."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("not a chance node", reason_ja="今は偶然の手番ではありません")
        r = rng.random()
        acc = 0.0
        for outcome, p in outcomes:
            acc += p
            if r < acc:
                return outcome
        return outcomes[-1][0]

    @abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Apply a player action or (at a chance node) a chance outcome.

        Returns:
            The events it caused, in order (some may be private: see ``Event.visible_to``).

        Raises:
            IllegalActionError: the action is not legal; the state is unchanged.
        """

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (with the rule id) if ``action`` is not legal now.

        The default only checks membership; engines override it to name the rule broken.
        """
        if self.current_player == CHANCE:
            if action not in {a for a, _ in self.chance_outcomes()}:
                raise IllegalActionError(
                    f"{action} is not a possible chance outcome",
                    reason_ja=f"{action}はありうる偶然の結果ではありません",
                )
        elif action not in self.legal_actions():
            raise IllegalActionError(
                f"{action} is not a legal action now", reason_ja=f"今は{action}はできません"
            )

    # ----- information ---------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """Everything ``seat`` may know and nothing more (``None``: a spectator). JSON-serialisable.

        This is the only door through which anything reaches a bot, a client or an environment.
        """

    @abstractmethod
    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """A full state consistent with ``view(seat)``, with every hidden element resampled from
        what ``seat`` cannot rule out; ``result.view(seat) == self.view(seat)``."""

    def observation_tensor(self, seat: Seat) -> list[float]:
        """A fixed-size numeric encoding of ``view(seat)`` (length
        ``game.observation_size(num_players)``), laid out by ``game.observation_spec(n)``
        (named pieces with true bounds). Used by the RL environments; must hold nothing
        ``seat`` cannot see."""
        raise NotImplementedError(f"{self.game.name} has no observation tensor")

    def action_visibility(self, action: Action) -> frozenset[Seat] | None:
        """Who sees the arguments of ``action`` (a player action or chance outcome about to be
        applied here): ``None`` for everyone, else the seats that see it (a tile drawn face
        down: the drawer). Everyone always sees that a step of that kind happened. Used by the
        information-state history (:mod:`septet.core.infostate`); the default is public."""
        return None

    def information_state_tensor(self, seat: Seat) -> list[float]:
        """The perfect-recall information state of ``seat``: the observation tensor, then the
        seat's history of the game (or of the round, see ``Game.history_bound``) as tokens
        (:mod:`septet.core.infostate`). Rebuilt by replaying ``history``: O(steps); the RL
        environments keep it up to date step by step instead.

        Raises:
            NotImplementedError: the engine has no observation tensor or action encoding.
        """
        from septet.core.infostate import InfostateEncoder

        return InfostateEncoder.from_state(self).tensor(self, seat)

    # ----- results -------------------------------------------------------------------------
    def round_index(self) -> int:
        """Which round of a multi-round game is being played (a Flip 7 round, a Seven Shot
        deal), counting up from the first; a game of one round always returns 0. Searches use
        it to stop a rollout at the end of the round (``septet.bots.ismcts``, ``horizon=round``).
        """
        return 0

    @abstractmethod
    def scores(self) -> list[float]:
        """Points per seat so far (final once terminal), by the game's scoring rule."""

    @abstractmethod
    def winners(self) -> list[Seat]:
        """The winning seats (several on a shared win or a team win); ``[]`` unless terminal."""

    def returns(self) -> list[float]:
        """Utility per seat for search and RL: 1.0 for each winner, 0.0 otherwise; all 0.0 before
        the end."""
        if not self.is_terminal:
            return [0.0] * self.num_players
        won = set(self.winners())
        return [1.0 if s in won else 0.0 for s in range(self.num_players)]

    # ----- copying and serialisation -------------------------------------------------------
    @abstractmethod
    def clone(self: S) -> S:
        """An independent deep copy (history included)."""

    @abstractmethod
    def state_dict(self) -> dict[str, JSON]:
        """Every field of the position except ``history``, as JSON. Two states with equal
        ``state_dict()`` behave identically from here on."""

    @abstractmethod
    def load_state_dict(self, data: Mapping[str, JSON]) -> None:
        """Restore the fields written by :meth:`state_dict` (into a fresh ``new_state``).

        Raises:
            RecordError: malformed data.
        """

    def to_json(self) -> dict[str, JSON]:
        """The full state (hidden information included) as a JSON object."""
        return {
            "game": self.game.name,
            "options": self.game.options_dict(),
            "num_players": self.num_players,
            "state": self.state_dict(),
            "history": [str(a) for a in self.history],
        }

    @staticmethod
    def from_json(data: Mapping[str, JSON] | str) -> State:
        """Rebuild a state written by :meth:`to_json` (a dict or its JSON text).

        Raises:
            RecordError: malformed or foreign data.
        """
        try:
            if isinstance(data, str):
                data = json.loads(data)
            if not isinstance(data, Mapping):
                raise RecordError("not a valid Septet state: a JSON object is expected")
            game = get_game(str(data["game"]), **dict(data.get("options") or {}))
            state = game.new_state(int(data["num_players"]))
            state.load_state_dict(data["state"])
            state.history = [game.action_from_str(str(t)) for t in data["history"]]
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
            raise RecordError(f"not a valid Septet state: {exc}") from exc
        return state

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} players={self.num_players} "
            f"to_move={self.current_player} moves={len(self.history)}>"
        )


__all__ = ["CHANCE", "TERMINAL", "Action", "Event", "Game", "NotationError", "Seat", "State"]
