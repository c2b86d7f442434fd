"""``septet simulate`` (many games between agents, seats rotated) and ``septet bench`` (engine
throughput)."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from septet.arena.options import build_agent, make_game, probe_writable, split_specs, user_errors
from septet.arena.report import Report, build_report, write_results
from septet.arena.runner import (
    BACKENDS,
    RunOutcome,
    fast_engine_problem,
    make_job,
    ray_available,
    run,
)
from septet.arena.schedule import Schedule
from septet.core.errors import OptionError
from septet.core.game import Game


class RateColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} games/s" if speed else "- games/s", style="cyan")


def _bad(message: str) -> OptionError:
    return OptionError(message)


def _check_out_dir(out: Path) -> None:
    """Create the results folder ``out`` (parents too) and check that a file can be written in it,
    before any game is played; raises OptionError (exit 2) with the reason otherwise."""
    if out.exists() and not out.is_dir():
        raise _bad(f"--out {out} is a file, not a folder")
    probe = out / ".septet-write-check"
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise _bad(f"cannot write the results to {out}: {exc.strerror or exc}") from exc


def _check_out_file(out: Path) -> None:
    """Check that the JSON file ``out`` can be written (its folder is created), before timing."""
    if out.is_dir():
        raise _bad(f"--out {out} is a folder; give a file name such as {out / 'engines.json'}")
    try:
        probe_writable(out)
    except OSError as exc:
        raise _bad(f"cannot write {out}: {exc.strerror or exc}") from exc


def print_report(report: Report, console: Console) -> None:
    """The per-agent table, the seat advantage and the game length."""
    sched = report.schedule
    table = Table(
        title=f"{report.game}: {report.games_played} games, {sched.num_players} seats",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for col in ("agent", "games", "wins", "win rate", "95% CI", "score ± sd", "rating μ±σ"):
        table.add_column(col, justify="left" if col == "agent" else "right", no_wrap=True)
    for a in report.agents:
        r = a.rating
        table.add_row(
            escape(a.label),
            str(a.games),
            str(a.wins),
            f"{a.win_rate.rate:.1%}",
            f"{a.win_rate.low:.1%}–{a.win_rate.high:.1%}",
            f"{a.scores.mean:.1f} ± {a.scores.std:.1f}",
            f"{r['mu']:.1f} ± {r['sigma']:.1f}",
        )
    console.print(table)
    if report.seats is not None:
        seats = Table(title="Seat advantage (whoever sits there)", box=box.SIMPLE_HEAD)
        for col in ("seat", "win rate", "95% CI", "vs mean"):
            seats.add_column(col, justify="right")
        for s, (p, adv) in enumerate(zip(report.seats.seats, report.seats.advantage, strict=True)):
            seats.add_row(str(s), f"{p.rate:.1%}", f"{p.low:.1%}–{p.high:.1%}", f"{adv:+.1%}")
        console.print(seats)
        console.print(
            f"chi-square {report.seats.chi2:.2f}, p = {report.seats.p_value:.3g} "
            "(small p: the seats are not equal)"
        )
    ln = report.length
    console.print(
        f"game length: {ln.mean:.1f} ± {ln.std:.1f} steps "
        f"(min {ln.min:g}, median {ln.median:g}, max {ln.max:g})"
    )
    if report.errors:
        first = report.errors[0]
        console.print(
            Text(
                f"{len(report.errors)} game(s) failed; first: game {first.index}: {first.error}",
                style="red",
            )
        )


def simulate(
    game: str = typer.Argument(..., help="Game name (see `septet games`)."),
    agents: str = typer.Option(
        ..., "--agents", "-a", help="Agent specs, comma-separated: greedy,random,ismcts:time=1"
    ),
    num_games: int = typer.Option(100, "--games", "-n", help="Number of games."),
    players: int | None = typer.Option(
        None, "--players", help="Seats per game (default: the number of agents)."
    ),
    seed: int = typer.Option(0, "--seed", help="Master seed; game i's seed derives from it."),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes (or Ray CPUs)."),
    backend: str = typer.Option("local", "--backend", help="local or ray."),
    address: str | None = typer.Option(
        None, "--address", help="Ray cluster address (default: start a local Ray)."
    ),
    out: Path | None = typer.Option(  # noqa: B008
        None, "--out", help="Folder for results.json, games.csv and the plots."
    ),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="Game option name=value (repeatable)."
    ),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="Write the PNG plots."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    engine: str = typer.Option(
        "python",
        "--engine",
        help="python (the engines) or fast (random, greedy and Flip 7 risk agents in the "
        "compiled kernels of septet.fast; pip install 'septet[fast]').",
    ),
) -> None:
    """Play many games between agents with the seats rotated; print and save the statistics."""
    console = Console(highlight=False)
    with user_errors():
        g = make_game(game, option)
        specs = split_specs(agents)
        k = players if players is not None else len(specs)
        _check_simulate(g, specs, k, num_games, workers, seed, backend, engine)
        if out is None:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            out = Path("septet-results") / f"{g.name}-{stamp}"
        _check_out_dir(out)  # before playing: a bad --out must not cost the whole run
        schedule = Schedule(tuple(specs), k, num_games, seed)
    job = make_job(g, schedule, engine)
    console.print(
        f"{escape(g.name)}: {num_games} games, {k} seats, agents {escape(', '.join(specs))}, "
        f"seed {seed}, {workers} worker(s), backend {backend}, engine {engine}"
    )
    bar = _progress_bar(progress)
    with bar:
        task = bar.add_task("games", total=num_games)
        outcome = run(
            job,
            workers=workers,
            backend=backend,
            on_progress=lambda n: bar.advance(task, n),
            address=address,
        )
    _report_simulation(console, g, schedule, outcome, out, plots)
    if outcome.interrupted:
        raise typer.Exit(130)


def _check_simulate(
    g: Game[Any],
    specs: list[str],
    k: int,
    num_games: int,
    workers: int,
    seed: int,
    backend: str,
    engine: str,
) -> None:
    """Reject bad ``simulate`` arguments (exit 2) before any game is played."""
    if not specs:
        raise _bad("--agents needs at least one agent spec")
    g.check_num_players(k)
    if num_games < 1:
        raise _bad(f"--games must be at least 1, not {num_games}")
    if workers < 1:
        raise _bad(f"--workers must be at least 1, not {workers}")
    if seed < 0:
        raise _bad(f"--seed must be 0 or more, not {seed}")
    if backend not in BACKENDS:
        raise _bad(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "ray" and not ray_available():
        raise _bad("the ray backend needs ray: pip install 'septet[ray]'")
    for spec in dict.fromkeys(specs):
        build_agent(spec, g)  # unknown agent or bad parameters: exit 2 before any game
    if engine not in ("python", "fast"):
        raise _bad(f"--engine must be python or fast, not {engine!r}")
    if engine == "fast":
        problem = fast_engine_problem(g, specs)
        if problem is not None:
            raise _bad(problem)


def _progress_bar(progress: bool) -> Progress:
    """The games bar on stderr (count, rate, elapsed, ETA); disabled by ``--no-progress``."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not progress,
        transient=False,
    )


def _report_simulation(
    console: Console, g: Game[Any], schedule: Schedule, outcome: RunOutcome, out: Path, plots: bool
) -> None:
    """Print the statistics and the rate, and write the results folder."""
    if outcome.interrupted:
        console.print(
            Text(
                f"Stopped: {len(outcome.results)} of {schedule.num_games} games finished; "
                "keeping them.",
                style="yellow",
            )
        )
    report = build_report(g.name, g.options_dict(), schedule, outcome)
    print_report(report, console)
    rate = len(outcome.results) / outcome.elapsed_s if outcome.elapsed_s > 0 else 0.0
    console.print(
        f"{len(outcome.results)} games in {outcome.elapsed_s:.2f} s ({rate:,.1f} games/s)"
    )
    with user_errors():
        try:
            paths = write_results(report, out, plots=plots)
        except OSError as exc:
            raise OptionError(f"cannot write the results to {out}: {exc}") from exc
    console.print(Text(f"results written to {out}: " + ", ".join(p.name for p in paths)))


def bench(
    games: list[str] = typer.Argument(  # noqa: B008
        None, help="Games to benchmark (default: every registered game)."
    ),
    num_games: int = typer.Option(200, "--games", "-n", help="Random playouts per configuration."),
    players: list[int] = typer.Option(  # noqa: B008
        [], "--players", help="Player counts (repeatable; default: every supported count)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the playouts."),
    out: Path | None = typer.Option(  # noqa: B008
        None, "--out", help="JSON file to write (default: bench/results/engines-<time>.json)."
    ),
) -> None:
    """Time random playouts of each engine: games/s, steps/s, peak memory; writes JSON."""
    from septet.arena.bench import bench_engines, rows_table, write_json

    console = Console(highlight=False)
    with user_errors():
        if num_games < 1:
            raise _bad(f"--games must be at least 1, not {num_games}")
        from septet import games as registry

        names = list(games) if games else None
        supported: list[str] = []
        for name in names or registry.names():
            cls = registry.game_class(name)  # unknown game: exit 2
            if players and not any(cls.min_players <= n <= cls.max_players for n in players):
                if names:
                    raise _bad(
                        f"{name} is played by {cls.min_players}-{cls.max_players} players, "
                        f"not {', '.join(map(str, players))}"
                    )
                continue
            supported.append(name)
        if not supported:
            raise _bad(f"no game is played by {', '.join(map(str, players))} players")
        if out is None:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            out = Path("bench") / "results" / f"engines-{stamp}.json"
        _check_out_file(out)
    rows = bench_engines(names, num_games, seed, players or None)
    console.print(rows_table(rows))
    path = write_json(rows, out, {"games_per_config": num_games, "seed": seed})
    console.print(Text(f"written to {path}"))


def register(app: typer.Typer) -> None:
    """Add ``simulate`` and ``bench`` to the ``septet`` command."""
    app.command("simulate")(simulate)
    app.command("bench")(bench)


__all__ = ["print_report", "register"]
