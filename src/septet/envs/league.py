"""A league of past policies for self-play training (the ``train`` extra's trainer uses it).

Fictitious self-play in its simplest useful form (Heinrich, Lanctot and Silver 2015; the
league of AlphaStar, Vinyals et al. 2019, without its exploiters): every ``every`` updates the
trainer freezes its current policy as a checkpoint; at each new game a share of the training
environments draws its opponents uniformly from the last ``size`` frozen policies, the rest keep
the fixed opponents (``greedy``), so the learner neither forgets how to beat the fixed baseline
nor overfits to its latest self.

>>> from pathlib import Path
>>> import tempfile
>>> league = League(Path(tempfile.mkdtemp()), size=2, share=0.5, seed=0)
>>> league.members
[]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from septet.core.game import Game
from septet.core.play import Agent


class League:
    """Frozen past policies and the draw of opponents from them.

    Args:
        root: the folder where members are written (``league/member_{update:05d}.npz``).
        size: how many of the latest members are drawn from (older ones stay on disk).
        share: the share of training environments that play the league (0..1).
        seed: seeds the draws.

    Raises:
        ValueError: ``size`` below 1 or ``share`` outside [0, 1].
    """

    def __init__(self, root: Path, size: int, share: float, seed: int = 0) -> None:
        if size < 1 or not 0.0 <= share <= 1.0:
            raise ValueError(f"league size must be >= 1 and share in [0, 1], not {size}, {share}")
        self.root = Path(root)
        self.size = size
        self.share = share
        self.rng = random.Random(seed)
        self.members: list[Path] = []
        self._agents: dict[Path, Agent] = {}

    def add(self, layers: Sequence[tuple[Any, Any]], meta: dict[str, Any], update: int) -> Path:
        """Freeze a policy (its ``Net.layers()`` and checkpoint ``meta``) as a new member."""
        from septet.bots.ppo import save_checkpoint

        path = save_checkpoint(
            self.root / f"member_{update:05d}.npz", layers, {**meta, "league_update": update}
        )
        self.members.append(path)
        return path

    def plays_league(self, env_index: int, num_envs: int) -> bool:
        """Whether training environment ``env_index`` of ``num_envs`` draws league opponents."""
        return env_index < round(self.share * num_envs)

    def draw(self, game: Game[Any], seats: int) -> list[Agent] | None:
        """Opponents for one game: ``seats`` agents, each a member drawn uniformly from the
        latest ``size`` (sampling its policy), or ``None`` while the league is empty."""
        if not self.members:
            return None
        from septet.bots.ppo import PPOAgent

        recent = self.members[-self.size :]
        out: list[Agent] = []
        for _ in range(seats):
            path = self.rng.choice(recent)
            if path not in self._agents:
                self._agents[path] = PPOAgent(game, str(path), sample="true")
            out.append(self._agents[path])
        return out


__all__ = ["League"]
