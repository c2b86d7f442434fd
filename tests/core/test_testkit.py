"""The shared test kit passes a correct game and catches each planted bug in the toy game."""

from __future__ import annotations

import pytest

from septet.core.testkit import KitFailure, check_game
from tests.core.toy_game import BUGS, ToyHiLo


def toy_oracle(state):  # the toy scoring rule, written again independently
    scores = [float(c * 2 if d else c) for c, d in zip(state.hands, state.doubled, strict=True)]
    top = max(scores)
    return scores, [s for s, v in enumerate(scores) if v == top]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_correct_toy_game_passes(players):
    report = check_game(ToyHiLo(), players, num_games=150, seed=1, score_oracle=toy_oracle)
    assert report.games == 150
    # Each game deals one card per seat and every seat acts once; a redraw adds two steps.
    assert all(2 * players <= n <= 4 * players for n in report.lengths)
    assert report.deep_checks >= 150
    assert report.illegal_rejected > 0
    assert sum(report.wins) >= 150  # at least one winner per game


# The checks allowed to name each planted bug (the first invariant it breaks).
EXPECTED_CHECK = {
    "leak_view": ("[determinize]",),
    "missing_legal": ("[illegal]",),
    "mutate_on_illegal": ("[illegal]",),
    "bad_probs": ("[chance]",),
    "shallow_clone": ("[clone]",),
    # A lost field makes from_json differ, or makes two actions' positions look equal.
    "lossy_json": ("[json]", "[legal]"),
    "bad_determinize": ("[determinize]",),
    "never_ends": ("[length]",),
    "wrong_winner": ("[oracle]",),
    "duplicate_legal": ("[legal]",),
    "bad_notation": ("[notation]",),
}


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_kit_catches_planted_bug(bug):
    assert set(EXPECTED_CHECK) == set(BUGS)
    with pytest.raises(KitFailure) as info:
        check_game(ToyHiLo(bugs=(bug,)), 3, num_games=200, seed=2, score_oracle=toy_oracle)
    assert str(info.value).startswith(EXPECTED_CHECK[bug]), str(info.value)


def test_wrong_winner_caught_by_oracle_alone():
    # With returns derived from winners, only the scoring rule can tell the winner is wrong.
    with pytest.raises(KitFailure, match=r"\[oracle\]"):
        check_game(ToyHiLo(bugs=("wrong_winner",)), 2, num_games=50, score_oracle=toy_oracle)
