"""A tiny hidden-card trick game on the core contract, for testing the generic bots.

Cards 1..deck, no suits. Each of 2-3 players is dealt ``hand`` cards face down (chance, one card
a step, private to the receiver). The leader (seat 0 first) plays any card, then the others in
seat order; the highest card wins the trick and its winner leads the next. With ``refill`` each
player draws one card face down after a trick while the stock lasts. Most tricks wins (ties
share). The state keeps everything; views hide the other hands and the stock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from septet.core.errors import IllegalActionError, NotationError, OptionError
from septet.core.game import Action, Game, State
from septet.core.types import CHANCE, JSON, TERMINAL, Event
from septet.games import register


@dataclass(frozen=True)
class ToyOptions:
    deck: int = 7
    hand: int = 3
    refill: bool = False

    def __post_init__(self) -> None:
        if self.deck < 2 or self.hand < 1:
            raise OptionError("bad toy options")


@dataclass(frozen=True)
class Deal:
    card: int

    def __str__(self) -> str:
        return f"d{self.card}"


@dataclass(frozen=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"p{self.card}"


@register
class ToyTricks(Game[ToyOptions]):
    name = "toy-tricks"
    titles = {"en": "Toy tricks", "ja": "トイ"}
    min_players = 2
    max_players = 3
    options_type = ToyOptions

    def new_state(self, num_players: int) -> ToyState:
        if num_players * self.options.hand > self.options.deck:
            raise OptionError("deck too small")
        return ToyState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        return 3 * self.options.deck

    def action_from_str(self, text: str) -> Action:
        if len(text) < 2 or text[0] not in "dp" or not text[1:].isdigit():
            raise NotationError(text)
        return (Deal if text[0] == "d" else Play)(int(text[1:]))

    def num_distinct_actions(self, num_players: int) -> int:
        return self.options.deck

    def action_to_id(self, action: Action, num_players: int) -> int:
        if not isinstance(action, Play):
            raise ValueError(action)
        return action.card - 1

    def id_to_action(self, action_id: int, num_players: int) -> Action:
        return Play(action_id + 1)

    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> ToyState:
        seat = int(view["seat"])
        state = self.new_state(len(view["hand_sizes"]))
        seen = set(view["hand"]) | set(view["played"])
        unseen = [c for c in range(1, self.options.deck + 1) if c not in seen]
        rng.shuffle(unseen)
        for s, size in enumerate(view["hand_sizes"]):
            if s == seat:
                state.hands[s] = list(view["hand"])
            else:
                state.hands[s] = sorted(unseen[:size])
                del unseen[:size]
        state.stock = unseen
        state.played = list(view["played"])
        state.trick = [tuple(x) for x in view["trick"]]
        state.tricks = list(view["tricks"])
        state.to_move = int(view["to_move"])
        state.dealing = int(view["dealing"])
        return state


class ToyState(State):
    def __init__(self, game: ToyTricks, num_players: int) -> None:
        super().__init__(game, num_players)
        self.opts: ToyOptions = game.options
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.stock: list[int] = list(range(1, self.opts.deck + 1))  # unordered pool
        self.played: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.tricks = [0] * num_players
        self.to_move = 0
        self.dealing = num_players * self.opts.hand  # cards still to deal (-> chance)

    @property
    def current_player(self) -> int:
        if self.dealing > 0:
            return CHANCE
        if all(not h for h in self.hands):
            return TERMINAL
        return self.to_move

    def _receiver(self) -> int:
        # deal to the seat with the fewest cards, lowest seat first
        sizes = [len(h) for h in self.hands]
        return sizes.index(min(sizes))

    def legal_actions(self) -> list[Action]:
        p = self.current_player
        if p < 0:
            return []
        return [Play(c) for c in sorted(self.hands[p])]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player != CHANCE:
            return []
        pool = sorted(self.stock)
        return [(Deal(c), 1.0 / len(pool)) for c in pool]

    def apply(self, action: Action) -> list[Event]:
        p = self.current_player
        if p == CHANCE:
            if not isinstance(action, Deal) or action.card not in self.stock:
                raise IllegalActionError(f"{action} cannot be dealt")
            r = self._receiver()
            self.stock.remove(action.card)
            self.hands[r].append(action.card)
            self.hands[r].sort()
            self.dealing -= 1
            self.history.append(action)
            return [
                Event("dealt", r),
                Event("card", r, {"card": action.card}, visible_to=frozenset({r})),
            ]
        if p < 0 or not isinstance(action, Play) or action.card not in self.hands[p]:
            raise IllegalActionError(f"{action} is not legal")
        self.hands[p].remove(action.card)
        self.played.append(action.card)
        self.trick.append((p, action.card))
        self.history.append(action)
        events = [Event("play", p, {"card": action.card})]
        if len(self.trick) < self.num_players:
            self.to_move = (p + 1) % self.num_players
            return events
        winner = max(self.trick, key=lambda x: x[1])[0]
        self.tricks[winner] += 1
        self.trick = []
        self.to_move = winner
        events.append(Event("trick_won", winner))
        if self.opts.refill and len(self.stock) >= self.num_players:
            self.dealing = self.num_players
        return events

    def view(self, seat: int | None) -> dict[str, JSON]:
        return {
            "seat": seat,
            "hand": sorted(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "played": list(self.played),
            "trick": [list(x) for x in self.trick],
            "tricks": list(self.tricks),
            "to_move": self.to_move,
            "dealing": self.dealing,
        }

    def determinize(self, seat: int, rng: random.Random) -> ToyState:
        game = self.game
        assert isinstance(game, ToyTricks)
        return game.sample_state(self.view(seat), rng)

    def scores(self) -> list[float]:
        return [float(t) for t in self.tricks]

    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        best = max(self.tricks)
        return [s for s, t in enumerate(self.tricks) if t == best]

    def clone(self) -> ToyState:
        game = self.game
        assert isinstance(game, ToyTricks)
        other = ToyState(game, self.num_players)
        other.load_state_dict(self.state_dict())
        other.history = list(self.history)
        return other

    def state_dict(self) -> dict[str, JSON]:
        return {
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "played": list(self.played),
            "trick": [list(x) for x in self.trick],
            "tricks": list(self.tricks),
            "to_move": self.to_move,
            "dealing": self.dealing,
        }

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        self.hands = [list(h) for h in data["hands"]]
        self.stock = list(data["stock"])
        self.played = list(data["played"])
        self.trick = [(int(a), int(b)) for a, b in data["trick"]]
        self.tricks = list(data["tricks"])
        self.to_move = int(data["to_move"])
        self.dealing = int(data["dealing"])


def position(
    game: ToyTricks,
    hands: list[list[int]],
    played: list[int],
    trick: list[tuple[int, int]],
    tricks: list[int],
    to_move: int,
) -> ToyState:
    """A hand-built position (the stock is every card not in a hand nor played)."""
    state = game.new_state(len(hands))
    state.hands = [sorted(h) for h in hands]
    state.played = list(played)
    used = set(played) | {c for h in hands for c in h}
    state.stock = [c for c in range(1, game.options.deck + 1) if c not in used]
    state.trick = list(trick)
    state.tricks = list(tricks)
    state.to_move = to_move
    state.dealing = 0
    return state
