"""Who sits where in game ``i`` of a simulation, and with which seed.

Both depend only on the schedule and ``i``, never on which worker plays the game or when, so a
simulation gives the same results whatever the number of workers or the backend.

Seating (``m`` agents, ``k`` seats):

- ``m == k``: every agent plays every game. Games come in blocks of ``k``; within a block the
  seats rotate (each agent sits once in each seat), and successive blocks use the ``(k - 1)!``
  cyclic orders of the agents (for ``k <= 5``), so over ``k!`` games every seating happens once:
  each agent also has every other agent before and after it equally often.
- ``m > k``: blocks cycle through the ``C(m, k)`` groups of agents (in lexicographic order), each
  seated as above.
- ``m < k``: the agents are repeated in order to fill the seats (``A,B`` for four seats plays
  ``A,B,A,B``), then rotated as above.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from septet.core.rng import derive_rng

MAX_PERMUTED_SEATS = 5
"""Up to this many seats the cyclic orders are varied between blocks; beyond, only rotations."""


@dataclass(frozen=True)
class Schedule:
    """A simulation's plan: agents (specs), seats per game, number of games, master seed.

    Attributes:
        agents: agent specs in the order given (``"greedy"``, ``"ismcts:time=1"``); the same
            spec may appear several times (each entry is a separate competitor).
        num_players: seats per game (``k``).
        num_games: games to play.
        seed: master seed; game ``i``'s seed is derived from ``(seed, i)``.

    Raises:
        ValueError: no agents, fewer than 1 seat, or a negative number of games.
    """

    agents: tuple[str, ...]
    num_players: int
    num_games: int
    seed: int = 0
    _groups: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _orders: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a schedule needs at least one agent")
        if self.num_players < 1:
            raise ValueError("a game needs at least one seat")
        if self.num_games < 0:
            raise ValueError("the number of games cannot be negative")
        m, k = len(self.agents), self.num_players
        if m > k:
            groups = tuple(itertools.combinations(range(m), k))
        else:
            groups = (tuple(j % m for j in range(k)),)
        orders = []
        for group in groups:
            if k <= MAX_PERMUTED_SEATS:
                seen: dict[tuple[int, ...], None] = {}
                for rest in itertools.permutations(group[1:]):
                    seen[(group[0], *rest)] = None
                orders.append(tuple(seen))
            else:
                orders.append((group,))
        object.__setattr__(self, "_groups", groups)
        object.__setattr__(self, "_orders", tuple(orders))

    @property
    def cycle(self) -> int:
        """Games after which the seating pattern repeats (every seating used equally)."""
        return self.num_players * len(self._groups) * math.lcm(*(len(o) for o in self._orders))

    def seating(self, index: int) -> tuple[int, ...]:
        """Agent index (into ``agents``) for each seat of game ``index``.

        Example: agents ``A,B`` (``k = 2``): games 0, 1, 2 seat ``(0, 1)``, ``(1, 0)``,
        ``(0, 1)``.
        """
        k = self.num_players
        block, rotation = divmod(index, k)
        g = block % len(self._groups)
        orders = self._orders[g]
        base = orders[(block // len(self._groups)) % len(orders)]
        return tuple(base[(s + rotation) % k] for s in range(k))

    def game_seed(self, index: int) -> int:
        """The seed of game ``index``: a 62-bit integer drawn from the stream
        ``derive_rng(seed, "arena-game", index)``."""
        return derive_rng(self.seed, "arena-game", index).getrandbits(62)

    def labels(self) -> list[str]:
        """A unique display label per agent: the spec, with ``#1``, ``#2`` ... when a spec
        appears more than once."""
        counts: dict[str, int] = {}
        for spec in self.agents:
            counts[spec] = counts.get(spec, 0) + 1
        seen: dict[str, int] = {}
        out = []
        for spec in self.agents:
            if counts[spec] == 1:
                out.append(spec)
            else:
                seen[spec] = seen.get(spec, 0) + 1
                out.append(f"{spec}#{seen[spec]}")
        return out


__all__ = ["Schedule"]
