"""Bots: agents that play from views only (``Agent.act(view, legal_actions, rng)``).

Agents are named and configured by a spec string: ``random``, ``greedy``,
``ismcts:iterations=2000``, ``ismcts:time=1.0``, ``flip7-ev``, ``risk:p=0.26`` (Flip 7: hit while
P(bust) ≤ p, :mod:`septet.bots.risk`), ``ppo`` (a trained policy shipped per game,
``septet.bots.ppo``), ``expert`` (PIMC with an exact trick solver in Seven Shot,
``septet.bots.expert``). :func:`make_agent` builds one for a game; the CLI, the arena and the
server all go through it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from septet.core.errors import SeptetError
from septet.core.game import Action, Game
from septet.core.play import Agent
from septet.core.types import JSON


class AgentSpecError(SeptetError, ValueError):
    """An agent spec string that names no bot or has bad parameters."""


class RandomAgent:
    """Uniform over the legal actions."""

    def __init__(self, game: Game[Any] | None = None) -> None:
        self.name = "random"

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]


def _greedy(game: Game[Any], **params: str) -> Agent:
    module = "septet.bots.greedy." + game.name.replace("-", "_")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise AgentSpecError(f"no greedy bot for {game.name}") from exc
    agent: Agent = mod.GreedyAgent(game, **params)
    return agent


class EpsilonGreedyAgent:
    """The game's greedy bot, except that with probability ``epsilon`` it plays a uniformly
    random legal move instead (epsilon-greedy; the server's Easy level). Spec:
    ``epsilon-greedy:epsilon=0.3``.

    Raises:
        AgentSpecError: no greedy bot for the game. ValueError: ``epsilon`` outside [0, 1].
    """

    def __init__(self, game: Game[Any], epsilon: str | float = "0.3") -> None:
        self.epsilon = float(epsilon)
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon!r}")
        self.greedy = _greedy(game)
        self.name = "epsilon-greedy"

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if rng.random() < self.epsilon:
            return legal_actions[rng.randrange(len(legal_actions))]
        return self.greedy.act(view, legal_actions, rng)


def _ismcts(game: Game[Any], **params: str) -> Agent:
    from septet.bots.ismcts import make_ismcts

    return make_ismcts(game, **params)


def _flip7_ev(game: Game[Any], **params: str) -> Agent:
    if game.name != "flip7":
        raise AgentSpecError(f"flip7-ev plays only flip7, not {game.name}")
    from septet.bots.flip7_ev import Flip7EVAgent

    return Flip7EVAgent(game, **params)


def _risk(game: Game[Any], **params: str) -> Agent:
    if game.name != "flip7":
        raise AgentSpecError(f"risk plays only flip7, not {game.name}")
    from septet.bots.risk import RiskAgent

    return RiskAgent(game, **params)


def _expert(game: Game[Any], **params: str) -> Agent:
    from septet.bots.expert import make_expert

    return make_expert(game, **params)


def _script(game: Game[Any], **params: str) -> Agent:
    from septet.bots.scripted import make_scripted

    return make_scripted(game, **params)


def _ppo(game: Game[Any], **params: str) -> Agent:
    from septet.bots.ppo import PPOAgent

    return PPOAgent(game, **params)


# spec name -> factory(game, **params).
AGENT_FACTORIES: dict[str, Callable[..., Agent]] = {
    "random": lambda game, **params: RandomAgent(game, **params),
    "greedy": _greedy,
    "epsilon-greedy": lambda game, **params: EpsilonGreedyAgent(game, **params),
    "ismcts": _ismcts,
    "flip7-ev": _flip7_ev,
    "risk": _risk,
    "ppo": _ppo,
    "script": _script,
    "expert": _expert,
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"ismcts:iterations=2000,rollout=greedy"`` into ``("ismcts", {...})``.

    Raises:
        AgentSpecError: malformed parameters.
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise AgentSpecError(f"bad agent parameter {item!r} in {spec!r} (want key=value)")
            params[key.strip()] = value.strip()
    return name.strip(), params


def make_agent(spec: str, game: Game[Any]) -> Agent:
    """Build the agent named by ``spec`` for ``game``.

    Raises:
        AgentSpecError: unknown bot, bad parameters, or a bot that does not play this game.
    """
    name, params = parse_spec(spec)
    try:
        factory = AGENT_FACTORIES[name]
    except KeyError:
        raise AgentSpecError(
            f"unknown agent {name!r}; known: {', '.join(sorted(AGENT_FACTORIES))}"
        ) from None
    try:
        agent = factory(game, **params)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, AgentSpecError):
            raise
        raise AgentSpecError(f"bad parameters for {name!r}: {exc}") from exc
    agent.name = spec.strip()
    return agent


__all__ = [
    "AGENT_FACTORIES",
    "AgentSpecError",
    "EpsilonGreedyAgent",
    "RandomAgent",
    "make_agent",
    "parse_spec",
]
