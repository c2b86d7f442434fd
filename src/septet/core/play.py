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


class SeatView(dict[str, JSON]):
    """A seat's view (equal to the plain JSON dict ``State.view(seat)``) that also carries the
    seat's information-set sampler, for search bots (``Game.sample_state``).

    ``sample_information_set(rng)`` returns ``state.determinize(seat, rng)`` of the real state:
    a state drawn from what the seat cannot rule out, never the real state itself. It is not part
    of the JSON: serialising the view drops it.
    """

    __slots__ = ("_sampler",)

    def __init__(self, data: dict[str, JSON], sampler: Callable[[random.Random], State]) -> None:
        super().__init__(data)
        self._sampler = sampler

    def sample_information_set(self, rng: random.Random) -> State:
        """A determinization of the seat's information set (see ``State.determinize``)."""
        return self._sampler(rng)


def seat_view(state: State, seat: int) -> SeatView:
    """``state.view(seat)`` with the seat's information-set sampler attached (see SeatView).

    Every consumer that asks an agent to act (the play loop, the arena, the server) passes this.
    """
    # No copy (this runs on every move of every agent): the sampler is valid while the agent
    # decides, and refuses once the real state has moved on.
    moves = len(state.history)

    def sample(rng: random.Random) -> State:
        if len(state.history) != moves:
            raise RuntimeError("this view is stale: the game has moved on since it was given")
        return state.determinize(seat, rng)

    return SeatView(state.view(seat), sample)


def choose_action(agent: Agent, state: State, rng: random.Random) -> Action:
    """Ask ``agent`` for the move of the seat to play in ``state``, from that seat's view.

    Raises:
        IllegalActionError: the agent returned an action that is not legal.
    """
    seat = state.current_player
    legal = state.legal_actions()
    action = agent.act(seat_view(state, seat), legal, rng)
    if action not in legal:
        raise IllegalActionError(
            f"agent {getattr(agent, 'name', seat)!r} chose {action}, which is not legal"
        )
    return action


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
            action = choose_action(agents[player], state, seat_rngs[player])
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
