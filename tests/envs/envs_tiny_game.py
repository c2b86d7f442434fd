"""A tiny hidden-card game on the core contract, used to test the RL environments first.

"Tiny sevens": a deck of cards 1..5, two of each (10 cards). Chance deals one hidden card to each
seat ("deal 3"). Then each seat in turn plays: ``draw`` (a hidden card from the deck, a chance
node) as often as it likes, or ``stand``. A seat whose total goes over 7 busts at once: its hand
is shown to everyone and its turn ends. When every seat has stood or bust, all hands are shown; the
highest total of 7 or less wins (ties share the win; nobody wins if everyone bust).

Observation tensor (length ``6 + 5 * n``), from seat ``s``'s view:
    [0:5]   own cards per rank 1..5, count / 2
    [5]     own total / 7
    then per seat ``t`` (absolute order) 5 values: cards held / 7, stood, bust, to move, is ``s``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from septet.core import CHANCE, TERMINAL, Event, Game, IllegalActionError, NotationError, State
from septet.core.errors import OptionError, RecordError
from septet.games import register

ACTIONS = ("stand", "draw")
RANKS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class TinyOptions:
    limit: int = 7

    def __post_init__(self) -> None:
        if not 5 <= self.limit <= 9:
            raise OptionError("limit must be 5..9")


@register
class TinySevens(Game[TinyOptions]):
    name = "envs-tiny"
    titles = {"en": "Tiny sevens", "ja": "ちいさなセブン"}
    min_players = 2
    max_players = 4
    options_type = TinyOptions

    def new_state(self, num_players: int) -> TinyState:
        return TinyState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        # deal + per seat at most `limit` draws (each an action and a chance outcome) + stand
        return num_players + num_players * (2 * self.options.limit + 1)

    def action_from_str(self, text: str) -> str:
        if text in ACTIONS:
            return text
        if text.startswith("deal ") and text[5:].isdigit() and int(text[5:]) in RANKS:
            return text
        raise NotationError(f"not a tiny-sevens action: {text!r}")

    def num_distinct_actions(self, num_players: int) -> int:
        return len(ACTIONS)

    def action_to_id(self, action: Any, num_players: int) -> int:
        if action not in ACTIONS:
            raise ValueError(f"not a player action: {action!r}")
        return ACTIONS.index(action)

    def id_to_action(self, action_id: int, num_players: int) -> Any:
        if not 0 <= action_id < len(ACTIONS):
            raise ValueError(f"action id out of range: {action_id}")
        return ACTIONS[action_id]

    def observation_size(self, num_players: int) -> int:
        return 6 + 5 * num_players

    def render(self, view: Mapping[str, Any], lang: str = "en") -> str:
        lines = []
        for t in range(len(view["counts"])):
            hand = view["hands"][t]
            shown = " ".join(map(str, hand)) if hand is not None else "? " * view["counts"][t]
            mark = "*" if view["to_move"] == t else " "
            status = "bust" if view["bust"][t] else ("stood" if view["stood"][t] else "")
            lines.append(f"{mark} seat {t}: {shown.strip()} {status}".rstrip())
        lines.append(f"deck: {view['deck_size']}")
        return "\n".join(lines)


class TinyState(State):
    game: TinySevens

    def __init__(self, game: TinySevens, num_players: int) -> None:
        super().__init__(game, num_players)
        self.deck = [2] * len(RANKS)  # count per rank
        self.hands: list[list[int]] = []
        self.stood = [False] * num_players
        self.bust = [False] * num_players
        self.turn = 0
        self.drawing = False

    @property
    def current_player(self) -> int:
        if len(self.hands) < self.num_players or self.drawing:
            return CHANCE
        if self.turn >= self.num_players:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> list[Any]:
        if self.current_player < 0:
            return []
        return ["stand", "draw"] if sum(self.deck) else ["stand"]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.current_player != CHANCE:
            return []
        total = sum(self.deck)
        return [(f"deal {r}", c / total) for r, c in zip(RANKS, self.deck, strict=True) if c]

    def apply(self, action: Any) -> list[Event]:
        p = self.current_player
        if p == TERMINAL:
            raise IllegalActionError("the game is over")
        if p == CHANCE:
            if not (isinstance(action, str) and action.startswith("deal ")):
                raise IllegalActionError(f"{action} is not a chance outcome")
            rank = int(action[5:])
            if rank not in RANKS or not self.deck[rank - 1]:
                raise IllegalActionError(f"no {rank} left in the deck")
            self.deck[rank - 1] -= 1
            events = []
            if self.drawing:
                seat = self.turn
                self.hands[seat].append(rank)
                self.drawing = False
                if sum(self.hands[seat]) > self.game.options.limit:
                    self.bust[seat] = True
                    events.append(Event("bust", seat, {"hand": list(self.hands[seat])}))
                    self.turn += 1
            else:
                seat = len(self.hands)
                self.hands.append([rank])
            self.history.append(action)
            return [Event("card", seat, {"rank": rank}, visible_to=frozenset({seat})), *events]
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal now", rule="TINY-1")
        if action == "stand":
            self.stood[p] = True
            self.turn += 1
        else:
            self.drawing = True
        self.history.append(action)
        return [Event(str(action), p)]

    def view(self, seat: int | None) -> dict[str, Any]:
        over = self.is_terminal
        hands: list[list[int] | None] = []
        for t in range(self.num_players):
            hand = self.hands[t] if t < len(self.hands) else []
            hands.append(sorted(hand) if (over or t == seat or self.bust[t]) else None)
        return {
            "seat": seat,
            "hands": hands,
            "counts": [
                len(self.hands[t]) if t < len(self.hands) else 0 for t in range(self.num_players)
            ],
            "stood": list(self.stood),
            "bust": list(self.bust),
            "deck_size": sum(self.deck),
            "to_move": self.current_player,
        }

    def observation_tensor(self, seat: int) -> list[float]:
        out = [0.0] * self.game.observation_size(self.num_players)
        own = self.hands[seat] if seat < len(self.hands) else []
        for r in own:
            out[r - 1] += 0.5
        out[5] = sum(own) / 7
        to_move = self.current_player
        for t in range(self.num_players):
            base = 6 + 5 * t
            out[base] = (len(self.hands[t]) if t < len(self.hands) else 0) / 7
            out[base + 1] = float(self.stood[t])
            out[base + 2] = float(self.bust[t])
            out[base + 3] = float(to_move == t)
            out[base + 4] = float(t == seat)
        return out

    def determinize(self, seat: int, rng: random.Random) -> TinyState:
        hidden = [
            t
            for t in range(len(self.hands))
            if t != seat and not self.bust[t] and not self.is_terminal
        ]
        pool = [r for r, c in zip(RANKS, self.deck, strict=True) for _ in range(c)]
        for t in hidden:
            pool += self.hands[t]
        limit = self.game.options.limit
        while True:  # rejection: a seat that has not bust holds at most `limit`
            rng.shuffle(pool)
            det = self.clone()
            rest = list(pool)
            for t in hidden:
                det.hands[t] = [rest.pop() for _ in self.hands[t]]
            if all(sum(det.hands[t]) <= limit for t in hidden):
                det.deck = [rest.count(r) for r in RANKS]
                return det

    def scores(self) -> list[float]:
        return [
            float(sum(self.hands[t])) if t < len(self.hands) else 0.0
            for t in range(self.num_players)
        ]

    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        sc = [-1.0 if self.bust[t] else s for t, s in enumerate(self.scores())]
        best = max(sc)
        return [t for t in range(self.num_players) if sc[t] == best and best >= 0]

    def clone(self) -> TinyState:
        c = TinyState(self.game, self.num_players)
        c.load_state_dict(self.state_dict())
        c.history = list(self.history)
        return c

    def state_dict(self) -> dict[str, Any]:
        return {
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "stood": list(self.stood),
            "bust": list(self.bust),
            "turn": self.turn,
            "drawing": self.drawing,
        }

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        try:
            self.deck = [int(x) for x in data["deck"]]
            self.hands = [[int(x) for x in h] for h in data["hands"]]
            self.stood = [bool(x) for x in data["stood"]]
            self.bust = [bool(x) for x in data["bust"]]
            self.turn = int(data["turn"])
            self.drawing = bool(data["drawing"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad tiny-sevens state: {exc}") from exc
