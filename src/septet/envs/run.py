"""Whole episodes with every seat's trajectory, in the manner of RLCard's ``env.run()`` (the
``rl`` extra: NumPy).

>>> from septet.envs.run import run
>>> episode = run("flip7", ["greedy", "random"], seed=1, edition="classic")
>>> len(episode.trajectories), sum(1 for s in episode.trajectories[0] if s.action is not None) > 0
(2, True)
>>> episode.record.result["scores"] == episode.scores
True

Each seat's trajectory lists its decisions in order, then one closing step with the final
observation (``action=None``, ``done=True``): the learner's view of the whole game, for
self-play and offline learning. Chance is resolved from ``derive_rng(seed, "chance")`` and each
seat's agent from ``derive_rng(seed, "seat", i)``, exactly as :func:`septet.core.play_game`, so
``run(...).record`` is the record ``play_game`` gives for the same agents and seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from septet.core.game import Game, State
from septet.core.play import Agent, choose_action
from septet.core.record import GameRecord
from septet.core.rng import derive_rng
from septet.core.types import CHANCE
from septet.envs import missing_extra
from septet.envs._common import legal_ids, resolve_game

try:
    import numpy as np
except ModuleNotFoundError as exc:  # pragma: no cover - numpy comes with the rl extra
    raise missing_extra("septet.envs.run", exc) from exc

#: A learner's policy: ``(observation float32[size], mask int8[num_actions]) -> flat action id``.
Policy = Callable[[Any, Any], int]


@dataclass(frozen=True)
class Step:
    """One decision of one seat (or its closing step).

    Attributes:
        observation: ``float32[observation_size]``, the seat's ``observation_tensor`` before
            the decision (after the game, at the closing step).
        action_mask: ``int8[num_distinct_actions]``, 1 for each legal flat id (all zero at the
            closing step).
        action: the flat id played, or ``None`` at the closing step.
        reward: 0.0 at decisions; the seat's payoff (``State.returns()``) at the closing step.
        done: ``True`` only at the closing step.
    """

    observation: Any
    action_mask: Any
    action: int | None
    reward: float
    done: bool


@dataclass
class Episode:
    """What :func:`run` returns.

    Attributes:
        trajectories: one list of :class:`Step` per seat, in seat order.
        payoffs: ``State.returns()`` per seat (1.0 a win, shared and team wins included).
        scores: the final scores per seat (game points).
        record: the game record (replays with ``septet replay``).
    """

    trajectories: list[list[Step]]
    payoffs: list[float]
    scores: list[float]
    record: GameRecord
    state: State = field(repr=False)


class _PolicyAgent:
    """Adapts a :data:`Policy` on tensors to the :class:`Agent` protocol, for one seat."""

    def __init__(self, policy: Policy, game: Game[Any]) -> None:
        self.policy = policy
        self.game = game
        self.name = getattr(policy, "__name__", "policy")


def _agents(game: Game[Any], agents: Sequence[str | Agent | Policy]) -> list[Agent | _PolicyAgent]:
    from septet.bots import make_agent

    out: list[Agent | _PolicyAgent] = []
    for a in agents:
        if isinstance(a, str):
            out.append(make_agent(a, game))
        elif hasattr(a, "act"):
            out.append(a)  # type: ignore[arg-type]
        elif callable(a):
            out.append(_PolicyAgent(a, game))
        else:
            raise TypeError(f"an agent spec, an Agent or a policy callable expected, not {a!r}")
    return out


def run(
    game: str | Game[Any],
    agents: Sequence[str | Agent | Policy],
    *,
    seed: int = 0,
    **options: Any,
) -> Episode:
    """Play one game with one agent per seat and return every seat's trajectory and payoff.

    Args:
        game: a registered game name or a :class:`Game` (then no ``options``).
        agents: one per seat: an agent spec (``"greedy"``, ``"ismcts:time=0.5"``), an
            :class:`~septet.core.play.Agent`, or a :data:`Policy` on the observation tensor and
            the flat action mask (it must return a legal flat id).
        seed: seeds chance and each seat's stream, as :func:`septet.core.play_game`.
        options: the game's options (``edition="classic"``).

    Raises:
        UnknownGameError, OptionError: unknown game, bad options or player count.
        IllegalActionError: an agent or policy chose an action that is not legal.
    """
    g = resolve_game(game, options)
    players = _agents(g, agents)
    n = len(players)
    state = g.new_state(n)
    chance_rng = derive_rng(seed, "chance")
    seat_rngs = [derive_rng(seed, "seat", i) for i in range(n)]
    size = g.num_distinct_actions(n)
    trajectories: list[list[Step]] = [[] for _ in range(n)]
    while not state.is_terminal:
        p = state.current_player
        if p == CHANCE:
            state.apply(state.sample_chance(chance_rng))
            continue
        legal = legal_ids(state)
        mask = np.zeros(size, np.int8)
        mask[list(legal)] = 1
        obs = np.asarray(state.observation_tensor(p), np.float32)
        agent = players[p]
        if isinstance(agent, _PolicyAgent):
            chosen = int(agent.policy(obs, mask))
            if chosen not in legal:
                from septet.core.errors import IllegalActionError

                raise IllegalActionError(f"the policy of seat {p} chose id {chosen}, not legal")
            action = legal[chosen]
        else:
            action = choose_action(agent, state, seat_rngs[p])
            chosen = g.action_to_id(action, n)
        trajectories[p].append(Step(obs, mask, chosen, 0.0, False))
        state.apply(action)
    payoffs = [float(x) for x in state.returns()]
    for p in range(n):
        final = np.asarray(state.observation_tensor(p), np.float32)
        trajectories[p].append(Step(final, np.zeros(size, np.int8), None, payoffs[p], True))
    names = [getattr(a, "name", type(a).__name__) for a in players]
    record = GameRecord.of(state, players=names, meta={"seed": seed})
    return Episode(trajectories, payoffs, [float(s) for s in state.scores()], record, state)


__all__ = ["Episode", "Policy", "Step", "run"]
