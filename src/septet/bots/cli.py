"""``septet advise flip7``: the expected-value advisor for a Flip 7 hit/stay decision; and
``septet kernels build|status``: the compiled kernels' cache (:mod:`septet.bots.kernels`).

Example::

    septet advise flip7 --edition classic --row "12 9 5 +4" --seen "3 3 7 freeze" \\
        --opponent "11 8" --opponent "10 6 x2"

The deck left is a fresh deck of the edition less your row, the opponents' rows and the other
cards seen since the last shuffle (discards, busted rows). Cards use the engine's notation
(``0``-``13``, ``zero``, ``u7``, ``l13``, ``/2``, ``-2``..``-10``, ``+2``..``+10``, ``x2``,
``jom``, ``flip4``, ``swap``, ``steal``, ``discard``, ``freeze``, ``flip3``, ``second``).
"""

from __future__ import annotations

import json
import time
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

advise_app = typer.Typer(
    help="Advice from the bots' solvers (Flip 7 hit or stay).", no_args_is_help=True
)
console = Console()

_TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "title": "Flip 7 advisor ({edition}, {mode})",
        "modes": {"table": "others still in the round", "single": "you alone in the round"},
        "editions": {"vengeance": "With a Vengeance", "classic": "classic"},
        "reduced": "(too many positions for the exact programme: the advice uses the deck "
        "without its modifier and action cards, as the flip7-ev bot does)",
        "lower_bound": "(too many positions even for the reduced model: the value of hitting is "
        "the lower bound 'hit once, then stay'; a HIT is sure, a STAY is the best this bound "
        "can show)",
        "left": "cards left in the deck",
        "bust": "bust probability of the next card",
        "stay": "expected score if you stay",
        "hit": "expected score of the best continuation after a hit",
        "advice": "advice",
        "hit_word": "HIT",
        "stay_word": "STAY",
        "no_stay": "(you hold the Zero: staying is not allowed)",
    },
    "ja": {
        "title": "フリップ7 アドバイザー（{edition}、{mode}）",
        "modes": {"table": "他のプレイヤーもラウンド中", "single": "ラウンドに残るのはあなただけ"},
        "editions": {"vengeance": "復讐心とともに", "classic": "クラシック"},
        "reduced": "（局面が多すぎて厳密な計算ができないため、修正カードとアクションカードを"
        "除いた山札で計算しています。flip7-ev ボットと同じ方法です）",
        "lower_bound": "（局面が多すぎるため、ヒットの値は「1枚だけヒットしてステイ」の下限です。"
        "ヒットのおすすめは確実ですが、ステイはこの下限で示せる範囲の判断です）",
        "left": "山札の残り枚数",
        "bust": "次のカードでバーストする確率",
        "stay": "ステイしたときの得点",
        "hit": "ヒットして最善に続けたときの期待得点",
        "advice": "おすすめ",
        "hit_word": "ヒット",
        "stay_word": "ステイ",
        "no_stay": "（ゼロを持っているのでステイできません）",
    },
}


@advise_app.command("flip7")
def advise_flip7(
    row: str = typer.Option(
        "", "--row", "-r", help="Your row, e.g. '12 9 5 -4' (classic: '12 9 5 +4')."
    ),
    seen: str = typer.Option(
        "", "--seen", "-s", help="Other cards seen since the shuffle (discards, busted rows)."
    ),
    opponent: list[str] = typer.Option(  # noqa: B008
        [], "--opponent", "-o", help="An opponent's row (repeat the option for each)."
    ),
    edition: str = typer.Option("vengeance", "--edition", "-e", help="vengeance or classic."),
    alone: bool = typer.Option(
        False, "--alone", help="Every other player has busted: cards you draw are all yours."
    ),
    lang: str = typer.Option("en", "--lang", help="en or ja."),
) -> None:
    """Bust probability, the value of staying and of hitting on, and the advice (flip7-ev)."""
    from septet.bots.flip7_advice import AdviceInputError, advise_position, build_position

    if lang not in _TEXT:
        console.print(
            f"[red]error:[/red] --lang must be one of {', '.join(_TEXT)}, not {escape(repr(lang))}"
        )
        raise typer.Exit(2)
    text = _TEXT[lang]
    try:
        mine, pool = build_position(edition, row, seen, opponent)
    except AdviceInputError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    mode = "single" if alone else "table"
    # Exact within a position budget; else the bot's reduced model within a budget; else the
    # "hit once, then stay" lower bound. Never runs away (seconds, well under 1 GB).
    advice, method = advise_position(edition, mine, pool, alone)
    note = "" if method == "exact" else text[method]
    title = text["title"].format(edition=text["editions"][edition], mode=text["modes"][mode])
    table = Table(title=title, show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_row(text["left"], str(sum(pool)))
    table.add_row(text["bust"], f"{advice.bust_probability:.1%}")
    table.add_row(text["stay"], "-" if advice.stay is None else f"{advice.stay:.2f}")
    table.add_row(text["hit"], f"{advice.hit:.2f}")
    word = text["hit_word"] if advice.action == "hit" else text["stay_word"]
    table.add_row(text["advice"], f"[bold]{word}[/bold]")
    console.print(table)
    if advice.stay is None:
        console.print(text["no_stay"])
    if note:
        console.print(note)


def __getattr__(name: str) -> Any:
    # The advice itself lives in septet.bots.flip7_advice (imported on use: it loads the solver).
    if name in ("ADVISE_MAX_STATES", "AdviceInputError", "build_position"):
        from septet.bots import flip7_advice

        return getattr(flip7_advice, name)
    raise AttributeError(name)


# ----- septet kernels ------------
kernels_app = typer.Typer(
    help="The compiled kernels (numba): build their cache ahead of use, or show it.",
    no_args_is_help=True,
)


@kernels_app.command("build")
def build_command(
    game: list[str] = typer.Option(  # noqa: B008
        None, "--game", "-g", help="A game to build (repeatable; default: all three)."
    ),
    jobs: int = typer.Option(
        1, "--jobs", "-j", min=1, help="Games built at once, each in a process of its own."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the steps as JSON lines."),
    aot: bool = typer.Option(
        True,
        "--aot/--no-aot",
        help="Also link the play and search kernels ahead of time (run without numba after).",
    ),
) -> None:
    """Compile (or load from the cache) every kernel the bots and tools of each game use, then
    link their entry points ahead of time."""
    from septet.bots.kernels import build

    if not as_json:
        console.print(
            "Compiling each game's kernels (minutes the first time, seconds once cached)"
            + (", then linking them ahead of time…" if aot else "…"),
            highlight=False,
            markup=False,
        )

    def done(got: list[Any]) -> None:
        if not as_json and got:
            cpu = sum(step.cpu_s for step in got)
            uses = ", ".join(f"{step.use} {_compiled(step)}" for step in got)
            console.print(
                f"  {got[0].game}: {uses} ({cpu:.1f} CPU-s)", highlight=False, markup=False
            )

    t0 = time.perf_counter()
    steps = build(game or None, jobs, aot=aot, on_game=done)
    wall = time.perf_counter() - t0
    table = Table(title="septet kernels build", show_edge=False)
    for col, just in (("game", "left"), ("use", "left"), ("CPU s", "right"),
                      ("wall s", "right"), ("compiled", "right")):  # fmt: skip
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for step in steps:
        if as_json:
            print(json.dumps(step.__dict__))
        table.add_row(step.game, step.use, f"{step.cpu_s:.1f}", f"{step.wall_s:.1f}",
                      _compiled(step))  # fmt: skip
    if not as_json:
        console.print(table)
        total = sum(step.cpu_s for step in steps)
        console.print(f"{total:.1f} CPU-s in all, {wall:.1f} s wall; later processes load them.")
        for step in steps:
            if step.note:
                console.print(f"Not linked ahead of time ({step.game}): {step.note}",
                              markup=False, highlight=False)  # fmt: skip
        if aot:
            _aot_status(False, after_build=True)


def _compiled(step: Any) -> str:
    """The table's last cell: functions compiled, modules linked, or ``cached``."""
    if step.use.startswith("aot"):
        return "failed" if step.note else f"{step.compiled} module{'s' * (step.compiled != 1)}"
    return str(step.compiled) if step.compiled else "cached"


@kernels_app.command("status")
def status_command(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON line per kernel file."),
) -> None:
    """Where each kernel file's cache lies, how many functions it holds, and whether it matches
    the current sources (a stale one is rebuilt on the next use)."""
    import importlib.util

    from septet.fast import _cache, require

    require()
    if importlib.util.find_spec("numba") is None:  # built ahead of time, numba not installed
        if not as_json:
            console.print("numba is not installed: no JIT cache to show.", highlight=False)
        _aot_status(as_json)
        return
    table = Table(title="septet kernels status", show_edge=False)
    for col in ("kernel file", "cached functions", "sources", "cache directory"):
        table.add_column(col, overflow="fold")
    for rel in _cache.KERNEL_FILES:
        d = _cache.cache_dir(_cache.ROOT / rel)
        entries, fresh = len(_cache.index_files(rel)), _cache.is_current(rel)
        if as_json:
            print(json.dumps({"file": rel, "functions": entries, "current": fresh,
                              "directory": str(d)}))  # fmt: skip
        table.add_row(rel, str(entries), "current" if fresh else "changed: rebuilt on use", str(d))
    if not as_json:
        console.print(table)
    _aot_status(as_json)


def _aot_status(as_json: bool, after_build: bool = False) -> None:
    """The ahead-of-time build of the current sources: where, which modules, whether a new
    process will run it (or why not) and this process's mode."""
    from septet.fast import _mode

    data = _mode.read_manifest()
    modules = sorted((data or {}).get("modules", {}))
    why = _mode.problem(data)
    line = {"aot_dir": str(_mode.kernel_dir()), "aot_modules": modules, "aot_complete": why is None,
            "aot_problem": why, "mode": _mode.mode()}  # fmt: skip
    if as_json:
        print(json.dumps(line))
        return
    built = ", ".join(modules) if modules else "none for these sources"
    say = [f"Ahead of time ({line['aot_dir']}): {built}."]
    if why is None:
        say.append("A new process runs these without numba (SEPTET_KERNELS=jit: numba's own).")
    else:
        say.append(f"Not used: {why}; a new process runs numba's kernels.")
    if not after_build:
        say.append(f"This process's kernels: {line['mode']}.")
    for text in say:
        console.print(text, highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    """Add ``advise`` (``septet advise flip7``) and ``kernels`` (``septet kernels build``,
    ``septet kernels status``) to the ``septet`` command."""
    app.add_typer(advise_app, name="advise")
    app.add_typer(kernels_app, name="kernels")


__all__ = ["advise_app", "kernels_app", "register"]
