"""A tiny hidden-card game on the core contract, with bugs that can be planted one at a time.

"Toy hi-lo": a deck of cards 1..6 (one each). Chance deals one hidden card to each seat. Then each
seat in turn plays once: ``keep``; ``redraw`` (discard the card face up, draw a new one from the
deck, at most once, a chance node); or ``double`` (only with a card of 4 or more). Score = card
value, doubled by ``double``. Highest score wins; ties share the win.

The option ``bugs`` plants defects that the shared test kit must catch (see BUGS).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from septet.core import CHANCE, TERMINAL, Event, Game, IllegalActionError, NotationError, State
from septet.core.errors import OptionError, RecordError
from septet.games import register

BUGS = {
    "leak_view": "view(seat) shows every hand",
    "missing_legal": "legal_actions() leaves out 'double'",
    "mutate_on_illegal": "apply changes the state before rejecting",
    "bad_probs": "chance probabilities use the wrong denominator",
    "shallow_clone": "clone shares the hands list",
    "lossy_json": "state_dict forgets who doubled",
    "bad_determinize": "determinize resamples the observer's own card too",
    "never_ends": "play never reaches the end",
    "wrong_winner": "winners() picks the lowest score",
    "duplicate_legal": "legal_actions() lists 'keep' twice",
    "bad_notation": "action_from_str('redraw') gives another action",
}

ACTIONS = ("keep", "redraw", "double")


@dataclass(frozen=True)
class ToyOptions:
    bugs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "bugs", tuple(self.bugs))
        unknown = set(self.bugs) - set(BUGS)
        if unknown:
            raise OptionError(f"unknown bugs {sorted(unknown)}")


@register
class ToyHiLo(Game[ToyOptions]):
    name = "toy-hilo"
    titles = {"en": "Toy hi-lo", "ja": "おもちゃのハイロー"}
    min_players = 2
    max_players = 4
    options_type = ToyOptions

    def bug(self, name: str) -> bool:
        return name in self.options.bugs

    def new_state(self, num_players: int) -> ToyState:
        return ToyState(self, num_players)

    def max_game_length(self, num_players: int) -> int:
        return 3 * num_players

    def action_from_str(self, text: str) -> str:
        if text == "redraw" and self.bug("bad_notation"):
            return "re-draw"
        if text in ACTIONS or (text.startswith("card ") and text[5:].isdigit()):
            return text
        raise NotationError(f"not a toy action: {text!r}")

    def num_distinct_actions(self, num_players: int) -> int:
        return len(ACTIONS)

    def action_to_id(self, action: Any, num_players: int) -> int:
        return ACTIONS.index(action)

    def id_to_action(self, action_id: int, num_players: int) -> Any:
        return ACTIONS[action_id]


class ToyState(State):
    game: ToyHiLo

    def __init__(self, game: ToyHiLo, num_players: int) -> None:
        super().__init__(game, num_players)
        self.deck = list(range(1, 7))
        self.hands: list[int] = []
        self.doubled = [False] * num_players
        self.discards: list[int] = []
        self.turn = 0
        self.redrawing = False

    @property
    def current_player(self) -> int:
        if len(self.hands) < self.num_players or self.redrawing:
            return CHANCE
        if self.turn >= self.num_players:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> list[Any]:
        p = self.current_player
        if p < 0:
            return []
        acts = ["keep"]
        if self.game.bug("duplicate_legal"):
            acts.append("keep")
        if self.deck:
            acts.append("redraw")
        if self.hands[p] >= 4 and not self.game.bug("missing_legal"):
            acts.append("double")
        return acts

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.current_player != CHANCE:
            return []
        n = len(self.deck) + (1 if self.game.bug("bad_probs") else 0)
        return [(f"card {c}", 1.0 / n) for c in self.deck]

    def apply(self, action: Any) -> list[Event]:
        p = self.current_player
        if p == CHANCE:
            if not (isinstance(action, str) and action.startswith("card ")):
                raise IllegalActionError(f"{action} is not a chance outcome", rule="TOY-1")
            card = int(action[5:])
            if card not in self.deck:
                raise IllegalActionError(f"card {card} is not in the deck", rule="TOY-1")
            self.deck.remove(card)
            if self.redrawing:
                self.hands[self.turn] = card
                self.redrawing = False
                self.turn += 1
                if self.game.bug("never_ends"):
                    self.turn %= self.num_players
            else:
                self.hands.append(card)
            self.history.append(action)
            return [Event("deal", len(self.hands) - 1, {}, visible_to=frozenset({p}))]
        if p == TERMINAL:
            raise IllegalActionError("the game is over")
        if self.game.bug("mutate_on_illegal"):
            self.turn += 1
            self.turn -= 1
            self.doubled[p] = self.doubled[p] or action == "double"
        if action == "double" and self.hands[p] < 4:
            raise IllegalActionError("double needs a card of 4 or more", rule="TOY-2")
        if action == "redraw" and not self.deck:
            raise IllegalActionError("the deck is empty", rule="TOY-3")
        if action not in ACTIONS:
            raise IllegalActionError(f"{action} is not an action")
        if action == "keep":
            self.turn += 1
        elif action == "double":
            self.doubled[p] = True
            self.turn += 1
        else:
            self.discards.append(self.hands[p])
            self.redrawing = True
        if self.game.bug("never_ends"):
            self.turn %= self.num_players
        self.history.append(action)
        return [Event(str(action), p)]

    def view(self, seat: int | None) -> dict[str, Any]:
        hands: list[int | None] = [None] * self.num_players
        if seat is not None and seat < len(self.hands):
            hands[seat] = self.hands[seat]
        if self.game.bug("leak_view"):
            hands = list(self.hands) + [None] * (self.num_players - len(self.hands))
        return {
            "hands": hands,
            "doubled": list(self.doubled),
            "discards": list(self.discards),
            "turn": self.turn,
            "deck_size": len(self.deck),
            "to_move": self.current_player,
        }

    def determinize(self, seat: int, rng: random.Random) -> ToyState:
        det = self.clone()
        keep = set() if self.game.bug("bad_determinize") else {seat}
        pool = list(self.deck) + [c for s, c in enumerate(self.hands) if s not in keep]
        rng.shuffle(pool)
        for s in range(len(self.hands)):
            if s not in keep:
                det.hands[s] = pool.pop()
        det.deck = sorted(pool)
        return det

    def scores(self) -> list[float]:
        return [
            float(c * (2 if d else 1)) for c, d in zip(self.hands, self.doubled, strict=False)
        ] + [0.0] * (self.num_players - len(self.hands))

    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        sc = self.scores()
        best = min(sc) if self.game.bug("wrong_winner") else max(sc)
        return [s for s in range(self.num_players) if sc[s] == best]

    def clone(self) -> ToyState:
        c = ToyState(self.game, self.num_players)
        c.deck = list(self.deck)
        c.hands = self.hands if self.game.bug("shallow_clone") else list(self.hands)
        c.doubled = list(self.doubled)
        c.discards = list(self.discards)
        c.turn = self.turn
        c.redrawing = self.redrawing
        c.history = list(self.history)
        return c

    def state_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "deck": list(self.deck),
            "hands": list(self.hands),
            "discards": list(self.discards),
            "turn": self.turn,
            "redrawing": self.redrawing,
        }
        if not self.game.bug("lossy_json"):
            d["doubled"] = list(self.doubled)
        return d

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        try:
            self.deck = [int(x) for x in data["deck"]]
            self.hands = [int(x) for x in data["hands"]]
            self.discards = [int(x) for x in data["discards"]]
            self.turn = int(data["turn"])
            self.redrawing = bool(data["redrawing"])
            self.doubled = [bool(x) for x in data.get("doubled", [False] * self.num_players)]
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad toy state: {exc}") from exc
