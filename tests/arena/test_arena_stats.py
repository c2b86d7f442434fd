"""Arena statistics: values worked out by hand or checked against R/SciPy."""

from __future__ import annotations

import math

import pytest

from septet.arena.stats import (
    binomial_p_value,
    chi2_sf,
    elo_difference,
    proportion,
    seat_advantage,
    summarize,
    wilson_interval,
    z_value,
)


def test_arena_z_value() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.99) == pytest.approx(2.575829, abs=1e-6)
    with pytest.raises(ValueError):
        z_value(1.0)


def test_arena_wilson_known_values() -> None:
    # 7/10: p=0.7, z^2=3.8415; centre=(0.7+0.19207)/1.38415=0.64450, half=0.24767
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.3968, abs=1e-4)
    assert high == pytest.approx(0.8922, abs=1e-4)
    # 0/10: the low end is exactly 0, the high end z^2/(n+z^2) = 3.8415/13.8415
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(3.8415 / 13.8415, abs=1e-4)
    # 10/10 mirrors it
    low, high = wilson_interval(10, 10)
    assert high == 1.0
    assert low == pytest.approx(1 - 3.8415 / 13.8415, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_arena_wilson_rejects_bad_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


def test_arena_proportion_fields_and_str() -> None:
    p = proportion(50, 200)
    assert p.rate == 0.25
    assert p.low < 0.25 < p.high
    assert str(p) == f"25.0% [{p.low:.1%}, {p.high:.1%}]"
    assert p.to_json()["trials"] == 200
    assert proportion(0, 0).rate == 0.0


def test_arena_summarize() -> None:
    s = summarize([2, 4, 4, 4, 5, 5, 7, 9])
    assert s.n == 8
    assert s.mean == 5.0
    # sum of squares 32, / 7
    assert s.std == pytest.approx(math.sqrt(32 / 7))
    assert s.stderr == pytest.approx(math.sqrt(32 / 7) / math.sqrt(8))
    assert (s.min, s.max) == (2.0, 9.0)
    assert s.median == 4.5
    # positions 1.75 and 5.25 in the sorted list
    assert s.q1 == 4.0
    assert s.q3 == 5.5
    assert s.ci_low == pytest.approx(5.0 - 1.959964 * s.stderr, abs=1e-6)
    empty = summarize([])
    assert empty.n == 0 and empty.mean == 0.0
    one = summarize([3])
    assert one.std == 0.0 and one.median == 3.0


def test_arena_chi2_sf() -> None:
    # Reference values from R: pchisq(x, df, lower.tail=FALSE)
    assert chi2_sf(4.0, 1) == pytest.approx(0.04550026, abs=1e-7)
    assert chi2_sf(3.84146, 1) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1.0), abs=1e-12)  # df 2 is exp(-x/2)
    assert chi2_sf(0.0, 3) == 1.0
    assert chi2_sf(100.0, 3) < 1e-20


def test_arena_seat_advantage() -> None:
    adv = seat_advantage([60, 40], 100)
    assert [p.rate for p in adv.seats] == [0.6, 0.4]
    assert adv.mean_rate == pytest.approx(0.5)
    assert adv.advantage == pytest.approx((0.1, -0.1))
    assert adv.chi2 == pytest.approx(4.0)
    assert adv.p_value == pytest.approx(0.0455, abs=1e-4)
    even = seat_advantage([25, 25, 25, 25], [100, 100, 100, 100])
    assert even.chi2 == 0.0 and even.p_value == 1.0
    assert seat_advantage([0, 0], 10).p_value == 1.0
    with pytest.raises(ValueError):
        seat_advantage([1, 2], [10])


def test_arena_binomial_p_value() -> None:
    # R: binom.test(60, 100)$p.value == 0.05688793
    assert binomial_p_value(60, 100) == pytest.approx(0.05688793, abs=1e-7)
    assert binomial_p_value(50, 100) == pytest.approx(1.0)
    # 10 of 10 at 0.5: 2 * 0.5**10
    assert binomial_p_value(10, 10) == pytest.approx(2 / 1024)
    # Bin(20, 0.25): pmf(3) = 0.13390; the outcomes at most that likely are k = 0..3 and
    # k >= 7: 0.00317 + 0.02114 + 0.06695 + 0.13390 + (1 - P(k <= 6) = 0.21422) = 0.43937
    assert binomial_p_value(3, 20, 0.25) == pytest.approx(0.43937, abs=1e-4)


def test_arena_elo_difference() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_difference(1.0) == math.inf
    assert elo_difference(0.0) == -math.inf
