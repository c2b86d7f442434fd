"""Single-agent Gymnasium environments: one learner against fixed opponents (needs the ``rl``
extra).

>>> import gymnasium
>>> import septet.envs.gymnasium  # registers septet/DoubleSeven-v0, septet/Flip7-v0, ...
>>> env = gymnasium.make("septet/Flip7-v0", num_players=3, opponents="greedy", edition="classic")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The model is RLCard's ``set_agents`` and OpenSpiel's ``rl_environment``: the learner sits at
``seat``; every other seat is played by an agent built from a spec (``"greedy"``,
``"ismcts:iterations=200"``, ``"ppo"``, see :func:`septet.bots.make_agent`) from its own view;
chance (deals, draws) is resolved with the environment's RNG. ``step`` plays the learner's
action, then everything up to its next decision (or the end). See ``docs/rl.md``.

- Observation: ``{"observation": float32[size], "action_mask": int8[actions]}``. ``observation``
  is the engine's observation tensor of the learner's seat (``observation="observation"``,
  layout ``Game.observation_spec(n)``) or its perfect-recall information state
  (``observation="infostate"``, :mod:`septet.core.infostate`), with the true bounds of the
  declared pieces; ``normalize=True`` maps every value to [0, 1] by those bounds. The mask is
  also in ``info["action_mask"]``, and :meth:`SeptetEnv.action_masks` gives it as booleans
  (sb3-contrib's ``MaskablePPO`` reads that method, no wrapper needed).
- The end of an episode: no action is legal, but a mask with no allowed action turns a masked
  softmax into NaN when a vectorised environment asks for one more action before it resets
  (Gymnasium's default ``autoreset_mode``, ``NEXT_STEP``, ignores that action). So the terminal
  observation's mask allows exactly one placeholder, action ``0``, and ``info["episode_over"]``
  is ``True``; ``terminal_mask="empty"`` gives the all-zero mask instead. ``step`` after the end
  still raises: call ``reset()``.
- Actions: ``actions="flat"`` (default) is ``Discrete(Game.num_distinct_actions(n))``, the
  game's fixed ids; ``actions="compact"`` makes each decision a short sequence of small choices
  (the kind, then each argument: :class:`septet.core.encoding.ChoiceSequence`), as
  ``Discrete(encoding.compact_size)``; a step that does not complete an action changes nothing
  in the game and gives reward 0; ``info["action_id"]`` is the flat id once chosen.
- Reward (``reward=``): ``"win"`` (default) 1.0 at the end for a win (shared or team wins
  included), 0.0 otherwise; ``"margin"``: at the end, the learner's score minus the best score of
  the other sides (game points); ``"round"``: the points each round adds to the learner's score,
  paid when the round is scored (Flip 7 rounds, Seven Shot deals; Double Seven is one round: its
  final score).
- An action that is not legal changes nothing in the game: by default the step returns the same
  decision with reward ``illegal_reward`` (-1.0) and ``info["illegal_action"] = True`` (so that
  unmasked samplers and ``check_env`` work); ``illegal="raise"`` raises
  :class:`~septet.core.errors.IllegalActionError` instead.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from typing import Any

from septet.core.encoding import ChoiceSequence
from septet.core.errors import IllegalActionError, OptionError
from septet.core.game import Action, Game, State
from septet.core.infostate import InfostateEncoder, information_state_spec
from septet.core.play import Agent, choose_action
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
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as exc:
    raise missing_extra("septet.envs.gymnasium", exc) from exc

REWARDS = ("win", "margin", "round")
ACTION_FORMS = ("flat", "compact")
OBSERVATIONS = ("observation", "infostate")
TERMINAL_MASKS = ("placeholder", "empty")

#: Gymnasium ids registered by this module, with the Septet game each plays.
ENV_IDS = {
    "septet/DoubleSeven-v0": "double-seven",
    "septet/Flip7-v0": "flip7",
    "septet/SevenShot-v0": "seven-shot",
}


class SeptetEnv(gym.Env):
    """One learner against fixed opponents in a Septet game (see the module docstring).

    Args:
        game: a registered game name (``"flip7"``) or a :class:`Game` (then no ``options``).
        num_players: seats (default: the game's minimum).
        opponents: one agent spec for every other seat (``"greedy"``), or one per other seat in
            seat order (specs or :class:`~septet.core.play.Agent` objects).
        seat: the learner's seat; ``None`` (default) draws it anew at each ``reset``.
        reward: ``"win"``, ``"margin"`` or ``"round"``.
        normalize: map the observation to [0, 1] by its declared bounds.
        actions: ``"flat"`` ids or ``"compact"`` sequences of small choices.
        observation: ``"observation"`` or ``"infostate"`` (perfect recall).
        illegal: ``"penalize"`` (an illegal action changes nothing and costs ``illegal_reward``)
            or ``"raise"``.
        illegal_reward: the reward of an illegal action under ``"penalize"``.
        render_mode: ``None``, ``"human"`` (prints the learner's view) or ``"ansi"`` (returns it).
        lang: ``"en"`` or ``"ja"`` for rendering.
        terminal_mask: ``"placeholder"`` (default: at the end, only action 0 is allowed) or
            ``"empty"`` (an all-zero mask at the end); see the module docstring.
        options: the game's options (``edition="classic"``).

    Raises:
        UnknownGameError, OptionError: unknown game, bad options, player count, seat, opponents
            or environment option.
        AgentSpecError: an opponent spec that names no bot.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str | Game[Any] = "flip7",
        num_players: int | None = None,
        *,
        opponents: str | Sequence[str | Agent] = "greedy",
        seat: int | None = None,
        reward: str = "win",
        normalize: bool = False,
        actions: str = "flat",
        observation: str = "observation",
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        lang: str = "en",
        terminal_mask: str = "placeholder",
        **options: Any,
    ) -> None:
        self.game: Game[Any] = resolve_game(game, options)
        n = self.game.min_players if num_players is None else int(num_players)
        check_observation_support(self.game, n)
        self._check_options(n, seat, reward, actions, observation, illegal, render_mode)
        self._check_terminal_mask(terminal_mask)
        self.terminal_mask = terminal_mask
        self.opponents: list[Agent] = self._make_opponents(n, opponents)
        self.num_players = n
        self.fixed_seat = seat
        self.reward_kind = reward
        self.normalize = bool(normalize)
        self.action_form = actions
        self.observation_kind = observation
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.lang = lang
        self._set_encoding(n)
        self._build_spaces()
        self._state: State | None = None
        self._chance: random.Random | None = None
        self._seat_rngs: list[random.Random] = []
        self._infostate: InfostateEncoder | None = None
        self._legal: dict[int, Action] = {}
        self._choice: ChoiceSequence | None = None
        self.seat = 0 if seat is None else seat
        self._paid = 0.0
        self._round = 0

    @staticmethod
    def _check_terminal_mask(terminal_mask: str) -> None:
        """Raise :class:`OptionError` for a ``terminal_mask`` out of :data:`TERMINAL_MASKS`."""
        if terminal_mask not in TERMINAL_MASKS:
            raise OptionError(
                f"terminal_mask must be one of {', '.join(TERMINAL_MASKS)}, not {terminal_mask!r}"
            )

    def _set_encoding(self, n: int) -> None:
        """The action encoding, observation spec and sizes for ``n`` players; raises
        :class:`OptionError` where the game declares no encoding or bounds the options need."""
        encoding = action_encoding(self.game, n)
        if encoding is None and (
            self.action_form == "compact" or self.observation_kind == "infostate"
        ):
            raise OptionError(
                f"{self.game.name} declares no action encoding: only flat actions and the "
                "observation tensor are available"
            )
        self.encoding = encoding
        self.obs_spec = (
            information_state_spec(self.game, n)
            if self.observation_kind == "infostate"
            else observation_spec(self.game, n)
        )
        if self.normalize and not all(map(math.isfinite, self.obs_spec.low + self.obs_spec.high)):
            raise OptionError(f"{self.game.name} declares no observation bounds to normalise by")
        self._num_ids = self.game.num_distinct_actions(n)
        self._choice_size = encoding.choice_tensor_size if encoding is not None else 0

    def _check_options(
        self,
        n: int,
        seat: int | None,
        reward: str,
        actions: str,
        observation: str,
        illegal: str,
        render_mode: str | None,
    ) -> None:
        """Raise :class:`OptionError` for an environment option out of its choices."""
        for value, allowed, what in (
            (reward, REWARDS, "reward"),
            (actions, ACTION_FORMS, "actions"),
            (observation, OBSERVATIONS, "observation"),
            (illegal, ("penalize", "raise"), "illegal"),
        ):
            if value not in allowed:
                raise OptionError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat must be 0..{n - 1} or None, not {seat!r}")

    def _make_opponents(self, n: int, opponents: str | Sequence[str | Agent]) -> list[Agent]:
        """One agent per other seat, in seat order, from specs or agents."""
        from septet.bots import make_agent

        specs: list[str | Agent]
        if isinstance(opponents, str):
            specs = [opponents] * (n - 1)
        else:
            specs = list(opponents)
            if len(specs) != n - 1:
                raise OptionError(
                    f"{n - 1} opponents expected (one per other seat), not {len(specs)}"
                )
        return [make_agent(s, self.game) if isinstance(s, str) else s for s in specs]

    def _build_spaces(self) -> None:
        """The observation and action spaces, the normalisation and the metadata."""
        n, encoding, compact = self.num_players, self.encoding, self.action_form == "compact"
        width = encoding.compact_size if encoding is not None else 0
        size = self.obs_spec.size + (self._choice_size if compact else 0)
        low = np.zeros(size, np.float32)
        high = np.ones(size, np.float32)
        if not self.normalize:
            low[: self.obs_spec.size] = self.obs_spec.low
            high[: self.obs_spec.size] = self.obs_spec.high
        num_actions = width if compact else self._num_ids
        # (x - low) / (high - low), as ObservationSpec.normalize, vectorised.
        spec_low = np.asarray(self.obs_spec.low, np.float64)
        spread = np.asarray(self.obs_spec.high, np.float64) - spec_low
        self._norm = (spec_low, np.divide(1.0, spread, out=np.zeros_like(spread), where=spread > 0))
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(num_actions)
        self.metadata = {
            **type(self).metadata,
            "game": self.game.name,
            "options": self.game.options_dict(),
            "num_players": n,
            "action_encoding": {
                "game": self.game.name,
                "version": None if encoding is None else encoding.version,
            },
            "flat_actions": self._num_ids,
            "compact_actions": width or None,
            "compact_steps": None if encoding is None else 1 + encoding.max_args,
        }

    # ----- the game ----------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        """The full state (hidden information included): for debugging and analysis, never
        for the learner.

        Raises:
            RuntimeError: before the first ``reset()``.
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def action_masks(self) -> Any:
        """The current decision's mask as ``bool[action_space.n]`` (flat ids, or the compact
        form's choices): what sb3-contrib's ``MaskablePPO`` calls. At the end of an episode it
        holds the placeholder of ``terminal_mask`` (see the module docstring).

        Raises:
            RuntimeError: before the first ``reset()``.
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._mask().astype(bool)

    def legal_actions(self) -> dict[int, Action]:
        """The learner's legal actions now, by flat id (empty once the game is over)."""
        return dict(self._legal)

    # ----- Gymnasium API -----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game, played up to the learner's first decision.

        ``seed`` seeds the chance stream, the opponents' streams and the seat draw (the same
        seed gives the same game for the same actions); without one the streams continue.
        ``options={"seat": s}`` seats the learner at ``s`` for this game.

        Raises:
            OptionError: a bad seat in ``options``.
        """
        super().reset(seed=seed)
        if seed is not None or self._chance is None:
            base = int(self.np_random.integers(2**62)) if seed is None else seed
            self._chance = derive_rng(base, "gymnasium", "chance")
            self._seat_rngs = [
                derive_rng(base, "gymnasium", "seat", i) for i in range(self.num_players)
            ]
        seat = (options or {}).get("seat", self.fixed_seat)
        if seat is None:
            seat = int(self.np_random.integers(self.num_players))
        if not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise OptionError(f"seat must be 0..{self.num_players - 1}, not {seat!r}")
        self.seat = seat
        for _ in range(100):  # a game the learner never gets to play in is dealt again
            self._state = self.game.new_state(self.num_players)
            self._infostate = (
                InfostateEncoder(self.game, self.num_players)
                if self.observation_kind == "infostate"
                else None
            )
            self._paid = 0.0
            self._round = self._state.round_index()
            self._advance()
            if not self._state.is_terminal:
                break
        else:  # pragma: no cover - no Septet game ends without the learner's decision
            raise RuntimeError("the learner never had a decision in 100 games")
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the learner's action (a flat id, or one choice in the compact form), then the
        opponents and chance up to its next decision.

        Raises:
            IllegalActionError: not legal now, with ``illegal="raise"`` (nothing changes).
            RuntimeError: before ``reset()`` or after the end.
        """
        state = self.game_state
        if state.is_terminal:
            raise RuntimeError("the game is over: call reset()")
        a = int(action)
        info: dict[str, Any] = {}
        if self._choice is not None:
            if a not in self._choice.options():
                return self._illegal(
                    f"choice {action!r} is not allowed now; allowed: {self._choice.options()}"
                )
            done = self._choice.choose(a)
            if done is None:
                return self._observe(), 0.0, False, False, self._info()
            a = done
            info["action_id"] = a
        chosen = self._legal.get(a)
        if chosen is None:
            shown = ", ".join(f"{i} ({x})" for i, x in list(self._legal.items())[:20])
            return self._illegal(f"action {action!r} is not legal now; legal ids: {shown}")
        self._apply(chosen)
        self._advance()
        reward = self._reward()
        return self._observe(), reward, state.is_terminal, False, {**self._info(), **info}

    def render(self) -> str | None:
        """The learner's view as text: printed (``"human"``) or returned (``"ansi"``)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; use 'human' or 'ansi'")
            return None
        text = self.game.render(self.game_state.view(self.seat), self.lang)
        if self.render_mode == "ansi":
            return text
        sys.stdout.write(text + "\n")
        return None

    # ----- internals ---------------------------------------------------------------------
    def _illegal(self, message: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.illegal == "raise":
            raise IllegalActionError(message)
        info = {**self._info(), "illegal_action": True, "message": message}
        return self._observe(), self.illegal_reward, False, False, info

    def _apply(self, action: Action) -> None:
        state = self.game_state
        if self._infostate is not None:
            self._infostate.record(state, action)
        state.apply(action)

    def _advance(self) -> None:
        """Chance and opponents until the learner is to move or the game ends."""
        state = self.game_state
        assert self._chance is not None
        while not state.is_terminal:
            p = state.current_player
            if p == CHANCE:
                self._apply(state.sample_chance(self._chance))
            elif p == self.seat:
                break
            else:
                agent = self.opponents[p if p < self.seat else p - 1]
                self._apply(choose_action(agent, state, self._seat_rngs[p]))
        if state.is_terminal:
            self._legal, self._choice = {}, None
        else:
            self._legal = legal_ids(state)
            self._choice = (
                ChoiceSequence(self.encoding, self._legal)
                if self.encoding is not None and self.action_form == "compact"
                else None
            )

    def _margin(self, state: State) -> float:
        scores = state.scores()
        mine = next(t for t in self.game.teams(self.num_players) if self.seat in t)
        others = [scores[s] for s in range(self.num_players) if s not in mine]
        return float(scores[self.seat] - max(others))

    def _reward(self) -> float:
        state = self.game_state
        kind = self.reward_kind
        if kind == "win":
            return float(state.returns()[self.seat]) if state.is_terminal else 0.0
        if kind == "margin":
            return self._margin(state) if state.is_terminal else 0.0
        r = state.round_index()
        if state.is_terminal or r != self._round:
            self._round = r
            score = float(state.scores()[self.seat])
            paid, self._paid = self._paid, score
            return score - paid
        return 0.0

    def _mask(self) -> Any:
        compact = self.encoding is not None and self.action_form == "compact"
        mask = np.zeros(
            self.encoding.compact_size if compact and self.encoding else self._num_ids, np.int8
        )
        if self._state is not None and self._state.is_terminal:
            if self.terminal_mask == "placeholder":
                mask[0] = 1  # the autoreset step's action is ignored; keeps softmaxes finite
            return mask
        if compact:
            if self._choice is not None:
                mask[self._choice.options()] = 1
        elif self._legal:
            mask[list(self._legal)] = 1
        return mask

    def _observe(self) -> dict[str, Any]:
        state = self.game_state
        if self._infostate is not None:
            values = self._infostate.tensor(state, self.seat)
        else:
            values = state.observation_tensor(self.seat)
        if self.normalize:
            low, scale = self._norm
            obs = ((np.asarray(values, np.float64) - low) * scale).astype(np.float32)
        else:
            obs = np.asarray(values, dtype=np.float32)
        if self.action_form == "compact":
            obs = np.concatenate([obs, self._choice_tensor()])
        return {"observation": obs, "action_mask": self._mask()}

    def _choice_tensor(self) -> Any:
        """The compact form's progress (:meth:`ActionEncoding.choice_tensor`)."""
        assert self.encoding is not None
        prefix = self._choice.prefix if self._choice is not None else []
        return np.asarray(self.encoding.choice_tensor(prefix), np.float32)

    def _info(self) -> dict[str, Any]:
        over = self._state is not None and self._state.is_terminal
        return {"action_mask": self._mask(), "seat": self.seat, "episode_over": over}


def register() -> list[str]:
    """Register ``septet/DoubleSeven-v0``, ``septet/Flip7-v0`` and ``septet/SevenShot-v0`` with
    Gymnasium (once); returns the ids."""
    for env_id, game in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="septet.envs.gymnasium:SeptetEnv",
                kwargs={"game": game},
                disable_env_checker=False,
            )
    return list(ENV_IDS)


register()

__all__ = [
    "ACTION_FORMS",
    "ENV_IDS",
    "OBSERVATIONS",
    "REWARDS",
    "TERMINAL_MASKS",
    "SeptetEnv",
    "register",
]
