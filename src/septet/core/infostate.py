"""The perfect-recall information-state tensor: the observation, then the seat's history.

The observation tensor (``State.observation_tensor``) sums a seat's knowledge up as it stands;
two different pasts can give the same observation. The information-state tensor adds the
seat's whole action-observation history as a sequence of **tokens**, one per step (player action
or chance outcome), oldest first, built from the game's declared action encoding
(:mod:`septet.core.encoding`)::

    [present, actor, kind, arg_0, arg_1, ..., arg_{A-1}]

- ``present``: 1 for a step, 0 for the padding after the last one;
- ``actor``: the seat that acted, relative to the observer (0 = the observer, 1 = the next seat
  clockwise, ...), or ``n`` for chance;
- ``kind``: the index of the action's kind in the encoding (player kinds, then chance kinds);
- ``arg_i``: the action's argument values; ``-1`` where the kind has fewer arguments, and for
  every argument of a step the observer does not see (``State.action_visibility``: a tile
  drawn face down by another seat, a card dealt to another hand, a card another seat passes).

Every step the seat saw, and what it saw of it, is there in order, so two positions share a
tensor only if the seat cannot tell them apart (perfect recall). The history holds every step of
the game (``Game.history_bound``: ``scope="game"``), or, for a game of many independent rounds
(Flip 7), the steps of the current round: the rounds before enter through the observation
(totals, cards left in the deck and in the discard, round number), which is all of them that
bears on the rest of the game. The tokens are small integers meant for an embedding or a
sequence model; ``ObservationSpec.normalize`` maps them to [0, 1] for a plain network.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from septet.core.observation import ObservationSpec, Piece
from septet.core.types import CHANCE, Seat

if TYPE_CHECKING:
    from septet.core.game import Action, Game, State

# (round, actor, kind index, argument values, seats that see the arguments or None)
Token = tuple[int, int, int, tuple[int, ...], frozenset[int] | None]


def token_width(game: Game[Any], num_players: int) -> int:
    """Values per token: ``3 +`` the most arguments of any kind (player or chance)."""
    enc = game.action_encoding(num_players)
    return 3 + max((len(k.args) for k in enc.kinds + enc.chance_kinds), default=0)


@lru_cache(maxsize=64)
def information_state_spec(game: Game[Any], num_players: int) -> ObservationSpec:
    """The layout of ``State.information_state_tensor``: the observation's pieces, then
    ``history`` of shape ``(steps, width)`` (``Game.history_bound``, :func:`token_width`),
    with exact bounds per column.

    Raises:
        NotImplementedError: the engine has no observation tensor or action encoding.
    """
    obs = game.observation_spec(num_players)
    enc = game.action_encoding(num_players)
    steps, scope = game.history_bound(num_players)
    width = token_width(game, num_players)
    kinds = enc.kinds + enc.chance_kinds
    top = [
        max(
            (a.start + a.size - 1 for k in kinds if i < len(k.args) for a in (k.args[i],)),
            default=-1,
        )
        for i in range(width - 3)
    ]
    low_row = (0.0, 0.0, 0.0) + (-1.0,) * (width - 3)
    high_row = (1.0, float(num_players), float(len(kinds) - 1), *(float(max(t, 0)) for t in top))
    where = "the game" if scope == "game" else "the current round"
    history = Piece(
        "history",
        (steps, width),
        f"every step of {where} as seen by the observer, oldest first: present, actor "
        f"(relative seat; {num_players} = chance), kind, {width - 3} argument values (-1: none "
        "or unseen); zeros after the last step",
        low_row * steps,
        high_row * steps,
    )
    return obs.extend(history, title=f"{game.name} information state, {num_players} players")


class InfostateEncoder:
    """Keeps the step tokens of one game as it is played, for information-state tensors.

    Call :meth:`record` with the state *before* each step is applied (every player action and
    chance outcome, in order), then :meth:`tensor` gives any seat's information state.

    Args:
        game: the game.
        num_players: seats.

    Raises:
        NotImplementedError: the engine has no observation tensor or action encoding.
    """

    __slots__ = ("encoding", "game", "num_players", "scope", "spec", "steps", "tokens", "width")

    def __init__(self, game: Game[Any], num_players: int) -> None:
        self.game = game
        self.num_players = num_players
        self.encoding = game.action_encoding(num_players)
        self.spec = information_state_spec(game, num_players)
        self.steps, self.scope = game.history_bound(num_players)
        self.width = token_width(game, num_players)
        self.tokens: list[Token] = []

    @classmethod
    def from_state(cls, state: State) -> InfostateEncoder:
        """The tokens of ``state.history``, by replaying it from a new state (O(steps)).

        Raises:
            IllegalActionError: a history that does not replay (a damaged state).
        """
        return cls.from_history(state.game, state.num_players, state.history)

    @classmethod
    def from_history(
        cls, game: Game[Any], num_players: int, history: Sequence[Action]
    ) -> InfostateEncoder:
        """The tokens of a game's ``history`` (every action and chance outcome from the start),
        by replaying it (O(steps)).

        Raises:
            IllegalActionError: a history that does not replay.
        """
        enc = cls(game, num_players)
        replay = game.new_state(num_players)
        for action in history:
            enc.record(replay, action)
            replay.apply(action)
        return enc

    def clone(self) -> InfostateEncoder:
        """An independent copy (tokens are immutable, the list is copied)."""
        new = object.__new__(InfostateEncoder)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new.tokens = list(self.tokens)
        return new

    def reset(self) -> None:
        """Forget every step (a new game)."""
        self.tokens.clear()

    def record(self, state: State, action: Action) -> None:
        """Note the step ``action`` about to be applied to ``state``.

        Raises:
            ValueError: not an action of the game's encoding.
        """
        kind, args = self.encoding.args_of(action)
        actor = state.current_player
        self.tokens.append(
            (
                state.round_index(),
                actor,
                self.encoding.kind_index[kind],
                args,
                state.action_visibility(action),
            )
        )

    def tensor(self, state: State, seat: Seat) -> list[float]:
        """``seat``'s information-state tensor in ``state`` (the state the recorded steps led
        to), laid out by :func:`information_state_spec`.

        Raises:
            RuntimeError: more steps than the game's declared bound (an engine bug).
        """
        out = state.observation_tensor(seat)
        tokens = self.tokens
        if self.scope == "round":
            current = state.round_index()
            first = len(tokens)
            while first > 0 and tokens[first - 1][0] == current:
                first -= 1
            tokens = tokens[first:]
        if len(tokens) > self.steps:
            raise RuntimeError(
                f"{self.game.name}: {len(tokens)} steps exceed the declared bound {self.steps}"
            )
        n, w = self.num_players, self.width
        hist = [0.0] * (self.steps * w)
        at = 0
        for _, actor, kind, args, visible in tokens:
            hist[at] = 1.0
            hist[at + 1] = float(n if actor == CHANCE else (actor - seat) % n)
            hist[at + 2] = float(kind)
            seen = visible is None or seat in visible
            for i in range(w - 3):
                hist[at + 3 + i] = float(args[i]) if seen and i < len(args) else -1.0
            at += w
        out.extend(hist)
        return out


__all__ = ["InfostateEncoder", "Token", "information_state_spec", "token_width"]
