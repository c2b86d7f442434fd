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
from septet.cli_play import option_rows, print_options_ja
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


_GAMES_WORDS = {
    "en": {
        "title": "Septet games",
        "game": "game",
        "name": "title",
        "players": "players",
        "option": "option = default",
        "meaning": "meaning",
        "count": "({lo}-{hi} players)",
        "none": "(no options)",
        "how": "Change an option with -o name=value (septet play, simulate, serve tables).",
    },
    "ja": {
        "title": "Septet のゲーム",
        "game": "ゲーム",
        "name": "名前",
        "players": "人数",
        "option": "オプション：既定値",
        "meaning": "説明",
        "count": "（{lo}〜{hi}人）",
        "none": "（オプションなし）",
        "how": "オプションは -o 名前=値 で変えられます（septet play、simulate など）。",
    },
}


@app.command("games")
def games_command(
    lang: str = typer.Option("en", "--lang", "-l", help="Language: en or ja."),
) -> None:
    """List the registered games, their player counts and options: one table when the terminal is
    wide (120 columns or more), otherwise one block per game with each option's meaning beside or
    under it, so that no value is cut off at 80 columns. ``--lang ja`` lists them in Japanese."""
    if lang not in _GAMES_WORDS:
        raise SeptetError(f"language must be en or ja, not {lang!r}")
    words = _GAMES_WORDS[lang]
    # A console of this call: the terminal's width now (the module's console keeps the width
    # it saw when it was made).
    console = Console()
    if console.width < _WIDE_GAMES_TABLE:
        _games_blocks(console, lang)
        console.print()
        console.print(escape(words["how"]))
        return
    table = Table(title=words["title"])
    table.add_column(words["game"], no_wrap=True)
    table.add_column(words["name"])
    table.add_column(words["players"], justify="right", no_wrap=True)
    table.add_column(words["option"], no_wrap=True)
    table.add_column(words["meaning"], overflow="fold")
    for name in games.names():
        try:
            cls = games.game_class(name)
        except Exception as exc:  # a broken plug-in must not hide the others
            table.add_row(name, f"[red]unavailable: {exc}[/red]", "", "", "")
            continue
        rows = option_rows(cls.options_type, lang) or [("-", "", "")]
        if lang == "ja":
            title = cls.titles.get("ja", name)
        else:
            title = f"{cls.titles.get('en', name)}\n{cls.titles.get('ja', '')}"
        for i, (opt, default, meaning) in enumerate(rows):
            head = (name, title, f"{cls.min_players}-{cls.max_players}") if i == 0 else ("", "", "")
            last = i == len(rows) - 1
            option = f"{opt}：{default}" if default else opt
            table.add_row(*(escape(x) for x in (*head, option, meaning)), end_section=last)
    console.print(table)
    console.print(escape(words["how"]))


_WIDE_GAMES_TABLE = 120  # columns from which `septet games` fits in one table


def _games_blocks(console: Console, lang: str = "en") -> None:
    """`septet games` for narrow terminals: a heading per game, then its options, each value whole
    and its meaning wrapped in the rest of the line."""
    words = _GAMES_WORDS[lang]
    console.print(f"[bold]{escape(words['title'])}[/bold]")
    for name in games.names():
        console.print()
        try:
            cls = games.game_class(name)
        except Exception as exc:  # a broken plug-in must not hide the others
            console.print(
                f"[bold]{escape(name)}[/bold]: [red]unavailable: {escape(str(exc))}[/red]"
            )
            continue
        if lang == "ja":
            titles = cls.titles.get("ja", name)
        else:
            titles = " / ".join(t for t in (cls.titles.get("en", name), cls.titles.get("ja")) if t)
        count = words["count"].format(lo=cls.min_players, hi=cls.max_players)
        console.print(f"[bold]{escape(name)}[/bold]  {escape(titles)}  {escape(count)}")
        rows = option_rows(cls.options_type, lang)
        if not rows:
            console.print(escape(f"  {words['none']}"))
        elif lang == "ja":
            # Japanese names and meanings are long and break anywhere: one line for the option
            # and its default, the meaning indented under it.
            print_options_ja(console, rows)
        else:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(no_wrap=True)
            grid.add_column(overflow="fold")
            for opt, _, meaning in rows:
                grid.add_row(escape(f"  {opt}"), escape(meaning))
            console.print(grid)


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
        err_console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
