"""A tiny game with hidden information and chance, for server and client tests.

"Tiny Sevens": each seat is dealt a secret card 1-9 (chance, notation ``deal V``; the deal is a
private event). Then seats in turn add 1, 2 or 3 to a shared counter (``add N``). Whoever
brings it exactly to ``target`` wins ("seven" event); whoever goes past it busts, and the other
seats with the highest secret card win. Secrets are revealed in the view once the game is over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from septet.core import CHANCE, TERMINAL, Event, Game, NotationError, OptionError, State
from septet.games import register


@dataclass(frozen=True)
class TinyOptions:
    target: int = 7

    def __post_init__(self) -> None:
        if not 3 <= self.target <= 500:
            raise OptionError("target must be between 3 and 500")


@dataclass(frozen=True)
class Deal:
    value: int

    def __str__(self) -> str:
        return f"deal {self.value}"


@dataclass(frozen=True)
class Add:
    n: int

    def __str__(self) -> str:
        return f"add {self.n}"


class TinyState(State):
    def __init__(self, game: TinySevens, num_players: int) -> None:
        super().__init__(game, num_players)
        self.secrets: list[int] = []
        self.counter = 0
        self.turn = 0
        self.over = False
        self.win: list[int] = []

    @property
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if len(self.secrets) < self.num_players:
            return CHANCE
        return self.turn

    def legal_actions(self) -> list[Any]:
        if self.current_player < 0:
            return []
        return [Add(n) for n in (1, 2, 3)]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.current_player != CHANCE:
            return []
        return [(Deal(v), 1 / 9) for v in range(1, 10)]

    def apply(self, action: Any) -> list[Event]:
        self.check_action(action)
        self.history.append(action)
        if isinstance(action, Deal):
            seat = len(self.secrets)
            self.secrets.append(action.value)
            return [Event("dealt", seat, {"card": action.value}, frozenset({seat}))]
        seat = self.turn
        self.counter += action.n
        events = [Event("added", seat, {"n": action.n, "counter": self.counter})]
        target = self.game.options.target  # type: ignore[attr-defined]
        if self.counter == target:
            self.over, self.win = True, [seat]
            events.append(Event("seven", seat, {}))
        elif self.counter > target:
            others = [s for s in range(self.num_players) if s != seat]
            best = max(self.secrets[s] for s in others)
            self.over, self.win = True, [s for s in others if self.secrets[s] == best]
            events.append(Event("bust", seat, {}))
        else:
            self.turn = (seat + 1) % self.num_players
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "counter": self.counter,
            "target": self.game.options.target,  # type: ignore[attr-defined]
            "hand": [self.secrets[seat]] if seat is not None and seat < len(self.secrets) else [],
            "revealed": list(self.secrets) if self.over else None,
            "winners": list(self.win),
        }

    def determinize(self, seat: int, rng: random.Random) -> State:
        clone = self.clone()
        for s in range(len(clone.secrets)):
            if s != seat and not self.over:
                clone.secrets[s] = rng.randint(1, 9)
        return clone

    def scores(self) -> list[float]:
        return [1.0 if s in self.win else 0.0 for s in range(self.num_players)]

    def winners(self) -> list[int]:
        return list(self.win)

    def clone(self) -> TinyState:
        other = TinyState(self.game, self.num_players)  # type: ignore[arg-type]
        other.load_state_dict(self.state_dict())
        other.history = list(self.history)
        return other

    def state_dict(self) -> dict[str, Any]:
        return {
            "secrets": list(self.secrets),
            "counter": self.counter,
            "turn": self.turn,
            "over": self.over,
            "win": list(self.win),
        }

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        self.secrets = list(data["secrets"])
        self.counter = data["counter"]
        self.turn = data["turn"]
        self.over = data["over"]
        self.win = list(data["win"])


@register
class TinySevens(Game[TinyOptions]):
    name = "tiny-sevens"
    titles = {"en": "Tiny Sevens", "ja": "ちいさなセブン"}
    min_players = 2
    max_players = 4
    options_type = TinyOptions

    def new_state(self, num_players: int) -> State:
        return TinyState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        return num_players + self.options.target

    def action_from_str(self, text: str) -> Any:
        word, _, num = text.strip().partition(" ")
        if word == "deal" and num.isdigit() and 1 <= int(num) <= 9:
            return Deal(int(num))
        if word == "add" and num in ("1", "2", "3"):
            return Add(int(num))
        raise NotationError(f"{text!r} is not 'add 1|2|3'")

    def describe_action(self, action: Any, lang: str = "en") -> str:
        if isinstance(action, Add):
            return f"+{action.n}" if lang == "en" else f"{action.n}を足す"
        return "deal" if lang == "en" else "配る"

    def describe_event(self, event: Event, lang: str = "en") -> str:
        if event.kind == "dealt":
            return f"you got {event.data['card']}" if lang == "en" else f"{event.data['card']}"
        return f"{event.kind} {event.seat}"

    def num_distinct_actions(self, num_players: int) -> int:
        return 3

    def action_to_id(self, action: Any, num_players: int) -> int:
        return int(action.n) - 1

    def id_to_action(self, action_id: int, num_players: int) -> Any:
        return Add(action_id + 1)


class _TestAgent:
    """Bots for the pool's tests, offered only for Tiny Sevens: ``test-crash`` kills its worker
    process, ``test-sleep`` thinks for 30 seconds."""

    def __init__(self, game: Any, kind: str) -> None:
        if game.name != "tiny-sevens":
            raise ValueError("a test bot plays only tiny-sevens")
        self.kind = kind
        self.name = f"test-{kind}"

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        import os
        import time

        if self.kind == "crash":
            os._exit(3)
        time.sleep(30)
        return legal[0]


def _register_test_bots() -> None:
    from septet.bots import AGENT_FACTORIES

    AGENT_FACTORIES.setdefault("test-crash", lambda game, **p: _TestAgent(game, "crash"))
    AGENT_FACTORIES.setdefault("test-sleep", lambda game, **p: _TestAgent(game, "sleep"))


_register_test_bots()
