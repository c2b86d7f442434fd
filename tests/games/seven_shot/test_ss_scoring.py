"""Seven Shot scoring (septet.games.seven_shot.scoring): hand-worked deals for every ending,
the 7-trick transfer, three-player second place, impossible deals, and the engine's deals
re-scored from what players would enter."""

from __future__ import annotations

import random

import pytest

from septet import games
from septet.core.errors import ScoreError
from septet.games.seven_shot.scoring import DealEntry, race_winners, score_deal


def test_four_sevens_wins():
    # SS-4.1 / SS-4.4: team 0 takes its 4th 7, team 1 has 2 → 4 − 2 + 1 = 3.
    r = score_deal(DealEntry("sevens", 0, (4, 2)))
    assert r.gains == (3, 0) and r.formula == "4 - 2 + 1 = 3" and r.rule == "SS-4.1"


def test_seven_tricks_transfer():
    # SS-4.2: team 1 takes 7 tricks: its 2 sevens in hand and the 7 indicator go to team 0:
    # team 0 has 2 + 3 = 5, team 1 keeps 1 → 5 − 1 + 1 = 5.
    r = score_deal(DealEntry("seven_tricks", 1, (2, 1), hand_sevens=2, indicator_seven=True))
    assert r.winning_sides == (0,) and r.transferred == 3 and r.sevens == (5, 1)
    assert r.gains == (5, 0)
    # SS-4.4 ruling: at least 1 (team 0 with 0 sevens against team 1's 3: 0 − 3 + 1 = −2 → 1).
    r = score_deal(DealEntry("seven_tricks", 1, (0, 3)))
    assert r.gains == (1, 0) and r.formula == "0 - 3 + 1 = -2"


def test_hands_empty_needs_the_seven_indicator():
    # SS-4.3: the last trick's team takes the 7 indicator: 3 + 1 = 4 against 3 → 2.
    r = score_deal(DealEntry("hands_empty", 1, (3, 3), indicator_seven=True))
    assert r.sevens == (3, 4) and r.gains == (0, 2) and r.indicator_to == 1


def test_three_players():
    # SS-5.3 / SS-5.4: 3 sevens win; 3 − 2 + 1 = 2; the runner-up gets half, rounded down: 1.
    r = score_deal(DealEntry("sevens", 0, (3, 2, 1)))
    assert r.gains == (2, 1, 0) and r.second == (1,)
    # SS-5.4 ruling: both others tie for second: both get the half.
    r = score_deal(DealEntry("sevens", 2, (1, 1, 5)))
    assert r.gains == (2, 2, 5) and r.second == (0, 1)
    # SS-5.5: a player who takes 7 tricks: the two others score 2 each.
    r = score_deal(DealEntry("seven_tricks", 1, (2, 1, 2)))
    assert r.gains == (2, 0, 2) and r.formula == "2"


@pytest.mark.parametrize(
    ("entry", "rule", "words"),
    [
        (DealEntry("seven_tricks", 0, (4, 2)), "SS-4.1", "as soon as"),
        (DealEntry("sevens", 0, (3, 2)), "SS-4.1", "takes 4"),
        (DealEntry("sevens", 0, (4, 2), hand_sevens=1), "SS-4.2", "only count"),
        (DealEntry("sevens", 0, (5, 3)), "SS-1.1", "deck has 7"),
        (
            DealEntry("seven_tricks", 0, (3, 2), hand_sevens=2, indicator_seven=True),
            "SS-1.1",
            "8 sevens",
        ),
        (DealEntry("hands_empty", 0, (3, 3)), "SS-4.3", "indicator is a 7"),
        (DealEntry("hands_empty", 0, (3, 2), indicator_seven=True), "SS-4.3", "not 5"),
        (DealEntry("sevens", 0, (3, 3, 0)), "SS-5.3", "as soon as"),
        (DealEntry("sevens", 0, (4, 2, 1, 0)), "SS-2.1, SS-5.1", "2 teams"),
        (DealEntry("most", 0, (4, 2)), "SS-4", "sevens, seven_tricks"),
        (DealEntry("sevens", 2, (4, 2)), "SS-4", "one of the 2"),
    ],
)
def test_impossible_deals_are_refused(entry, rule, words):
    with pytest.raises(ScoreError) as exc:
        score_deal(entry)
    assert exc.value.rule == rule
    assert words in str(exc.value)
    assert exc.value.reason_ja


def test_race_to_seven():
    # SS-2.1 / SS-5.6: a side at 7 or more ends the game; highest wins; a tie is shared.
    assert race_winners([6, 5]) == []
    assert race_winners([8, 5]) == [0]
    assert race_winners([7, 8, 3]) == [1]
    assert race_winners([7, 7, 3]) == [0, 1]


def _is_seven(card: str) -> bool:
    return card[1:] == "7"


@pytest.mark.parametrize("players", [3, 4])
def test_engine_deals_are_accepted_and_scored_alike(players):
    # Property: every deal the engine plays, entered as players would (the ending, the side,
    # the 7s taken in tricks, the 7s left in the losers' hands, whether the indicator is a 7),
    # is accepted and gives the engine's points (SS-4, SS-5).
    game = games.get("seven-shot")
    rng = random.Random(players)
    checked = 0
    for _ in range(3):
        state = game.new_state(players)
        while not state.is_terminal:
            if state.current_player < 0:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            for ev in state.apply(action):
                if ev.kind != "deal_end":
                    continue
                d = ev.data
                seven_ind = _is_seven(d["indicator"])
                taken = list(d["sevens"])
                hand = 0
                if d["condition"] == "seven_tricks" and players == 4:
                    w = d["winning_sides"][0]
                    taken[w] -= len(d["transferred"])
                    hand = len(d["transferred"]) - int(seven_ind)
                elif d["condition"] == "hands_empty" and seven_ind:
                    taken[d["side"]] -= 1
                r = score_deal(DealEntry(d["condition"], d["side"], tuple(taken), hand, seven_ind))
                assert list(r.gains) == d["gains"] and r.formula == d["formula"]
                assert list(r.sevens) == d["sevens"]
                checked += 1
    assert checked >= 6
