"""Seven Shot's Expert: Strong's search with more time and two searches at once; optionally
perfect-information Monte Carlo in the endgame, over likelihood-weighted samples.

By default (``endgame=never``) every move is Strong's ISMCTS (:data:`SEARCH_SPEC`) at the
Expert's time (0.9 s against Strong's 0.5 s) with ``threads=2`` searches of the move at once
(root parallelisation: about 3.6 times Strong's iterations on two free cores). Measured at equal
iterations (docs/bots.md, "Third round"), the PIMC endgame below lost a few points to Strong's
own search at 4 players (46.0% of 100 duplicate deals, with either ``objective``), so it is an
option, not the default.

With ``endgame=exact`` a card play goes to PIMC once one sample of it solves exactly (to the
deal's end) within ``3 × nodes`` positions, and ISMCTS plays before; with ``endgame=always``
PIMC plays every card (measured worse still). For each PIMC card play (SS-3) the bot draws
determinizations of the seat's information set with the engine's own sampler
(:meth:`septet.games.seven_shot.game.SevenShot.sample_state`, i.e.
:func:`septet.games.seven_shot.determinize.determinize`, which keeps every hand size, the seat's
own cards and passes, the trump indicator, the cards played and every void shown), solves each
sample's remaining tricks with the alpha-beta solver of :mod:`septet.bots.expert.ss_solver`
(iterative deepening within ``nodes`` positions, exact once the depth reaches the deal's end;
the deal's ends valued by Strong's objective for the match with ``objective=match``), and plays
the card with the best mean value over the samples: Ginsberg's GIB ("GIB: Imperfect information
in a computationally challenging game", JAIR 14, 2001), as analysed by Long, Sturtevant, Buro &
Furtak ("Understanding the success of perfect information Monte Carlo sampling in game tree
search", AAAI 2010).

The sampler draws uniformly over the consistent deals; with ``weight=model`` each sample's
values count in proportion to how likely the others' card plays of the deal are under the
hand-made model of :mod:`septet.bots.expert.inference`, with ``weight=fitted`` under the model
fitted to Strong's card plays and passes (:mod:`septet.bots.expert.opponent`; ``temper`` its
power), with ``weight=uniform`` alike. ``pool=K`` makes the ISMCTS card plays search ``K``
determinizations drawn before the search and resampled by that weight.

Spec: ``expert:time=0.9,threads=2,endgame=never,objective=match,nodes=20000,min_samples=2,
weight=model,temper=1,pool=0,passing=search,rollout=greedy`` and ``iterations=N`` for an ISMCTS
budget in iterations (per search) instead of the time.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from septet.bots.expert.inference import play_likelihood
from septet.bots.expert.opponent import fitted_model, pass_contexts
from septet.bots.expert.ss_solver import Position, Solver, match_utility, position_from_state
from septet.bots.greedy.seven_shot import TunedGreedyAgent
from septet.bots.ismcts import SCORE_SCALES
from septet.core.game import Action, Game
from septet.core.types import JSON

STRONG_SPEC = "ismcts:time=0.5,rollout=greedy,horizon=round"
"""The server's Strong for Seven Shot."""

SEARCH_SPEC = "ismcts:{budget},rollout={rollout},horizon=round,threads={threads}"
"""The search of the pass and of the card plays the solver cannot search exactly (``endgame=
exact``): Strong's settings at the Expert's time (``budget``: ``time=…`` or ``iterations=…``;
``rollout``: ``greedy``, Strong's, or ``tuned``)."""


SCALE = SCORE_SCALES["seven-shot"]
"""Points per unit of logit in the match utility: Strong's (``ismcts``' ``scale``)."""

PROBE_NODES = 3
"""The endgame test's position budget, in multiples of ``nodes``."""
PROBE_SECONDS = 0.1
"""The time kept from the ISMCTS search for the endgame test (sampling and one solve)."""
MARGIN = 0.03
"""Seconds of a move kept for what follows the search (the tree read back, the reply)."""


def weighted_pool(
    game: Game[Any],
    view: dict[str, JSON],
    rng: random.Random,
    k: int,
    weighted: bool = True,
    temper: float | None = None,
    partner_rule: Any = None,
) -> Any:
    """``k`` determinizations of ``view``'s information set, encoded for the compiled search
    (int64, shape ``(k, state size)``): ``k`` uniform draws of the engine's sampler
    (``Game.sample_state``), resampled in proportion to the likelihood of the others' card
    plays under the model of :func:`~septet.bots.expert.inference.play_likelihood`, by
    systematic resampling (Kitagawa 1996; the resampling step of a particle filter), so a deal
    the play made likely appears several times and one it made unlikely may not appear
    (``weighted=False``: the ``k`` draws as they are). With a ``temper`` the likelihood is the
    fitted opponent model's (:meth:`~septet.bots.expert.opponent.OpponentModel.log_likelihood`)
    instead, raised to the power ``temper`` (``None``: the hand-made model). With a
    ``partner_rule`` (4 players: ``rule(hand, trump, players) -> cards passed``, the partner's
    own pass rule, :meth:`~septet.bots.greedy.seven_shot.GreedyAgent.pass_cards`), a sample whose
    partner's hand before the pass would not have passed the cards the seat received counts
    :data:`PARTNER_MISS` times as much (a partnership's known agreement, as bridge partners read
    each other's carding).

    Raises:
        ValueError: ``k < 1``.
    """
    from septet.fast import kernel_for

    if k < 1:
        raise ValueError(f"a pool needs at least one sample, not {k}")
    seat = int(str(view["seat"]))
    states = [game.sample_state(view, rng) for _ in range(k)]
    if not weighted:
        w = np.ones(k)
    elif temper is not None:
        model = fitted_model(states[0].num_players, temper)
        logs = np.array([model.log_likelihood(st, seat) for st in states])
        w = np.exp(logs - logs.max())
    else:
        w = np.array([play_likelihood(st, seat) for st in states])
    if partner_rule is not None:
        w = w * np.array([partner_weight(st, seat, partner_rule) for st in states])
    cum = np.cumsum(w / w.sum())
    picks = np.minimum(np.searchsorted(cum, (rng.random() + np.arange(k)) / k), k - 1)
    kernel = kernel_for(game)
    rows = {int(i): kernel.encode(states[i]) for i in set(picks.tolist())}
    return np.stack([rows[int(i)] for i in picks]).astype(np.int64)


CHOICES: dict[str, tuple[str, ...]] = {
    "weight": ("model", "fitted", "uniform"),
    "endgame": ("never", "exact", "always"),
    "objective": ("match", "margin"),
    "passing": ("search", "greedy", "tuned"),
    "rollout": ("greedy", "tuned"),
    "partner": ("none", "rule"),
}
"""The values each of :class:`SevenShotExpert`'s word parameters takes."""


def _check_choices(**given: str) -> None:
    """Raise ``ValueError`` naming the parameter and its values for a value not in
    :data:`CHOICES`."""
    for name, value in given.items():
        if value not in CHOICES[name]:
            raise ValueError(f"{name} must be {' or '.join(CHOICES[name])}, not {value!r}")


PARTNER_MISS = 0.002
"""The weight of a sample whose partner would have passed other cards by the partner's rule
(not 0: a partner who is not an Expert, or plays another rule, still leaves samples)."""


def partner_weight(state: Any, seat: int, rule: Any) -> float:
    """1.0 when ``seat``'s partner in ``state`` (4 players, play phase) would have passed the
    cards it passed by ``rule`` from its hand before the pass
    (:func:`~septet.bots.expert.opponent.pass_contexts`), else :data:`PARTNER_MISS`; 1.0 at 3
    players (no partner)."""
    n = state.num_players
    if n != 4:
        return 1.0
    partner = (seat + 2) % n
    ctx = next(c for c in pass_contexts(state) if c.seat == partner)
    return 1.0 if rule(ctx.hand, ctx.trump, n) == ctx.passed else PARTNER_MISS


class SevenShotExpert:
    """PIMC with an alpha-beta solver (see the module docstring).

    Args:
        game: a ``seven-shot`` game.
        time: seconds of sampling per card play (wall clock), > 0.
        nodes: solver positions per sample, all depths together (the deepest complete depth
            counts).
        min_samples: samples solved even when the time is up.
        weight: ``model`` (samples weighted by the likelihood of the others' plays under the
            hand-made model, :func:`~septet.bots.expert.inference.play_likelihood`), ``fitted``
            (under the opponent model fitted to Strong's play,
            :class:`~septet.bots.expert.opponent.OpponentModel`) or ``uniform``.
        temper: with ``weight=fitted``, the power of the likelihood, in (0, 1].
        endgame: ``exact`` (PIMC once a sample solves exactly, ISMCTS before), ``always``
            (PIMC at every card play) or ``never`` (ISMCTS at every card play).
        threads: the ISMCTS moves' searches run at once (root parallelisation, ``ismcts``'
            ``threads``).
        pool: the ISMCTS card plays search ``pool`` determinizations drawn before the search
            (:func:`weighted_pool`: resampled by the model's likelihood with ``weight=model``)
            instead of the kernel's fresh uniform one each iteration; 0: the kernel's
            (Strong's search).
        iterations: the ISMCTS moves' budget in iterations instead of the time left
            (reproducible games, for experiments).
        rollout: the ISMCTS rollout policy, ``greedy`` (Strong's) or ``tuned`` (the greedy
            with tuned weights, ``TunedGreedyAgent``).
        passing: how the pass is chosen: ``search`` (ISMCTS, Strong's), ``greedy`` (the
            greedy bot's rules: short suits first, never the A, trumps or 7s to an opponent) or
            ``tuned`` (the same rules with the tuned weights, ``TunedGreedyAgent``).
        partner: ``rule`` (4 players, with ``passing`` greedy or tuned): the ISMCTS pool's
            samples weighted by whether the partner, passing by the same rule, would have
            passed the cards received (:func:`partner_weight`); ``none``.
        objective: what the solver's deal ends are worth: ``match`` (Strong's objective: the
            game won, or the points after the deal through Strong's logistic utility,
            :func:`~septet.bots.expert.ss_solver.match_utility`) or ``margin`` (the deal's
            points, as first built).

    Raises:
        ValueError: a non-positive number, ``threads`` below 1, ``temper`` outside (0, 1], or
            a word parameter's value not in :data:`CHOICES`.
    """

    def __init__(
        self,
        game: Game[Any],
        time: float | str = 0.9,
        nodes: int | str = 20000,
        min_samples: int | str = 2,
        weight: str = "model",
        temper: float | str = 1.0,
        endgame: str = "never",
        pool: int | str = 0,
        iterations: int | str | None = None,
        passing: str = "search",
        rollout: str = "greedy",
        objective: str = "match",
        threads: int | str = 2,
        partner: str = "none",
    ) -> None:
        from septet.bots import make_agent

        _check_choices(weight=weight, endgame=endgame, objective=objective, passing=passing,
                       rollout=rollout, partner=partner)  # fmt: skip
        if partner == "rule" and passing == "search":
            raise ValueError("partner=rule reads a pass rule: passing=greedy or tuned")
        self.game = game
        self.name = "expert"
        self._set_numbers(time, nodes, min_samples, pool, iterations, threads)
        self.weighted = weight != "uniform"
        self.temper: float | None = None
        """With ``weight=fitted``: the power of the fitted model's likelihood (else ``None``)."""
        if weight == "fitted":
            self.temper = float(temper)
            if not 0.0 < self.temper <= 1.0:
                raise ValueError(f"temper must be in (0, 1], not {temper!r}")
        self.endgame = endgame
        self.objective = objective
        self.passer: Any = None
        self.partner = partner
        if passing == "greedy":
            self.passer = make_agent("greedy", game)
        elif passing == "tuned":
            self.passer = TunedGreedyAgent(game)
        # The search leaves the endgame test (one sample, at most PROBE_NODES * nodes) its time.
        search_time = max(0.05, self.time_limit - PROBE_SECONDS)
        budget = f"time={search_time}" if iterations is None else f"iterations={self.iterations}"
        self.search = make_agent(
            SEARCH_SPEC.format(budget=budget, rollout=rollout, threads=self.threads), game
        )
        self._search_time = search_time
        self.solver = Solver()
        self.sample = game.sample_state
        """``sample(view, rng) -> SevenShotState``: the determinizations (tests may wrap it)."""
        self.last_samples = 0
        """Samples solved for the last card play (for benchmarks)."""
        self.last_depths: list[int] = []
        """The depth reached in each of those samples (tricks; exact when past the deal's end)."""
        self.last_weights: list[float] = []
        """Each of those samples' weight (1.0 each with ``weight=uniform``)."""
        self.last_mode = ""
        """How the last card play was chosen: ``solver`` (PIMC) or ``search`` (ISMCTS)."""

    def _set_numbers(self, time: float | str, nodes: int | str, min_samples: int | str,
                     pool: int | str, iterations: int | str | None,
                     threads: int | str) -> None:  # fmt: skip
        """The numeric parameters, checked (ValueError for a non-positive one, or a negative
        ``pool``)."""
        self.threads = int(threads)
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads!r}")
        self.time_limit = float(time)
        self.nodes = int(nodes)
        self.min_samples = int(min_samples)
        if not (self.time_limit > 0 and self.nodes > 0 and self.min_samples > 0):
            raise ValueError("time, nodes and min_samples must be positive")
        self.pool = int(pool)
        if self.pool < 0:
            raise ValueError(f"pool must be >= 0, not {pool!r}")
        self.iterations = None if iterations is None else int(iterations)
        if self.iterations is not None and self.iterations <= 0:
            raise ValueError(f"iterations must be positive, not {iterations!r}")

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The card with the best mean solved value over the samples; the pass, and with
        ``endgame=exact`` a card play whose first sample the solver cannot search to the deal's
        end within ``PROBE_NODES * nodes`` positions: ISMCTS (:data:`SEARCH_SPEC`, at ``time`` less
        :data:`PROBE_SECONDS`)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        start = time.perf_counter()
        if view.get("phase") != "play":
            if self.passer is not None:
                chosen: Action = self.passer.act(view, legal_actions, rng)
                return chosen
            return self._search(view, legal_actions, rng, start, pooled=False)
        if self.endgame == "never" or (
            self.endgame == "exact" and not self.solvable(view, legal_actions, rng)
        ):
            self.last_mode = "search"
            return self._search(view, legal_actions, rng, start, pooled=True)
        self.last_mode = "solver"
        totals = self.mean_values(view, legal_actions, rng)
        best = int(np.argmax(totals))  # the first of equal means: legal_actions' order
        return legal_actions[best]

    def _search(
        self,
        view: dict[str, JSON],
        legal_actions: Sequence[Action],
        rng: random.Random,
        start: float,
        pooled: bool,
    ) -> Action:
        """ISMCTS for the time left of the move (``start``: ``time.perf_counter()`` when it
        began): over :func:`weighted_pool`'s determinizations when ``pooled`` and ``pool > 0``."""
        agent: Any = self.search
        agent.pool_for = None
        if pooled and self.pool > 0:
            rule = self.passer.pass_cards if self.partner == "rule" else None
            rows = weighted_pool(
                self.game, view, rng, self.pool, self.weighted, self.temper, partner_rule=rule
            )
            agent.pool_for = lambda _view, _rng: rows
        if self.iterations is None:
            spent = time.perf_counter() - start
            agent.time_limit = max(0.05, self._search_time + PROBE_SECONDS - spent - MARGIN)
        return self.search.act(view, legal_actions, rng)

    def _weight(self, state: Any, seat: int) -> float:
        """A sample's weight in the PIMC mean: 1.0 with ``weight=uniform``, else the likelihood
        of the others' plays under the hand-made or the fitted model."""
        if not self.weighted:
            return 1.0
        if self.temper is None:
            return play_likelihood(state, seat)
        model = fitted_model(state.num_players, self.temper)
        return math.exp(max(-700.0, model.log_likelihood(state, seat)))

    def solvable(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> bool:
        """Whether one sample of the position solves exactly (to the deal's end) within
        ``PROBE_NODES * nodes`` positions: the test of the endgame, where PIMC with exact values
        takes over from ISMCTS."""
        state: Any = self.sample(view, rng)
        cards = [int(a.card) for a in legal_actions]  # type: ignore[attr-defined]
        self.solver.reset()
        side = state.side_of(state.current_player)
        pos = position_from_state(state)
        limit = PROBE_NODES * self.nodes
        table = self._utility(state, side)
        return self.solver.values(pos, cards, side, node_limit=limit, utility=table) is not None

    def _utility(self, state: Any, side: int) -> np.ndarray | None:
        """The solver's table of deal outcomes for ``side`` with ``objective=match`` (from the
        sides' points and the target, public), else ``None`` (the points' margin)."""
        if self.objective != "match":
            return None
        return match_utility(list(state.points), int(state.game.options.target), side, SCALE)

    def mean_values(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> np.ndarray:
        """The mean value of each of ``legal_actions`` (card plays) over the samples, shape
        ``(len(legal_actions),)``, in deal points for the seat's side (see ``ss_solver``); with
        ``weight=model`` a mean weighted by each sample's likelihood."""
        cards = [int(a.card) for a in legal_actions]  # type: ignore[attr-defined]
        deadline = time.perf_counter() + self.time_limit
        totals = np.zeros(len(cards))
        self.solver.reset()
        self.last_depths = []
        self.last_weights = []
        wsum = 0.0
        seat = int(view["seat"])
        done = 0
        while done < self.min_samples or time.perf_counter() < deadline:
            state: Any = self.sample(view, rng)
            pos = position_from_state(state)
            side = state.side_of(state.current_player)
            values, depth = self.solve(pos, cards, side, deadline, self._utility(state, side))
            w = self._weight(state, seat)
            totals += w * values
            wsum += w
            self.last_depths.append(depth)
            self.last_weights.append(w)
            done += 1
        self.last_samples = done
        return totals / wsum

    def solve(
        self,
        pos: Position,
        cards: Sequence[int],
        side: int,
        deadline: float = float("inf"),
        utility: np.ndarray | None = None,
    ) -> tuple[np.ndarray, int]:
        """Iterative deepening on one sample within ``nodes`` positions in all and the
        ``deadline`` (``time.perf_counter()``): ``(values of cards, depth reached)``; the depth
        is ``pos.tricks_left + 1`` when the values are exact. ``utility``: the solver's table
        of deal outcomes (``Solver.values``), ``None`` for the points' margin."""
        best = self.solver.values(pos, cards, side, depth=1, utility=utility)  # one trick fits
        assert best is not None
        reached = 1
        left = self.nodes - self.solver.nodes
        for depth in range(2, pos.tricks_left + 2):
            if left <= 0 or time.perf_counter() >= deadline:
                break
            values = self.solver.values(
                pos, cards, side, depth=depth, node_limit=left, utility=utility
            )
            left -= self.solver.nodes
            if values is None:
                break
            best, reached = values, depth
        return best, reached


__all__ = ["SEARCH_SPEC", "STRONG_SPEC", "SevenShotExpert"]
