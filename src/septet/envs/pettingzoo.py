"""PettingZoo AEC environments for the Septet games (needs the ``rl`` extra).

>>> from septet.envs.pettingzoo import env
>>> e = env("flip7", num_players=3, edition="classic")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()

One environment per game and player count:

- Agents are ``"player_0"`` … ``"player_{n-1}"`` (seat order). ``agent_selection`` is always the
  seat to move; chance nodes (draws, deals) never reach an agent: the environment resolves them
  with its own RNG, seeded by ``reset(seed=...)`` (the same seed and actions give the same game).
- Observation of an agent: ``{"observation": float32[game.observation_size(n)],
  "action_mask": int8[game.num_distinct_actions(n)]}``. ``observation`` is the engine's
  ``State.observation_tensor(seat)`` (laid out by ``Game.observation_spec(n)``: named pieces
  with true bounds, which are the ``Box`` bounds; ``normalize=True`` maps it to [0, 1]); built
  from what that seat may see and nothing more. ``action_mask`` marks the legal actions in the
  game's fixed action encoding (``Game.action_encoding(n)``, whose version is in
  ``metadata["action_encoding"]``) and is all zeros unless it is that agent's turn.
- ``state()``: a global state for centralised critics: every seat's observation, seat 0 first
  (``state_space`` is their bounds); it holds every seat's private information, so give it to a
  critic, never to a policy.
- Actions: ``actions="flat"`` (default) is ``Discrete(game.num_distinct_actions(n))``, the
  game's ids. ``actions="compact"`` (as the Gymnasium environment's) makes each decision a short
  sequence of small choices (the kind, then each argument:
  :class:`septet.core.encoding.ChoiceSequence`), as ``Discrete(encoding.compact_size)``: the
  agent to move stays ``agent_selection`` until its action is complete; the observation then
  ends with the choice so far (``encoding.choice_tensor``, for every agent: empty for those
  not to move) and the mask covers the choices allowed now. ``metadata`` gives
  ``flat_actions``, ``compact_actions`` and ``compact_steps``. An id or choice that is not legal
  raises :class:`~septet.core.errors.IllegalActionError` and leaves the game unchanged.
- Reward: 0 until the end, then each seat's return (``State.returns()``: 1.0 per winner, 0.0
  otherwise). Every agent is terminated at the end; none is ever truncated.
- ``render_mode="ansi"``: ``render()`` returns the game's text renderer output for the spectator
  view (or the view of ``render_seat``), in ``lang``; ``"human"`` prints it.
- Scripted opponents: ``env.unwrapped.game_state`` is the full :class:`State`; give a bot the
  seat's view (``septet.core.play.choose_action``) and play its choice with
  ``env.step(env.unwrapped.action_id(action))`` (compact: step each of
  ``env.unwrapped.choices_of(env.unwrapped.action_id(action))`` in turn).
"""

from __future__ import annotations

import random
from typing import Any

from septet.core.encoding import ActionEncoding, ChoiceSequence
from septet.core.errors import IllegalActionError, OptionError
from septet.core.game import Action, Game, State
from septet.core.rng import derive_rng
from septet.core.types import CHANCE
from septet.envs import missing_extra
from septet.envs._common import (
    action_encoding,
    check_observation_support,
    legal_ids,
    observation_spec,
    resolve_game,
)

try:
    import numpy as np
    from gymnasium import logger as _gym_logger
    from gymnasium import spaces as _spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers as _wrappers
except ModuleNotFoundError as exc:
    raise missing_extra("septet.envs.pettingzoo", exc) from exc


def env(
    game: str | Game[Any],
    num_players: int | None = None,
    *,
    render_mode: str | None = None,
    render_seat: int | None = None,
    lang: str = "en",
    normalize: bool = False,
    actions: str = "flat",
    **options: Any,
) -> Any:
    """A PettingZoo AEC environment for ``game`` with ``num_players`` seats, wrapped in
    PettingZoo's order-enforcing and bounds-checking wrappers.

    Args:
        game: a registered game name (``"flip7"``) or a :class:`Game` (then no ``options``).
        num_players: seats (default: the game's minimum).
        render_mode: ``None``, ``"human"`` (prints) or ``"ansi"`` (returns the text).
        render_seat: render this seat's view instead of the spectator's.
        lang: ``"en"`` or ``"ja"`` for ``render()``.
        normalize: map observations to [0, 1] by their declared bounds.
        actions: ``"flat"`` ids or ``"compact"`` sequences of small choices.
        options: the game's options (``edition="classic"``).

    Raises:
        UnknownGameError, OptionError: unknown game, bad options or player count, an engine
            without an observation tensor, an unsupported render mode, or compact actions for
            an engine that declares no action encoding.
    """
    e = raw_env(
        game,
        num_players,
        render_mode=render_mode,
        render_seat=render_seat,
        lang=lang,
        normalize=normalize,
        actions=actions,
        **options,
    )
    e = _wrappers.AssertOutOfBoundsWrapper(e)
    return _wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped env
    """The unwrapped AEC environment (see the module docstring and :func:`env`)."""

    def __init__(
        self,
        game: str | Game[Any],
        num_players: int | None = None,
        *,
        render_mode: str | None = None,
        render_seat: int | None = None,
        lang: str = "en",
        normalize: bool = False,
        actions: str = "flat",
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game[Any] = resolve_game(game, options)
        n = self.game.min_players if num_players is None else num_players
        obs_size = check_observation_support(self.game, n)
        if render_mode not in (None, "human", "ansi"):
            raise OptionError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if render_seat is not None and not 0 <= render_seat < n:
            raise OptionError(f"render_seat must be a seat 0..{n - 1}, not {render_seat!r}")
        if actions not in ("flat", "compact"):
            raise OptionError(f"actions must be one of flat, compact, not {actions!r}")
        encoding = action_encoding(self.game, n)
        if encoding is None and actions == "compact":
            raise OptionError(
                f"{self.game.name} declares no action encoding: only flat actions are available"
            )
        self.num_players = n
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.lang = lang
        self.normalize = bool(normalize)
        self.obs_spec = observation_spec(self.game, n)
        self.encoding: ActionEncoding | None = encoding
        self.action_form = actions
        self._num_ids = self.game.num_distinct_actions(n)
        compact = encoding.compact_size if encoding is not None else None
        self._num_actions = compact if actions == "compact" and compact else self._num_ids
        self.metadata = {
            "render_modes": ["human", "ansi"],
            "name": f"septet_{self.game.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
            "action_encoding": {
                "game": self.game.name,
                "version": None if encoding is None else encoding.version,
            },
            "flat_actions": self._num_ids,
            "compact_actions": compact,
            "compact_steps": None if encoding is None else 1 + encoding.max_args,
        }
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._build_spaces(obs_size)
        self._rng: random.Random | None = None
        self._state: State | None = None
        self._legal: dict[int, Action] = {}
        self._choice: ChoiceSequence | None = None
        self.agents: list[str] = []

    def _build_spaces(self, obs_size: int) -> None:
        """The action and observation spaces of every agent and ``state_space``."""
        n, num_actions = self.num_players, self._num_actions
        if self.normalize:
            low, high = np.zeros(obs_size, np.float32), np.ones(obs_size, np.float32)
        else:
            low = np.asarray(self.obs_spec.low, np.float32)
            high = np.asarray(self.obs_spec.high, np.float32)
        extra = self._choice_size()
        obs_low = np.concatenate([low, np.zeros(extra, np.float32)])
        obs_high = np.concatenate([high, np.ones(extra, np.float32)])
        self._action_spaces = {a: _spaces.Discrete(num_actions) for a in self.possible_agents}
        self._observation_spaces = {
            a: _spaces.Dict(
                {
                    "observation": _spaces.Box(low=obs_low, high=obs_high, dtype=np.float32),
                    "action_mask": _spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.state_space = _spaces.Box(np.tile(low, n), np.tile(high, n), dtype=np.float32)

    def _choice_size(self) -> int:
        if self.action_form != "compact" or self.encoding is None:
            return 0
        return self.encoding.choice_tensor_size

    # ----- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        """``Dict(observation=Box(obs_size,), action_mask=Box(num_actions,))`` (same for all)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(game.num_distinct_actions(n))``, or ``Discrete(encoding.compact_size)``
        with compact actions."""
        return self._action_spaces[agent]

    # ----- the game ----------------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        """The full game state (hidden information included). For scripted opponents and
        debugging: pass ``state.view(seat)`` to an agent, never the state to a learner.

        Raises:
            RuntimeError: before the first ``reset()``.
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def seat(self, agent: str) -> int:
        """The seat index of ``agent`` (``"player_2"`` -> 2)."""
        return self._seat[agent]

    def action_id(self, action: Action) -> int:
        """The integer id of a player action of the game (for agents that choose
        :class:`Action` values, such as Septet's bots)."""
        return self.game.action_to_id(action, self.num_players)

    def legal_actions(self) -> dict[int, Action]:
        """The legal actions of the agent to move, by id (empty once the game is over)."""
        return dict(self._legal)

    def choices_of(self, action_id: int) -> list[int]:
        """The compact choices that complete the legal action ``action_id`` from the choices
        made so far (forced choices are made by the environment and left out): step them in
        turn. With flat actions, ``[action_id]``.

        Raises:
            IllegalActionError: ``action_id`` is not legal now, or not reachable from the
                choices made so far.
        """
        if action_id not in self._legal:
            raise IllegalActionError(f"action {action_id!r} is not legal now")
        if self._choice is None or self.encoding is None:
            return [action_id]
        path = self.encoding.compact_path(action_id)
        seq = ChoiceSequence(self.encoding, self._legal)
        if tuple(self._choice.prefix) != path[: len(self._choice.prefix)]:
            raise IllegalActionError(
                f"action {action_id} does not follow the choices made so far {self._choice.prefix}"
            )
        seq.prefix = list(self._choice.prefix)
        out: list[int] = []
        while seq.done() is None:
            out.append(path[len(seq.prefix)])
            seq.choose(out[-1])
        return out

    # ----- AEC API -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` seeds the chance RNG; without one, the RNG continues (or is
        seeded from the system on the first reset). ``options`` is accepted and ignored."""
        if seed is not None:
            self._rng = derive_rng(seed, "pettingzoo", "chance")
        elif self._rng is None:
            self._rng = random.Random()
        self._state = self.game.new_state(self.num_players)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()
        self._accumulate_rewards()

    def _advance(self) -> None:
        """Resolve chance nodes, then point ``agent_selection`` at the seat to move (or end)."""
        state, rng = self.game_state, self._rng
        assert rng is not None
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        if state.is_terminal:
            self._legal = {}
            for agent, ret in zip(self.possible_agents, state.returns(), strict=True):
                self.rewards[agent] = float(ret)
                self.terminations[agent] = True
            # Dead agents then step with None in seat order (PettingZoo's protocol).
            self.agent_selection = self.agents[0]
        else:
            self._legal = legal_ids(state)
            self.agent_selection = self.possible_agents[state.current_player]
        self._choice = (
            ChoiceSequence(self.encoding, self._legal)
            if self._legal and self.encoding is not None and self.action_form == "compact"
            else None
        )

    def _tensor(self, seat: int) -> Any:
        values = self.game_state.observation_tensor(seat)
        if self.normalize:
            values = self.obs_spec.normalize(values)
        return np.asarray(values, dtype=np.float32)

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation": float32[obs_size], "action_mask": int8[num_actions]}`` (compact:
        the observation ends with the choice so far, the mask covers the choices allowed)."""
        seat = self._seat[agent]
        obs = self._tensor(seat)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        mine = bool(self._legal) and agent == self.agent_selection
        if self.encoding is not None and self.action_form == "compact":
            prefix = self._choice.prefix if mine and self._choice is not None else []
            tail = np.asarray(self.encoding.choice_tensor(prefix), np.float32)
            obs = np.concatenate([obs, tail])
            if mine and self._choice is not None:
                mask[self._choice.options()] = 1
        elif mine:
            mask[list(self._legal)] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play action id ``action`` (compact: one choice) for ``agent_selection`` (``None`` for
        a finished agent). A compact choice that does not complete the action changes nothing
        in the game: the same agent chooses again.

        Raises:
            IllegalActionError: ``action`` is not legal now (the game is unchanged).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._choice is not None:
            action = self._choose(agent, action)
            if action is None:
                self._cumulative_rewards[agent] = 0.0
                self._clear_rewards()
                self._accumulate_rewards()
                return
        try:
            chosen = self._legal[int(action)]
        except (KeyError, TypeError, ValueError):
            shown = [f"{i} ({a})" for i, a in list(self._legal.items())[:20]]
            if len(self._legal) > 20:
                shown.append(f"and {len(self._legal) - 20} more")
            raise IllegalActionError(
                f"action {action!r} is not legal for {agent} now; legal ids: " + ", ".join(shown)
            ) from None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game_state.apply(chosen)
        self._advance()
        self._accumulate_rewards()

    def _choose(self, agent: str, choice: Any) -> int | None:
        """One compact choice: the action id once complete, else ``None``."""
        assert self._choice is not None
        allowed = self._choice.options()
        try:
            c = int(choice)
        except (TypeError, ValueError):
            c = -1
        if c not in allowed:
            raise IllegalActionError(
                f"choice {choice!r} is not allowed for {agent} now; allowed: {allowed}"
            )
        return self._choice.choose(c)

    def state(self) -> Any:
        """The global state for a centralised critic: every seat's observation tensor, seat 0
        first (``float32[n * observation_size]``, bounds ``state_space``). It holds every
        seat's private information: never give it to a policy."""
        return np.concatenate([self._tensor(s) for s in range(self.num_players)])

    def render(self) -> str | None:
        """The table as text: returned (``"ansi"``) or printed (``"human"``, returns ``None``);
        ``None`` without a render mode."""
        if self.render_mode is None:
            _gym_logger.warn("render() called without a render_mode; use 'human' or 'ansi'")
            return None
        state = self.game_state
        text = self.game.render(state.view(self.render_seat), self.lang)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


__all__ = ["env", "raw_env"]
