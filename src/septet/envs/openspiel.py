"""The Septet games as OpenSpiel Python games (needs the ``rl`` extra).

>>> import pyspiel
>>> import septet.envs.openspiel  # registers septet_double_seven, septet_flip7, septet_seven_shot
>>> game = pyspiel.load_game("septet_flip7(players=3,edition=classic)")

Each Septet game ``name`` is registered as ``septet_<name with _ for ->`` with the parameter
``players`` (default: the game's minimum) and every game option whose default is a bool, int,
float or str. Sequential, explicit stochastic chance, imperfect information, general sum,
terminal rewards.

- Player actions use the game's fixed encoding (``Game.action_to_id``), so
  ``num_distinct_actions`` is ``Game.num_distinct_actions(n)``; legal actions are sorted ids.
- Chance nodes are explicit: the chance action ``i`` is the ``i``-th outcome of the engine's
  ``State.chance_outcomes()`` at that node (probabilities exact). ``max_chance_outcomes`` is the
  engine's ``Game.max_chance_outcomes(n)`` if it has one, else the most outcomes seen at any
  chance node of a few seeded random games (decks and deals are largest at their first draw).
- ``information_state_string(p)``: the seat's view (``State.view(p)``, the engine's record of
  everything that seat knows, its public log included) as canonical JSON; two states give the
  same string exactly when seat ``p`` cannot tell them apart by its view.
- ``observation_string(p)``: the engine's text rendering of that view (``Game.render``).
- ``observation_tensor(p)``: the engine's ``State.observation_tensor(p)``; the observer's
  ``dict`` holds its named pieces (``Game.observation_spec(n)``) as views into the tensor.
- ``information_state_tensor(p)``: the perfect-recall information state
  (:mod:`septet.core.infostate`: the observation, then every step of the game, or of the round
  for Flip 7, as the seat saw it), kept up to date move by move once first asked for.
- Public observations (``IIGObservationType(private_info=NONE)``) use the spectator view
  ``State.view(None)``; ``ALL_PLAYERS`` observations the full state (strings only).
- ``resample_from_infostate(p, sampler)``: the engine's ``State.determinize(p, rng)``, so
  OpenSpiel's Python ISMCTS bot (``open_spiel.python.algorithms.ismcts``) searches these games;
  :class:`RolloutEvaluator` is OpenSpiel's random-rollout evaluator run at engine speed.
- Serialization: OpenSpiel's default for Python games (the history plus the pickled Python
  fields); the Septet state pickles as its ``State.to_json()``.
- Returns: ``State.returns()`` (1.0 per winner, 0.0 otherwise).
"""

from __future__ import annotations

import dataclasses
import json
import random
from functools import cache
from typing import Any

from septet import games
from septet.core.errors import OptionError, SeptetError
from septet.core.game import Action, Game, State
from septet.core.infostate import InfostateEncoder
from septet.core.play import random_playout
from septet.core.rng import derive_rng
from septet.core.types import CHANCE, TERMINAL
from septet.envs import missing_extra
from septet.envs._common import (
    check_observation_support,
    infostate_spec,
    legal_ids,
    observation_spec,
)

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as _mcts
except ModuleNotFoundError as exc:
    raise missing_extra("septet.envs.openspiel", exc) from exc

_PARAM_TYPES = (bool, int, float, str)
_PROBE_GAMES = 8


def short_name(game_name: str) -> str:
    """The OpenSpiel name of a Septet game: ``"double-seven"`` -> ``"septet_double_seven"``."""
    return "septet_" + game_name.replace("-", "_")


@cache
def max_chance_outcomes(game: Game[Any], num_players: int) -> int:
    """The most outcomes any chance node of ``game`` has with ``num_players`` seats: the engine's
    ``max_chance_outcomes(n)`` if it defines one, else the most seen in a few seeded random games.
    """
    hook = getattr(game, "max_chance_outcomes", None)
    if callable(hook):
        return int(hook(num_players))
    best = 1
    for g in range(_PROBE_GAMES):
        rng = derive_rng(0, "openspiel-probe", g)
        state = game.new_state(num_players)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                best = max(best, len(state.chance_outcomes()))
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    return best


class _Holder:
    """Holds the Septet state inside the OpenSpiel state's ``__dict__``: OpenSpiel's ``clone()``
    deep-copies that dict (-> ``State.clone()``) and serialization pickles it
    (-> ``State.to_json()``)."""

    __slots__ = ("infostate", "later", "legal", "outcomes", "past", "state")

    def __init__(
        self,
        state: State,
        infostate: InfostateEncoder | None = None,
        past: list[Action] | None = None,
        later: InfostateEncoder | None = None,
    ) -> None:
        self.state = state
        # Caches for the current position (OpenSpiel asks several times), dropped on every move.
        self.outcomes: list[tuple[Action, float]] | None = None
        self.legal: list[int] | None = None
        # The step tokens of the information state: built on first use, then kept move by move.
        # A resampled state's own history is not the real one: ``past`` is the real history up
        # to the resampling (never changed, shared by copies) and ``later`` the tokens of the
        # steps played since; both turn into ``infostate`` when it is first asked for.
        self.infostate = infostate
        self.past = past
        self.later = later

    def encoder(self) -> InfostateEncoder:
        """The information-state tokens of the state's history (built once, then kept).

        Raises:
            NotImplementedError: the engine declares no pieces or no action encoding.
        """
        if self.infostate is None:
            s = self.state
            if self.past is None:
                self.infostate = InfostateEncoder.from_state(s)
            else:
                enc = InfostateEncoder.from_history(s.game, s.num_players, self.past)
                if self.later is not None:
                    enc.tokens.extend(self.later.tokens)
                self.infostate, self.past, self.later = enc, None, None
        return self.infostate

    def apply(self, action: Action) -> None:
        """Apply a player action or chance outcome, keeping the tokens if they are kept.

        Raises:
            IllegalActionError: not legal (nothing changes).
        """
        enc = self.infostate
        if enc is None and self.past is not None:
            if self.later is None:
                try:
                    self.later = InfostateEncoder(self.state.game, self.state.num_players)
                except NotImplementedError:  # a plug-in without an encoding: nothing to keep
                    self.past = None
            enc = self.later
        if enc is not None:
            enc.record(self.state, action)
        try:
            self.state.apply(action)
        except Exception:
            if enc is not None:
                enc.tokens.pop()
            raise
        self.outcomes = None
        self.legal = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(
            self.state.clone(),
            self.infostate.clone() if self.infostate is not None else None,
            self.past,
            self.later.clone() if self.later is not None else None,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_holder_from_json, (json.dumps(self.state.to_json()),))


def _holder_from_json(text: str) -> _Holder:
    return _Holder(State.from_json(text))


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class SeptetSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a Septet :class:`State` (see the module docstring)."""

    def __init__(self, game: SeptetSpielGame, state: State | None = None) -> None:
        super().__init__(game)
        self._h = _Holder(state if state is not None else game.septet_game.new_state(game.n))

    @property
    def septet_state(self) -> State:
        """The wrapped Septet state (hidden information included)."""
        return self._h.state

    # ----- whose turn ---------------------------------------------------------------------
    def current_player(self) -> int:
        p = self._h.state.current_player
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(p)

    def is_terminal(self) -> bool:
        return bool(self._h.state.is_terminal)

    # ----- moves --------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        state = self._h.state
        if player != state.current_player:
            return []
        if self._h.legal is None:
            self._h.legal = list(legal_ids(state))
        return list(self._h.legal)

    def _outcomes(self) -> list[tuple[Action, float]]:
        if self._h.outcomes is None:
            self._h.outcomes = self._h.state.chance_outcomes()
        return self._h.outcomes

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(i, p)`` for the ``i``-th outcome of the engine's ``chance_outcomes()``."""
        return [(i, p) for i, (_, p) in enumerate(self._outcomes())]

    def _apply_action(self, action: int) -> None:
        state = self._h.state
        if state.current_player == CHANCE:
            outcomes = self._outcomes()
            if not 0 <= action < len(outcomes):
                raise SeptetError(f"chance action {action} out of range 0..{len(outcomes) - 1}")
            chosen = outcomes[action][0]
        else:
            chosen = state.game.id_to_action(action, state.num_players)
        self._h.apply(chosen)
        self._h.outcomes = None
        self._h.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._h.state
        if player == int(pyspiel.PlayerId.CHANCE):
            if state.current_player == CHANCE:
                outcomes = self._outcomes()
                if 0 <= action < len(outcomes):
                    return str(outcomes[action][0])
            return f"chance outcome #{action}"
        return str(state.game.id_to_action(action, state.num_players))

    # ----- results ------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return [float(r) for r in self._h.state.returns()]

    def __str__(self) -> str:
        state = self._h.state
        return _canonical({"to_move": state.current_player, "state": state.state_dict()})

    # ----- information sets ---------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SeptetSpielState:
        """A state of ``player_id``'s information set drawn by the engine's ``determinize``;
        ``probability_sampler()`` (a float in [0, 1)) seeds the draw."""
        seed = int(float(probability_sampler()) * 2**53)
        det = self._h.state.determinize(player_id, random.Random(seed))
        out = SeptetSpielState(self.get_game(), det)
        # Same information state for player_id: its history tokens are the real game's (kept,
        # or built from the real history when first asked for).
        h = self._h
        if h.infostate is not None:
            out._h.infostate = h.infostate.clone()
        elif h.past is None:
            out._h.past = list(h.state.history)
        else:  # a sample drawn from a sample: the real past and the steps since
            out._h.past = h.past
            out._h.later = h.later.clone() if h.later is not None else None
        return out


class _Observer:
    """OpenSpiel's PyObserver protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, game: SeptetSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = iig_obs_type.private_info if iig_obs_type is not None else None
        self.kind = "seat"
        if private == pyspiel.PrivateInfoType.NONE:
            self.kind = "public"
        elif private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            self.kind = "full"
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        self.history_tensor = False
        if self.kind == "seat":
            check_observation_support(game.septet_game, game.n)
            spec = infostate_spec(game.septet_game, game.n) if self.perfect_recall else None
            # Without pieces or an encoding (a plug-in), the observation tensor stands in.
            self.history_tensor = spec is not None
            if spec is None:
                spec = observation_spec(game.septet_game, game.n)
            self.tensor: Any = np.zeros(spec.size, np.float32)
            self.dict: dict[str, Any] = spec.as_dict(self.tensor)
        else:
            self.tensor = None
            self.dict = {}

    def set_from(self, state: SeptetSpielState, player: int) -> None:
        if self.tensor is None:
            return
        s = state.septet_state
        if self.history_tensor:
            self.tensor[:] = state._h.encoder().tensor(s, player)
        else:
            self.tensor[:] = s.observation_tensor(player)

    def string_from(self, state: SeptetSpielState, player: int) -> str:
        s = state.septet_state
        if self.kind == "full":
            return _canonical(s.state_dict())
        seat = None if self.kind == "public" else player
        view = s.view(seat)
        if self.perfect_recall:
            return _canonical(view)
        return s.game.render(view, "en")


class SeptetSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game for one Septet game, its options and a player count."""

    septet_class: type[Game[Any]]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = self.septet_class
        n = int(params.pop("players", cls.min_players))
        try:
            game = cls(**params)
            check_observation_support(game, n)
        except OptionError as exc:
            raise ValueError(str(exc)) from None
        self.septet_game = game
        self.n = n
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions(n),
            max_chance_outcomes=max_chance_outcomes(game, n),
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=game.max_game_length(n),
        )
        super().__init__(_game_type(cls), info, {"players": n, **params})

    def new_initial_state(self) -> SeptetSpielState:
        return SeptetSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        return int(self.septet_game.max_game_length(self.n))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self, iig_obs_type, params)


class RolloutEvaluator(_mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's ``RandomRolloutEvaluator`` at engine speed, for MCTS and ISMCTS bots.

    ``evaluate(state)`` averages the returns of ``n_rollouts`` playouts of uniformly random legal
    actions and exact chance from ``state``, run on a clone of the Septet state
    (:func:`septet.core.random_playout`) instead of through ``pyspiel``; ``prior(state)`` is
    uniform over the legal actions (the chance probabilities at a chance node).

    Args:
        n_rollouts: playouts per evaluation.
        seed: seeds the playouts (``None``: from the system).
    """

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: SeptetSpielState) -> Any:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            total += random_playout(state.septet_state.clone(), self._rng).returns()
        return total / self.n_rollouts

    def prior(self, state: SeptetSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _game_type(cls: type[Game[Any]]) -> Any:
    spec: dict[str, Any] = {"players": cls.min_players}
    for field in dataclasses.fields(cls.options_type):
        if isinstance(field.default, _PARAM_TYPES):
            spec[field.name] = field.default
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"Septet {cls.titles.get('en', cls.name)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def register(game_name: str) -> str:
    """Register the Septet game ``game_name`` with OpenSpiel (once) and return its short name.

    Raises:
        UnknownGameError: no such Septet game.
    """
    cls = games.game_class(game_name)
    name = short_name(cls.name)
    if name not in pyspiel.registered_names():
        spiel_cls = type(f"SeptetSpielGame_{name}", (SeptetSpielGame,), {"septet_class": cls})
        pyspiel.register_game(_game_type(cls), spiel_cls)
    return name


def load(game_name: str, num_players: int | None = None, **options: Any) -> Any:
    """``pyspiel.load_game`` for a Septet game, registering it first.

    Raises:
        UnknownGameError: no such Septet game.
        ValueError: bad options or player count (OpenSpiel's error).
    """
    name = register(game_name)
    params: dict[str, Any] = dict(options)
    if num_players is not None:
        params["players"] = num_players
    return pyspiel.load_game(name, params)


def register_all() -> list[str]:
    """Register every Septet game whose engine is installed; returns their short names."""
    out = []
    for game_name in games.names():
        try:
            out.append(register(game_name))
        except (ImportError, AttributeError, SeptetError):
            continue  # an engine that is not there (yet) or a broken plug-in
    return out


register_all()

__all__ = [
    "RolloutEvaluator",
    "SeptetSpielGame",
    "SeptetSpielState",
    "load",
    "max_chance_outcomes",
    "register",
    "register_all",
    "short_name",
]
