"""One source for Double Seven's figures (issue 25): ``scoring`` takes the tile counts from
``tiles`` and the rule figures from ``rules`` instead of restating them."""

from __future__ import annotations

import ast
import inspect

from septet.games import get
from septet.games.double_seven import rules, scoring, tiles
from septet.games.double_seven.state import score_breakdown

# figures of the box and the rules that scoring.py must not restate (DS-1.1, DS-1.2, DS-1.3,
# DS-5.3, DS-8.1): clovers 3, players 4, the 7, 8 tokens, 11 per animal, 14 in a family, 91
RESTATED = {3, 4, 7, 8, 11, 14, 91}


def test_scoring_restates_no_figure_of_tiles_or_rules() -> None:
    tree = ast.parse(inspect.getsource(scoring))
    found = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value in RESTATED
    ]
    assert found == []


def test_the_figures_are_the_engines() -> None:
    # DS-1.3: 2 to 4 players; DS-8.1: +1 per 7 token, +2 for the 77 token
    game = get("double-seven")
    assert (game.min_players, game.max_players) == (rules.MIN_PLAYERS, rules.MAX_PLAYERS) == (2, 4)
    assert scoring.points([7, 8, 2], 2, True) == 17 + 2 * rules.SEVEN_TOKEN_POINTS + 2
    assert rules.DOUBLE_SEVEN_POINTS == 2 and tiles.MAX_FAMILY == 14
    got = score_breakdown(((0, 7, 0), (1, 8, 0), (2, 2, 0)), 2, True)
    assert (got["sevens"], got["seventy_seven"], got["total"]) == (2, 2, 21)  # DS-8.3
