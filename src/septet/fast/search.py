"""SO-ISMCTS compiled: the search of :mod:`septet.bots.ismcts` run wholly in the kernels.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
Each iteration, as in the Python search:

1. **Determinization** (:func:`determinize`): the searching seat's information set is resampled
   from the encoded root, with only what that seat may know: in Flip 7 nothing is hidden (the
   deck is a multiset, the draws are chance nodes); in Double Seven the other racks beyond their
   known tiles and the pile are redealt from the unseen tiles, uniformly (as
   ``DoubleSeven.sample_state``); in Seven Shot the other hands (and, while dealing or passing,
   the undealt cards and the others' pass choices) are redealt uniformly among the deals that
   respect the hand sizes, the cards the seat passed and every void shown (rejection sampling,
   exact; after 2,000 rejections a sequential placement that keeps a complete deal possible,
   as the engine's own fallback). The passes between two other seats are not resampled: play
   never reads them.
2. **Selection** by UCB1 with availability counts over the actions legal in this
   determinization, progressive bias towards greedy's root move (``bias``); chance nodes sampled
   exactly and keyed by what the seat observes of the outcome (:func:`observe`: an opponent's
   face-down draw or dealt card is one key, anything the seat sees is its own key), by the
   outcome (``chance=outcome``) or not at all (``chance=open``).
3. **Expansion** of one untried action; ``tree`` limits the player decisions in the tree and the
   round horizon stops the walk when the round in hand is scored.
4. **Rollout** in the kernel with random or greedy moves, to the end of the game, of the round,
   or for ``depth`` steps.
5. **Evaluation** and **backpropagation** as in :mod:`septet.bots.ismcts` (``returns``, or
   ``cut_utilities`` of the scores with ``scale`` for a rollout cut short, or their mean with
   ``utility=score``).

The tree lives in flat arrays (:class:`Tree`): per node the seat that chose the edge into it
(``-1`` for chance), visits, availability and total reward; children are found through an
open-addressing hash of ``(parent, key)``, where a key is a player action id (``>= 0``) or
``-1 - observation`` for a chance child.

Each game has its own compiled search (``septet.fast.search_<game>``: the code of
:mod:`septet.fast._search_body` with that game's kernel bound), imported on first use, so a
process compiles (and caches) the search of the games it plays only. Flip 7's rollouts use the
kernel's playout path (``septet.fast.flip7.playout_fast``: the same games as the step path).
"""

from __future__ import annotations

import importlib
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from septet.fast._mode import aot_module, mode
from septet.fast.rng import make_rng

GAME_IDS = {"flip7": 0, "double-seven": 1, "seven-shot": 2}
EMPTY = -1
_MODULES = {0: "search_flip7", 1: "search_double_seven", 2: "search_seven_shot"}
_NAMES = {g: name for name, g in GAME_IDS.items()}


def kernel_module(g: int) -> ModuleType:
    """The compiled search of game id ``g`` (imported on first use: only that game's code is
    compiled, see :mod:`septet.fast._search_body`), or in the ``aot`` mode the same functions
    built ahead of time (:mod:`septet.fast._mode`)."""
    if mode() == "aot":
        return aot_module(f"{_NAMES[g]}-search")
    return importlib.import_module(f"septet.fast.{_MODULES[g]}")


def determinize(g: int, root: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` a state drawn from ``seat``'s information set of ``root`` (game id
    ``g``; see the module docstring)."""
    kernel_module(g).determinize(g, root, seat, rng, out)


def observe(g: int, s: np.ndarray, code: int, seat: int) -> int:
    """What ``seat`` observes of chance outcome ``code`` about to be applied to ``s`` (game id
    ``g``): the outcome itself (``code + 1``) when the seat sees it, else ``0``."""
    return int(kernel_module(g).observe(g, s, code, seat))


# ----- Python side --------------------------------------------------------------------------


@dataclass
class Tree:
    """The search tree in flat arrays (see the module docstring); node 0 is the root."""

    capacity: int
    game: int = 0
    hk: np.ndarray = field(init=False)
    hv: np.ndarray = field(init=False)
    meta: np.ndarray = field(init=False)
    player: np.ndarray = field(init=False)
    visits: np.ndarray = field(init=False)
    avail: np.ndarray = field(init=False)
    reward: np.ndarray = field(init=False)
    parent: np.ndarray = field(init=False)
    key: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        cap = self.capacity
        hcap = 1 << max(10, (2 * cap - 1).bit_length())
        self.hk = np.full(hcap, EMPTY, dtype=np.int64)
        self.hv = np.zeros(hcap, dtype=np.int64)
        self.meta = np.zeros(2, dtype=np.int64)
        self.player = np.zeros(cap, dtype=np.int64)
        self.visits = np.zeros(cap, dtype=np.int64)
        self.avail = np.zeros(cap, dtype=np.int64)
        self.reward = np.zeros(cap)
        self.parent = np.full(cap, -1, dtype=np.int64)
        self.key = np.zeros(cap, dtype=np.int64)
        self.meta[0] = 1
        self.player[0] = -1
        self.avail[0] = 1

    @property
    def size(self) -> int:
        """Nodes in use."""
        return int(self.meta[0])

    def grown(self) -> Tree:
        """A copy with twice the capacity (children re-hashed)."""
        new = Tree(self.capacity * 2, self.game)
        k = self.size
        for name in ("player", "visits", "avail", "reward", "parent", "key"):
            getattr(new, name)[:k] = getattr(self, name)[:k]
        new.meta[0] = k
        kernel_module(self.game)._rehash(new.hk, new.hv, new.parent, new.key, k)
        return new

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays :func:`iterate` takes, in its order (``hk`` … ``key``)."""
        return (self.hk, self.hv, self.meta, self.player, self.visits, self.avail, self.reward,
                self.parent, self.key)  # fmt: skip

    def children(self, node: int) -> dict[int, int]:
        """``key -> child index`` of ``node`` (keys: action ids, or ``-1 - observation``)."""
        k = self.size
        idx = np.nonzero(self.parent[:k] == node)[0]
        return {int(self.key[i]): int(i) for i in idx if i != 0}


def search(
    game_name: str,
    root: np.ndarray,
    seat: int,
    *,
    iterations: int | None,
    time_limit: float | None,
    seed: int,
    c: float,
    scale: float,
    bias: float,
    chance: str,
    rollout: str,
    horizon_round: bool,
    depth: int | None,
    tree_limit: int | None,
    utility: str,
    prior: int,
    greedy_params: np.ndarray,
    players: int,
    pool: np.ndarray | None = None,
) -> tuple[Tree, int]:
    """Run the compiled search on an encoded root (a state of ``seat``'s information set).

    Args:
        iterations / time_limit: the budget (whichever ends first; at least one iteration).
        seed: seeds the search's generator (one stream per move).
        prior: greedy's root move for the progressive bias, or -1.
        pool: encoded states of ``seat``'s information set, shape ``(k, len(root))``, int64:
            each iteration determinizes by one row drawn uniformly (``None``: the kernel's own
            uniform determinization).

    Returns:
        ``(tree, iterations done)``.

    Raises:
        ValueError: a ``pool`` of another dtype or width.
    """
    trees, done = search_trees(1, **locals())  # (only the parameters are local here)
    return trees[0], done


def search_trees(threads: int, **settings: Any) -> tuple[list[Tree], int]:
    """Root parallelisation (Chaslot, Winands & van den Herik, "Parallel Monte-Carlo tree
    search", CG 2008; Cazenave & Jouandeau's "single-run" parallel UCT): ``threads``
    independent searches of the same root, each with its own tree and generator (``seed +
    i``), run at once in threads (the compiled iteration releases the GIL), each within the
    whole budget (``iterations`` per tree, or the same ``time_limit``). The caller adds up the
    root's statistics over the trees.

    Args:
        threads: searches, >= 1.
        settings: :func:`search`'s keyword arguments, with ``game_name``, ``root`` and
            ``seat``.

    Returns:
        ``(trees, iterations done in all)``.

    Raises:
        ValueError: ``threads < 1``, or a bad ``pool`` (as :func:`search`).
    """
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    st = dict(settings)
    root = st["root"]
    fparams = np.array([st["c"], st["scale"], st["bias"]])
    iparams = _int_params(
        st["chance"], st["rollout"], st["horizon_round"], st["depth"], st["tree_limit"],
        st["utility"], st["prior"],
    )  # fmt: skip
    params = (fparams, iparams, st["greedy_params"])
    pool = st.get("pool")
    if pool is None:
        pool = np.zeros((0, root.shape[0]), dtype=np.int64)
    elif pool.ndim != 2 or pool.shape[1] != root.shape[0] or pool.dtype != np.int64:
        raise ValueError(f"pool must be int64 of shape (k, {root.shape[0]}), not {pool.shape}")
    g = GAME_IDS[st["game_name"]]
    budget = (st["iterations"], st["time_limit"])

    def one(i: int) -> tuple[Tree, int]:
        rng = make_rng(st["seed"] + i)
        return _run_chunks(g, root, st["seat"], rng, params, budget, st["players"], pool)

    if threads == 1:
        tree, done = one(0)
        return [tree], done
    with ThreadPoolExecutor(threads) as ex:
        results = list(ex.map(one, range(threads)))
    return [t for t, _ in results], sum(d for _, d in results)


def _int_params(
    chance: str,
    rollout: str,
    horizon_round: bool,
    depth: int | None,
    tree_limit: int | None,
    utility: str,
    prior: int,
) -> np.ndarray:
    """The integer settings :func:`iterate` reads, in its order (-1: no limit)."""
    return np.array(
        [
            {"observed": 0, "outcome": 1, "open": 2}[chance],
            {"random": 0, "greedy": 1, "tuned": 2}[rollout],
            1 if horizon_round else 0,
            -1 if depth is None else depth,
            -1 if tree_limit is None else tree_limit,
            1 if utility == "score" else 0,
            prior,
        ],
        dtype=np.int64,
    )


def _run_chunks(
    g: int,
    root: np.ndarray,
    seat: int,
    rng: np.ndarray,
    params: tuple[np.ndarray, np.ndarray, np.ndarray],
    budget: tuple[int | None, float | None],
    players: int,
    pool: np.ndarray,
) -> tuple[Tree, int]:
    """Call :func:`iterate` in chunks until the ``(iterations, time_limit)`` budget is spent,
    growing the tree as needed."""
    fparams, iparams, greedy_params = params
    iterations, time_limit = budget
    per_iteration = players + 12
    if iterations is not None and time_limit is None:
        tree = Tree(iterations * per_iteration + 1024, g)
    else:
        tree = Tree(1 << 16, g)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    done = 0
    chunk = 16
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done > 0 and time.perf_counter() >= deadline:
            break
        want = chunk if iterations is None else min(chunk, iterations - done)
        if tree.size + want * per_iteration + 512 >= tree.capacity:
            tree = tree.grown()
        t0 = time.perf_counter()
        got = kernel_module(g).iterate(
            g, root, seat, want, rng, *tree.arrays(), fparams, iparams, greedy_params, pool
        )
        done += got
        if got < want:
            tree = tree.grown()
        if deadline is not None:
            spent = time.perf_counter() - t0
            left = deadline - time.perf_counter()
            # chunks of about a twentieth of the time left, so the deadline is kept
            if spent > 0 and got:
                chunk = max(1, min(4096, int(got * max(left, 0.0) / 20 / spent)))
        else:
            chunk = 4096
    return tree, done


def warm_up(game: Any, num_players: int) -> None:
    """Compile the search for ``game`` now (a few iterations on a fresh game), so that the first
    real move is not charged the compile time (cached on disk after the first process)."""
    from septet.fast import kernel_for

    k = kernel_for(game)
    state = game.new_state(num_players)
    import random as _random

    r = _random.Random(0)
    while state.current_player < 0 and not state.is_terminal:
        state.apply(state.sample_chance(r))
    search(
        game.name,
        k.encode(state),
        state.current_player,
        iterations=2,
        time_limit=None,
        seed=0,
        c=0.7,
        scale=1.0,
        bias=0.0,
        chance="observed",
        rollout="greedy",
        horizon_round=False,
        depth=None,
        tree_limit=None,
        utility="win",
        prior=-1,
        greedy_params=k.params,
        players=num_players,
    )


__all__ = [
    "GAME_IDS",
    "Tree",
    "determinize",
    "kernel_module",
    "observe",
    "search",
    "search_trees",
    "warm_up",
]
