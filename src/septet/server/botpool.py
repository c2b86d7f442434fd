"""Bot moves off the web path: computed in worker processes, never on the server's event loop
or its request threads.

A :class:`BotJob` says everything a worker needs (the game, the record so far, the seat, the
agent spec, the seed); :func:`compute_move` runs in the worker and answers the move's notation.
Each worker keeps the states and agents of the tables it served lately, so a move costs the
new steps, not a replay of the whole game. :class:`BotPool` is the embedded pool of worker
processes of ``septet serve``; ``septet bots`` workers (:mod:`septet.server.worker`) call
:func:`compute_move` in their own pool. Either way a move that takes longer than its budget, or
whose worker dies, is replaced by :func:`fallback_move`, and the move is applied with the same
version check as a person's.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import random
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from septet import games
from septet.bots import make_agent
from septet.core import Agent, State
from septet.core.play import seat_view
from septet.core.rng import derive_rng
from septet.server.levels import server_spec

log = logging.getLogger("septet.server")

WORKER_NICENESS = 10
"""How much lower the bot processes' CPU priority is than the server's (``os.nice``)."""

CACHE_TABLES = 256
"""Tables whose state and agents a worker keeps."""


@dataclass(frozen=True)
class BotJob:
    """One bot turn: ``seat`` of table ``table_id`` to move at ``version`` (``len(moves)``),
    playing agent ``spec``; ``game``/``options``/``num_players`` rebuild the game, ``moves`` is
    the record so far (notations), ``seed`` the table's seed."""

    table_id: str
    game: str
    options: dict[str, Any]
    num_players: int
    moves: tuple[str, ...]
    seat: int
    spec: str
    seed: str

    @property
    def version(self) -> int:
        """The version the move is made on."""
        return len(self.moves)


_STATES: OrderedDict[str, State] = OrderedDict()
_AGENTS: dict[tuple[str, int, str], Agent] = {}


def _state_for(job: BotJob) -> State:
    """The job's position: the worker's cached state of the table moved on by the new steps,
    or the record replayed."""
    game = games.get(job.game, **job.options)
    state = _STATES.pop(job.table_id, None)
    if state is None or len(state.history) > job.version:
        state = game.new_state(job.num_players)
    for text in job.moves[len(state.history) :]:
        state.apply(game.parse_action(state, text))
    _STATES[job.table_id] = state
    while len(_STATES) > CACHE_TABLES:
        old, _ = _STATES.popitem(last=False)
        for key in [k for k in _AGENTS if k[0] == old]:
            del _AGENTS[key]
    return state


def compute_move(job: BotJob) -> str:
    """The bot's move for ``job`` (runs in a worker process): its notation, always legal (an
    agent that fails or answers an illegal move is replaced by :func:`fallback_move`).

    Raises:
        SeptetError: the record does not replay, or no seat ``job.seat`` is to move.
    """
    state = _state_for(job)
    if state.current_player != job.seat:
        raise ValueError(f"seat {job.seat} is not to move at version {job.version}")
    key = (job.table_id, job.seat, job.spec)
    agent = _AGENTS.get(key)
    if agent is None:
        game = state.game
        try:
            agent = make_agent(server_spec(job.spec), game)
        except Exception:
            agent = make_agent("random", game)
        agent = _AGENTS[key] = agent
    legal = state.legal_actions()
    rng = derive_rng(job.seed, "seat", job.seat, job.version)
    try:
        action = agent.act(seat_view(state, job.seat), legal, rng)
    except Exception:
        log.exception("table %s: bot %s failed; playing a random move", job.table_id, job.spec)
        action = None
    if action not in legal:
        return fallback_move(job, state)
    return str(action)


def fallback_move(job: BotJob, state: State | None = None) -> str:
    """A uniformly random legal move for ``job`` (the move of a bot that ran out of time or
    whose worker died), drawn from the table's seed so every process draws the same."""
    if state is None:
        game = games.get(job.game, **job.options)
        state = game.new_state(job.num_players)
        for text in job.moves:
            state.apply(game.parse_action(state, text))
    legal = state.legal_actions()
    rng = random.Random(f"{job.seed}/fallback/{job.seat}/{job.version}")
    return str(legal[rng.randrange(len(legal))])


def game_modules() -> tuple[str, ...]:
    """The modules of every registered game (a game registered by a plugin or a test must be
    registered in the workers too)."""
    out = set()
    for name in games.names():
        try:
            out.add(games.game_class(name).__module__)
        except Exception:
            continue
    return tuple(sorted(out))


def _die_with_parent() -> None:
    """Exit when the process that started this worker dies (even by SIGKILL, which gives the
    pool no chance to stop its workers): a thread waits on the parent's sentinel."""
    import os
    import threading
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="septet-parent-watch", daemon=True).start()


def init_worker(modules: tuple[str, ...]) -> None:
    """Worker start: import the games' modules and what a move needs (the first job then costs
    the move, not the imports)."""
    import importlib
    import os

    import septet.bots.ismcts  # noqa: F401

    _die_with_parent()
    # Bots are background work: on a busy machine the web process, not a search, gets the CPU
    # first (a move's time budget is wall clock, so a bot only searches less).
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)

    for module in modules:
        try:
            importlib.import_module(module)
        except Exception:
            log.exception("bot worker: cannot import %s", module)


class BotPool:
    """A pool of bot worker processes (spawned, so no thread of the server is copied).

    Args:
        workers: number of processes (0: threads of this process, for comparison only).
    """

    _shared: dict[int, BotPool] = {}

    def __init__(self, workers: int) -> None:
        # 0: moves in the server's own thread pool, as before the bot processes (kept only so
        # that bench/bench_server.py can measure the difference in one run).
        self.workers = max(0, workers)
        self._pool: ProcessPoolExecutor | None = None

    @classmethod
    def shared(cls, workers: int) -> BotPool:
        """One pool per size for the whole process (many apps in one test run share it)."""
        pool = cls._shared.get(workers)
        if pool is None:
            pool = cls._shared[workers] = BotPool(workers)
            atexit.register(pool.shutdown)
        return pool

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=ctx, initializer=init_worker, initargs=(game_modules(),)
            )
        return self._pool

    async def choose(self, job: BotJob, budget: float) -> str | None:
        """The move for ``job`` (its notation), or ``None`` when it took over ``budget``
        seconds or its worker died (the pool is then renewed): the caller plays
        :func:`fallback_move`."""
        loop = asyncio.get_running_loop()
        try:
            if self.workers == 0:
                return await asyncio.wait_for(asyncio.to_thread(compute_move, job), budget)
            future = loop.run_in_executor(self._executor(), compute_move, job)
            return await asyncio.wait_for(future, budget)
        except TimeoutError:
            log.warning("table %s: bot %s out of time; fallback move", job.table_id, job.spec)
        except BrokenProcessPool:
            log.error("table %s: a bot worker died; fallback move, new pool", job.table_id)
            self._renew()
        except Exception:
            log.exception("table %s: bot move failed; fallback move", job.table_id)
        return None

    def _renew(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the worker processes (a move being computed is let finish)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
