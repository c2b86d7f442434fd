"""``septet rl-check``: run Gymnasium's, PettingZoo's and OpenSpiel's own environment tests on a
game.

Useful to the author of a new engine (or plug-in game) before training on it. Needs the ``rl``
extra; without it the command says how to install it.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from septet.arena.options import make_game, user_errors
from septet.core.game import Game


def rl_check(
    game: str = typer.Argument(..., help="Game name, e.g. flip7."),
    players: list[int] = typer.Option(  # noqa: B008
        [], "--players", "-p", help="Player count (repeatable; default: the game's minimum)."
    ),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="Game option name=value (repeatable)."
    ),
    games: int = typer.Option(3, "--games", "-g", min=1, help="Games per check."),
) -> None:
    """Run Gymnasium's check_env, PettingZoo's api_test, seed_test and render_test and OpenSpiel's
    random_sim_test (with serialization) on GAME; exit code 1 if any check fails."""
    console = Console()
    with user_errors():
        g = make_game(game, option)
        counts = players or [g.min_players]
        for n in counts:
            g.check_num_players(n)
        tools = _import_tools()
        table = Table(title=f"RL checks: {g.name}")
        for col in ("players", "check", "result"):
            table.add_column(col)
        failed = False
        for n in counts:
            for name, check in _checks(tools, g, n, games):
                ok, result = _run(check)
                failed = failed or not ok
                table.add_row(str(n), name, result)
        console.print(table)
        if failed:
            raise typer.Exit(1)


def _import_tools() -> SimpleNamespace:
    """The test functions of Gymnasium, PettingZoo and OpenSpiel and Septet's environments.

    Raises:
        typer.Exit: (code 2) the ``rl`` extra is missing, after saying how to install it.
    """
    try:
        import pyspiel
        from gymnasium.utils.env_checker import check_env
        from pettingzoo.test import api_test, render_test, seed_test

        from septet.envs import openspiel
        from septet.envs.gymnasium import SeptetEnv
        from septet.envs.pettingzoo import env
    except ModuleNotFoundError as exc:
        missing = exc.name or str(exc)
        Console(stderr=True, soft_wrap=True).print(
            f"[red]error:[/red] rl-check needs the 'rl' extra (missing module "
            f"{escape(missing)}): pip install 'septet\\[rl]'",
            highlight=False,
        )
        raise typer.Exit(2) from None
    return SimpleNamespace(
        pyspiel=pyspiel,
        check_env=check_env,
        api_test=api_test,
        render_test=render_test,
        seed_test=seed_test,
        openspiel=openspiel,
        SeptetEnv=SeptetEnv,
        env=env,
    )


def _checks(
    t: SimpleNamespace, g: Game[Any], n: int, games: int
) -> list[tuple[str, Callable[[], None]]]:
    """The named checks of ``g`` at ``n`` players, each a function that raises on failure."""
    options = g.options_dict()

    def pz_api() -> None:
        for _ in range(games):
            t.api_test(t.env(g, n), num_cycles=1_000_000)

    def pz_seed() -> None:
        t.seed_test(lambda: t.env(g, n), num_cycles=1_000_000)

    def pz_render() -> None:
        t.render_test(lambda render_mode=None: t.env(g, n, render_mode=render_mode))

    def gym_check() -> None:
        t.check_env(t.SeptetEnv(g, n, opponents="random"), skip_render_check=True)

    def spiel() -> None:
        spiel_game = t.openspiel.load(g.name, n, **options)
        t.pyspiel.random_sim_test(spiel_game, num_sims=games, serialize=True, verbose=False)

    return [
        ("pettingzoo api_test", pz_api),
        ("pettingzoo seed_test", pz_seed),
        ("pettingzoo render_test", pz_render),
        ("gymnasium check_env", gym_check),
        ("openspiel random_sim_test", spiel),
    ]


def _run(check: Callable[[], None]) -> tuple[bool, str]:
    """Run one check quietly: ``(passed, the result as table markup)``."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check()
    except Exception as exc:  # report every failure, then exit 1
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        return False, f"[red]failed:[/red] {escape(first[:200])}"
    return True, "[green]ok[/green]"


def register(app: typer.Typer) -> None:
    """Add ``rl-check`` to the ``septet`` command."""
    app.command("rl-check")(rl_check)


__all__ = ["register", "rl_check"]
