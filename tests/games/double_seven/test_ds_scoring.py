"""Double Seven scoring (septet.games.double_seven.scoring): DS-8.3, the tie-break, impossible
ends refused, and the engine's finished games re-scored from what players would enter."""

from __future__ import annotations

import random

import pytest

from septet import games
from septet.core.errors import ScoreError
from septet.core.play import random_playout
from septet.games.double_seven.scoring import PlayerEnd, final_scores


def test_rulebook_example_scores_21():
    # DS-8.3: 7 birds, 8 squirrels, 2 foxes, two 7 tokens, the 77 → 7+8+2+1+1+2 = 21.
    r = final_scores([PlayerEnd((7, 8, 2), 2, True), PlayerEnd((5, 3), 0, False)])
    p = r.players[0]
    assert (p.tiles, p.sevens, p.double_seven, p.score) == (17, 2, 2, 21)
    assert r.winners == (0,) and r.tie_break is None


def test_tie_broken_by_the_77_and_shared():
    # DS-8.2: 7+7+2+1+1+2 = 20 against 9+8+1+... = 20: the 77 holder wins alone.
    r = final_scores([PlayerEnd((7, 7, 2), 2, True), PlayerEnd((9, 8, 2), 1, False)])
    assert r.players[0].score == r.players[1].score == 20
    assert r.winners == (0,) and r.tied == (0, 1) and r.tie_break == "77"
    # DS-8.2: tied players without the 77 share the victory.
    r = final_scores([PlayerEnd((7, 5), 1), PlayerEnd((6, 7), 1), PlayerEnd((9, 9), 2, True)])
    assert [p.score for p in r.players] == [13, 14, 22]
    r = final_scores([PlayerEnd((7, 5), 1), PlayerEnd((6, 5, 2), 0)])
    assert r.tie_break == "shared" and r.winners == (0, 1)


_TOKEN = {"double_seven": "second_token"}


@pytest.mark.parametrize(
    ("players", "kw", "rule", "words"),
    [
        ([PlayerEnd((1,)), PlayerEnd(())], {}, "DS-5.1", "family of 1"),
        ([PlayerEnd((15,)), PlayerEnd(())], {}, "DS-1.1", "at most 14"),
        ([PlayerEnd((7, 7, 7, 7, 7), 5), PlayerEnd((7, 7, 7, 7), 4)], {}, "DS-1.2", "only 8"),
        ([PlayerEnd((7,), 2), PlayerEnd(())], {}, "DS-5.3, DS-5.4", "2 7 tokens but 1"),
        ([PlayerEnd((7, 7), 2, True), PlayerEnd((7, 7), 2, True)], {}, "DS-1.2", "only one"),
        ([PlayerEnd((7,), 1, True), PlayerEnd(())], _TOKEN, "DS-5.3", "second 7 token"),
        ([PlayerEnd((7, 7), 2), PlayerEnd(())], _TOKEN, "DS-5.3", "someone took the 77"),
        # the default (two_families, DS-5.3): two families of 7+ and nobody holds the 77
        # (issue 25: 7 + 7 = 14 was scored); the one with two tokens alike
        ([PlayerEnd((7, 7)), PlayerEnd(())], {}, "DS-5.3", "someone took the 77"),
        ([PlayerEnd((7, 7), 2), PlayerEnd(())], {}, "DS-5.3", "two families of 7 or more, so"),
        ([PlayerEnd((7,), 1, True), PlayerEnd(())], {}, "DS-5.3", "without two families"),
        (
            [PlayerEnd((7, 5), 1, True), PlayerEnd(())],
            {"double_seven": "two_families"},
            "DS-5.3",
            "two families",
        ),
        ([PlayerEnd((14, 14)), PlayerEnd(())], {}, "DS-1.1", "clovers"),
        ([PlayerEnd((11,) * 8), PlayerEnd((4,))], {}, "DS-1.1", "box holds 91"),
        ([PlayerEnd(())], {}, "DS-1.3", "2 to 4"),
        ([PlayerEnd((), -1), PlayerEnd(())], {}, "DS-1.2", "negative"),
    ],
)
def test_impossible_ends_are_refused(players, kw, rule, words):
    with pytest.raises(ScoreError) as exc:
        final_scores(players, **kw)
    assert exc.value.rule == rule
    assert words in str(exc.value)
    assert exc.value.reason_ja


def test_two_families_option_allows_77_with_one_token():
    # DS-5.3 option two_families: the 77 comes with two families of 7+, not a second token.
    r = final_scores([PlayerEnd((7, 8), 1, True), PlayerEnd((4,), 0)], double_seven="two_families")
    assert r.players[0].score == 7 + 8 + 1 + 2


@pytest.mark.parametrize("option", ["second_token", "two_families"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_games_are_accepted_and_scored_alike(players, option):
    # Property: every finished engine game, entered as players would (family sizes, tokens,
    # the 77), is accepted and gives the engine's scores and winners (DS-8).
    game = games.get("double-seven", double_seven=option)
    rng = random.Random(players)
    for _ in range(2):
        state = random_playout(game.new_state(players), rng)
        entry = [
            PlayerEnd(
                tuple(f[1] + f[2] for f in state.families[s]),  # type: ignore[attr-defined]
                state.sevens[s],  # type: ignore[attr-defined]
                state.holder77 == s,  # type: ignore[attr-defined]
            )
            for s in range(players)
        ]
        r = final_scores(entry, double_seven=option)
        assert [float(x) for x in r.to_json()["scores"]] == state.scores()  # type: ignore[union-attr]
        assert list(r.winners) == state.winners()
