"""flip7-ev: the expected-round-score programme against hand values and an independent brute
force on tiny decks, the reference values, the advice, and the agent in real games."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from septet.bots import make_agent
from septet.bots.flip7_ev import (
    EVSolver,
    Flip7EVAgent,
    Row,
    advise,
    fresh_pool,
    fresh_value,
    pool_from_counts,
    row_from_tokens,
)
from septet.core.play import play_game
from septet.games import get
from septet.games.flip7 import cards as C


def _pool(counts: dict[str, int]) -> tuple[int, ...]:
    return pool_from_counts(counts)


def test_hand_computed_tiny_deck() -> None:
    # Deck {1, 1, 2}, one player (F7V-2 bust on a duplicate). Draw a 1 (2/3): stay on 1, or hit
    # (1/2 bust, 1/2 the 2 -> 3): 1.5 > 1. Draw the 2 (1/3): hit is safe (a 1 -> 3) -> 3.
    # Value = 2/3 * 3/2 + 1/3 * 3 = 2.
    solver = EVSolver("classic", "single", exact=True)
    assert solver.value(Row(), _pool({"1": 2, "2": 1})) == Fraction(2)


def test_flip7_bonus() -> None:
    # Seven distinct numbers 1..7, one each: nothing can bust, so take all seven: 28 + 15 (F7V-7.2)
    solver = EVSolver("classic", "single", exact=True)
    assert solver.value(Row(), _pool({str(v): 1 for v in range(1, 8)})) == Fraction(43)


def _brute(cards: tuple[str, ...]) -> Fraction:
    """Independent brute force (classic, one player): numbers, +mods, x2, Second Chance, Freeze;
    every remaining card equally likely next, optimal hit/stay after each card."""

    def score(nums: frozenset[int], plus: int, x2: bool, flip7: bool) -> int:
        return sum(nums) * (2 if x2 else 1) + plus + (15 if flip7 else 0)

    @cache
    def best(
        rest: tuple[str, ...], nums: frozenset[int], plus: int, x2: bool, sc: bool
    ) -> Fraction:
        stay = Fraction(score(nums, plus, x2, False))
        if not rest:
            return stay
        total = Fraction(0)
        for i, card in enumerate(rest):
            left = rest[:i] + rest[i + 1 :]
            if card.isdigit():
                v = int(card)
                if v in nums:
                    total += best(left, nums, plus, x2, False) if sc else 0
                elif len(nums) == 6:
                    total += score(nums | {v}, plus, x2, True)
                else:
                    total += best(left, nums | {v}, plus, x2, sc)
            elif card == "x2":
                total += best(left, nums, plus, True, sc)
            elif card.startswith("+"):
                total += best(left, nums, plus + int(card[1:]), x2, sc)
            elif card == "second":
                total += best(left, nums, plus, x2, True)
            elif card == "freeze":
                total += stay
        return max(stay, total / len(rest))

    return best(tuple(sorted(cards)), frozenset(), 0, False, False)


@pytest.mark.parametrize(
    "cards",
    [
        ("1", "2", "2", "3", "3", "3"),
        ("0", "1", "2", "2", "3", "3", "+4", "x2"),
        ("2", "2", "3", "3", "5", "second", "+2", "freeze"),
        ("1", "2", "3", "4", "5", "6", "7", "7", "second"),
        ("4", "4", "4", "6", "6", "x2", "freeze", "second", "+10"),
    ],
)
def test_solver_matches_brute_force_on_tiny_decks(cards: tuple[str, ...]) -> None:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    solver = EVSolver("classic", "single", exact=True)
    assert solver.value(Row(), _pool(counts)) == _brute(cards)


def test_reference_value_numbers_only() -> None:
    # A single player's round from a fresh classic deck of number cards (0-12, F7V-9), optimal.
    value = fresh_value("classic", numbers_only=True, exact=True)
    assert value == Fraction(154813132069, 8338880550)
    assert abs(float(value) - 18.5652176141) < 1e-9


def test_advice_stays_on_a_sure_bust() -> None:
    # Row 12, 11 and only 12s and 11s left: any hit busts (F7V-2), so stay on 23.
    solver = EVSolver("classic", "table")
    row = row_from_tokens(["12", "11"], "classic")
    advice = advise(solver, row, _pool({"12": 3, "11": 2}))
    assert advice.bust_probability == 1.0
    assert advice.stay == 23.0 and advice.hit == 0.0 and advice.action == "stay"
    # with a Second Chance held the duplicate is discarded instead (F7V-9) and nothing is lost
    row = row_from_tokens(["12", "11", "second"], "classic")
    advice = advise(solver, row, _pool({"12": 3, "11": 2}))
    assert advice.bust_probability == 0.0 and advice.hit == 23.0


def test_advice_hits_when_safe() -> None:
    solver = EVSolver("vengeance", "table")
    row = row_from_tokens(["3"], "vengeance")
    advice = advise(solver, row, _pool({"9": 1, "10": 1}))
    # either card is safe, then the other is too: 3 + 9 + 10 = 22
    assert advice.bust_probability == 0.0
    assert advice.hit == 22.0 and advice.action == "hit" and advice.best == 22.0


def test_vengeance_specials() -> None:
    solver = EVSolver("vengeance", "single", exact=True)
    # Zero holder must hit (F7V-6.1): stay is not offered, and the Zero scores 0 without Flip 7
    row = row_from_tokens(["zero", "5"], "vengeance")
    assert not solver.can_stay(row) and solver.score(row) == 0
    # Lucky 13 + 13 do not bust (F7V-6.3): 13 + 13 = 26; a third 13 busts
    row = row_from_tokens(["l13"], "vengeance")
    assert solver.value(row, _pool({"13": 1})) == 26
    assert solver.bust_probability(row_from_tokens(["l13", "13"], "vengeance"), _pool({"13": 1}))
    # Unlucky 7 keeps only itself (F7V-6.2): row 10, 12 then u7 -> 7
    assert solver.value(row_from_tokens(["10", "12"], "vengeance"), _pool({"u7": 1})) == 22
    assert solver.value(row_from_tokens(["10"], "vengeance"), _pool({"u7": 1})) == 10


def test_table_mode_drops_neutral_cards_without_changing_values() -> None:
    solver = EVSolver("vengeance", "table", exact=True)
    row = row_from_tokens(["8", "11"], "vengeance")
    plain = _pool({"8": 3, "11": 4, "2": 2, "5": 1})
    noisy = _pool({"8": 3, "11": 4, "2": 2, "5": 1, "-4": 1, "swap": 2, "jom": 1})
    assert solver.hit_value(row, plain) == solver.hit_value(row, noisy)


@pytest.mark.parametrize("edition", ["classic", "vengeance"])
def test_agent_plays_legal_moves(edition: str) -> None:
    game = get("flip7", edition=edition)
    for seed in range(2):
        agents = [
            make_agent("flip7-ev", game),
            make_agent("random", game),
            make_agent("greedy", game),
        ]
        result = play_game(game, agents, seed=seed)
        assert result.state.is_terminal
        agent = agents[0]
        assert isinstance(agent, Flip7EVAgent) and agent.stats["decisions"] > 0


def test_fresh_pools() -> None:
    assert sum(fresh_pool("classic")) == 94 and sum(fresh_pool("vengeance")) == 108
    assert sum(fresh_pool("classic", numbers_only=True)) == 79
    assert fresh_pool("classic")[C.SECOND] == 3


def test_agent_is_deterministic() -> None:
    game = get("flip7", edition="classic")
    hist = []
    for _ in range(2):
        agents = [make_agent("flip7-ev", game), make_agent("greedy", game)]
        hist.append([str(a) for a in play_game(game, agents, seed=4).state.history])
    assert hist[0] == hist[1]


def _kinds(counts: dict[int, int]) -> tuple[int, ...]:
    pool = [0] * C.NUM_KINDS
    for k, n in counts.items():
        pool[k] = n
    return tuple(pool)


@pytest.mark.parametrize(
    "counts",
    [
        {1: 1, 2: 2, 3: 3, C.P4: 1, C.X2: 1},
        {2: 2, 5: 3, 7: 2, C.P2: 1, C.X2: 1, C.FREEZE: 1, C.SECOND: 1},
        {1: 1, 2: 2, 4: 3, 6: 2, C.P10: 1, C.X2: 1, C.FLIP3: 2, C.SECOND: 1, C.FREEZE: 1},
    ],
)
def test_vectorised_reference_solver_agrees(counts: dict[int, int]) -> None:
    from septet.bots.flip7_ref import VectorSolver

    pool = _kinds(counts)
    exact = EVSolver("classic", "single").value(Row(), pool)
    assert VectorSolver(pool).value() == pytest.approx(float(exact), abs=1e-12)
    # the float32 memo (for the full deck) keeps about 7 significant digits
    assert VectorSolver(pool, "float32").value() == pytest.approx(float(exact), rel=1e-5)


def test_vectorised_solver_matches_brute_force() -> None:
    from septet.bots.flip7_ref import VectorSolver

    pool = _kinds({1: 1, 2: 2, 3: 3, C.P4: 1, C.X2: 1})
    brute = _brute(("1", "2", "2", "3", "3", "3", "+4", "x2"))
    assert brute == Fraction(28, 5)
    assert VectorSolver(pool).value() == pytest.approx(5.6, abs=1e-12)


def test_flip7_ev_spec_errors() -> None:
    from septet.bots import AgentSpecError

    with pytest.raises(AgentSpecError, match="only flip7"):
        make_agent("flip7-ev", get("seven-shot"))
    with pytest.raises(AgentSpecError, match="max_states"):
        make_agent("flip7-ev:max_states=0", get("flip7"))


def test_row_field_setter_matches_replace() -> None:
    """The solver's fast row copy (``_set`` with a field index) changes exactly the named field,
    as ``Row._replace`` does (guards the index constants against a reordering of ``Row``)."""
    from septet.bots import flip7_ev as ev

    row = ev.Row(0b1010, 1, True, -4, False, True, False, 2, True, False, (3,))
    fields = {
        "mask": (ev._MASK, 0b1110),
        "add": (ev._ADD, -6),
        "x2": (ev._X2, True),
        "half": (ev._HALF, False),
        "second": (ev._SECOND, True),
        "forced": (ev._FORCED, 1),
        "flip": (ev._FLIP, False),
        "pending": (ev._PENDING, (3, 5)),
    }
    for name, (index, value) in fields.items():
        got = ev._set(row, index, value)
        assert type(got) is ev.Row
        assert got == row._replace(**{name: value}), name
