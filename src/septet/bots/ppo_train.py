"""Train the ``ppo`` baseline: masked PPO against fixed opponents (extra ``train``: PyTorch).

PPO with a clipped objective and generalised advantage estimation (Schulman et al. 2017,
"Proximal Policy Optimization Algorithms"; Schulman et al. 2016, "High-Dimensional Continuous
Control Using Generalized Advantage Estimation"), with invalid actions masked out of the policy
(Huang & Ontañón 2022, "A Closer Look at Invalid Action Masking in Policy Gradient
Algorithms"). The environment is :class:`septet.envs.gymnasium.SeptetEnv` (normalised
observations), the learner's seat drawn anew every game, the other seats played by the greedy
bots. Every ``--eval-every`` updates the greedy (most likely action) policy plays
``--eval-games`` games on fixed seeds against the same opponents: the learning curve.

    python -m septet.bots.ppo_train --game flip7 --minutes 20 --out results/ppo-flip7

writes ``ppo_<game>.npz`` (the checkpoint, playable by ``make_agent("ppo:checkpoint=...")``),
``ppo_<game>_best.npz`` (the policy of the best evaluation, to confirm with a longer match),
``ppo_<game>.json`` (settings and the learning curve) and ``ppo_<game>.png`` (the curve).
One process, ``torch.set_num_threads(1)`` by default.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        f"septet.bots.ppo_train needs the 'train' extra ({exc.name} is not installed): "
        "pip install 'septet[train]'",
        name=exc.name,
    ) from exc

from septet.bots.ppo import save_checkpoint
from septet.envs.gymnasium import SeptetEnv

#: Per game: the player count the shipped checkpoint plays, the action form (compact where the
#: flat space is huge), and the training reward (shaped: the points of each round, or the final
#: margin, scaled, plus a bonus for a win).
DEFAULTS: dict[str, dict[str, Any]] = {
    "flip7": {"num_players": 3, "actions": "flat", "reward": "round", "reward_scale": 0.01},
    "seven-shot": {"num_players": 3, "actions": "flat", "reward": "round", "reward_scale": 0.1},
    "double-seven": {
        "num_players": 2,
        "actions": "compact",
        "reward": "margin",
        "reward_scale": 0.02,
    },
}


@dataclass
class Settings:
    """Everything a run depends on (saved with its results)."""

    game: str = "flip7"
    num_players: int = 3
    options: dict[str, Any] = field(default_factory=dict)
    opponents: str = "greedy"
    actions: str = "flat"
    reward: str = "round"
    reward_scale: float = 0.01
    win_bonus: float = 1.0
    minutes: float = 20.0
    max_updates: int = 10_000
    num_envs: int = 8
    rollout: int = 128
    hidden: int = 128
    lr: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatches: int = 4
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    eval_every: int = 20
    eval_games: int = 200
    seed: int = 0
    threads: int = 1


class Net(nn.Module):
    """Two tanh layers, a policy head (one logit per action) and a value head."""

    def __init__(self, n_in: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.pi: nn.Linear = nn.Linear(hidden, n_actions)
        self.value: nn.Linear = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, x: Any, mask: Any) -> tuple[Any, Any]:
        h = self.body(x)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)

    def layers(self) -> list[tuple[Any, Any]]:
        """(weight as in x out, bias) of the policy path, for :func:`save_checkpoint`."""
        out = []
        linear: list[Any] = [self.body[0], self.body[2], self.pi]
        for lin in linear:
            out.append((lin.weight.detach().numpy().T.copy(), lin.bias.detach().numpy().copy()))
        return out


def make_env(s: Settings, seed_offset: int = 0) -> SeptetEnv:
    """The training environment of a run."""
    return SeptetEnv(
        s.game,
        s.num_players,
        opponents=s.opponents,
        reward=s.reward,
        normalize=True,
        actions=s.actions,
        illegal="raise",
        **s.options,
    )


def evaluate(net: Net, s: Settings, games: int, seed: int = 10_000) -> dict[str, float]:
    """Win rate (shared wins count) and mean final margin of the most-likely-action policy
    over ``games`` games on the seeds ``seed ..``, the learner's seat drawn by each seed."""
    env = make_env(s)
    env.reward_kind = "margin"
    wins, margin = 0.0, 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, r = False, 0.0
        while not done:
            with torch.no_grad():
                x = torch.as_tensor(obs["observation"]).unsqueeze(0)
                m = torch.as_tensor(obs["action_mask"], dtype=torch.bool).unsqueeze(0)
                logits, _ = net(x, m)
            obs, r, done, _, _ = env.step(int(logits.argmax()))
        wins += float(env.game_state.returns()[env.seat] > 0)
        margin += r
    return {"win_rate": wins / games, "margin": margin / games}


def train(s: Settings, out: Path, log: Any = print) -> dict[str, Any]:
    """Run PPO with settings ``s``; write the checkpoint, the curve (JSON) and its plot into
    ``out``; return the results."""
    torch.set_num_threads(s.threads)
    torch.manual_seed(s.seed)
    envs = [make_env(s) for _ in range(s.num_envs)]
    obs = [e.reset(seed=s.seed * 1000 + i)[0] for i, e in enumerate(envs)]
    n_in = obs[0]["observation"].shape[0]
    n_act = obs[0]["action_mask"].shape[0]
    net = Net(n_in, n_act, s.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=s.lr, eps=1e-5)
    T, N = s.rollout, s.num_envs
    curve: list[dict[str, float]] = []
    start = time.time()
    cpu0 = time.process_time()
    steps = 0
    games = 0
    recent: list[float] = []

    best: dict[str, Any] = {"win_rate": -1.0}

    def record_eval(update: int) -> None:
        ev = evaluate(net, s, s.eval_games)
        if ev["win_rate"] > best["win_rate"]:
            best.update(ev, layers=net.layers(), update=update, steps=steps)
        point = {
            "update": update,
            "steps": steps,
            "games": games,
            "minutes": (time.time() - start) / 60,
            "cpu_minutes": (time.process_time() - cpu0) / 60,
            "train_win_rate": float(np.mean(recent[-200:])) if recent else 0.0,
            **ev,
        }
        curve.append(point)
        log(
            f"update {update:5d}  steps {steps:9d}  games {games:7d}  "
            f"{point['minutes']:6.1f} min  eval win {ev['win_rate']:.3f}  "
            f"margin {ev['margin']:+.2f}  train win {point['train_win_rate']:.3f}"
        )

    record_eval(0)
    update = 0
    while update < s.max_updates and time.time() - start < s.minutes * 60:
        update += 1
        b_obs = np.zeros((T, N, n_in), np.float32)
        b_mask = np.zeros((T, N, n_act), bool)
        b_act = np.zeros((T, N), np.int64)
        b_logp = np.zeros((T, N), np.float32)
        b_val = np.zeros((T, N), np.float32)
        b_rew = np.zeros((T, N), np.float32)
        b_done = np.zeros((T, N), np.float32)
        for t in range(T):
            x = np.stack([o["observation"] for o in obs])
            m = np.stack([o["action_mask"] for o in obs]).astype(bool)
            with torch.no_grad():
                logits, v = net(torch.as_tensor(x), torch.as_tensor(m))
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()  # type: ignore[no-untyped-call]
                logp = dist.log_prob(a)  # type: ignore[no-untyped-call]
            b_obs[t], b_mask[t] = x, m
            b_act[t], b_logp[t], b_val[t] = a.numpy(), logp.numpy(), v.numpy()
            for i, e in enumerate(envs):
                o, r, term, _, _ = e.step(int(a[i]))
                r = r * s.reward_scale
                if term:
                    won = float(e.game_state.returns()[e.seat] > 0)
                    r += s.win_bonus * won
                    recent.append(won)
                    games += 1
                    o, _ = e.reset()
                b_rew[t, i], b_done[t, i] = r, float(term)
                obs[i] = o
            steps += N
        with torch.no_grad():
            x = np.stack([o["observation"] for o in obs])
            m = np.stack([o["action_mask"] for o in obs]).astype(bool)
            _, last_v = net(torch.as_tensor(x), torch.as_tensor(m))
        adv = np.zeros((T, N), np.float32)
        gae = np.zeros(N, np.float32)
        next_v = last_v.numpy()
        for t in reversed(range(T)):
            live = 1.0 - b_done[t]
            delta = b_rew[t] + s.gamma * next_v * live - b_val[t]
            gae = delta + s.gamma * s.gae_lambda * live * gae
            adv[t] = gae
            next_v = b_val[t]
        ret = adv + b_val
        f_obs = torch.as_tensor(b_obs.reshape(T * N, n_in))
        f_mask = torch.as_tensor(b_mask.reshape(T * N, n_act))
        f_act = torch.as_tensor(b_act.reshape(-1))
        f_logp = torch.as_tensor(b_logp.reshape(-1))
        f_adv = torch.as_tensor(adv.reshape(-1))
        f_ret = torch.as_tensor(ret.reshape(-1))
        size = T * N
        mb = size // s.minibatches
        for _ in range(s.epochs):
            perm = torch.randperm(size)
            for k in range(s.minibatches):
                idx = perm[k * mb : (k + 1) * mb]
                logits, v = net(f_obs[idx], f_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(f_act[idx])  # type: ignore[no-untyped-call]
                ratio = torch.exp(logp - f_logp[idx])
                a_n = f_adv[idx]
                a_n = (a_n - a_n.mean()) / (a_n.std() + 1e-8)
                pg = -torch.min(ratio * a_n, ratio.clamp(1 - s.clip, 1 + s.clip) * a_n).mean()
                vloss = 0.5 * ((v - f_ret[idx]) ** 2).mean()
                # Entropy over the legal actions only (masked logits give ~0 probability).
                ent = dist.entropy().mean()  # type: ignore[no-untyped-call]
                loss = pg + s.vf_coef * vloss - s.ent_coef * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), s.max_grad_norm)
                opt.step()
        if update % s.eval_every == 0:
            record_eval(update)
    if not curve or curve[-1]["update"] != update:
        record_eval(update)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"ppo_{s.game.replace('-', '_')}"
    env = envs[0]
    meta = {
        "game": s.game,
        "options": env.game.options_dict(),
        "num_players": s.num_players,
        "actions": s.actions,
        "normalize": True,
        "action_encoding": env.game.action_encoding(s.num_players).version,
        "opponents": s.opponents,
        "trained_steps": steps,
        "trained_games": games,
        "trained_minutes": round((time.time() - start) / 60, 1),
        "trained_cpu_minutes": round((time.process_time() - cpu0) / 60, 1),
        "final_eval": curve[-1],
    }
    save_checkpoint(out / f"{stem}.npz", net.layers(), meta)
    # The policy of the best evaluation too (PPO's win rate is not monotone): a candidate to
    # confirm with a longer match before shipping, since its evaluation picked it.
    best_meta = {
        **meta,
        "best_of_evaluations": {k: best[k] for k in ("update", "steps", "win_rate")},
    }
    save_checkpoint(out / f"{stem}_best.npz", best["layers"], best_meta)
    results = {"settings": asdict(s), "curve": curve, "meta": meta}
    (out / f"{stem}.json").write_text(json.dumps(results, indent=1))
    plot_curve(results, out / f"{stem}.png")
    return results


def plot_curve(results: dict[str, Any], path: Path) -> None:
    """The learning curve: evaluation win rate against training steps, with the fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = results["settings"]
    curve = results["curve"]
    xs = [p["steps"] for p in curve]
    ys = [p["win_rate"] for p in curve]
    games = curve[-1]["games"] if curve else 0
    half = [1.96 * math.sqrt(max(y * (1 - y), 1e-9) / s["eval_games"]) for y in ys]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=110)
    ax.plot(xs, ys, marker="o", ms=3, label="PPO (most likely action)")
    ax.fill_between(
        xs,
        [y - h for y, h in zip(ys, half, strict=True)],
        [y + h for y, h in zip(ys, half, strict=True)],
        alpha=0.2,
    )
    ax.axhline(1 / s["num_players"], color="grey", ls="--", label="fair share")
    ax.set_xlabel("learner steps")
    ax.set_ylabel(f"win rate vs {s['opponents']} ({s['eval_games']} games)")
    ax.set_title(
        f"{s['game']}, {s['num_players']} players: masked PPO, {games} training games, "
        f"{curve[-1]['minutes']:.0f} min"
        if curve
        else s["game"],
        fontsize=9,
    )
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m septet.bots.ppo_train --game flip7 --minutes 20 --out DIR``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="flip7", choices=sorted(DEFAULTS))
    p.add_argument("--out", default="results/ppo")
    types = {"int": int, "float": float, "str": str}
    for f in Settings.__dataclass_fields__.values():
        if f.name not in ("game", "options") and f.type in types:
            p.add_argument("--" + f.name.replace("_", "-"), type=types[str(f.type)], default=None)
    p.add_argument("--option", action="append", default=[], help="game option key=value")
    args = p.parse_args(argv)
    values: dict[str, Any] = {"game": args.game, **DEFAULTS[args.game]}
    for name in Settings.__dataclass_fields__:
        v = getattr(args, name, None)
        if v is not None and name != "game":
            values[name] = v
    values["options"] = dict(o.split("=", 1) for o in args.option)
    train(Settings(**values), Path(args.out), log=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
