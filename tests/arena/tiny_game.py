"""A tiny game on the contract, registered as ``test-tiny-sevens``, for the CLI and arena tests.

Rules ("TT"): chance deals every seat a secret card 1..3 (``card N``, uniform, one per seat, in
seat order; only that seat sees it). Then seats take turns, from seat 0, adding 1 or 2 to a shared
pile (``add 1`` / ``add 2``); ``add 2`` is illegal when it would pass the target (TT-2). The game
ends when the pile reaches the target exactly. Score = the seat's secret card + the number of adds
it made, + 1 to the seat that reached the target when ``bonus`` is on (TT-3). Highest score wins;
ties share the win.

Options: ``target`` (int, 3..20, default 7), ``bonus`` (bool, default False), ``style`` (str,
"plain" or "fancy": how the table is drawn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from septet.core import CHANCE, TERMINAL, Event, Game, IllegalActionError, NotationError, State
from septet.core.errors import OptionError, RecordError
from septet.games import register

NAME = "test-tiny-sevens"


@dataclass(frozen=True)
class TinyOptions:
    target: int = field(default=7, metadata={"help": "pile total that ends the game"})
    bonus: bool = field(default=False, metadata={"help": "+1 for reaching the target"})
    style: str = field(default="plain", metadata={"help": "plain or fancy"})

    def __post_init__(self) -> None:
        if not isinstance(self.target, int) or not 3 <= self.target <= 20:
            raise OptionError(f"target must be an integer from 3 to 20, not {self.target!r}")
        if self.style not in ("plain", "fancy"):
            raise OptionError(f"style must be plain or fancy, not {self.style!r}")


@register
class TinySevens(Game[TinyOptions]):
    name = NAME
    titles = {"en": "Tiny sevens", "ja": "ちいさなセブンズ"}
    min_players = 2
    max_players = 4
    options_type = TinyOptions

    def new_state(self, num_players: int) -> TinyState:
        return TinyState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        return num_players + self.options.target

    def action_from_str(self, text: str) -> str:
        text = text.strip()
        if text in ("add 1", "add 2", "card 1", "card 2", "card 3"):
            return text
        raise NotationError(f"not a tiny-sevens action: {text!r} (try 'add 1' or 'add 2')")

    def num_distinct_actions(self, num_players: int) -> int:
        return 2

    def action_to_id(self, action: Any, num_players: int) -> int:
        if action not in ("add 1", "add 2"):
            raise ValueError(f"not a player action: {action!r}")
        return 0 if action == "add 1" else 1

    def id_to_action(self, action_id: int, num_players: int) -> Any:
        if action_id not in (0, 1):
            raise ValueError(f"action id out of range: {action_id}")
        return ("add 1", "add 2")[action_id]

    def render(self, view: Mapping[str, Any], lang: str = "en") -> str:
        head = "** TINY TABLE **" if self.options.style == "fancy" else "Tiny table"
        label = "山" if lang == "ja" else "Pile"
        lines = [head, f"{label}: {view['pile']}/{view['target']}"]
        for s, adds in enumerate(view["adds"]):
            card = view["cards"][s]
            lines.append(f"P{s}: adds {adds} card {'?' if card is None else card}")
        return "\n".join(lines)

    def describe_action(self, action: Any, lang: str = "en") -> str:
        n = str(action)[-1]
        if str(action).startswith("card"):
            return f"カード {n}" if lang == "ja" else f"a card {n}"
        return f"{n} を足す" if lang == "ja" else f"Add {n} to the pile"

    def describe_event(self, event: Event, lang: str = "en") -> str:
        # Seats are written P{n}, as every engine does (septet.core.text).
        if event.kind == "add":
            return f"P{event.seat} adds {event.data['amount']}"
        if event.kind == "dealt":
            return f"P{event.seat} is dealt card {event.data['card']}"
        return f"the pile reaches {event.data['pile']}: game over"

    def rules_text(self, lang: str = "en") -> str:
        if lang == "ja":
            return "# ちいさなセブンズ\n山に 1 か 2 を足す。ちょうど目標で終わり。"
        return "# Tiny sevens\nAdd 1 or 2 to the pile; the game ends on the target exactly (TT-2)."


class TinyState(State):
    game: TinySevens

    def __init__(self, game: TinySevens, num_players: int) -> None:
        super().__init__(game, num_players)
        self.cards: list[int] = []
        self.adds = [0] * num_players
        self.pile = 0
        self.turn = 0
        self.last = -1

    @property
    def current_player(self) -> int:
        if len(self.cards) < self.num_players:
            return CHANCE
        if self.pile >= self.game.options.target:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> list[Any]:
        if self.current_player < 0:
            return []
        acts = ["add 1"]
        if self.pile + 2 <= self.game.options.target:
            acts.append("add 2")
        return acts

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.current_player != CHANCE:
            return []
        return [(f"card {c}", 1 / 3) for c in (1, 2, 3)]

    def apply(self, action: Any) -> list[Event]:
        p = self.current_player
        if p == CHANCE:
            if action not in ("card 1", "card 2", "card 3"):
                raise IllegalActionError(f"{action} is not a chance outcome", rule="TT-1")
            seat = len(self.cards)
            self.cards.append(int(action[-1]))
            self.history.append(action)
            return [Event("dealt", seat, {"card": self.cards[-1]}, visible_to=frozenset({seat}))]
        if p == TERMINAL:
            raise IllegalActionError("the game is over")
        if action not in ("add 1", "add 2"):
            raise IllegalActionError(f"{action} is not a move", rule="TT-2")
        amount = int(action[-1])
        if self.pile + amount > self.game.options.target:
            raise IllegalActionError("that would pass the target", rule="TT-2")
        self.pile += amount
        self.adds[p] += 1
        self.last = p
        self.turn = (p + 1) % self.num_players
        self.history.append(action)
        events = [Event("add", p, {"amount": amount})]
        if self.pile == self.game.options.target:
            events.append(Event("end", None, {"pile": self.pile}))
        return events

    def check_action(self, action: Any) -> None:
        if self.current_player >= 0 and action == "add 2" and action not in self.legal_actions():
            raise IllegalActionError("that would pass the target", rule="TT-2")
        super().check_action(action)

    def view(self, seat: int | None) -> dict[str, Any]:
        done = self.is_terminal
        cards: list[int | None] = [
            c if (done or s == seat) else None for s, c in enumerate(self.cards)
        ]
        cards += [None] * (self.num_players - len(cards))
        return {
            "pile": self.pile,
            "target": self.game.options.target,
            "turn": self.turn,
            "adds": list(self.adds),
            "cards": cards,
            "seat": seat,
        }

    def determinize(self, seat: int, rng: random.Random) -> TinyState:
        st = self.clone()
        for s in range(len(st.cards)):
            if s != seat:
                st.cards[s] = rng.randint(1, 3)
        return st

    def scores(self) -> list[float]:
        out = []
        for s in range(self.num_players):
            card = self.cards[s] if s < len(self.cards) else 0
            bonus = 1 if (self.game.options.bonus and self.is_terminal and s == self.last) else 0
            out.append(float(card + self.adds[s] + bonus))
        return out

    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        sc = self.scores()
        best = max(sc)
        return [s for s, v in enumerate(sc) if v == best]

    def clone(self) -> TinyState:
        st = TinyState(self.game, self.num_players)
        st.load_state_dict(self.state_dict())
        st.history = list(self.history)
        return st

    def state_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "adds": list(self.adds),
            "pile": self.pile,
            "turn": self.turn,
            "last": self.last,
        }

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        try:
            self.cards = [int(c) for c in data["cards"]]
            self.adds = [int(a) for a in data["adds"]]
            self.pile = int(data["pile"])
            self.turn = int(data["turn"])
            self.last = int(data["last"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad tiny state: {exc}") from exc
