"""Distil a search bot into the ``ppo`` network: behaviour cloning with DAgger (extra ``train``).

PPO from scratch against the greedy bots stays below greedy in Flip 7 and Seven Shot
(docs/rl.md). A stronger start is to imitate a teacher that already beats greedy, the way
AlphaGo's policy network was first trained on expert moves (Silver et al. 2016) and AlphaStar's
agents on human games (Vinyals et al. 2019): supervised learning of the teacher's choice from the
learner's own observation tensor, with the illegal actions masked out of the softmax. Plain
cloning only sees the states the teacher reaches; DAgger (Ross, Gordon & Bagnell 2011, "A
Reduction of Imitation Learning and Structured Prediction to No-Regret Online Learning")
adds the states the *learner* reaches, labelled by the teacher, and trains again on the union.

    python -m septet.envs.distill --game seven-shot \\
        --teacher "ismcts:iterations=200,rollout=greedy,horizon=round" --games 1500 \\
        --dagger 2 --dagger-games 600 --workers 2 --out results/distill-ss

Each round's games are played on seeds of their own (``derive_rng(seed, "distill", round,
game, ...)``); a game of round 0 seats the teacher everywhere, a DAgger game seats the learner
at one seat (drawn by the seed) against the ``--opponents`` (greedy by default) and records the
teacher's choice at each of the learner's decisions while the learner's move is played.

Writes ``ppo_<game>.npz`` (a checkpoint ``make_agent("ppo:checkpoint=PATH")`` plays; its meta
names the teacher and the data), ``ppo_<game>_distill.json`` (settings, data sizes, each
round's loss, the teacher's agreement and the learner's evaluation against the opponents).
Games with flat actions only (Flip 7, Seven Shot); Double Seven's compact actions are refused.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        f"septet.envs.distill needs the 'train' extra ({exc.name} is not installed): "
        "pip install 'septet[train]'",
        name=exc.name,
    ) from exc

from septet.bots.ppo import PPOPolicy, save_checkpoint
from septet.core.play import choose_action
from septet.core.rng import derive_rng
from septet.core.types import CHANCE
from septet.envs._common import legal_ids, resolve_game
from septet.envs.ppo_train import Net, add_settings_arguments, settings_values


@dataclass
class DistillSettings:
    """Everything a distillation run depends on (saved with its results)."""

    game: str = "seven-shot"
    num_players: int = 3
    options: dict[str, Any] = field(default_factory=dict)
    teacher: str = "ismcts:iterations=200,rollout=greedy,horizon=round"
    opponents: str = "greedy"
    games: int = 1000  # round 0: teacher self-play games
    dagger: int = 2  # DAgger rounds after round 0
    dagger_games: int = 500  # games per DAgger round (learner at one seat)
    hidden: int = 256
    epochs: int = 8
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-5
    eval_games: int = 300
    workers: int = 1
    seed: int = 0
    threads: int = 1


@dataclass
class Decisions:
    """Labelled decisions: ``x`` float32[N, obs] (normalised by the observation spec),
    ``mask`` bool[N, actions] (legal flat ids), ``action`` int64[N] (the teacher's flat id)."""

    x: Any
    mask: Any
    action: Any

    @staticmethod
    def join(parts: Sequence[Decisions]) -> Decisions:
        """The decisions of ``parts`` one after the other."""
        return Decisions(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.mask for p in parts]),
            np.concatenate([p.action for p in parts]),
        )

    def __len__(self) -> int:
        return int(self.action.shape[0])


def _learner_pick(policy: PPOPolicy, x: Any, mask: Any) -> int:
    logits = policy.logits(x)
    return int(np.argmax(np.where(mask, logits, -np.inf)))


def play_and_label(
    s: DistillSettings, round_index: int, games: Sequence[int], learner: str | None
) -> Decisions:
    """Play the games ``games`` of round ``round_index`` and return the teacher's labels.

    With ``learner`` (a checkpoint path) the learner plays one seat, drawn by the game's seed,
    against ``s.opponents``; the teacher labels the learner's decisions only. Without it the
    teacher plays every seat and every decision is kept.
    """
    from septet.bots import make_agent

    g = resolve_game(s.game, s.options)
    n = s.num_players
    spec = g.observation_spec(n)
    low = np.asarray(spec.low, np.float64)
    spread = np.asarray(spec.high, np.float64) - low
    inv = np.divide(1.0, spread, out=np.zeros_like(spread), where=spread > 0)
    size = g.num_distinct_actions(n)
    teacher = make_agent(s.teacher, g)
    policy = PPOPolicy(learner) if learner else None
    xs: list[Any] = []
    masks: list[Any] = []
    acts: list[int] = []
    for game_index in games:
        key = (s.seed, "distill", round_index, game_index)
        chance = derive_rng(*key, "chance")
        rngs = [derive_rng(*key, "seat", i) for i in range(n)]
        learner_seat = derive_rng(*key, "learner").randrange(n) if policy is not None else -1
        others = [make_agent(s.opponents, g) for _ in range(n)] if policy is not None else []
        state = g.new_state(n)
        while not state.is_terminal:
            p = state.current_player
            if p == CHANCE:
                state.apply(state.sample_chance(chance))
                continue
            if policy is not None and p != learner_seat:
                state.apply(choose_action(others[p], state, rngs[p]))
                continue
            legal = legal_ids(state)
            mask = np.zeros(size, bool)
            mask[list(legal)] = True
            x = ((np.asarray(state.observation_tensor(p), np.float64) - low) * inv).astype(
                np.float32
            )
            label = g.action_to_id(choose_action(teacher, state, rngs[p]), n)
            xs.append(x)
            masks.append(mask)
            acts.append(label)
            if policy is not None:
                state.apply(legal[_learner_pick(policy, x, mask)])
            else:
                state.apply(legal[label])
    return Decisions(np.stack(xs), np.stack(masks), np.asarray(acts, np.int64))


def _play_chunk(args: tuple[DistillSettings, int, list[int], str | None]) -> Decisions:
    return play_and_label(*args)


def gather(s: DistillSettings, round_index: int, games: int, learner: str | None) -> Decisions:
    """:func:`play_and_label` of ``games`` games of a round, on ``s.workers`` processes."""
    ids = list(range(games))
    if s.workers <= 1:
        return play_and_label(s, round_index, ids, learner)
    chunks = [ids[i :: s.workers * 4] for i in range(s.workers * 4)]
    with ProcessPoolExecutor(s.workers) as pool:
        parts = list(pool.map(_play_chunk, [(s, round_index, c, learner) for c in chunks if c]))
    return Decisions.join(parts)


def fit(net: Net, data: Decisions, s: DistillSettings, log: Any = print) -> dict[str, float]:
    """Train ``net``'s policy on ``data`` by masked cross-entropy (``s.epochs`` passes of
    minibatches of ``s.batch``, Adam); return the last epoch's loss and the share of decisions
    where the network's most likely legal action is the teacher's (held-out tenth)."""
    gen = torch.Generator().manual_seed(s.seed)
    n = len(data)
    order = torch.randperm(n, generator=gen)
    cut = max(1, n // 10)
    held, train = order[:cut], order[cut:]
    x = torch.as_tensor(data.x)
    m = torch.as_tensor(data.mask)
    a = torch.as_tensor(data.action)
    opt = torch.optim.AdamW(net.parameters(), lr=s.lr, weight_decay=s.weight_decay)
    loss_value = 0.0
    for epoch in range(s.epochs):
        for group in opt.param_groups:
            group["lr"] = s.lr * (1 - epoch / s.epochs) + s.lr * 0.05 * epoch / s.epochs
        perm = train[torch.randperm(len(train), generator=gen)]
        total, batches = 0.0, 0
        for i in range(0, len(perm), s.batch):
            idx = perm[i : i + s.batch]
            logits, _ = net(x[idx], m[idx])
            loss = torch.nn.functional.cross_entropy(logits, a[idx])
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total, batches = total + loss.item(), batches + 1
        loss_value = total / max(batches, 1)
        log(f"  epoch {epoch + 1}/{s.epochs}  loss {loss_value:.4f}")
    with torch.no_grad():
        logits, _ = net(x[held], m[held])
        agree = float((logits.argmax(-1) == a[held]).float().mean())
    return {"loss": loss_value, "agreement": agree}


def evaluate_share(path: Path, s: DistillSettings, games: int) -> dict[str, float]:
    """The checkpoint at ``path`` against ``s.opponents`` in duplicate deals, every seating
    (:func:`septet.arena.ladder.run_pairing`, seed ``s.seed + 7``): its share of the wins with
    the 95% interval and the fair share."""
    from septet.arena.ladder import run_pairing

    res = run_pairing(
        s.game,
        s.num_players,
        f"ppo:checkpoint={path}",
        s.opponents,
        games,
        seed=s.seed + 7,
        jobs=s.workers,
        options=s.options,
        duplicate=True,
    )
    return {
        "games": res.games,
        "share": res.share,
        "low": res.low,
        "high": res.high,
        "fair": res.fair,
    }


def _meta(s: DistillSettings, g: Any, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game": s.game,
        "options": g.options_dict(),
        "num_players": s.num_players,
        "actions": "flat",
        "normalize": True,
        "action_encoding": g.action_encoding(s.num_players).version,
        "opponents": s.opponents,
        "distilled_from": s.teacher,
        "trained_decisions": int(sum(r["decisions_total"] for r in rounds[-1:])),
        "dagger_rounds": len(rounds) - 1,
    }


def distill(s: DistillSettings, out: Path, log: Any = print) -> dict[str, Any]:
    """Run round 0 (teacher self-play) and ``s.dagger`` DAgger rounds; after each, train a
    fresh network on all the decisions so far and write the checkpoint; return the results.

    Raises:
        ValueError: a game whose checkpoints use compact actions (Double Seven).
    """
    from septet.envs.ppo_train import DEFAULTS

    if DEFAULTS.get(s.game, {}).get("actions", "flat") != "flat":
        raise ValueError(f"{s.game} plays compact actions: distillation covers flat ones only")
    torch.set_num_threads(s.threads)
    torch.manual_seed(s.seed)
    g = resolve_game(s.game, s.options)
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / f"ppo_{s.game.replace('-', '_')}.npz"
    start, cpu0 = time.time(), time.process_time()
    data: list[Decisions] = []
    rounds: list[dict[str, Any]] = []
    for r in range(s.dagger + 1):
        t0 = time.time()
        learner = str(ckpt) if r > 0 else None
        games = s.games if r == 0 else s.dagger_games
        data.append(gather(s, r, games, learner))
        played = time.time() - t0
        union = Decisions.join(data)
        log(f"round {r}: {len(data[-1])} decisions in {played:.0f} s, {len(union)} in all")
        net = Net(union.x.shape[1], union.mask.shape[1], s.hidden)
        fitted = fit(net, union, s, log)
        info: dict[str, Any] = {
            "round": r,
            "games": games,
            "decisions": len(data[-1]),
            "decisions_total": len(union),
            "play_seconds": round(played, 1),
            **fitted,
        }
        rounds.append(info)
        save_checkpoint(ckpt, net.layers(), _meta(s, g, rounds))
        if s.eval_games:
            info["eval"] = evaluate_share(ckpt, s, s.eval_games)
            log(f"round {r}: vs {s.opponents} {info['eval']}")
    results = {
        "settings": asdict(s),
        "rounds": rounds,
        "minutes": round((time.time() - start) / 60, 1),
        "cpu_minutes_main": round((time.process_time() - cpu0) / 60, 1),
    }
    (out / f"ppo_{s.game.replace('-', '_')}_distill.json").write_text(json.dumps(results, indent=1))
    return results


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m septet.envs.distill --game seven-shot --out DIR``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="seven-shot", choices=["flip7", "seven-shot"])
    p.add_argument("--out", default="results/distill")
    add_settings_arguments(p, DistillSettings, ("game", "options"))
    args = p.parse_args(argv)
    values = settings_values(args, DistillSettings, {"game": args.game})
    distill(DistillSettings(**values), Path(args.out), log=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
