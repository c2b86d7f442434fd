"""Single-observer Information Set Monte Carlo Tree Search (SO-ISMCTS).

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
The bot only receives a view. Each iteration:

1. **Determinization**: draw a full state from the searching seat's information set with
   :meth:`septet.core.game.Game.sample_state` (the engine resamples what the seat cannot see).
2. **Selection**: walk down one shared tree. At a player node only the children whose action is
   legal in this determinization compete, by UCB1 with *availability counts*
   (``mean + c * sqrt(ln(avail) / visits)``, ``avail`` = how often the child was available).
   At a chance node the outcome is sampled with its exact probability and the walk follows the
   child keyed by what the *searching seat observes* of it (the events of that outcome visible to
   the seat, ``Event.is_visible``): an opponent's face-down draw leads everyone to the same node,
   a card turned face up or the seat's own draw branches. ``chance=outcome`` keys by the outcome
   itself; ``chance=open`` never branches (open-loop).
   At the root, ``bias=w`` adds Chaslot et al.'s *progressive bias* ``w / (visits + 1)`` to the
   move the game's greedy bot would play ("Progressive strategies for Monte-Carlo tree search",
   2008), so with few iterations the search keeps greedy's move unless another proves better.
3. **Expansion**: the first player node with an untried legal action gets one new child.
   ``tree=N`` keeps N player decisions in the tree, the root's included, and no chance node
   below the last of them (``tree=1``: a bandit over the root's moves with rollouts after each,
   Tesauro & Galperin's on-line policy improvement, 1996); in games with long turns of one's
   own (Double Seven) a deep tree at a small budget explores one's own bad follow-ups and
   undervalues every move that keeps the turn going.
4. **Rollout**: play with ``random`` (fast, in place) or ``greedy`` moves to the end of the game,
   or only to the end of the current round (``horizon=round``: a Flip 7 round, a Seven Shot deal,
   :meth:`septet.core.game.State.round_index`; the tree walk stops there too) or for ``depth``
   steps.
5. **Evaluation**: a finished game is worth ``State.returns()`` (1 per winner; with
   ``utility=score`` the mean of that and :func:`cut_utilities` of the final scores, which also
   rewards the margin); a rollout cut short is worth
   ``1 / (1 + exp(-(score - mean score) / scale))`` per seat (:func:`cut_utilities`),
   so a round won by a wide margin counts more than a narrow one. Stopping at the end of the round
   trades a little bias for far less noise: the outcome of the round in hand is what the move
   changes, the rounds after it are mostly luck.
6. **Backpropagation**: every node on the path adds the utility of the seat that chose the action
   leading to it, so each node backs up the utility of the player to move above it; any number of
   players (teams by their shared wins and shared scores).

The move played is the most visited root child (ties: best mean, then the order of
``legal_actions``); with ``final=value`` the best mean among the root children visited at least
a tenth as often as the most visited one (ties: visits). With an iteration budget the choice
depends only on the ``rng`` passed to :meth:`ISMCTSAgent.act`, so games are reproducible for a
seed; a time budget is not.

Spec parameters (``ismcts:iterations=2000,c=0.7,rollout=greedy``): ``iterations`` (int, default
1000 when no ``time``), ``time`` (seconds per move, float), ``c`` (exploration constant, default
0.7), ``rollout`` (``random`` | ``greedy`` | ``tuned``: Seven Shot's tuned greedy), ``chance``
(``observed`` | ``outcome`` | ``open``), ``seed`` (int: fixes the search stream whatever the
``rng``), ``depth`` (int: rollout steps before the rollout is cut and scored), ``horizon``
(``game`` | ``round``), ``scale`` (score points per unit of the cut evaluation's logit; default
per game, :data:`SCORE_SCALES`), ``utility`` (``win`` | ``score``), ``tree`` (int: player
decisions kept in the tree, the root's included), ``bias`` (float >= 0: progressive bias
towards greedy's move at the root), ``engine`` (``auto`` | ``python`` | ``fast``), ``final``
(``visits`` | ``value``: the move played).

**Compiled search** (``engine=auto``, the default, when the ``fast`` extra is installed and the
game has a kernel; ``engine=fast`` requires it): every iteration (determinization, tree walk,
rollout, backup) runs in the compiled kernels of :mod:`septet.fast.search`, which are exact
twins of the engines, with the same settings and the same decision rule; the seat's view is
turned into an encoded state once per move (``Game.sample_state``, then ``encode``). It does the
same search, many times faster; the random streams differ, so the moves of the two engines for
one seed differ. A custom ``sampler`` always uses the Python search.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from septet.core.errors import SeptetError
from septet.core.game import Action, Game, State
from septet.core.play import Agent
from septet.core.types import CHANCE, JSON, Event

Sampler = Callable[[Mapping[str, JSON], random.Random], State]
"""``sampler(view, rng) -> State``: a determinization of the view's information set."""


SCORE_SCALES: dict[str, float] = {"flip7": 25.0, "seven-shot": 1.5, "double-seven": 4.0}
"""Default ``scale`` of :func:`cut_utilities` per game: roughly one round's (deal's) spread of
scores between seats (Flip 7: a round scores about 20 on average; Seven Shot: a deal gives its
winner 1 to 4 points; Double Seven: a few tiles). Other games use 1.0."""


class SearchError(SeptetError, RuntimeError):
    """The search cannot run (the game cannot rebuild states from views, or its determinization
    disagrees with the view)."""


class _Node:
    """A tree node: statistics of the edge into it, for the seat that chose that edge."""

    __slots__ = ("avail", "chance_children", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that chose the edge into this node (CHANCE for chance)
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.children: dict[Action, _Node] = {}
        self.chance_children: dict[Hashable, _Node] = {}


def _freeze(data: Mapping[str, JSON]) -> str:
    return json.dumps(dict(data), sort_keys=True, default=str, ensure_ascii=False)


def observation_key(events: Sequence[Event], seat: int) -> Hashable:
    """What ``seat`` observes of a step: its visible events as a hashable key.

    Two chance outcomes with equal keys are indistinguishable to ``seat`` and share a tree node.
    """
    return tuple((e.kind, e.seat, _freeze(e.data)) for e in events if e.is_visible(seat))


def _int_param(key: str, given: int | str | None) -> int | None:
    """``given`` as an integer >= 1 (None stays None), else ValueError naming ``key``."""
    if given is None:
        return None
    try:
        value = int(str(given))
    except ValueError:
        raise ValueError(f"{key} must be an integer, not {str(given)!r}") from None
    if value < 1:
        raise ValueError(f"{key} must be at least 1, not {value}")
    return value


def _choice(key: str, value: str, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``, else ValueError ("key must be a, b or c")."""
    if value not in allowed:
        names = f"{', '.join(allowed[:-1])} or {allowed[-1]}"
        raise ValueError(f"{key} must be {names}, not {value!r}")
    return value


def _positive(key: str, value: float | str, unit: str = "") -> float:
    """``value`` as a positive float, else ValueError."""
    number = float(value)
    if not number > 0:
        what = f"positive {unit}" if unit else "positive"
        raise ValueError(f"{key} must be {what}, not {value!r}")
    return number


def _non_negative(key: str, value: float | str) -> float:
    """``value`` as a float >= 0, else ValueError naming ``key``."""
    number = float(value)
    if not number >= 0:
        raise ValueError(f"{key} must be >= 0, not {value!r}")
    return number


class ISMCTSAgent:
    """SO-ISMCTS over ``game.sample_state`` (see the module docstring).

    Args:
        game: the game played.
        iterations: iterations per move (default 1000 if ``time`` is not given either).
        time: seconds per move (wall clock); with ``iterations`` too, whichever ends first.
        c: UCB exploration constant (utilities are in [0, 1]).
        rollout: ``"random"``, ``"greedy"`` (the game's greedy bot, given views) or, in Seven
            Shot, ``"tuned"`` (the greedy with tuned weights, ``TunedGreedyAgent``).
        chance: ``"observed"`` (default), ``"outcome"`` or ``"open"`` (how chance nodes branch).
        seed: if given, the search uses its own stream from this seed instead of ``rng``.
        sampler: replaces ``game.sample_state`` (tests, research); same signature.
        depth: cut rollouts after this many steps (player actions and chance outcomes) and
            score them with :func:`cut_utilities`; default: no step limit.
        horizon: ``"game"`` (default: roll out to the end of the game) or ``"round"`` (stop
            when :meth:`State.round_index` changes, i.e. the round or deal in hand is scored).
        scale: the score scale of :func:`cut_utilities` (default :data:`SCORE_SCALES`).
        utility: ``"win"`` (default: a finished game is worth ``returns()``) or ``"score"``
            (the mean of ``returns()`` and :func:`cut_utilities` of the final scores).
        tree: the most player decisions kept in the tree on a path, the root's included
            (``1``: only the root's moves; default: no limit).
        bias: progressive-bias weight for greedy's move at the root (default 0: none).
        final: the move played: ``"visits"`` (default: the most visited root child) or
            ``"value"`` (the best mean utility among the root children visited at least a
            tenth as often as the most visited one; ties by visits).
        engine: ``"auto"`` (default: the compiled search of :mod:`septet.fast.search` when the
            ``fast`` extra is installed and the game has a kernel, else Python), ``"python"``
            or ``"fast"`` (raises ``ValueError`` when the kernels cannot run).
        threads: root parallelisation (compiled search only): this many independent searches
            of the move at once, in threads, each within the whole budget, their root
            statistics added up (:func:`septet.fast.search.search_trees`); default 1. With
            ``engine=auto`` and no kernels the Python search runs one.

    Raises:
        ValueError: bad parameter values (``make_agent`` turns them into ``AgentSpecError``).
    """

    def __init__(
        self,
        game: Game[Any],
        iterations: int | str | None = None,
        time: float | str | None = None,
        c: float | str = 0.7,
        rollout: str = "random",
        chance: str = "observed",
        seed: int | str | None = None,
        sampler: Sampler | None = None,
        depth: int | str | None = None,
        horizon: str = "game",
        scale: float | str | None = None,
        utility: str = "win",
        tree: int | str | None = None,
        bias: float | str = 0.0,
        engine: str = "auto",
        final: str = "visits",
        threads: int | str = 1,
    ) -> None:
        self.game = game
        self.name = "ismcts"
        self.iterations = _int_param("iterations", iterations)
        self.depth = _int_param("depth", depth)
        self.tree = _int_param("tree", tree)
        self.seed = None if seed is None else int(str(seed))
        self.time_limit = None if time is None else _positive("time", time, "seconds")
        if self.iterations is None and self.time_limit is None:
            self.iterations = 1000
        self.c = _non_negative("c", c)
        self.rollout = _choice("rollout", rollout, ("random", "greedy", "tuned"))
        if self.rollout == "tuned" and game.name != "seven-shot":
            raise ValueError("rollout=tuned is Seven Shot's (the tuned greedy); use greedy")
        self.chance = _choice("chance", chance, ("observed", "outcome", "open"))
        self.horizon = _choice("horizon", horizon, ("game", "round"))
        default_scale = SCORE_SCALES.get(game.name, 1.0)
        self.scale = default_scale if scale is None else _positive("scale", scale)
        self.utility = _choice("utility", utility, ("win", "score"))
        self.final = _choice("final", final, ("visits", "value"))
        self.bias = _non_negative("bias", bias)
        self.sampler: Sampler = sampler if sampler is not None else game.sample_state
        self.engine = "python"
        self._kernel: Any = None
        if _choice("engine", engine, ("auto", "python", "fast")) != "python" and sampler is None:
            self._kernel = _fast_kernel(game, required=engine == "fast")
            if self._kernel is not None:
                self.engine = "fast"
        elif engine == "fast":
            raise ValueError("engine=fast searches with the game's own sampler only")
        self.threads = self._threads(threads, engine == "python" or sampler is not None)
        self._greedy, self._policy = _policies(game, self.rollout, self.bias)
        self.last_iterations = 0
        """Iterations run by the last call of :meth:`act` (for benchmarks)."""
        self.pool_for: Callable[[Mapping[str, JSON], random.Random], Any] | None = None
        """Compiled search: ``pool_for(view, rng)`` gives the encoded determinizations to search
        (``septet.fast.search.search``'s ``pool``); ``None``: the kernel's uniform draw."""
        self._prior: Action | None = None
        self.last_root: _Node | None = None

    def _threads(self, threads: int | str, python_asked: bool) -> int:
        """The searches a move runs at once: ``threads``, or 1 where the compiled search does
        not run (``engine=auto`` without the kernels); ValueError for more than one with the
        Python search asked for (``engine=python`` or a ``sampler``)."""
        n = _int_param("threads", threads) or 1
        if n > 1 and self.engine != "fast":
            if python_asked:
                raise ValueError("threads > 1 needs the compiled search (the fast extra)")
            return 1
        return n

    # ----- public ------------------------------------------------------------------------------
    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Search from ``view`` and return the most visited of ``legal_actions``.

        Raises:
            SearchError: the game cannot sample states from views, or a sampled state does not
                offer exactly ``legal_actions``.
        """
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        search_rng = random.Random(self.seed) if self.seed is not None else rng
        if self.engine == "fast":
            root = self._fast_search(view, legal_actions, search_rng, full=False)
        else:
            root = self.search(view, legal_actions, search_rng)
        return _final_move(root, legal_actions, self.final == "value")

    def action_values(self) -> dict[str, tuple[int, float]]:
        """``str(action) -> (visits, mean utility)`` at the root of the last search."""
        if self.last_root is None:
            return {}
        return {
            str(a): (n.visits, n.reward / n.visits if n.visits else 0.0)
            for a, n in self.last_root.children.items()
        }

    # ----- search ------------------------------------------------------------------------------
    def _sample(self, view: Mapping[str, JSON], rng: random.Random) -> State:
        try:
            return self.sampler(view, rng)
        except NotImplementedError as exc:
            raise SearchError(str(exc)) from None

    def search(
        self, view: Mapping[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> _Node:
        """Run the iterations and return the root node (children keyed by action; with the
        compiled search, chance children are keyed by ``-1 - observation``)."""
        if self.engine == "fast":
            return self._fast_search(view, legal_actions, rng, full=True)
        root = _Node(CHANCE)
        first = self._sample(view, rng)
        seat = first.current_player
        if seat < 0 or list(first.legal_actions()) != list(legal_actions):
            raise SearchError(
                f"{self.game.name}: a state sampled from the view does not offer the legal "
                "actions of the view's seat (Game.sample_state is inconsistent)"
            )
        self._prior = None
        if self.bias > 0 and self._greedy is not None:
            self._prior = self._greedy.act(dict(view), list(legal_actions), random.Random(0))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        limit = self.iterations
        done = 0
        state: State | None = first
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if state is None:
                state = self._sample(view, rng)
            self._iterate(root, state, seat, rng)
            state = None
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root

    def _fast_search(
        self,
        view: Mapping[str, JSON],
        legal_actions: Sequence[Action],
        rng: random.Random,
        full: bool,
    ) -> _Node:
        """The search in :mod:`septet.fast.search`; returns the root (``full``: the whole tree
        as nodes, else the root's children only)."""
        import numpy as np

        from septet.fast.search import search_trees, warm_up

        kernel = self._kernel
        first = self._sample(view, rng)
        if (self.game.name, first.num_players) not in _WARM:
            # compile (or load from the disk cache) before the clock starts
            warm_up(self.game, first.num_players)
            _WARM.add((self.game.name, first.num_players))
        seat = first.current_player
        n = first.num_players
        ids = [self.game.action_to_id(a, n) for a in legal_actions]
        arr = kernel.encode(first)
        buf = np.zeros(kernel.max_actions(n), dtype=np.int64)
        cnt = kernel.legal_actions(arr, buf)
        if seat < 0 or [int(x) for x in buf[:cnt]] != ids:
            raise SearchError(
                f"{self.game.name}: a state sampled from the view does not offer the legal "
                "actions of the view's seat (Game.sample_state is inconsistent)"
            )
        prior = kernel.greedy_action(arr, buf, cnt) if self.bias > 0 else -1
        trees, done = search_trees(
            self.threads,
            game_name=self.game.name,
            root=arr,
            seat=seat,
            iterations=self.iterations,
            time_limit=self.time_limit,
            seed=rng.getrandbits(62),
            c=self.c,
            scale=self.scale,
            bias=self.bias,
            chance=self.chance,
            rollout=self.rollout,
            horizon_round=self.horizon == "round",
            depth=self.depth,
            tree_limit=self.tree,
            utility=self.utility,
            prior=prior,
            greedy_params=kernel.params,
            players=n,
            pool=None if self.pool_for is None else self.pool_for(view, rng),
        )
        self.last_iterations = done
        root = _tree_nodes(trees[0], self.game, n, full and len(trees) == 1)
        for other in trees[1:]:
            _add_root(root, _tree_nodes(other, self.game, n, False))
        self.last_root = root
        return root

    def _iterate(self, root: _Node, state: State, seat: int, rng: random.Random) -> None:
        """One iteration on the sampled ``state``: select and expand, roll out, back up."""
        round_index = state.round_index() if self.horizon == "round" else None
        path = self._select(root, state, seat, rng, round_index)
        returns = self._evaluate(state, rng, round_index)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.reward += returns[n.player]

    def _select(
        self, root: _Node, state: State, seat: int, rng: random.Random, round_index: int | None
    ) -> list[_Node]:
        """Selection and expansion on ``state`` (played along); returns the path from ``root``.

        Stops after expanding one node, at the tree's depth limit (chance nodes included) and,
        with the round horizon, as soon as the round in hand is over.
        """
        node = root
        path = [root]
        tree_limit = self.tree if self.tree is not None else -1
        decisions = 0  # player decisions walked below the root
        chance_mode = self.chance
        while decisions != tree_limit:
            if round_index is not None and state.round_index() != round_index:
                break
            player = state.current_player
            if player == CHANCE:
                outcome = state.sample_chance(rng)
                events = state.apply(outcome)
                if chance_mode == "open":
                    continue
                key: Hashable = (
                    observation_key(events, seat) if chance_mode == "observed" else outcome
                )
                child = node.chance_children.get(key)
                if child is None:
                    child = node.chance_children[key] = _Node(CHANCE)
                node = child
                path.append(node)
                continue
            if player < 0:
                break
            decisions += 1
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            prior = self._prior if node is root else None
            if untried:
                if prior is not None and prior in untried:
                    action = prior
                else:
                    action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(player)
                state.apply(action)
                path.append(child)
                break
            best_action = self._ucb(legal, children, prior)
            node = children[best_action]
            state.apply(best_action)
            path.append(node)
        return path

    def _ucb(
        self, legal: Sequence[Action], children: dict[Action, _Node], prior: Action | None
    ) -> Action:
        """UCB1 among fully expanded ``children`` (availability counts, progressive bias)."""
        c = self.c
        log = math.log
        sqrt = math.sqrt
        best_value = -1.0
        best_action: Action = legal[0]
        for a in legal:
            ch = children[a]
            ch.avail += 1
            value = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
            if a == prior:
                value += self.bias / (ch.visits + 1)
            if value > best_value:
                best_value, best_action = value, a
        return best_action

    def _evaluate(self, state: State, rng: random.Random, round_index: int | None) -> list[float]:
        """Roll out (to the end, the end of the round, or ``depth`` steps); utilities per seat."""
        if not state.is_terminal:
            self._rollout(state, rng, round_index)
        if not state.is_terminal:
            return cut_utilities(state, self.scale)
        if self.utility == "win":
            return list(state.returns())
        final = cut_utilities(state, self.scale)
        return [(w + f) / 2 for w, f in zip(state.returns(), final, strict=True)]

    def _rollout(self, state: State, rng: random.Random, round_index: int | None) -> None:
        """Play ``state`` on in place: to the end, for ``depth`` steps, or (``round_index`` given)
        until the round the search started in is over."""
        if round_index is not None and state.round_index() != round_index:
            return
        greedy = self._policy
        steps = self.depth if self.depth is not None else -1
        while steps != 0:
            steps -= 1
            player = state.current_player
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
                if round_index is not None and state.round_index() != round_index:
                    return
            elif player < 0:
                return
            else:
                legal = state.legal_actions()
                if greedy is None or len(legal) == 1:
                    state.apply(legal[rng.randrange(len(legal))])
                else:
                    state.apply(greedy.act(state.view(player), legal, rng))
                if round_index is not None and state.round_index() != round_index:
                    return


_WARM: set[tuple[str, int]] = set()


def _fast_kernel(game: Game[Any], required: bool) -> Any:
    """The game's compiled kernel, or ``None`` (``required``: raise ``ValueError`` instead)."""
    from septet import fast

    if fast.AVAILABLE and game.name in ("flip7", "double-seven", "seven-shot"):
        try:
            return fast.kernel_for(game)
        except fast.FastUnavailable:
            pass
    if required:
        raise ValueError(
            f"engine=fast needs the fast extra (pip install 'septet[fast]') and a kernel for "
            f"{game.name}"
        )
    return None


def _policies(game: Game[Any], rollout: str, bias: float) -> tuple[Agent | None, Agent | None]:
    """The greedy bot (for ``rollout=greedy`` or the progressive bias) and the rollout policy
    (``None``: random; ``rollout=tuned``: Seven Shot's :class:`TunedGreedyAgent`)."""
    greedy: Agent | None = None
    if rollout == "greedy" or bias > 0:
        from septet.bots import make_agent

        greedy = make_agent("greedy", game)
    if rollout != "tuned":
        return greedy, greedy if rollout == "greedy" else None
    from septet.bots.greedy.seven_shot import TunedGreedyAgent

    return greedy, TunedGreedyAgent(game)


def _final_move(root: _Node, legal_actions: Sequence[Action], by_value: bool) -> Action:
    """The move played: the most visited root child (ties by mean utility) or, ``by_value``,
    the best mean among the children visited at least a tenth as often as the most visited
    one (ties by visits)."""
    stats = []
    for action in legal_actions:
        child = root.children.get(action)
        if child is not None and child.visits:
            stats.append((action, child.visits, child.reward / child.visits))
    if not stats:
        return legal_actions[0]
    floor = max(v for _, v, _ in stats) / 10 if by_value else 0
    best, best_key = legal_actions[0], (-1.0, -1.0)
    for action, visits, mean in stats:
        key = (mean, float(visits)) if by_value else (float(visits), mean)
        if visits >= floor and key > best_key:
            best, best_key = action, key
    return best


def _tree_nodes(tree: Any, game: Game[Any], n: int, full: bool) -> _Node:
    """The compiled tree as :class:`_Node` objects (the root's children only unless ``full``)."""
    size = tree.size
    nodes: list[_Node | None] = [None] * size
    root = _Node(CHANCE)
    root.visits = int(tree.visits[0])
    nodes[0] = root
    parents = tree.parent[:size]
    for i in range(1, size):
        p = int(parents[i])
        if not full and p != 0:
            continue
        parent = nodes[p]
        if parent is None:
            continue
        node = _Node(int(tree.player[i]))
        node.visits = int(tree.visits[i])
        node.reward = float(tree.reward[i])
        node.avail = int(tree.avail[i])
        nodes[i] = node
        key = int(tree.key[i])
        if key >= 0:
            parent.children[game.id_to_action(key, n)] = node
        else:
            parent.chance_children[key] = node
    return root


def _add_root(root: _Node, other: _Node) -> None:
    """Add ``other``'s root statistics (visits, and each child's visits, availability and
    reward) into ``root``: the merge of root parallelisation."""
    root.visits += other.visits
    for action, node in other.children.items():
        mine = root.children.get(action)
        if mine is None:
            root.children[action] = node
            continue
        mine.visits += node.visits
        mine.avail += node.avail
        mine.reward += node.reward


def cut_utilities(state: State, scale: float) -> list[float]:
    """Utilities in (0, 1) of a state by its scores (a rollout cut short, or with
    ``utility=score`` a finished game).

    ``u[s] = 1 / (1 + exp(-(scores[s] - mean(scores)) / scale))``: 0.5 for a seat at the mean
    score, towards 1 (0) the further it is ahead of (behind) the table. Partners sharing a score
    (Seven Shot teams) get the same value. The logit is clamped to +-60, so any gap is safe.

    Args:
        state: any state (``State.scores()`` is read).
        scale: score points per unit of logit, > 0.

    Returns:
        One utility per seat.
    """
    scores = state.scores()
    mean = sum(scores) / len(scores)
    exp = math.exp
    return [1.0 / (1.0 + exp(-max(-60.0, min(60.0, (x - mean) / scale)))) for x in scores]


def make_ismcts(game: Game[Any], **params: str) -> ISMCTSAgent:
    """Factory for the ``ismcts`` spec (``ismcts:iterations=2000``, ``ismcts:time=1.0`` ...)."""
    allowed = {
        "iterations",
        "time",
        "c",
        "rollout",
        "chance",
        "seed",
        "depth",
        "horizon",
        "scale",
        "utility",
        "tree",
        "bias",
        "engine",
        "final",
        "threads",
    }
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise TypeError(
            f"unknown ismcts parameter(s) {', '.join(unknown)}; known: {', '.join(sorted(allowed))}"
        )
    return ISMCTSAgent(game, **params)  # type: ignore[arg-type]


__all__ = [
    "SCORE_SCALES",
    "ISMCTSAgent",
    "Sampler",
    "SearchError",
    "cut_utilities",
    "make_ismcts",
    "observation_key",
]
