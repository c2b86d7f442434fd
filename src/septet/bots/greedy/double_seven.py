"""A fast greedy Double Seven bot: scores each legal action by its immediate worth, from the view.

Heuristics (DS rule ids in brackets):

- draw [DS-4.1]: take a face-up clover, or a tile of an animal it has a family of or a pair
  toward one; otherwise draw face down. Always declares Rainbow [DS-4.3] (an extra tile).
- actions [DS-5]: a placed tile is a point, so it starts and expands families with all the
  animals it holds, keeping clovers for the move that reaches seven (Seven!, and the 77 token with
  a second 7 token) or for the last round; exchanges a family for one of the same size whose animal
  it holds more of [DS-5.4]; retrieves clovers [DS-5.5]; puts two stray tiles out for one new tile
  [DS-5.6]; passes when nothing is worth doing.
- end of turn [DS-6.2]: discards the tile it values least.

Takes well under a millisecond a move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from septet.core.types import JSON
from septet.games.double_seven import actions as A
from septet.games.double_seven.rules import earns_seven, takes_77_on_seven
from septet.games.double_seven.tiles import CLOVER, NAMES_EN, NUM_TYPES

_INDEX = {name: i for i, name in enumerate(NAMES_EN)}


def _counts(d: Any) -> list[int]:
    out = [0] * NUM_TYPES
    if d:
        for name, n in d.items():
            out[_INDEX[name]] = int(n)
    return out


class GreedyAgent:
    """Greedy Double Seven player (``greedy``). No parameters."""

    def __init__(self, game: Any = None, **params: str) -> None:
        if params:
            raise TypeError(f"greedy takes no parameters, got {', '.join(params)}")
        self.name = "greedy"

    def act(self, view: dict[str, JSON], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Choose the legal action with the best immediate value (ties: the first listed)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        ctx = _Context(view)
        best: Any = None
        best_v = float("-inf")
        for a in legal_actions:
            v = ctx.value(a)
            if v > best_v:
                best, best_v = a, v
        return best


class _Context:
    """What the bot reads off the view once per move, and the value of one action."""

    def __init__(self, view: dict[str, JSON]) -> None:
        v: Any = view
        me = int(v["seat"])
        self.me = me
        self.rack = _counts(v["rack"])
        mine = [
            (_INDEX[f["animal"]], int(f["animals"]), int(f["clovers"])) for f in v["families"][me]
        ]
        self.fam_animals = {f[0] for f in mine}
        self.endgame = v["end_triggered_by"] is not None
        self.sevens_left = int(v["sevens_left"])
        self.my_sevens = int(v["sevens"][me])
        self.holder77 = -1 if v["double_seven"] is None else int(v["double_seven"])
        # Keep clovers for a Seven! or the last round.
        self.clover_w = 1.0 if self.endgame else -0.3

    def keep(self, t: int) -> float:
        """How much a rack tile is worth keeping."""
        if t == CLOVER:
            return 5.0
        v = 0.0
        if t in self.fam_animals:
            v += 2.0
        if self.rack[t] >= 2:
            v += 1.0 + self.rack[t] * 0.5
        return v

    def seven_bonus(self, old: int, new: int) -> float:
        """DS-5.3 Seven!, and Double Seven! by the default ruling (the view does not carry the
        option; under "two_families" the 2.5 is an overestimate)."""
        if earns_seven(old, new, self.sevens_left):
            bonus = 1.5
            if takes_77_on_seven(self.my_sevens + 1, self.holder77):
                bonus += 2.5
            return bonus
        return 0.0

    def value(self, a: Any) -> float:
        """The immediate worth of action ``a`` (see the module docstring)."""
        cls = type(a)
        rack, me, endgame, clover_w = self.rack, self.me, self.endgame, self.clover_w
        keep, seven_bonus, fam_animals = self.keep, self.seven_bonus, self.fam_animals
        if cls is A.Pass:
            v = 0.0
        elif cls is A.Rainbow:
            v = 1.0 if a.declare else 0.0
        elif cls is A.Draw:
            v = 0.8
        elif cls is A.Take:
            t = a.tile
            if t == CLOVER:
                v = 3.0
            elif t in fam_animals:
                v = 2.0
            elif rack[t]:
                v = 1.5
            else:
                v = 0.3
        elif cls is A.Discard:
            v = -keep(a.tile)
        elif cls is A.Start:
            _, k, c = a.family
            v = k + clover_w * c - 0.5
            if k < rack[a.family[0]]:
                v -= 0.1 * (rack[a.family[0]] - k)
        elif cls is A.Expand:
            _, k0, c0 = a.family
            old = k0 + c0
            new = old + a.animals + a.clovers
            bonus = seven_bonus(old, new)
            w = 1.0 if bonus else clover_w
            v = a.animals + w * a.clovers + bonus
        elif cls is A.Exchange:
            f, g = a.family, a.other
            gain = rack[g[0]] - rack[f[0]]
            # a family of an animal I already hold twice cannot grow by a start later
            v = 0.9 * gain + 0.3 * (g[2] - f[2]) * (1 if rack[g[0]] else 0)
            if f[1] + f[2] >= 7:
                v -= 0.5  # keep what is already scored high and safe
            v -= 0.05
        elif cls is A.Retrieve:
            v = 1.2 if a.seat == me else 0.9
            if a.family[1] + a.family[2] <= 6 and rack[a.family[0]] == 1:
                v -= 0.2
        elif cls is A.TwoForOne:
            x, y = a.first, a.second
            stray = keep(x) + keep(y)
            v = 0.6 - stray if sum(rack) >= 3 and not endgame else -1.0
        else:
            v = 0.0
        return v


__all__ = ["GreedyAgent"]
