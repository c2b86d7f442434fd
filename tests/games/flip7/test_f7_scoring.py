"""Flip 7 scoring (septet.games.flip7.scoring): the rulebook example, hand-worked rows for every
special card and mode, impossible entries refused, and the engine's own rounds re-scored."""

from __future__ import annotations

import random

import pytest

from septet import games
from septet.core.errors import ScoreError
from septet.games.flip7 import cards as C
from septet.games.flip7.scoring import (
    RowEntry,
    game_winners,
    score_range,
    score_round,
    score_row,
)


def one(*cards: str, edition: str = "vengeance", brutal: bool = False, **kw: object) -> object:
    return score_round([RowEntry(tuple(cards), **kw)], edition=edition, brutal=brutal).rows[0]  # type: ignore[arg-type]


def test_rulebook_example_scores_35():
    # F7V-7.3: 3+11+5+7+10+8+4 = 48, ÷2 → 24, −4 → 20, Flip 7 → 35.
    r = one("3", "11", "5", "7", "10", "8", "4", "/2", "-4")
    assert (r.number_sum, r.after_multiplier, r.modifier_sum, r.flip7, r.bonus, r.score) == (
        48,
        24,
        -4,
        True,
        15,
        35,
    )


@pytest.mark.parametrize(
    ("cards", "kw", "score"),
    [
        (("12", "9", "5"), {}, 26),  # F7V-7.2 plain sum
        (("12", "9", "5", "/2"), {}, 13),  # F7V-7.2: 26 ÷ 2
        (("11", "/2"), {}, 5),  # F7V-7.2: 11 ÷ 2 rounds down
        (("6", "-8"), {}, 0),  # F7V-7.2: not below 0
        (("6", "-8"), {"brutal": True}, -2),  # F7V-8.1
        (("6", "-2", "-4", "-6"), {"brutal": True}, -6),  # F7V-8.1
        (("zero", "12", "11"), {}, 0),  # F7V-6.1
        (("zero", "1", "2", "3", "4", "5", "6"), {}, 21 + 15),  # F7V-6.1: Flip 7 with the Zero
        (("13", "l13", "2"), {}, 28),  # F7V-6.3: two 13s with the Lucky 13
        (("u7", "9"), {}, 16),  # F7V-6.2: the Unlucky 7 is a 7
        (("5", "5"), {}, 0),  # F7V-2 / F7V-7.1: a duplicate is a bust
        (("13", "l13", "13"), {}, 0),  # F7V-6.3: a third 13 busts
        (("u7", "7"), {}, 0),  # F7V-6.2: a later 7 busts
    ],
)
def test_hand_worked_vengeance_rows(cards, kw, score):
    assert one(*cards, **kw).score == score


def test_classic_rows():
    # F7V-9: ×2 doubles the number sum, then the + modifiers: (5+6)×2+4 = 26.
    assert one("5", "6", "x2", "+4", edition="classic").score == 26
    # F7V-9: a Second Chance kept scores nothing; the 0 card is a plain 0.
    assert one("0", "8", "second", edition="classic").score == 8
    # F7V-9 + F7V-7.2: Flip 7 in classic: 0+1+…+6 = 21, ×2 = 42, +10 = 52, +15 = 67.
    r = one("0", "1", "2", "3", "4", "5", "6", "x2", "+10", edition="classic")
    assert (r.after_multiplier, r.score) == (42, 67)


def test_brutal_after_bust_and_flip7_choice():
    rows = [
        RowEntry(("1", "2", "3", "4", "5", "6", "8")),  # Flip 7: 29
        RowEntry(("9", "9"), after_bust=("-4", "-6")),  # F7V-8.2: busted, −10 after
        RowEntry(("10",)),
    ]
    # F7V-8.3: +15 for the achiever ...
    r = score_round(rows, edition="vengeance", brutal=True)
    assert r.scores == (44, -10, 10) and r.flip7 == 0 and r.penalty_to is None
    # ... or −15 to another player (busted ones included, rulings).
    r = score_round(rows, edition="vengeance", brutal=True, flip7_choice=1)
    assert r.scores == (29, -25, 10) and r.penalty_to == 1
    assert r.rows[1].penalty == -15 and r.rows[0].bonus == 0


def test_plain_numbers_and_their_range():
    r = score_round([RowEntry(points=24), RowEntry(("3", "4"))], edition="vengeance")
    assert r.scores == (24, 7) and r.rows[0].plain
    # The best Vengeance row: 13+13+12+11+10+9+8 = 76, +15 = 91 (F7V-6.3, F7V-7.2).
    assert score_range("vengeance") == (0, 91)
    # Classic: (12+11+…+6)×2 = 126, +2+4+6+8+10 = 156, +15 = 171 (F7V-9).
    assert score_range("classic") == (0, 171)
    # Brutal: every − modifier (−30) and a −15 (F7V-8).
    assert score_range("vengeance", brutal=True) == (-45, 91)
    with pytest.raises(ScoreError, match="not a possible round score"):
        score_round([RowEntry(points=92)], edition="vengeance")
    with pytest.raises(ScoreError) as exc:
        score_round([RowEntry(points=-1)], edition="vengeance")
    assert exc.value.rule == "F7V-8.1" and "ありえない" in exc.value.message("ja")


@pytest.mark.parametrize(
    ("rows", "kw", "rule", "words"),
    [
        ([RowEntry(("5", "5"), busted=False)], {}, "F7V-2", "bust"),
        ([RowEntry(("5", "5", "6", "6"))], {}, "F7V-2", "first duplicate"),
        ([RowEntry(("13", "13"))], {"busted": False}, "F7V-2, F7V-6.3", "bust"),
        ([RowEntry(("1", "2", "3", "4", "5", "6", "8", "9"))], {}, "F7V-3.4", "seventh"),
        ([RowEntry(("flip4",))], {}, "F7V-4.3", "action card"),
        ([RowEntry(("x2",))], {}, "F7V-1", "not a card of With a Vengeance"),
        ([RowEntry(("zero",))], {"edition": "classic"}, "F7V-9", "classic"),
        ([RowEntry(("/2", "/2"))], {}, "F7V-1", "deck has 1"),
        ([RowEntry(("/2",)), RowEntry(("/2",))], {}, "F7V-3.6", "deck has 1"),
        ([RowEntry(("12", "12"))] * 7, {}, "F7V-3.6", "14 × 12"),
        ([RowEntry(("8", "8", "second"))], {"edition": "classic"}, "F7V-9", "Second Chance"),
        ([RowEntry(("second", "second"))], {"edition": "classic"}, "F7V-9", "at most one"),
        ([RowEntry(("3",), after_bust=("-2",))], {}, "F7V-8.2", "brutal"),
        (
            [
                RowEntry(("1", "2", "3", "4", "5", "6", "7")),
                RowEntry(("8", "9", "10", "11", "12", "13", "l13")),
            ],
            {},
            "F7V-3.4",
            "first Flip 7",
        ),
        ([RowEntry(("3",)), RowEntry(("4",))], {"flip7_choice": 1}, "F7V-8.3", "brutal"),
        ([RowEntry(("4",), points=4)], {}, "F7V-7", "not both"),
        ([RowEntry(("nine",))], {}, "F7V-1", "not a Flip 7 card"),
    ],
)
def test_impossible_rows_are_refused(rows, kw, rule, words):
    kw = {"edition": "vengeance", **kw}
    busted = kw.pop("busted", "unset")
    if busted != "unset":
        rows = [RowEntry(r.cards, busted=busted) for r in rows]  # type: ignore[arg-type]
    with pytest.raises(ScoreError) as exc:
        score_round(rows, **kw)
    if rule:
        assert exc.value.rule == rule
    if words:
        assert words in str(exc.value)
    assert exc.value.reason_ja


def test_game_winners_ties_play_on():
    # F7V-3.7: a lone leader at or above the target wins; a tie at the top plays on.
    assert game_winners([150, 199], 200) == []
    assert game_winners([210, 205, 90], 200) == [0]
    assert game_winners([210, 210, 90], 200) == []
    assert game_winners([190, 210], 200) == [1]


def test_score_row_is_the_engine_breakdown():
    row = [3, 11, 5, 7, 10, 8, 4, C.DIV2, C.M4]
    b = score_row(row, vengeance=True, flip7=True).breakdown()
    assert b == {
        "busted": False,
        "numbers": 48,
        "after_multiplier": 24,
        "modifiers": -4,
        "zero": False,
        "bonus": 15,
        "penalty": 0,
        "score": 35,
    }


def _rescore_random_rounds(
    edition: str, brutal: bool, players: int, games_n: int, seed: int
) -> int:
    game = games.get("flip7", edition=edition, brutal=brutal)
    rng = random.Random(seed)
    checked = 0
    for _ in range(games_n):
        state = game.new_state(players)
        while not state.is_terminal:
            if state.current_player < 0:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            for ev in state.apply(action):
                if ev.kind != "round_end":
                    continue
                d = ev.data
                rows = [
                    RowEntry(
                        tuple(d["rows"][p]),
                        busted=d["status"][p] == "busted",
                        after_bust=tuple(d["after_bust"][p]),
                    )
                    for p in range(players)
                ]
                choice = d["flip7_choice"] if d["flip7_choice"] != d["flip7"] else None
                r = score_round(
                    rows,
                    edition=edition,
                    brutal=brutal,
                    decks=game.num_decks(players),  # type: ignore[attr-defined]
                    flip7_choice=choice,
                )
                assert list(r.scores) == d["scores"]
                assert r.flip7 == d["flip7"]
                assert [x.breakdown() for x in r.rows] == d["breakdown"]
                checked += 1
    return checked


@pytest.mark.parametrize(
    ("edition", "brutal", "players"),
    [("vengeance", False, 3), ("vengeance", True, 4), ("classic", False, 2)],
)
def test_every_engine_round_is_accepted_and_scored_alike(edition, brutal, players):
    # Property: no round the engine plays is refused, and the scores agree (F7V-7, F7V-8, F7V-9).
    assert _rescore_random_rounds(edition, brutal, players, 3, seed=7) > 10


@pytest.mark.parametrize(
    ("edition", "brutal", "players"),
    [
        ("vengeance", False, 5),
        ("vengeance", True, 3),
        ("classic", False, 4),
        ("vengeance", False, 19),
    ],
)
def test_many_engine_rounds_are_accepted_and_scored_alike(edition, brutal, players):
    assert _rescore_random_rounds(edition, brutal, players, 60, seed=11) > 300


def test_two_unlucky_sevens_in_one_row_are_refused():
    # F7V-6.2 (issue 25): with two decks (36 players) a row cannot hold both Unlucky 7s: the
    # second one discards the first with the rest of the row (rules.unlucky7_discards); it
    # used to be scored as a bust. One Unlucky 7 in each of two rows is fine.
    rows = [RowEntry(("u7", "u7", "5")), RowEntry(("3",))]
    with pytest.raises(ScoreError) as exc:
        score_round(rows, edition="vengeance", decks=2)
    assert exc.value.rule == "F7V-6.2" and "one Unlucky 7 at most" in str(exc.value)
    assert exc.value.reason_ja
    r = score_round([RowEntry(("u7", "5")), RowEntry(("u7", "3"))], edition="vengeance", decks=2)
    assert list(r.scores) == [12, 10]
    # the engine agrees: a second Unlucky 7 arriving leaves one (F7V-6.2)
    from septet.games.flip7.rules import unlucky7_discards

    assert unlucky7_discards(C.U7) and not unlucky7_discards(C.SECOND)
