"""The fast-twin check: a compiled kernel against its Python engine (and greedy bot), step by step.

:func:`check_twin` plays seeded games on the Python engine (the reference) and, in lock step,
on the kernel's integer state (``septet.fast.<game>``): both receive the same chance outcomes
(drawn by the engine's own sampler) and the same actions. At every step it checks that

- the position is the same: the kernel array equals the encoding of the engine's
  ``state_dict()`` (``encode``), field by field, once the slots the format does not show are
  reset (``canonical``);
- the seat to move and the round index are the same;
- at a chance node the outcomes and their probabilities are the same, in the same order;
- at a player node the legal actions are the same, in the same order (as the game's fixed
  action ids, ``Game.action_to_id``);
- the scores are the same; at the end, the winners and ``returns()`` too;
- (``greedy=True``) the compiled greedy policy picks the same action as the Python greedy bot
  (``septet.bots.greedy.<game>``) given the seat's view, at every player node.

A failure raises :class:`septet.core.testkit.KitFailure` naming the game, seed, step and field.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from septet.bots import make_agent
from septet.core.game import Game
from septet.core.testkit import KitFailure
from septet.core.types import CHANCE
from septet.fast import kernel_for


@dataclass
class TwinReport:
    """Counts of what :func:`check_twin` compared."""

    games: int = 0
    steps: int = 0
    chance_steps: int = 0
    player_steps: int = 0
    greedy_decisions: int = 0
    """Player nodes with 2+ legal actions where the compiled and Python greedy choices were
    compared."""


def check_twin(
    game: Game[Any],
    num_players: int,
    num_games: int = 100,
    seed: int = 0,
    *,
    policy: str = "random",
    greedy: bool = True,
) -> TwinReport:
    """Play ``num_games`` games in lock step on the engine and the kernel (see the module
    docstring).

    Args:
        game: the game and its options.
        num_players: seats.
        num_games: games (game ``i`` draws from ``random.Random(f"twin:...:{seed}:{i}")``).
        policy: how player actions are chosen: ``"random"`` (uniform) or ``"greedy"`` (the
            Python greedy bot, so the games look like real ones).
        greedy: compare the compiled greedy choice with the Python greedy bot at every player
            node with more than one legal action.

    Returns:
        A :class:`TwinReport`.

    Raises:
        KitFailure: the first difference.
    """
    k = kernel_for(game)
    bot = make_agent("greedy", game) if (greedy or policy == "greedy") else None
    report = TwinReport()
    legal_buf = np.zeros(k.max_actions(num_players), dtype=np.int64)
    codes = np.zeros(64 + num_players + 64, dtype=np.int64)
    weights = np.zeros(len(codes), dtype=np.int64)
    for g in range(num_games):
        rng = random.Random(f"twin:{game.name}:{num_players}:{seed}:{g}")
        state = game.new_state(num_players)
        arr = k.encode(state)
        step = 0
        while True:
            ctx = f"{game!r} players={num_players} game={g} seed={seed} step={step}"
            _same_position(k, state, arr, ctx)
            player = state.current_player
            if k.current_player(arr) != player:
                raise KitFailure(
                    f"[twin] {ctx}: kernel to move {k.current_player(arr)}, engine {player}"
                )
            if k.round_index(arr) != state.round_index():
                raise KitFailure(
                    f"[twin] {ctx}: kernel round {k.round_index(arr)}, engine {state.round_index()}"
                )
            if state.is_terminal:
                _same_result(k, state, arr, ctx)
                break
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                cnt = k.chance_outcomes(arr, codes, weights)
                want = [(k.chance_code(o), p) for o, p in outcomes]
                total = int(weights[:cnt].sum())
                got = [(int(codes[i]), int(weights[i]) / total) for i in range(cnt)]
                if got != want:
                    raise KitFailure(
                        f"[twin] {ctx}: chance outcomes differ: kernel {got}, engine {want}"
                    )
                outcome = state.sample_chance(rng)
                state.apply(outcome)
                k.apply_chance(arr, k.chance_code(outcome))
                report.chance_steps += 1
            else:
                legal = state.legal_actions()
                ids = [game.action_to_id(a, num_players) for a in legal]
                cnt = k.legal_actions(arr, legal_buf)
                got_ids = [int(x) for x in legal_buf[:cnt]]
                if got_ids != ids:
                    raise KitFailure(
                        f"[twin] {ctx}: legal actions differ: kernel {got_ids}, engine {ids}"
                    )
                choice = None
                if bot is not None and len(legal) > 1:
                    choice = bot.act(state.view(player), legal, random.Random(0))
                    if greedy:
                        mine = k.greedy_action(arr, legal_buf, cnt)
                        if mine != game.action_to_id(choice, num_players):
                            raise KitFailure(
                                f"[twin] {ctx}: compiled greedy chose "
                                f"{game.id_to_action(mine, num_players)}, the greedy bot {choice}"
                            )
                        report.greedy_decisions += 1
                if policy == "greedy" and choice is not None:
                    action = choice
                else:
                    action = legal[rng.randrange(len(legal))]
                state.apply(action)
                k.apply_action(arr, game.action_to_id(action, num_players))
                report.player_steps += 1
            step += 1
        report.games += 1
        report.steps += step
    return report


def _same_position(k: Any, state: Any, arr: np.ndarray, ctx: str) -> None:
    want = k.encode(state)
    got = k.canonical(arr)
    if not np.array_equal(got, want):
        diff = [int(i) for i in np.nonzero(got != want)[0][:8]]
        names = [f"{k.field_name(i)}: kernel {int(got[i])}, engine {int(want[i])}" for i in diff]
        raise KitFailure(f"[twin] {ctx}: positions differ at {'; '.join(names)}")


def _same_result(k: Any, state: Any, arr: np.ndarray, ctx: str) -> None:
    got = k.scores(arr)
    want = [float(x) for x in state.scores()]
    if got != want:
        raise KitFailure(f"[twin] {ctx}: scores differ: kernel {got}, engine {want}")
    if k.winners(arr) != sorted(state.winners()):
        raise KitFailure(
            f"[twin] {ctx}: winners differ: kernel {k.winners(arr)}, engine {state.winners()}"
        )
