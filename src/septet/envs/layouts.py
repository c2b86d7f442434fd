"""The reference page of the observation layouts and action encodings, generated from the
engines' declarations (``python -m septet.envs.layouts > docs/rl-layouts.md``; a test checks
that the page in the repository is the generated one). Standard library only."""

from __future__ import annotations

import sys
from typing import Any

from septet import games
from septet.core.game import Game
from septet.core.infostate import information_state_spec, token_width

#: (game, options, player counts): the tables are shown for the first count, sizes for all.
SHOWN: list[tuple[str, dict[str, Any], tuple[int, ...]]] = [
    ("double-seven", {}, (2, 3, 4)),
    ("flip7", {}, (3, 2, 4, 8, 19)),
    ("flip7", {"edition": "classic"}, (3, 2, 8, 36)),
    ("seven-shot", {}, (3, 4)),
]


def _label(game: Game[Any], options: dict[str, Any]) -> str:
    extra = ", ".join(f"{k}={v}" for k, v in options.items())
    return f"`{game.name}`" + (f" ({extra})" if extra else "")


def sizes_table() -> str:
    """Observation, information-state and action sizes per game and player count."""
    lines = [
        "| game | players | observation | information state (history steps × width) | "
        "flat actions | compact: choices × steps |",
        "|---|---|---|---|---|---|",
    ]
    for name, options, counts in SHOWN:
        game = games.get(name, **options)
        for n in sorted(counts):
            enc = game.action_encoding(n)
            steps, scope = game.history_bound(n)
            info = information_state_spec(game, n).size
            lines.append(
                f"| {_label(game, options)} | {n} | {game.observation_size(n):,} | "
                f"{info:,} ({steps:,} × {token_width(game, n)}, {scope}) | {enc.size:,} | "
                f"{enc.compact_size} × ≤{1 + enc.max_args} |"
            )
    return "\n".join(lines)


def page() -> str:
    """The whole Markdown page."""
    out = [
        "# Observation layouts and action encodings",
        "",
        "Generated from the engines' declarations by `python -m septet.envs.layouts` (do not "
        "edit by hand; `tests/envs/test_envs_layouts.py` checks it is current). Each "
        "observation is a list of named pieces (`Game.observation_spec(n)`, "
        "`septet.core.observation`) with true bounds; each action encoding a versioned list of "
        "kinds with arguments (`Game.action_encoding(n)`, `septet.core.encoding`). Offsets "
        "below are for the player count named in each heading; the sizes for the others are "
        "in the first table. See [rl.md](rl.md).",
        "",
        "## Sizes",
        "",
        sizes_table(),
    ]
    for name, options, counts in SHOWN:
        game = games.get(name, **options)
        n = counts[0]
        out += [
            "",
            f"## {_label(game, options)}, {n} players",
            "",
            "### Observation",
            "",
            game.observation_spec(n).markdown(),
            "",
            "### Actions",
            "",
            game.action_encoding(n).markdown(),
        ]
        chance = game.action_encoding(n).chance_kinds
        if chance:
            described = []
            for k in chance:
                args = ", ".join(f"{a.name} {a.start}..{a.start + a.size - 1}" for a in k.args)
                described.append(f"`{k.name}` ({args})")
            out += [
                "",
                "Chance outcomes in the information-state history (kind index after the player "
                "kinds): " + "; ".join(described) + ".",
            ]
    return "\n".join(out) + "\n"


def main() -> int:
    """Print the page."""
    sys.stdout.write(page())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
