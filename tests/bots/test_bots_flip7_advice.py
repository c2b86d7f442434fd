"""The advice of ``septet advise flip7`` and the odds page (issue 25): the figures that need no
search (the chance that the next card busts you) are exact whichever model answered, and the
one-step lower bound of hitting is a true bound when every other player has busted."""

from __future__ import annotations

import pytest

from septet.bots import flip7_advice
from septet.bots.flip7_advice import advise_position, build_position
from septet.bots.flip7_ev import EVSolver, Row, advise_lower_bound, fresh_pool, row_from_tokens
from septet.games.flip7 import cards as C
from septet.games.flip7.rules import row_busts


def test_bust_chance_counts_the_real_deck_classic() -> None:
    # F7V-2, F7V-9: row 12 11 10 (classic, 94 cards), seen 12 12 11: 91 - 3 = 88 cards left;
    # the 12s left 12 - 1 - 2 = 9, the 11s 11 - 1 - 1 = 9, the 10s 10 - 1 = 9: 27 bust you.
    # (The reduced model answers here; its pool lacks the 9 modifier and Flip Three cards.)
    mine, pool = build_position("classic", "12 11 10", "12 12 11")
    assert sum(pool) == 88
    advice, method = advise_position("classic", mine, pool)
    assert method == "reduced"
    assert advice.bust_probability == pytest.approx(27 / 88)  # 30.7%, not 27/79 = 34.2%
    # nothing seen: 11 + 10 + 9 = 30 of the 91 cards left (33.0%, not 30/82 = 36.6%)
    mine, pool = build_position("classic", "12 11 10", "")
    advice, _ = advise_position("classic", mine, pool)
    assert advice.bust_probability == pytest.approx(30 / 91)
    # holding the Second Chance, a duplicate is set aside, never a bust (F7V-9)
    mine, pool = build_position("classic", "12 11 10 second", "")
    advice, _ = advise_position("classic", mine, pool)
    assert advice.bust_probability == 0.0


@pytest.mark.parametrize(
    ("edition", "row", "seen", "alone"),
    [
        ("classic", "12 11 10 9 +4", "8 8 freeze", False),
        ("classic", "12 11 10 second", "flip3", True),
        ("vengeance", "12 11 10", "12 12 11", False),
        ("vengeance", "13 l13 5", "", False),
        ("vengeance", "12 11 -4", "", True),
    ],
)
@pytest.mark.parametrize("budget", [3, 300])
def test_bust_chance_is_exact_for_every_model(
    monkeypatch: pytest.MonkeyPatch, edition: str, row: str, seen: str, alone: bool, budget: int
) -> None:
    # Small budgets send the advice to the reduced model or the lower bound; the bust chance
    # is still the engine's rule (rules.row_busts) counted over the real deck left.
    monkeypatch.setattr(flip7_advice, "ADVISE_MAX_STATES", budget)
    mine, pool = build_position(edition, row, seen)
    kinds = [C.KIND_OF_TOKEN[t] for t in mine]
    vengeance = edition == "vengeance"
    bad = sum(n for k, n in enumerate(pool) if row_busts(kinds, k, vengeance=vengeance))
    advice, _ = advise_position(edition, mine, pool, alone)
    assert advice.bust_probability == pytest.approx(bad / sum(pool))


def test_one_step_bound_alone_in_vengeance() -> None:
    # F7V-4.1, F7V-5.1: every other player has busted, so every card drawn is yours.
    solver = EVSolver("vengeance", "single", exact=True)
    deck = fresh_pool("vengeance")
    # Empty row, full deck (108 cards): hit once then stay scores the number card drawn
    # (v copies of each v = 1..13, the Unlucky 7 and the Lucky 13 among them: sum v*v = 819);
    # the Zero forbids staying (F7V-6.1) and the forced draws (Just One More!, Flip 4!,
    # Discard) count 0; modifiers on an empty row score max(0, 0 - m) = 0.
    assert sum(v * v for v in range(1, 14)) == 819
    assert solver.one_step_value(Row(), deck) == pytest.approx(819 / 108)  # 7.58
    advice = advise_lower_bound(EVSolver("vengeance", "single"), Row(), deck)
    assert advice.stay == 0.0 and advice.hit == pytest.approx(7.583, abs=1e-3)
    assert advice.action == "hit"
    # A row of 12 (107 cards left): the 11 other 12s bust; the other 79 number cards give
    # 12 + v (sum v over them 819 - 144 = 675) except the Unlucky 7, which keeps only itself
    # (7, not 19, F7V-6.2); the modifiers -2..-10 give 10+8+6+4+2, the ÷2 gives 6 (F7V-5);
    # that is 12*79 + 675 - 12 + 30 + 6 = 1647 (1647/107 = 15.39 with every action as 0);
    # Swap and Steal have no target and leave the 12 (2 + 2 cards: 4 * 12 = 48).
    pool = list(deck)
    pool[12] -= 1
    twelve = row_from_tokens(["12"], "vengeance")
    assert 12 * 79 + 675 - 12 + 30 + 6 == 1647 and round(1647 / 107, 2) == 15.39
    value = solver.one_step_value(twelve, pool)
    assert value == pytest.approx((1647 + 48) / 107) and value >= 1647 / 107
    advice = advise_lower_bound(EVSolver("vengeance", "single"), twelve, pool)
    assert advice.stay == 12.0 and advice.action == "hit"


def test_one_step_bound_is_below_the_programme() -> None:
    # The bound against the exact value of hitting on small single-player pools with every
    # kind of forced draw in them (F7V-4.4, F7V-4.7, F7V-4.8).
    for edition, row, extra in [
        ("vengeance", ["5"], {"jom": 2, "flip4": 2, "discard": 1, "swap": 1, "-4": 1}),
        ("vengeance", ["12", "zero"], {"jom": 1, "steal": 1, "/2": 1}),
        ("classic", ["9"], {"flip3": 2, "second": 1, "freeze": 1, "x2": 1}),
    ]:
        solver = EVSolver(edition, "single", exact=True)
        counts = {"3": 2, "5": 1, "9": 1, "12": 2, **extra}
        pool = [0] * C.NUM_KINDS
        for tok, n in counts.items():
            pool[C.KIND_OF_TOKEN[tok]] = n
        position = row_from_tokens(row, edition)
        bound = solver.one_step_value(position, pool)
        assert bound <= float(solver.hit_value(position, pool)) + 1e-12
        # holding the Zero nothing scores before a Flip 7 (F7V-6.1): the bound is 0 there
        assert (bound > 0) == ("zero" not in row)


def test_a_second_zero_busts_in_the_programme() -> None:
    # F7V-1.5 with two decks: a second Zero busts like any duplicate (F7V-2). Row Zero 1 2 3 4 5
    # (no staying with the Zero, F7V-6.1), pool: the other Zero and a 6. Half the time the 6
    # comes first: Flip 7, 1+2+3+4+5+6 + 15 = 36 (F7V-6.1: the Zero scores with a Flip 7);
    # half the time the Zero: a bust, 0. Hitting is worth 18 (not 36).
    from septet.bots.flip7_ev import advise

    pool = [0] * C.NUM_KINDS
    pool[C.ZERO] = pool[6] = 1
    row = row_from_tokens(["zero", "1", "2", "3", "4", "5"], "vengeance")
    got = advise(EVSolver("vengeance", "single", exact=True), row, pool)
    assert got.bust_probability == 0.5 and got.stay is None and got.hit == 18
    # two decks through the advice: the pool of two decks, the same exact bust chance rule
    mine, pool2 = build_position("vengeance", "12 11 10", "", decks=2)
    assert sum(pool2) == 213
    advice, method = advise_position("vengeance", mine, pool2)
    assert method == "exact" and advice.bust_probability == pytest.approx(63 / 213)
    with pytest.raises(flip7_advice.AdviceInputError):
        build_position("vengeance", "zero", "zero", decks=1)
