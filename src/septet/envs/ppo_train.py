"""Train the ``ppo`` baseline: masked PPO against fixed opponents (extra ``train``: PyTorch).

PPO with a clipped objective and generalised advantage estimation (Schulman et al. 2017,
"Proximal Policy Optimization Algorithms"; Schulman et al. 2016, "High-Dimensional Continuous
Control Using Generalized Advantage Estimation"), with invalid actions masked out of the policy
(Huang & Ontañón 2022, "A Closer Look at Invalid Action Masking in Policy Gradient
Algorithms"). The environment is :class:`septet.envs.gymnasium.SeptetEnv` (normalised
observations), the learner's seat drawn anew every game, the other seats played by the greedy
bots. Every ``--eval-every`` updates the greedy (most likely action) policy plays
``--eval-games`` games on fixed seeds against the same opponents: the learning curve.

    python -m septet.envs.ppo_train --game flip7 --minutes 20 --out results/ppo-flip7

A run stops at the first of its budgets: ``--minutes`` of wall clock, ``--cpu-minutes`` of this
process's CPU time (when set; the fair measure on a shared machine) and ``--max-updates``.
``--anneal-lr 1`` lowers the learning rate linearly with the budget spent (to 5% of ``--lr``);
``--init PATH`` starts the policy from a checkpoint of the same shape (a shipped one, to train
it further; the value head starts fresh).

Self-play (``--league N``): every ``--league-every`` updates the current policy is frozen into
``<out>/league/``; a share ``--league-share`` of the training environments then draws its
opponents from the last N frozen policies at each new game (:mod:`septet.envs.league`), the
others keep the fixed opponents; evaluation is always against the fixed opponents.

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
        f"septet.envs.ppo_train needs the 'train' extra ({exc.name} is not installed): "
        "pip install 'septet[train]'",
        name=exc.name,
    ) from exc

from septet.bots.ppo import save_checkpoint
from septet.envs.gymnasium import SeptetEnv
from septet.envs.league import League

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
    cpu_minutes: float = 0.0  # 0: no CPU-time budget
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
    anneal_lr: int = 0  # 1: the learning rate falls linearly with the budget spent
    init: str = ""  # a checkpoint to start the policy from
    league: int = 0  # self-play: draw league opponents from the last N frozen policies (0: off)
    league_every: int = 20  # updates between two frozen policies
    league_share: float = 0.5  # share of the training environments that play the league


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


def _budget_used(s: Settings, update: int, start: float, cpu0: float) -> float:
    """The share of the run's budget spent (1 or more: stop): the largest of wall clock over
    ``minutes``, CPU time over ``cpu_minutes`` (when set) and updates over ``max_updates``."""
    by_updates = 1.0 if update >= s.max_updates else update / s.max_updates
    used = max((time.time() - start) / (s.minutes * 60), by_updates)
    if s.cpu_minutes > 0:
        used = max(used, (time.process_time() - cpu0) / (s.cpu_minutes * 60))
    return used


def load_init(net: Net, path: str) -> None:
    """Start ``net``'s policy path (body and policy head) from a checkpoint written by
    :func:`save_checkpoint` (the value head starts fresh).

    Raises:
        ValueError: the checkpoint's layer shapes differ from ``net``'s.
    """
    from septet.bots.ppo import PPOPolicy

    layers = PPOPolicy(path).layers
    targets: list[Any] = [net.body[0], net.body[2], net.pi]
    if len(layers) != len(targets):
        raise ValueError(f"{path}: {len(layers)} layers, the network has {len(targets)}")
    with torch.no_grad():
        for lin, (w, b) in zip(targets, layers, strict=True):
            if tuple(lin.weight.shape) != (w.shape[1], w.shape[0]):
                raise ValueError(
                    f"{path}: a layer of shape {w.shape}, the network's is "
                    f"{tuple(lin.weight.T.shape)}"
                )
            lin.weight.copy_(torch.as_tensor(w.T))
            lin.bias.copy_(torch.as_tensor(b))


class _Rollout:
    """One update's worth of experience: ``T`` steps of ``N`` environments."""

    def __init__(self, T: int, N: int, n_in: int, n_act: int) -> None:
        self.obs = np.zeros((T, N, n_in), np.float32)
        self.mask = np.zeros((T, N, n_act), bool)
        self.act = np.zeros((T, N), np.int64)
        self.logp = np.zeros((T, N), np.float32)
        self.val = np.zeros((T, N), np.float32)
        self.rew = np.zeros((T, N), np.float32)
        self.done = np.zeros((T, N), np.float32)


def _batch(obs: list[dict[str, Any]]) -> tuple[Any, Any]:
    x = np.stack([o["observation"] for o in obs])
    m = np.stack([o["action_mask"] for o in obs]).astype(bool)
    return x, m


def _collect(
    net: Net,
    envs: list[SeptetEnv],
    obs: list[dict[str, Any]],
    s: Settings,
    buf: _Rollout,
    league: _LeagueSeats | None = None,
) -> list[float]:
    """Play ``rollout`` steps in every environment (sampling the policy), filling ``buf`` and
    updating ``obs`` in place; return the learner's results (1 win, 0 not) of the games that
    ended (against the fixed opponents only, when a league is on)."""
    ended: list[float] = []
    for t in range(buf.obs.shape[0]):
        x, m = _batch(obs)
        with torch.no_grad():
            logits, v = net(torch.as_tensor(x), torch.as_tensor(m))
            dist = torch.distributions.Categorical(logits=logits)
            a = dist.sample()  # type: ignore[no-untyped-call]
            logp = dist.log_prob(a)  # type: ignore[no-untyped-call]
        buf.obs[t], buf.mask[t] = x, m
        buf.act[t], buf.logp[t], buf.val[t] = a.numpy(), logp.numpy(), v.numpy()
        for i, e in enumerate(envs):
            o, r, term, _, _ = e.step(int(a[i]))
            r = r * s.reward_scale
            if term:
                won = float(e.game_state.returns()[e.seat] > 0)
                r += s.win_bonus * won
                if league is None or not league.in_league[i]:
                    ended.append(won)
                if league is not None:
                    league.reseat(i, e)
                o, _ = e.reset()
            buf.rew[t, i], buf.done[t, i] = r, float(term)
            obs[i] = o
    return ended


class _LeagueSeats:
    """Which training environments play the league, and their fixed opponents to fall back on
    (:class:`septet.envs.league.League`)."""

    def __init__(self, league: League, envs: list[SeptetEnv]) -> None:
        self.league = league
        self.fixed = [list(e.opponents) for e in envs]
        self.in_league = [False] * len(envs)
        self.chosen = [league.plays_league(i, len(envs)) for i in range(len(envs))]

    def reseat(self, i: int, env: SeptetEnv) -> None:
        """Before env ``i``'s next game: league opponents if it plays the league and the
        league has members, else its fixed ones."""
        drawn = self.league.draw(env.game, env.num_players - 1) if self.chosen[i] else None
        env.opponents = drawn if drawn is not None else list(self.fixed[i])
        self.in_league[i] = drawn is not None


def _advantages(buf: _Rollout, last_v: Any, s: Settings) -> tuple[Any, Any]:
    """Generalised advantage estimates and the value targets (arrays ``T x N``)."""
    T, N = buf.rew.shape
    adv = np.zeros((T, N), np.float32)
    gae = np.zeros(N, np.float32)
    next_v = last_v
    for t in reversed(range(T)):
        live = 1.0 - buf.done[t]
        delta = buf.rew[t] + s.gamma * next_v * live - buf.val[t]
        gae = delta + s.gamma * s.gae_lambda * live * gae
        adv[t] = gae
        next_v = buf.val[t]
    return adv, adv + buf.val


def _optimise(net: Net, opt: Any, buf: _Rollout, adv: Any, ret: Any, s: Settings) -> None:
    """``epochs`` passes of the clipped PPO loss over ``buf`` in ``minibatches``."""
    T, N, n_in = buf.obs.shape
    size = T * N
    f_obs = torch.as_tensor(buf.obs.reshape(size, n_in))
    f_mask = torch.as_tensor(buf.mask.reshape(size, -1))
    f_act = torch.as_tensor(buf.act.reshape(-1))
    f_logp = torch.as_tensor(buf.logp.reshape(-1))
    f_adv = torch.as_tensor(adv.reshape(-1))
    f_ret = torch.as_tensor(ret.reshape(-1))
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


class _Progress:
    """The learning curve of a run, its counters and the best evaluation so far."""

    def __init__(self, s: Settings, log: Any) -> None:
        self.s, self.log = s, log
        self.start, self.cpu0 = time.time(), time.process_time()
        self.steps = self.games = 0
        self.recent: list[float] = []
        self.curve: list[dict[str, float]] = []
        self.best: dict[str, Any] = {"win_rate": -1.0}

    def evaluate(self, net: Net, update: int) -> None:
        ev = evaluate(net, self.s, self.s.eval_games)
        if ev["win_rate"] > self.best["win_rate"]:
            self.best.update(ev, layers=net.layers(), update=update, steps=self.steps)
        point = {
            "update": update,
            "steps": self.steps,
            "games": self.games,
            "minutes": (time.time() - self.start) / 60,
            "cpu_minutes": (time.process_time() - self.cpu0) / 60,
            "train_win_rate": float(np.mean(self.recent[-200:])) if self.recent else 0.0,
            **ev,
        }
        self.curve.append(point)
        self.log(
            f"update {update:5d}  steps {self.steps:9d}  games {self.games:7d}  "
            f"{point['minutes']:6.1f} min  {point['cpu_minutes']:6.1f} cpu-min  "
            f"eval win {ev['win_rate']:.3f}  margin {ev['margin']:+.2f}  "
            f"train win {point['train_win_rate']:.3f}"
        )


def train(s: Settings, out: Path, log: Any = print) -> dict[str, Any]:
    """Run PPO with settings ``s`` until its budget is spent (``minutes`` of wall clock,
    ``cpu_minutes`` of CPU time when set, ``max_updates``); write the checkpoint, the
    best-evaluation checkpoint, the curve (JSON) and its plot into ``out``; return the results.

    Raises:
        ValueError: ``init`` names a checkpoint of another shape.
    """
    torch.set_num_threads(s.threads)
    torch.manual_seed(s.seed)
    envs = [make_env(s) for _ in range(s.num_envs)]
    obs = [e.reset(seed=s.seed * 1000 + i)[0] for i, e in enumerate(envs)]
    n_in = obs[0]["observation"].shape[0]
    n_act = obs[0]["action_mask"].shape[0]
    net = Net(n_in, n_act, s.hidden)
    if s.init:
        load_init(net, s.init)
    opt = torch.optim.Adam(net.parameters(), lr=s.lr, eps=1e-5)
    prog = _Progress(s, log)
    prog.evaluate(net, 0)
    league = (
        _LeagueSeats(League(out / "league", s.league, s.league_share, s.seed), envs)
        if s.league > 0
        else None
    )
    update = 0
    while (used := _budget_used(s, update, prog.start, prog.cpu0)) < 1:
        update += 1
        if s.anneal_lr:
            for group in opt.param_groups:
                group["lr"] = s.lr * max(1.0 - used, 0.05)
        buf = _Rollout(s.rollout, s.num_envs, n_in, n_act)
        ended = _collect(net, envs, obs, s, buf, league)
        prog.recent += ended
        prog.games += len(ended)
        prog.steps += s.rollout * s.num_envs
        with torch.no_grad():
            x, m = _batch(obs)
            _, last_v = net(torch.as_tensor(x), torch.as_tensor(m))
        adv, ret = _advantages(buf, last_v.numpy(), s)
        _optimise(net, opt, buf, adv, ret, s)
        if update % s.eval_every == 0:
            prog.evaluate(net, update)
        if league is not None and update % s.league_every == 0:
            league.league.add(net.layers(), _meta(s, envs[0], prog), update)
    if prog.curve[-1]["update"] != update:
        prog.evaluate(net, update)
    return _write_results(s, out, net, envs[0], prog)


def _meta(s: Settings, env: SeptetEnv, prog: _Progress) -> dict[str, Any]:
    """A checkpoint's metadata: what it plays and how it was trained so far."""
    return {
        "game": s.game,
        "options": env.game.options_dict(),
        "num_players": s.num_players,
        "actions": s.actions,
        "normalize": True,
        "action_encoding": env.game.action_encoding(s.num_players).version,
        "opponents": s.opponents,
        "trained_steps": prog.steps,
        "trained_games": prog.games,
        "trained_minutes": round((time.time() - prog.start) / 60, 1),
        "trained_cpu_minutes": round((time.process_time() - prog.cpu0) / 60, 1),
        "initialised_from": Path(s.init).name if s.init else None,
        "final_eval": prog.curve[-1],
        "league": s.league,
    }


def _write_results(
    s: Settings, out: Path, net: Net, env: SeptetEnv, prog: _Progress
) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    stem = f"ppo_{s.game.replace('-', '_')}"
    meta = _meta(s, env, prog)
    save_checkpoint(out / f"{stem}.npz", net.layers(), meta)
    # The policy of the best evaluation too (PPO's win rate is not monotone): a candidate to
    # confirm with a longer match before shipping, since its evaluation picked it.
    best = prog.best
    best_meta = {
        **meta,
        "best_of_evaluations": {k: best[k] for k in ("update", "steps", "win_rate")},
    }
    save_checkpoint(out / f"{stem}_best.npz", best["layers"], best_meta)
    results = {"settings": asdict(s), "curve": prog.curve, "meta": meta}
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
        + (f" ({curve[-1]['cpu_minutes']:.0f} CPU-min)" if "cpu_minutes" in curve[-1] else "")
        if curve
        else s["game"],
        fontsize=9,
    )
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def add_settings_arguments(p: argparse.ArgumentParser, cls: Any, skip: tuple[str, ...]) -> None:
    """An option ``--field-name`` (default ``None``: the dataclass's own) for each int, float
    and str field of the settings dataclass ``cls`` not in ``skip``, and ``--option key=value``
    (repeatable) for the game's options."""
    types = {"int": int, "float": float, "str": str}
    for f in cls.__dataclass_fields__.values():
        if f.name not in skip and f.type in types:
            p.add_argument("--" + f.name.replace("_", "-"), type=types[str(f.type)], default=None)
    p.add_argument("--option", action="append", default=[], help="game option key=value")


def settings_values(args: argparse.Namespace, cls: Any, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` updated with every field of ``cls`` given on the command line, and
    ``options`` from the ``--option`` pairs."""
    for name in cls.__dataclass_fields__:
        v = getattr(args, name, None)
        if v is not None and name not in ("game", "options"):
            values[name] = v
    values["options"] = dict(o.split("=", 1) for o in args.option)
    return values


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m septet.envs.ppo_train --game flip7 --minutes 20 --out DIR``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="flip7", choices=sorted(DEFAULTS))
    p.add_argument("--out", default="results/ppo")
    add_settings_arguments(p, Settings, ("game", "options"))
    args = p.parse_args(argv)
    values = settings_values(args, Settings, {"game": args.game, **DEFAULTS[args.game]})
    train(Settings(**values), Path(args.out), log=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
