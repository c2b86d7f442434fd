"""The trainer end to end on a tiny budget (two updates of 32 steps): it writes a checkpoint that
plays, the best-evaluation checkpoint, the curve and its plot. Slow (PyTorch's import alone
takes seconds on the shared machine); it does not train anything worth keeping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="needs the train extra: pip install 'septet[train]'")
pytest.importorskip("gymnasium", reason="needs the rl extra")


@pytest.mark.slow
def test_ppo_train_writes_a_playable_checkpoint(tmp_path: Path) -> None:
    from septet import games
    from septet.bots import make_agent
    from septet.core import play_game
    from septet.envs.ppo_train import main

    args = ["--game", "double-seven", "--max-updates", "2", "--num-envs", "2", "--rollout", "16"]
    args += ["--eval-games", "2", "--eval-every", "1", "--out", str(tmp_path)]
    assert main(args) == 0
    for name in ("ppo_double_seven.npz", "ppo_double_seven_best.npz", "ppo_double_seven.png"):
        assert (tmp_path / name).stat().st_size > 0
    results = json.loads((tmp_path / "ppo_double_seven.json").read_text())
    assert [p["update"] for p in results["curve"]] == [0, 1, 2]
    assert results["meta"]["trained_steps"] == 64 and results["meta"]["actions"] == "compact"
    game = games.get("double-seven")
    agent = make_agent(f"ppo:checkpoint={tmp_path / 'ppo_double_seven.npz'}", game)
    assert play_game(game, [agent, make_agent("greedy", game)], seed=0).state.is_terminal


@pytest.mark.slow
def test_ppo_train_init_and_cpu_budget(tmp_path: Path) -> None:
    import numpy as np

    from septet.bots.ppo import PPOPolicy, shipped_checkpoint
    from septet.envs.ppo_train import main

    shipped = shipped_checkpoint("double-seven")
    args = ["--game", "double-seven", "--num-envs", "2", "--rollout", "16", "--eval-games", "2"]
    # no update: the checkpoint written is the one it started from, exactly
    assert main([*args, "--max-updates", "0", "--init", str(shipped), "--out", str(tmp_path)]) == 0
    written = PPOPolicy(tmp_path / "ppo_double_seven.npz")
    for (w, b), (w0, b0) in zip(written.layers, PPOPolicy(shipped).layers, strict=True):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    assert written.meta["initialised_from"] == "ppo_double_seven.npz"
    # a CPU budget spent by the first evaluation: no update (it is checked before each)
    out = tmp_path / "cpu"
    assert main([*args, "--cpu-minutes", "0.0001", "--anneal-lr", "1", "--out", str(out)]) == 0
    results = json.loads((out / "ppo_double_seven.json").read_text())
    assert [p["update"] for p in results["curve"]] == [0]
    assert results["meta"]["trained_steps"] == 0 and results["settings"]["anneal_lr"] == 1


@pytest.mark.slow
def test_ppo_train_league_freezes_policies_and_plays_them(tmp_path: Path) -> None:
    from septet.bots.ppo import PPOPolicy
    from septet.envs.ppo_train import main

    args = ["--game", "flip7", "--max-updates", "3", "--num-envs", "2", "--rollout", "16"]
    args += ["--eval-games", "2", "--eval-every", "3", "--out", str(tmp_path)]
    args += ["--league", "2", "--league-every", "1", "--league-share", "0.5"]
    assert main(args) == 0
    members = sorted((tmp_path / "league").glob("member_*.npz"))
    assert [m.name for m in members] == [f"member_0000{u}.npz" for u in (1, 2, 3)]
    assert [PPOPolicy(m).meta["league_update"] for m in members] == [1, 2, 3]
    results = json.loads((tmp_path / "ppo_flip7.json").read_text())
    assert results["settings"]["league"] == 2 and results["meta"]["league"] == 2


def test_league_draws_from_the_latest_members(tmp_path: Path) -> None:
    from septet import games
    from septet.bots.ppo import PPOAgent, PPOPolicy, shipped_checkpoint
    from septet.envs.league import League

    game = games.get("flip7")
    shipped = PPOPolicy(shipped_checkpoint("flip7"))
    league = League(tmp_path, size=2, share=0.5, seed=1)
    assert league.draw(game, 2) is None  # empty: the fixed opponents stay
    assert [league.plays_league(i, 4) for i in range(4)] == [True, True, False, False]
    for u in (1, 2, 3):
        league.add(shipped.layers, shipped.meta, u)
    drawn = {id(a) for _ in range(40) for a in league.draw(game, 2) or []}
    latest = {id(league._agents[p]) for p in league.members[-2:]}
    assert drawn == latest  # only the last two members, both drawn in 80 draws
    assert all(isinstance(a, PPOAgent) and a.sample for a in league.draw(game, 2) or [])
    with pytest.raises(ValueError):
        League(tmp_path, size=0, share=0.5)
