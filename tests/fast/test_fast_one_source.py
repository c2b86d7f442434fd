"""One source for the Flip 4 / Flip Three counts and Seven Shot's team play (issue 25): the
engine's rules modules define them; the engine, the greedy bots, the expected-value solver and
the compiled kernels import them instead of restating ``3``, ``4`` or ``n == 4``."""

from __future__ import annotations

import re
from importlib import resources

from septet.games.flip7 import rules as F7R
from septet.games.seven_shot import rules as SSR

SRC = resources.files("septet")

FLIP_USERS = [
    "games/flip7/state.py",
    "fast/flip7.py",
    "bots/_flip7_ev_kernel.py",
    "bots/flip7_ev.py",
    "bots/greedy/flip7.py",
]
# "4 if k == FLIP4 else 3", "FLIPS[s][4]", "_push(s, F_FLIP, q, 3)": the counts written again
RESTATED_FLIP = re.compile(
    r"\b[34] if \w+ == \w*FLIP[34]\b|FLIPS\[\w+\]\[[34]\]|F_FLIP, \w+, [34]\)|\b[34] else [34]\b"
)
TEAM_USERS = [
    "games/seven_shot/state.py",
    "games/seven_shot/game.py",
    "games/seven_shot/render.py",
    "bots/greedy/seven_shot.py",
    "fast/seven_shot.py",
]
RESTATED_TEAM = re.compile(r"(\bn|num_players|\]|\)) == 4\b|% 4 if")


def test_the_flip_counts_are_the_rules() -> None:
    assert F7R.FLIP4_CARDS == 4  # F7V-4.8
    assert F7R.FLIP3_CARDS == 3  # F7V-9


def test_team_play_is_four_players() -> None:  # SS-2.1, SS-5.1
    assert SSR.TEAM_PLAYERS == 4
    assert SSR.team_play(4) and not SSR.team_play(3)
    assert (SSR.num_sides(4), SSR.num_sides(3)) == (2, 3)
    assert [SSR.side_of(s, 4) for s in range(4)] == [0, 1, 0, 1]
    assert [SSR.side_of(s, 3) for s in range(3)] == [0, 1, 2]


def test_no_module_restates_the_counts() -> None:
    for name in FLIP_USERS:
        text = (SRC / name).read_text(encoding="utf-8")
        assert "FLIP4_CARDS" in text and "FLIP3_CARDS" in text, name
        assert not RESTATED_FLIP.findall(text), f"{name}: {RESTATED_FLIP.findall(text)}"
    for name in TEAM_USERS:
        text = (SRC / name).read_text(encoding="utf-8")
        assert "team_play" in text or "TEAM_PLAYERS" in text, name
        assert not RESTATED_TEAM.findall(text), f"{name}: {RESTATED_TEAM.findall(text)}"
