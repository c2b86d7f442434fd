"""The play loop: agents choose actions from views; chance is sampled from a seeded RNG."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from septet.core.errors import IllegalActionError
from septet.core.game import Action, Game, State
from septet.core.record import GameRecord
from septet.core.rng import derive_rng
from septet.core.types import CHANCE, JSON, Event


@runtime_checkable
class Agent(Protocol):
    """Anything that plays from a view: a bot, a person at a terminal, a remote client.

    ``act`` receives the seat's view (``State.view(seat)``), the legal actions and an RNG, and
    returns one of the legal actions. It never sees the full state.
    """

    name: str

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of ``legal_actions``."""
        ...


@dataclass
class PlayResult:
    """What :func:`play_game` returns: the final state and its record."""

    state: State
    record: GameRecord

    @property
    def scores(self) -> list[float]:
        return self.state.scores()

    @property
    def winners(self) -> list[int]:
        return self.state.winners()


def play_game(
    game: Game[Any],
    agents: Sequence[Agent],
    seed: int | str | None = None,
    *,
    state: State | None = None,
    on_event: Callable[[State, Action, list[Event]], None] | None = None,
    max_steps: int | None = None,
) -> PlayResult:
    """Play one game to the end (or ``max_steps``) and return its final state and record.

    Args:
        game: the game (with its options).
        agents: one agent per seat; ``len(agents)`` is the number of players.
        seed: seeds the chance stream and one stream per seat (see :func:`derive_rng`); the same
            seed and agents give the same game.
        state: continue from this state instead of a new one.
        on_event: called after every step with the state, the action and its events.
        max_steps: stop early after this many steps (the record then has no result).

    Raises:
        IllegalActionError: an agent returned an action that is not legal (a bug in the agent).
    """
    if state is None:
        state = game.new_state(len(agents))
    chance_rng = derive_rng(seed, "chance")
    seat_rngs = [derive_rng(seed, "seat", i) for i in range(len(agents))]
    steps = 0
    while not state.is_terminal and (max_steps is None or steps < max_steps):
        player = state.current_player
        if player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            legal = state.legal_actions()
            action = agents[player].act(state.view(player), legal, seat_rngs[player])
            if action not in legal:
                raise IllegalActionError(
                    f"agent {getattr(agents[player], 'name', player)!r} chose {action}, "
                    "which is not legal"
                )
        events = state.apply(action)
        if on_event is not None:
            on_event(state, action, events)
        steps += 1
    record = GameRecord.of(
        state,
        players=[getattr(a, "name", type(a).__name__) for a in agents],
        meta={"seed": seed} if seed is not None else {},
    )
    return PlayResult(state=state, record=record)


def random_playout(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end in place with uniform random actions and exact chance; returns
    it. The fastest loop the contract allows: used by benchmarks and rollouts."""
    while True:
        player = state.current_player
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
        elif player < 0:
            return state
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
