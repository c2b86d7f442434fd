"""The shared test kit passes a correct game and catches each planted bug in the toy game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from septet.core.testkit import KitFailure, check_game, check_one_game
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
    # A lost field shows in the restored state's views.
    "lossy_json": ("[json]",),
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


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 4))
def test_hypothesis_paths_through_the_toy_game(data, players):
    # Hypothesis chooses every action and chance outcome, so a failing path would shrink.
    state = check_one_game(
        ToyHiLo(),
        players,
        random.Random(0),
        choose=lambda state, options: data.draw(st.sampled_from(list(options))),
        score_oracle=toy_oracle,
        deep_check_rate=0.5,
    )
    assert state.is_terminal and len(state.hands) == players


def test_hypothesis_shrinks_a_planted_bug_to_a_short_game():
    # The "double" bug needs a card of 4+; hypothesis finds and shrinks such a path.
    failures = []

    @settings(max_examples=300, deadline=None, database=None)
    @given(data=st.data())
    def run(data):
        try:
            check_one_game(
                ToyHiLo(bugs=("mutate_on_illegal",)),
                2,
                random.Random(1),
                choose=lambda state, options: data.draw(st.sampled_from(list(options))),
                deep_check_rate=1.0,
            )
        except KitFailure as exc:
            failures.append(str(exc))
            raise

    with pytest.raises(KitFailure, match=r"^\[illegal\]"):
        run()
    assert failures
