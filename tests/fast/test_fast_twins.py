"""The compiled kernels are exact twins of the Python engines (septet.arena.twins.check_twin).

Default runs play a few games per configuration (seconds, once the kernels are compiled and
cached); the slow runs play thousands per game and player count (``SEPTET_KIT_GAMES`` scales
them as it scales the rules kit).
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from septet.arena.twins import check_twin
from septet.core.testkit import KitFailure, kit_games
from septet.fast import kernel_for
from septet.games import get

CONFIGS = [
    ("flip7", {}, 2),
    ("flip7", {}, 4),
    ("flip7", {"brutal": True}, 3),
    ("flip7", {"edition": "classic"}, 2),
    ("flip7", {"edition": "classic"}, 5),
    ("double-seven", {}, 2),
    ("double-seven", {}, 4),
    ("double-seven", {"double_seven": "two_families"}, 3),
    ("double-seven", {"rainbow": False, "two_for_one": False}, 3),
    ("seven-shot", {}, 3),
    ("seven-shot", {}, 4),
    ("seven-shot", {"pass_cards": 0, "target": 3}, 4),
]


@pytest.mark.parametrize(("name", "options", "players"), CONFIGS)
def test_kernel_twins_the_engine(name: str, options: dict[str, object], players: int) -> None:
    # every position, legal action list, chance distribution, score and greedy choice agrees
    game = get(name, **options)
    report = check_twin(game, players, num_games=3, seed=7)
    assert report.games == 3
    assert report.steps == report.chance_steps + report.player_steps > 100
    assert report.greedy_decisions > 0
    greedy_games = check_twin(game, players, num_games=2, seed=8, policy="greedy")
    assert greedy_games.games == 2


def test_two_decks_of_flip7() -> None:
    # F7V-1.5: from 19 players two decks are shuffled together (and the row and stack bounds
    # of the encoding hold there too)
    report = check_twin(get("flip7"), 20, num_games=1, seed=3)
    assert report.games == 1 and report.steps > 500


def test_the_check_catches_a_wrong_kernel() -> None:
    # a kernel that forgets a rule is caught at the first step where it matters: here seat 0's
    # game total is off by one point
    game = get("seven-shot")
    k = kernel_for(game)
    real = k.apply_action

    def broken(s, action_id):  # type: ignore[no-untyped-def]
        real(s, action_id)
        s[k.module.O_SIDES] += 1

    k.apply_action = broken  # type: ignore[method-assign]
    import septet.arena.twins as kit

    original = kit.kernel_for
    kit.kernel_for = lambda g: k  # type: ignore[assignment]
    try:
        with pytest.raises(KitFailure, match=r"side\[0\]\.points"):
            check_twin(game, 4, num_games=1, seed=0, greedy=False)
    finally:
        kit.kernel_for = original  # type: ignore[assignment]


# Per game and player count, thousands of games over the option sets (random moves, and a
# fifth as many greedy games so that the positions look like real play).
SLOW = [
    *[("flip7", {}, n) for n in (2, 3, 4, 6)],
    *[("flip7", {"edition": "classic"}, n) for n in (2, 3, 4, 6)],
    *[("flip7", {"brutal": True}, n) for n in (2, 3, 4)],
    *[("double-seven", {}, n) for n in (2, 3, 4)],
    *[("double-seven", {"double_seven": "two_families"}, n) for n in (2, 3, 4)],
    *[("seven-shot", {}, n) for n in (3, 4)],
    *[("seven-shot", {"pass_cards": 0}, n) for n in (3, 4)],
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options", "players"), SLOW)
def test_kernel_twins_the_engine_over_many_games(
    name: str, options: dict[str, object], players: int
) -> None:
    # thousands of random games (and a share of greedy ones) per game and player count
    game = get(name, **options)
    many = kit_games(500)
    report = check_twin(game, players, num_games=many, seed=100)
    assert report.games == many
    greedy = check_twin(game, players, num_games=max(1, many // 5), seed=200, policy="greedy")
    assert greedy.games == max(1, many // 5)
