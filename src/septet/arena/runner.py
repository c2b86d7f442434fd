"""Play a :class:`~septet.arena.schedule.Schedule`: in-process, in worker processes, or on Ray.

Games are sent to workers in chunks of consecutive indices; each game is set up from the schedule
alone (seating and seed from its index), and results are sorted by index, so the outcome does not
depend on the number of workers or the backend. Agents are built once per worker and must not
carry state from one game to the next (the bots in :mod:`septet.bots` don't).

Ctrl-C stops cleanly: games not started are cancelled, and what finished is returned with
``interrupted=True``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from septet.arena.schedule import Schedule
from septet.core.game import Game
from septet.core.play import Agent, play_game
from septet.core.types import JSON

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class GameResult:
    """The outcome of game ``index`` of a schedule.

    Attributes:
        index: the game's number in the schedule.
        seed: the game's seed (``Schedule.game_seed(index)``): replays it with ``play_game``.
        seating: agent index per seat.
        scores: final score per seat.
        winners: winning seats.
        length: steps played (player actions and chance outcomes).
        error: why the game failed (an agent or engine error), else ``None``; a failed game has
            empty scores and winners and is left out of the statistics.
    """

    index: int
    seed: int
    seating: tuple[int, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    length: int
    error: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """The fields as a JSON object."""
        return {
            "index": self.index,
            "seed": self.seed,
            "seating": list(self.seating),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "length": self.length,
            "error": self.error,
        }


@dataclass(frozen=True)
class Job:
    """What a worker needs to play games of a schedule (picklable: no Game objects).

    Attributes:
        game: registry name.
        options: the game's options (``Game.options_dict()``).
        schedule: the plan.
        game_class: shipped along only for a game registered at run time outside
            ``septet.games`` (tests, plug-ins), so that workers that did not import it know it.
        engine: ``"python"`` (the engines and the agents) or ``"fast"`` (random and greedy
            agents played in the compiled kernels of :mod:`septet.fast`, see
            :func:`fast_engine_problem`).
    """

    game: str
    options: dict[str, JSON]
    schedule: Schedule
    game_class: type[Game[Any]] | None = None
    engine: str = "python"


@dataclass
class RunOutcome:
    """What a run returns: the finished games sorted by index, and whether it was stopped."""

    results: list[GameResult]
    interrupted: bool = False
    elapsed_s: float = 0.0
    workers: int = 1
    backend: str = "local"
    notes: list[str] = field(default_factory=list)


# ----- playing games (in whatever process) -------------------------------------------------
_CACHE: dict[str, tuple[Game[Any], list[Agent]]] = {}


def _setup(job: Job) -> tuple[Game[Any], list[Agent]]:
    # One game and one set of agents per worker process, reused by every chunk it plays.
    key = json.dumps([job.game, job.options, job.schedule.agents], sort_keys=True, default=repr)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    from septet import games
    from septet.bots import make_agent

    if job.game_class is not None and job.game not in games.names():
        games.register(job.game_class)
    game = games.get(job.game, **job.options)
    agents = [make_agent(spec, game) for spec in job.schedule.agents]
    _CACHE.clear()
    _CACHE[key] = (game, agents)
    return game, agents


def play_one(job: Job, index: int) -> GameResult:
    """Play game ``index`` of ``job`` and return its result (errors are caught and reported in
    :attr:`GameResult.error`)."""
    sched = job.schedule
    seating = sched.seating(index)
    seed = sched.game_seed(index)
    try:
        game, agents = _setup(job)
        res = play_game(game, [agents[a] for a in seating], seed)
        state = res.state
        return GameResult(
            index=index,
            seed=seed,
            seating=seating,
            scores=tuple(float(x) for x in state.scores()),
            winners=tuple(state.winners()),
            length=len(state.history),
        )
    except Exception as exc:  # reported per game; the run goes on
        return GameResult(index, seed, seating, (), (), 0, f"{type(exc).__name__}: {exc}")


def play_chunk(job: Job, indices: Sequence[int]) -> list[GameResult]:
    """Play the games ``indices`` of ``job`` in this process."""
    if job.engine == "fast":
        return _play_chunk_fast(job, indices)
    return [play_one(job, i) for i in indices]


def fast_engine_problem(game: Game[Any], specs: Sequence[str]) -> str | None:
    """Why ``septet simulate --engine fast`` cannot play ``specs`` on ``game``, or ``None``.

    The kernels play ``random``, ``greedy`` (one set of greedy parameters per run) and, in
    Flip 7, ``risk`` (one ``p`` per run); every other agent, a game without a kernel, or a
    missing ``fast`` extra is a problem.
    """
    from septet import fast
    from septet.bots import parse_spec

    if not fast.AVAILABLE:
        return "--engine fast needs the fast extra: pip install 'septet[fast]'"
    greedy: set[str] = set()
    risk: set[str] = set()
    for spec in specs:
        name, params = parse_spec(spec)
        if name == "risk" and game.name == "flip7" and set(params) <= {"p"}:
            risk.add(params.get("p", ""))
            continue
        if name not in ("random", "greedy") or (name == "random" and params):
            return f"--engine fast plays random, greedy and (Flip 7) risk agents, not {spec!r}"
        if name == "greedy":
            greedy.add(json.dumps(params, sort_keys=True))
    if len(greedy) > 1:
        return "--engine fast plays one set of greedy parameters per run"
    if len(risk) > 1:
        return "--engine fast plays one risk limit p per run"
    try:
        kernel = fast.kernel_for(game, _greedy_params(specs))
    except (fast.FastUnavailable, ValueError, TypeError) as exc:
        return f"--engine fast: {exc}"
    del kernel
    return None


def _greedy_params(specs: Sequence[str]) -> dict[str, str]:
    """The kernel's parameters: the greedy spec's, and the risk spec's ``p``."""
    from septet.bots import parse_spec

    out: dict[str, str] = {}
    for spec in specs:
        name, params = parse_spec(spec)
        if name == "greedy":
            out.update(params)
        elif name == "risk" and "p" in params:
            out["p"] = params["p"]
    return out


_FAST: dict[str, Any] = {}


def _play_chunk_fast(job: Job, indices: Sequence[int]) -> list[GameResult]:
    """The games ``indices`` played in the kernels, in one compiled call (random, greedy and
    risk agents; chance from a kernel generator seeded with the game's seed)."""
    from septet import games
    from septet.bots import parse_spec
    from septet.fast import kernel_for
    from septet.fast.batch import play_games

    sched = job.schedule
    key = json.dumps([job.game, job.options, sched.agents], sort_keys=True)
    hit = _FAST.get(key)
    if hit is None:
        game = games.get(job.game, **job.options)
        hit = _FAST[key] = (game, kernel_for(game, _greedy_params(sched.agents)))
    game, kernel = hit
    names = [parse_spec(spec)[0] for spec in sched.agents]
    seatings = [sched.seating(i) for i in indices]
    seeds = [sched.game_seed(i) for i in indices]
    try:
        out = play_games(
            game,
            sched.num_players,
            seeds,
            [[names[a] for a in seating] for seating in seatings],
            kernel=kernel,
        )
    except Exception as exc:  # reported per game, as the Python engine's errors are
        err = f"{type(exc).__name__}: {exc}"
        return [
            GameResult(i, sd, st, (), (), 0, err)
            for i, sd, st in zip(indices, seeds, seatings, strict=True)
        ]
    results = []
    for row, (i, sd, st) in enumerate(zip(indices, seeds, seatings, strict=True)):
        results.append(
            GameResult(
                index=i,
                seed=sd,
                seating=st,
                scores=tuple(float(x) for x in out.scores[row]),
                winners=tuple(int(p) for p in range(sched.num_players) if out.wins[row, p]),
                length=int(out.lengths[row]),
            )
        )
    return results


def chunks(num_games: int, workers: int, max_chunk: int = 64) -> list[range]:
    """Split ``range(num_games)`` into consecutive chunks: small enough for a live progress bar
    and a quick stop (at most ``max_chunk`` games), about 16 per worker for balance."""
    if num_games <= 0:
        return []
    size = max(1, min(max_chunk, -(-num_games // (workers * 16))))
    return [range(i, min(i + size, num_games)) for i in range(0, num_games, size)]


# ----- local backend ---------------------------------------------------------------------
def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the parent, which stops handing out work and keeps what finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _mp_context() -> Any:
    # fork: workers inherit the registry (games registered at run time) and start fast.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def run_local(
    job: Job,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Play every game of ``job`` here (``workers == 1``) or in ``workers`` processes.

    Args:
        on_progress: called with the number of games just finished.
    """
    start = time.perf_counter()
    results: list[GameResult] = []
    interrupted = False
    parts = chunks(job.schedule.num_games, workers)
    if workers <= 1:
        try:
            for part in parts:
                results.extend(play_chunk(job, part))
                if on_progress:
                    on_progress(len(part))
        except KeyboardInterrupt:
            interrupted = True
    else:
        pool = ProcessPoolExecutor(workers, mp_context=_mp_context(), initializer=_ignore_sigint)
        futures: list[Future[list[GameResult]]] = []
        collected: set[Future[list[GameResult]]] = set()
        try:
            futures = [pool.submit(play_chunk, job, part) for part in parts]
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    got = fut.result()
                    results.extend(got)
                    collected.add(fut)
                    if on_progress:
                        on_progress(len(got))
        except KeyboardInterrupt:
            interrupted = True
            for fut in futures:
                fut.cancel()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if interrupted:  # keep every chunk that finished, also those running at Ctrl-C
            for fut in futures:
                finished = fut.done() and not fut.cancelled() and fut.exception() is None
                if finished and fut not in collected:
                    results.extend(fut.result())
    results.sort(key=lambda r: r.index)
    return RunOutcome(
        results,
        interrupted,
        time.perf_counter() - start,
        workers=max(1, workers),
        backend="local",
    )


# ----- ray backend -------------------------------------------------------------------------
def ray_available() -> bool:
    """Whether the ``ray`` extra is installed."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _ray_chunk(job: Job, indices: list[int]) -> list[GameResult]:
    return play_chunk(job, indices)


def run_ray(
    job: Job,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    address: str | None = None,
) -> RunOutcome:
    """Play every game of ``job`` as Ray tasks, on the cluster at ``address`` or on a local Ray
    instance started here with ``num_cpus=workers`` (and stopped at the end).

    Raises:
        ImportError: ray is not installed (``pip install 'septet[ray]'``).
    """
    import ray

    start = time.perf_counter()
    started_here = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(
                num_cpus=max(1, workers),
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        started_here = True
    if job.game_class is not None:
        # A game registered at run time (tests, plug-ins) travels by value to the workers.
        module = sys.modules.get(job.game_class.__module__)
        if module is not None and not job.game_class.__module__.startswith("septet."):
            ray.cloudpickle.register_pickle_by_value(module)  # type: ignore[no-untyped-call]
    remote = ray.remote(_ray_chunk)
    results: list[GameResult] = []
    interrupted = False
    job_ref = ray.put(job)
    pending = [
        remote.remote(job_ref, list(part)) for part in chunks(job.schedule.num_games, workers)
    ]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                got = ray.get(ref)
                results.extend(got)
                if on_progress:
                    on_progress(len(got))
    except KeyboardInterrupt:
        interrupted = True
        for ref in pending:
            ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()
    results.sort(key=lambda r: r.index)
    return RunOutcome(
        results, interrupted, time.perf_counter() - start, workers=workers, backend="ray"
    )


def make_job(game: Game[Any], schedule: Schedule, engine: str = "python") -> Job:
    """The :class:`Job` for ``game`` (with its options) and ``schedule``, played by ``engine``
    (``"python"`` or ``"fast"``)."""
    cls = type(game)
    ship = None if cls.__module__.startswith("septet.games.") else cls
    return Job(game.name, game.options_dict(), schedule, ship, engine)


def run(
    job: Job,
    workers: int = 1,
    backend: str = "local",
    on_progress: Callable[[int], None] | None = None,
    address: str | None = None,
) -> RunOutcome:
    """Run ``job`` on ``backend`` (``"local"`` or ``"ray"``) with ``workers`` workers.

    Raises:
        ValueError: unknown backend.
        ImportError: the ray backend without ray installed.
    """
    if backend == "local":
        return run_local(job, workers, on_progress)
    if backend == "ray":
        return run_ray(job, workers, on_progress, address)
    raise ValueError(f"unknown backend {backend!r}; backends are {', '.join(BACKENDS)}")


def iter_valid(results: Sequence[GameResult]) -> Iterator[GameResult]:
    """The games that finished without an error."""
    return (r for r in results if r.error is None)


__all__ = [
    "BACKENDS",
    "GameResult",
    "Job",
    "RunOutcome",
    "chunks",
    "fast_engine_problem",
    "make_job",
    "play_chunk",
    "play_one",
    "ray_available",
    "run",
    "run_local",
    "run_ray",
]
