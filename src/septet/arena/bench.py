"""Engine benchmark: random playouts per registered game and player count (``septet bench``,
``bench/bench_engines.py``).

For each configuration it times ``num_games`` calls of :func:`septet.core.random_playout` from a
new state (uniform random actions, exact chance) and reports games/s, steps/s (actions and chance
outcomes), the mean game length, and the peak Python memory of one playout batch (measured in a
separate, untimed pass under ``tracemalloc``, which slows code down). A benchmark, not a test.
"""

from __future__ import annotations

import json
import platform
import random
import resource
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from septet.core.game import Game, State
from septet.core.play import random_playout
from septet.core.rng import derive_rng

MAX_DEFAULT = 6
"""Without ``players``, counts from the game's minimum up to this (Flip 7 seats up to 36)."""


@dataclass
class BenchRow:
    """One configuration's numbers.

    Attributes:
        game, players: what was played.
        games: playouts timed; seconds: their total wall time.
        games_per_s, steps_per_s: throughput; mean_steps: steps per game.
        peak_kib: peak traced Python memory (KiB) while playing ``memory_games`` games.
        max_rss_mib: the process's peak resident memory so far (MiB, ``getrusage``).
        error: why the configuration could not run (engine missing or failing), else ``None``.
    """

    game: str
    players: int
    games: int = 0
    seconds: float = 0.0
    games_per_s: float = 0.0
    steps_per_s: float = 0.0
    mean_steps: float = 0.0
    peak_kib: float = 0.0
    memory_games: int = 0
    max_rss_mib: float = 0.0
    error: str | None = None


def _max_rss_mib() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return rss / (1024 * 1024) if platform.system() == "Darwin" else rss / 1024


def time_random_games(
    game: Game[Any],
    num_players: int,
    num_games: int,
    rng: random.Random,
    tally: Callable[[State], Mapping[str, float]] | None = None,
) -> dict[str, float]:
    """Play ``num_games`` random games of ``game`` with ``num_players`` seats, one after another
    from ``rng`` (:func:`septet.core.random_playout` from a new state: uniform random actions,
    exact chance), and time them.

    Only ``new_state`` and the playout are timed; ``tally(final_state)`` runs untimed after each
    game, and what it returns is summed key by key over the games.

    Raises:
        ValueError: a tally key is ``seconds``, ``cpu_seconds`` or ``steps``.

    Returns:
        ``{"seconds", "cpu_seconds", "steps", **tallies}``: the total wall-clock seconds
        (``time.perf_counter``) and CPU seconds of this process (``time.process_time``) of the
        playouts, the total number of steps (actions and chance outcomes, ``len(history)``)
        and each tally's total, all summed over the ``num_games`` games.
    """
    wall = cpu = 0.0
    totals: dict[str, float] = {"steps": 0}
    for _ in range(num_games):
        start, start_cpu = time.perf_counter(), time.process_time()
        state = random_playout(game.new_state(num_players), rng)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        totals["steps"] += len(state.history)
        for key, value in (tally(state) if tally else {}).items():
            if key in ("seconds", "cpu_seconds", "steps"):
                raise ValueError(f"tally key {key!r} is one of the timing keys")
            totals[key] = totals.get(key, 0) + value
    return {"seconds": wall, "cpu_seconds": cpu, **totals}


def bench_game(game: Game[Any], num_players: int, num_games: int, seed: int = 0) -> BenchRow:
    """Time ``num_games`` random playouts of ``game`` with ``num_players`` seats."""
    row = BenchRow(game.name, num_players)
    try:
        rng = derive_rng(seed, "bench", game.name, num_players)
        random_playout(game.new_state(num_players), rng)  # warm-up: imports, caches
        timing = time_random_games(game, num_players, num_games, rng)
        seconds, steps = timing["seconds"], timing["steps"]
        mem_games = max(1, min(20, num_games))
        tracemalloc.start()
        try:
            for _ in range(mem_games):
                random_playout(game.new_state(num_players), rng)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    except Exception as exc:  # a missing or broken engine is a row, not a crash
        row.error = f"{type(exc).__name__}: {exc}"
        return row
    row.games = num_games
    row.seconds = seconds
    row.games_per_s = num_games / seconds if seconds > 0 else 0.0
    row.steps_per_s = steps / seconds if seconds > 0 else 0.0
    row.mean_steps = steps / num_games if num_games else 0.0
    row.peak_kib = peak / 1024
    row.memory_games = mem_games
    row.max_rss_mib = _max_rss_mib()
    return row


def bench_engines(
    names: Sequence[str] | None = None,
    num_games: int = 200,
    seed: int = 0,
    players: Sequence[int] | None = None,
    options: dict[str, dict[str, Any]] | None = None,
) -> list[BenchRow]:
    """Benchmark each game in ``names`` (default: every registered game) at each player count in
    ``players`` (default: every count the game supports up to :data:`MAX_DEFAULT`)."""
    from septet import games

    rows: list[BenchRow] = []
    for name in names if names is not None else games.names():
        try:
            game = games.get(name, **(options or {}).get(name, {}))
        except Exception as exc:  # an engine not there yet: report it and go on
            rows.append(BenchRow(name, 0, error=f"{type(exc).__name__}: {exc}"))
            continue
        counts = players or range(game.min_players, min(game.max_players, MAX_DEFAULT) + 1)
        for n in counts:
            if not game.min_players <= n <= game.max_players:
                continue
            rows.append(bench_game(game, n, num_games, seed))
    return rows


def rows_table(rows: Sequence[BenchRow]) -> Any:
    """A Rich table of the rows."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Random playouts per engine")
    for col in ("game", "players", "games", "games/s", "steps/s", "steps/game", "peak KiB"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        if r.error:
            err = f"[red]{escape(r.error)}[/red]"
            table.add_row(r.game, str(r.players or "-"), "-", "-", "-", "-", err)
            continue
        table.add_row(
            r.game,
            str(r.players),
            str(r.games),
            f"{r.games_per_s:,.0f}",
            f"{r.steps_per_s:,.0f}",
            f"{r.mean_steps:.1f}",
            f"{r.peak_kib:,.0f}",
        )
    return table


def write_json(rows: Sequence[BenchRow], path: Path, extra: dict[str, Any] | None = None) -> Path:
    """Write the rows (and machine info) as JSON to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "benchmark": "engines",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        **(extra or {}),
        "rows": [asdict(r) for r in rows],
    }
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def time_agent_moves(
    game: Game[Any],
    agent: Any,
    num_players: int,
    num_games: int,
    seed: int = 0,
    determinize_every: int = 7,
) -> dict[str, float]:
    """Play ``num_games`` games with ``agent`` in every seat (exact chance) and time its moves,
    and a ``determinize`` of the seat to move every ``determinize_every`` moves.

    Returns:
        ``{"agent_us_per_move", "moves_per_game", "determinize_us"}`` (microseconds).
    """
    from septet.core.play import seat_view
    from septet.core.types import CHANCE

    rng = derive_rng(seed, "bench-agent", game.name, num_players)
    act_time = det_time = 0.0
    moves = dets = 0
    for _ in range(num_games):
        state = game.new_state(num_players)
        while not state.is_terminal:
            seat = state.current_player
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = seat_view(state, seat)
            legal = state.legal_actions()
            t0 = time.perf_counter()
            action = agent.act(view, legal, rng)
            act_time += time.perf_counter() - t0
            moves += 1
            if moves % determinize_every == 0:
                t0 = time.perf_counter()
                state.determinize(seat, rng)
                det_time += time.perf_counter() - t0
                dets += 1
            state.apply(action)
    return {
        "agent_us_per_move": 1e6 * act_time / max(moves, 1),
        "moves_per_game": moves / max(num_games, 1),
        "determinize_us": 1e6 * det_time / max(dets, 1),
    }


def time_greedy(
    game: Game[Any], num_players: int, num_games: int, seed: int = 0
) -> dict[str, float]:
    """:func:`time_agent_moves` for the game's greedy bot, with ``greedy_`` keys:
    ``{"greedy_us_per_move", "greedy_moves_per_game", "determinize_us"}``."""
    from septet.bots import make_agent

    timing = time_agent_moves(game, make_agent("greedy", game), num_players, num_games, seed)
    return {
        "greedy_us_per_move": timing["agent_us_per_move"],
        "greedy_moves_per_game": timing["moves_per_game"],
        "determinize_us": timing["determinize_us"],
    }


def profile_playouts(
    game: Game[Any], num_players: int, num_games: int, seed: int = 0, top: int = 18
) -> str:
    """A cProfile of ``num_games`` random playouts: the ``top`` functions by own time, as text."""
    import cProfile
    import io
    import pstats

    rng = derive_rng(seed, "bench-profile", game.name, num_players)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(num_games):
        random_playout(game.new_state(num_players), rng)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def print_columns(rows: Sequence[dict[str, Any]], cols: Sequence[tuple[str, str, str]]) -> None:
    """Print ``rows`` as a plain table: ``cols`` are ``(heading, key, format)``."""
    print(" | ".join(c[0] for c in cols))
    for row in rows:
        print(" | ".join(fmt.format(row[key]).rjust(len(name)) for name, key, fmt in cols))


def write_results(path: Path, benchmark: str, payload: dict[str, Any]) -> Path:
    """Write a benchmark's results as JSON to ``path`` with the machine's description."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "benchmark": benchmark,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        **payload,
    }
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


__all__ = [
    "BenchRow",
    "bench_engines",
    "bench_game",
    "print_columns",
    "profile_playouts",
    "rows_table",
    "time_agent_moves",
    "time_greedy",
    "time_random_games",
    "write_json",
    "write_results",
]
