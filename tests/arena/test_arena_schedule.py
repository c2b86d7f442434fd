"""Arena schedule: seat rotation and per-game seeds, worked out by hand."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from septet.arena.schedule import Schedule


def test_arena_two_agents_alternate_seats() -> None:
    s = Schedule(("a", "b"), 2, 10)
    assert [s.seating(i) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert s.cycle == 2


def test_arena_three_agents_every_seating_once_per_cycle() -> None:
    s = Schedule(("a", "b", "c"), 3, 6)
    seatings = [s.seating(i) for i in range(6)]
    # Block 0 rotates (0,1,2); block 1 rotates the other cyclic order (0,2,1).
    assert seatings[:3] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert seatings[3:] == [(0, 2, 1), (2, 1, 0), (1, 0, 2)]
    assert sorted(seatings) == sorted(itertools.permutations(range(3)))
    assert s.cycle == 6
    assert s.seating(6) == s.seating(0)


def test_arena_four_agents_balanced_over_a_cycle() -> None:
    s = Schedule(("a", "b", "c", "d"), 4, 24)
    assert s.cycle == 24
    seatings = [s.seating(i) for i in range(24)]
    assert len(set(seatings)) == 24  # all 4! seatings
    for seat in range(4):
        assert Counter(st[seat] for st in seatings) == {0: 6, 1: 6, 2: 6, 3: 6}


def test_arena_fewer_agents_than_seats_repeat_in_order() -> None:
    s = Schedule(("a", "b"), 4, 8)
    assert s.seating(0) == (0, 1, 0, 1)
    assert s.seating(1) == (1, 0, 1, 0)
    # Block 1 uses the next distinct cyclic order starting with agent 0: (0, 1, 1, 0).
    assert s.seating(4) == (0, 1, 1, 0)
    assert s.seating(5) == (1, 1, 0, 0)


def test_arena_more_agents_than_seats_cycle_groups() -> None:
    s = Schedule(("a", "b", "c"), 2, 12)
    # Groups (0,1), (0,2), (1,2), each played twice (seats swapped).
    assert [s.seating(i) for i in range(6)] == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    games = Counter(a for i in range(6) for a in s.seating(i))
    assert games == {0: 4, 1: 4, 2: 4}


def test_arena_game_seeds_depend_on_seed_and_index_only() -> None:
    a = Schedule(("x", "y"), 2, 5, seed=7)
    b = Schedule(("x", "y", "z"), 2, 50, seed=7)
    assert [a.game_seed(i) for i in range(5)] == [b.game_seed(i) for i in range(5)]
    assert len({a.game_seed(i) for i in range(5)}) == 5
    assert a.game_seed(0) != Schedule(("x", "y"), 2, 5, seed=8).game_seed(0)
    assert 0 <= a.game_seed(3) < 2**62


def test_arena_labels_unique() -> None:
    s = Schedule(("greedy", "random", "greedy"), 3, 1)
    assert s.labels() == ["greedy#1", "random", "greedy#2"]
    assert Schedule(("a", "b"), 2, 1).labels() == ["a", "b"]


def test_arena_schedule_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        Schedule((), 2, 1)
    with pytest.raises(ValueError):
        Schedule(("a",), 0, 1)
    with pytest.raises(ValueError):
        Schedule(("a",), 2, -1)
