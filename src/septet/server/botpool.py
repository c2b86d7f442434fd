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

Each process serves its tables' turns in a fair order (:class:`FairGate`): the turns waiting for
it are taken one owner at a time in turn (the owner of a table is whoever created it: its
address's digest), so an owner of many bot tables slows their own tables, not everyone else's.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import logging
import multiprocessing
import random
import threading
import weakref
import zlib
from collections import OrderedDict, deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from septet import games
from septet.bots import make_agent
from septet.core import CHANCE, Agent, State
from septet.core.play import seat_view
from septet.core.rng import derive_rng
from septet.server.levels import server_spec
from septet.server.metrics import BOT_THINK

log = logging.getLogger("septet.server")

WORKER_NICENESS = 10
"""How much lower the bot processes' CPU priority is than the server's (``os.nice``)."""

CACHE_TABLES = 4096
"""Tables whose state and agents a worker keeps (a worker serves the same tables: see
:class:`BotPool`)."""


@dataclass(frozen=True)
class BotJob:
    """One bot turn: ``seat`` of table ``table_id`` to move at ``version``, playing agent
    ``spec``; ``game``/``options``/``num_players`` rebuild the game, ``seed`` is the table's
    seed. ``moves`` are the record's notations from index ``start`` on: the whole record
    (``start`` 0), or only the steps the worker has not seen yet."""

    table_id: str
    game: str
    options: dict[str, Any]
    num_players: int
    moves: tuple[str, ...]
    seat: int
    spec: str
    seed: str
    start: int = 0

    @property
    def version(self) -> int:
        """The version the move is made on."""
        return self.start + len(self.moves)

    def since(self, start: int) -> BotJob:
        """The same job carrying only the steps from index ``start`` on."""
        return dataclasses.replace(self, moves=self.moves[start - self.start :], start=start)


class NeedRecord(Exception):
    """The worker has not seen the steps before a job's ``start``: send the whole record."""


_TABLES: OrderedDict[str, tuple[State, dict[tuple[int, str], Agent]]] = OrderedDict()


def _table_for(job: BotJob) -> tuple[State, dict[tuple[int, str], Agent]]:
    """The job's position (the worker's cached state of the table moved on by the new steps,
    or the record replayed) and the table's agents.

    Raises:
        NeedRecord: the job carries a part of the record the cached state does not end at.
    """
    entry = _TABLES.pop(job.table_id, None)
    seen = len(entry[0].history) if entry is not None else 0
    if job.start > 0 and seen != job.start:
        raise NeedRecord(job.table_id)
    if entry is None or seen > job.version:
        game = games.get(job.game, **job.options)
        entry, seen = (game.new_state(job.num_players), {}), 0
    state = entry[0]
    for text in job.moves[seen - job.start :]:  # the record only grows: a cached state is a prefix
        state.apply(state.game.parse_action(state, text))
    _TABLES[job.table_id] = entry
    while len(_TABLES) > CACHE_TABLES:
        _TABLES.popitem(last=False)
    return entry


def forget_table(table_id: str) -> None:
    """Drop a finished table's cached state and agents (runs in a worker process)."""
    _TABLES.pop(table_id, None)


class BotMove(str):
    """A bot's move as the worker answers it: its notation (a ``str``), and ``warming``: the
    seat's Strong search was still warming up (compiling), so the move is the Normal bot's
    (:func:`_normal_while_warming`). The server tells the players so (issue 27)."""

    warming: bool

    def __new__(cls, notation: str, warming: bool = False) -> BotMove:
        """``BotMove("hit", warming=True)``."""
        out = super().__new__(cls, notation)
        out.warming = warming
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (BotMove, (str(self), self.warming))


def compute_move(job: BotJob) -> BotMove:
    """The bot's move for ``job`` (runs in a worker process): its notation, always legal (an
    agent that fails or answers an illegal move is replaced by :func:`fallback_move`), marked
    ``warming`` when a Strong seat played at Normal while its compiled search warms up.

    Raises:
        NeedRecord: see :func:`_table_for`.
        SeptetError: the record does not replay, or no seat ``job.seat`` is to move.
    """
    state, agents = _table_for(job)
    if state.current_player != job.seat:
        raise ValueError(f"seat {job.seat} is not to move at version {job.version}")
    agent = agents.get((job.seat, job.spec))
    warming = False
    if agent is not None and _still_warming(agent, state):
        agent, warming = _normal_while_warming(job, state, agents), True
    elif agent is None and _cold_search(job.spec, state):
        # not even built yet: building it imports numba and the kernels (2 s on a busy
        # machine), so the warm-up thread does that and this move is Normal's
        agent, warming = _normal_while_warming(job, state, agents), True
    elif agent is None:
        try:
            agent = make_agent(server_spec(job.spec), state.game)
        except Exception:
            agent = make_agent("random", state.game)
        agents[(job.seat, job.spec)] = agent
        if _still_warming(agent, state):
            agent, warming = _normal_while_warming(job, state, agents), True
    legal = state.legal_actions()
    rng = derive_rng(job.seed, "seat", job.seat, job.version)
    try:
        action = agent.act(seat_view(state, job.seat), legal, rng)
    except Exception:
        log.exception("table %s: bot %s failed; playing a random move", job.table_id, job.spec)
        action = None
    if action not in legal:
        return BotMove(fallback_move(job, state), warming)
    return BotMove(str(action), warming)


# ----- the compiled search warmed in the worker (issue 27) -----------------------------------

WARM_ITERATIONS = 16
"""Iterations of the warm-up search of a game: enough to run every kernel of the search once."""

_WARMED: set[str] = set()
"""Games whose compiled search this worker has run (their kernels compiled or loaded)."""

_WARMERS: dict[str, threading.Thread] = {}
"""The warm-up thread of each game this worker started warming."""


def warm_search(name: str) -> None:
    """Run game ``name``'s Strong search once, a few iterations on a fresh deal, so that its
    kernels are compiled (about 10 s a game without numba's cache, seconds on a slow machine)
    and the next Strong move costs the move. Adds ``name`` to :data:`_WARMED` when done; a
    failure is logged (the Strong bot then compiles on its next move, as before)."""
    from septet.server.levels import STRONG, STRONG_DEFAULT

    try:
        game = games.get(name)
        state = game.new_state(min(max(3, game.min_players), game.max_players))
        rng = random.Random(0)
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        spec = STRONG.get(name, STRONG_DEFAULT)
        agent = make_agent(f"{spec},iterations={WARM_ITERATIONS}", game)
        agent.act(seat_view(state, state.current_player), state.legal_actions(), rng)
    except Exception:
        log.exception("bot worker: warming the compiled search of %s failed", name)
        return
    _WARMED.add(name)


def _warm_child(name: str) -> None:
    """The child process of :func:`_warm_apart`: compiles game ``name``'s search (writing
    numba's cache) and exits."""
    warm_search(name)


def _warm_apart(name: str) -> None:
    """Warm game ``name``'s search in a child process first, then in this one: numba's compiler
    holds the interpreter lock for the whole compile (about 10 CPU-s a game), which would starve
    the Normal moves this worker plays meanwhile; the child writes numba's cache, so this
    process then only loads the kernels (under a second). Falls back to warming here if the
    child cannot start."""
    try:
        child = multiprocessing.get_context("spawn").Process(
            target=_warm_child, args=(name,), name=f"septet-warm-{name}", daemon=True
        )
        child.start()
        child.join()
    except Exception:
        log.warning("bot worker: no process to warm the search of %s in; warming here", name)
    warm_search(name)


def _cold_search(spec: str, state: State) -> bool:
    """Whether ``spec`` (a seat's agent spec) is a search that would run in the compiled kernels
    (an ISMCTS not held to ``engine=python``, numba installed) for a game this worker has not
    warmed yet: then its warm-up starts on a thread (see :func:`_still_warming`) and this is
    True while it runs. Nothing is imported or built here."""
    import importlib.util

    name = state.game.name
    full = server_spec(spec)
    if name in _WARMED or not full.startswith("ismcts") or "engine=python" in full:
        return False
    if importlib.util.find_spec("numba") is None:
        return False
    return _warmer(name).is_alive()


def _warmer(name: str) -> threading.Thread:
    """The warm-up thread of game ``name`` (started on first use: :func:`_warm_apart`)."""
    warmer = _WARMERS.get(name)
    if warmer is None:
        warmer = _WARMERS[name] = threading.Thread(
            target=_warm_apart, args=(name,), name=f"septet-warm-{name}", daemon=True
        )
        warmer.start()
    return warmer


def _still_warming(agent: Agent, state: State) -> bool:
    """Whether ``agent`` is a compiled search whose kernels this worker is still warming up: the
    first Strong job of a game starts the warm-up on a thread (nothing is compiled for a game
    no Strong bot plays) and its moves are Normal's until the warm-up is done."""
    name = state.game.name
    if getattr(agent, "engine", None) != "fast" or name in _WARMED:
        return False
    return _warmer(name).is_alive()


def _normal_while_warming(job: BotJob, state: State, agents: dict[tuple[int, str], Agent]) -> Agent:
    """The Normal bot (greedy) playing a Strong seat's move while the compiled search warms
    up: the move comes within its budget instead of after the compiling (and the log says so)."""
    log.info("table %s: the Strong bot plays at Normal while its search warms up", job.table_id)
    normal = agents.get((job.seat, "greedy"))
    if normal is None:
        try:
            normal = make_agent("greedy", state.game)
        except Exception:
            normal = make_agent("random", state.game)
        agents[(job.seat, "greedy")] = normal
    return normal


def fallback_move(job: BotJob, state: State | None = None) -> str:
    """A uniformly random legal move for ``job`` (the move of a bot that ran out of time or
    whose worker died), drawn from the table's seed so every process draws the same."""
    if state is None:  # (a job with the whole record)
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


def _ready() -> bool:
    return True


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


class FairGate:
    """Admits ``capacity`` holders at once; the waiters are admitted one owner at a time in
    turn (round-robin over the owners waiting, each owner's waiters first come first served),
    so that an owner with many waiters delays the others by one turn at most.

    Args:
        capacity: holders at once (a bot process: 1).
    """

    def __init__(self, capacity: int = 1) -> None:
        self.free = capacity
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def __len__(self) -> int:
        """Waiters."""
        return sum(len(q) for q in self.waiting.values())

    def try_acquire(self) -> bool:
        """Hold the gate now if it is free and nobody waits (``True``), else ``False``."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return True
        return False

    async def acquire(self, owner: str) -> None:
        """Wait for ``owner``'s turn (then hold the gate until :meth:`release`)."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # admitted just as the waiter gave up: pass it on
            else:
                queue = self.waiting.get(owner)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self.waiting[owner]
            raise

    def release(self) -> None:
        """Give the gate to the next owner's first waiter (or free it)."""
        while self.waiting:
            owner, queue = next(iter(self.waiting.items()))
            future = queue.popleft()
            if queue:
                self.waiting.move_to_end(owner)  # the next owner's turn next
            else:
                del self.waiting[owner]
            if not future.done():
                future.set_result(None)
                return
        self.free += 1


class BotPool:
    """A pool of bot worker processes (spawned, so no thread of the server is copied). Each
    table is served by the same worker (by a hash of its id), which keeps its state: a job
    carries only the steps that worker has not seen.

    Args:
        workers: number of processes (0: threads of this process, for comparison only).
    """

    _shared: dict[int, BotPool] = {}

    def __init__(self, workers: int) -> None:
        # 0: moves in the server's own thread pool, as before the bot processes (kept only so
        # that bench/bench_server.py can measure the difference in one run).
        self.workers = max(0, workers)
        self._executors: list[ProcessPoolExecutor | None] = [None] * self.workers
        self._sent: list[dict[str, int]] = [{} for _ in range(self.workers)]
        # one set of gates per event loop (a shared pool serves the apps of a test run, each
        # on its own loop)
        self._gates: weakref.WeakKeyDictionary[Any, list[FairGate]] = weakref.WeakKeyDictionary()
        self.asked = 0  # moves asked and not answered yet

    @classmethod
    def shared(cls, workers: int) -> BotPool:
        """One pool per size for the whole process (many apps in one test run share it)."""
        pool = cls._shared.get(workers)
        if pool is None:
            pool = cls._shared[workers] = BotPool(workers)
            atexit.register(pool.shutdown)
        return pool

    def _executor(self, slot: int) -> ProcessPoolExecutor:
        found = self._executors[slot]
        if found is None:
            ctx = multiprocessing.get_context("spawn")
            found = self._executors[slot] = ProcessPoolExecutor(
                1, mp_context=ctx, initializer=init_worker, initargs=(game_modules(),)
            )
        return found

    def warm(self) -> None:
        """Start the worker processes now (in the background), so that the first bot move does
        not wait for a process to start and import the games."""
        for slot in range(self.workers):
            self._executor(slot).submit(_ready)

    async def _run(self, slot: int, job: BotJob, budget: float) -> str:
        """The move from worker ``slot``, sending only the steps it has not seen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget
        sent = self._sent[slot]
        known = sent.get(job.table_id, 0)
        part = job.since(known) if 0 < known <= job.version else job
        # asyncio.timeout, not wait_for: wait_for wraps the future in a task of its own (13%
        # of the event loop's time at 200 tables, bench_server.py --cprofile).
        try:
            async with asyncio.timeout_at(deadline):
                move = await loop.run_in_executor(self._executor(slot), compute_move, part)
        except NeedRecord:
            async with asyncio.timeout_at(max(deadline, loop.time() + 0.01)):
                move = await loop.run_in_executor(self._executor(slot), compute_move, job)
        if len(sent) > CACHE_TABLES:
            sent.clear()  # the worker forgets too; it asks for whole records (NeedRecord)
        sent[job.table_id] = job.version
        return move

    def forget(self, table_id: str) -> None:
        """A table's game ended: its worker drops the state and agents it keeps for it (else
        each process would keep :data:`CACHE_TABLES` finished tables, a few MB each), and this
        pool what it sent. Not waited for; a worker not started has nothing to drop."""
        if self.workers == 0:
            forget_table(table_id)
            return
        slot = zlib.crc32(table_id.encode()) % self.workers
        self._sent[slot].pop(table_id, None)
        pool = self._executors[slot]
        if pool is not None:
            with contextlib.suppress(RuntimeError):  # (shut down meanwhile)
                pool.submit(forget_table, table_id)

    async def choose(self, job: BotJob, budget: float, owner: str = "") -> str | None:
        """The move for ``job`` (its notation), or ``None`` when it took over ``budget``
        seconds (waiting for the process included) or its worker died (the worker is then
        renewed): the caller plays :func:`fallback_move`. ``owner`` (default: the table) is
        whose turn in the process's fair order (:class:`FairGate`) the move waits for."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        self.asked += 1
        try:
            return await self._choose(job, budget, owner or job.table_id)
        finally:
            self.asked -= 1
            BOT_THINK.labels(job.game).observe(loop.time() - began)

    async def _choose(self, job: BotJob, budget: float, owner: str) -> str | None:
        if self.workers == 0:
            try:
                return await asyncio.wait_for(asyncio.to_thread(compute_move, job), budget)
            except Exception:
                log.exception("table %s: bot move failed; fallback move", job.table_id)
                return None
        slot = zlib.crc32(job.table_id.encode()) % self.workers
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget
        gates = self._gates.get(loop)
        if gates is None:
            gates = self._gates[loop] = [FairGate(1) for _ in range(self.workers)]
        gate = gates[slot]
        try:
            if not gate.try_acquire():  # a free process is taken at once, without a timer
                async with asyncio.timeout(budget):
                    await gate.acquire(owner)
        except TimeoutError:
            log.warning("table %s: bot %s out of time waiting; fallback move", job.table_id,
                        job.spec)  # fmt: skip
            return None
        try:
            return await self._run(slot, job, max(0.01, deadline - loop.time()))
        except TimeoutError:
            log.warning("table %s: bot %s out of time; fallback move", job.table_id, job.spec)
        except BrokenProcessPool:
            log.error("table %s: a bot worker died; fallback move, new worker", job.table_id)
            self._renew(slot)
        except Exception:
            log.exception("table %s: bot move failed; fallback move", job.table_id)
        finally:
            gate.release()
        self._sent[slot].pop(job.table_id, None)
        return None

    def _renew(self, slot: int) -> None:
        pool, self._executors[slot] = self._executors[slot], None
        self._sent[slot].clear()
        if pool is not None:
            _stop(pool)

    def shutdown(self) -> None:
        """Stop the worker processes (a move being computed is abandoned)."""
        for slot, pool in enumerate(self._executors):
            self._executors[slot] = None
            self._sent[slot].clear()
            if pool is not None:
                _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down without waiting for a search in progress: its process is terminated
    (the executor has no public way to; Python 3.14's ``terminate_workers`` is the same)."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(2)
