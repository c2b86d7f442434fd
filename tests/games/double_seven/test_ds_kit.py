"""The shared test kit over random Double Seven games (2, 3, 4 players; every option), with an
independent DS-8 scoring oracle. ``SEPTET_KIT_GAMES`` sets the number of games."""

from __future__ import annotations

import pytest

from septet.core.testkit import check_game, kit_games
from septet.games.double_seven import DoubleSeven


def ds8_oracle(state):
    """DS-8.1/DS-8.2 recomputed from the raw fields: tiles in families, +1 per 7 token, +2 for
    the 77 token; most points; a tied 77 holder wins alone, otherwise the tied share."""
    scores = []
    for seat in range(state.num_players):
        points = 0
        for _animal, animals, clovers in state.families[seat]:
            points += animals + clovers
        points += state.sevens[seat]
        if state.holder77 == seat:
            points += 2
        scores.append(float(points))
    best = max(scores)
    tied = [s for s, p in enumerate(scores) if p == best]
    if len(tied) > 1 and state.holder77 in tied:
        tied = [state.holder77]
    # The 77 token is taken at most once and the 7 tokens add up to 8.
    assert sum(state.sevens) + state.sevens_left == 8
    return scores, tied


@pytest.mark.parametrize("num_players", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_kit_default_options(num_players):
    report = check_game(
        DoubleSeven(), num_players, num_games=kit_games(20), seed=1, score_oracle=ds8_oracle
    )
    assert report.games == kit_games(20)
    assert report.illegal_rejected > 0


@pytest.mark.parametrize(
    "options",
    [
        {"double_seven": "two_families"},
        {"rainbow": False, "two_for_one": False},
    ],
)
@pytest.mark.parametrize("num_players", [2, 4])
def test_kit_options(num_players, options):
    check_game(
        DoubleSeven(**options),
        num_players,
        num_games=kit_games(8),
        seed=2,
        score_oracle=ds8_oracle,
    )


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kit_thousands(num_players):
    # Thousands of games with the costly checks on 1% of the steps.
    report = check_game(
        DoubleSeven(),
        num_players,
        num_games=1000,
        seed=3,
        score_oracle=ds8_oracle,
        deep_check_rate=0.01,
    )
    assert report.games == 1000
