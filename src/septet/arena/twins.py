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
from septet.core.game import Game, State
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
    run = _Lockstep(game, num_players, kernel_for(game), policy, greedy)
    for g in range(num_games):
        rng = random.Random(f"twin:{game.name}:{num_players}:{seed}:{g}")
        steps = run.play(rng, f"{game!r} players={num_players} game={g} seed={seed}")
        run.report.games += 1
        run.report.steps += steps
    return run.report


class _Lockstep:
    """One engine game and its kernel twin played in lock step, compared at every step."""

    def __init__(
        self, game: Game[Any], num_players: int, kernel: Any, policy: str, greedy: bool
    ) -> None:
        self.game = game
        self.n = num_players
        self.k = kernel
        self.policy = policy
        self.greedy = greedy
        self.bot = make_agent("greedy", game) if (greedy or policy == "greedy") else None
        self.report = TwinReport()
        self.legal_buf = np.zeros(kernel.max_actions(num_players), dtype=np.int64)
        self.codes = np.zeros(64 + num_players + 64, dtype=np.int64)
        self.weights = np.zeros(len(self.codes), dtype=np.int64)

    def play(self, rng: random.Random, label: str) -> int:
        """Play one game to the end; returns its steps. Raises KitFailure on a difference."""
        k = self.k
        state = self.game.new_state(self.n)
        arr = k.encode(state)
        step = 0
        while True:
            ctx = f"{label} step={step}"
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
                return step
            if player == CHANCE:
                self._chance_step(state, arr, rng, ctx)
            else:
                self._player_step(state, arr, rng, ctx)
            step += 1

    def _chance_step(self, state: State, arr: np.ndarray, rng: random.Random, ctx: str) -> None:
        """Same outcomes with the same probabilities; then both take the engine's draw."""
        k = self.k
        outcomes = state.chance_outcomes()
        cnt = k.chance_outcomes(arr, self.codes, self.weights)
        want = [(k.chance_code(o), p) for o, p in outcomes]
        total = int(self.weights[:cnt].sum())
        got = [(int(self.codes[i]), int(self.weights[i]) / total) for i in range(cnt)]
        if got != want:
            raise KitFailure(f"[twin] {ctx}: chance outcomes differ: kernel {got}, engine {want}")
        outcome = state.sample_chance(rng)
        state.apply(outcome)
        k.apply_chance(arr, k.chance_code(outcome))
        self.report.chance_steps += 1

    def _player_step(self, state: State, arr: np.ndarray, rng: random.Random, ctx: str) -> None:
        """Same legal ids in the same order, the same greedy choice; then both play one."""
        game, n, k, buf = self.game, self.n, self.k, self.legal_buf
        legal = state.legal_actions()
        ids = [game.action_to_id(a, n) for a in legal]
        cnt = k.legal_actions(arr, buf)
        got_ids = [int(x) for x in buf[:cnt]]
        if got_ids != ids:
            raise KitFailure(f"[twin] {ctx}: legal actions differ: kernel {got_ids}, engine {ids}")
        choice = None
        if self.bot is not None and len(legal) > 1:
            choice = self.bot.act(state.view(state.current_player), legal, random.Random(0))
            if self.greedy:
                mine = k.greedy_action(arr, buf, cnt)
                if mine != game.action_to_id(choice, n):
                    raise KitFailure(
                        f"[twin] {ctx}: compiled greedy chose "
                        f"{game.id_to_action(mine, n)}, the greedy bot {choice}"
                    )
                self.report.greedy_decisions += 1
        if self.policy == "greedy" and choice is not None:
            action = choice
        else:
            action = legal[rng.randrange(len(legal))]
        state.apply(action)
        k.apply_action(arr, game.action_to_id(action, n))
        self.report.player_steps += 1


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
