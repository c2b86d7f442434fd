"""The ``septet`` command (Typer + Rich).

Subcommands live next to what they drive and add themselves here: each module listed in
``_COMMAND_MODULES`` defines ``register(app: typer.Typer) -> None``. A module that is missing (an
optional part not installed) is skipped.
"""

from __future__ import annotations

import importlib

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import septet
from septet import games
from septet.core.errors import SeptetError

app = typer.Typer(
    name="septet",
    help="Double Seven, Flip 7: With a Vengeance and Seven Shot: play, simulate, serve, study.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

# Modules that add subcommands (play, replay, rules, simulate, serve, advise, bench ...).
_COMMAND_MODULES = [
    "septet.cli_play",
    "septet.arena.cli",
    "septet.bots.cli",
    "septet.server.cli",
    "septet.envs.cli",
]


def _version_callback(value: bool) -> None:
    if value:
        console.print(f"septet {septet.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Show the version."
    ),
) -> None:
    """Septet: three tabletop games of sevens."""


@app.command("games")
def games_command() -> None:
    """List the registered games, their player counts and options: one table when the terminal is
    wide (120 columns or more), otherwise one block per game with each option's meaning beside or
    under it, so that no value is cut off at 80 columns."""
    if console.width < _WIDE_GAMES_TABLE:
        _games_blocks()
        return
    table = Table(title="Septet games")
    table.add_column("game", no_wrap=True)
    table.add_column("title")
    table.add_column("players", justify="right", no_wrap=True)
    table.add_column("option = default", no_wrap=True)
    table.add_column("meaning")
    for name in games.names():
        try:
            cls = games.game_class(name)
        except Exception as exc:  # a broken plug-in must not hide the others
            table.add_row(name, f"[red]unavailable: {exc}[/red]", "", "", "")
            continue
        specs = cls.option_specs() or [("-", "", "")]
        title = f"{cls.titles.get('en', name)}\n{cls.titles.get('ja', '')}"
        for i, (opt, default, meaning) in enumerate(specs):
            head = (name, title, f"{cls.min_players}-{cls.max_players}") if i == 0 else ("", "", "")
            last = i == len(specs) - 1
            table.add_row(*head, f"{opt} = {default!r}", meaning, end_section=last)
    console.print(table)


_WIDE_GAMES_TABLE = 120  # columns from which `septet games` fits in one table


def _games_blocks() -> None:
    """`septet games` for narrow terminals: a heading per game, then its options, each value whole
    and its meaning wrapped in the rest of the line."""
    console.print("[bold]Septet games[/bold]")
    for name in games.names():
        console.print()
        try:
            cls = games.game_class(name)
        except Exception as exc:  # a broken plug-in must not hide the others
            console.print(
                f"[bold]{escape(name)}[/bold]: [red]unavailable: {escape(str(exc))}[/red]"
            )
            continue
        titles = " / ".join(t for t in (cls.titles.get("en", name), cls.titles.get("ja")) if t)
        console.print(
            f"[bold]{escape(name)}[/bold]  {escape(titles)}  "
            f"({cls.min_players}-{cls.max_players} players)"
        )
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        for opt, default, meaning in cls.option_specs():
            grid.add_row(escape(f"  {opt} = {default!r}"), escape(meaning))
        if grid.row_count:
            console.print(grid)
        else:
            console.print("  (no options)")


def _register_subcommands() -> None:
    for module_name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # that part is not there (yet)
            raise
        module.register(app)


_register_subcommands()


def main() -> None:
    """Entry point of the ``septet`` console script: errors are sentences and exit code 2."""
    try:
        app()
    except SeptetError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
