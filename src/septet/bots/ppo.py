"""``ppo``: a trained policy network (masked PPO, or distilled), played from its checkpoint.

The checkpoints shipped in ``septet/bots/data/ppo_<game>.npz`` were trained with
``python -m septet.envs.ppo_train`` (extra ``train``, PyTorch; Double Seven's) or distilled from
a stronger bot with ``python -m septet.envs.distill`` (behaviour cloning with DAgger, the same
network shape; Seven Shot's and Flip 7's, whose meta names the teacher); playing them needs only
NumPy: a small multilayer perceptron (tanh) over the seat's observation tensor, normalised by its
declared bounds, with the illegal actions masked out. It plays the player count and options it was
trained for (``AgentSpecError`` otherwise). See ``docs/rl.md`` for how it was trained and how it
ranks on the ladder.

Spec: ``ppo`` (the shipped checkpoint of the game), ``ppo:checkpoint=PATH``,
``ppo:sample=true`` (sample from the policy instead of taking its most likely action).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from septet.core.encoding import ChoiceSequence
from septet.core.game import Action, Game
from septet.core.types import JSON

CHECKPOINT_FORMAT = "septet-ppo"


def shipped_checkpoint(game_name: str) -> Path:
    """The path of the checkpoint shipped for ``game_name`` (it may not exist)."""
    ref = resources.files("septet.bots") / "data" / f"ppo_{game_name.replace('-', '_')}.npz"
    return Path(str(ref))


class PPOPolicy:
    """The network of a checkpoint: ``layers`` (weights, biases) with tanh between them; the
    last layer gives one logit per action (flat ids, or compact choices).

    Args:
        path: an ``.npz`` written by :func:`save_checkpoint`.

    Raises:
        ValueError: not a Septet PPO checkpoint, or a damaged one.
        OSError: the file cannot be read.
    """

    def __init__(self, path: str | Path) -> None:
        with np.load(path, allow_pickle=False) as data:
            try:
                meta = json.loads(str(data["meta"]))
                n_layers = int(meta["layers"])
                self.layers = [
                    (data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                    for i in range(n_layers)
                ]
            except (KeyError, ValueError, TypeError) as exc:
                raise ValueError(f"{path}: not a Septet PPO checkpoint ({exc})") from exc
        if meta.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path}: not a Septet PPO checkpoint")
        self.meta: dict[str, Any] = meta

    def logits(self, x: Any) -> Any:
        """Action logits for an observation vector (or a batch of them)."""
        h = np.asarray(x, np.float32)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.tanh(h)
        return h


def save_checkpoint(
    path: str | Path, layers: Sequence[tuple[Any, Any]], meta: dict[str, Any]
) -> Path:
    """Write a checkpoint: float32 weights ``w{i}`` (in x out) and biases ``b{i}``, and the JSON
    ``meta`` (game, options, num_players, actions, normalize, the encoding version...)."""
    arrays = {}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, np.float32)
        arrays[f"b{i}"] = np.asarray(b, np.float32)
    full = {**meta, "format": CHECKPOINT_FORMAT, "layers": len(layers)}
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    arrays["meta"] = np.asarray(json.dumps(full))
    np.savez_compressed(p, **arrays)  # type: ignore[arg-type]
    return p


class PPOAgent:
    """Plays a trained PPO policy from views (see the module docstring).

    Args:
        game: the game to play.
        checkpoint: a checkpoint path (default: the one shipped for the game).
        sample: ``"true"`` to sample actions from the policy, else its most likely action.

    Raises:
        ValueError: no checkpoint for the game, or one trained for other options.
    """

    def __init__(
        self, game: Game[Any], checkpoint: str | None = None, sample: str = "false"
    ) -> None:
        path = Path(checkpoint) if checkpoint else shipped_checkpoint(game.name)
        if not path.exists():
            raise ValueError(f"no PPO checkpoint for {game.name} (looked for {path})")
        self.policy = PPOPolicy(path)
        meta = self.policy.meta
        have = game.options_dict()
        # Options added after a checkpoint was trained (Flip 7 ``decks``, Double Seven's
        # ``empty_rack_clears``) are not in its meta: only the options it names must match.
        trained = meta.get("options") or {}
        if meta.get("game") != game.name or any(have.get(k) != v for k, v in trained.items()):
            raise ValueError(
                f"the checkpoint {path.name} was trained for {meta.get('game')} with options "
                f"{meta.get('options')}, not {game.name} with {game.options_dict()}"
            )
        self.game = game
        self.num_players = int(meta["num_players"])
        self.compact = meta.get("actions") == "compact"
        self.normalize = bool(meta.get("normalize"))
        self.sample = str(sample).lower() in ("1", "true", "yes", "on")
        self.encoding = game.action_encoding(self.num_players)
        if meta.get("action_encoding") != self.encoding.version:
            raise ValueError(
                f"the checkpoint {path.name} uses action encoding version "
                f"{meta.get('action_encoding')}, the game version {self.encoding.version}"
            )
        self.spec = game.observation_spec(self.num_players)
        self.name = "ppo"

    def _pick(self, x: list[float], allowed: Sequence[int], rng: random.Random) -> int:
        logits = self.policy.logits(x)
        z = np.full(logits.shape, -np.inf)
        z[list(allowed)] = logits[list(allowed)]
        if not self.sample:
            return int(np.argmax(z))
        p = np.exp(z - z.max())
        p /= p.sum()
        r, acc = rng.random(), 0.0
        for i in allowed:
            acc += float(p[i])
            if r < acc:
                return int(i)
        return int(allowed[-1])

    def act(
        self, view: Mapping[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The policy's choice among ``legal_actions``.

        Raises:
            ValueError: a view of another player count than the checkpoint's.
        """
        if int(view["num_players"]) != self.num_players:
            raise ValueError(
                f"this PPO policy plays {self.num_players} players, not {view['num_players']}"
            )
        obs = self.game.observation_from_view(view, rng)
        if self.normalize:
            obs = self.spec.normalize(obs)
        by_id = {self.encoding.id_of(a): a for a in legal_actions}
        if not self.compact:
            return by_id[self._pick(obs, sorted(by_id), rng)]
        seq = ChoiceSequence(self.encoding, by_id)
        while True:
            x = obs + self.encoding.choice_tensor(seq.prefix)
            done = seq.choose(self._pick(x, seq.options(), rng))
            if done is not None:
                return by_id[done]


__all__ = ["CHECKPOINT_FORMAT", "PPOAgent", "PPOPolicy", "save_checkpoint", "shipped_checkpoint"]
